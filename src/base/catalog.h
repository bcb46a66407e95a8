/*-------------------------------------------------------------------------
 *
 * catalog.h
 *	  hroe's own catalog objects by OID: the hroe schema, the hroe.key and
 *	  hroe.item types.
 *
 * The OIDs are looked up on first use and forgotten when the catalog
 * entries behind them are invalidated, so DROP EXTENSION hroe; CREATE
 * EXTENSION hroe in one session finds the new objects.  Caches of other
 * objects of the extension (prepared function calls, the search path)
 * compare hroe_catalog_epoch() with the epoch they were built in.
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_CATALOG_H
#define HROE_CATALOG_H

/* at most this many functions watched (the JSON API prepares 7) */
#define HROE_CATALOG_MAX_PROCS	16

extern Oid	hroe_schema_oid(void);
extern Oid	hroe_relation_owner(const char *relname);
extern Oid	hroe_key_typid(void);
extern Oid	hroe_item_typid(void);
extern uint64 hroe_catalog_epoch(void);
extern void hroe_catalog_watch_proc(Oid fn);
extern uint64 hroe_catalog_proc_changes(void);
extern Oid	hroe_rel_owner(Oid relid);

/*
 * Running with another role's privileges (hroe_become): the identity to
 * restore, and the GUC nest level of the pinned search_path (0: the path was
 * pinned already)
 */
typedef struct HroeIdentity
{
	Oid			save_user;
	int			save_sec;
	int			nestlevel;
} HroeIdentity;

/* the search_path of everything run with another role's privileges */
#define HROE_PINNED_SEARCH_PATH "pg_catalog, pg_temp"

extern int	hroe_pin_search_path(void);
extern void hroe_unpin_search_path(int nestlevel);
extern void hroe_become(Oid role, HroeIdentity *saved);
extern void hroe_unbecome(const HroeIdentity *saved);
extern void hroe_unbecome_on_error(const HroeIdentity *saved);

#endif							/* HROE_CATALOG_H */
