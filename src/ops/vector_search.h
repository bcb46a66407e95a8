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
	/* the IVF lists (vector_ivf.c): none while the set is 0 */
	int64		centroid_set;
	char	   *list_column;
	char	   *ivf_relname;	/* the btree on (HASH column,) list */
} HroeVectorIndex;

/* A set of IVF centroids (hroe.vector_centroids), immutable */
typedef struct HroeIvfSet
{
	int64		id;
	int			nlist;
	int			dims;
	HroeDistance distance;
	float4	   *centroids;		/* nlist x dims; unit vectors under COSINE */
} HroeIvfSet;

/* Defines the search's settings (hroe.vector_probes, ...), kept in vector_search.c */
extern void hroe_vector_search_init(void);

/* The centroid set id (cached for the backend), NULL if absent */
extern HroeIvfSet *hroe_ivf_set(int64 id);
/* The list of vector v (unit under COSINE) */
extern int	hroe_ivf_assign(const HroeIvfSet *s, const float4 *v);
/* The lists in the order a search for q probes them (order: nlist ints) */
extern void hroe_ivf_order(const HroeIvfSet *s, const float4 *q, int *order);

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
