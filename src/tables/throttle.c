/*-------------------------------------------------------------------------
 *
 * throttle.c
 *	  DynamoDB's throttling, opt-in per table (hroe.set_throttling, or the
 *	  setting hroe.throttling = all; doc/throttling.md).
 *
 * Each limit is a token bucket of capacity units:
 *	- a PROVISIONED table's or GSI's read or write capacity: refilled at its
 *	  ReadCapacityUnits / WriteCapacityUnits per second, holding up to
 *	  HROE_BURST_SECONDS (300) seconds of unused capacity, DynamoDB's burst
 *	  capacity; refusal: ProvisionedThroughputExceededException, reason
 *	  {Table|Index}{Read|Write}ProvisionedThroughputExceeded;
 *	- an on-demand table's or GSI's OnDemandThroughput maximum: refilled at
 *	  MaxReadRequestUnits / MaxWriteRequestUnits per second, holding one
 *	  second's worth; ThrottlingException, ...MaxOnDemandThroughputExceeded;
 *	- each partition key value of a throttled table: HROE_PARTITION_MAX_RCU
 *	  (3,000) read and HROE_PARTITION_MAX_WCU (1,000) write units per second,
 *	  one second's worth held (adaptive capacity never lifts these caps, and
 *	  one key value cannot be split); ...KeyRangeThroughputExceeded, with the
 *	  exception of the table's capacity mode.
 * A new bucket starts with one second's worth.  An operation is admitted
 * while its buckets are not empty (DynamoDB knows an item's size only once
 * it is read or written) and then charged what it consumed, so a bucket may
 * go below zero and the next requests wait for its refill.
 * See https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/TroubleshootingThrottling.html
 * and https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/burst-adaptive-capacity.html
 *
 * The buckets live in shared memory when hroe is in shared_preload_libraries,
 * so all backends of the server draw from the same ones: a fixed table of
 * THROTTLE_SLOTS buckets (open addressing; when the probed slots are all
 * taken, the least recently used one is reused, its credit forgotten),
 * under one LWLock held for a few hundred instructions.  Without the
 * preload each backend keeps a table of its own (the limits then hold per
 * connection, documented).  A table's settings (hroe.tables, hroe.indexes)
 * are read at most once a second per backend, and again at once after
 * hroe.set_throttling or an OnDemandThroughput change (a relcache
 * invalidation of the table, sent to every backend at commit).
 *
 * src/tables/throttle.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "contributor_insights.h"
#include "dynamodb_limits.h"
#include "errors.h"
#include "item.h"
#include "throttle.h"

/* hroe.throttling */
typedef enum
{
	THROTTLE_OFF,				/* never */
	THROTTLE_TABLE,				/* the tables whose throttling is on */
	THROTTLE_ALL				/* every table */
} ThrottleMode;

static const struct config_enum_entry throttle_options[] = {
	{"off", THROTTLE_OFF, false},
	{"table", THROTTLE_TABLE, false},
	{"all", THROTTLE_ALL, false},
	{NULL, 0, false}
};
static int	throttle_mode = THROTTLE_TABLE;

#define THROTTLE_SLOTS 16384	/* buckets, all tables and keys together */
#define THROTTLE_PROBE 16		/* slots probed for a bucket */
#define SETTINGS_TTL_S 1.0		/* a table's settings are read again after */

/* A bucket's identity */
typedef struct BucketKey
{
	Oid			dbid;
	Oid			relid;
	int32		index;			/* -1: the table, else its index number */
	int32		write;
	uint64		keyhash;		/* 0: the table or index as a whole */
} BucketKey;

typedef struct Bucket
{
	BucketKey	key;
	bool		used;
	double		tokens;			/* capacity units available (may be < 0) */
	double		last;			/* when last refilled (s) */
} Bucket;

typedef struct ThrottleShared
{
	LWLock	   *lock;
	Bucket		slots[THROTTLE_SLOTS];
} ThrottleShared;

static ThrottleShared *shared;	/* in shared memory when preloaded */
static Bucket *local_slots;		/* else this backend's own */
static shmem_request_hook_type prev_shmem_request_hook;
static shmem_startup_hook_type prev_shmem_startup_hook;

/* A table's or index's limits (0: none) */
typedef struct Limits
{
	double		read,
				write;
	bool		provisioned;
} Limits;

/* A table's settings, as read from hroe.tables and hroe.indexes */
typedef struct TableSettings
{
	Oid			relid;			/* hash key */
	double		fetched;		/* when read (s) */
	bool		on;				/* throttling on */
	bool		provisioned;	/* capacity mode */
	Limits		table;
	int			nindexes;		/* of t->indexes, by position */
	Limits		indexes[HROE_MAX_INDEXES];
} TableSettings;

static HTAB *settings_cache;
static char *last_reasons;		/* TopMemoryContext */
static bool last_provisioned;

/* Seconds, monotonic enough for refills */
static double
NowSeconds(void)
{
	return (double) GetCurrentTimestamp() / 1000000.0;
}

static Size
ThrottleShmemSize(void)
{
	return MAXALIGN(sizeof(ThrottleShared));
}

static void
ThrottleShmemRequest(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	RequestAddinShmemSpace(ThrottleShmemSize());
	RequestNamedLWLockTranche("hroe_throttle", 1);
}

static void
ThrottleShmemStartup(void)
{
	bool		found;

	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	shared = ShmemInitStruct("hroe throttle", ThrottleShmemSize(), &found);
	if (!found)
	{
		memset(shared, 0, ThrottleShmemSize());
		shared->lock = &(GetNamedLWLockTranche("hroe_throttle"))->lock;
	}
	LWLockRelease(AddinShmemInitLock);
}

/* The setting, and the shared buckets when preloaded (_PG_init) */
void
hroe_throttle_init(void)
{
	DefineCustomEnumVariable("hroe.throttling",
							 "Which tables hroe throttles as DynamoDB would.",
							 "table (the default): only the tables whose throttling was turned on with "
							 "hroe.set_throttling; all: every table; off: none.  A throttled table refuses "
							 "requests past its provisioned capacity (with burst credit), its "
							 "OnDemandThroughput maximum or a partition key's per-second limits.",
							 &throttle_mode,
							 THROTTLE_TABLE,
							 throttle_options,
							 PGC_SUSET,
							 0,
							 NULL, NULL, NULL);
	if (!process_shared_preload_libraries_in_progress)
		return;
	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = ThrottleShmemRequest;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = ThrottleShmemStartup;
}

/* A numeric column of the SPI result as a double (0 when NULL) */
static double
SpiDouble(int row, int col)
{
	bool		isnull;
	Datum		d = SPI_getbinval(SPI_tuptable->vals[row], SPI_tuptable->tupdesc, col, &isnull);

	return isnull ? 0 : (double) DatumGetInt64(d);
}

static bool
SpiBool(int row, int col)
{
	bool		isnull;
	Datum		d = SPI_getbinval(SPI_tuptable->vals[row], SPI_tuptable->tupdesc, col, &isnull);

	return !isnull && DatumGetBool(d);
}

/* Read t's settings into s */
static void
LoadSettings(HroeTableMeta *t, TableSettings *s)
{
	Datum		arg = CStringGetTextDatum(t->name);
	Oid			argtype = TEXTOID;
	int			ret;

	s->on = false;
	s->provisioned = false;
	memset(&s->table, 0, sizeof(Limits));
	memset(s->indexes, 0, sizeof(s->indexes));
	s->nindexes = Min(t->nindexes, HROE_MAX_INDEXES);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	/*
	 * (by to_jsonb: the metadata of an installation not yet updated to 0.3
	 * has no such columns, and no table is throttled there)
	 */
	ret = SPI_execute_with_args("SELECT (j OPERATOR(pg_catalog.->>) 'throttling')::pg_catalog.bool, "
								"(j OPERATOR(pg_catalog.->>) 'billing_mode') OPERATOR(pg_catalog.=) 'PROVISIONED', "
								"(j OPERATOR(pg_catalog.->>) 'read_capacity_units')::pg_catalog.int8, "
								"(j OPERATOR(pg_catalog.->>) 'write_capacity_units')::pg_catalog.int8, "
								"(j OPERATOR(pg_catalog.->>) 'max_read_request_units')::pg_catalog.int8, "
								"(j OPERATOR(pg_catalog.->>) 'max_write_request_units')::pg_catalog.int8 "
								"FROM (SELECT pg_catalog.to_jsonb(t) j FROM hroe.tables t "
								"WHERE t.table_name OPERATOR(pg_catalog.=) $1) s",
								1, &argtype, &arg, NULL, true, 1);
	if (ret != SPI_OK_SELECT)
		elog(ERROR, "reading hroe.tables failed: %s", SPI_result_code_string(ret));
	if (SPI_processed == 1)
	{
		s->on = SpiBool(0, 1);
		s->provisioned = SpiBool(0, 2);
		s->table.provisioned = s->provisioned;
		s->table.read = s->provisioned ? SpiDouble(0, 3) : SpiDouble(0, 5);
		s->table.write = s->provisioned ? SpiDouble(0, 4) : SpiDouble(0, 6);
	}
	ret = SPI_execute_with_args("SELECT j OPERATOR(pg_catalog.->>) 'index_name', "
								"(j OPERATOR(pg_catalog.->>) 'read_capacity_units')::pg_catalog.int8, "
								"(j OPERATOR(pg_catalog.->>) 'write_capacity_units')::pg_catalog.int8, "
								"(j OPERATOR(pg_catalog.->>) 'max_read_request_units')::pg_catalog.int8, "
								"(j OPERATOR(pg_catalog.->>) 'max_write_request_units')::pg_catalog.int8 "
								"FROM (SELECT pg_catalog.to_jsonb(x) j FROM hroe.indexes x "
								"WHERE x.table_name OPERATOR(pg_catalog.=) $1) s "
								"WHERE NOT coalesce((j OPERATOR(pg_catalog.->>) 'local')::pg_catalog.bool, false)",
								1, &argtype, &arg, NULL, true, 0);
	if (ret != SPI_OK_SELECT)
		elog(ERROR, "reading hroe.indexes failed: %s", SPI_result_code_string(ret));
	for (uint64 r = 0; r < SPI_processed; r++)
	{
		char	   *name = SPI_getvalue(SPI_tuptable->vals[r], SPI_tuptable->tupdesc, 1);

		for (int i = 0; i < s->nindexes; i++)
			if (name && strcmp(t->indexes[i].name, name) == 0)
			{
				Limits	   *l = &s->indexes[i];

				l->provisioned = s->provisioned;
				l->read = s->provisioned ? SpiDouble(r, 2) : SpiDouble(r, 4);
				l->write = s->provisioned ? SpiDouble(r, 3) : SpiDouble(r, 5);
			}
	}
	SPI_finish();
}

/* Relcache invalidation: forget the settings of the table concerned */
static void
SettingsInvalidate(Datum arg, Oid relid)
{
	if (settings_cache == NULL)
		return;
	if (relid != InvalidOid)
		(void) hash_search(settings_cache, &relid, HASH_REMOVE, NULL);
	else
	{
		HASH_SEQ_STATUS status;
		TableSettings *s;

		hash_seq_init(&status, settings_cache);
		while ((s = hash_seq_search(&status)) != NULL)
			(void) hash_search(settings_cache, &s->relid, HASH_REMOVE, NULL);
	}
}

PG_FUNCTION_INFO_V1(hroe_throttle_settings_changed);
/*
 * SQL: hroe.throttle_settings_changed(table): the throttling settings of the
 * DynamoDB table changed; every backend reads them again (at commit)
 */
Datum
hroe_throttle_settings_changed(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);

	if (get_rel_relkind(relid) != '\0')
		CacheInvalidateRelcacheByRelid(relid);
	PG_RETURN_VOID();
}

/* t's settings, read at most once a second; NULL when t is not throttled */
static TableSettings *
Settings(HroeTableMeta *t)
{
	TableSettings *s;
	bool		found;
	double		now;

	if (throttle_mode == THROTTLE_OFF || t->distributed)
		return NULL;
	if (settings_cache == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(Oid);
		ctl.entrysize = sizeof(TableSettings);
		ctl.hcxt = TopMemoryContext;
		settings_cache = hash_create("hroe throttle settings", 16, &ctl,
									 HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
		CacheRegisterRelcacheCallback(SettingsInvalidate, (Datum) 0);
	}
	now = NowSeconds();
	s = hash_search(settings_cache, &t->relid, HASH_FIND, &found);
	if (s == NULL || now - s->fetched >= SETTINGS_TTL_S || now < s->fetched ||
		s->nindexes != Min(t->nindexes, HROE_MAX_INDEXES))
	{
		TableSettings fresh;

		/*
		 * read into a copy: the queries may process invalidations, which
		 * remove entries from the cache
		 */
		LoadSettings(t, &fresh);
		s = hash_search(settings_cache, &t->relid, HASH_ENTER, &found);
		memcpy(((char *) s) + sizeof(Oid), ((char *) &fresh) + sizeof(Oid),
			   sizeof(TableSettings) - sizeof(Oid));
		s->fetched = now;
	}
	if (!s->on && throttle_mode != THROTTLE_ALL)
		return NULL;
	return s;
}

/* The partition key's hash (never 0): its column Datum's bytes, N's value */
static uint64
KeyHash(HroeTableMeta *t, Datum pk)
{
	uint64		h;

	if (t->schema.types[0] == 'N')
		h = DatumGetUInt32(DirectFunctionCall1(hash_numeric, pk));
	else
	{
		struct varlena *v = PG_DETOAST_DATUM_PACKED(pk);

		h = hash_bytes_extended((const unsigned char *) VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v), 0);
	}
	return h ? h : 1;
}

/* The bucket of key (lock held), made with one second's worth if new */
static Bucket *
FindBucket(const BucketKey *key, double rate, double now)
{
	Bucket	   *slots = shared ? shared->slots : local_slots;
	uint32		h = hash_bytes((const unsigned char *) key, sizeof(BucketKey));
	Bucket	   *victim = NULL;

	for (int p = 0; p < THROTTLE_PROBE; p++)
	{
		Bucket	   *b = &slots[(h + p) % THROTTLE_SLOTS];

		if (b->used && memcmp(&b->key, key, sizeof(BucketKey)) == 0)
			return b;
		if (!b->used)
		{
			if (victim == NULL || victim->used)
				victim = b;
		}
		else if (victim == NULL || (victim->used && b->last < victim->last))
			victim = b;
	}
	victim->key = *key;
	victim->used = true;
	victim->tokens = rate;
	victim->last = now;
	return victim;
}

/* Refill b at rate per second up to capacity */
static void
Refill(Bucket *b, double rate, double capacity, double now)
{
	if (now > b->last)
		b->tokens = Min(capacity, b->tokens + rate * (now - b->last));
	b->last = now;
}

/* One limit an operation meets */
typedef struct Check
{
	BucketKey	key;
	double		rate;
	double		capacity;
	double		units;			/* to charge */
	const char *reason;			/* ThrottlingReason's reason */
	int			index;			/* -1: the table */
	bool		provisioned;	/* the exception it raises */
} Check;

/* The limits of t's operation (write, index, pk): at most 2 + indexes */
static int
Checks(HroeTableMeta *t, TableSettings *s, bool write, int index, const Datum *pk,
	   double units, const double *index_units, bool admit, Check *c)
{
	int			n = 0;
	BucketKey	key;
	bool		gsi = index >= 0 && !t->indexes[index].local;
	double		table_units = units;

	/* an LSI shares its table's throughput: its writes are the table's */
	if (write && index_units)
		for (int i = 0; i < t->nindexes; i++)
			if (t->indexes[i].local)
				table_units += index_units[i];
	memset(&key, 0, sizeof(key));
	key.dbid = MyDatabaseId;
	key.relid = t->relid;
	key.write = write;
	for (int i = -1; i < s->nindexes; i++)
	{
		Limits	   *l = i < 0 ? &s->table : &s->indexes[i];
		double		rate = write ? l->write : l->read;
		double		u;

		/* a read meets the table's or its index's; a write, the GSIs' too */
		if (i >= 0 && !(write ? !t->indexes[i].local : i == index))
			continue;
		if (i < 0 && !write && gsi)
			continue;
		u = i < 0 ? table_units : write ? (index_units ? index_units[i] : 0) : units;
		if (rate <= 0 || (!admit && u <= 0))
			continue;
		key.index = i;
		key.keyhash = 0;
		c[n].key = key;
		c[n].rate = rate;
		c[n].capacity = l->provisioned ? rate * HROE_BURST_SECONDS : rate;
		c[n].units = u;
		c[n].index = i;
		c[n].provisioned = l->provisioned;
		c[n].reason = psprintf("%s%s%s", i < 0 ? "Table" : "Index", write ? "Write" : "Read",
							   l->provisioned ? "ProvisionedThroughputExceeded" : "MaxOnDemandThroughputExceeded");
		n++;
	}
	/* the partition key's own limit (the table's key; a GSI's query has none here) */
	if (pk && !gsi)
	{
		double		rate = write ? HROE_PARTITION_MAX_WCU : HROE_PARTITION_MAX_RCU;

		key.index = -1;
		key.keyhash = KeyHash(t, *pk);
		c[n].key = key;
		c[n].rate = rate;
		c[n].capacity = rate;
		c[n].units = table_units;
		c[n].index = -1;
		c[n].provisioned = s->provisioned;
		c[n].reason = psprintf("Table%sKeyRangeThroughputExceeded", write ? "Write" : "Read");
		n++;
	}
	return n;
}

/* Allocate this backend's buckets when they are not shared */
static void
EnsureSlots(void)
{
	if (shared == NULL && local_slots == NULL)
		local_slots = MemoryContextAllocZero(TopMemoryContext, sizeof(Bucket) * THROTTLE_SLOTS);
}

/* Admission (throttle.h) */
bool
hroe_throttle_admit(HroeTableMeta *t, bool write, int index, const Datum *pk, bool raise)
{
	TableSettings *s = Settings(t);
	Check		c[HROE_MAX_INDEXES + 2];
	int			n;
	double		now;
	bool		refused[HROE_MAX_INDEXES + 2];
	bool		any = false;
	bool		provisioned = false;
	StringInfoData r;

	if (s == NULL)
		return true;
	n = Checks(t, s, write, index, pk, 0, NULL, true, c);
	if (n == 0)
		return true;
	EnsureSlots();
	now = NowSeconds();
	if (shared)
		LWLockAcquire(shared->lock, LW_EXCLUSIVE);
	for (int i = 0; i < n; i++)
	{
		Bucket	   *b = FindBucket(&c[i].key, c[i].rate, now);

		Refill(b, c[i].rate, c[i].capacity, now);
		refused[i] = b->tokens <= 0;
		any |= refused[i];
	}
	if (shared)
		LWLockRelease(shared->lock);
	if (!any)
		return true;

	/* ThrottlingReasons: each limit met, with its table's or index's ARN */
	initStringInfo(&r);
	appendStringInfoChar(&r, '[');
	for (int i = 0; i < n; i++)
	{
		char	   *arn;

		if (!refused[i])
			continue;
		provisioned |= c[i].provisioned;
		arn = hroe_table_arn_cstring(t->name);
		if (c[i].index >= 0)
			arn = psprintf("%s/index/%s", arn, t->indexes[c[i].index].name);
		if (r.len > 1)
			appendStringInfoChar(&r, ',');
		appendStringInfo(&r, "{\"reason\":\"%s\",\"resource\":", c[i].reason);
		hroe_json_string_write(&r, arn, strlen(arn));
		appendStringInfoChar(&r, '}');
	}
	appendStringInfoChar(&r, ']');
	if (last_reasons)
		pfree(last_reasons);
	last_reasons = MemoryContextStrdup(TopMemoryContext, r.data);
	last_provisioned = provisioned;
	if (raise)
		hroe_throttle_raise();
	return false;
}

/* throttle.h */
void
hroe_throttle_refuse_item(HroeTableMeta *t, const HroeItem *item, bool write, bool raise)
{
	hroe_contributor_insights_item(t, NULL, item, write, true);
	if (raise)
		hroe_throttle_raise();
}

/* The last refusal's exception (throttle.h) */
void
hroe_throttle_raise(void)
{
	if (last_provisioned)
		hroe_ddb_error(ERRCODE_HROE_PROVISIONED_THROUGHPUT_EXCEEDED,
					   "ProvisionedThroughputExceededException",
					   HROE_MSG_PROVISIONED_THROUGHPUT_EXCEEDED);
	hroe_ddb_error(ERRCODE_HROE_THROTTLING, "ThrottlingException", HROE_MSG_THROTTLING);
}

/* throttle.h */
bool
hroe_throttle_last_provisioned(void)
{
	return last_provisioned;
}

/* throttle.h */
bool
hroe_throttle_active(HroeTableMeta *t)
{
	return Settings(t) != NULL;
}

/* Charge (throttle.h) */
void
hroe_throttle_charge(HroeTableMeta *t, bool write, int index, const Datum *pk,
					 double units, const double *index_units)
{
	TableSettings *s = Settings(t);
	Check		c[HROE_MAX_INDEXES + 2];
	int			n;
	double		now;

	if (s == NULL)
		return;
	n = Checks(t, s, write, index, pk, units, index_units, false, c);
	if (n == 0)
		return;
	EnsureSlots();
	now = NowSeconds();
	if (shared)
		LWLockAcquire(shared->lock, LW_EXCLUSIVE);
	for (int i = 0; i < n; i++)
	{
		Bucket	   *b = FindBucket(&c[i].key, c[i].rate, now);

		Refill(b, c[i].rate, c[i].capacity, now);
		b->tokens -= c[i].units;
	}
	if (shared)
		LWLockRelease(shared->lock);
}

/* The last refusal's ThrottlingReasons (throttle.h) */
const char *
hroe_throttle_reasons(void)
{
	return last_reasons;
}
