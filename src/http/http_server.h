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

/*
 * S3's request run as the key's role (gateway_call.c): the answer framed
 * for s3.h's s3_answer, or NULL for a key unknown, revoked or whose secret
 * is not secret any more
 */
extern bytea *hroe_s3_gateway_run(text *key_id, const char *secret, const char *method,
								  const char *path, const char *query, const char *body,
								  size_t len);

#endif							/* HROE_HTTP_SERVER_H */
