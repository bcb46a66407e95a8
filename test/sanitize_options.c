/*
 * test/sanitize_options.c: sanitizer options compiled into hroe.so by
 * test/sanitize.sh (make SANITIZE=1). The runtimes read ASAN_OPTIONS from
 * /proc/self/environ, which the postmaster overwrites with its process
 * title, so the options have to come from these hooks instead. Reports go
 * to the backend's stderr, i.e. the server log, which test/sanitize.sh scans.
 */
#include "postgres.h"
#include "fmgr.h"

const char *__asan_default_options(void);
const char *__ubsan_default_options(void);

/* ASan options for every backend that loads hroe */
const char *
__asan_default_options(void)
{
	return "verify_asan_link_order=0:detect_leaks=0:halt_on_error=1:print_summary=1";
}

/* UBSan options for every backend that loads hroe */
const char *
__ubsan_default_options(void)
{
	return "print_stacktrace=1:halt_on_error=1";
}

Datum		hroe_sanitize_probe(PG_FUNCTION_ARGS);

PG_FUNCTION_INFO_V1(hroe_sanitize_probe);

/* Shift past the width on purpose (signed overflow is defined under -fwrapv):
 * proves UBSan reports reach the log directory */
Datum
hroe_sanitize_probe(PG_FUNCTION_ARGS)
{
	volatile int32 x = PG_GETARG_INT32(0);

	PG_RETURN_INT32(1 << x);
}
