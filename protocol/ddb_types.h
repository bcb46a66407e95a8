/*-------------------------------------------------------------------------
 *
 * ddb_types.h
 *	  DynamoDB's error types: the "__type" of an error body, each written
 *	  once, for both front ends (protocol/, gateway/) and the extension's
 *	  error table (src/base/errors.c).
 *
 * DynamoDB's own exceptions carry the service's namespace; those of the AWS
 * service framework (authentication, serialization, validation, unknown
 * operations) carry coral's, as DynamoDB answers them
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html).
 * Plain C, no PostgreSQL header: a library of its own.
 *
 * protocol/ddb_types.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_DDB_TYPES_H
#define HROE_DDB_TYPES_H

/* DynamoDB's own exceptions: DDB_TYPE("ResourceNotFoundException") */
#define DDB_TYPE_PREFIX "com.amazonaws.dynamodb.v20120810#"
#define DDB_TYPE(name) DDB_TYPE_PREFIX name

/* the package of DynamoDB's model classes, as Java names an object in a message */
#define DDB_CLASS_PREFIX "com.amazonaws.dynamodb.v20120810."

/* the service framework's */
#define DDB_TYPE_VALIDATION "com.amazon.coral.validate#ValidationException"
#define DDB_TYPE_SERIALIZATION "com.amazon.coral.service#SerializationException"
#define DDB_TYPE_ACCESS_DENIED "com.amazon.coral.service#AccessDeniedException"
#define DDB_TYPE_UNKNOWN_OPERATION "com.amazon.coral.service#UnknownOperationException"
#define DDB_TYPE_UNRECOGNIZED_CLIENT "com.amazon.coral.service#UnrecognizedClientException"
#define DDB_TYPE_INVALID_SIGNATURE "com.amazon.coral.service#InvalidSignatureException"
#define DDB_TYPE_MISSING_TOKEN "com.amazon.coral.service#MissingAuthenticationTokenException"
#define DDB_TYPE_INCOMPLETE_SIGNATURE "com.amazon.coral.service#IncompleteSignatureException"

/* the service's answers of the front ends themselves */
#define DDB_TYPE_INTERNAL DDB_TYPE("InternalServerError")
#define DDB_TYPE_THROTTLING DDB_TYPE("ThrottlingException")

/* the text of an UnrecognizedClientException for an unknown or revoked key */
#define DDB_MSG_UNRECOGNIZED_CLIENT "The security token included in the request is invalid."

/*
 * DescribeEndpoints: how long a client may cache the address, in minutes
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeEndpoints.html)
 */
#define DDB_ENDPOINT_CACHE_MINUTES 1440
/* the longest Host value answered as the address (a DNS name's 253, a port) */
#define DDB_ENDPOINT_ADDRESS_MAX 262

#endif							/* HROE_DDB_TYPES_H */
