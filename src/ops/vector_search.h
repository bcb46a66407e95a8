/*-------------------------------------------------------------------------
 *
 * vector_search.h
 *	  SearchVectors' core (vector_search.c): a vector index's metadata, the
 *	  exact TopK search under its distance function
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_VECTOR_SEARCH_H
#define HROE_VECTOR_SEARCH_H

#include "item.h"
#include "tables.h"

typedef enum HroeDistance
{
	HROE_DISTANCE_COSINE,
	HROE_DISTANCE_EUCLIDEAN,
	HROE_DISTANCE_DOT_PRODUCT
} HroeDistance;

/* One row of hroe.vector_indexes */
typedef struct HroeVectorIndex
{
	char	   *table;
	char	   *name;
	char	   *attribute;		/* the vector attribute */
	int			dims;
	HroeDistance distance;
	char	   *projection;		/* ALL, KEYS_ONLY, INCLUDE */
	int			nnonkey;
	char	  **nonkey;
	int			nsearch;		/* SearchSchema elements */
	char	  **search_attrs;
	bool	   *search_hash;	/* HASH (else INLINE_FILTER) */
	char	   *search_types;	/* S, N, B */
	char	  **search_columns;
	char	   *vector_column;
} HroeVectorIndex;

/* One result: the item (as stored) and its score */
typedef struct HroeVectorHit
{
	HroeItem   *item;
	float4		score;
	float4	   *vector;			/* the index's f32 copy, dims of them */
} HroeVectorHit;

/*
 * The vector index index of table (NULL if none), read from
 * hroe.vector_indexes (connected to SPI or not), in the caller's context
 */
extern HroeVectorIndex *hroe_vector_index_lookup(const char *table, const char *index);

/*
 * The k nearest items (fewer if the index holds fewer) to query q (dims
 * floats) in index vx of table t, nearest first; filters: per SearchSchema
 * element, the value it must equal (type 0: no condition).  Exact: every
 * vector the filters select is compared.  Returns the hits' count.
 */
extern int	hroe_vector_search(HroeTableMeta *t, HroeVectorIndex *vx, const float4 *q, int k,
							   const HroeValue *filters, HroeVectorHit *hits);

/* The score of a and b (n floats) under distance d, as DynamoDB reports it */
extern float4 hroe_vector_score(HroeDistance d, const float4 *a, const float4 *b, int n);

#endif
