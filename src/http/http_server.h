/*-------------------------------------------------------------------------
 *
 * http_server.h
 *	  hroe's in-server HTTP endpoint: background workers answering
 *	  DynamoDB's HTTP API (http_server.c).
 *
 * src/http/http_server.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_HTTP_SERVER_H
#define HROE_HTTP_SERVER_H

/*
 * From _PG_init: when hroe is preloaded, the hroe.http_* settings and the
 * workers if hroe.http_port is set; nothing otherwise.
 */
extern void hroe_http_init(void);

#endif							/* HROE_HTTP_SERVER_H */
