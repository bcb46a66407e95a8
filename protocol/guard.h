/*-------------------------------------------------------------------------
 *
 * guard.h
 *	  The connections of one libmicrohttpd daemon, watched so that no
 *	  client, signed or not, can hold them: shared by hroe-gateway's event
 *	  loops (http.c) and the in-server HTTP workers (src/http_server.c).
 *
 * Each connection is in one phase: idle (between requests, or a request's
 * headers arriving), reading its body, running, or sending its answer.
 * guard_sweep() closes a connection whose headers take longer than
 * header_timeout from their first byte (slowloris, a TLS handshake left
 * half done), whose body takes longer than body_timeout, or whose answer
 * is not read within send_timeout; and, while the answers queued and not
 * yet sent by the whole process exceed max_unsent, the connections with the
 * oldest unsent answers.  When a new connection leaves fewer than a
 * sixteenth of the slots free, idle connections (but an address's only
 * one, just accepted) are closed to make room:
 * first those of the client address holding the most connections, the one
 * idle the longest first, so that a new client is still answered.  A connection is closed
 * with shutdown(2): libmicrohttpd sees the end of the stream and frees it
 * through its own callbacks.
 *
 * protocol/guard.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef GATEWAY_GUARD_H
#define GATEWAY_GUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <microhttpd.h>

typedef enum GuardPhase
{
	GUARD_IDLE,					/* between requests, or headers arriving */
	GUARD_BODY,					/* headers here, the body arriving */
	GUARD_RUNNING,				/* the whole request here, being answered */
	GUARD_SENDING				/* the answer queued */
} GuardPhase;

/* connections from one client address */
typedef struct GuardAddr
{
	struct GuardAddr *next;		/* in its hash bucket */
	unsigned char addr[16];		/* IPv4 or IPv6 */
	int			bucket;
	int			count;			/* its connections */
	int			open;			/* of them, not being closed */
} GuardAddr;

#define GUARD_BUCKETS 1024

typedef struct GuardConn
{
	struct GuardConn *prev;
	struct GuardConn *next;
	struct MHD_Connection *conn;
	int			fd;
	GuardAddr  *addr;
	GuardPhase	phase;
	double		since;			/* start of the phase (of the headers' bytes when idle) */
	bool		receiving;		/* idle: bytes of a request arrived */
	bool		closing;		/* shut down, libmicrohttpd to free it */
	uint64_t	mark;			/* bytes received when it became idle */
	size_t		unsent;			/* bytes of its queued answer */
} GuardConn;

typedef struct GuardLimits
{
	double		header_timeout; /* seconds, 0: none */
	double		body_timeout;
	double		send_timeout;
	size_t		max_unsent;		/* bytes, whole process, 0: none */
} GuardLimits;

typedef struct GuardStats
{
	unsigned long slow_headers;
	unsigned long slow_bodies;
	unsigned long unread_answers;
	unsigned long evicted_idle;
	unsigned long over_unsent;
} GuardStats;

typedef struct Guard
{
	GuardConn	head;			/* list sentinel */
	int			count;
	int			max_connections;	/* the daemon's MHD_OPTION_CONNECTION_LIMIT */
	const GuardLimits *limits;
	double		next_sweep;
	GuardStats	stats;			/* connections closed, by cause */
	GuardAddr  *buckets[GUARD_BUCKETS];	/* connections by client address */
} Guard;

extern void guard_init(Guard *g, const GuardLimits *limits, int max_connections);

/* MHD_OPTION_NOTIFY_CONNECTION's callback (cls: the Guard). */
extern void guard_notify(void *cls, struct MHD_Connection *conn, void **socket_context,
						 enum MHD_ConnectionNotificationCode code);

/* The phases, as the access handler sees them. */
extern void guard_phase(struct MHD_Connection *conn, GuardPhase phase);
/* An answer of len bytes queued on conn. */
extern void guard_sending(struct MHD_Connection *conn, size_t len);
/* The request on conn is over (MHD's completion callback). */
extern void guard_done(struct MHD_Connection *conn);

/* Close what overstays (at most every 200 ms; now: now_monotonic()). */
extern void guard_sweep(Guard *g, double now);

/*
 * Is there room for one more answer under max_unsent?  If not, the
 * connections with the oldest unsent answers are closed to make it, which
 * frees their memory in MHD_run's next round: the caller waits until then
 * (the workers suspend the request, reading nothing more from its
 * connection).
 */
extern bool guard_unsent_room(Guard *g);

/*
 * The longest the event loop should wait before its next sweep: 20 ms when
 * the connections are near the limit (room is made as soon as the ones just
 * accepted may be closed), else -1 (no constraint).
 */
extern int	guard_timeout_ms(const Guard *g);

/* Bytes of answers queued and not yet sent, whole process. */
extern size_t guard_unsent_bytes(void);

/*
 * The slots a daemon may have under the open-file limit, given the
 * descriptors the process needs for everything else: min(wanted, what fits),
 * at least 16.
 */
extern int	guard_fit_connections(int wanted, int other_fds);

#endif							/* GATEWAY_GUARD_H */
