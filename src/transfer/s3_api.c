/*-------------------------------------------------------------------------
 *
 * s3_api.c
 *	  S3's REST API over the buckets under hroe.s3_root, inside PostgreSQL:
 *	  the object store's SQL functions (hroe.s3_put_object and the others)
 *	  and the dispatcher of the requests both HTTP front ends pass on
 *	  (hroe.s3_gateway_call, src/http/gateway_call.c), which answers S3's
 *	  XML and error codes.
 *
 * A bucket is a directory of the root, an object a regular file at its
 * key's path below it, opened one component at a time without following
 * symbolic links (transfer_files.c): a key with an empty, "." or ".."
 * component cannot be stored (InvalidArgument), and nothing leaves the
 * root.  An object is written to a temporary file of its directory, then
 * renamed over the key (a reader sees the old or the new object, never a
 * part); deleting the last object of a directory removes the directories
 * left empty, as S3 has no directories.  Objects are at most S3_OBJECT_MAX
 * bytes (EntityTooLarge).  Writes (PutObject, DeleteObject(s),
 * CreateBucket, DeleteBucket) need the privileges of hroe_export or
 * pg_write_server_files, reads those of hroe_import or pg_read_server_files
 * (hroe_s3_role_may), checked for the role the request runs as.
 *
 * Every descriptor, directory stream and MD5 context opened here is
 * tracked (hroe_s3_fd_track, hroe_s3_fdopendir, hroe_s3_md5_begin): the
 * contract is transfer.h's.
 *
 * S3's error codes and their HTTP statuses are here, in S3Errors, and
 * nowhere else.
 *
 * src/transfer/s3_api.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/rand.h>

#include "access/xact.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/resowner.h"
#include "utils/timestamp.h"

#include "s3.h"
#include "transfer.h"

/* prefix of the temporary files of PutObject; keys with it are refused */
#define TMP_PREFIX ".hroe-s3-tmp-"
/* S3's longest key, and most keys of a listing page or DeleteObjects */
#define KEY_MAX 1024
#define PAGE_MAX 1000

typedef enum S3Status
{
	S3_OK,
	S3_NO_SUCH_BUCKET,
	S3_NO_SUCH_KEY,
	S3_BUCKET_NOT_EMPTY,
	S3_BUCKET_EXISTS,
	S3_INVALID_BUCKET_NAME,
	S3_INVALID_KEY,
	S3_KEY_TOO_LONG,
	S3_ENTITY_TOO_LARGE,
	S3_ACCESS_DENIED,
	S3_INVALID_ARGUMENT,
	S3_MALFORMED_XML,
	S3_NOT_IMPLEMENTED,
	S3_METHOD_NOT_ALLOWED
} S3Status;

static const struct
{
	int			http;
	const char *code;
	const char *message;
	int			sqlstate;
}			S3Errors[] = {
	[S3_OK] = {200, "", "", 0},
	[S3_NO_SUCH_BUCKET] = {404, "NoSuchBucket", "The specified bucket does not exist", ERRCODE_UNDEFINED_OBJECT},
	[S3_NO_SUCH_KEY] = {404, "NoSuchKey", "The specified key does not exist.", ERRCODE_UNDEFINED_OBJECT},
	[S3_BUCKET_NOT_EMPTY] = {409, "BucketNotEmpty", "The bucket you tried to delete is not empty", ERRCODE_OBJECT_IN_USE},
	[S3_BUCKET_EXISTS] = {409, "BucketAlreadyOwnedByYou", "Your previous request to create the named bucket succeeded and you already own it.", ERRCODE_DUPLICATE_OBJECT},
	[S3_INVALID_BUCKET_NAME] = {400, "InvalidBucketName", "The specified bucket is not valid.", ERRCODE_INVALID_PARAMETER_VALUE},
	[S3_INVALID_KEY] = {400, "InvalidArgument", "hroe stores an object as a file: a key's path components must not be empty, \".\", \"..\" or begin with " TMP_PREFIX, ERRCODE_INVALID_PARAMETER_VALUE},
	[S3_KEY_TOO_LONG] = {400, "KeyTooLongError", "Your key is too long", ERRCODE_NAME_TOO_LONG},
	[S3_ENTITY_TOO_LARGE] = {400, "EntityTooLarge", "Your proposed upload exceeds the maximum allowed object size.", ERRCODE_PROGRAM_LIMIT_EXCEEDED},
	[S3_ACCESS_DENIED] = {403, "AccessDenied", "Access Denied", ERRCODE_INSUFFICIENT_PRIVILEGE},
	[S3_INVALID_ARGUMENT] = {400, "InvalidArgument", "Invalid argument.", ERRCODE_INVALID_PARAMETER_VALUE},
	[S3_MALFORMED_XML] = {400, "MalformedXML", "The XML you provided was not well-formed or did not validate against our published schema", ERRCODE_INVALID_XML_DOCUMENT},
	[S3_NOT_IMPLEMENTED] = {501, "NotImplemented", "A header or query you provided implies functionality that hroe does not implement.", ERRCODE_FEATURE_NOT_SUPPORTED},
	[S3_METHOD_NOT_ALLOWED] = {405, "MethodNotAllowed", "The specified method is not allowed against this resource.", ERRCODE_FEATURE_NOT_SUPPORTED},
};

/* ---------- the store ---------- */

/* Raise status as a PostgreSQL error (for the SQL functions) */
static void
Raise(S3Status status, const char *bucket, const char *key)
{
	ereport(ERROR,
			(errcode(S3Errors[status].sqlstate),
			 errmsg("S3 %s: %s", S3Errors[status].code, S3Errors[status].message),
			 key ? errdetail("Bucket \"%s\", key \"%s\".", bucket, key) :
			 errdetail("Bucket \"%s\".", bucket)));
}

static S3Status
CheckRole(bool write)
{
	return hroe_s3_role_may(GetUserId(), write) ? S3_OK : S3_ACCESS_DENIED;
}

/* The bucket's directory, opened (hroe_s3_open_bucket), or -1 with *status */
static int
OpenBucket(const char *bucket, S3Status *status)
{
	HroeS3PathStatus st;
	int			fd = hroe_s3_open_bucket(bucket, &st);

	*status = st == HROE_S3_BAD_BUCKET ? S3_INVALID_BUCKET_NAME :
		st == HROE_S3_NO_BUCKET ? S3_NO_SUCH_BUCKET : S3_OK;
	return fd;
}

/* Can key be stored as a file path? */
static S3Status
CheckKey(const char *key)
{
	size_t		n = strlen(key);
	const char *c = key;

	if (n == 0)
		return S3_INVALID_KEY;
	if (n > KEY_MAX)
		return S3_KEY_TOO_LONG;
	for (;;)
	{
		size_t		len = strcspn(c, "/");

		if (len == 0 || len > HROE_S3_COMPONENT_MAX || hroe_s3_component_leaves(c, len) ||
			strncmp(c, TMP_PREFIX, strlen(TMP_PREFIX)) == 0)
			return len > HROE_S3_COMPONENT_MAX ? S3_KEY_TOO_LONG : S3_INVALID_KEY;
		if (c[len] == '\0')
			return S3_OK;
		c += len + 1;
	}
}

/* The MD5 of data in hex (33 bytes) */
static void
Md5Hex(const char *data, size_t len, char *out)
{
	unsigned char md[16];

	if (!md5_digest(data, len, md))
		elog(ERROR, "MD5 failed");
	hex_lower(md, 16, out);
}

/* The whole file name of dirfd (at most S3_OBJECT_MAX bytes, else NULL, *too_big) */
static char *
ReadWhole(int dirfd, const char *name, size_t *len, struct stat *st, bool *too_big)
{
	int			fd = hroe_s3_fd_track(openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
	char	   *data;
	size_t		got = 0;

	*too_big = false;
	if (fd < 0)
		return NULL;
	if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode))
	{
		hroe_s3_fd_close(fd);
		return NULL;
	}
	if (st->st_size > S3_OBJECT_MAX)
	{
		hroe_s3_fd_close(fd);
		*too_big = true;
		return NULL;
	}
	data = palloc((size_t) st->st_size + 1);
	while (got < (size_t) st->st_size)
	{
		ssize_t		k = read(fd, data + got, (size_t) st->st_size - got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		got += (size_t) k;
	}
	hroe_s3_fd_close(fd);
	*len = got;
	return data;
}

/* The MD5 (hex) of a file of any size, streamed */
static bool
FileMd5(int dirfd, const char *name, char *out)
{
	int			fd = hroe_s3_fd_track(openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
	EVP_MD_CTX *ctx;
	char		buf[65536];
	unsigned char md[16];
	ssize_t		k;

	if (fd < 0)
		return false;
	ctx = hroe_s3_md5_begin();
	while ((k = read(fd, buf, sizeof(buf))) != 0)
	{
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			break;
		EVP_DigestUpdate(ctx, buf, (size_t) k);
		CHECK_FOR_INTERRUPTS();
	}
	hroe_s3_fd_close(fd);
	if (!hroe_s3_md5_end(ctx, md))
		elog(ERROR, "MD5 failed");
	if (k < 0)
		return false;
	hex_lower(md, 16, out);
	return true;
}

static S3Status
CreateBucket(const char *bucket)
{
	int			root;
	S3Status	st = CheckRole(true);

	if (st != S3_OK)
		return st;
	if (!hroe_s3_valid_bucket(bucket))
		return S3_INVALID_BUCKET_NAME;
	root = hroe_s3_open_root();
	if (mkdirat(root, bucket, 0750) < 0)
	{
		int			e = errno;

		hroe_s3_fd_close(root);
		if (e == EEXIST)
			return S3_BUCKET_EXISTS;
		errno = e;
		ereport(ERROR, (errcode_for_file_access(), errmsg("could not create bucket directory \"%s\": %m", bucket)));
	}
	hroe_s3_fd_close(root);
	return S3_OK;
}

static S3Status
DeleteBucket(const char *bucket)
{
	int			root;
	S3Status	st = CheckRole(true);

	if (st != S3_OK)
		return st;
	if (!hroe_s3_valid_bucket(bucket))
		return S3_INVALID_BUCKET_NAME;
	root = hroe_s3_open_root();
	if (unlinkat(root, bucket, AT_REMOVEDIR) < 0)
	{
		int			e = errno;

		hroe_s3_fd_close(root);
		if (e == ENOENT || e == ENOTDIR)
			return S3_NO_SUCH_BUCKET;
		if (e == ENOTEMPTY || e == EEXIST)
			return S3_BUCKET_NOT_EMPTY;
		errno = e;
		ereport(ERROR, (errcode_for_file_access(), errmsg("could not remove bucket directory \"%s\": %m", bucket)));
	}
	hroe_s3_fd_close(root);
	return S3_OK;
}

static S3Status
HeadBucket(const char *bucket)
{
	S3Status	st = CheckRole(false);
	int			fd;

	if (st != S3_OK)
		return st;
	fd = OpenBucket(bucket, &st);
	if (fd >= 0)
		hroe_s3_fd_close(fd);
	return st;
}

/* Write body as key (replacing it); *etag (33 bytes) its MD5 */
static S3Status
PutObject(const char *bucket, const char *key, const char *body, size_t len, char *etag)
{
	S3Status	st = CheckRole(true);
	int			bfd,
				dfd,
				fd;
	char	   *base;
	char		tmp[64];
	unsigned char rnd[8];
	char		rhex[17];
	size_t		done = 0;

	if (st != S3_OK)
		return st;
	if (len > S3_OBJECT_MAX)
		return S3_ENTITY_TOO_LARGE;
	if ((st = CheckKey(key)) != S3_OK)
		return st;
	bfd = OpenBucket(bucket, &st);
	if (bfd < 0)
		return st;
	dfd = hroe_s3_open_key_dir(bfd, key, &base, HROE_S3_DIR_CREATE);
	hroe_s3_fd_close(bfd);
	if (RAND_bytes(rnd, sizeof(rnd)) != 1)
		elog(ERROR, "RAND_bytes failed");
	hex_lower(rnd, sizeof(rnd), rhex);
	snprintf(tmp, sizeof(tmp), TMP_PREFIX "%s", rhex);
	fd = hroe_s3_fd_track(openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0640));
	if (fd < 0)
		ereport(ERROR, (errcode_for_file_access(), errmsg("could not create a file for S3 key \"%s\": %m", key)));
	while (done < len)
	{
		ssize_t		k = write(fd, body + done, len - done);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
		{
			int			e = errno;

			hroe_s3_fd_close(fd);
			unlinkat(dfd, tmp, 0);
			hroe_s3_fd_close(dfd);
			errno = e;
			ereport(ERROR, (errcode_for_file_access(), errmsg("could not write S3 key \"%s\": %m", key)));
		}
		done += (size_t) k;
	}
	if (hroe_s3_fd_close(fd) < 0 || renameat(dfd, tmp, dfd, base) < 0)
	{
		int			e = errno;

		unlinkat(dfd, tmp, 0);
		hroe_s3_fd_close(dfd);
		errno = e;
		if (e == EISDIR || e == ENOTEMPTY || e == EEXIST)
			return S3_INVALID_KEY;
		ereport(ERROR, (errcode_for_file_access(), errmsg("could not store S3 key \"%s\": %m", key)));
	}
	hroe_s3_fd_close(dfd);
	Md5Hex(body, len, etag);
	return S3_OK;
}

/* Open key's directory for reading: -1 with *st when there is no such key */
static int
OpenKeyDir(const char *bucket, const char *key, char **base, S3Status *st)
{
	int			bfd,
				dfd;

	if ((*st = CheckKey(key)) != S3_OK)
	{
		/* such a key cannot have been stored */
		if (*st == S3_INVALID_KEY)
			*st = S3_NO_SUCH_KEY;
		return -1;
	}
	bfd = OpenBucket(bucket, st);
	if (bfd < 0)
		return -1;
	/* each component without following links; a missing one: no such key */
	dfd = hroe_s3_open_key_dir(bfd, key, base, HROE_S3_DIR_FIND);
	hroe_s3_fd_close(bfd);
	if (dfd < 0)
		*st = S3_NO_SUCH_KEY;
	return dfd;
}

static char *
GetObject(const char *bucket, const char *key, size_t *len, struct stat *sb, S3Status *st)
{
	char	   *base;
	int			dfd;
	char	   *data;
	bool		too_big;

	if ((*st = CheckRole(false)) != S3_OK)
		return NULL;
	dfd = OpenKeyDir(bucket, key, &base, st);
	if (dfd < 0)
		return NULL;
	data = ReadWhole(dfd, base, len, sb, &too_big);
	hroe_s3_fd_close(dfd);
	*st = too_big ? S3_ENTITY_TOO_LARGE : data ? S3_OK : S3_NO_SUCH_KEY;
	return data;
}

/*
 * HeadObject: the key's size and time from its stat, its ETag (MD5)
 * streamed: the object is never held, whatever its size
 */
static bool
HeadObject(const char *bucket, const char *key, struct stat *sb, char *etag, S3Status *st)
{
	char	   *base;
	int			dfd;

	if ((*st = CheckRole(false)) != S3_OK)
		return false;
	dfd = OpenKeyDir(bucket, key, &base, st);
	if (dfd < 0)
		return false;
	if (fstatat(dfd, base, sb, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(sb->st_mode) ||
		!FileMd5(dfd, base, etag))
	{
		hroe_s3_fd_close(dfd);
		*st = S3_NO_SUCH_KEY;
		return false;
	}
	hroe_s3_fd_close(dfd);
	*st = S3_OK;
	return true;
}

/* Delete key (none: no error, as S3), then the directories it leaves empty */
static S3Status
DeleteObject(const char *bucket, const char *key)
{
	S3Status	st = CheckRole(true);
	char	   *base;
	int			dfd;
	struct stat sb;

	if (st != S3_OK)
		return st;
	dfd = OpenKeyDir(bucket, key, &base, &st);
	if (dfd < 0)
		return st == S3_NO_SUCH_KEY ? S3_OK : st;
	if (fstatat(dfd, base, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(sb.st_mode))
	{
		if (unlinkat(dfd, base, 0) < 0 && errno != ENOENT)
			ereport(ERROR, (errcode_for_file_access(), errmsg("could not delete S3 key \"%s\": %m", key)));
	}
	hroe_s3_fd_close(dfd);
	/* the parents left empty, innermost first (one that is not: stop) */
	{
		char	   *dir = pstrdup(key);
		char	   *slash;
		int			bfd = OpenBucket(bucket, &st);

		if (bfd < 0)
			return S3_OK;
		while ((slash = strrchr(dir, '/')) != NULL)
		{
			*slash = '\0';
			if (unlinkat(bfd, dir, AT_REMOVEDIR) < 0)
				break;
		}
		hroe_s3_fd_close(bfd);
	}
	return S3_OK;
}

/* ---------- XML ---------- */

/* A value percent-encoded (ListObjects' encoding-type=url), else XML text */
static void
XmlKey(StringInfo b, const char *s, bool url)
{
	if (url)
		hroe_append_uri_encoded(b, s, true);
	else
		hroe_append_xml_text(b, s);
}

static void
IsoTime(StringInfo b, time_t t)
{
	struct tm	tm;
	char		s[32];

	gmtime_r(&t, &tm);
	strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%S.000Z", &tm);
	appendStringInfoString(b, s);
}

static void
HttpTime(char *out, size_t size, time_t t)
{
	struct tm	tm;

	gmtime_r(&t, &tm);
	strftime(out, size, "%a, %d %b %Y %H:%M:%S GMT", &tm);
}

/* ---------- the answer, framed for the front ends (s3.h's s3_answer) ---------- */

typedef struct Answer
{
	StringInfoData head;
	StringInfoData body;
	int			status;
} Answer;

static void
AnswerInit(Answer *a)
{
	initStringInfo(&a->head);
	initStringInfo(&a->body);
	a->status = 200;
}

static void
AnswerXml(Answer *a)
{
	appendStringInfoString(&a->head, "Content-Type: application/xml\n");
	appendStringInfoString(&a->body, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
}

static void
AnswerError(Answer *a, S3Status st, const char *resource)
{
	resetStringInfo(&a->head);
	resetStringInfo(&a->body);
	a->status = S3Errors[st].http;
	AnswerXml(a);
	appendStringInfo(&a->body, "<Error><Code>%s</Code><Message>", S3Errors[st].code);
	hroe_append_xml_text(&a->body, S3Errors[st].message);
	appendStringInfoString(&a->body, "</Message><Resource>");
	hroe_append_xml_text(&a->body, resource);
	appendStringInfoString(&a->body, "</Resource></Error>");
}

static bytea *
AnswerBytes(Answer *a)
{
	char		status[8];
	size_t		n;
	bytea	   *out;
	char	   *p;

	snprintf(status, sizeof(status), "%d\n", a->status);
	n = strlen(status) + a->head.len + 1 + a->body.len;
	if (n > MaxAllocSize - VARHDRSZ)
		ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED), errmsg("S3 answer too large")));
	out = palloc(VARHDRSZ + n);
	SET_VARSIZE(out, VARHDRSZ + n);
	p = VARDATA(out);
	memcpy(p, status, strlen(status));
	p += strlen(status);
	memcpy(p, a->head.data, a->head.len);
	p += a->head.len;
	*p++ = '\n';
	memcpy(p, a->body.data, a->body.len);
	return out;
}

/* ---------- the query ---------- */

static int
HexVal(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* The decoded value of query argument name, or NULL (present: *present) */
static char *
QueryArg(const char *query, const char *name, bool *present)
{
	size_t		nlen = strlen(name);
	const char *p = query;

	if (present)
		*present = false;
	while (p && *p)
	{
		const char *amp = strchr(p, '&');
		size_t		len = amp ? (size_t) (amp - p) : strlen(p);

		if (len >= nlen && strncmp(p, name, nlen) == 0 && (len == nlen || p[nlen] == '='))
		{
			StringInfoData v;

			initStringInfo(&v);
			for (size_t i = nlen + 1; i < len; i++)
			{
				if (p[i] == '%' && i + 2 < len + 1 && HexVal(p[i + 1]) >= 0 && HexVal(p[i + 2]) >= 0)
				{
					char		c = (char) (HexVal(p[i + 1]) * 16 + HexVal(p[i + 2]));

					if (c == '\0')
						return NULL;	/* no NUL in a value */
					appendStringInfoChar(&v, c);
					i += 2;
				}
				else
					appendStringInfoChar(&v, p[i]);
			}
			if (present)
				*present = true;
			return v.data;
		}
		p = amp ? amp + 1 : NULL;
	}
	return NULL;
}

/* ---------- the operations over HTTP ---------- */

static int
NameCmp(const ListCell *a, const ListCell *b)
{
	return strcmp(lfirst(a), lfirst(b));
}

static void
ListBuckets(Answer *a)
{
	int			root;
	DIR		   *dir;
	struct dirent *de;
	List	   *names = NIL;
	ListCell   *lc;
	S3Status	st = CheckRole(false);

	if (st != S3_OK)
	{
		AnswerError(a, st, "/");
		return;
	}
	root = hroe_s3_open_root();
	dir = hroe_s3_fdopendir(root);
	if (dir == NULL)
		ereport(ERROR, (errcode_for_file_access(), errmsg("could not read hroe.s3_root: %m")));
	while ((de = readdir(dir)) != NULL)
	{
		struct stat sb;

		if (hroe_s3_valid_bucket(de->d_name) &&
			fstatat(dirfd(dir), de->d_name, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(sb.st_mode))
			names = lappend(names, psprintf("%s/%ld", de->d_name, (long) sb.st_mtime));
	}
	hroe_s3_release(HROE_S3_RES_DIR, dir);
	list_sort(names, NameCmp);
	AnswerXml(a);
	appendStringInfoString(&a->body, "<ListAllMyBucketsResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Owner><ID>hroe</ID><DisplayName>hroe</DisplayName></Owner><Buckets>");
	foreach(lc, names)
	{
		char	   *s = lfirst(lc);
		char	   *slash = strrchr(s, '/');

		*slash = '\0';
		appendStringInfo(&a->body, "<Bucket><Name>%s</Name><CreationDate>", s);
		IsoTime(&a->body, (time_t) atol(slash + 1));
		appendStringInfoString(&a->body, "</CreationDate></Bucket>");
	}
	appendStringInfoString(&a->body, "</Buckets></ListAllMyBucketsResult>");
}

static void
ListObjects(Answer *a, const char *bucket, const char *query, const char *resource)
{
	bool		v2 = false;
	char	   *lt = QueryArg(query, "list-type", NULL);
	char	   *prefix = QueryArg(query, "prefix", NULL);
	char	   *delim = QueryArg(query, "delimiter", NULL);
	char	   *maxs = QueryArg(query, "max-keys", NULL);
	char	   *enc = QueryArg(query, "encoding-type", NULL);
	char	   *token,
			   *after;
	bool		url = enc && strcmp(enc, "url") == 0;
	long		max_keys = PAGE_MAX;
	int			bfd;
	S3Status	st = CheckRole(false);
	List	   *keys;
	ListCell   *lc;
	int			count = 0;
	char	   *last = NULL;
	char	   *last_cp = NULL;
	bool		truncated = false;
	StringInfoData items;

	if (st != S3_OK)
	{
		AnswerError(a, st, resource);
		return;
	}
	if (lt)
	{
		if (strcmp(lt, "2") != 0)
		{
			AnswerError(a, S3_INVALID_ARGUMENT, resource);
			return;
		}
		v2 = true;
	}
	if (maxs)
	{
		char	   *end;

		errno = 0;
		max_keys = strtol(maxs, &end, 10);
		if (*maxs == '\0' || *end != '\0' || errno != 0 || max_keys < 0)
		{
			AnswerError(a, S3_INVALID_ARGUMENT, resource);
			return;
		}
		if (max_keys > PAGE_MAX)
			max_keys = PAGE_MAX;
	}
	if (enc && !url)
	{
		AnswerError(a, S3_INVALID_ARGUMENT, resource);
		return;
	}
	if (delim && delim[0] == '\0')
		delim = NULL;
	if (v2)
	{
		char	   *t = QueryArg(query, "continuation-token", NULL);

		after = QueryArg(query, "start-after", NULL);
		token = NULL;
		if (t)
		{
			/* the token is the last key or common prefix given, in hex */
			size_t		n = strlen(t);

			if (n % 2 != 0 || strspn(t, "0123456789abcdef") != n || n == 0)
			{
				AnswerError(a, S3_INVALID_ARGUMENT, resource);
				return;
			}
			token = palloc(n / 2 + 1);
			hex_decode(t, n, token);
			token[n / 2] = '\0';
			if (strlen(token) != n / 2)
			{
				AnswerError(a, S3_INVALID_ARGUMENT, resource);
				return;
			}
		}
	}
	else
	{
		token = NULL;
		after = QueryArg(query, "marker", NULL);
	}
	if (token)
		after = token;

	bfd = OpenBucket(bucket, &st);
	if (bfd < 0)
	{
		AnswerError(a, st, resource);
		return;
	}
	keys = hroe_s3_list(bfd, prefix ? prefix : "");

	initStringInfo(&items);
	foreach(lc, keys)
	{
		char	   *key = lfirst(lc);
		size_t		plen = prefix ? strlen(prefix) : 0;
		char	   *cp = NULL;
		const char *d;

		CHECK_FOR_INTERRUPTS();
		if (strstr(key, "/" TMP_PREFIX) || strncmp(key, TMP_PREFIX, strlen(TMP_PREFIX)) == 0)
			continue;
		if (after && strcmp(key, after) <= 0)
			continue;
		if (after && delim && strlen(after) >= strlen(delim) &&
			strcmp(after + strlen(after) - strlen(delim), delim) == 0 &&
			strncmp(key, after, strlen(after)) == 0)
			continue;			/* inside a common prefix already given */
		if (delim && (d = strstr(key + plen, delim)) != NULL)
		{
			cp = pnstrdup(key, (d - key) + strlen(delim));
			if (last_cp && strcmp(cp, last_cp) == 0)
				continue;
		}
		if (count >= max_keys)
		{
			truncated = true;
			break;
		}
		count++;
		if (cp)
		{
			appendStringInfoString(&items, "<CommonPrefixes><Prefix>");
			XmlKey(&items, cp, url);
			appendStringInfoString(&items, "</Prefix></CommonPrefixes>");
			last_cp = cp;
			last = cp;
		}
		else
		{
			char	   *base;
			int			dfd = hroe_s3_open_key_dir(bfd, key, &base, HROE_S3_DIR_FIND);
			struct stat sb;
			char		etag[33];

			if (dfd < 0 || fstatat(dfd, base, &sb, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(sb.st_mode) ||
				!FileMd5(dfd, base, etag))
			{
				/* gone meanwhile */
				if (dfd >= 0)
					hroe_s3_fd_close(dfd);
				count--;
				continue;
			}
			hroe_s3_fd_close(dfd);
			appendStringInfoString(&items, "<Contents><Key>");
			XmlKey(&items, key, url);
			appendStringInfoString(&items, "</Key><LastModified>");
			IsoTime(&items, sb.st_mtime);
			appendStringInfo(&items, "</LastModified><ETag>&quot;%s&quot;</ETag><Size>%lld</Size><StorageClass>STANDARD</StorageClass></Contents>",
							 etag, (long long) sb.st_size);
			last = key;
		}
	}
	hroe_s3_fd_close(bfd);

	AnswerXml(a);
	appendStringInfo(&a->body, "<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Name>%s</Name><Prefix>", bucket);
	XmlKey(&a->body, prefix ? prefix : "", url);
	appendStringInfoString(&a->body, "</Prefix>");
	if (delim)
	{
		appendStringInfoString(&a->body, "<Delimiter>");
		XmlKey(&a->body, delim, url);
		appendStringInfoString(&a->body, "</Delimiter>");
	}
	appendStringInfo(&a->body, "<MaxKeys>%ld</MaxKeys>", max_keys);
	if (url)
		appendStringInfoString(&a->body, "<EncodingType>url</EncodingType>");
	appendStringInfo(&a->body, "<IsTruncated>%s</IsTruncated>", truncated ? "true" : "false");
	if (v2)
	{
		char	   *t = QueryArg(query, "continuation-token", NULL);
		char	   *sa = QueryArg(query, "start-after", NULL);

		appendStringInfo(&a->body, "<KeyCount>%d</KeyCount>", count);
		if (t)
		{
			appendStringInfoString(&a->body, "<ContinuationToken>");
			hroe_append_xml_text(&a->body, t);
			appendStringInfoString(&a->body, "</ContinuationToken>");
		}
		if (sa)
		{
			appendStringInfoString(&a->body, "<StartAfter>");
			XmlKey(&a->body, sa, url);
			appendStringInfoString(&a->body, "</StartAfter>");
		}
		if (truncated && last)
		{
			char	   *hex = palloc(strlen(last) * 2 + 1);

			hex_lower((const unsigned char *) last, strlen(last), hex);
			appendStringInfo(&a->body, "<NextContinuationToken>%s</NextContinuationToken>", hex);
		}
	}
	else
	{
		char	   *m = QueryArg(query, "marker", NULL);

		appendStringInfoString(&a->body, "<Marker>");
		XmlKey(&a->body, m ? m : "", url);
		appendStringInfoString(&a->body, "</Marker>");
		if (truncated && last && delim)
		{
			appendStringInfoString(&a->body, "<NextMarker>");
			XmlKey(&a->body, last, url);
			appendStringInfoString(&a->body, "</NextMarker>");
		}
	}
	appendBinaryStringInfo(&a->body, items.data, items.len);
	appendStringInfoString(&a->body, "</ListBucketResult>");
}

/*
 * DeleteObjects: the keys of the XML body, read with PostgreSQL's XMLTABLE
 * (libxml2; XMLTABLE and XMLPARSE are syntax, not names looked up) in a
 * subtransaction: a body that is not such XML is MalformedXML
 */
static void
DeleteObjects(Answer *a, const char *bucket, const char *body, size_t len, const char *resource)
{
	MemoryContext cxt = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;
	List	   *volatile keys = NIL;
	volatile bool quiet = false;
	volatile bool bad = false;
	ListCell   *lc;
	S3Status	st = CheckRole(true);
	int			bfd;

	if (st != S3_OK)
	{
		AnswerError(a, st, resource);
		return;
	}
	bfd = OpenBucket(bucket, &st);
	if (bfd < 0)
	{
		AnswerError(a, st, resource);
		return;
	}
	hroe_s3_fd_close(bfd);
	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(cxt);
	PG_TRY();
	{
		Oid			types[1] = {BYTEAOID};
		Datum		values[1];
		bytea	   *b = palloc(VARHDRSZ + len);

		SET_VARSIZE(b, VARHDRSZ + len);
		memcpy(VARDATA(b), body, len);
		values[0] = PointerGetDatum(b);
		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		if (SPI_execute_with_args(
								  "SELECT x.k, x.q FROM XMLTABLE("
								  "'/*[local-name()=\"Delete\"]/*[local-name()=\"Object\"]' "
								  "PASSING XMLPARSE(DOCUMENT pg_catalog.convert_from($1, 'UTF8')) "
								  "COLUMNS k pg_catalog.text PATH '*[local-name()=\"Key\"]', "
								  "q pg_catalog.text PATH '../*[local-name()=\"Quiet\"]') AS x",
								  1, types, values, NULL, true, PAGE_MAX + 1) != SPI_OK_SELECT)
			elog(ERROR, "reading the keys failed");
		if (SPI_processed == 0 || SPI_processed > PAGE_MAX)
			bad = true;
		for (uint64 i = 0; i < SPI_processed && !bad; i++)
		{
			bool		isnull;
			Datum		k = SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1, &isnull);
			Datum		q;
			MemoryContext spi = MemoryContextSwitchTo(cxt);

			if (isnull)
				bad = true;
			else
				keys = lappend(keys, TextDatumGetCString(k));
			MemoryContextSwitchTo(spi);
			q = SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 2, &isnull);
			if (!isnull && i == 0)
			{
				char	   *qs = TextDatumGetCString(q);

				quiet = pg_strcasecmp(qs, "true") == 0;
			}
		}
		SPI_finish();
		ReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(cxt);
		CurrentResourceOwner = owner;
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(cxt);
		CurrentResourceOwner = owner;
		/* a query cancel or a timeout is no malformed body */
		if (edata->sqlerrcode == ERRCODE_QUERY_CANCELED || edata->sqlerrcode == ERRCODE_OUT_OF_MEMORY)
			ReThrowError(edata);
		FreeErrorData(edata);
		bad = true;
	}
	PG_END_TRY();
	if (bad)
	{
		AnswerError(a, S3_MALFORMED_XML, resource);
		return;
	}
	AnswerXml(a);
	appendStringInfoString(&a->body, "<DeleteResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">");
	foreach(lc, (List *) keys)
	{
		char	   *key = lfirst(lc);

		st = DeleteObject(bucket, key);
		if (st == S3_INVALID_KEY || st == S3_KEY_TOO_LONG)
			st = S3_OK;			/* no such key can exist: deleted, as S3 answers */
		if (st != S3_OK)
		{
			appendStringInfoString(&a->body, "<Error><Key>");
			hroe_append_xml_text(&a->body, key);
			appendStringInfo(&a->body, "</Key><Code>%s</Code><Message>", S3Errors[st].code);
			hroe_append_xml_text(&a->body, S3Errors[st].message);
			appendStringInfoString(&a->body, "</Message></Error>");
		}
		else if (!quiet)
		{
			appendStringInfoString(&a->body, "<Deleted><Key>");
			hroe_append_xml_text(&a->body, key);
			appendStringInfoString(&a->body, "</Key></Deleted>");
		}
	}
	appendStringInfoString(&a->body, "</DeleteResult>");
}

/* Subresources hroe does not implement (the query names one) */
static bool
Unimplemented(const char *query)
{
	static const char *const sub[] = {
		"acl", "accelerate", "analytics", "cors", "encryption", "intelligent-tiering",
		"inventory", "lifecycle", "logging", "metrics", "notification", "object-lock",
		"ownershipControls", "policy", "policyStatus", "publicAccessBlock", "replication",
		"requestPayment", "tagging", "versioning", "versions", "website", "uploads",
		"uploadId", "partNumber", "retention", "legal-hold", "torrent", "restore", "select",
		"attributes", "session"
	};

	for (size_t i = 0; i < lengthof(sub); i++)
	{
		bool		present;

		(void) QueryArg(query, sub[i], &present);
		if (present)
			return true;
	}
	return false;
}

bytea *
hroe_s3_dispatch(const char *method, const char *path, const char *query, const char *body,
				 size_t len)
{
	Answer		a;
	const char *p = path;
	char	   *bucket;
	const char *key;
	S3Status	st;
	bool		present;

	AnswerInit(&a);
	while (*p == '/')
		p++;
	key = strchr(p, '/');
	bucket = key ? pnstrdup(p, key - p) : pstrdup(p);
	if (key)
		key++;
	if (key && *key == '\0')
		key = NULL;

	if (Unimplemented(query))
		AnswerError(&a, S3_NOT_IMPLEMENTED, path);
	else if (bucket[0] == '\0')
	{
		if (strcmp(method, "GET") == 0)
			ListBuckets(&a);
		else
			AnswerError(&a, S3_METHOD_NOT_ALLOWED, path);
	}
	else if (key == NULL)
	{
		(void) QueryArg(query, "location", &present);
		if (strcmp(method, "GET") == 0 && present)
		{
			if ((st = HeadBucket(bucket)) != S3_OK)
				AnswerError(&a, st, path);
			else
			{
				AnswerXml(&a);
				appendStringInfoString(&a.body, "<LocationConstraint xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"/>");
			}
		}
		else if (strcmp(method, "GET") == 0)
			ListObjects(&a, bucket, query, path);
		else if (strcmp(method, "PUT") == 0)
		{
			if ((st = CreateBucket(bucket)) != S3_OK)
				AnswerError(&a, st, path);
			else
				appendStringInfo(&a.head, "Location: /%s\n", bucket);
		}
		else if (strcmp(method, "DELETE") == 0)
		{
			if ((st = DeleteBucket(bucket)) != S3_OK)
				AnswerError(&a, st, path);
			else
				a.status = 204;
		}
		else if (strcmp(method, "HEAD") == 0)
		{
			if ((st = HeadBucket(bucket)) != S3_OK)
			{
				AnswerError(&a, st, path);
				resetStringInfo(&a.body);	/* HEAD: no body */
			}
		}
		else if (strcmp(method, "POST") == 0 && (QueryArg(query, "delete", &present), present))
			DeleteObjects(&a, bucket, body, len, path);
		else
			AnswerError(&a, S3_METHOD_NOT_ALLOWED, path);
	}
	else if (strcmp(method, "PUT") == 0)
	{
		char		etag[33];

		if ((st = PutObject(bucket, key, body, len, etag)) != S3_OK)
			AnswerError(&a, st, path);
		else
			appendStringInfo(&a.head, "ETag: \"%s\"\n", etag);
	}
	else if (strcmp(method, "HEAD") == 0)
	{
		struct stat sb;
		char		etag[33],
					when[64];

		if (!HeadObject(bucket, key, &sb, etag, &st))
		{
			AnswerError(&a, st, path);
			resetStringInfo(&a.body);	/* HEAD: no body */
		}
		else
		{
			HttpTime(when, sizeof(when), sb.st_mtime);
			/* (the front end declares the length and sends no body) */
			appendStringInfo(&a.head, "Content-Type: binary/octet-stream\nETag: \"%s\"\nLast-Modified: %s\nAccept-Ranges: none\nContent-Length: %lld\n",
							 etag, when, (long long) sb.st_size);
		}
	}
	else if (strcmp(method, "GET") == 0)
	{
		size_t		n = 0;
		struct stat sb;
		char	   *data = GetObject(bucket, key, &n, &sb, &st);

		if (st != S3_OK)
			AnswerError(&a, st, path);
		else
		{
			char		etag[33],
						when[64];

			Md5Hex(data, n, etag);
			HttpTime(when, sizeof(when), sb.st_mtime);
			appendStringInfo(&a.head, "Content-Type: binary/octet-stream\nETag: \"%s\"\nLast-Modified: %s\nAccept-Ranges: none\n",
							 etag, when);
			appendBinaryStringInfo(&a.body, data, n);
		}
	}
	else if (strcmp(method, "DELETE") == 0)
	{
		if ((st = DeleteObject(bucket, key)) != S3_OK)
			AnswerError(&a, st, path);
		else
			a.status = 204;
	}
	else
		AnswerError(&a, S3_METHOD_NOT_ALLOWED, path);
	return AnswerBytes(&a);
}

/* ---------- the SQL functions ---------- */

static char *
ArgText(FunctionCallInfo fcinfo, int n)
{
	return text_to_cstring(PG_GETARG_TEXT_PP(n));
}

PG_FUNCTION_INFO_V1(hroe_s3_create_bucket);
Datum
hroe_s3_create_bucket(PG_FUNCTION_ARGS)
{
	char	   *bucket = ArgText(fcinfo, 0);
	S3Status	st = CreateBucket(bucket);

	if (st != S3_OK)
		Raise(st, bucket, NULL);
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(hroe_s3_delete_bucket);
Datum
hroe_s3_delete_bucket(PG_FUNCTION_ARGS)
{
	char	   *bucket = ArgText(fcinfo, 0);
	S3Status	st = DeleteBucket(bucket);

	if (st != S3_OK)
		Raise(st, bucket, NULL);
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(hroe_s3_put_object);
Datum
hroe_s3_put_object(PG_FUNCTION_ARGS)
{
	char	   *bucket = ArgText(fcinfo, 0);
	char	   *key = ArgText(fcinfo, 1);
	bytea	   *body = PG_GETARG_BYTEA_PP(2);
	char		etag[33];
	S3Status	st = PutObject(bucket, key, VARDATA_ANY(body), VARSIZE_ANY_EXHDR(body), etag);

	if (st != S3_OK)
		Raise(st, bucket, key);
	PG_RETURN_TEXT_P(cstring_to_text(etag));
}

PG_FUNCTION_INFO_V1(hroe_s3_get_object);
Datum
hroe_s3_get_object(PG_FUNCTION_ARGS)
{
	char	   *bucket = ArgText(fcinfo, 0);
	char	   *key = ArgText(fcinfo, 1);
	size_t		n = 0;
	struct stat sb;
	S3Status	st;
	char	   *data = GetObject(bucket, key, &n, &sb, &st);
	bytea	   *out;

	if (st != S3_OK)
		Raise(st, bucket, key);
	out = palloc(VARHDRSZ + n);
	SET_VARSIZE(out, VARHDRSZ + n);
	memcpy(VARDATA(out), data, n);
	PG_RETURN_BYTEA_P(out);
}

PG_FUNCTION_INFO_V1(hroe_s3_delete_object);
Datum
hroe_s3_delete_object(PG_FUNCTION_ARGS)
{
	char	   *bucket = ArgText(fcinfo, 0);
	char	   *key = ArgText(fcinfo, 1);
	S3Status	st = DeleteObject(bucket, key);

	if (st != S3_OK && st != S3_INVALID_KEY)
		Raise(st, bucket, key);
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(hroe_s3_list_objects);
/* hroe.s3_list_objects(bucket, prefix): key, size, etag, last_modified */
Datum
hroe_s3_list_objects(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	char	   *bucket = ArgText(fcinfo, 0);
	char	   *prefix = PG_ARGISNULL(1) ? "" : ArgText(fcinfo, 1);
	S3Status	st = CheckRole(false);
	int			bfd;
	List	   *keys;
	ListCell   *lc;

	if (st != S3_OK)
		Raise(st, bucket, NULL);
	bfd = OpenBucket(bucket, &st);
	if (bfd < 0)
		Raise(st, bucket, NULL);
	InitMaterializedSRF(fcinfo, 0);
	keys = hroe_s3_list(bfd, prefix);
	foreach(lc, keys)
	{
		char	   *key = lfirst(lc);
		char	   *base;
		int			dfd;
		struct stat sb;
		char		etag[33];
		Datum		values[4];
		bool		nulls[4] = {0};

		if (strstr(key, "/" TMP_PREFIX) || strncmp(key, TMP_PREFIX, strlen(TMP_PREFIX)) == 0)
			continue;
		dfd = hroe_s3_open_key_dir(bfd, key, &base, HROE_S3_DIR_FIND);
		if (dfd < 0)
			continue;			/* gone meanwhile */
		if (fstatat(dfd, base, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(sb.st_mode) &&
			FileMd5(dfd, base, etag))
		{
			values[0] = CStringGetTextDatum(key);
			values[1] = Int64GetDatum((int64) sb.st_size);
			values[2] = CStringGetTextDatum(etag);
			values[3] = TimestampTzGetDatum(time_t_to_timestamptz(sb.st_mtime));
			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		}
		hroe_s3_fd_close(dfd);
	}
	hroe_s3_fd_close(bfd);
	return (Datum) 0;
}
