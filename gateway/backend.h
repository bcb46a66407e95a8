/*-------------------------------------------------------------------------
 *
 * backend.h
 *	  The database side of a request: access key secrets (cached) and the
 *	  call of hroe.gateway_call, its result mapped to an HTTP response.
 *
 * gateway/backend.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef GATEWAY_BACKEND_H
#define GATEWAY_BACKEND_H

#include "config.h"
#include "request.h"

extern void backend_init(const GatewayConfig *config, Backend *backend);

#endif							/* GATEWAY_BACKEND_H */
