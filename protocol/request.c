/*-------------------------------------------------------------------------
 *
 * request.c
 *	  DynamoDB's JSON 1.0 protocol: one parsed HTTP request in, one response
 *	  out.
 *
 * The checks run in DynamoDB's order, as dynalite records it, so that a
 * request with several faults gets DynamoDB's answer:
 *
 *	1. GET (any path): the health text, 200.
 *	2. Not POST, or a body with a content type other than
 *	   application/x-amz-json-1.0 or application/json: 404
 *	   <UnknownOperationException/> (not JSON, as DynamoDB answers).
 *	   DynamoDB refuses application/x-amz-json-1.1 too.
 *	3. A body that is not JSON: SerializationException (no message).
 *	4. X-Amz-Target not DynamoDB_20120810.<a DynamoDB operation> nor
 *	   DynamoDBStreams_20120810.<a DynamoDB Streams operation> (the AWS
 *	   streams client sends those to the same endpoint):
 *	   UnknownOperationException (no message).
 *	5. The signature's form (sigv4.c); then, with the key's secret the
 *	   front end looked up, the key and the signature's value.
 *	6. An empty body: SerializationException.
 *	7. The call, which the front end runs.  DynamoDB operations hroe does
 *	   not implement reach hroe.dynamodb, which answers
 *	   UnknownOperationException.
 *
 * Steps 1 to 5's form are request_check(), the rest request_authenticate():
 * the front end calls them in order and does the lookup and the call
 * between and after them itself.
 *
 * The older API version DynamoDB_20111205 is refused (hroe implements the
 * 2012-08-10 API only).
 *
 * protocol/request.c
 *
 *-------------------------------------------------------------------------
 */
#include "request.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "ddb_types.h"
#include "json.h"
#include "sigv4.h"

#define API_PREFIX "DynamoDB_20120810."
#define STREAMS_PREFIX "DynamoDBStreams_20120810."

/* DynamoDB Streams' operations, passed on as they are named */
static const char *const streams_operations[] = {
	"DescribeStream", "GetRecords", "GetShardIterator", "ListStreams"
};

static bool known_operation(const char *op);

/* The operation a target names, or NULL if none hroe knows */
static const char *
target_operation(const char *target)
{
	if (target == NULL)
		return NULL;
	if (strncmp(target, STREAMS_PREFIX, strlen(STREAMS_PREFIX)) == 0)
	{
		for (size_t i = 0; i < sizeof(streams_operations) / sizeof(streams_operations[0]); i++)
			if (strcmp(target + strlen(STREAMS_PREFIX), streams_operations[i]) == 0)
				return target + strlen(STREAMS_PREFIX);
		return NULL;
	}
	if (strncmp(target, API_PREFIX, strlen(API_PREFIX)) != 0 ||
		strlen(target + strlen(API_PREFIX)) > OPERATION_MAX ||
		!known_operation(target + strlen(API_PREFIX)))
		return NULL;
	return target + strlen(API_PREFIX);
}

/* DynamoDB's operations (2012-08-10 API), sorted. */
static const char *const dynamodb_operations[] = {
	"BatchExecuteStatement", "BatchGetItem", "BatchWriteItem", "CreateBackup",
	"CreateGlobalTable", "CreateTable", "DeleteBackup", "DeleteItem",
	"DeleteResourcePolicy", "DeleteTable", "DescribeBackup",
	"DescribeContinuousBackups", "DescribeContributorInsights",
	"DescribeEndpoints", "DescribeExport", "DescribeGlobalTable",
	"DescribeGlobalTableSettings", "DescribeImport",
	"DescribeKinesisStreamingDestination", "DescribeLimits", "DescribeTable",
	"DescribeTableReplicaAutoScaling", "DescribeTimeToLive",
	"DisableKinesisStreamingDestination", "EnableKinesisStreamingDestination",
	"ExecuteStatement", "ExecuteTransaction", "ExportTableToPointInTime",
	"GetItem", "GetResourcePolicy", "ImportTable", "ListBackups",
	"ListContributorInsights", "ListExports", "ListGlobalTables", "ListImports",
	"ListTables", "ListTagsOfResource", "PutItem", "PutResourcePolicy", "Query",
	"RestoreTableFromBackup", "RestoreTableToPointInTime", "Scan", "SearchVectors",
	"TagResource",
	"TransactGetItems", "TransactWriteItems", "UntagResource",
	"UpdateContinuousBackups", "UpdateContributorInsights", "UpdateGlobalTable",
	"UpdateGlobalTableSettings", "UpdateItem", "UpdateKinesisStreamingDestination",
	"UpdateTable", "UpdateTableReplicaAutoScaling", "UpdateTimeToLive",
};

/* Value of the first header named name (case-insensitive), or NULL. */
const char *
request_header(const Request *req, const char *name)
{
	for (int i = 0; i < req->nheaders; i++)
		if (strcasecmp(req->headers[i].name, name) == 0)
			return req->headers[i].value;
	return NULL;
}

/* An empty response (status 500 until something is decided). */
void
response_init(Response *resp)
{
	memset(resp, 0, sizeof(*resp));
	resp->status = 500;
	buf_init(&resp->body);
}

/* Release the response's body. */
void
response_free(Response *resp)
{
	buf_free(&resp->body);
}

/* Fill resp with DynamoDB's error body {"__type", "message"?}. */
void
response_error(Response *resp, int status, const char *type, const char *message)
{
	const char *hash = strchr(type, '#');

	resp->status = status;
	resp->body.len = 0;
	resp->body.data[0] = '\0';
	buf_puts(&resp->body, "{\"__type\":");
	json_append_string(&resp->body, type);
	if (message)
	{
		buf_puts(&resp->body, ",\"message\":");
		json_append_string(&resp->body, message);
	}
	buf_putc(&resp->body, '}');
	snprintf(resp->error_type, sizeof(resp->error_type), "%s", hash ? hash + 1 : type);
}

/* Is the SQLSTATE the request's own fault (a 400, not the server's)? */
bool
response_request_fault(const char *state)
{
	static const char *const states[] = {"42501", "22P05", "22P02", "22021", "54001"};

	for (size_t i = 0; state && i < sizeof(states) / sizeof(states[0]); i++)
		if (strcmp(state, states[i]) == 0)
			return true;
	return false;
}

/*
 * An error hroe.dynamodb raised (not answered) as DynamoDB's response:
 *	42501 (insufficient privilege)	400 AccessDeniedException
 *	22P05 (a Unicode escape the engine refuses)	400 ValidationException
 *	22P02, 22021, 54001 (body that jsonb refuses)	400 SerializationException
 *	anything else					500 InternalServerError (false: the caller
 *									logs it), which the SDKs retry
 */
bool
response_sql_error(Response *resp, const char *state, const char *message,
				   const char *akid, const char *op)
{
	StrBuf		msg;
	bool		known = true;

	if (state == NULL)
		state = "";
	if (message == NULL)
		message = "";
	buf_init(&msg);
	if (strcmp(state, "42501") == 0)
	{
		buf_printf(&msg, "User: %s is not authorized to perform: dynamodb:%s (%s)", akid, op, message);
		response_error(resp, 400, DDB_TYPE_ACCESS_DENIED, msg.data);
	}
	else if (strcmp(state, "22P05") == 0)
	{
		buf_printf(&msg, "hroe cannot take this request: %s", message);
		response_error(resp, 400, DDB_TYPE_VALIDATION, msg.data);
	}
	else if (response_request_fault(state))
		response_error(resp, 400, DDB_TYPE_SERIALIZATION, NULL);
	else
	{
		response_error(resp, 500, DDB_TYPE_INTERNAL, "Internal server error");
		known = false;
	}
	buf_free(&msg);
	return known;
}

/*
 * The status and error type of an answered body.  A body without "__type"
 * anywhere (memmem, not a parse) is a success, which spares a scan of every
 * large Query or Scan answer.
 */
void
response_classify(Response *resp, const char *body, size_t len)
{
	char		type[128];

	if (memmem(body, len, "\"__type\"", 8) != NULL &&
		json_top_string(body, len, "__type", type, sizeof(type)))
	{
		const char *hash = strchr(type, '#');

		resp->status = strstr(type, "InternalServerError") ? 500 : 400;
		snprintf(resp->error_type, sizeof(resp->error_type), "%s", hash ? hash + 1 : type);
	}
	else
		resp->status = 200;
}

/* The media type of a Content-Type value, without parameters, into out. */
static void
media_type(const char *value, char *out, size_t size)
{
	size_t		n;

	while (value && (*value == ' ' || *value == '\t'))
		value++;
	n = value ? strcspn(value, "; \t") : 0;
	snprintf(out, size, "%.*s", (int) (n < size ? n : size - 1), value ? value : "");
}

/* Is op one of DynamoDB's operations? */
static bool
known_operation(const char *op)
{
	size_t		lo = 0,
				hi = sizeof(dynamodb_operations) / sizeof(dynamodb_operations[0]);

	while (lo < hi)
	{
		size_t		mid = (lo + hi) / 2;
		int			c = strcmp(op, dynamodb_operations[mid]);

		if (c == 0)
			return true;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return false;
}

/* The checks that need no secret (request.h); false: resp is the answer. */
bool
request_check(const Request *req, const char *region, Response *resp, SigV4Auth *auth)
{
	char		ctype[64];
	const char *target;

	/* 1. the health check */
	if (strcmp(req->method, "GET") == 0)
	{
		resp->status = 200;
		resp->content_type = "text/plain";
		/* DynamoDB's text, trailing space included */
		buf_printf(&resp->body, "healthy: dynamodb.%s.amazonaws.com ", region);
		return false;
	}

	/* 2. method and content type */
	media_type(request_header(req, "Content-Type"), ctype, sizeof(ctype));
	if (strcmp(req->method, "POST") != 0 ||
		(req->body_len > 0 && strcasecmp(ctype, "application/x-amz-json-1.0") != 0 &&
		 strcasecmp(ctype, "application/json") != 0))
	{
		resp->status = 404;
		resp->content_type = "application/xml";
		buf_puts(&resp->body, "<UnknownOperationException/>\n");
		snprintf(resp->error_type, sizeof(resp->error_type), "UnknownOperationException");
		return false;
	}
	resp->content_type = strcasecmp(ctype, "application/json") == 0 ?
		"application/json" : "application/x-amz-json-1.0";

	/* 3. the body is JSON */
	if (req->body_len > 0 && !json_validate(req->body, req->body_len))
	{
		response_error(resp, 400, DDB_TYPE_SERIALIZATION, NULL);
		return false;
	}

	/* 4. the target */
	target = target_operation(request_header(req, "X-Amz-Target"));
	if (target == NULL)
	{
		response_error(resp, 400, DDB_TYPE_UNKNOWN_OPERATION, NULL);
		return false;
	}
	snprintf(resp->operation, sizeof(resp->operation), "%s", target);

	/* 5. the signature's form; its key's secret is the front end's to find */
	if (!sigv4_parse(req, auth, resp))
		return false;
	snprintf(resp->access_key_id, sizeof(resp->access_key_id), "%s", auth->access_key_id);
	return true;
}

/* The checks with the key's secret (request.h); false: resp is the answer. */
bool
request_authenticate(const Request *req, const SigV4Auth *auth, const char *secret,
					 bool found, Response *resp)
{
	/* 5. the key and the signature's value */
	if (!found)
	{
		response_error(resp, 400, DDB_TYPE_UNRECOGNIZED_CLIENT, DDB_MSG_UNRECOGNIZED_CLIENT);
		return false;
	}
	if (!sigv4_verify(req, auth, secret))
	{
		response_error(resp, 400, DDB_TYPE_INVALID_SIGNATURE,
					   "The request signature we calculated does not match the signature you provided. "
					   "Check your AWS Secret Access Key and signing method. "
					   "Consult the service documentation for details.");
		return false;
	}
	/* temporary credentials are not issued by hroe */
	if (request_header(req, "X-Amz-Security-Token") != NULL)
	{
		response_error(resp, 400, DDB_TYPE_UNRECOGNIZED_CLIENT,
					   "The security token included in the request is invalid");
		return false;
	}

	/* 6. an empty body */
	if (req->body_len == 0)
	{
		response_error(resp, 400, DDB_TYPE_SERIALIZATION, NULL);
		return false;
	}

	/* 7. the call is the front end's */
	return true;
}

/* Is host (len bytes) a host name or address, with an optional port? */
static bool
valid_host(const char *host, size_t len)
{
	size_t		i = 0;
	size_t		port;

	if (len == 0 || len > DDB_ENDPOINT_ADDRESS_MAX)
		return false;
	if (host[0] == '[')
	{
		/* an IPv6 literal: hex digits, colons, dots, up to ']' */
		for (i = 1; i < len && host[i] != ']'; i++)
			if (!strchr("0123456789abcdefABCDEF:.", host[i]))
				return false;
		if (i >= len || i == 1)
			return false;
		i++;
	}
	else
	{
		for (; i < len && host[i] != ':'; i++)
			if (!((host[i] >= 'a' && host[i] <= 'z') || (host[i] >= 'A' && host[i] <= 'Z') ||
				  (host[i] >= '0' && host[i] <= '9') || host[i] == '.' || host[i] == '-'))
				return false;
		if (i == 0)
			return false;
	}
	if (i == len)
		return true;
	/* the port: ':' and 1 to 5 digits */
	if (host[i] != ':')
		return false;
	port = ++i;
	for (; i < len; i++)
		if (host[i] < '0' || host[i] > '9')
			return false;
	return len - port >= 1 && len - port <= 5;
}

/* The address a client reached (request.h) */
void
request_endpoint_address(const Request *req, const char *region, char *out, size_t size)
{
	const char *host = request_header(req, "Host");

	if (host != NULL && valid_host(host, strlen(host)))
		snprintf(out, size, "%s", host);
	else
		snprintf(out, size, "dynamodb.%s.amazonaws.com", region);
}

/* Answer an operation that needs no database (request.h) */
bool
request_local_answer(const Request *req, const char *region, Response *resp)
{
	char		address[DDB_ENDPOINT_ADDRESS_MAX + 64];

	if (strcmp(resp->operation, "DescribeEndpoints") != 0)
		return false;
	request_endpoint_address(req, region, address, sizeof(address));
	resp->status = 200;
	resp->body.len = 0;
	resp->body.data[0] = '\0';
	buf_puts(&resp->body, "{\"Endpoints\":[{\"Address\":");
	json_append_string(&resp->body, address);
	buf_printf(&resp->body, ",\"CachePeriodInMinutes\":%d}]}", DDB_ENDPOINT_CACHE_MINUTES);
	return true;
}
