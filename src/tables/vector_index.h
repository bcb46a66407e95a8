/*-------------------------------------------------------------------------
 *
 * vector_index.h
 *	  Vector indexes: an item's vector as f32 (vector_index.c), their
 *	  background build (vector_build.c)
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_VECTOR_INDEX_H
#define HROE_VECTOR_INDEX_H

#include "item.h"

typedef enum HroeVectorProblem
{
	VECTOR_OK,
	VECTOR_NOT_LIST,			/* not an L */
	VECTOR_SIZE,				/* not dims elements */
	VECTOR_ELEMENT				/* an element not a number f32 can hold */
} HroeVectorProblem;

extern bool hroe_vector_number(const char *text, uint32 len, float4 *out);
extern HroeVectorProblem hroe_vector_from_value(const HroeValue *v, int dims, float4 *out,
												int *bad, HroeType *bad_type);

/* the background build of a vector index UpdateTable creates (vector_build.c) */
extern int	hroe_vector_index_build_delay;
extern void hroe_vector_build_init(void);
extern void hroe_vector_index_check_searchable(const char *table, const char *index);
extern void hroe_vector_index_resume(const char *table);

/* the bgw_type of a build worker (pg_stat_activity's backend_type) */
#define HROE_VECTOR_BUILD_WORKER_TYPE "hroe vector index build"


#endif
