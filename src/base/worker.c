/*-------------------------------------------------------------------------
 *
 * worker.c
 *	  The setup shared by hroe's background workers (worker.h).
 *
 * src/base/worker.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <dlfcn.h>

#include "postmaster/bgworker.h"

#include "worker.h"

/* A background worker of hroe's library (see worker.h) */
void
hroe_worker_prepare(BackgroundWorker *worker, const char *function, const char *type)
{
	Dl_info		info;

	memset(worker, 0, sizeof(*worker));
	worker->bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
	worker->bgw_start_time = BgWorkerStart_RecoveryFinished;
	worker->bgw_restart_time = 5;
	if (dladdr((void *) hroe_worker_prepare, &info) && info.dli_fname &&
		strlen(info.dli_fname) < BGW_MAXLEN)
		snprintf(worker->bgw_library_name, BGW_MAXLEN, "%s", info.dli_fname);
	else
		snprintf(worker->bgw_library_name, BGW_MAXLEN, "hroe");
	snprintf(worker->bgw_function_name, BGW_MAXLEN, "%s", function);
	snprintf(worker->bgw_type, BGW_MAXLEN, "%s", type);
}
