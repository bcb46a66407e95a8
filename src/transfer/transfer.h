/*-------------------------------------------------------------------------
 *
 * transfer.h
 *	  Exports to and imports from S3, S3 being a directory of the server
 *	  (hroe.s3_root, a bucket a subdirectory): the files' safe paths and
 *	  their compression (transfer_files.c), Amazon Ion text
 *	  (transfer_ion.c), the background workers (transfer_worker.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_TRANSFER_H
#define HROE_TRANSFER_H

#include <dirent.h>

#include <openssl/evp.h>

#include "lib/stringinfo.h"
#include "nodes/pg_list.h"
#include "utils/memutils.h"

#include "util.h"

/* hroe.s3_root: the directory whose subdirectories are the buckets */
extern char *hroe_s3_root;

/* the longest line an import reads (a longer one is an error, skipped) */
#define HROE_IMPORT_LINE_MAX (8 * 1024 * 1024)
/* the most files an import reads (DynamoDB's limit of S3 objects) */
#define HROE_IMPORT_FILES_MAX 50000
/* the items an export writes per data file (hroe.export_file_items) */
#define HROE_EXPORT_FILE_ITEMS 100000
extern int	hroe_export_file_items;
/* an incremental export's shortest period, in seconds (hroe.incremental_export_min_period) */
extern int	hroe_incremental_export_min_period;

/*
 * The resources of src/transfer/ (transfer_files.c), the one statement of
 * their contract: every file descriptor, directory stream, MD5 context and
 * zlib or zstd stream opened in src/transfer/ is tracked (hroe_s3_fd_track,
 * hroe_s3_fdopendir, hroe_s3_md5_begin, and transfer_files.c's own zlib and
 * zstd streams) and belongs to the memory context current when it was
 * opened, as the memory holding it does.  Released normally
 * (hroe_s3_fd_close, hroe_s3_release, hroe_s3_md5_end), it is untracked;
 * left open by an error, a cancel or a timeout raised meanwhile (ereport,
 * elog, CHECK_FOR_INTERRUPTS), it is released when that context is reset or
 * deleted (a MemoryContextCallback: the statement's or transaction's context
 * at its abort, the in-server HTTP worker's request context after each
 * request, a transfer job's context at its end).  A long-lived backend or
 * worker thus keeps no descriptor of a failed request.  Open descriptors
 * count in PostgreSQL's budget of them (ReserveExternalFD).  Never close() a
 * tracked fd: hroe_s3_fd_close it.  One callback per context releases all
 * of that context's resources; the table of the resources open (few at a
 * time: a walk's directories) lives in TopMemoryContext.
 */
typedef enum HroeS3ResKind
{
	HROE_S3_RES_FD,
	HROE_S3_RES_DIR,			/* DIR * */
	HROE_S3_RES_MD5,			/* EVP_MD_CTX * */
	HROE_S3_RES_DEFLATE,		/* z_stream *, deflateInit2 done */
	HROE_S3_RES_INFLATE,		/* z_stream *, inflateInit2 done */
	HROE_S3_RES_ZSTD			/* ZSTD_DStream * */
} HroeS3ResKind;
extern int	hroe_s3_fd_track(int fd);
extern int	hroe_s3_fd_close(int fd);
extern DIR *hroe_s3_fdopendir(int fd);
extern void hroe_s3_release(HroeS3ResKind kind, void *p);
extern EVP_MD_CTX *hroe_s3_md5_begin(void);
extern bool hroe_s3_md5_end(EVP_MD_CTX *ctx, unsigned char out[16]);

/* privileges: may the role write (export) or read (import) the buckets */
extern bool hroe_s3_role_may(Oid role, bool write);

/*
 * The paths' rules, here only (transfer_files.c; the S3 API's s3_api.c
 * uses them): a bucket's name and its directory below hroe.s3_root, a
 * key's components (none "." or "..", at most HROE_S3_COMPONENT_MAX bytes),
 * each opened without following a symbolic link
 */
#define HROE_S3_COMPONENT_MAX 255
typedef enum HroeS3PathStatus
{
	HROE_S3_PATH_OK,
	HROE_S3_BAD_BUCKET,			/* not a bucket name */
	HROE_S3_NO_BUCKET			/* no such bucket */
} HroeS3PathStatus;
typedef enum HroeS3DirMode
{
	HROE_S3_DIR_OPEN,			/* a missing directory: an error */
	HROE_S3_DIR_CREATE,			/* created when missing */
	HROE_S3_DIR_FIND			/* -1 when missing (or not a directory) */
} HroeS3DirMode;
extern int	hroe_s3_open_bucket(const char *bucket, HroeS3PathStatus *st);
extern bool hroe_s3_component_leaves(const char *c, size_t len);
extern int	hroe_s3_open_key_dir(int bucketfd, const char *key, char **base, HroeS3DirMode mode);

/* for the S3 API (s3_api.c): bucket names, the root opened */
extern bool hroe_s3_valid_bucket(const char *bucket);
extern int	hroe_s3_open_root(void);

/*
 * S3's REST API over the buckets (s3_api.c): one request as the front ends
 * hand it over (method, decoded path, percent-encoded query, body), its
 * answer framed as s3.h's s3_answer reads it
 */
extern bytea *hroe_s3_dispatch(const char *method, const char *path, const char *query,
							   const char *body, size_t len);

/*
 * an object written (hroe_s3_object_create), gzip-compressed or plain,
 * with its MD5 and size
 */
typedef struct HroeS3Writer HroeS3Writer;
extern void hroe_s3_write(HroeS3Writer *w, const char *data, size_t len);
extern void hroe_s3_writer_close(HroeS3Writer *w, unsigned char md5[16], int64 *size);

/* an object read (hroe_s3_object_open) line by line, decompressed (GZIP, ZSTD, NONE) */
typedef struct HroeS3Reader HroeS3Reader;
extern bool hroe_s3_read_line(HroeS3Reader *r, StringInfo line, bool *too_long, int64 *raw_bytes);
extern void hroe_s3_reader_close(HroeS3Reader *r);

/* the keys (paths relative to the bucket) of the regular files under prefix, sorted */
extern List *hroe_s3_list(int bucketfd, const char *prefix);

/* Amazon Ion text: an item (DynamoDB JSON, as jsonb) written, a value read */
struct JsonbContainer;
extern void hroe_ion_write_item(StringInfo out, struct JsonbContainer *item);
extern char *hroe_ion_read_line(const char *line, char **error);
/* an incremental export's line: {Record:{Keys:..., Metadata:..., OldImage:..., NewImage:...}} */
extern void hroe_ion_write_record(StringInfo out, struct JsonbContainer *keys, int64 write_micros,
								  struct JsonbContainer *old_image, struct JsonbContainer *new_image);

/*
 * An S3-compatible endpoint in place of hroe.s3_root (transfer_remote.c):
 * its settings; objects uploaded in parts of HROE_S3_PART_SIZE (one
 * PutObject up to it, a multipart upload beyond), read in ranges of it
 */
extern char *hroe_s3_endpoint;
extern char *hroe_s3_region;
extern char *hroe_s3_credentials_file;
extern int	hroe_s3_timeout;
extern char hroe_s3_last_error_code[64];
#define HROE_S3_PART_SIZE (8 * 1024 * 1024)
extern bool hroe_s3_remote(void);
typedef struct HroeS3Upload HroeS3Upload;
extern HroeS3Upload *hroe_s3_upload_begin(const char *bucket, const char *key);
extern void hroe_s3_upload_write(HroeS3Upload *u, const char *p, size_t n);
extern void hroe_s3_upload_finish(HroeS3Upload *u);
extern size_t hroe_s3_get_range(const char *bucket, const char *key, int64 offset, char *buf,
								size_t len, int64 *total);
extern List *hroe_s3_remote_list(const char *bucket, const char *prefix);

/*
 * A bucket of hroe.s3_root's or, when hroe.s3_endpoint is set, of the
 * endpoint's: its objects created, written whole, read and listed by key
 */
typedef struct HroeS3Bucket HroeS3Bucket;
extern HroeS3Bucket *hroe_s3_bucket_open(const char *bucket);
extern void hroe_s3_bucket_close(HroeS3Bucket *b);
extern HroeS3Writer *hroe_s3_object_create(HroeS3Bucket *b, const char *key, bool gzip);
extern void hroe_s3_object_put(HroeS3Bucket *b, const char *key, const char *data, size_t len,
							   unsigned char md5[16]);
extern HroeS3Reader *hroe_s3_object_open(HroeS3Bucket *b, const char *key, const char *compression);
extern List *hroe_s3_object_list(HroeS3Bucket *b, const char *prefix);

/*
 * util.h's encodings (the protocol library's, the only ones) appended to
 * a StringInfo: percent-encoding as S3 wants it ('/' kept when keep_slash),
 * XML text
 */
static inline void
hroe_append_uri_encoded(StringInfo b, const char *s, bool keep_slash)
{
	size_t		n = strlen(s);

	if (n > (MaxAllocSize - 1) / (URI_ENCODED_SIZE(1) - 1))
		elog(ERROR, "text of %zu bytes too long to percent-encode", n);
	enlargeStringInfo(b, (int) (URI_ENCODED_SIZE(n) - 1));
	b->len += (int) uri_encode(s, keep_slash, b->data + b->len);
}

static inline void
hroe_append_xml_text(StringInfo b, const char *s)
{
	size_t		n = strlen(s);

	if (n > (MaxAllocSize - 1) / (XML_ESCAPED_SIZE(1) - 1))
		elog(ERROR, "text of %zu bytes too long to escape as XML", n);
	enlargeStringInfo(b, (int) (XML_ESCAPED_SIZE(n) - 1));
	b->len += (int) xml_escape(s, b->data + b->len);
}

/* the workers */
extern void hroe_transfer_init(void);

#endif							/* HROE_TRANSFER_H */
