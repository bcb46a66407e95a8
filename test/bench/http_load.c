/*
 * test/bench/http_load.c: a closed-loop HTTP/1.1 load generator replaying
 * pre-signed DynamoDB requests, for the gateway benchmarks beside wrk.
 *
 *   http_load HOST PORT CONNECTIONS WARMUP_S SECONDS REQUESTS.tsv
 *
 * REQUESTS.tsv as test/bench/gateway_requests.py writes it (X-Amz-Target,
 * X-Amz-Date, Authorization, body; tab-separated), the same headers as
 * test/bench/gateway.lua sends.  One thread, one epoll set, CONNECTIONS
 * keep-alive connections, each sending its next request as soon as the
 * previous answer is complete, round-robin through the file.  Every
 * request's latency is measured with CLOCK_MONOTONIC from just before its
 * first byte is written to its answer's last byte, and kept (no histogram
 * buckets): the percentiles are exact.  Answers completed during the
 * WARMUP_S first seconds are not counted.  Prints
 *   RESULT req/s p50-ms p99-ms answers-not-200 mean-ms max-ms
 * Answers must carry a Content-Length (libmicrohttpd's, dynalite's and
 * DynamoDB Local's do); anything else is an error and ends the run.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct Conn
{
	int			fd;
	const char *req;			/* the request being sent */
	size_t		req_len;
	size_t		sent;
	char		buf[65536];		/* the answer being read */
	size_t		got;
	double		start;
} Conn;

static char **requests;
static size_t *request_lens;
static size_t nrequests,
			next_request;
static double *lat;				/* latencies of counted answers, seconds */
static double *lat_at;			/* when each was sent, seconds after the start */
static int *lat_conn;			/* and on which connection */
static size_t nlat,
			caplat;
static long	not_ok;
static int	epfd;

/* Watch the connection for its answer, and for room to send if want_out. */
static void
watch(Conn *c, int op, bool want_out)
{
	struct epoll_event ev = {.events = EPOLLIN | (want_out ? EPOLLOUT : 0), .data.ptr = c};

	if (epoll_ctl(epfd, op, c->fd, &ev) != 0)
	{
		perror("http_load: epoll_ctl");
		exit(1);
	}
}

static void
die(const char *what)
{
	fprintf(stderr, "http_load: %s: %s\n", what, strerror(errno));
	exit(1);
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
load_requests(const char *path, const char *host, int port)
{
	FILE	   *f = fopen(path, "r");
	char	   *line = NULL;
	size_t		cap = 0;
	ssize_t		n;

	if (f == NULL)
		die(path);
	while ((n = getline(&line, &cap, f)) > 0)
	{
		char	   *target,
				   *date,
				   *auth,
				   *body,
				   *save = NULL;
		char	   *r;
		int			len;

		if (line[n - 1] == '\n')
			line[--n] = '\0';
		target = strtok_r(line, "\t", &save);
		date = strtok_r(NULL, "\t", &save);
		auth = strtok_r(NULL, "\t", &save);
		body = strtok_r(NULL, "", &save);
		if (target == NULL || date == NULL || auth == NULL || body == NULL)
		{
			fprintf(stderr, "http_load: a malformed line in %s\n", path);
			exit(1);
		}
		len = asprintf(&r, "POST / HTTP/1.1\r\nHost: %s:%d\r\n"
					   "Content-Type: application/x-amz-json-1.0\r\nX-Amz-Target: %s\r\n"
					   "X-Amz-Date: %s\r\nAuthorization: %s\r\nContent-Length: %zu\r\n\r\n%s",
					   host, port, target, date, auth, strlen(body), body);
		if (len < 0)
			die("asprintf");
		requests = realloc(requests, sizeof(char *) * (nrequests + 1));
		request_lens = realloc(request_lens, sizeof(size_t) * (nrequests + 1));
		if (requests == NULL || request_lens == NULL)
			die("realloc");
		requests[nrequests] = r;
		request_lens[nrequests++] = (size_t) len;
	}
	free(line);
	fclose(f);
	if (nrequests == 0)
	{
		fprintf(stderr, "http_load: no requests in %s\n", path);
		exit(1);
	}
	next_request = (size_t) getpid() % nrequests;
}

/* Start the connection's next request (written as far as the socket takes). */
static void
send_next(Conn *c)
{
	c->req = requests[next_request];
	c->req_len = request_lens[next_request];
	next_request = (next_request + 1) % nrequests;
	c->sent = 0;
	c->got = 0;
	c->start = now();
	while (c->sent < c->req_len)
	{
		ssize_t		n = send(c->fd, c->req + c->sent, c->req_len - c->sent, MSG_NOSIGNAL);

		if (n < 0 && errno == EAGAIN)
		{
			/* the rest when EPOLLOUT says so */
			watch(c, EPOLL_CTL_MOD, true);
			return;
		}
		if (n < 0)
			die("send");
		c->sent += (size_t) n;
	}
}

/* The length of the complete answer in c->buf, 0 if incomplete; its status. */
static size_t
answer_length(Conn *c, int *status)
{
	char	   *end = memmem(c->buf, c->got, "\r\n\r\n", 4);
	size_t		head,
				body = 0;
	char	   *p;

	if (end == NULL)
		return 0;
	head = (size_t) (end - c->buf) + 4;
	*end = '\0';
	if (strncmp(c->buf, "HTTP/1.1 ", 9) != 0)
	{
		fprintf(stderr, "http_load: not an HTTP/1.1 answer\n");
		exit(1);
	}
	*status = atoi(c->buf + 9);
	for (p = strstr(c->buf, "\r\n"); p; p = strstr(p + 2, "\r\n"))
		if (strncasecmp(p + 2, "Content-Length:", 15) == 0)
			break;
	if (p == NULL)
	{
		fprintf(stderr, "http_load: an answer without Content-Length\n");
		exit(1);
	}
	body = strtoull(p + 17, NULL, 10);
	*end = '\r';
	if (head + body > sizeof(c->buf))
	{
		fprintf(stderr, "http_load: an answer over %zu bytes\n", sizeof(c->buf));
		exit(1);
	}
	return c->got >= head + body ? head + body : 0;
}

static int
compare(const void *a, const void *b)
{
	double		x = *(const double *) a,
				y = *(const double *) b;

	return x < y ? -1 : x > y;
}

int
main(int argc, char **argv)
{
	struct sockaddr_in addr = {.sin_family = AF_INET};
	int			nconns,
				one = 1;
	double		warmup,
				secs,
				t0,
				t1,
				sum = 0;
	Conn	   *conns;
	long		counted = 0;

	if (argc != 7)
	{
		fprintf(stderr, "usage: http_load HOST PORT CONNECTIONS WARMUP_S SECONDS REQUESTS.tsv\n");
		return 2;
	}
	addr.sin_port = htons((uint16_t) atoi(argv[2]));
	if (inet_pton(AF_INET, argv[1], &addr.sin_addr) != 1)
	{
		fprintf(stderr, "http_load: HOST must be an IPv4 address\n");
		return 2;
	}
	nconns = atoi(argv[3]);
	warmup = atof(argv[4]);
	secs = atof(argv[5]);
	if (nconns < 1 || secs <= 0 || warmup < 0)
	{
		fprintf(stderr, "http_load: bad CONNECTIONS or SECONDS\n");
		return 2;
	}
	load_requests(argv[6], argv[1], atoi(argv[2]));
	conns = calloc((size_t) nconns, sizeof(Conn));
	epfd = epoll_create1(0);
	if (conns == NULL || epfd < 0)
		die("setup");
	for (int i = 0; i < nconns; i++)
	{
		Conn	   *c = &conns[i];

		c->fd = socket(AF_INET, SOCK_STREAM, 0);
		if (c->fd < 0 || connect(c->fd, (struct sockaddr *) &addr, sizeof(addr)) != 0)
			die("connect");
		setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		if (fcntl(c->fd, F_SETFL, O_NONBLOCK) != 0)
			die("fcntl");
		/* EPOLLOUT only while a request is partly sent */
		watch(c, EPOLL_CTL_ADD, false);
	}
	t0 = now() + warmup;
	t1 = t0 + secs;
	for (int i = 0; i < nconns; i++)
		send_next(&conns[i]);
	for (;;)
	{
		struct epoll_event events[256];
		int			n = epoll_wait(epfd, events, 256, 100);
		double		t = now();

		if (t >= t1)
			break;
		if (n < 0 && errno != EINTR)
			die("epoll_wait");
		for (int i = 0; i < n; i++)
		{
			Conn	   *c = events[i].data.ptr;
			ssize_t		got;
			size_t		len;
			int			status = 0;

			if (c->sent < c->req_len)
			{
				/* the rest of a request the socket did not take at once */
				ssize_t		w = send(c->fd, c->req + c->sent, c->req_len - c->sent, MSG_NOSIGNAL);

				if (w > 0)
					c->sent += (size_t) w;
				else if (w < 0 && errno != EAGAIN)
					die("send");
				if (c->sent == c->req_len)
					watch(c, EPOLL_CTL_MOD, false);
				if (!(events[i].events & EPOLLIN))
					continue;
			}
			got = recv(c->fd, c->buf + c->got, sizeof(c->buf) - c->got, 0);
			if (got == 0)
			{
				fprintf(stderr, "http_load: the server closed a connection\n");
				return 1;
			}
			if (got < 0)
			{
				if (errno == EAGAIN || errno == EINTR)
					continue;
				die("recv");
			}
			c->got += (size_t) got;
			len = answer_length(c, &status);
			if (len == 0)
				continue;
			if (len != c->got)
			{
				fprintf(stderr, "http_load: more bytes than one answer\n");
				return 1;
			}
			t = now();
			if (t >= t0 && t < t1)
			{
				if (nlat == caplat)
				{
					caplat = caplat ? caplat * 2 : 65536;
					lat = realloc(lat, sizeof(double) * caplat);
					lat_at = realloc(lat_at, sizeof(double) * caplat);
					lat_conn = realloc(lat_conn, sizeof(int) * caplat);
					if (lat == NULL || lat_at == NULL || lat_conn == NULL)
						die("realloc");
				}
				lat_at[nlat] = c->start - t0;
				lat_conn[nlat] = (int) (c - conns);
				lat[nlat++] = t - c->start;
				sum += t - c->start;
				counted++;
				if (status != 200)
					not_ok++;
			}
			send_next(c);
		}
	}
	for (int i = 0; i < nconns; i++)
		close(conns[i].fd);
	if (nlat == 0)
	{
		fprintf(stderr, "http_load: no answer in %.1f s\n", secs);
		return 1;
	}
	/* HTTP_LOAD_SLOW=N: the N slowest requests on stderr, when and where */
	if (getenv("HTTP_LOAD_SLOW"))
	{
		int			shown = atoi(getenv("HTTP_LOAD_SLOW"));

		for (int k = 0; k < shown; k++)
		{
			size_t		worst = 0;

			for (size_t i = 1; i < nlat; i++)
				if (lat[i] > lat[worst])
					worst = i;
			if (lat[worst] < 0)
				break;
			fprintf(stderr, "slow: %.1f ms, sent at %.3f s (CLOCK_MONOTONIC %.3f) on connection %d\n",
					lat[worst] * 1e3, lat_at[worst], lat_at[worst] + t0, lat_conn[worst]);
			lat[worst] = -lat[worst];
		}
		for (size_t i = 0; i < nlat; i++)
			if (lat[i] < 0)
				lat[i] = -lat[i];
	}
	qsort(lat, nlat, sizeof(double), compare);
	printf("RESULT %.1f %.3f %.3f %ld %.3f %.3f\n", counted / secs,
		   lat[(size_t) (0.50 * (double) (nlat - 1))] * 1e3,
		   lat[(size_t) (0.99 * (double) (nlat - 1))] * 1e3, not_ok,
		   sum / (double) nlat * 1e3, lat[nlat - 1] * 1e3);
	return 0;
}
