/*-------------------------------------------------------------------------
 *
 * remote_read.c
 *	  hroe's own read path for distributed tables (doc/partitioning.md,
 *	  "hroe's own read path"): what postgres_fdw does for a read in seven
 *	  round trips (a remote transaction, a savepoint, a cursor declared,
 *	  fetched and closed, planned by the server at every call, items in
 *	  text), done in one: a statement prepared once per connection and
 *	  executed with PQsendQueryPrepared, parameters and items in binary
 *	  (hroe.item's send and receive functions, the receive function
 *	  validating everything), every server of a read sent its statement
 *	  before any answer is collected.  A GetItem's statement calls the
 *	  server's hroe.item_by_key (src/ops/operations.c: the server's own
 *	  local GetItem of the table of the same name).  Partitions (with
 *	  their GetItem statements), user mappings, prepared statements and the
 *	  types' send and receive functions are looked up once, in hash tables
 *	  that invalidations drop.
 *
 *	  Connections are per backend and user mapping, opened with the foreign
 *	  server's and user mapping's libpq options as postgres_fdw opens its
 *	  own (PostgreSQL 15's contrib/postgres_fdw/connection.c), with its
 *	  password rules for roles that are not superusers: a role never
 *	  connects with more than its user mapping gives.  ALTER SERVER and
 *	  ALTER/DROP USER MAPPING invalidate them (syscache callbacks), as
 *	  postgres_fdw's.  Every wait is on the latch and the socket
 *	  (WaitLatchOrSocket), so statement_timeout, a cancel and
 *	  pg_terminate_backend interrupt it; a connection left with a statement
 *	  in flight by an error is closed at its next use and opened again.
 *
 *	  When it is used (hroe_remote_read_usable): outside an explicit
 *	  transaction block, before the statement wrote anything; the statement
 *	  then runs on the server in a transaction of its own, as a DynamoDB
 *	  read does.  Inside a transaction block the reads stay postgres_fdw's,
 *	  in its remote transaction, whose snapshot the transaction's other
 *	  statements share.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/reloptions.h"
#include "access/xact.h"
#include "catalog/pg_foreign_server.h"
#include "catalog/pg_user_mapping.h"
#include "commands/defrem.h"
#include "common/hashfn.h"
#include "foreign/foreign.h"
#include "libpq-fe.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"

#include "catalog.h"
#include "remote_read.h"

bool		hroe_remote_reads = true;

/* A connection to a foreign server, for one user mapping */
typedef struct RemoteConn
{
	Oid			umid;			/* hash key: the user mapping */
	PGconn	   *conn;
	bool		busy;			/* a statement (or the connection) was left
								 * unfinished: closed at the next use */
	bool		invalidated;	/* its server or user mapping changed */
	uint32		server_hash;
	uint32		mapping_hash;
	PGresult   *res;			/* the result being read, cleared at the next
								 * use if an error left it */
	HTAB	   *stmts;			/* its prepared statements (RemoteStmt) */
	uint64		generation;		/* the Generation its stmts were made under */
	int			nprepared;		/* statements prepared since the last
								 * DEALLOCATE ALL: hroe_r0 ... */
	MemoryContext cxt;			/* holds stmts */
	WaitEventSet *wait;			/* the latch, postmaster death and the
								 * socket, once connected */
	uint32		wait_events;	/* the socket's events in wait */
	bool		configured;		/* its session's settings sent */
	bool		no_item_by_key; /* the server's hroe has no hroe.item_by_key */
	char		srvname[NAMEDATALEN];
} RemoteConn;

static HTAB *ConnHash = NULL;

/*
 * A statement prepared on a connection: the statement's format (a
 * HroeRemoteRead's sql, or a partition's GetItem statement; its text is the
 * key) for a partition
 */
typedef struct RemoteStmtKey
{
	Oid			partition;
	const char *fmt;
} RemoteStmtKey;

typedef struct RemoteStmt
{
	RemoteStmtKey key;			/* key.fmt: a copy in the connection's cxt */
	char	   *name;			/* hroe_r<n> */
	char	   *sql;			/* the statement sent */
} RemoteStmt;

/*
 * A partition's foreign server and remote table, looked up once, and its
 * GetItem's statements, built at its first GetItem
 */
typedef struct RemotePart
{
	Oid			partition;		/* hash key: the foreign table */
	Oid			serverid;
	char	   *table;			/* schema.table, quoted */
	char	   *get_sql;		/* or NULL: hroe.item_by_key of the table's
								 * name and key */
	char	   *get_fallback;	/* the SELECT by key, for a server whose
								 * hroe has no hroe.item_by_key */
} RemotePart;

static HTAB *PartHash = NULL;
static MemoryContext PartCxt = NULL;	/* PartHash and its strings */

/* The connection of a role to a server */
typedef struct UserServer
{
	Oid			userid;			/* hash key: the role */
	Oid			serverid;		/* and the server */
	Oid			umid;			/* its user mapping (ConnHash's key) */
} UserServer;

static HTAB *UserServerHash = NULL;

/*
 * Bumped when a foreign table, a schema or a relation whose partition is
 * cached changes: PartHash and every connection's statements are looked up
 * again (prepared statements already on a server stay there, unused, until
 * its connection's next DEALLOCATE ALL)
 */
static uint64 Generation = 1;
static uint64 PartGeneration = 0;

/* A type's binary send and receive functions, looked up once */
typedef struct TypeIO
{
	Oid			typid;			/* hash key */
	FmgrInfo	send;
	FmgrInfo	recv;
	Oid			ioparam;
} TypeIO;

static HTAB *TypeIOHash = NULL;

static void Disconnect(RemoteConn *c);
static char *CastParams(const char *sql, int nparams, Oid *types);
static char *KeyQual(const char *column, char type, int param);
static bool CompleteUnless(RemoteConn *c, ExecStatusType want, const char *sql, int unless);

/* the prepared statements a connection keeps at most */
#ifndef HROE_REMOTE_STATEMENTS
#define HROE_REMOTE_STATEMENTS 256
#endif

static const char RemoteSearchPath[] = "SET search_path = pg_catalog, hroe";

/* the local transaction whose API call began outside a transaction block */
static LocalTransactionId CallOutsideBlock = InvalidLocalTransactionId;

/* the local transaction whose reads are left to postgres_fdw */
static LocalTransactionId Paused = InvalidLocalTransactionId;

/* ---------- connections ---------- */

static void
InvalCallback(Datum arg, int cacheid, uint32 hashvalue)
{
	HASH_SEQ_STATUS scan;
	RemoteConn *c;

	/* (a role's user mapping of a server is looked up again) */
	if (UserServerHash != NULL)
	{
		UserServer *us;

		hash_seq_init(&scan, UserServerHash);
		while ((us = hash_seq_search(&scan)) != NULL)
			hash_search(UserServerHash, us, HASH_REMOVE, NULL);
	}
	if (ConnHash == NULL)
		return;
	hash_seq_init(&scan, ConnHash);
	while ((c = hash_seq_search(&scan)) != NULL)
	{
		if (c->conn == NULL)
			continue;
		if (hashvalue == 0 ||
			(cacheid == FOREIGNSERVEROID && c->server_hash == hashvalue) ||
			(cacheid == USERMAPPINGOID && c->mapping_hash == hashvalue))
			c->invalidated = true;
	}
}

/* A foreign table or a schema changed: every partition looked up again */
static void
PartInvalCallback(Datum arg, int cacheid, uint32 hashvalue)
{
	Generation++;
}

/* A relation changed: if it is a partition looked up, every one again */
static void
RelInvalCallback(Datum arg, Oid relid)
{
	if (PartHash != NULL &&
		(!OidIsValid(relid) || hash_search(PartHash, &relid, HASH_FIND, NULL) != NULL))
		Generation++;
}

/* A type changed: the send and receive functions looked up again */
static void
TypeInvalCallback(Datum arg, int cacheid, uint32 hashvalue)
{
	if (TypeIOHash != NULL)
	{
		hash_destroy(TypeIOHash);
		TypeIOHash = NULL;
	}
}

/*
 * At a transaction's end, close the connections whose server or user mapping
 * changed (a dropped user mapping's would otherwise stay open, unused)
 */
static void
EndOfXact(XactEvent event, void *arg)
{
	HASH_SEQ_STATUS scan;
	RemoteConn *c;

	if (ConnHash == NULL ||
		(event != XACT_EVENT_COMMIT && event != XACT_EVENT_ABORT &&
		 event != XACT_EVENT_PARALLEL_COMMIT && event != XACT_EVENT_PARALLEL_ABORT))
		return;
	hash_seq_init(&scan, ConnHash);
	while ((c = hash_seq_search(&scan)) != NULL)
		if (c->conn != NULL && c->invalidated)
			Disconnect(c);
}

/* Define hroe.remote_reads */
void
hroe_remote_read_init(void)
{
	DefineCustomBoolVariable("hroe.remote_reads",
							 "Lets single reads of distributed tables use hroe's own connections to the partition servers.",
							 "When on (the default), a GetItem, a Query or a Scan page of a distributed table run "
							 "outside a transaction block, before the statement wrote anything, is sent to the "
							 "partition servers by hroe itself: one prepared statement per server, executed in "
							 "binary, every server at once. Off, or inside a transaction block, postgres_fdw "
							 "reads them (doc/partitioning.md).",
							 &hroe_remote_reads,
							 true,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
}

static void
Disconnect(RemoteConn *c)
{
	if (c->res)
		PQclear(c->res);
	c->res = NULL;
	if (c->conn)
		PQfinish(c->conn);
	c->conn = NULL;
	c->busy = false;
	c->invalidated = false;
	c->configured = false;
	c->no_item_by_key = false;
	if (c->wait)
		FreeWaitEventSet(c->wait);
	c->wait = NULL;
	if (c->cxt)
		MemoryContextReset(c->cxt);
	c->stmts = NULL;
	c->nprepared = 0;
}

/* Raise an error about connection c; closes it if it is broken */
static void pg_attribute_noreturn()
ConnError(RemoteConn *c, const char *what)
{
	char	   *msg = pchomp(c->conn ? PQerrorMessage(c->conn) : "no connection");
	bool		connecting = strncmp(what, "could not connect", 17) == 0;

	Disconnect(c);
	ereport(ERROR,
			(errcode(connecting ? ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION
					 : ERRCODE_CONNECTION_FAILURE),
			 errmsg("%s server \"%s\"", what, c->srvname),
			 errdetail_internal("%s", msg)));
}

/* Whether option name is a libpq option postgres_fdw passes on */
static bool
IsLibpqOption(PQconninfoOption *defs, const char *name)
{
	if (strcmp(name, "replication") == 0 || strcmp(name, "fallback_application_name") == 0 ||
		strcmp(name, "client_encoding") == 0)
		return false;
	for (PQconninfoOption *o = defs; o->keyword; o++)
		if (strcmp(o->keyword, name) == 0)
			return strchr(o->dispchar, 'D') == NULL;
	return false;
}

/* Wait for connection c's socket (or the latch), until deadline (0: none) */
static void
WaitSocket(RemoteConn *c, int events, TimestampTz deadline)
{
	long		timeout = -1;
	int			rc;

	if (c->wait != NULL)
	{
		WaitEvent	event;

		/* connected: the connection's own set, no set made per wait */
		Assert(deadline == 0);
		if (events != c->wait_events)
		{
			ModifyWaitEvent(c->wait, 2, events, NULL);
			c->wait_events = events;
		}
		if (WaitEventSetWait(c->wait, -1, &event, 1, PG_WAIT_EXTENSION) > 0 &&
			(event.events & WL_LATCH_SET))
		{
			ResetLatch(MyLatch);
			CHECK_FOR_INTERRUPTS();
		}
		return;
	}
	if (deadline != 0)
	{
		timeout = TimestampDifferenceMilliseconds(GetCurrentTimestamp(), deadline);
		if (timeout <= 0)
		{
			Disconnect(c);
			ereport(ERROR,
					(errcode(ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION),
					 errmsg("could not connect to server \"%s\"", c->srvname),
					 errdetail("timeout expired")));
		}
		events |= WL_TIMEOUT;
	}
	rc = WaitLatchOrSocket(MyLatch, events | WL_LATCH_SET | WL_EXIT_ON_PM_DEATH,
						   PQsocket(c->conn), timeout, PG_WAIT_EXTENSION);
	if (rc & WL_LATCH_SET)
	{
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * Open c's connection to server for user mapping um, with their libpq
 * options (postgres_fdw's connect_pg_server and its password rules)
 */
static void
Connect(RemoteConn *c, ForeignServer *server, UserMapping *um)
{
	PQconninfoOption *defs = PQconndefaults();
	List	   *opts = list_concat(list_copy(server->options), um->options);
	const char **keys = palloc0((list_length(opts) + 3) * sizeof(char *));
	const char **vals = palloc0((list_length(opts) + 3) * sizeof(char *));
	int			n = 0;
	bool		password = false;
	bool		password_required = true;
	int			connect_timeout = 0;
	TimestampTz deadline = 0;
	ListCell   *lc;

	if (defs == NULL)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	foreach(lc, um->options)
	{
		DefElem    *d = lfirst(lc);

		if (strcmp(d->defname, "password_required") == 0)
			password_required = defGetBoolean(d);
	}
	foreach(lc, opts)
	{
		DefElem    *d = lfirst(lc);

		if (!IsLibpqOption(defs, d->defname))
			continue;
		keys[n] = d->defname;
		vals[n] = defGetString(d);
		if (strcmp(d->defname, "password") == 0 && vals[n][0] != '\0')
			password = true;
		if (strcmp(d->defname, "connect_timeout") == 0)
			connect_timeout = atoi(vals[n]);
		n++;
	}
	PQconninfoFree(defs);
	keys[n] = "fallback_application_name";
	vals[n++] = "hroe_remote_read";
	keys[n] = "client_encoding";
	vals[n++] = GetDatabaseEncodingName();
	keys[n] = NULL;
	vals[n] = NULL;

	/* postgres_fdw's check_conn_params */
	if (!superuser_arg(um->userid) && password_required && !password)
		ereport(ERROR,
				(errcode(ERRCODE_S_R_E_PROHIBITED_SQL_STATEMENT_ATTEMPTED),
				 errmsg("password is required"),
				 errdetail("Non-superusers must provide a password in the user mapping.")));

	Disconnect(c);
	strlcpy(c->srvname, server->servername, NAMEDATALEN);
	c->server_hash = GetSysCacheHashValue1(FOREIGNSERVEROID, ObjectIdGetDatum(server->serverid));
	c->mapping_hash = GetSysCacheHashValue1(USERMAPPINGOID, ObjectIdGetDatum(um->umid));
	c->conn = PQconnectStartParams(keys, vals, false);
	if (c->conn == NULL)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	/* an interrupt below leaves it half open: closed at the next use */
	c->busy = true;
	if (connect_timeout > 0)
		deadline = TimestampTzPlusMilliseconds(GetCurrentTimestamp(),
											   Max(connect_timeout, 2) * 1000);
	for (;;)
	{
		PostgresPollingStatusType st;

		if (PQstatus(c->conn) == CONNECTION_BAD)
			ConnError(c, "could not connect to");
		st = PQconnectPoll(c->conn);
		if (st == PGRES_POLLING_OK)
			break;
		if (st == PGRES_POLLING_FAILED)
			ConnError(c, "could not connect to");
		WaitSocket(c, st == PGRES_POLLING_READING ? WL_SOCKET_READABLE : WL_SOCKET_WRITEABLE,
				   deadline);
	}
	/* postgres_fdw's check: a role that is not superuser used a password */
	if (!superuser_arg(um->userid) && password_required && !PQconnectionUsedPassword(c->conn))
	{
		Disconnect(c);
		ereport(ERROR,
				(errcode(ERRCODE_S_R_E_PROHIBITED_SQL_STATEMENT_ATTEMPTED),
				 errmsg("password is required"),
				 errdetail("Non-superuser cannot connect if the server does not request a password."),
				 errhint("Target server's authentication method must be changed or password_required=false set in the user mapping attributes.")));
	}
	if (PQsetnonblocking(c->conn, 1) != 0)
		ConnError(c, "could not configure the connection to");
	/* its waits from now on: one set, its events positions 0, 1, 2 */
	c->wait = CreateWaitEventSet(TopMemoryContext, 3);
	AddWaitEventToSet(c->wait, WL_LATCH_SET, PGINVALID_SOCKET, MyLatch, NULL);
	AddWaitEventToSet(c->wait, WL_EXIT_ON_PM_DEATH, PGINVALID_SOCKET, NULL, NULL);
	AddWaitEventToSet(c->wait, WL_SOCKET_READABLE, PQsocket(c->conn), NULL, NULL);
	c->wait_events = WL_SOCKET_READABLE;
	c->busy = false;
}

/* Make the hash tables and register the callbacks, once per backend */
static void
InitCaches(void)
{
	HASHCTL		ctl;

	if (ConnHash != NULL)
		return;
	ctl.keysize = sizeof(Oid);
	ctl.entrysize = sizeof(RemoteConn);
	ConnHash = hash_create("hroe remote read connections", 8, &ctl, HASH_ELEM | HASH_BLOBS);
	ctl.keysize = 2 * sizeof(Oid);
	ctl.entrysize = sizeof(UserServer);
	UserServerHash = hash_create("hroe remote read user mappings", 8, &ctl,
								 HASH_ELEM | HASH_BLOBS);
	CacheRegisterSyscacheCallback(FOREIGNSERVEROID, InvalCallback, (Datum) 0);
	CacheRegisterSyscacheCallback(USERMAPPINGOID, InvalCallback, (Datum) 0);
	CacheRegisterSyscacheCallback(FOREIGNTABLEREL, PartInvalCallback, (Datum) 0);
	CacheRegisterSyscacheCallback(NAMESPACEOID, PartInvalCallback, (Datum) 0);
	CacheRegisterSyscacheCallback(TYPEOID, TypeInvalCallback, (Datum) 0);
	CacheRegisterRelcacheCallback(RelInvalCallback, (Datum) 0);
	RegisterXactCallback(EndOfXact, NULL);
}

/*
 * The connection of the current user's mapping to server serverid: the
 * mapping looked up once per role and server (until a server or user
 * mapping changes), the server's and mapping's options only to connect
 */
static RemoteConn *
GetConn(Oid serverid)
{
	UserServer	key;
	UserServer *us;
	RemoteConn *c;
	bool		found;

	InitCaches();
	key.userid = GetUserId();
	key.serverid = serverid;
	us = hash_search(UserServerHash, &key, HASH_FIND, NULL);
	if (us == NULL)
	{
		/* (an error when the role has no user mapping) */
		UserMapping *um = GetUserMapping(key.userid, serverid);

		us = hash_search(UserServerHash, &key, HASH_ENTER, NULL);
		us->umid = um->umid;
	}
	c = hash_search(ConnHash, &us->umid, HASH_ENTER, &found);
	if (!found)
	{
		c->conn = NULL;
		c->res = NULL;
		c->stmts = NULL;
		c->generation = 0;
		c->nprepared = 0;
		c->wait = NULL;
		c->busy = c->invalidated = c->configured = c->no_item_by_key = false;
		c->cxt = AllocSetContextCreate(TopMemoryContext, "hroe remote read statements",
									   ALLOCSET_SMALL_SIZES);
	}
	if (c->conn != NULL &&
		(c->busy || c->invalidated || PQstatus(c->conn) != CONNECTION_OK ||
		 PQtransactionStatus(c->conn) != PQTRANS_IDLE))
		Disconnect(c);
	if (c->res)
		PQclear(c->res);
	c->res = NULL;
	if (c->conn == NULL)
		Connect(c, GetForeignServer(serverid), GetUserMapping(key.userid, serverid));
	return c;
}

/* ---------- statements ---------- */

/* Wait until c has a result or none left; NULL when none is left */
static PGresult *
NextResult(RemoteConn *c)
{
	if (PQflush(c->conn) < 0)
		ConnError(c, "lost the connection to");
	while (PQisBusy(c->conn))
	{
		int			flush = PQflush(c->conn);

		if (flush < 0)
			ConnError(c, "lost the connection to");
		WaitSocket(c, WL_SOCKET_READABLE | (flush > 0 ? WL_SOCKET_WRITEABLE : 0), 0);
		if (!PQconsumeInput(c->conn))
			ConnError(c, "lost the connection to");
	}
	return PQgetResult(c->conn);
}

/* Raise the remote error of result res (postgres_fdw's pgfdw_report_error) */
static void pg_attribute_noreturn()
RemoteError(RemoteConn *c, PGresult *res, const char *sql)
{
	char	   *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
	char	   *primary = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
	char	   *detail = PQresultErrorField(res, PG_DIAG_MESSAGE_DETAIL);
	char	   *hint = PQresultErrorField(res, PG_DIAG_MESSAGE_HINT);
	int			code = ERRCODE_CONNECTION_FAILURE;

	if (PQstatus(c->conn) != CONNECTION_OK)
		ConnError(c, "lost the connection to");
	if (state && strlen(state) == 5)
		code = MAKE_SQLSTATE(state[0], state[1], state[2], state[3], state[4]);
	primary = pstrdup(primary ? primary : pchomp(PQerrorMessage(c->conn)));
	detail = detail ? pstrdup(detail) : NULL;
	hint = hint ? pstrdup(hint) : NULL;
	/* the statement's remaining results are read at the connection's next use */
	c->busy = true;
	ereport(ERROR,
			(errcode(code),
			 errmsg("%s", primary),
			 detail ? errdetail_internal("%s", detail) : 0,
			 hint ? errhint("%s", hint) : 0,
			 errcontext("remote SQL command on server \"%s\": %s", c->srvname, sql)));
}

/*
 * Drain c's results; the last one must be of status want, or else an error
 * of SQLSTATE unless (not 0), when false is returned
 */
static bool
CompleteUnless(RemoteConn *c, ExecStatusType want, const char *sql, int unless)
{
	PGresult   *res;

	while ((res = NextResult(c)) != NULL)
	{
		if (c->res)
			PQclear(c->res);
		c->res = res;
	}
	if (c->res == NULL || PQresultStatus(c->res) != want)
	{
		const char *state;

		if (c->res == NULL)
			ConnError(c, "no result from");
		state = PQresultErrorField(c->res, PG_DIAG_SQLSTATE);
		if (unless != 0 && PQstatus(c->conn) == CONNECTION_OK && state != NULL &&
			strlen(state) == 5 &&
			MAKE_SQLSTATE(state[0], state[1], state[2], state[3], state[4]) == unless)
			return false;
		RemoteError(c, c->res, sql);
	}
	return true;
}

/* Drain c's results; the last one must be of status want */
static void
Complete(RemoteConn *c, ExecStatusType want, const char *sql)
{
	(void) CompleteUnless(c, want, sql, 0);
}

static uint32
StmtHash(const void *key, Size keysize)
{
	const RemoteStmtKey *k = key;

	return hash_combine(murmurhash32(k->partition),
						hash_bytes((const unsigned char *) k->fmt, strlen(k->fmt)));
}

static int
StmtMatch(const void *a, const void *b, Size keysize)
{
	const RemoteStmtKey *x = a;
	const RemoteStmtKey *y = b;

	if (x->partition != y->partition)
		return 1;
	return strcmp(x->fmt, y->fmt);
}

/* The remote table read by foreign table relid: schema.table, quoted */
static char *
RemoteTable(ForeignTable *ft, Oid relid)
{
	const char *schema = NULL;
	const char *table = NULL;
	ListCell   *lc;

	foreach(lc, ft->options)
	{
		DefElem    *d = lfirst(lc);

		if (strcmp(d->defname, "schema_name") == 0)
			schema = defGetString(d);
		else if (strcmp(d->defname, "table_name") == 0)
			table = defGetString(d);
	}
	if (schema == NULL)
		schema = get_namespace_name(get_rel_namespace(relid));
	if (table == NULL)
		table = get_rel_name(relid);
	return quote_qualified_identifier(schema, table);
}

/*
 * Partition partition's server and remote table, looked up once (until a
 * foreign table, a schema or the partition changes: Generation)
 */
static RemotePart *
LookupPart(Oid partition)
{
	RemotePart *p;
	bool		found;

	InitCaches();
	if (PartHash == NULL || PartGeneration != Generation)
	{
		HASHCTL		ctl;

		if (PartCxt == NULL)
			PartCxt = AllocSetContextCreate(TopMemoryContext, "hroe remote read partitions",
											ALLOCSET_SMALL_SIZES);
		MemoryContextReset(PartCxt);
		ctl.keysize = sizeof(Oid);
		ctl.entrysize = sizeof(RemotePart);
		ctl.hcxt = PartCxt;
		PartHash = hash_create("hroe remote read partitions", 16, &ctl,
							   HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
		PartGeneration = Generation;
	}
	p = hash_search(PartHash, &partition, HASH_FIND, NULL);
	if (p == NULL)
	{
		ForeignTable *ft = GetForeignTable(partition);
		char	   *table = RemoteTable(ft, partition);
		Oid			serverid = ft->serverid;

		/* (the lookups above may have flushed PartHash: looked up again) */
		if (PartHash == NULL || PartGeneration != Generation)
			return LookupPart(partition);
		p = hash_search(PartHash, &partition, HASH_ENTER, &found);
		p->serverid = serverid;
		p->table = MemoryContextStrdup(PartCxt, table);
		p->get_sql = NULL;
		p->get_fallback = NULL;
	}
	return p;
}

/*
 * The statement of a GetItem of table t's key on partition partition, built
 * once and kept with the partition: the server's hroe.item_by_key of the
 * table's name (on the server, the hroe table of that name), or with
 * fallback the SELECT by key for a server whose hroe has no
 * hroe.item_by_key.  Valid until the partitions are looked up again.
 */
static const char *
GetStatement(HroeTableMeta *t, Oid partition, bool fallback)
{
	RemotePart *p = LookupPart(partition);

	if (p->get_sql == NULL)
	{
		char	   *name = quote_literal_cstr(t->name);
		char	   *get;
		char	   *select;

		/*
		 * (the name typed: a server whose hroe.item_by_key has another
		 * signature answers undefined_function, as one without it)
		 */
		get = psprintf("SELECT hroe.item_by_key(%s::pg_catalog.text, $1%s)", name, t->schema.nrange ? ", $2" : "");
		select = psprintf("SELECT item FROM %s WHERE %s%s%s", p->table,
						  KeyQual("pk", t->schema.types[0], 1),
						  t->schema.nrange ? " AND " : "",
						  t->schema.nrange ? KeyQual("sk", t->schema.types[1], 2) : "");
		p->get_fallback = MemoryContextStrdup(PartCxt, select);
		p->get_sql = MemoryContextStrdup(PartCxt, get);
	}
	return fallback ? p->get_fallback : p->get_sql;
}

/*
 * The name of read r's statement (format fmt, %s the remote table; a
 * GetItem's statement as it is) prepared on c, prepared now if need be (the
 * statement sent in *sql); NULL, nothing prepared, when the server has no
 * function the statement calls and missing_ok
 */
static char *
Prepare(RemoteConn *c, HroeRemoteRead *r, const char *fmt, bool missing_ok, char **sql)
{
	RemoteStmtKey key;
	RemoteStmt *e;
	char	   *name;
	char	   *text;
	MemoryContext old;
	bool		found;

	if (c->stmts == NULL || c->generation != Generation)
	{
		HASHCTL		ctl;

		/* (the statements stay on the server until the next DEALLOCATE ALL) */
		MemoryContextReset(c->cxt);
		ctl.keysize = sizeof(RemoteStmtKey);
		ctl.entrysize = sizeof(RemoteStmt);
		ctl.hash = StmtHash;
		ctl.match = StmtMatch;
		ctl.hcxt = c->cxt;
		c->stmts = hash_create("hroe remote read statements", 16, &ctl,
							   HASH_ELEM | HASH_FUNCTION | HASH_COMPARE | HASH_CONTEXT);
		c->generation = Generation;
	}
	key.partition = r->partition;
	key.fmt = fmt;
	e = hash_search(c->stmts, &key, HASH_FIND, NULL);
	if (e != NULL)
	{
		*sql = e->sql;
		return e->name;
	}
	text = CastParams(r->get ? fmt : psprintf(fmt, LookupPart(r->partition)->table),
					  r->nparams, r->types);
	c->busy = true;
	if (c->nprepared >= HROE_REMOTE_STATEMENTS)
	{
		/* bounded: a backend that read many tables starts again */
		if (!PQsendQuery(c->conn, "DEALLOCATE ALL"))
			ConnError(c, "could not send a statement to");
		Complete(c, PGRES_COMMAND_OK, "DEALLOCATE ALL");
		c->nprepared = 0;
		/* (its entries name statements no longer there) */
		hash_destroy(c->stmts);
		c->stmts = NULL;
		MemoryContextReset(c->cxt);
		c->busy = false;
		return Prepare(c, r, fmt, missing_ok, sql);
	}
	name = psprintf("hroe_r%d", c->nprepared);
	if (!c->configured)
	{
		/*
		 * the session's settings, once: the statements qualify their table,
		 * and name hroe's operators as the coordinator's statements do
		 * (hroe_push_search_path)
		 */
		if (!PQsendQuery(c->conn, RemoteSearchPath))
			ConnError(c, "could not send a statement to");
		Complete(c, PGRES_COMMAND_OK, RemoteSearchPath);
		c->configured = true;
	}
	if (!PQsendPrepare(c->conn, name, text, r->nparams, NULL))
		ConnError(c, "could not send a statement to");
	if (!CompleteUnless(c, PGRES_COMMAND_OK, text,
						missing_ok ? ERRCODE_UNDEFINED_FUNCTION : 0))
	{
		/* the server's hroe is older: the connection is ready for the next */
		PQclear(c->res);
		c->res = NULL;
		c->busy = false;
		return NULL;
	}
	PQclear(c->res);
	c->res = NULL;
	c->busy = false;
	c->nprepared++;
	e = hash_search(c->stmts, &key, HASH_ENTER, &found);
	old = MemoryContextSwitchTo(c->cxt);
	e->key.fmt = pstrdup(fmt);
	e->name = pstrdup(name);
	e->sql = pstrdup(text);
	MemoryContextSwitchTo(old);
	*sql = e->sql;
	return e->name;
}

/* A column's binary input function */
typedef struct RecvFunc
{
	FmgrInfo	flinfo;
	Oid			ioparam;
} RecvFunc;

/* Type typid's send and receive functions, looked up once */
static TypeIO *
LookupTypeIO(Oid typid)
{
	TypeIO	   *io;
	bool		found;

	if (TypeIOHash == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(Oid);
		ctl.entrysize = sizeof(TypeIO);
		TypeIOHash = hash_create("hroe remote read types", 8, &ctl, HASH_ELEM | HASH_BLOBS);
	}
	io = hash_search(TypeIOHash, &typid, HASH_FIND, NULL);
	if (io == NULL)
	{
		Oid			send;
		Oid			recv;
		Oid			ioparam;
		bool		varlena;
		FmgrInfo	sendinfo;
		FmgrInfo	recvinfo;

		getTypeBinaryOutputInfo(typid, &send, &varlena);
		getTypeBinaryInputInfo(typid, &recv, &ioparam);
		fmgr_info_cxt(send, &sendinfo, TopMemoryContext);
		fmgr_info_cxt(recv, &recvinfo, TopMemoryContext);
		/* (the lookups above may have flushed TypeIOHash) */
		if (TypeIOHash == NULL)
			return LookupTypeIO(typid);
		io = hash_search(TypeIOHash, &typid, HASH_ENTER, &found);
		io->send = sendinfo;
		io->recv = recvinfo;
		io->ioparam = ioparam;
	}
	return io;
}

static void
RecvFuncInit(RecvFunc *f, Oid typid)
{
	TypeIO	   *io = LookupTypeIO(typid);

	/* a copy: the hash table's entry may go at the next invalidation */
	f->flinfo = io->recv;
	f->ioparam = io->ioparam;
}

/*
 * A binary value of a result (libpq ends it with a zero byte, as the
 * receive functions' StringInfo expects), received by f, which validates it
 */
static Datum
Receive(RecvFunc *f, PGresult *res, int row, int col)
{
	StringInfoData buf;

	buf.data = PQgetvalue(res, row, col);
	buf.len = PQgetlength(res, row, col);
	buf.maxlen = buf.len + 1;
	buf.cursor = 0;
	return ReceiveFunctionCall(&f->flinfo, &buf, f->ioparam, -1);
}

/* A result held until its memory context is reset or deleted */
typedef struct ResultOwner
{
	MemoryContextCallback cb;
	PGresult   *res;
} ResultOwner;

static void
FreeResult(void *arg)
{
	ResultOwner *owner = arg;

	PQclear(owner->res);
	owner->res = NULL;
}

/*
 * Row row's item of read r, received now (hroe.item's receive function
 * validates it) in the current memory context: a page's rows are received
 * only as they are used, not every row each server sent
 */
HroeItem *
hroe_remote_read_item(HroeRemoteRead *r, int row)
{
	PGresult   *res = r->result;

	Assert(row >= 0 && row < r->nrows);
	if (PQgetisnull(res, row, 0))
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("remote statement on server \"%s\" returned no item", r->srvname)));
	return (HroeItem *) DatumGetPointer(Receive(&((RecvFunc *) r->recv)[0], res, row, 0));
}

/* Row row's order keys (r->nkeys of them) of read r, received once */
Datum *
hroe_remote_read_keys(HroeRemoteRead *r, int row)
{
	PGresult   *res = r->result;

	Assert(row >= 0 && row < r->nrows);
	if (r->keys[row] == NULL)
	{
		Datum	   *keys = palloc(Max(r->nkeys, 1) * sizeof(Datum));

		for (int k = 0; k < r->nkeys; k++)
		{
			if (PQgetisnull(res, row, k + 1))
				ereport(ERROR,
						(errcode(ERRCODE_DATA_CORRUPTED),
						 errmsg("remote statement on server \"%s\" returned a null key", r->srvname)));
			keys[k] = Receive(&((RecvFunc *) r->recv)[k + 1], res, row, k + 1);
		}
		r->keys[row] = keys;
	}
	return r->keys[row];
}

/*
 * sql with each parameter $n cast to its type, by qualified name (a type's
 * OID is the coordinator's own): the server infers no type then.  Quoted
 * literals and identifiers are left as they are.
 */
static char *
CastParams(const char *sql, int nparams, Oid *types)
{
	StringInfoData out;
	const char *c = sql;

	initStringInfo(&out);
	while (*c)
	{
		if (*c == '\'' || *c == '"')
		{
			char		q = *c;

			appendStringInfoChar(&out, *c++);
			while (*c && *c != q)
				appendStringInfoChar(&out, *c++);
			if (*c)
				appendStringInfoChar(&out, *c++);
		}
		else if (*c == '$' && isdigit((unsigned char) c[1]))
		{
			int			p = 0;

			c++;
			while (isdigit((unsigned char) *c) && p <= nparams)
				p = p * 10 + (*c++ - '0');
			if (p < 1 || p > nparams)
				elog(ERROR, "remote statement names parameter $%d of %d", p, nparams);
			appendStringInfo(&out, "($%d::%s)", p, format_type_be_qualified(types[p - 1]));
		}
		else
			appendStringInfoChar(&out, *c++);
	}
	return out.data;
}

/*
 * The remote condition "column = $param" on a key column of DynamoDB type
 * type (S, N or B: hroe.key, numeric or bytea); the remote session's
 * search_path is pg_catalog, hroe, which the statement's unqualified
 * comparisons of key columns rely on
 */
static char *
KeyQual(const char *column, char type, int param)
{
	if (type == 'N')
		return psprintf("%s OPERATOR(pg_catalog.=) $%d::pg_catalog.numeric", column, param);
	if (type == 'B')
		return psprintf("%s OPERATOR(pg_catalog.=) $%d::pg_catalog.bytea", column, param);
	return psprintf("%s OPERATOR(hroe.=) $%d::hroe.key", column, param);
}

/*
 * Whether a read of distributed table t may take the own path: the setting
 * on, outside a transaction block (whose snapshot on each server
 * postgres_fdw's remote transaction keeps), and before the statement wrote
 * anything (whose writes on a server only postgres_fdw's remote transaction
 * sees)
 */
bool
hroe_remote_read_usable(HroeTableMeta *t)
{
	return hroe_remote_reads && t->distributed && MyProc->lxid != Paused &&
		(!IsTransactionBlock() || MyProc->lxid == CallOutsideBlock) &&
		!IsInParallelMode() && GetCurrentCommandId(false) == FirstCommandId;
}

/*
 * Leave the rest of the current transaction's reads to postgres_fdw: a
 * TransactGetItems reads its items under one snapshot per server, which only
 * postgres_fdw's remote transaction keeps (the own path's statements each
 * run in a transaction of their own)
 */
void
hroe_remote_read_pause(void)
{
	Paused = MyProc->lxid;
}

/*
 * Note that an API call begins: hroe.dynamodb runs each call in a
 * subtransaction, inside which IsTransactionBlock() is true; whether the
 * call began outside a transaction block is noted here, before it.
 */
void
hroe_remote_read_call_begins(void)
{
	if (!IsTransactionBlock())
		CallOutsideBlock = MyProc->lxid;
}

/*
 * Run each of reads on its partition's server: every statement sent before
 * any answer is read.  Reads on the same connection run in turns.  Each
 * read's result is kept until the current memory context is reset or
 * deleted; its rows are received by hroe_remote_read_item and
 * hroe_remote_read_keys.
 */
void
hroe_remote_read_run(HroeRemoteRead *reads, int nreads)
{
	RemoteConn **conns = palloc0(nreads * sizeof(RemoteConn *));
	char	  **sqls = palloc0(nreads * sizeof(char *));
	bool	   *done = palloc0(nreads * sizeof(bool));
	bool	   *sent = palloc0(nreads * sizeof(bool));
	int			left = nreads;

	for (int i = 0; i < nreads; i++)
	{
		Oid			serverid = LookupPart(reads[i].partition)->serverid;

		conns[i] = GetConn(serverid);
		reads[i].nrows = 0;
		reads[i].result = NULL;
		reads[i].keys = NULL;
	}
	while (left > 0)
	{
		memset(sent, 0, nreads * sizeof(bool));
		/* send: one statement per connection in this turn */
		for (int i = 0; i < nreads; i++)
		{
			HroeRemoteRead *r = &reads[i];
			RemoteConn *c = conns[i];
			const char *values[HROE_READ_MAX_PARAMS];
			int			lengths[HROE_READ_MAX_PARAMS];
			int			formats[HROE_READ_MAX_PARAMS];
			char	   *name;
			bool		taken = false;

			if (done[i])
				continue;
			for (int j = 0; j < i; j++)
				if (sent[j] && conns[j] == c)
					taken = true;
			if (taken)
				continue;
			if (r->nparams > HROE_READ_MAX_PARAMS)
				elog(ERROR, "remote statement has %d parameters, more than %d", r->nparams,
					 HROE_READ_MAX_PARAMS);
			for (int p = 0; p < r->nparams; p++)
			{
				FmgrInfo	send = LookupTypeIO(r->types[p])->send;
				bytea	   *b = SendFunctionCall(&send, r->values[p]);

				values[p] = VARDATA(b);
				lengths[p] = VARSIZE(b) - VARHDRSZ;
				formats[p] = 1;
			}
			if (r->get == NULL)
				name = Prepare(c, r, r->sql, false, &sqls[i]);
			else if (c->no_item_by_key)
				name = Prepare(c, r, GetStatement(r->get, r->partition, true), false, &sqls[i]);
			else
			{
				name = Prepare(c, r, GetStatement(r->get, r->partition, false), true, &sqls[i]);
				if (name == NULL)
				{
					/* a partition server whose hroe is older than this one */
					c->no_item_by_key = true;
					name = Prepare(c, r, GetStatement(r->get, r->partition, true), false, &sqls[i]);
				}
			}
			/* (copies: the statements' entries may go at an invalidation) */
			name = pstrdup(name);
			sqls[i] = pstrdup(sqls[i]);
			c->busy = true;
			if (!PQsendQueryPrepared(c->conn, name, r->nparams, values, lengths, formats, 1))
				ConnError(c, "could not send a statement to");
			sent[i] = true;
		}
		/* collect */
		for (int i = 0; i < nreads; i++)
		{
			HroeRemoteRead *r = &reads[i];
			RemoteConn *c = conns[i];
			PGresult   *res;
			int			ncols = 1 + r->nkeys;
			RecvFunc   *recv;
			ResultOwner *owner;

			if (!sent[i])
				continue;
			Complete(c, PGRES_TUPLES_OK, sqls[i]);
			res = c->res;
			if (PQnfields(res) != ncols)
				ereport(ERROR,
						(errcode(ERRCODE_DATATYPE_MISMATCH),
						 errmsg("remote statement on server \"%s\" returned %d columns, not %d",
								c->srvname, PQnfields(res), ncols)));
			recv = palloc(ncols * sizeof(RecvFunc));
			RecvFuncInit(&recv[0], hroe_item_typid());
			for (int k = 0; k < r->nkeys; k++)
				RecvFuncInit(&recv[k + 1], r->keytypes[k]);
			for (int k = 0; k < ncols; k++)
				if (PQfformat(res, k) != 1)
					ereport(ERROR,
							(errcode(ERRCODE_DATATYPE_MISMATCH),
							 errmsg("remote statement on server \"%s\" returned text, not binary", c->srvname)));
			r->nrows = PQntuples(res);
			/* hroe.item_by_key's answer for an absent item: no row */
			if (r->get != NULL && r->nrows == 1 && PQgetisnull(res, 0, 0))
				r->nrows = 0;
			r->recv = recv;
			r->srvname = pstrdup(c->srvname);
			r->keys = palloc0(Max(r->nrows, 1) * sizeof(Datum *));
			/* the result now belongs to the caller's memory context */
			owner = palloc(sizeof(ResultOwner));
			owner->res = res;
			owner->cb.func = FreeResult;
			owner->cb.arg = owner;
			MemoryContextRegisterResetCallback(CurrentMemoryContext, &owner->cb);
			r->result = res;
			c->res = NULL;
			c->busy = false;
			done[i] = true;
			left--;
		}
	}
}
