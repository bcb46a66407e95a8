/*-------------------------------------------------------------------------
 *
 * contributor_insights.c
 *	  Contributor Insights' counts: the most accessed (and throttled) keys
 *	  of the tables and indexes whose Contributor Insights is enabled
 *	  (hroe.table_options, hroe.index_options), read with
 *	  hroe.contributor_insights().
 *
 * The counts are kept in shared memory (hroe in shared_preload_libraries;
 * without it nothing is counted): a fixed array of HROE_CI_SLOTS counters,
 * one per (database, table, index, key kind, read or write, throttled,
 * key, minute), split into HROE_CI_PARTS partitions, each under its own
 * LWLock, which a key's hash picks.  A new counter takes a free or
 * outdated (older than HROE_CI_WINDOW_MINUTES) slot among the
 * HROE_CI_PROBE slots its hash probes; when none is free, the smallest
 * counter there is replaced and its count inherited (the Space-Saving
 * algorithm: a key's count may then be overstated, never understated, by
 * at most the count it inherited, shown as the row's error).  Memory is
 * thus bounded whatever the traffic; the counts are lost on a restart,
 * like any monitoring sample.
 *
 * A key is shown as DynamoDB JSON ({"S":"..."}); a key whose JSON exceeds
 * HROE_CI_KEY_MAX bytes is kept as its first bytes and marked truncated
 * (its counter still distinguishes it by the hash of the whole key).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "executor/spi.h"
#include "mb/pg_wchar.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "utils/lsyscache.h"
#include "contributor_insights.h"

#define HROE_CI_SLOTS			8192
#define HROE_CI_PARTS			16
#define HROE_CI_PROBE			16
#define HROE_CI_KEY_MAX			200
#define HROE_CI_WINDOW_MINUTES	(24 * 60)

typedef struct CiSlot
{
	uint64		hash;			/* of everything below but count, error */
	Oid			db;
	Oid			relid;
	uint32		index;			/* hash of the index name; 0: the table */
	uint32		minute;			/* since the Unix epoch; 0: free */
	uint8		kind;			/* 0: partition key, 1: partition and sort key */
	bool		write;
	bool		throttled;
	bool		truncated;
	uint16		keylen;
	int64		count;
	int64		error;			/* inherited from the counter replaced */
	char		key[HROE_CI_KEY_MAX];
} CiSlot;

typedef struct CiShared
{
	LWLockPadded *locks;
	CiSlot		slots[HROE_CI_SLOTS];
} CiShared;

static CiShared *ci = NULL;
static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

static void
CiShmemRequest(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	RequestAddinShmemSpace(sizeof(CiShared));
	RequestNamedLWLockTranche("hroe_contributor_insights", HROE_CI_PARTS);
}

static void
CiShmemStartup(void)
{
	bool		found;

	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	ci = ShmemInitStruct("hroe contributor insights", sizeof(CiShared), &found);
	if (!found)
		memset(ci, 0, sizeof(CiShared));
	ci->locks = GetNamedLWLockTranche("hroe_contributor_insights");
	LWLockRelease(AddinShmemInitLock);
}

/* At load (shared_preload_libraries only): reserve the shared memory */
void
hroe_contributor_insights_init(void)
{
	if (!process_shared_preload_libraries_in_progress)
		return;
	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = CiShmemRequest;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = CiShmemStartup;
}

static uint32
NowMinute(void)
{
	return (uint32) (time(NULL) / 60);
}

/*
 * Count one access of key (DynamoDB JSON, keylen bytes) of table relid's
 * index (index_name NULL: the table itself); kind 0 a partition key, 1 a
 * partition and sort key; throttled: the access was refused for throughput
 */
void
hroe_contributor_insights_record(Oid relid, const char *index_name, int kind,
								 const char *key, int keylen, bool write, bool throttled)
{
	uint32		index = index_name ? (hash_bytes((const unsigned char *) index_name, strlen(index_name)) | 1) : 0;
	uint32		minute = NowMinute();
	uint64		h;
	int			part;
	int			base;
	int			victim = -1;
	int			stored;

	if (ci == NULL || keylen < 0)
		return;
	/* (a whole character) */
	stored = keylen > HROE_CI_KEY_MAX ? pg_mbcliplen(key, keylen, HROE_CI_KEY_MAX) : keylen;
	h = hash_bytes_extended((const unsigned char *) key, keylen,
							((uint64) relid << 32) ^ index ^ ((uint64) minute << 8) ^
							(kind << 2) ^ (write << 1) ^ throttled ^ ((uint64) MyDatabaseId << 40));
	part = h % HROE_CI_PARTS;
	base = part * (HROE_CI_SLOTS / HROE_CI_PARTS);
	LWLockAcquire(&ci->locks[part].lock, LW_EXCLUSIVE);
	for (int i = 0; i < HROE_CI_PROBE; i++)
	{
		CiSlot	   *s = &ci->slots[base + (int) ((h / HROE_CI_PARTS + i) % (HROE_CI_SLOTS / HROE_CI_PARTS))];

		if (s->minute != 0 && s->hash == h && s->db == MyDatabaseId && s->relid == relid &&
			s->index == index && s->minute == minute && s->kind == kind && s->write == write &&
			s->throttled == throttled && s->keylen == stored && memcmp(s->key, key, stored) == 0)
		{
			s->count++;
			LWLockRelease(&ci->locks[part].lock);
			return;
		}
		if (s->minute == 0 || minute - s->minute > HROE_CI_WINDOW_MINUTES)
		{
			if (victim < 0 || ci->slots[victim].minute != 0)
				victim = s - ci->slots;
		}
		else if (victim < 0 || (ci->slots[victim].minute != 0 &&
								(ci->slots[victim].count > s->count)))
			victim = s - ci->slots;
	}
	{
		CiSlot	   *s = &ci->slots[victim];
		bool		inherit = s->minute != 0 && minute - s->minute <= HROE_CI_WINDOW_MINUTES;
		int64		error = inherit ? s->count : 0;

		s->hash = h;
		s->db = MyDatabaseId;
		s->relid = relid;
		s->index = index;
		s->minute = minute;
		s->kind = kind;
		s->write = write;
		s->throttled = throttled;
		s->truncated = keylen > HROE_CI_KEY_MAX;
		s->keylen = stored;
		memcpy(s->key, key, stored);
		s->count = error + 1;
		s->error = error;
	}
	LWLockRelease(&ci->locks[part].lock);
}

PG_FUNCTION_INFO_V1(hroe_contributor_insights_counts);
/*
 * hroe.contributor_insights_counts(relid oid, index_name text, since
 * timestamptz): the counters of a table (index_name NULL) or index, kept
 * at or after since
 */
Datum
hroe_contributor_insights_counts(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Oid			relid = PG_GETARG_OID(0);
	char	   *index_name = PG_ARGISNULL(1) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(1));
	uint32		index = index_name ? (hash_bytes((const unsigned char *) index_name, strlen(index_name)) | 1) : 0;
	TimestampTz since = PG_GETARG_TIMESTAMPTZ(2);
	uint32		since_minute = (uint32) Max(0, (timestamptz_to_time_t(since) / 60));

	InitMaterializedSRF(fcinfo, 0);
	if (ci == NULL)
		PG_RETURN_VOID();
	for (int part = 0; part < HROE_CI_PARTS; part++)
	{
		int			base = part * (HROE_CI_SLOTS / HROE_CI_PARTS);

		LWLockAcquire(&ci->locks[part].lock, LW_SHARED);
		for (int i = 0; i < HROE_CI_SLOTS / HROE_CI_PARTS; i++)
		{
			CiSlot	   *s = &ci->slots[base + i];
			Datum		values[8];
			bool		nulls[8] = {0};

			if (s->minute == 0 || s->minute < since_minute || s->db != MyDatabaseId ||
				s->relid != relid || s->index != index)
				continue;
			values[0] = CStringGetTextDatum(s->kind == 0 ? "partition_key" : "partition_sort_key");
			values[1] = CStringGetTextDatum(s->write ? "write" : "read");
			values[2] = BoolGetDatum(s->throttled);
			values[3] = PointerGetDatum(cstring_to_text_with_len(s->key, s->keylen));
			values[4] = BoolGetDatum(s->truncated);
			values[5] = Int64GetDatum(s->count);
			values[6] = Int64GetDatum(s->error);
			values[7] = TimestampTzGetDatum(time_t_to_timestamptz((pg_time_t) s->minute * 60));
			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		}
		LWLockRelease(&ci->locks[part].lock);
	}
	PG_RETURN_VOID();
}

/* The mode of a hroe.table_options or hroe.index_options row */
static uint8
CiMode(const char *mode)
{
	if (mode == NULL)
		return HROE_CI_OFF;
	return strcmp(mode, "THROTTLED_KEYS") == 0 ? HROE_CI_THROTTLED : HROE_CI_ACCESSED;
}

/* Read the modes of a table and its indexes into m (SPI connected) */
void
hroe_contributor_insights_load(HroeTableMeta *m)
{
	Oid			argtype = TEXTOID;
	Datum		arg = CStringGetTextDatum(m->name);
	int			ret;

	m->contributor_insights = HROE_CI_OFF;
	m->contributor_insights_any = false;
	/* (a database whose hroe is not yet updated to 0.3 has no options) */
	if (!OidIsValid(get_relname_relid("table_options", get_namespace_oid("hroe", true))))
		return;
	ret = SPI_execute_with_args("SELECT NULL::pg_catalog.text, contributor_insights_mode FROM hroe.table_options "
								"WHERE table_name OPERATOR(pg_catalog.=) $1 AND contributor_insights_mode IS NOT NULL "
								"UNION ALL SELECT index_name, contributor_insights_mode FROM hroe.index_options "
								"WHERE table_name OPERATOR(pg_catalog.=) $1 AND contributor_insights_mode IS NOT NULL",
								1, &argtype, &arg, NULL, true, 0);
	if (ret != SPI_OK_SELECT)
		elog(ERROR, "reading hroe.table_options failed: %s", SPI_result_code_string(ret));
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		char	   *index = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1);
		uint8		mode = CiMode(SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 2));

		m->contributor_insights_any = true;
		if (index == NULL)
			m->contributor_insights = mode;
		else
			for (int k = 0; k < m->nindexes; k++)
				if (strcmp(m->indexes[k].name, index) == 0)
					m->indexes[k].contributor_insights = mode;
	}
}

/*
 * The key of item under schema: kind 0 its HASH attributes, 1 HASH and
 * RANGE, as DynamoDB JSON (several attributes: an array); false if one is
 * missing (the item is not in a sparse index)
 */
static bool
KeyJson(const HroeItem *item, const HroeKeySchema *schema, int kind, StringInfo buf)
{
	HroeValue	root;
	int			n = schema->nhash + (kind ? schema->nrange : 0);

	resetStringInfo(buf);
	hroe_item_root(item, &root);
	if (n > 1)
		appendStringInfoChar(buf, '[');
	for (int i = 0; i < n; i++)
	{
		HroeValue	v;

		if (!hroe_map_find(&root, schema->names[i], strlen(schema->names[i]), &v))
			return false;
		if (i > 0)
			appendStringInfoChar(buf, ',');
		hroe_value_write(buf, &v);
	}
	if (n > 1)
		appendStringInfoChar(buf, ']');
	return true;
}

/* Count an access of item in target (index_name NULL: the table) */
static void
RecordItem(HroeTableMeta *t, const char *index_name, const HroeKeySchema *schema, uint8 mode,
		   const HroeItem *item, bool write, bool throttled, StringInfo buf)
{
	if (mode == HROE_CI_OFF || (mode == HROE_CI_THROTTLED && !throttled))
		return;
	for (int kind = 0; kind <= (schema->nrange > 0 ? 1 : 0); kind++)
		if (KeyJson(item, schema, kind, buf))
			hroe_contributor_insights_record(t->relid, index_name, kind, buf->data, buf->len,
											 write, throttled);
}

/* The entry point of the item operations and of throttling (contributor_insights.h) */
void
hroe_contributor_insights_item(HroeTableMeta *t, HroeIndexMeta *ix, const HroeItem *item,
							   bool write, bool throttled)
{
	StringInfoData buf;

	if (item == NULL || t == NULL || !t->contributor_insights_any || ci == NULL)
		return;
	initStringInfo(&buf);
	if (!write && ix != NULL)
		RecordItem(t, ix->name, &ix->schema, ix->contributor_insights, item, false, throttled,
				   &buf);
	else
	{
		RecordItem(t, NULL, &t->schema, t->contributor_insights, item, write, throttled, &buf);
		/* a write is one of each index that holds the item */
		for (int k = 0; write && k < t->nindexes; k++)
			RecordItem(t, t->indexes[k].name, &t->indexes[k].schema,
					   t->indexes[k].contributor_insights, item, true, throttled, &buf);
	}
	pfree(buf.data);
}
