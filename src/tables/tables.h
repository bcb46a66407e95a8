/*-------------------------------------------------------------------------
 *
 * tables.h
 *	  DynamoDB tables and global secondary indexes on PostgreSQL storage:
 *	  metadata cache, key extraction and validation, capacity units.
 *
 * A table's metadata (hroe.tables, hroe.indexes) is cached per backend and
 * dropped when PostgreSQL invalidates the table's relcache entry, which every
 * hroe DDL function causes (CREATE/DROP TABLE, ALTER TABLE, CREATE INDEX).
 * Each cached table also holds the SPI plans prepared for it, one per
 * statement shape, so repeated operations never re-plan.
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_TABLES_H
#define HROE_TABLES_H

#include "access/skey.h"
#include "executor/spi.h"
#include "storage/lockdefs.h"
#include "utils/guc.h"
#include "utils/rel.h"
#include "utils/jsonb.h"

#include "dynamodb_limits.h"
#include "errors.h"
#include "expression.h"
#include "item.h"


/*
 * Partition keys (the table's pk column, a GSI's HASH key columns) longer
 * than this many bytes are stored in an index form (tables.c, KeyForm): a
 * prefix, then the key's SHA-256, at most HROE_KEY_FORM_MAX + 64 bytes.
 * DynamoDB only tests partition keys for equality, and so then the widest
 * GSI entry (HASH form, RANGE 1024, pk form, sk 1024) fits a btree entry
 * (2704 bytes), which a 2048-byte key did not.  Sort keys (<= 1024 bytes) are
 * stored as they are, their order being needed.  Part of the on-disk format:
 * a table of hroe 0.1 whose partition keys are all at most this long is
 * unchanged; an upgrade that changes the form (or a table holding longer,
 * compressible keys from before it) must recompute the key columns (an
 * UPDATE of every row rewrites them) and reindex.
 */
#define HROE_KEY_FORM_MAX		192

typedef enum HroeProjection
{
	HROE_PROJECT_ALL,
	HROE_PROJECT_KEYS_ONLY,
	HROE_PROJECT_INCLUDE
} HroeProjection;

typedef struct HroeIndexMeta
{
	char	   *name;
	Oid			indexrelid;
	HroeKeySchema schema;
	char	   *columns[HROE_MAX_KEY_ATTRS];	/* generated key columns */
	bool		forms[HROE_MAX_KEY_ATTRS];	/* a HASH column of index forms */
	HroeProjection projection;
	int			nnonkey;
	char	  **nonkey;
	bool		local;			/* an LSI: HASH the table's, on pk */
	/* Contributor Insights' mode (contributor_insights.h) */
	uint8		contributor_insights;
} HroeIndexMeta;

/* A vector index (vectors.sql): what a write's capacity reports of it */
typedef struct HroeVectorMeta
{
	char	   *name;
	char	   *attribute;		/* the vector attribute */
	int			dims;
} HroeVectorMeta;

typedef struct HroePlan
{
	char	   *shape;
	SPIPlanPtr	plan;
	struct HroePlan *next;
} HroePlan;

typedef struct HroeTableMeta
{
	char	   *name;
	Oid			relid;
	char	   *relname;		/* quoted, schema-qualified */
	HroeKeySchema schema;		/* 1 HASH, 0-1 RANGE; pk holds index forms */
	int			nindexes;
	HroeIndexMeta *indexes;
	HroePlan   *plans;
	MemoryContext cxt;
	bool		valid;
	/* the direct primary key probes and writes, set up on first use */
	Oid			pkey_index;
	RegProcedure eqproc[2];
	AttrNumber	item_attno;
	/* the direct writes' view of the table (src/tables/direct_write.c), or NULL */
	struct HroeDirectWrite *direct_write;
	/*
	 * hash-partitioned over servers (src/tables/tables_partition.c): no primary key
	 * index of its own, so every read and write runs as SQL, never ON
	 * CONFLICT with a target, never by ctid
	 */
	bool		distributed;
	/* Contributor Insights' mode, and whether any index has one (contributor_insights.h) */
	uint8		contributor_insights;
	bool		contributor_insights_any;
	/* the vector indexes, by name; their units follow the indexes' */
	int			nvectors;
	HroeVectorMeta *vectors;
} HroeTableMeta;

/* A key attribute value as a Datum of its column type */
typedef struct HroeKeyDatum
{
	Datum		value;
	Oid			type;
} HroeKeyDatum;

/* hroe.direct_access: key reads and overwrites without SPI where possible */
extern bool hroe_direct_access;
/* May the current user read a table without the executor (direct_write.c)? */
extern bool hroe_direct_read_allowed(Oid relid);

extern HroeTableMeta *hroe_table_lookup(const char *name, bool missing_ok);
extern HroeIndexMeta *hroe_index_lookup(HroeTableMeta *t, const char *name);
extern SPIPlanPtr hroe_table_plan_find(HroeTableMeta *t, const char *shape);
extern SPIPlanPtr hroe_table_plan(HroeTableMeta *t, const char *shape,
								  const char *sql, int nargs, Oid *argtypes);
extern SPIPlanPtr hroe_table_plan_partitions(HroeTableMeta *t, const char *shape,
											 const char *sql, int nargs, Oid *argtypes);
extern void hroe_push_search_path(void);
extern void hroe_pop_search_path(void);
extern Oid	hroe_key_type_oid(char type);
extern Datum hroe_key_datum(char type, const char *data, int len, bool form);
extern Datum hroe_attr_value_datum(const HroeAttrValue *v, bool form);
extern Datum hroe_value_datum(const HroeValue *v, bool form);
extern bool hroe_column_holds_forms(Relation rel, AttrNumber attno);

/* The primary key index of a table: opened (set up on first use), probed */
extern Relation hroe_pkey_index_open(HroeTableMeta *t, Relation rel, LOCKMODE lockmode);
extern void hroe_pkey_scankeys(HroeTableMeta *t, Relation idx, Datum *keys, ScanKey skey);


extern void hroe_check_item_key(HroeTableMeta *t, HroeItem *item, Datum *keys);
extern char *hroe_item_key_mismatch(HroeTableMeta *t, HroeItem *item, Datum *keys);
extern char *hroe_item_index_keys_mismatch(HroeTableMeta *t, HroeItem *item);
extern char *hroe_item_key_identity(HroeTableMeta *t, const HroeItem *item);
extern int	hroe_key_identity_cmp(const char *a, const char *b);
extern void hroe_lock_item_key(HroeTableMeta *t, const char *identity);
extern bool hroe_request_key_matches(HroeTableMeta *t, Jsonb *key);
extern void hroe_check_update_index_keys(HroeTableMeta *t, HroeItem *item);
extern void hroe_check_request_key(HroeTableMeta *t, Jsonb *key, Datum *keys,
								   HroeAttrValue **vals);

extern int64 hroe_index_entry_size(HroeTableMeta *t, HroeIndexMeta *ix,
								   HroeItem *item, bool *present);
extern HroeItem *hroe_index_project(HroeTableMeta *t, HroeIndexMeta *ix, HroeItem *item);
/* Whether the index's entries hold the attribute name (len bytes) */
extern bool hroe_index_projects(HroeTableMeta *t, HroeIndexMeta *ix, const char *name, int len);

extern void hroe_jsonb_push_key(JsonbParseState **st, const char *key);

/* Item collections of tables with LSIs (tables_collection.c) */
extern int	hroe_item_collection_limit_kb;
extern void hroe_item_collection_init(void);

/* the tables layer's settings, defined at load (tables_init.c) */
extern void hroe_tables_init(void);
extern bool hroe_table_has_lsi(HroeTableMeta *t);
extern void hroe_item_collection_value(HroeTableMeta *t, const HroeItem *item, StringInfo buf);
extern int64 hroe_item_collection_bytes(HroeTableMeta *t, const HroeItem *item);

/* ARNs (tables_arn.c): the settings hroe.region and hroe.account_id */
#define HROE_REGION_MAX			32
#define HROE_ACCOUNT_ID_LEN		12
extern char *hroe_region;

/* distributed tables (src/tables/tables_partition.c) */
extern char *hroe_partition_servers;
extern Oid	hroe_table_key_server(HroeTableMeta *t, Datum pk);
extern int	hroe_table_key_partition(HroeTableMeta *t, Datum pk);
extern List *hroe_table_read_partitions(HroeTableMeta *t, Oid **oids);
extern Oid	hroe_table_read_key_partition(HroeTableMeta *t, Datum pk);
extern char *hroe_table_pk_qual(HroeTableMeta *t, int param);
extern char *hroe_table_pk_expr(HroeTableMeta *t);
extern char *hroe_account_id;
extern bool hroe_check_region(char **newval, void **extra, GucSource source);
extern bool hroe_check_account_id(char **newval, void **extra, GucSource source);
extern char *hroe_table_arn_cstring(const char *name);
extern bool hroe_arn_parse(const char *arn, char **table, char **rest, bool *ours);

/* DescribeTable's figures of large tables (tables_statistics.c) */
extern int	hroe_statistics_interval;
extern void hroe_refresh_statistics_as_owner(const char *name);

#endif							/* HROE_TABLES_H */
