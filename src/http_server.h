/*-------------------------------------------------------------------------
 *
 * http_server.h
 *	  hroe's in-server HTTP endpoint: background workers answering
 *	  DynamoDB's HTTP API (http_server.c).
 *
 * src/http_server.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_HTTP_SERVER_H
#define HROE_HTTP_SERVER_H

/* Define the hroe.http_* settings (from _PG_init). */
extern void http_server_define_settings(void);

/* At shared_preload_libraries time: register the workers if hroe.http_port is set. */
extern void http_server_register_workers(void);

#endif							/* HROE_HTTP_SERVER_H */
