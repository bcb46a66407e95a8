/*-------------------------------------------------------------------------
 *
 * http.h
 *	  hroe-gateway's HTTP/1.1 server (libmicrohttpd) and its event loop.
 *
 * gateway/http.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef GATEWAY_HTTP_H
#define GATEWAY_HTTP_H

#include <stdbool.h>

#include "config.h"
#include "request.h"

/*
 * Start serving (the event loop thread, with the pool); false (with a
 * message) if the address or TLS files fail.
 */
extern bool http_start(const GatewayConfig *config);

/* Stop accepting connections (running requests go on). */
extern void http_quiesce(void);

/* Requests being answered now. */
extern int http_in_flight(void);

/* Close every connection and stop. */
extern void http_stop(void);

#endif							/* GATEWAY_HTTP_H */
