/*
 * test/bench/ycsb.c: YCSB's core workloads A-F over DynamoDB's HTTP API,
 * signed (SigV4, OpenSSL), for test/bench/ycsb.sh.
 *
 *   ycsb create HOST PORT KEY SECRET
 *   ycsb load   HOST PORT KEY SECRET RECORDS CONNECTIONS
 *   ycsb run    HOST PORT KEY SECRET RECORDS WORKLOAD CONNECTIONS WARMUP_S SECONDS RATE
 *   ycsb count  HOST PORT KEY SECRET
 *   ycsb items  RECORDS [keys|records]
 *
 * The table and items follow YCSB's DynamoDB binding (dynamodb/ in
 * brianfrankcooper/YCSB): a table "usertable" keyed by a hash key only (the
 * binding's dynamodb.primaryKey; here "ycsb_key"), keys "user" followed by
 * the FNV-1a 64 hash of the key number (YCSB's Utils.fnvhash64, as with
 * insertorder=hashed), items of 10 string fields field0..field9 of 100 bytes.
 * The binding's operations:
 *   read    GetItem, all fields (readallfields=true), eventually consistent
 *   update  UpdateItem of one field (writeallfields=false) with
 *           AttributeUpdates {fieldN: {Value, Action: PUT}}
 *   insert  PutItem of the whole item
 *   scan    GetItem of the start key, then Scan with ExclusiveStartKey = that
 *           key and Limit = what is left, until the length is reached (or
 *           the table's end: the binding would start again from its
 *           beginning); the length uniform in 1..100 (maxscanlength)
 *   read-modify-write  a read, then an update of the same key
 * Workloads (YCSB's workloads/workload[a-f]):
 *   A read 0.5, update 0.5, zipfian     B read 0.95, update 0.05, zipfian
 *   C read 1.0, zipfian                 D read 0.95, insert 0.05, latest
 *   E scan 0.95, insert 0.05, zipfian   F read 0.5, read-modify-write 0.5, zipfian
 * zipfian is YCSB's ScrambledZipfianGenerator (constant 0.99 over 10^10 items,
 * scrambled by FNV, modulo the records), latest its SkewedLatestGenerator
 * (the last acknowledged insert minus a zipfian draw), uniform is
 * WORKLOAD's letter in lower case ("c" = C uniformly) for a uniform request
 * distribution.  Reads and scans choose among acknowledged records only
 * (YCSB's AcknowledgedCounterGenerator).
 *
 * create makes the table (PAY_PER_REQUEST) and waits until it is ACTIVE.
 * load writes records 0..RECORDS-1 with BatchWriteItem, 25 items a request,
 * CONNECTIONS requests at a time, a batch sent again whole while its answer is
 * not a 200 with empty UnprocessedItems (puts are idempotent); prints
 *   LOAD records seconds records/s
 * run: RECORDS is the number of records the table holds (loaded and inserted
 * by earlier runs: new keys continue from there).  RATE 0 is a closed loop:
 * CONNECTIONS keep-alive connections, each starting its next operation as
 * soon as the last one is done; a latency is from the operation's first byte
 * sent to its last answer's last byte.  RATE > 0 is an open loop: operation
 * k is due at start + k / RATE whatever the answers, is sent on the first
 * free one of the CONNECTIONS connections, and its latency is counted from
 * the time it was due, not from when it could be sent: a stalled server
 * delays the operations queued behind it and they are counted late (no
 * coordinated omission, as wrk2 and HdrHistogram's users measure).  An open
 * loop waits, after SECONDS, for the operations due before then (up to
 * SECONDS more; any still unanswered are counted with the latency they had
 * reached and the run is marked overloaded).  Operations done in the WARMUP_S
 * first seconds are not counted.  Latencies go into a log-bucketed
 * histogram (HdrHistogram's layout: 1 microsecond units, 64 sub-buckets a
 * power of two, so within 1.6%).  Prints
 *   RESULT ops/s p50-ms p99-ms p99.9-ms max-ms not-200 read-misses stale inserted ops overloaded client-cpu
 * client-cpu: this program's CPU time (user and system) over the run's
 * wall-clock time, in cores (1.0 = one core busy: the client would be the
 * bottleneck; it is one thread)
 * count prints the table's items (Scan, Select COUNT, page after page):
 *   COUNT items
 * items prints records 0..RECORDS-1 as load would write them, one item a
 * line in DynamoDB JSON (no tab, backslash or newline inside: a line is a row
 * of COPY's text format), in the byte order of their keys, so that a btree
 * on the key is built by appending (test/bench/bigtable.sh's bulk path), or
 * with "records" in the order of their numbers, so that records 0..N-1 are
 * stored together
 * not-200: answers that were not HTTP 200; read-misses: a read (or a scan's
 * first GetItem) of a record that exists found none; inserted: records it
 * added (the next run's RECORDS grows by as many).  YCSB_VERIFY=1 re-reads
 * every update and insert right after its 200 (GetItem, ConsistentRead) and
 * counts as stale each answer without the value just written (not part of
 * the latency; for the harness's test only).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define TABLE "usertable"
#define PKEY "ycsb_key"
#define FIELDS 10
#define FIELD_LEN 100
#define MAX_SCAN 100
#define BATCH 25

/* ---------------------------------------------------------------- basics */

static void
die(const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	fputs("ycsb: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static int64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

typedef struct Buf
{
	char	   *p;
	size_t		len,
				cap;
} Buf;

static void
buf_reserve(Buf *b, size_t more)
{
	if (b->len + more + 1 <= b->cap)
		return;
	b->cap = (b->len + more + 1) * 2;
	b->p = realloc(b->p, b->cap);
	if (b->p == NULL)
		die("out of memory");
}

static void
buf_printf(Buf *b, const char *fmt,...)
{
	va_list		ap;
	int			n;

	for (;;)
	{
		size_t		room;

		buf_reserve(b, 256);
		room = b->cap - b->len;
		va_start(ap, fmt);
		n = vsnprintf(b->p + b->len, room, fmt, ap);
		va_end(ap);
		if (n < 0)
			die("vsnprintf");
		if ((size_t) n < room)
		{
			b->len += (size_t) n;
			return;
		}
		buf_reserve(b, (size_t) n + 1);
	}
}

/*
 * Appends without printf: the request path builds every request with these
 * (a printf's format parse per field cost this one-thread client a fifth of
 * its time, time it then took from the server on a two-core machine)
 */
static void
buf_cat(Buf *b, const char *s, size_t n)
{
	buf_reserve(b, n);
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void
buf_str(Buf *b, const char *s)
{
	buf_cat(b, s, strlen(s));
}

#define buf_lit(b, lit) buf_cat((b), (lit), sizeof(lit) - 1)

/* a decimal integer into out (at least 21 bytes); its length */
static size_t
fmt_int(char *out, long long v)
{
	char		tmp[24];
	size_t		n = 0,
				len = 0;
	unsigned long long u = v < 0 ? 0 - (unsigned long long) v : (unsigned long long) v;

	do
		tmp[n++] = (char) ('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		out[len++] = '-';
	while (n > 0)
		out[len++] = tmp[--n];
	out[len] = '\0';
	return len;
}

static void
buf_int(Buf *b, long long v)
{
	char		tmp[24];

	buf_cat(b, tmp, fmt_int(tmp, v));
}

/* splitmix64: the client's random numbers */
static uint64_t rng_state;

static uint64_t
rnd64(void)
{
	uint64_t	z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double
rnd01(void)
{
	return (double) (rnd64() >> 11) / 9007199254740992.0;
}

/* YCSB's Utils.fnvhash64 (Java longs: two's complement, then Math.abs) */
static int64_t
fnvhash64(int64_t val)
{
	uint64_t	h = 0xCBF29CE484222325ULL;
	uint64_t	v = (uint64_t) val;

	for (int i = 0; i < 8; i++)
	{
		h ^= v & 0xff;
		v >>= 8;
		h *= 1099511628211ULL;
	}
	return (int64_t) h < 0 ? -(int64_t) h : (int64_t) h;
}

static void
key_name(char *out, size_t size, int64_t keynum)
{
	char		digits[24];
	size_t		n = fmt_int(digits, (long long) fnvhash64(keynum));

	/* fnvhash64 is never negative: "user" and at most 19 digits */
	if (4 + n + 1 > size)
		die("key_name: no room");
	memcpy(out, "user", 4);
	memcpy(out + 4, digits, n + 1);
}

static void
random_value(char *out, size_t len)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

	for (size_t i = 0; i < len; i++)
		out[i] = chars[rnd64() % (sizeof(chars) - 1)];
	out[len] = '\0';
}

/* ------------------------------------------------ YCSB's key generators */

typedef struct Zipf
{
	int64_t		items;			/* the constructor's item count (eta) */
	int64_t		countforzeta;
	double		theta,
				zeta2theta,
				alpha,
				zetan,
				eta;
} Zipf;

static double
zeta_from(int64_t from, int64_t to, double theta, double initial)
{
	double		sum = initial;

	for (int64_t i = from; i < to; i++)
		sum += 1 / pow((double) (i + 1), theta);
	return sum;
}

static void
zipf_init(Zipf *z, int64_t items, double theta, double zetan)
{
	z->items = items;
	z->countforzeta = items;
	z->theta = theta;
	z->zeta2theta = zeta_from(0, 2, theta, 0);
	z->alpha = 1.0 / (1.0 - theta);
	z->zetan = zetan > 0 ? zetan : zeta_from(0, items, theta, 0);
	z->eta = (1 - pow(2.0 / (double) items, 1 - theta)) / (1 - z->zeta2theta / z->zetan);
}

/* ZipfianGenerator.nextLong(itemcount), base 0 (the count only grows here) */
static int64_t
zipf_next(Zipf *z, int64_t itemcount)
{
	double		u,
				uz;

	if (itemcount > z->countforzeta)
	{
		z->zetan = zeta_from(z->countforzeta, itemcount, z->theta, z->zetan);
		z->countforzeta = itemcount;
		z->eta = (1 - pow(2.0 / (double) z->items, 1 - z->theta)) / (1 - z->zeta2theta / z->zetan);
	}
	u = rnd01();
	uz = u * z->zetan;
	if (uz < 1.0)
		return 0;
	if (uz < 1.0 + pow(0.5, z->theta))
		return 1;
	return (int64_t) ((double) itemcount * pow(z->eta * u - z->eta + 1, z->alpha));
}

static Zipf scrambled;			/* ScrambledZipfianGenerator's inner one */
static Zipf latest;				/* SkewedLatestGenerator's */

/* ------------------------------------------------------------- workloads */

enum
{
	OP_READ, OP_UPDATE, OP_INSERT, OP_SCAN, OP_RMW, NOPS
};
static const char *const op_names[NOPS] = {"read", "update", "insert", "scan", "read-modify-write"};

typedef struct Workload
{
	char		name;
	double		p[NOPS];		/* proportions */
	char		dist;			/* z zipfian, l latest, u uniform */
} Workload;

static const Workload workloads[] = {
	{'A', {0.5, 0.5, 0, 0, 0}, 'z'},
	{'B', {0.95, 0.05, 0, 0, 0}, 'z'},
	{'C', {1.0, 0, 0, 0, 0}, 'z'},
	{'D', {0.95, 0, 0.05, 0, 0}, 'l'},
	{'E', {0, 0, 0.05, 0.95, 0}, 'z'},
	{'F', {0.5, 0, 0, 0, 0.5}, 'z'},
};
static Workload wl;

/* ------------------------------------------------------------- signing */

static const char *host_hdr;	/* "HOST:PORT" */
static const char *access_key,
		   *secret_key;
static char amz_date[17],
			sign_day[9];
static unsigned char signing_key[32];
static time_t date_for;

static void
hex(const unsigned char *in, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++)
	{
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15];
	}
	out[2 * n] = '\0';
}

static void
hmac(const unsigned char *key, size_t klen, const char *msg, unsigned char out[32])
{
	unsigned int len = 32;

	if (HMAC(EVP_sha256(), key, (int) klen, (const unsigned char *) msg, strlen(msg), out, &len) == NULL)
		die("HMAC failed");
}

static void
refresh_date(void)
{
	time_t		t = time(NULL);
	struct tm	tm;

	if (t == date_for)
		return;
	date_for = t;
	gmtime_r(&t, &tm);
	strftime(amz_date, sizeof(amz_date), "%Y%m%dT%H%M%SZ", &tm);
	if (strncmp(sign_day, amz_date, 8) != 0)
	{
		char		k[256];
		unsigned char a[32],
					b[32];

		memcpy(sign_day, amz_date, 8);
		sign_day[8] = '\0';
		snprintf(k, sizeof(k), "AWS4%s", secret_key);
		hmac((unsigned char *) k, strlen(k), sign_day, a);
		hmac(a, 32, "us-east-1", b);
		hmac(b, 32, "dynamodb", a);
		hmac(a, 32, "aws4_request", signing_key);
	}
}

/* A whole signed HTTP request for operation op with this body into out. */
static void
build_request(Buf *out, const char *op, const Buf *body)
{
	unsigned char digest[32];
	char		body_hex[65],
				canon_hex[65],
				sig_hex[65];
	Buf			canon = {0};

	refresh_date();
	SHA256((const unsigned char *) body->p, body->len, digest);
	hex(digest, 32, body_hex);
	buf_lit(&canon, "POST\n/\n\ncontent-type:application/x-amz-json-1.0\nhost:");
	buf_str(&canon, host_hdr);
	buf_lit(&canon, "\nx-amz-date:");
	buf_str(&canon, amz_date);
	buf_lit(&canon, "\nx-amz-target:DynamoDB_20120810.");
	buf_str(&canon, op);
	buf_lit(&canon, "\n\ncontent-type;host;x-amz-date;x-amz-target\n");
	buf_cat(&canon, body_hex, 64);
	SHA256((const unsigned char *) canon.p, canon.len, digest);
	hex(digest, 32, canon_hex);
	canon.len = 0;
	buf_lit(&canon, "AWS4-HMAC-SHA256\n");
	buf_str(&canon, amz_date);
	buf_lit(&canon, "\n");
	buf_str(&canon, sign_day);
	buf_lit(&canon, "/us-east-1/dynamodb/aws4_request\n");
	buf_cat(&canon, canon_hex, 64);
	hmac(signing_key, 32, canon.p, digest);
	hex(digest, 32, sig_hex);
	free(canon.p);
	out->len = 0;
	buf_lit(out, "POST / HTTP/1.1\r\nHost: ");
	buf_str(out, host_hdr);
	buf_lit(out, "\r\nContent-Type: application/x-amz-json-1.0\r\nX-Amz-Target: DynamoDB_20120810.");
	buf_str(out, op);
	buf_lit(out, "\r\nX-Amz-Date: ");
	buf_str(out, amz_date);
	buf_lit(out, "\r\nAuthorization: AWS4-HMAC-SHA256 Credential=");
	buf_str(out, access_key);
	buf_lit(out, "/");
	buf_str(out, sign_day);
	buf_lit(out, "/us-east-1/dynamodb/aws4_request, "
			"SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=");
	buf_cat(out, sig_hex, 64);
	buf_lit(out, "\r\nContent-Length: ");
	buf_int(out, (long long) body->len);
	buf_lit(out, "\r\n\r\n");
	buf_reserve(out, body->len);
	memcpy(out->p + out->len, body->p, body->len);
	out->len += body->len;
}

/* --------------------------------------------------------- the histogram */

#define SUB 64
#define NBUCKETS (2 * SUB + SUB * 48)

typedef struct Hist
{
	uint64_t	counts[NBUCKETS];
	uint64_t	total,
				max_us;
} Hist;

static int
hist_index(uint64_t us)
{
	int			e;

	if (us < 2 * SUB)
		return (int) us;
	e = 63 - __builtin_clzll(us) - 6;	/* us >> e in [64, 128) */
	if (e > 48)
		return NBUCKETS - 1;
	return 2 * SUB + (e - 1) * SUB + (int) ((us >> e) - SUB);
}

/* the highest value the bucket holds */
static uint64_t
hist_value(int i)
{
	int			e;

	if (i < 2 * SUB)
		return (uint64_t) i;
	e = (i - 2 * SUB) / SUB + 1;
	return ((uint64_t) ((i - 2 * SUB) % SUB + SUB) << e) + ((uint64_t) 1 << e) - 1;
}

static void
hist_add(Hist *h, int64_t ns)
{
	uint64_t	us = ns < 0 ? 0 : (uint64_t) ns / 1000;

	h->counts[hist_index(us)]++;
	h->total++;
	if (us > h->max_us)
		h->max_us = us;
}

static double
hist_pct(const Hist *h, double q)
{
	uint64_t	want = (uint64_t) ceil(q * (double) h->total),
				seen = 0;

	if (want == 0)
		want = 1;
	for (int i = 0; i < NBUCKETS; i++)
	{
		seen += h->counts[i];
		if (seen >= want)
		{
			uint64_t	v = hist_value(i);

			return (double) (v < h->max_us ? v : h->max_us) / 1e3;
		}
	}
	return (double) h->max_us / 1e3;
}

/* --------------------------------------------------------- connections */

typedef struct Conn
{
	int			fd;
	Buf			out;			/* the request being sent */
	size_t		sent;
	Buf			in;				/* the answer being read */
	size_t		want;			/* its whole length once known, else 0 */
	size_t		head;
	int			status;
	bool		busy;
	/* the operation in progress */
	int			op;
	int			step;
	int64_t		keynum;
	int64_t		due;			/* latency counted from here (ns) */
	int			scan_len,
				scan_count;
	char		scan_key[32];
	char		token[24];		/* YCSB_VERIFY: the value just written */
	int			batch;			/* load: the batch number */
	int			retries;
} Conn;

static struct sockaddr_in addr = {.sin_family = AF_INET};
static int	epfd;
static Conn *conns;
static int	nconns;

static void
watch(Conn *c, int op, bool want_out)
{
	struct epoll_event ev = {.events = EPOLLIN | (want_out ? EPOLLOUT : 0), .data.ptr = c};

	if (epoll_ctl(epfd, op, c->fd, &ev) != 0)
		die("epoll_ctl: %s", strerror(errno));
}

static void
conn_open(Conn *c)
{
	int			one = 1;

	c->fd = socket(AF_INET, SOCK_STREAM, 0);
	if (c->fd < 0 || connect(c->fd, (struct sockaddr *) &addr, sizeof(addr)) != 0)
		die("connect: %s", strerror(errno));
	setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (fcntl(c->fd, F_SETFL, O_NONBLOCK) != 0)
		die("fcntl: %s", strerror(errno));
	watch(c, EPOLL_CTL_ADD, false);
}

/* Send c->out (as far as the socket takes it now). */
static void
conn_send(Conn *c)
{
	c->sent = 0;
	c->in.len = 0;
	c->want = 0;
	c->busy = true;
	while (c->sent < c->out.len)
	{
		ssize_t		n = send(c->fd, c->out.p + c->sent, c->out.len - c->sent, MSG_NOSIGNAL);

		if (n < 0 && errno == EAGAIN)
		{
			watch(c, EPOLL_CTL_MOD, true);
			return;
		}
		if (n < 0)
			die("send: %s", strerror(errno));
		c->sent += (size_t) n;
	}
}

/*
 * Read what the socket has; true once an answer is complete (c->status, its
 * body at c->in.p + c->head, NUL-terminated).  A connection the server closed
 * before answering is opened again and the request sent again.
 */
static bool
conn_read(Conn *c, uint32_t events)
{
	if (c->sent < c->out.len && (events & EPOLLOUT))
	{
		ssize_t		w = send(c->fd, c->out.p + c->sent, c->out.len - c->sent, MSG_NOSIGNAL);

		if (w > 0)
			c->sent += (size_t) w;
		else if (w < 0 && errno != EAGAIN)
			die("send: %s", strerror(errno));
		if (c->sent == c->out.len)
			watch(c, EPOLL_CTL_MOD, false);
	}
	if (!(events & (EPOLLIN | EPOLLHUP | EPOLLERR)))
		return false;
	for (;;)
	{
		ssize_t		got;

		buf_reserve(&c->in, 65536);
		got = recv(c->fd, c->in.p + c->in.len, c->in.cap - c->in.len - 1, 0);
		if (got == 0 || (got < 0 && errno == ECONNRESET))
		{
			if (!c->busy || c->in.len > 0)
				die("the server closed a connection%s", c->in.len ? " in an answer" : "");
			/* an idle keep-alive connection the server closed: again */
			close(c->fd);
			conn_open(c);
			conn_send(c);
			return false;
		}
		if (got < 0)
		{
			if (errno == EAGAIN || errno == EINTR)
				return false;
			die("recv: %s", strerror(errno));
		}
		c->in.len += (size_t) got;
		c->in.p[c->in.len] = '\0';
		if (c->want == 0)
		{
			char	   *end = memmem(c->in.p, c->in.len, "\r\n\r\n", 4);
			char	   *p;

			if (end == NULL)
				continue;
			if (strncmp(c->in.p, "HTTP/1.1 ", 9) != 0)
				die("not an HTTP/1.1 answer");
			c->status = atoi(c->in.p + 9);
			c->head = (size_t) (end - c->in.p) + 4;
			*end = '\0';
			for (p = strstr(c->in.p, "\r\n"); p; p = strstr(p + 2, "\r\n"))
				if (strncasecmp(p + 2, "Content-Length:", 15) == 0)
					break;
			if (p == NULL)
				die("an answer without Content-Length");
			c->want = c->head + strtoull(p + 17, NULL, 10);
			*end = '\r';
			buf_reserve(&c->in, c->want - c->in.len + 1);
		}
		if (c->in.len > c->want)
			die("more bytes than one answer");
		if (c->in.len == c->want)
		{
			c->busy = false;
			return true;
		}
	}
}

static const char *
answer_body(Conn *c)
{
	return c->in.p + c->head;
}

/* Find "name" in a JSON text and return what follows its colon. */
static const char *
json_after(const char *text, const char *name)
{
	char		pat[64];
	size_t		n = strlen(name);
	const char *p;

	if (n + 3 > sizeof(pat))
		die("json_after: a long name");
	pat[0] = '"';
	memcpy(pat + 1, name, n);
	pat[n + 1] = '"';
	pat[n + 2] = '\0';
	p = strstr(text, pat);
	if (p == NULL)
		return NULL;
	p += strlen(pat);
	while (*p == ' ' || *p == '\n')
		p++;
	if (*p != ':')
		return NULL;
	p++;
	while (*p == ' ' || *p == '\n')
		p++;
	return p;
}

/* --------------------------------------------------------- the run */

static int64_t records;			/* acknowledged and loaded records */
static int64_t next_insert;		/* the next new key number */
static bool verify;
static Hist hist,
			hist_op[NOPS];
static long not_ok,
			misses,
			stale,
			inserted,
			done_ops;
static int64_t t_start,
			t_end;
static bool open_loop;

/* the highest key number below every insert not yet acknowledged */
static int64_t
acknowledged(void)
{
	int64_t		limit = next_insert;

	for (int i = 0; i < nconns; i++)
		if (conns[i].busy && conns[i].op == OP_INSERT && conns[i].keynum < limit)
			limit = conns[i].keynum;
	return limit;
}

static int64_t
choose_key(void)
{
	int64_t		n = acknowledged();

	switch (wl.dist)
	{
		case 'u':
			return (int64_t) (rnd64() % (uint64_t) n);
		case 'l':
			return (n - 1) - zipf_next(&latest, n - 1 > 0 ? n - 1 : 1) % n;
		default:
			return fnvhash64(zipf_next(&scrambled, scrambled.items)) % n;
	}
}

static void
body_get(Buf *b, int64_t keynum, bool consistent)
{
	char		k[32];

	key_name(k, sizeof(k), keynum);
	b->len = 0;
	buf_lit(b, "{\"TableName\":\"" TABLE "\",\"Key\":{\"" PKEY "\":{\"S\":\"");
	buf_str(b, k);
	buf_lit(b, "\"}}");
	if (consistent)
		buf_lit(b, ",\"ConsistentRead\":true");
	buf_lit(b, "}");
}

static void
item_json(Buf *b, int64_t keynum, const char *token)
{
	char		k[32],
				v[FIELD_LEN + 1];

	key_name(k, sizeof(k), keynum);
	buf_lit(b, "{\"" PKEY "\":{\"S\":\"");
	buf_str(b, k);
	buf_lit(b, "\"}");
	for (int f = 0; f < FIELDS; f++)
	{
		random_value(v, FIELD_LEN);
		if (f == 0 && token)
			memcpy(v, token, strlen(token));
		buf_lit(b, ",\"field");
		buf_int(b, f);
		buf_lit(b, "\":{\"S\":\"");
		buf_cat(b, v, FIELD_LEN);
		buf_lit(b, "\"}");
	}
	buf_lit(b, "}");
}

static void
new_token(Conn *c)
{
	static long counter;

	snprintf(c->token, sizeof(c->token), "v%ldx%d", ++counter, (int) (c - conns));
}

static Buf body;

static void
send_op(Conn *c, const char *op)
{
	build_request(&c->out, op, &body);
	conn_send(c);
}

static void
start_read(Conn *c)
{
	body_get(&body, c->keynum, false);
	send_op(c, "GetItem");
}

static void
start_update(Conn *c)
{
	char		k[32],
				v[FIELD_LEN + 1];

	key_name(k, sizeof(k), c->keynum);
	random_value(v, FIELD_LEN);
	new_token(c);
	memcpy(v, c->token, strlen(c->token));
	body.len = 0;
	/* the binding's one field: field0, so that a re-read can find it */
	buf_lit(&body, "{\"TableName\":\"" TABLE "\",\"Key\":{\"" PKEY "\":{\"S\":\"");
	buf_str(&body, k);
	buf_lit(&body, "\"}},\"AttributeUpdates\":{\"field");
	buf_int(&body, verify ? 0 : (int) (rnd64() % FIELDS));
	buf_lit(&body, "\":{\"Value\":{\"S\":\"");
	buf_cat(&body, v, FIELD_LEN);
	buf_lit(&body, "\"},\"Action\":\"PUT\"}}}");
	send_op(c, "UpdateItem");
}

static void
start_insert(Conn *c)
{
	new_token(c);
	body.len = 0;
	buf_lit(&body, "{\"TableName\":\"" TABLE "\",\"Item\":");
	item_json(&body, c->keynum, c->token);
	buf_lit(&body, "}");
	send_op(c, "PutItem");
}

static void
start_scan(Conn *c)
{
	body.len = 0;
	buf_lit(&body, "{\"TableName\":\"" TABLE "\",\"Limit\":");
	buf_int(&body, c->scan_len - c->scan_count);
	buf_lit(&body, ",\"ExclusiveStartKey\":{\"" PKEY "\":{\"S\":\"");
	buf_str(&body, c->scan_key);
	buf_lit(&body, "\"}}}");
	send_op(c, "Scan");
}

/* Begin an operation of the workload on c, due at `due'. */
static void
start_op(Conn *c, int64_t due)
{
	double		u = rnd01(),
				acc = 0;

	c->op = NOPS - 1;
	for (int i = 0; i < NOPS; i++)
	{
		acc += wl.p[i];
		if (u < acc && wl.p[i] > 0)
		{
			c->op = i;
			break;
		}
	}
	while (wl.p[c->op] == 0)
		c->op--;
	c->step = 0;
	c->due = due;
	if (c->op == OP_INSERT)
	{
		c->keynum = next_insert++;
		start_insert(c);
		return;
	}
	c->keynum = choose_key();
	if (c->op == OP_UPDATE)
		start_update(c);
	else
	{
		if (c->op == OP_SCAN)
		{
			c->scan_len = 1 + (int) (rnd64() % MAX_SCAN);
			c->scan_count = 0;
			key_name(c->scan_key, sizeof(c->scan_key), c->keynum);
		}
		start_read(c);
	}
}

static void
finish_op(Conn *c)
{
	int64_t		t = now_ns();

	if (c->op == OP_INSERT)
		inserted++;
	/* closed: done within the measured seconds; open: due within them */
	if (open_loop ? (c->due >= t_start && c->due < t_end) : (t >= t_start && t < t_end))
	{
		hist_add(&hist, t - c->due);
		hist_add(&hist_op[c->op], t - c->due);
		done_ops++;
	}
	c->op = -1;
}

/*
 * An answer to c's current step: go on with the operation (true) or it is
 * done (false).  Steps: 0 the first request; for a scan 1.. its Scans; for a
 * read-modify-write 1 the update; with YCSB_VERIFY 9 the re-read.
 */
static bool
on_answer(Conn *c)
{
	const char *b = answer_body(c);

	if (c->status != 200)
	{
		not_ok++;
		if (not_ok <= 3)
			fprintf(stderr, "ycsb: %s answered %d: %.300s\n", op_names[c->op], c->status, b);
		return false;
	}
	if (c->step == 9)
	{
		if (strstr(b, c->token) == NULL)
			stale++;
		return false;
	}
	switch (c->op)
	{
		case OP_READ:
		case OP_RMW:
			if (c->step == 0)
			{
				if (json_after(b, "Item") == NULL)
					misses++;
				if (c->op == OP_RMW)
				{
					c->step = 1;
					start_update(c);
					return true;
				}
				return false;
			}
			break;
		case OP_SCAN:
			if (c->step == 0)
			{
				if (json_after(b, "Item") == NULL)
					misses++;
				c->scan_count = 1;
			}
			else
			{
				const char *count = json_after(b, "Count");
				const char *lek = json_after(b, "LastEvaluatedKey");

				c->scan_count += count ? atoi(count) : 0;
				if (lek == NULL)
					return false;	/* the table's end */
				lek = json_after(lek, "S");
				if (lek == NULL || *lek != '"' || strchr(lek + 1, '"') == NULL ||
					strchr(lek + 1, '"') - lek - 1 >= (long) sizeof(c->scan_key))
					die("a Scan's LastEvaluatedKey unread: %.200s", b);
				memcpy(c->scan_key, lek + 1, strchr(lek + 1, '"') - lek - 1);
				c->scan_key[strchr(lek + 1, '"') - lek - 1] = '\0';
			}
			if (c->scan_count >= c->scan_len)
				return false;
			c->step++;
			start_scan(c);
			return true;
		default:
			break;
	}
	return false;
}

static void
verify_step(Conn *c)
{
	c->step = 9;
	body_get(&body, c->keynum, true);
	send_op(c, "GetItem");
}

/* ------------------------------------------------------- simple calls */

/* One request on conns[0], waited for; its status, the body in *out. */
static int
call(const char *op, const Buf *b, const char **out)
{
	Conn	   *c = &conns[0];

	build_request(&c->out, op, b);
	conn_send(c);
	for (;;)
	{
		struct epoll_event ev;
		int			n = epoll_wait(epfd, &ev, 1, 30000);

		if (n == 0)
			die("%s: no answer in 30 s", op);
		if (n < 0 && errno != EINTR)
			die("epoll_wait: %s", strerror(errno));
		if (n > 0 && conn_read(c, ev.events))
		{
			*out = answer_body(c);
			return c->status;
		}
	}
}

static void
do_create(void)
{
	Buf			b = {0};
	const char *ans;
	int			st;

	buf_printf(&b, "{\"TableName\":\"" TABLE "\",\"AttributeDefinitions\":[{\"AttributeName\":\""
			   PKEY "\",\"AttributeType\":\"S\"}],\"KeySchema\":[{\"AttributeName\":\"" PKEY
			   "\",\"KeyType\":\"HASH\"}],\"BillingMode\":\"PAY_PER_REQUEST\"}");
	st = call("CreateTable", &b, &ans);
	if (st != 200)
		die("CreateTable answered %d: %.300s", st, ans);
	b.len = 0;
	buf_printf(&b, "{\"TableName\":\"" TABLE "\"}");
	for (int i = 0; i < 600; i++)
	{
		const char *s;

		st = call("DescribeTable", &b, &ans);
		if (st != 200)
			die("DescribeTable answered %d: %.300s", st, ans);
		s = json_after(ans, "TableStatus");
		if (s && strncmp(s, "\"ACTIVE\"", 8) == 0)
			return;
		usleep(100000);
	}
	die("the table is not ACTIVE after 60 s");
}

static void
do_count(void)
{
	Buf			b = {0};
	char		lek[32] = "";
	long long	total = 0;

	for (;;)
	{
		const char *ans,
				   *p;
		int			st;

		b.len = 0;
		buf_printf(&b, "{\"TableName\":\"" TABLE "\",\"Select\":\"COUNT\"");
		if (lek[0])
			buf_printf(&b, ",\"ExclusiveStartKey\":{\"" PKEY "\":{\"S\":\"%s\"}}", lek);
		buf_printf(&b, "}");
		st = call("Scan", &b, &ans);
		if (st != 200)
			die("Scan answered %d: %.300s", st, ans);
		p = json_after(ans, "Count");
		if (p == NULL)
			die("a Scan without Count: %.300s", ans);
		total += atoll(p);
		p = json_after(ans, "LastEvaluatedKey");
		if (p == NULL)
			break;
		p = json_after(p, "S");
		if (p == NULL || *p != '"' || strchr(p + 1, '"') == NULL ||
			strchr(p + 1, '"') - p - 1 >= (long) sizeof(lek))
			die("a Scan's LastEvaluatedKey unread: %.200s", ans);
		memcpy(lek, p + 1, strchr(p + 1, '"') - p - 1);
		lek[strchr(p + 1, '"') - p - 1] = '\0';
	}
	printf("COUNT %lld\n", total);
}

static void
batch_send(Conn *c)
{
	int64_t		first = (int64_t) c->batch * BATCH;

	body.len = 0;
	buf_printf(&body, "{\"RequestItems\":{\"" TABLE "\":[");
	for (int64_t k = first; k < first + BATCH && k < records; k++)
	{
		buf_printf(&body, "%s{\"PutRequest\":{\"Item\":", k > first ? "," : "");
		item_json(&body, k, NULL);
		buf_printf(&body, "}}");
	}
	buf_printf(&body, "]}}");
	send_op(c, "BatchWriteItem");
}

static void
do_load(void)
{
	int			nbatches = (int) ((records + BATCH - 1) / BATCH),
				next = 0,
				active = 0;
	long		resent = 0;
	int64_t		t0 = now_ns();

	for (int i = 0; i < nconns && next < nbatches; i++)
	{
		conns[i].batch = next++;
		conns[i].retries = 0;
		batch_send(&conns[i]);
		active++;
	}
	while (active > 0)
	{
		struct epoll_event events[256];
		int			n = epoll_wait(epfd, events, 256, 1000);

		if (n < 0 && errno != EINTR)
			die("epoll_wait: %s", strerror(errno));
		for (int i = 0; i < n; i++)
		{
			Conn	   *c = events[i].data.ptr;
			const char *un;

			if (!conn_read(c, events[i].events))
				continue;
			un = json_after(answer_body(c), "UnprocessedItems");
			if (c->status != 200 || un == NULL || strncmp(un, "{}", 2) != 0)
			{
				if (++c->retries > 20)
					die("batch %d: answered %d after 20 tries: %.300s", c->batch, c->status, answer_body(c));
				resent++;
				usleep(1000 * c->retries);
				batch_send(c);
				continue;
			}
			if (next < nbatches)
			{
				c->batch = next++;
				c->retries = 0;
				batch_send(c);
			}
			else
				active--;
		}
	}
	{
		double		secs = (double) (now_ns() - t0) / 1e9;

		printf("LOAD %lld %.2f %.0f\n", (long long) records, secs, (double) records / secs);
		if (resent)
			fprintf(stderr, "ycsb: %ld batches sent again\n", resent);
	}
}

static void
do_run(double warmup, double secs, double rate)
{
	int64_t		t0 = now_ns(),
				interval = rate > 0 ? (int64_t) (1e9 / rate) : 0,
				next_due = t0,
				drain_until;
	bool		overloaded = false;
	double		cpu;

	open_loop = rate > 0;
	t_start = t0 + (int64_t) (warmup * 1e9);
	t_end = t_start + (int64_t) (secs * 1e9);
	drain_until = t_end + (int64_t) (secs * 1e9);
	if (rate <= 0)
		for (int i = 0; i < nconns; i++)
			start_op(&conns[i], now_ns());
	for (;;)
	{
		struct epoll_event events[256];
		int64_t		timeout = 100000000,	/* ns */
					t = now_ns();
		struct timespec ts;
		int			n;

		if (rate > 0)
		{
			/* due operations onto free connections */
			for (int i = 0; i < nconns && next_due <= t && next_due < t_end; i++)
				if (!conns[i].busy)
				{
					start_op(&conns[i], next_due);
					next_due += interval;
				}
			if (next_due >= t_end)
			{
				bool		idle = true;

				for (int i = 0; i < nconns; i++)
					idle = idle && !conns[i].busy;
				if (idle)
					break;
				if (t >= drain_until)
				{
					overloaded = true;
					break;
				}
			}
			else if (next_due > t)
				timeout = next_due - t;
			/* else: every connection busy, the backlog waits for an answer */
		}
		else if (t >= t_end)
			break;
		ts.tv_sec = timeout / 1000000000;
		ts.tv_nsec = timeout % 1000000000;
		n = epoll_pwait2(epfd, events, 256, &ts, NULL);
		if (n < 0 && errno != EINTR)
			die("epoll_wait: %s", strerror(errno));
		for (int i = 0; i < n; i++)
		{
			Conn	   *c = events[i].data.ptr;

			if (!conn_read(c, events[i].events))
				continue;
			if (on_answer(c))
				continue;
			if (verify && c->step != 9 && c->status == 200 &&
				(c->op == OP_UPDATE || c->op == OP_INSERT || c->op == OP_RMW))
			{
				/* the latency ends here; the re-read is not timed */
				int64_t		due = c->due;

				finish_op(c);
				c->op = OP_READ;
				c->due = due;
				verify_step(c);
				continue;
			}
			if (c->step != 9)
				finish_op(c);
			if (rate <= 0)
			{
				if (now_ns() < t_end)
					start_op(c, now_ns());
			}
		}
	}
	if (overloaded)
	{
		/* still unanswered or never sent: counted with the latency reached */
		int64_t		t = now_ns();

		for (int i = 0; i < nconns; i++)
			if (conns[i].busy && conns[i].op >= 0)
				hist_add(&hist, t - conns[i].due), done_ops++;
		for (; next_due < t_end; next_due += interval)
			hist_add(&hist, t - next_due), done_ops++;
	}
	if (hist.total == 0)
		die("no operation done in %.1f s", secs);
	{
		struct rusage ru;

		getrusage(RUSAGE_SELF, &ru);
		cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
		cpu /= (double) (now_ns() - t0) / 1e9;
	}
	printf("RESULT %.1f %.3f %.3f %.3f %.3f %ld %ld %ld %ld %ld %d %.2f\n",
		   (double) done_ops / secs, hist_pct(&hist, 0.50), hist_pct(&hist, 0.99),
		   hist_pct(&hist, 0.999), (double) hist.max_us / 1e3, not_ok, misses, stale,
		   inserted, done_ops, overloaded, cpu);
	for (int i = 0; i < NOPS; i++)
		if (hist_op[i].total)
			fprintf(stderr, "ycsb: %s: %llu, p50 %.3f ms, p99 %.3f ms\n", op_names[i],
					(unsigned long long) hist_op[i].total, hist_pct(&hist_op[i], 0.5),
					hist_pct(&hist_op[i], 0.99));
}

/* ------------------------------------------------------- the bulk path */

typedef struct KeyNum
{
	char		k[24];			/* "user" and at most 19 digits */
	int64_t		n;
} KeyNum;

static int
keynum_cmp(const void *a, const void *b)
{
	return strcmp(((const KeyNum *) a)->k, ((const KeyNum *) b)->k);
}

static void
do_items(bool by_key)
{
	KeyNum	   *keys = malloc((size_t) records * sizeof(KeyNum));
	Buf			b = {0};

	if (keys == NULL)
		die("out of memory for %lld keys", (long long) records);
	for (int64_t i = 0; i < records; i++)
	{
		key_name(keys[i].k, sizeof(keys[i].k), i);
		keys[i].n = i;
	}
	if (by_key)
		qsort(keys, (size_t) records, sizeof(KeyNum), keynum_cmp);
	for (int64_t i = 0; i < records; i++)
	{
		b.len = 0;
		item_json(&b, keys[i].n, NULL);
		buf_printf(&b, "\n");
		if (fwrite(b.p, 1, b.len, stdout) != b.len)
			die("write: %s", strerror(errno));
	}
	if (fflush(stdout) != 0)
		die("write: %s", strerror(errno));
	free(keys);
	free(b.p);
}

int
main(int argc, char **argv)
{
	static char hostport[80];
	const char *mode;

	if (argc < 6 && !(argc >= 3 && strcmp(argv[1], "items") == 0))
	{
		fprintf(stderr, "usage: ycsb create|count HOST PORT KEY SECRET\n"
				"       ycsb load HOST PORT KEY SECRET RECORDS CONNECTIONS\n"
				"       ycsb run HOST PORT KEY SECRET RECORDS WORKLOAD CONNECTIONS WARMUP_S SECONDS RATE\n"
				"       ycsb items RECORDS [keys|records]\n");
		return 2;
	}
	mode = argv[1];
	if (strcmp(mode, "items") == 0)
	{
		if (argc < 3 || argc > 4 || (records = atoll(argv[2])) < 1 ||
			(argc == 4 && strcmp(argv[3], "keys") != 0 && strcmp(argv[3], "records") != 0))
			die("usage: ycsb items RECORDS [keys|records]");
		rng_state = (uint64_t) now_ns() ^ ((uint64_t) getpid() << 32);
		do_items(argc == 3 || strcmp(argv[3], "keys") == 0);
		return 0;
	}
	if (inet_pton(AF_INET, argv[2], &addr.sin_addr) != 1)
		die("HOST must be an IPv4 address");
	addr.sin_port = htons((uint16_t) atoi(argv[3]));
	snprintf(hostport, sizeof(hostport), "%s:%s", argv[2], argv[3]);
	host_hdr = hostport;
	access_key = argv[4];
	secret_key = argv[5];
	rng_state = (uint64_t) now_ns() ^ ((uint64_t) getpid() << 32);
	epfd = epoll_create1(0);
	if (epfd < 0)
		die("epoll_create1: %s", strerror(errno));
	verify = getenv("YCSB_VERIFY") && strcmp(getenv("YCSB_VERIFY"), "1") == 0;

	if ((strcmp(mode, "create") == 0 || strcmp(mode, "count") == 0) && argc == 6)
		nconns = 1;
	else if (strcmp(mode, "load") == 0 && argc == 8)
	{
		records = atoll(argv[6]);
		nconns = atoi(argv[7]);
	}
	else if (strcmp(mode, "run") == 0 && argc == 12)
	{
		const char *w = argv[7];

		records = atoll(argv[6]);
		nconns = atoi(argv[8]);
		if (strlen(w) != 1 || strchr("ABCDEFabcdef", w[0]) == NULL)
			die("WORKLOAD must be one of A-F (a-f: uniform)");
		wl = workloads[(w[0] | 0x20) - 'a'];
		if (w[0] >= 'a')
			wl.dist = 'u';
	}
	else
		die("bad arguments (run without any for the usage)");
	if (nconns < 1 || nconns > 4096 || (argc > 6 && records < 1))
		die("CONNECTIONS must be 1..4096 and RECORDS at least 1");
	conns = calloc((size_t) nconns, sizeof(Conn));
	if (conns == NULL)
		die("out of memory");
	for (int i = 0; i < nconns; i++)
	{
		conns[i].op = -1;
		conn_open(&conns[i]);
	}
	if (strcmp(mode, "create") == 0)
		do_create();
	else if (strcmp(mode, "count") == 0)
		do_count();
	else if (strcmp(mode, "load") == 0)
		do_load();
	else
	{
		double		warmup = atof(argv[9]),
					secs = atof(argv[10]),
					rate = atof(argv[11]);

		if (secs <= 0 || warmup < 0 || rate < 0)
			die("bad WARMUP_S, SECONDS or RATE");
		next_insert = records;
		/* YCSB's constants: 0.99 over 10^10 items, zeta precomputed */
		zipf_init(&scrambled, 10000000000LL, 0.99, 26.46902820178302);
		zipf_init(&latest, records, 0.99, 0);
		do_run(warmup, secs, rate);
	}
	return 0;
}
