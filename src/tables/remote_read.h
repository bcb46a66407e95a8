/*-------------------------------------------------------------------------
 *
 * remote_read.h
 *	  hroe's own read path for distributed tables (remote_read.c): libpq
 *	  connections per backend and user mapping, statements prepared once per
 *	  connection, binary transfer, several servers queried at once.
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_REMOTE_READ_H
#define HROE_REMOTE_READ_H

#include "tables.h"

/* hroe.remote_reads: whether the own path may be used */
extern bool hroe_remote_reads;

/* the parameters a Query's or Scan's statement has at most (local or remote) */
#define HROE_READ_MAX_PARAMS 24

/* One partition's statement of a read sent to several servers at once */
typedef struct HroeRemoteRead
{
	Oid			partition;		/* the foreign table (partition) */
	const char *sql;			/* remote SQL, %s for the remote table's
								 * quoted name (unused with get) */
	HroeTableMeta *get;			/* or NULL: a GetItem of this table's key
								 * (the parameters), its statement the
								 * partition's own (built once, kept with
								 * the partition): the server's
								 * hroe.item_by_key, or the SELECT by key
								 * on a server whose hroe has none; no row
								 * when the item is absent */
	int			nparams;
	Oid		   *types;			/* the parameters' types */
	Datum	   *values;			/* and values (none null) */
	int			nkeys;			/* in: columns after item, of types keytypes */
	Oid		   *keytypes;
	/* out: the rows (hroe_remote_read_item, hroe_remote_read_keys) */
	int			nrows;
	void	   *result;			/* the PGresult, the memory context's */
	void	   *recv;			/* the columns' receive functions */
	Datum	  **keys;			/* each row's order keys, once received */
	char	   *srvname;
} HroeRemoteRead;

extern void hroe_remote_read_init(void);
extern bool hroe_remote_read_usable(HroeTableMeta *t);
extern void hroe_remote_read_call_begins(void);
extern void hroe_remote_read_pause(void);
extern void hroe_remote_read_run(HroeRemoteRead *reads, int nreads);
extern HroeItem *hroe_remote_read_item(HroeRemoteRead *r, int row);
extern Datum *hroe_remote_read_keys(HroeRemoteRead *r, int row);

#endif							/* HROE_REMOTE_READ_H */
