/*-------------------------------------------------------------------------
 *
 * transfer_files.c
 *	  S3 as a directory of the server: hroe.s3_root names the root, a
 *	  bucket is a subdirectory of it, an object's key its path below.
 *
 * Every path is walked one component at a time from the root, each
 * opened with O_NOFOLLOW (openat): a symbolic link anywhere below the root
 * is refused, and a key's "." and ".." components are refused before, so
 * nothing outside the root is ever read or written.  Files are created
 * by the server (its operating system user), never overwritten (O_EXCL),
 * mode 0640, directories 0750.  Only roles with the privileges of
 * hroe_export or pg_write_server_files write (exports), of hroe_import or
 * pg_read_server_files read (imports): roles the administrator creates
 * and grants (doc/transfer.md).
 *
 * Compression: zlib (gzip, written and read) and libzstd (read).  MD5
 * (OpenSSL's EVP) gives the manifests' checksums.
 *
 * Resources released on error: the tracker of every file descriptor,
 * directory stream, MD5 context and zlib or zstd stream opened in
 * src/transfer/ is here; its contract is stated in transfer.h.
 *
 * src/transfer/transfer_files.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <zlib.h>
#include <zstd.h>

#include "catalog/pg_authid.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "errors.h"
#include "transfer.h"

char	   *hroe_s3_root = NULL;

#define IO_CHUNK 65536

/* ---------- resources released with their memory context ---------- */

typedef struct Tracked
{
	HroeS3ResKind kind;
	int			fd;				/* HROE_S3_RES_FD */
	void	   *p;				/* the others */
	MemoryContext cxt;
} Tracked;

static Tracked *tracked;
static int	ntracked;
static int	maxtracked;
/* the contexts whose reset callback is registered (and has not run yet) */
static MemoryContext *armed;
static int	narmed;
static int	maxarmed;

static void
Release(Tracked *t)
{
	switch (t->kind)
	{
		case HROE_S3_RES_FD:
			close(t->fd);
			break;
		case HROE_S3_RES_DIR:
			closedir((DIR *) t->p);
			break;
		case HROE_S3_RES_MD5:
			EVP_MD_CTX_free((EVP_MD_CTX *) t->p);
			break;
		case HROE_S3_RES_DEFLATE:
			deflateEnd((z_stream *) t->p);
			break;
		case HROE_S3_RES_INFLATE:
			inflateEnd((z_stream *) t->p);
			break;
		case HROE_S3_RES_ZSTD:
			ZSTD_freeDStream((ZSTD_DStream *) t->p);
			break;
	}
}

/*
 * A descriptor of the tracker's (a file or a directory stream's): counted in
 * PostgreSQL's budget of descriptors while it is open (ReserveExternalFD),
 * so that fd.c closes its own cached files to make room (a listing's walk
 * holds a directory open at every level)
 */
static bool
IsDescriptor(HroeS3ResKind kind)
{
	return kind == HROE_S3_RES_FD || kind == HROE_S3_RES_DIR;
}

/* cxt reset or deleted: its resources still open released */
static void
ReleaseContext(void *arg)
{
	MemoryContext cxt = (MemoryContext) arg;
	int			k = 0;

	for (int i = 0; i < ntracked; i++)
	{
		if (tracked[i].cxt == cxt)
		{
			Release(&tracked[i]);
			if (IsDescriptor(tracked[i].kind))
				ReleaseExternalFD();
		}
		else
			tracked[k++] = tracked[i];
	}
	ntracked = k;
	for (int i = 0; i < narmed; i++)
		if (armed[i] == cxt)
		{
			armed[i] = armed[--narmed];
			break;
		}
}

/*
 * Room in the table for one more resource of the current memory context,
 * its callback registered: after this, Track cannot fail
 */
static void
Reserve(void)
{
	MemoryContext cxt = CurrentMemoryContext;
	MemoryContextCallback *cb;

	if (ntracked >= maxtracked)
	{
		int			n = maxtracked ? maxtracked * 2 : 16;

		tracked = tracked ? repalloc(tracked, n * sizeof(Tracked)) :
			MemoryContextAlloc(TopMemoryContext, n * sizeof(Tracked));
		maxtracked = n;
	}
	for (int i = 0; i < narmed; i++)
		if (armed[i] == cxt)
			return;
	if (narmed >= maxarmed)
	{
		int			n = maxarmed ? maxarmed * 2 : 8;

		armed = armed ? repalloc(armed, n * sizeof(MemoryContext)) :
			MemoryContextAlloc(TopMemoryContext, n * sizeof(MemoryContext));
		maxarmed = n;
	}
	cb = MemoryContextAlloc(cxt, sizeof(MemoryContextCallback));
	cb->func = ReleaseContext;
	cb->arg = cxt;
	MemoryContextRegisterResetCallback(cxt, cb);
	armed[narmed++] = cxt;
}

/* A resource of the current memory context (Reserve called before) */
static void
Track(HroeS3ResKind kind, int fd, void *p)
{
	Assert(ntracked < maxtracked);
	tracked[ntracked].kind = kind;
	tracked[ntracked].fd = fd;
	tracked[ntracked].p = p;
	tracked[ntracked].cxt = CurrentMemoryContext;
	ntracked++;
	if (IsDescriptor(kind))
		ReserveExternalFD();
}

/* Forget a resource (released by the caller): whether it was tracked */
static bool
Untrack(HroeS3ResKind kind, int fd, void *p)
{
	for (int i = ntracked - 1; i >= 0; i--)
		if (tracked[i].kind == kind && (kind == HROE_S3_RES_FD ? tracked[i].fd == fd : tracked[i].p == p))
		{
			tracked[i] = tracked[--ntracked];
			if (IsDescriptor(kind))
				ReleaseExternalFD();
			return true;
		}
	return false;
}

/*
 * fd (an open descriptor; < 0: nothing) tracked: closed when the current
 * memory context is reset or deleted, unless closed by hroe_s3_fd_close
 * before.  Returns fd, errno kept.
 */
int
hroe_s3_fd_track(int fd)
{
	int			e = errno;

	if (fd < 0)
		return fd;
	PG_TRY();
	{
		Reserve();
	}
	PG_CATCH();
	{
		close(fd);
		PG_RE_THROW();
	}
	PG_END_TRY();
	Track(HROE_S3_RES_FD, fd, NULL);
	errno = e;
	return fd;
}

/* A tracked fd untracked and closed: close()'s result */
int
hroe_s3_fd_close(int fd)
{
	if (fd < 0)
		return 0;
	Untrack(HROE_S3_RES_FD, fd, NULL);
	return close(fd);
}

/* The directory stream of a tracked fd, tracked in its place (NULL: fd stays tracked) */
DIR *
hroe_s3_fdopendir(int fd)
{
	DIR		   *dir;

	Reserve();
	dir = fdopendir(fd);
	if (dir != NULL)
	{
		Untrack(HROE_S3_RES_FD, fd, NULL);
		Track(HROE_S3_RES_DIR, -1, dir);
	}
	return dir;
}

/* A resource other than an fd (a zlib or zstd stream, set up) tracked */
static void
TrackStream(HroeS3ResKind kind, void *p)
{
	Assert(kind != HROE_S3_RES_FD);
	PG_TRY();
	{
		Reserve();
	}
	PG_CATCH();
	{
		Tracked		t = {kind, -1, p, NULL};

		Release(&t);
		PG_RE_THROW();
	}
	PG_END_TRY();
	Track(kind, -1, p);
}

/* A tracked resource (directory stream, zlib or zstd stream) untracked and released */
void
hroe_s3_release(HroeS3ResKind kind, void *p)
{
	Tracked		t = {kind, -1, p, NULL};

	Assert(kind != HROE_S3_RES_FD);
	Untrack(kind, -1, p);
	Release(&t);
}

/* A new MD5 context (OpenSSL's EVP), tracked; an error when there is none */
EVP_MD_CTX *
hroe_s3_md5_begin(void)
{
	EVP_MD_CTX *ctx;

	Reserve();
	ctx = EVP_MD_CTX_new();
	if (ctx == NULL || EVP_DigestInit_ex(ctx, EVP_md5(), NULL) != 1)
	{
		EVP_MD_CTX_free(ctx);
		elog(ERROR, "MD5 is not available");
	}
	Track(HROE_S3_RES_MD5, -1, ctx);
	return ctx;
}

/* The digest of a tracked MD5 context (false: OpenSSL failed), the context freed */
bool
hroe_s3_md5_end(EVP_MD_CTX *ctx, unsigned char out[16])
{
	unsigned int n = 0;
	bool		ok;

	Untrack(HROE_S3_RES_MD5, -1, ctx);
	ok = EVP_DigestFinal_ex(ctx, out, &n) == 1 && n == 16;
	EVP_MD_CTX_free(ctx);
	return ok;
}

/* Whether role may write (or read) the buckets' files */
bool
hroe_s3_role_may(Oid role, bool write)
{
	Oid			own = get_role_oid(write ? "hroe_export" : "hroe_import", true);

	if (OidIsValid(own) && has_privs_of_role(role, own))
		return true;
	return has_privs_of_role(role, write ? ROLE_PG_WRITE_SERVER_FILES : ROLE_PG_READ_SERVER_FILES);
}

/* S3's bucket naming rules: 3 to 63 of a-z 0-9 . -, a letter or digit at each end, no ".." */
static bool
ValidBucket(const char *b)
{
	size_t		n = strlen(b);

	if (n < 3 || n > 63 || strstr(b, "..") != NULL)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((b[i] >= 'a' && b[i] <= 'z') || (b[i] >= '0' && b[i] <= '9') ||
			  ((b[i] == '.' || b[i] == '-') && i > 0 && i < n - 1)))
			return false;
	return true;
}

/* The root directory, opened */
static int
OpenRoot(void)
{
	int			fd;

	if (hroe_s3_root == NULL || hroe_s3_root[0] != '/')
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("exports and imports need hroe.s3_root"),
				 errhint("Set hroe.s3_root to an absolute directory of the server whose subdirectories are the buckets.")));
	fd = hroe_s3_fd_track(open(hroe_s3_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC));
	if (fd < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open hroe.s3_root \"%s\": %m", hroe_s3_root)));
	return fd;
}

/*
 * The bucket's directory, opened (no symbolic link): the one way to a
 * bucket.  Not one (a name against S3's rules, no such directory): -1 and
 * *st when st is given (the S3 API's own errors), else DynamoDB's error.
 */
int
hroe_s3_open_bucket(const char *bucket, HroeS3PathStatus *st)
{
	int			root;
	int			fd;

	if (!ValidBucket(bucket))
	{
		if (st)
		{
			*st = HROE_S3_BAD_BUCKET;
			return -1;
		}
		hroe_ddb_error(ERRCODE_HROE_VALIDATION, "ValidationException",
					   psprintf("Invalid S3 bucket name: %s", bucket));
	}
	root = OpenRoot();
	fd = hroe_s3_fd_track(openat(root, bucket, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
	hroe_s3_fd_close(root);
	if (st)
		*st = fd < 0 ? HROE_S3_NO_BUCKET : HROE_S3_PATH_OK;
	else if (fd < 0)
		hroe_ddb_error(ERRCODE_HROE_VALIDATION, "ValidationException",
					   psprintf("S3 bucket %s does not exist", bucket));
	return fd;
}

/*
 * Is c (len bytes, one component of a key's path) one that leaves its
 * directory: "." or ".."?  The one test of it (the S3 API's too).
 */
bool
hroe_s3_component_leaves(const char *c, size_t len)
{
	return (len == 1 && c[0] == '.') || (len == 2 && c[0] == '.' && c[1] == '.');
}

/* One component of a key: not ".", ".." */
static void
CheckComponent(const char *c, const char *path)
{
	if (hroe_s3_component_leaves(c, strlen(c)))
		hroe_ddb_error(ERRCODE_HROE_VALIDATION, "ValidationException",
					   psprintf("S3 key \"%s\" leaves its bucket: hroe refuses \".\" and \"..\" in a key's path", path));
}

/*
 * The directory path (components split at '/', empty ones skipped) below
 * dirfd, opened; created (0750) when mode is HROE_S3_DIR_CREATE; -1 for a
 * component that cannot be opened when HROE_S3_DIR_FIND (else an error).
 * Symbolic links are refused.
 */
static int
OpenDir(int dirfd, const char *path, HroeS3DirMode mode)
{
	char	   *copy = pstrdup(path);
	char	   *save = NULL;
	int			fd = hroe_s3_fd_track(dup(dirfd));

	if (fd < 0)
		elog(ERROR, "dup failed: %m");
	for (char *c = strtok_r(copy, "/", &save); c; c = strtok_r(NULL, "/", &save))
	{
		int			next;

		CheckComponent(c, path);
		if (strlen(c) > HROE_S3_COMPONENT_MAX)
			ereport(ERROR,
					(errcode(ERRCODE_NAME_TOO_LONG),
					 errmsg("a component of S3 key \"%s\" is longer than %d bytes", path, HROE_S3_COMPONENT_MAX)));
		next = hroe_s3_fd_track(openat(fd, c, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
		if (next < 0 && mode == HROE_S3_DIR_FIND)
		{
			hroe_s3_fd_close(fd);
			pfree(copy);
			return -1;
		}
		if (next < 0 && errno == ENOENT && mode == HROE_S3_DIR_CREATE)
		{
			/* (on error the tracker closes fd, as transfer.h says) */
			if (mkdirat(fd, c, 0750) < 0 && errno != EEXIST)
				ereport(ERROR, (errcode_for_file_access(),
								errmsg("could not create directory \"%s\" of S3 key \"%s\": %m", c, path)));
			next = hroe_s3_fd_track(openat(fd, c, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
		}
		if (next < 0)
		{
			if (errno == ELOOP || errno == ENOTDIR)
				ereport(ERROR,
						(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
						 errmsg("S3 key \"%s\" leaves its bucket", path),
						 errdetail("\"%s\" is a symbolic link or not a directory.", c)));
			ereport(ERROR, (errcode_for_file_access(),
							errmsg("could not open directory \"%s\" of S3 key \"%s\": %m", c, path)));
		}
		hroe_s3_fd_close(fd);
		fd = next;
	}
	pfree(copy);
	return fd;
}

/*
 * The directory of key (opened as OpenDir does in mode) and its
 * last component (*base)
 */
int
hroe_s3_open_key_dir(int bucketfd, const char *key, char **base, HroeS3DirMode mode)
{
	const char *slash = strrchr(key, '/');
	char	   *dir = slash ? pnstrdup(key, slash - key) : pstrdup("");

	*base = pstrdup(slash ? slash + 1 : key);
	if ((*base)[0] == '\0')
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("S3 key \"%s\" names no file", key)));
	CheckComponent(*base, key);
	return OpenDir(bucketfd, dir, mode);
}

PG_FUNCTION_INFO_V1(hroe_s3_check_bucket);
/* hroe.s3_check_bucket(bucket, prefix, write): the request's checks */
Datum
hroe_s3_check_bucket(PG_FUNCTION_ARGS)
{
	char	   *bucket = PG_ARGISNULL(0) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(0));
	char	   *prefix = PG_ARGISNULL(1) ? "" : text_to_cstring(PG_GETARG_TEXT_PP(1));
	bool		write = PG_ARGISNULL(2) ? false : PG_GETARG_BOOL(2);
	char	   *copy = pstrdup(prefix);
	char	   *save = NULL;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(2))
		PG_RETURN_VOID();
	for (char *c = strtok_r(copy, "/", &save); c; c = strtok_r(NULL, "/", &save))
		CheckComponent(c, prefix);

	if (!hroe_s3_role_may(GetUserId(), write))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to %s S3 bucket %s", write ? "export to" : "import from", bucket),
				 errdetail("Only roles with the privileges of the \"%s\" or \"%s\" role may %s the server's files.",
						   write ? "hroe_export" : "hroe_import",
						   write ? "pg_write_server_files" : "pg_read_server_files",
						   write ? "write" : "read")));
	/* (an endpoint's bucket: its name checked here, its existence by the export or import) */
	if (!hroe_s3_remote())
		hroe_s3_fd_close(hroe_s3_open_bucket(bucket, NULL));
	else if (!ValidBucket(bucket))
		hroe_ddb_error(ERRCODE_HROE_VALIDATION, "ValidationException",
					   psprintf("Invalid S3 bucket name: %s", bucket));
	PG_RETURN_VOID();
}

/* ---------- writing ---------- */

struct HroeS3Writer
{
	int			fd;
	HroeS3Upload *up;			/* to hroe.s3_endpoint, not fd */
	char	   *name;
	bool		gzip;
	z_stream	z;
	EVP_MD_CTX *md5;
	int64		size;
	unsigned char buf[IO_CHUNK];
};

static void
WriteAll(HroeS3Writer *w, const unsigned char *p, size_t n)
{
	EVP_DigestUpdate(w->md5, p, n);
	w->size += n;
	if (w->up)
	{
		hroe_s3_upload_write(w->up, (const char *) p, n);
		return;
	}
	while (n > 0)
	{
		ssize_t		k = write(w->fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			ereport(ERROR, (errcode_for_file_access(), errmsg("could not write \"%s\": %m", w->name)));
		p += k;
		n -= k;
	}
}

/* A new file name in dirfd (never an existing one), 0640, gzip-compressed when gzip */
static HroeS3Writer *
WriterNew(int dirfd, const char *name, bool gzip, HroeS3Upload *up)
{
	HroeS3Writer *w = palloc0(sizeof(HroeS3Writer));

	w->name = pstrdup(name);
	w->gzip = gzip;
	w->up = up;
	w->fd = -1;
	if (up == NULL)
	{
		w->fd = hroe_s3_fd_track(openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0640));
		if (w->fd < 0)
			ereport(ERROR, (errcode_for_file_access(), errmsg("could not create \"%s\": %m", name)));
		/* (the server's umask would take the group's read) */
		if (fchmod(w->fd, 0640) < 0)
			ereport(ERROR, (errcode_for_file_access(), errmsg("could not set the mode of \"%s\": %m", name)));
	}
	w->md5 = hroe_s3_md5_begin();
	if (gzip)
	{
		if (deflateInit2(&w->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
			elog(ERROR, "deflateInit2 failed");
		TrackStream(HROE_S3_RES_DEFLATE, &w->z);
	}
	return w;
}

static void
Deflate(HroeS3Writer *w, int flush)
{
	do
	{
		int			ret;

		w->z.next_out = w->buf;
		w->z.avail_out = sizeof(w->buf);
		ret = deflate(&w->z, flush);
		if (ret == Z_STREAM_ERROR)
			elog(ERROR, "deflate failed");
		WriteAll(w, w->buf, sizeof(w->buf) - w->z.avail_out);
	} while (w->z.avail_out == 0);
}

void
hroe_s3_write(HroeS3Writer *w, const char *data, size_t len)
{
	if (!w->gzip)
	{
		WriteAll(w, (const unsigned char *) data, len);
		return;
	}
	while (len > 0)
	{
		size_t		n = Min(len, (size_t) 1 << 30);

		w->z.next_in = (unsigned char *) data;
		w->z.avail_in = n;
		Deflate(w, Z_NO_FLUSH);
		data += n;
		len -= n;
	}
}

/* Finish and close the file: its MD5 and its size */
void
hroe_s3_writer_close(HroeS3Writer *w, unsigned char md5[16], int64 *size)
{
	if (w->gzip)
	{
		w->z.next_in = NULL;
		w->z.avail_in = 0;
		Deflate(w, Z_FINISH);
		hroe_s3_release(HROE_S3_RES_DEFLATE, &w->z);
	}
	if (!hroe_s3_md5_end(w->md5, md5))
		elog(ERROR, "MD5 failed");
	if (w->up)
		hroe_s3_upload_finish(w->up);
	else if (fsync(w->fd) < 0 || hroe_s3_fd_close(w->fd) < 0)
		ereport(ERROR, (errcode_for_file_access(), errmsg("could not write \"%s\": %m", w->name)));
	if (size)
		*size = w->size;
	pfree(w->name);
	pfree(w);
}


/* ---------- reading ---------- */

typedef enum
{
	READ_NONE, READ_GZIP, READ_ZSTD
} ReadKind;

struct HroeS3Reader
{
	int			fd;
	char	   *name;
	/* an object of hroe.s3_endpoint's, read by ranges into rbuf */
	char	   *bucket;
	char	   *rbuf;
	size_t		rlen;
	size_t		rpos;
	int64		offset;
	int64		total;
	ReadKind	kind;
	z_stream	z;
	ZSTD_DStream *zstd;
	ZSTD_inBuffer zin;
	bool		eof;			/* the file read to its end */
	bool		done;			/* and everything decompressed */
	unsigned char in[IO_CHUNK];
	size_t		in_len;
	unsigned char out[IO_CHUNK];
	size_t		out_pos;
	size_t		out_len;
	int64		raw;			/* bytes read of the file */
};

/* name in dirfd, or (bucket not NULL) the object name of hroe.s3_endpoint's bucket */
static HroeS3Reader *
ReaderNew(int dirfd, const char *bucket, const char *name, const char *compression)
{
	HroeS3Reader *r = palloc0(sizeof(HroeS3Reader));
	struct stat st;

	r->name = pstrdup(name);
	r->kind = strcmp(compression, "GZIP") == 0 ? READ_GZIP :
		strcmp(compression, "ZSTD") == 0 ? READ_ZSTD : READ_NONE;
	r->fd = -1;
	r->total = -1;
	if (bucket)
	{
		r->bucket = pstrdup(bucket);
		r->rbuf = palloc(HROE_S3_PART_SIZE);
	}
	else
	{
		r->fd = hroe_s3_fd_track(openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
		if (r->fd < 0)
			ereport(ERROR, (errcode_for_file_access(), errmsg("could not open \"%s\": %m", name)));
		if (fstat(r->fd, &st) < 0 || !S_ISREG(st.st_mode))
			ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("\"%s\" is not a regular file", name)));
	}
	if (r->kind == READ_GZIP)
	{
		if (inflateInit2(&r->z, 15 + 32) != Z_OK)
			elog(ERROR, "inflateInit2 failed");
		TrackStream(HROE_S3_RES_INFLATE, &r->z);
	}
	if (r->kind == READ_ZSTD)
	{
		r->zstd = ZSTD_createDStream();
		if (r->zstd == NULL)
			elog(ERROR, "ZSTD_createDStream failed");
		TrackStream(HROE_S3_RES_ZSTD, r->zstd);
		ZSTD_initDStream(r->zstd);
	}
	return r;
}

/* Read more of the file into in (at its end: eof) */
static void
FillIn(HroeS3Reader *r)
{
	ssize_t		k;

	if (r->bucket)
	{
		if (r->rpos >= r->rlen && (r->total < 0 || r->offset < r->total))
		{
			r->rlen = hroe_s3_get_range(r->bucket, r->name, r->offset, r->rbuf, HROE_S3_PART_SIZE, &r->total);
			r->rpos = 0;
			r->offset += r->rlen;
		}
		k = Min(sizeof(r->in), r->rlen - r->rpos);
		memcpy(r->in, r->rbuf + r->rpos, k);
		r->rpos += k;
	}
	else
		do
			k = read(r->fd, r->in, sizeof(r->in));
		while (k < 0 && errno == EINTR);
	if (k < 0)
		ereport(ERROR, (errcode_for_file_access(), errmsg("could not read \"%s\": %m", r->name)));
	r->in_len = k;
	r->raw += k;
	if (k == 0)
		r->eof = true;
}

/* Refill out with the next decompressed bytes (none: done) */
static void
FillOut(HroeS3Reader *r)
{
	r->out_pos = r->out_len = 0;
	while (r->out_len == 0 && !r->done)
	{
		CHECK_FOR_INTERRUPTS();
		if (r->kind == READ_NONE)
		{
			FillIn(r);
			memcpy(r->out, r->in, r->in_len);
			r->out_len = r->in_len;
			r->done = r->eof;
		}
		else if (r->kind == READ_GZIP)
		{
			int			ret;

			if (r->z.avail_in == 0)
			{
				FillIn(r);
				r->z.next_in = r->in;
				r->z.avail_in = r->in_len;
				if (r->eof)
				{
					r->done = true;
					break;
				}
			}
			r->z.next_out = r->out;
			r->z.avail_out = sizeof(r->out);
			ret = inflate(&r->z, Z_NO_FLUSH);
			if (ret == Z_STREAM_END)
				inflateReset(&r->z);	/* gzip members may follow */
			else if (ret != Z_OK && ret != Z_BUF_ERROR)
				ereport(ERROR,
						(errcode(ERRCODE_DATA_CORRUPTED),
						 errmsg("\"%s\" is not valid gzip data: %s", r->name, r->z.msg ? r->z.msg : "inflate failed")));
			r->out_len = sizeof(r->out) - r->z.avail_out;
		}
		else
		{
			ZSTD_outBuffer o = {r->out, sizeof(r->out), 0};
			size_t		ret;

			if (r->zin.pos >= r->zin.size)
			{
				FillIn(r);
				r->zin.src = r->in;
				r->zin.size = r->in_len;
				r->zin.pos = 0;
				if (r->eof)
				{
					r->done = true;
					break;
				}
			}
			ret = ZSTD_decompressStream(r->zstd, &o, &r->zin);
			if (ZSTD_isError(ret))
				ereport(ERROR,
						(errcode(ERRCODE_DATA_CORRUPTED),
						 errmsg("\"%s\" is not valid zstd data: %s", r->name, ZSTD_getErrorName(ret))));
			r->out_len = o.pos;
		}
	}
}

/*
 * The next line (without its newline) into line: false at the end.  A line
 * longer than HROE_IMPORT_LINE_MAX is read to its end but not kept
 * (*too_long).  *raw_bytes: the file's bytes read so far.
 */
bool
hroe_s3_read_line(HroeS3Reader *r, StringInfo line, bool *too_long, int64 *raw_bytes)
{
	bool		any = false;

	resetStringInfo(line);
	*too_long = false;
	for (;;)
	{
		unsigned char *nl;
		size_t		n;

		if (r->out_pos >= r->out_len)
		{
			FillOut(r);
			if (r->out_len == 0)
				break;
		}
		any = true;
		nl = memchr(r->out + r->out_pos, '\n', r->out_len - r->out_pos);
		n = nl ? (size_t) (nl - (r->out + r->out_pos)) : r->out_len - r->out_pos;
		if (!*too_long && line->len + n > HROE_IMPORT_LINE_MAX)
		{
			*too_long = true;
			resetStringInfo(line);
		}
		if (!*too_long)
			appendBinaryStringInfo(line, (char *) r->out + r->out_pos, n);
		r->out_pos += n;
		if (nl)
		{
			r->out_pos++;
			break;
		}
	}
	/* (a \r\n line's \r) */
	if (line->len > 0 && line->data[line->len - 1] == '\r')
		line->data[--line->len] = '\0';
	*raw_bytes = r->raw;
	return any;
}

void
hroe_s3_reader_close(HroeS3Reader *r)
{
	if (r->kind == READ_GZIP)
		hroe_s3_release(HROE_S3_RES_INFLATE, &r->z);
	if (r->zstd)
		hroe_s3_release(HROE_S3_RES_ZSTD, r->zstd);
	if (r->fd >= 0)
		hroe_s3_fd_close(r->fd);
	if (r->rbuf)
		pfree(r->rbuf);
	pfree(r->name);
	pfree(r);
}

/* ---------- listing ---------- */

static int
KeyCmp(const ListCell *a, const ListCell *b)
{
	return strcmp(lfirst(a), lfirst(b));
}

/* Whether a directory at path (ending in '/') may hold keys under prefix */
static bool
MayHold(const char *dirpath, const char *prefix)
{
	size_t		d = strlen(dirpath);
	size_t		p = strlen(prefix);

	return strncmp(dirpath, prefix, Min(d, p)) == 0;
}

static void
Walk(int dirfd, const char *path, const char *prefix, List **keys, int depth)
{
	DIR		   *dir;
	struct dirent *de;

	if (depth > 64)
		ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED), errmsg("S3 keys nest deeper than 64 directories")));
	dir = hroe_s3_fdopendir(dirfd);
	if (dir == NULL)
		ereport(ERROR, (errcode_for_file_access(), errmsg("could not read directory \"%s\": %m", path)));
	while ((de = readdir(dir)) != NULL)
	{
		struct stat st;
		char	   *key;

		CHECK_FOR_INTERRUPTS();
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		/* (symbolic links are skipped: never followed) */
		if (fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		key = psprintf("%s%s", path, de->d_name);
		if (S_ISDIR(st.st_mode))
		{
			char	   *sub = psprintf("%s/", key);

			if (MayHold(sub, prefix))
			{
				int			fd = hroe_s3_fd_track(openat(dirfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));

				if (fd >= 0)
					Walk(fd, sub, prefix, keys, depth + 1);
			}
		}
		else if (S_ISREG(st.st_mode) && strncmp(key, prefix, strlen(prefix)) == 0)
		{
			if (list_length(*keys) >= HROE_IMPORT_FILES_MAX)
				ereport(ERROR,
						(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
						 errmsg("more than %d files under S3 key prefix \"%s\"", HROE_IMPORT_FILES_MAX, prefix)));
			*keys = lappend(*keys, key);
		}
	}
	hroe_s3_release(HROE_S3_RES_DIR, dir);
}

List *
hroe_s3_list(int bucketfd, const char *prefix)
{
	List	   *keys = NIL;
	int			fd = hroe_s3_fd_track(dup(bucketfd));

	if (fd < 0)
		elog(ERROR, "dup failed: %m");
	Walk(fd, "", prefix ? prefix : "", &keys, 0);
	list_sort(keys, KeyCmp);
	return keys;
}

/* ---------- for the S3 API (s3_api.c) ---------- */

/* Is b a valid bucket name (S3's rules)? */
bool
hroe_s3_valid_bucket(const char *b)
{
	return ValidBucket(b);
}

/* hroe.s3_root, opened (an error if it is not set) */
int
hroe_s3_open_root(void)
{
	return OpenRoot();
}

/* ---------- a bucket of hroe.s3_root or of hroe.s3_endpoint ---------- */

struct HroeS3Bucket
{
	char	   *name;
	int			fd;				/* hroe.s3_root's bucket directory; -1: the endpoint's */
};

/*
 * The bucket, open as long as the current memory context (a job's, kept
 * across its transactions) or until hroe_s3_bucket_close
 */
HroeS3Bucket *
hroe_s3_bucket_open(const char *bucket)
{
	HroeS3Bucket *b = palloc0(sizeof(HroeS3Bucket));

	b->name = pstrdup(bucket);
	b->fd = hroe_s3_remote() ? -1 : hroe_s3_open_bucket(bucket, NULL);
	return b;
}

void
hroe_s3_bucket_close(HroeS3Bucket *b)
{
	if (b->fd >= 0)
		hroe_s3_fd_close(b->fd);
	pfree(b->name);
	pfree(b);
}

/* A new object key (its directories created under hroe.s3_root) */
HroeS3Writer *
hroe_s3_object_create(HroeS3Bucket *b, const char *key, bool gzip)
{
	HroeS3Writer *w;
	char	   *base;
	int			dirfd;

	if (b->fd < 0)
		return WriterNew(-1, key, gzip, hroe_s3_upload_begin(b->name, key));
	dirfd = hroe_s3_open_key_dir(b->fd, key, &base, HROE_S3_DIR_CREATE);
	w = WriterNew(dirfd, base, gzip, NULL);
	hroe_s3_fd_close(dirfd);
	return w;
}

/* A whole small object, plain */
void
hroe_s3_object_put(HroeS3Bucket *b, const char *key, const char *data, size_t len, unsigned char md5[16])
{
	HroeS3Writer *w = hroe_s3_object_create(b, key, false);
	unsigned char ignored[16];

	hroe_s3_write(w, data, len);
	hroe_s3_writer_close(w, md5 ? md5 : ignored, NULL);
}

HroeS3Reader *
hroe_s3_object_open(HroeS3Bucket *b, const char *key, const char *compression)
{
	HroeS3Reader *r;
	char	   *base;
	int			dirfd;

	if (b->fd < 0)
		return ReaderNew(-1, b->name, key, compression);
	dirfd = hroe_s3_open_key_dir(b->fd, key, &base, HROE_S3_DIR_OPEN);
	r = ReaderNew(dirfd, NULL, base, compression);
	hroe_s3_fd_close(dirfd);
	return r;
}

/* The keys of the objects under prefix, sorted */
List *
hroe_s3_object_list(HroeS3Bucket *b, const char *prefix)
{
	if (b->fd < 0)
		return hroe_s3_remote_list(b->name, prefix ? prefix : "");
	return hroe_s3_list(b->fd, prefix);
}
