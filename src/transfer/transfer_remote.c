/*-------------------------------------------------------------------------
 *
 * transfer_remote.c
 *	  Exports to and imports from an S3-compatible endpoint (hroe.s3_endpoint)
 *	  with libcurl: path-style URLs, requests signed by libcurl's own SigV4
 *	  (CURLOPT_AWS_SIGV4, "aws:amz:REGION:s3"), the payload's SHA-256 sent
 *	  and signed (x-amz-content-sha256).
 *
 * An object is uploaded in parts of HROE_S3_PART_SIZE held in memory: an
 * object no larger is one PutObject, a larger one a multipart upload
 * (CreateMultipartUpload, UploadPart, CompleteMultipartUpload; aborted
 * when the export fails), so an export's data file of any size streams
 * out with bounded memory; each part is streamed to libcurl by its read
 * callback.  An import reads an object in ranges of HROE_S3_PART_SIZE
 * (GetObject with Range), lists with ListObjectsV2 (its XML read by
 * PostgreSQL's XMLTABLE).
 *
 * Never hangs: every request has a connect timeout and a low-speed limit
 * (hroe.s3_timeout seconds without a byte aborts it), and libcurl's
 * progress callback aborts it when the backend is asked to cancel or die
 * (the interrupt is then served after libcurl returned).  No callback
 * raises an error: errors are reported after the handle was cleaned up.
 *
 * Credentials are read from the file hroe.s3_credentials_file names (as
 * ssl_key_file, relative to the data directory; the AWS CLI's
 * credentials format), never from a setting, so neither SHOW nor the log
 * ever shows them.
 *
 * src/transfer/transfer_remote.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/stat.h>

#include <curl/curl.h>

#include "executor/spi.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "sigv4.h"
#include "transfer.h"

char	   *hroe_s3_endpoint = NULL;
char	   *hroe_s3_region = NULL;
char	   *hroe_s3_credentials_file = NULL;
int			hroe_s3_timeout = 60;

/* the endpoint's S3 error code of the last failed request ("AccessDenied"), for FailureCode */
char		hroe_s3_last_error_code[64];

bool
hroe_s3_remote(void)
{
	return hroe_s3_endpoint != NULL && hroe_s3_endpoint[0] != '\0';
}

/* ---------- credentials ---------- */

static char *
Trim(char *s)
{
	char	   *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n'))
		*--e = '\0';
	return s;
}

/* "KEY:SECRET" for CURLOPT_USERPWD, from hroe.s3_credentials_file */
static char *
Credentials(void)
{
	const char *path = hroe_s3_credentials_file;
	FILE	   *f;
	struct stat st;
	char		buf[1024];
	char	   *key = NULL;
	char	   *secret = NULL;

	if (path == NULL || path[0] == '\0')
		ereport(ERROR,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("hroe.s3_endpoint needs hroe.s3_credentials_file"),
				 errhint("Name a file of the server holding aws_access_key_id and aws_secret_access_key.")));
	f = AllocateFile(path, "r");
	if (f == NULL)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open hroe.s3_credentials_file \"%s\": %m", path)));
	if (fstat(fileno(f), &st) < 0 || !S_ISREG(st.st_mode) || (st.st_mode & S_IRWXO) != 0)
	{
		FreeFile(f);
		ereport(ERROR,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("hroe.s3_credentials_file \"%s\" must be a regular file without access for others", path),
				 errhint("chmod 0600 it, owned by the database server's user.")));
	}
	while (fgets(buf, sizeof(buf), f) != NULL)
	{
		char	   *line = Trim(buf);
		char	   *eq = strchr(line, '=');
		char	   *name;

		if (eq == NULL || line[0] == '#' || line[0] == ';' || line[0] == '[')
			continue;
		*eq = '\0';
		name = Trim(line);
		if (pg_strcasecmp(name, "aws_access_key_id") == 0 && key == NULL)
			key = pstrdup(Trim(eq + 1));
		else if (pg_strcasecmp(name, "aws_secret_access_key") == 0 && secret == NULL)
			secret = pstrdup(Trim(eq + 1));
	}
	FreeFile(f);
	if (key == NULL || secret == NULL || key[0] == '\0' || strchr(key, ':') != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("hroe.s3_credentials_file \"%s\" holds no aws_access_key_id and aws_secret_access_key", path)));
	return psprintf("%s:%s", key, secret);
}

/* ---------- one request ---------- */

typedef struct
{
	const char *data;
	size_t		len;
	size_t		pos;
} Source;

typedef struct
{
	char	   *buf;			/* the body received (up to cap) */
	size_t		len;
	size_t		cap;
	bool		over;			/* more than cap came */
	char		etag[128];
	int64		total;			/* Content-Range's total, or -1 */
} Sink;

typedef struct
{
	CURLcode	rc;
	long		status;
	char		curl_error[CURL_ERROR_SIZE];
	Sink		in;
} Reply;

static size_t
ReadCb(char *out, size_t size, size_t n, void *arg)
{
	Source	   *s = arg;
	size_t		k = Min(size * n, s->len - s->pos);

	memcpy(out, s->data + s->pos, k);
	s->pos += k;
	return k;
}

static size_t
WriteCb(char *p, size_t size, size_t n, void *arg)
{
	Sink	   *s = arg;
	size_t		k = size * n;

	if (s->len + k > s->cap)
	{
		s->over = true;
		return 0;				/* (libcurl aborts: CURLE_WRITE_ERROR) */
	}
	memcpy(s->buf + s->len, p, k);
	s->len += k;
	return k;
}

static size_t
HeaderCb(char *p, size_t size, size_t n, void *arg)
{
	Sink	   *s = arg;
	size_t		k = size * n;

	if (k > 5 && pg_strncasecmp(p, "ETag:", 5) == 0)
	{
		size_t		m = Min(k - 5, sizeof(s->etag) - 1);

		memcpy(s->etag, p + 5, m);
		s->etag[m] = '\0';
		strlcpy(s->etag, Trim(s->etag), sizeof(s->etag));
	}
	else if (k > 14 && pg_strncasecmp(p, "Content-Range:", 14) == 0)
	{
		const char *slash = memchr(p, '/', k);

		if (slash != NULL && slash[1] >= '0' && slash[1] <= '9')
			s->total = strtoll(slash + 1, NULL, 10);
	}
	return k;
}

/* Abort the transfer when the backend is asked to cancel or to exit */
static int
ProgressCb(void *arg, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow)
{
	return (InterruptPending && (QueryCancelPending || ProcDiePending)) ? 1 : 0;
}

/*
 * One request: METHOD endpoint/bucket/key?query (query already in S3's
 * canonical order and encoding), with body data (len), the answer's body
 * kept up to cap bytes (in r->in.buf), a Range from range_from when
 * range_len > 0.  Fills r; raises nothing but libcurl's setup failures.
 */
static void
Perform(const char *method, const char *bucket, const char *key, const char *query,
		const char *data, size_t len, int64 range_from, size_t range_len, size_t cap, Reply *r)
{
	CURL	   *c;
	struct curl_slist *headers = NULL;
	StringInfoData url;
	StringInfoData h;
	char		sha[65];
	char	   *sigv4;
	char	   *userpwd = Credentials();
	Source		src = {data, len, 0};
	size_t		elen = strlen(hroe_s3_endpoint);

	memset(r, 0, sizeof(*r));
	r->in.cap = cap;
	r->in.buf = palloc(cap + 1);
	r->in.total = -1;
	initStringInfo(&url);
	appendBinaryStringInfo(&url, hroe_s3_endpoint, hroe_s3_endpoint[elen - 1] == '/' ? elen - 1 : elen);
	appendStringInfoChar(&url, '/');
	hroe_append_uri_encoded(&url, bucket, false);
	appendStringInfoChar(&url, '/');
	if (key)
		hroe_append_uri_encoded(&url, key, true);
	if (query)
		appendStringInfo(&url, "?%s", query);
	sigv4 = psprintf("aws:amz:%s:s3", hroe_s3_region && hroe_s3_region[0] ? hroe_s3_region : "us-east-1");
	sigv4_sha256_hex(data ? data : "", data ? len : 0, sha);
	initStringInfo(&h);

	c = curl_easy_init();
	if (c == NULL)
		elog(ERROR, "curl_easy_init failed");
	appendStringInfo(&h, "x-amz-content-sha256: %s", sha);
	headers = curl_slist_append(headers, h.data);
	if (range_len > 0)
	{
		resetStringInfo(&h);
		appendStringInfo(&h, "Range: bytes=" INT64_FORMAT "-" INT64_FORMAT, range_from,
						 range_from + (int64) range_len - 1);
		headers = curl_slist_append(headers, h.data);
	}
	/* (no "Expect: 100-continue" round trip) */
	headers = curl_slist_append(headers, "Expect:");
	if (strcmp(method, "PUT") == 0 || strcmp(method, "POST") == 0)
		headers = curl_slist_append(headers, "Content-Type: application/octet-stream");
	curl_easy_setopt(c, CURLOPT_URL, url.data);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_AWS_SIGV4, sigv4);
	curl_easy_setopt(c, CURLOPT_USERPWD, userpwd);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, r->curl_error);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, (long) hroe_s3_timeout);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, (long) hroe_s3_timeout);
	curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, ProgressCb);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, WriteCb);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &r->in);
	curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, HeaderCb);
	curl_easy_setopt(c, CURLOPT_HEADERDATA, &r->in);
	if (strcmp(method, "PUT") == 0)
	{
		curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
		curl_easy_setopt(c, CURLOPT_READFUNCTION, ReadCb);
		curl_easy_setopt(c, CURLOPT_READDATA, &src);
		curl_easy_setopt(c, CURLOPT_INFILESIZE_LARGE, (curl_off_t) len);
	}
	else if (strcmp(method, "POST") == 0)
	{
		curl_easy_setopt(c, CURLOPT_POST, 1L);
		curl_easy_setopt(c, CURLOPT_READFUNCTION, ReadCb);
		curl_easy_setopt(c, CURLOPT_READDATA, &src);
		curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t) len);
	}
	else if (strcmp(method, "HEAD") == 0)
		curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
	else if (strcmp(method, "GET") != 0)
		curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);

	r->rc = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r->status);
	curl_easy_cleanup(c);
	curl_slist_free_all(headers);
	memset(userpwd, 0, strlen(userpwd));
	pfree(userpwd);
	pfree(url.data);
	pfree(h.data);
	pfree(sigv4);
	r->in.buf[r->in.len] = '\0';
	/* (a request aborted for an interrupt: served now) */
	CHECK_FOR_INTERRUPTS();
}

/* The text of element name in xml (an error document's Code, Message), or NULL */
static char *
XmlElement(const char *xml, const char *name)
{
	char	   *open = psprintf("<%s>", name);
	char	   *close = psprintf("</%s>", name);
	const char *a = strstr(xml, open);
	const char *b;

	if (a == NULL)
		return NULL;
	a += strlen(open);
	b = strstr(a, close);
	if (b == NULL)
		return NULL;
	return pnstrdup(a, Min(b - a, 512));
}

/* Raise the request's failure (after Perform), if it failed */
static void
Check(const char *what, const char *bucket, const char *key, Reply *r)
{
	char	   *code;
	char	   *message;

	if (r->rc == CURLE_OK && r->status >= 200 && r->status < 300)
		return;
	if (r->rc != CURLE_OK && !(r->rc == CURLE_WRITE_ERROR && r->in.over))
	{
		strlcpy(hroe_s3_last_error_code, "S3EndpointUnreachable", sizeof(hroe_s3_last_error_code));
		ereport(ERROR,
				(errcode(ERRCODE_CONNECTION_FAILURE),
				 errmsg("S3 %s of s3://%s/%s failed: %s", what, bucket, key ? key : "",
						r->curl_error[0] ? r->curl_error : curl_easy_strerror(r->rc)),
				 errdetail("The endpoint is hroe.s3_endpoint, \"%s\".", hroe_s3_endpoint)));
	}
	if (r->in.over)
		ereport(ERROR,
				(errcode(ERRCODE_PROTOCOL_VIOLATION),
				 errmsg("S3 %s of s3://%s/%s: the endpoint's answer is longer than %zu bytes",
						what, bucket, key ? key : "", r->in.cap),
				 errhint("The endpoint must answer GetObject's Range requests.")));
	code = XmlElement(r->in.buf, "Code");
	message = XmlElement(r->in.buf, "Message");
	snprintf(hroe_s3_last_error_code, sizeof(hroe_s3_last_error_code), "S3%s",
			 code ? code : "Error");
	ereport(ERROR,
			(errcode(r->status == 403 ? ERRCODE_INSUFFICIENT_PRIVILEGE :
					 r->status == 404 ? ERRCODE_UNDEFINED_OBJECT : ERRCODE_EXTERNAL_ROUTINE_EXCEPTION),
			 errmsg("S3 %s of s3://%s/%s failed: %ld %s%s%s", what, bucket, key ? key : "", r->status,
					code ? code : "", message ? ": " : "", message ? message : "")));
}

/* ---------- uploading ---------- */

struct HroeS3Upload
{
	char	   *bucket;
	char	   *key;
	char	   *buf;			/* the part being filled */
	size_t		len;
	char	   *upload_id;		/* a multipart upload's, once begun */
	StringInfoData parts;		/* CompleteMultipartUpload's <Part>s */
	int			nparts;
	MemoryContext cxt;
};

HroeS3Upload *
hroe_s3_upload_begin(const char *bucket, const char *key)
{
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext, "hroe S3 upload", ALLOCSET_DEFAULT_SIZES);
	HroeS3Upload *u = MemoryContextAllocZero(cxt, sizeof(HroeS3Upload));

	u->cxt = cxt;
	u->bucket = MemoryContextStrdup(cxt, bucket);
	u->key = MemoryContextStrdup(cxt, key);
	u->buf = MemoryContextAllocHuge(cxt, HROE_S3_PART_SIZE);
	return u;
}

/* Send the part held (a multipart upload begun first) */
static void
SendPart(HroeS3Upload *u)
{
	Reply		r;
	char	   *q;
	MemoryContext old = MemoryContextSwitchTo(u->cxt);

	if (u->upload_id == NULL)
	{
		Perform("POST", u->bucket, u->key, "uploads=", "", 0, 0, 0, 1024 * 1024, &r);
		Check("CreateMultipartUpload", u->bucket, u->key, &r);
		u->upload_id = XmlElement(r.in.buf, "UploadId");
		if (u->upload_id == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_PROTOCOL_VIOLATION),
					 errmsg("S3 CreateMultipartUpload of s3://%s/%s answered no UploadId", u->bucket, u->key)));
		initStringInfo(&u->parts);
	}
	if (u->nparts >= 10000)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("S3 object s3://%s/%s would need more than 10000 parts", u->bucket, u->key)));
	u->nparts++;
	{
		StringInfoData qs;

		initStringInfo(&qs);
		appendStringInfo(&qs, "partNumber=%d&uploadId=", u->nparts);
		hroe_append_uri_encoded(&qs, u->upload_id, false);
		q = qs.data;
	}
	Perform("PUT", u->bucket, u->key, q, u->buf, u->len, 0, 0, 64 * 1024, &r);
	Check("UploadPart", u->bucket, u->key, &r);
	appendStringInfo(&u->parts, "<Part><PartNumber>%d</PartNumber><ETag>%s</ETag></Part>",
					 u->nparts, r.in.etag);
	pfree(r.in.buf);
	pfree(q);
	u->len = 0;
	MemoryContextSwitchTo(old);
}

void
hroe_s3_upload_write(HroeS3Upload *u, const char *p, size_t n)
{
	while (n > 0)
	{
		size_t		k = Min(n, HROE_S3_PART_SIZE - u->len);

		memcpy(u->buf + u->len, p, k);
		u->len += k;
		p += k;
		n -= k;
		if (u->len == HROE_S3_PART_SIZE)
			SendPart(u);
	}
}

/* The object complete: one PutObject, or the multipart upload's last part and completion */
void
hroe_s3_upload_finish(HroeS3Upload *u)
{
	Reply		r;
	MemoryContext old = MemoryContextSwitchTo(u->cxt);

	if (u->upload_id == NULL)
	{
		Perform("PUT", u->bucket, u->key, NULL, u->buf, u->len, 0, 0, 64 * 1024, &r);
		Check("PutObject", u->bucket, u->key, &r);
	}
	else
	{
		StringInfoData body;
		StringInfoData qs;

		if (u->len > 0)
			SendPart(u);
		initStringInfo(&body);
		appendStringInfo(&body, "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">%s</CompleteMultipartUpload>",
						 u->parts.data);
		initStringInfo(&qs);
		appendStringInfoString(&qs, "uploadId=");
		hroe_append_uri_encoded(&qs, u->upload_id, false);
		Perform("POST", u->bucket, u->key, qs.data, body.data, body.len, 0, 0, 1024 * 1024, &r);
		Check("CompleteMultipartUpload", u->bucket, u->key, &r);
		/* (S3 may answer 200 with an error document) */
		if (strstr(r.in.buf, "<Error>") != NULL)
		{
			r.status = 500;
			Check("CompleteMultipartUpload", u->bucket, u->key, &r);
		}
	}
	MemoryContextSwitchTo(old);
	MemoryContextDelete(u->cxt);
}

/* ---------- downloading ---------- */

/*
 * Up to len bytes of the object from offset into buf: the bytes read
 * (0 at its end); *total the object's size when the endpoint said it
 */
size_t
hroe_s3_get_range(const char *bucket, const char *key, int64 offset, char *buf, size_t len, int64 *total)
{
	Reply		r;

	Perform("GET", bucket, key, NULL, NULL, 0, offset, len, len, &r);
	/* (a range past the end: 416; an empty object answers so to bytes=0-) */
	if (r.rc == CURLE_OK && r.status == 416)
	{
		*total = offset;
		pfree(r.in.buf);
		return 0;
	}
	Check("GetObject", bucket, key, &r);
	if (r.status == 200)
	{
		/* (the whole object: the endpoint ignored Range) */
		if (offset > 0)
			ereport(ERROR,
					(errcode(ERRCODE_PROTOCOL_VIOLATION),
					 errmsg("S3 GetObject of s3://%s/%s: the endpoint ignored the Range", bucket, key)));
		*total = r.in.len;
	}
	else if (r.in.total >= 0)
		*total = r.in.total;
	memcpy(buf, r.in.buf, r.in.len);
	pfree(r.in.buf);
	return r.in.len;
}

/* ---------- listing ---------- */

/* (XMLTABLE is syntax, not a name to qualify) */
#define LIST_XPATH(e) "'/*[local-name()=\"ListBucketResult\"]" e "'"

/* The keys under prefix, in S3's order (byte order), at most HROE_IMPORT_FILES_MAX */
List *
hroe_s3_remote_list(const char *bucket, const char *prefix)
{
	MemoryContext caller = CurrentMemoryContext;
	List	   *keys = NIL;
	char	   *token = NULL;
	SPIPlanPtr	plan_keys;
	SPIPlanPtr	plan_next;
	Oid			type = TEXTOID;

	SPI_connect();
	plan_keys = SPI_prepare("SELECT k FROM XMLTABLE(" LIST_XPATH("/*[local-name()=\"Contents\"]")
							" PASSING ($1::pg_catalog.xml) COLUMNS k pg_catalog.text PATH '*[local-name()=\"Key\"]')",
							1, &type);
	plan_next = SPI_prepare("SELECT t FROM XMLTABLE(" LIST_XPATH("")
							" PASSING ($1::pg_catalog.xml) COLUMNS t pg_catalog.text PATH '*[local-name()=\"NextContinuationToken\"]',"
							" more pg_catalog.text PATH '*[local-name()=\"IsTruncated\"]')"
							" WHERE more OPERATOR(pg_catalog.=) 'true'",
							1, &type);
	if (plan_keys == NULL || plan_next == NULL)
		elog(ERROR, "preparing the listing's XMLTABLE failed: %s", SPI_result_code_string(SPI_result));
	for (;;)
	{
		StringInfoData qs;
		Reply		r;
		Datum		arg;

		CHECK_FOR_INTERRUPTS();
		initStringInfo(&qs);
		if (token)
		{
			appendStringInfoString(&qs, "continuation-token=");
			hroe_append_uri_encoded(&qs, token, false);
			appendStringInfoChar(&qs, '&');
		}
		appendStringInfoString(&qs, "list-type=2&prefix=");
		hroe_append_uri_encoded(&qs, prefix ? prefix : "", false);
		Perform("GET", bucket, NULL, qs.data, NULL, 0, 0, 0, 16 * 1024 * 1024, &r);
		Check("ListObjectsV2", bucket, prefix, &r);
		arg = CStringGetTextDatum(r.in.buf);
		if (SPI_execute_plan(plan_keys, &arg, NULL, true, 0) != SPI_OK_SELECT)
			elog(ERROR, "reading the listing failed");
		for (uint64 i = 0; i < SPI_processed; i++)
		{
			char	   *k = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1);

			/* (a "directory" placeholder key: no object to import) */
			if (k == NULL || k[0] == '\0' || k[strlen(k) - 1] == '/')
				continue;
			if (list_length(keys) >= HROE_IMPORT_FILES_MAX)
				ereport(ERROR,
						(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
						 errmsg("more than %d files under S3 key prefix \"%s\"", HROE_IMPORT_FILES_MAX, prefix)));
			{
				MemoryContext o = MemoryContextSwitchTo(caller);

				keys = lappend(keys, pstrdup(k));
				MemoryContextSwitchTo(o);
			}
		}
		if (SPI_execute_plan(plan_next, &arg, NULL, true, 0) != SPI_OK_SELECT)
			elog(ERROR, "reading the listing failed");
		token = SPI_processed > 0 ? SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1) : NULL;
		pfree(r.in.buf);
		if (token == NULL || token[0] == '\0')
			break;
	}
	SPI_finish();
	return keys;
}
