/*-------------------------------------------------------------------------
 *
 * expression_stubs.c
 *	  Backend entry points that src/expression_*.c reference on paths the
 *	  expression fuzzer never takes (jsonb placeholder maps, a value's JSON
 *	  text (item.c) and their validation through hroe.item's parser
 *	  under PG_TRY, the SQL function hroe.explain_key_condition).  Reaching one is a harness bug, so each
 *	  aborts.  Deliberately includes no PostgreSQL header: only the symbol
 *	  names matter to the linker.
 *
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <stdlib.h>

#define UNREACHABLE(name) \
	void name(void); \
	void name(void) \
	{ \
		fprintf(stderr, "unreachable backend function " #name " called\n"); \
		abort(); \
	}

UNREACHABLE(JsonbIteratorInit)
UNREACHABLE(JsonbIteratorNext)
UNREACHABLE(hroe_jsonb_text)
UNREACHABLE(JsonbValueToJsonb)
UNREACHABLE(findJsonbValueFromContainer)
UNREACHABLE(pushJsonbValue)
UNREACHABLE(InitMaterializedSRF)
UNREACHABLE(tuplestore_putvalues)
UNREACHABLE(text_to_cstring)
UNREACHABLE(cstring_to_text)
UNREACHABLE(pg_detoast_datum)
UNREACHABLE(pg_detoast_datum_packed)
UNREACHABLE(hroe_value_from_jsonb)
UNREACHABLE(CopyErrorData)
UNREACHABLE(FlushErrorState)
UNREACHABLE(ReThrowError)

/* The backend globals PG_TRY and palloc's inline helpers name: never used */
void	   *CurrentMemoryContext;
void	   *PG_exception_stack;
void	   *error_context_stack;
