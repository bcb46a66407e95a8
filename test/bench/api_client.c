/*-------------------------------------------------------------------------
 *
 * api_client.c
 *	  Client side of test/bench/api.sh for hroe: the counterpart of
 *	  test/conformance/bench_dynalite.js.
 *
 *	  api_client CONNINFO get|query|put|update|ping CUSTOMERS SECS
 *
 * One connection, one request at a time, for SECS seconds; prints requests
 * per second ("%.1f", as bench_dynalite.js).  Each request is built here,
 * byte for byte the JSON that bench_dynalite.js sends to dynalite
 * (JSON.stringify: no spaces; a number as JavaScript's String() prints it),
 * on a random customer and order drawn as node's rand(n) =
 * 1 + floor(Math.random() * n), and sent with the extended protocol to a
 * statement prepared once, SELECT hroe.dynamodb($1::text, $2::jsonb), text
 * parameters and text results.  Each response is checked as
 * bench_dynalite.js checks dynalite's: no "__type" (an error body), a Query
 * returns "Count": 10, a GetItem returns an "Item".
 *
 * update is the floor under a PutItem: the same item written by a prepared
 * plain SQL UPDATE of its row, UPDATE bench SET item = $1::hroe.item WHERE
 * pk = $2::hroe.key AND sk = $3::hroe.key (hroe's operators), the item's JSON
 * built here; each must report UPDATE 1.
 *
 * ping is the ceiling of any request through this client and connection: a
 * prepared SELECT 1, no request body, checked to return 1.
 *
 * Any failure (connection, statement, error body, wrong answer) prints a
 * message on stderr and exits with status 1; bad arguments exit with 2.
 *
 * IDENTIFICATION
 *	  test/bench/api_client.c
 *
 *-------------------------------------------------------------------------
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "libpq-fe.h"

/* the statements, prepared once */
#define API_STMT "api"
#define API_SQL "SELECT hroe.dynamodb($1::text, $2::jsonb)"
#define UPDATE_STMT "floor"
#define UPDATE_SQL "UPDATE bench SET item = $1::hroe.item " \
	"WHERE pk OPERATOR(hroe.=) $2::hroe.key AND sk OPERATOR(hroe.=) $3::hroe.key"
#define PING_STMT "ping"
#define PING_SQL "SELECT 1"

/* the 60 x's of every item's note */
#define NOTE "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"

typedef enum BenchMode
{
	MODE_GET,
	MODE_QUERY,
	MODE_PUT,
	MODE_UPDATE,
	MODE_PING
} BenchMode;

static const char *const Statuses[] = {"OPEN", "SHIPPED", "CLOSED"};

static uint64_t RandomState;

static void Fail(PGconn *conn, const char *what, const char *detail)
			__attribute__((noreturn));

/* Print a message and its detail, if any, and exit with status 1 */
static void
Fail(PGconn *conn, const char *what, const char *detail)
{
	size_t		len = detail ? strlen(detail) : 0;

	/* libpq's messages end with a newline */
	while (len > 0 && detail[len - 1] == '\n')
		len--;
	fprintf(stderr, "api_client: %s%s%.*s\n", what,
			detail ? ": " : "", (int) len, detail ? detail : "");
	if (conn)
		PQfinish(conn);
	exit(1);
}

/* Seconds of CLOCK_MONOTONIC */
static double
Now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A uniform integer in 1..n, as node's 1 + Math.floor(Math.random() * n) */
static int
Rand(int n)
{
	uint64_t	x = RandomState;

	/* xorshift64*; the top 53 bits make a double in [0, 1) as Math.random */
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	RandomState = x;
	return 1 + (int) (((x * UINT64_C(2685821657736338717)) >> 11) *
					  (1.0 / 9007199254740992.0) * n);
}

/*
 * Print ((c * 31 + o * 17) % 100000) / 100 into buf as JavaScript's String()
 * prints that double: the shortest decimal that reads back as it, which for
 * a whole number of hundredths below 1000 is that decimal without trailing
 * zeros (12.3, 5, 0.05)
 */
static void
FormatTotal(char *buf, size_t size, int c, int o)
{
	int			m = (c * 31 + o * 17) % 100000;

	if (m % 100 == 0)
		snprintf(buf, size, "%d", m / 100);
	else if (m % 10 == 0)
		snprintf(buf, size, "%d.%d", m / 100, m % 100 / 10);
	else
		snprintf(buf, size, "%d.%02d", m / 100, m % 100);
}

/* Write the item of customer c, order o as JSON.stringify writes item(c, o) */
static int
FormatItem(char *buf, size_t size, int c, int o)
{
	char		total[32];

	FormatTotal(total, sizeof(total), c, o);
	return snprintf(buf, size,
					"{\"pk\":{\"S\":\"CUST#%d\"},\"sk\":{\"S\":\"ORDER#%04d\"},"
					"\"status\":{\"S\":\"%s\"},\"total\":{\"N\":\"%s\"},"
					"\"note\":{\"S\":\"" NOTE "\"}}",
					c, o, Statuses[(c + o) % 3], total);
}

/* Check that snprintf's result n fit a buffer of size bytes */
static void
CheckFit(int n, size_t size)
{
	if (n < 0 || (size_t) n >= size)
		Fail(NULL, "request does not fit its buffer", NULL);
}

/* Prepare one statement, exiting on failure */
static void
Prepare(PGconn *conn, const char *name, const char *sql, int nparams)
{
	PGresult   *res = PQprepare(conn, name, sql, nparams, NULL);

	if (PQresultStatus(res) != PGRES_COMMAND_OK)
		Fail(conn, "prepare failed", PQresultErrorMessage(res));
	PQclear(res);
}

/* Send one DynamoDB request and check its response as bench_dynalite.js does */
static void
CallApi(PGconn *conn, BenchMode mode, int customers)
{
	char		body[1024];
	const char *params[2];
	const char *response;
	PGresult   *res;
	int			n;

	/* the draws in bench_dynalite.js's order: customer, then order */
	switch (mode)
	{
		case MODE_GET:
			{
				int			c = Rand(customers);
				int			o = Rand(10);

				params[0] = "GetItem";
				n = snprintf(body, sizeof(body),
							 "{\"TableName\":\"bench\",\"Key\":{\"pk\":{\"S\":\"CUST#%d\"},"
							 "\"sk\":{\"S\":\"ORDER#%04d\"}}}", c, o);
				break;
			}
		case MODE_QUERY:
			params[0] = "Query";
			n = snprintf(body, sizeof(body),
						 "{\"TableName\":\"bench\",\"KeyConditionExpression\":\"pk = :p\","
						 "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"CUST#%d\"}}}",
						 Rand(customers));
			break;
		case MODE_PUT:
			{
				char		item[512];
				int			c = Rand(customers);
				int			o = Rand(10);

				params[0] = "PutItem";
				CheckFit(FormatItem(item, sizeof(item), c, o), sizeof(item));
				n = snprintf(body, sizeof(body),
							 "{\"TableName\":\"bench\",\"Item\":%s}", item);
				break;
			}
		default:
			Fail(conn, "not a DynamoDB request mode", NULL);
	}
	CheckFit(n, sizeof(body));
	params[1] = body;

	res = PQexecPrepared(conn, API_STMT, 2, params, NULL, NULL, 0);
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		Fail(conn, params[0], PQresultErrorMessage(res));
	if (PQntuples(res) != 1 || PQnfields(res) != 1 || PQgetisnull(res, 0, 0))
		Fail(conn, params[0], "not one response");
	response = PQgetvalue(res, 0, 0);
	if (strstr(response, "\"__type\"") != NULL)
		Fail(conn, params[0], response);
	/* jsonb's text output: a space after each colon, "Count" first */
	if (mode == MODE_QUERY && strstr(response, "\"Count\": 10,") == NULL)
		Fail(conn, "query did not return 10 items", response);
	if (mode == MODE_GET && strstr(response, "\"Item\"") == NULL)
		Fail(conn, "get found nothing", response);
	PQclear(res);
}

/* Replace one item by the plain SQL UPDATE and check it updated one row */
static void
CallUpdate(PGconn *conn, int customers)
{
	char		item[512];
	char		pk[32];
	char		sk[32];
	const char *params[3];
	PGresult   *res;
	int			c = Rand(customers);
	int			o = Rand(10);

	CheckFit(FormatItem(item, sizeof(item), c, o), sizeof(item));
	CheckFit(snprintf(pk, sizeof(pk), "CUST#%d", c), sizeof(pk));
	CheckFit(snprintf(sk, sizeof(sk), "ORDER#%04d", o), sizeof(sk));
	params[0] = item;
	params[1] = pk;
	params[2] = sk;

	res = PQexecPrepared(conn, UPDATE_STMT, 3, params, NULL, NULL, 0);
	if (PQresultStatus(res) != PGRES_COMMAND_OK)
		Fail(conn, "update", PQresultErrorMessage(res));
	if (strcmp(PQcmdStatus(res), "UPDATE 1") != 0)
		Fail(conn, "update did not update one row", PQcmdStatus(res));
	PQclear(res);
}

/* Run the prepared SELECT 1 and check its answer */
static void
CallPing(PGconn *conn)
{
	PGresult   *res = PQexecPrepared(conn, PING_STMT, 0, NULL, NULL, NULL, 0);

	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		Fail(conn, "ping", PQresultErrorMessage(res));
	if (PQntuples(res) != 1 || strcmp(PQgetvalue(res, 0, 0), "1") != 0)
		Fail(conn, "SELECT 1 did not return 1", NULL);
	PQclear(res);
}

/* Parse the arguments, run the requests for SECS seconds, print req/s */
int
main(int argc, char **argv)
{
	PGconn	   *conn;
	BenchMode	mode;
	long		customers;
	double		secs;
	double		t0;
	double		end;
	double		t;
	long		n = 0;
	char	   *tail;

	if (argc != 5)
	{
		fprintf(stderr, "usage: api_client CONNINFO get|query|put|update|ping CUSTOMERS SECS\n");
		return 2;
	}
	if (strcmp(argv[2], "get") == 0)
		mode = MODE_GET;
	else if (strcmp(argv[2], "query") == 0)
		mode = MODE_QUERY;
	else if (strcmp(argv[2], "put") == 0)
		mode = MODE_PUT;
	else if (strcmp(argv[2], "update") == 0)
		mode = MODE_UPDATE;
	else if (strcmp(argv[2], "ping") == 0)
		mode = MODE_PING;
	else
	{
		fprintf(stderr, "api_client: unknown mode \"%s\" (get, query, put, update or ping)\n", argv[2]);
		return 2;
	}
	errno = 0;
	customers = strtol(argv[3], &tail, 10);
	if (errno != 0 || *tail != '\0' || tail == argv[3] || customers < 1 || customers > 1000000)
	{
		fprintf(stderr, "api_client: CUSTOMERS must be an integer from 1 to 1000000, not \"%s\"\n", argv[3]);
		return 2;
	}
	errno = 0;
	secs = strtod(argv[4], &tail);
	if (errno != 0 || *tail != '\0' || tail == argv[4] || !(secs > 0 && secs <= 86400))
	{
		fprintf(stderr, "api_client: SECS must be a number of seconds above 0, not \"%s\"\n", argv[4]);
		return 2;
	}

	/* a different sequence in every run, as Math.random's */
	RandomState = (uint64_t) (Now() * 1e9) ^ ((uint64_t) getpid() << 32);
	if (RandomState == 0)
		RandomState = 1;

	conn = PQconnectdb(argv[1]);
	if (PQstatus(conn) != CONNECTION_OK)
		Fail(conn, "connection failed", PQerrorMessage(conn));
	if (mode == MODE_UPDATE)
		Prepare(conn, UPDATE_STMT, UPDATE_SQL, 3);
	else if (mode == MODE_PING)
		Prepare(conn, PING_STMT, PING_SQL, 0);
	else
		Prepare(conn, API_STMT, API_SQL, 2);

	t0 = Now();
	end = t0 + secs;
	do
	{
		if (mode == MODE_UPDATE)
			CallUpdate(conn, (int) customers);
		else if (mode == MODE_PING)
			CallPing(conn);
		else
			CallApi(conn, mode, (int) customers);
		n++;
		t = Now();
	} while (t < end);

	printf("%.1f\n", n / (t - t0));
	PQfinish(conn);
	return 0;
}
