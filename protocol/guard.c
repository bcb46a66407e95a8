/*-------------------------------------------------------------------------
 *
 * guard.c
 *	  The connections of one libmicrohttpd daemon, watched so that no
 *	  client, signed or not, can hold them (guard.h).
 *
 * libmicrohttpd's own idle timeout restarts with every byte, so a client
 * sending one byte every few seconds keeps a connection forever, and its
 * connection limit refuses newcomers while idle ones hold every slot.  The
 * guard keeps its own list of the daemon's connections
 * (MHD_OPTION_NOTIFY_CONNECTION) with the phase each is in, and ends the
 * ones that overstay with shutdown(2).  An idle connection becomes a request
 * being read when the kernel counts bytes received on it since its last
 * answer (TCP_INFO's tcpi_bytes_received, which counts a TLS handshake's
 * bytes too), so a keep-alive connection waiting for its client's next
 * request is not mistaken for a slow one.
 *
 * protocol/guard.c
 *
 *-------------------------------------------------------------------------
 */
#include "guard.h"

#include <errno.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <linux/tcp.h>

#include "util.h"

/* sweeps at most this often (seconds) */
#define SWEEP_INTERVAL 0.2
/*
 * a connection idle less than this (seconds) is not closed to make room if
 * it is its address's only one: one accepted in the same MHD_run round as
 * the connection making room has its request in its socket, not yet read
 * (under churn, it is the oldest).  An address holding more connections
 * has no such grace (see make_room).
 */
#define EVICT_MIN_IDLE 0.02

/* answers queued and not yet sent, every daemon of the process */
static _Atomic size_t unsent_total = 0;

void
guard_init(Guard *g, const GuardLimits *limits, int max_connections)
{
	memset(g, 0, sizeof(*g));
	g->head.next = g->head.prev = &g->head;
	g->limits = limits;
	g->max_connections = max_connections;
}

size_t
guard_unsent_bytes(void)
{
	return atomic_load(&unsent_total);
}

/* Bytes the kernel received on the socket (0 if it cannot tell). */
static uint64_t
bytes_received(int fd)
{
	struct tcp_info info;
	socklen_t	len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (fd < 0 || getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) != 0 ||
		len < offsetof(struct tcp_info, tcpi_bytes_received) + sizeof(info.tcpi_bytes_received))
		return 0;
	return info.tcpi_bytes_received;
}

static GuardConn *
conn_of(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *info =
		MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return info ? info->socket_context : NULL;
}

/* End the connection: libmicrohttpd reads the end of the stream and frees it. */
static void
close_conn(GuardConn *c, unsigned long *cause)
{
	if (c->closing)
		return;
	c->closing = true;
	c->addr->open--;
	(*cause)++;
	(void) shutdown(c->fd, SHUT_RDWR);
}

/* The client address's entry (created with a count of 0). */
static GuardAddr *
addr_of(Guard *g, struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *info =
		MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	unsigned char key[16] = {0};
	uint32_t	h = 2166136261u;
	GuardAddr  *a;

	if (info && info->client_addr)
	{
		const struct sockaddr *sa = info->client_addr;

		if (sa->sa_family == AF_INET)
			memcpy(key, &((const struct sockaddr_in *) sa)->sin_addr, 4);
		else if (sa->sa_family == AF_INET6)
			memcpy(key, &((const struct sockaddr_in6 *) sa)->sin6_addr, 16);
	}
	for (int i = 0; i < 16; i++)
		h = (h ^ key[i]) * 16777619u;
	h %= GUARD_BUCKETS;
	for (a = g->buckets[h]; a; a = a->next)
		if (memcmp(a->addr, key, sizeof(key)) == 0)
			return a;
	a = xmalloc(sizeof(GuardAddr));
	memcpy(a->addr, key, sizeof(key));
	a->count = a->open = 0;
	a->bucket = (int) h;
	a->next = g->buckets[h];
	g->buckets[h] = a;
	return a;
}

/* One connection less from a: its entry goes with the last. */
static void
addr_release(Guard *g, GuardAddr *a)
{
	if (--a->count > 0)
		return;
	for (GuardAddr **p = &g->buckets[a->bucket]; *p; p = &(*p)->next)
		if (*p == a)
		{
			*p = a->next;
			free(a);
			return;
		}
}

/* Slots below which no idle connection is closed to make room. */
static int
room_needed(const Guard *g)
{
	int			reserve = g->max_connections / 16;

	return g->max_connections - (reserve > 0 ? reserve : 1);
}

/*
 * Close idle connections until the open ones leave the reserve free: when a
 * new connection arrives near the limit, and at each sweep (a burst may have
 * filled every slot with connections too young to close, and at the limit
 * libmicrohttpd accepts no more until one closes).
 *
 * The one closed is an idle connection of the address holding the most
 * connections, the one idle the longest of them.  A connection younger
 * than EVICT_MIN_IDLE is passed over only if it is its address's only one:
 * an attacker's connections from a few addresses are all young when it
 * reconnects as fast as they are closed, and passing them over would leave
 * as the only candidate a lone client still in its TLS handshake or between
 * the packets of its request (a client on a slow link) -- closed with no
 * answer.  A lone client's connection is thus never closed while an idle
 * connection of an address holding more is open.
 */
static void
make_room(Guard *g)
{
	int			open = 0;
	double		now = now_monotonic();

	for (GuardConn *c = g->head.next; c != &g->head; c = c->next)
		open += !c->closing;
	while (open >= room_needed(g))
	{
		GuardConn  *oldest = NULL;

		/* never a lone one just accepted (the one that came, among them) */
		for (GuardConn *c = g->head.next; c != &g->head; c = c->next)
			if (!c->closing && c->phase == GUARD_IDLE &&
				(c->addr->open > 1 || now - c->since >= EVICT_MIN_IDLE) &&
				(oldest == NULL || c->addr->open > oldest->addr->open ||
				 (c->addr->open == oldest->addr->open && c->since < oldest->since)))
				oldest = c;
		if (oldest == NULL)
			break;
		close_conn(oldest, &g->stats.evicted_idle);
		open--;
	}
}

void
guard_notify(void *cls, struct MHD_Connection *conn, void **socket_context,
			 enum MHD_ConnectionNotificationCode code)
{
	Guard	   *g = cls;
	GuardConn  *c = *socket_context;

	if (code == MHD_CONNECTION_NOTIFY_STARTED)
	{
		const union MHD_ConnectionInfo *info =
			MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);

		c = xmalloc(sizeof(GuardConn));
		memset(c, 0, sizeof(*c));
		c->conn = conn;
		c->fd = info ? info->connect_fd : -1;
		c->addr = addr_of(g, conn);
		c->addr->count++;
		c->addr->open++;
		c->phase = GUARD_IDLE;
		c->since = now_monotonic();
		/* any byte, a TLS handshake's included, starts the header clock */
		c->mark = 0;
		c->prev = g->head.prev;
		c->next = &g->head;
		g->head.prev->next = c;
		g->head.prev = c;
		g->count++;
		*socket_context = c;
		make_room(g);
	}
	else if (code == MHD_CONNECTION_NOTIFY_CLOSED && c != NULL)
	{
		atomic_fetch_sub(&unsent_total, c->unsent);
		if (!c->closing)
			c->addr->open--;
		addr_release(g, c->addr);
		c->prev->next = c->next;
		c->next->prev = c->prev;
		g->count--;
		free(c);
		*socket_context = NULL;
	}
}

void
guard_phase(struct MHD_Connection *conn, GuardPhase phase)
{
	GuardConn  *c = conn_of(conn);

	if (c == NULL || c->phase == phase)
		return;
	c->phase = phase;
	c->since = now_monotonic();
}

void
guard_sending(struct MHD_Connection *conn, size_t len)
{
	GuardConn  *c = conn_of(conn);

	if (c == NULL)
		return;
	c->phase = GUARD_SENDING;
	c->since = now_monotonic();
	atomic_fetch_sub(&unsent_total, c->unsent);
	c->unsent = len;
	atomic_fetch_add(&unsent_total, len);
}

void
guard_done(struct MHD_Connection *conn)
{
	GuardConn  *c = conn_of(conn);

	if (c == NULL)
		return;
	atomic_fetch_sub(&unsent_total, c->unsent);
	c->unsent = 0;
	c->phase = GUARD_IDLE;
	c->since = now_monotonic();
	c->receiving = false;
	c->mark = bytes_received(c->fd);
}

void
guard_sweep(Guard *g, double now)
{
	const GuardLimits *l = g->limits;

	/* near the limit, room is made at every round (cheap below it) */
	if (g->count >= room_needed(g))
		make_room(g);
	if (now < g->next_sweep)
		return;
	g->next_sweep = now + SWEEP_INTERVAL;
	for (GuardConn *c = g->head.next; c != &g->head; c = c->next)
	{
		if (c->closing)
			continue;
		switch (c->phase)
		{
			case GUARD_IDLE:
				if (!c->receiving)
				{
					if (bytes_received(c->fd) > c->mark)
					{
						c->receiving = true;
						c->since = now;
					}
				}
				else if (l->header_timeout > 0 && now - c->since > l->header_timeout)
					close_conn(c, &g->stats.slow_headers);
				break;
			case GUARD_BODY:
				if (l->body_timeout > 0 && now - c->since > l->body_timeout)
					close_conn(c, &g->stats.slow_bodies);
				break;
			case GUARD_RUNNING:
				break;
			case GUARD_SENDING:
				if (l->send_timeout > 0 && now - c->since > l->send_timeout)
					close_conn(c, &g->stats.unread_answers);
				break;
		}
	}

	(void) guard_unsent_room(g);
}

int
guard_timeout_ms(const Guard *g)
{
	return g->count >= room_needed(g) ? 20 : -1;
}

bool
guard_unsent_room(Guard *g)
{
	const GuardLimits *l = g->limits;
	size_t		total = atomic_load(&unsent_total);
	size_t		closing = 0;

	if (l->max_unsent == 0 || total <= l->max_unsent)
		return true;
	/* what the connections being closed hold is freed in MHD_run's next round */
	for (GuardConn *c = g->head.next; c != &g->head; c = c->next)
		if (c->closing)
			closing += c->unsent;
	while (total - (closing < total ? closing : total) > l->max_unsent)
	{
		GuardConn  *oldest = NULL;

		for (GuardConn *c = g->head.next; c != &g->head; c = c->next)
			if (!c->closing && c->phase == GUARD_SENDING && c->unsent > 0 &&
				(oldest == NULL || c->since < oldest->since))
				oldest = c;
		if (oldest == NULL)
			break;
		close_conn(oldest, &g->stats.over_unsent);
		closing += oldest->unsent;
	}
	return false;
}

int
guard_fit_connections(int wanted, int other_fds)
{
	struct rlimit rl;
	long		fit;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return wanted;
	fit = (long) rl.rlim_cur - other_fds;
	if (fit < 16)
		fit = 16;
	return fit < wanted ? (int) fit : wanted;
}
