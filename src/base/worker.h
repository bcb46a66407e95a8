/*-------------------------------------------------------------------------
 *
 * worker.h
 *	  The registration of hroe's background workers (the TTL worker,
 *	  src/streams/ttl.c; the HTTP workers, src/http/http_server.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_WORKER_H
#define HROE_WORKER_H

/*
 * A background worker of hroe's library as the postmaster loaded it (a
 * path, or "hroe" in $libdir): connected to a database, started once
 * recovery is over, restarted 5 seconds after it exits, running function
 * (an exported symbol of hroe's) under the process type type
 */
struct BackgroundWorker;
extern void hroe_worker_prepare(struct BackgroundWorker *worker, const char *function,
								const char *type);

#endif							/* HROE_WORKER_H */
