/*-------------------------------------------------------------------------
 *
 * policy.h
 *	  Resource-based policies (src/tables/policy.sql): their enforcement on
 *	  the JSON API's requests (tables_policy.c).
 *
 * A request's principal is an IAM user ARN,
 * arn:aws:iam::<hroe.account_id>:user/<name>: the name stored with the
 * access key the request came with (hroe.access_keys.principal_name, by
 * default its role's name), or, for a call of hroe.dynamodb in SQL, the
 * calling role's name.  hroe_policy_check refuses a request a policy
 * explicitly denies; a table without a policy costs a lookup in a
 * per-backend cache, invalidated when hroe.resource_policies changes.
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_POLICY_H
#define HROE_POLICY_H

/*
 * The IAM user name of the requests of this backend, NULL for the current
 * role's name: set by the front ends for one request (gateway_call.c)
 */
extern const char *hroe_policy_principal_name;

/*
 * Refuse (AccessDeniedException, DynamoDB's text) action (an IAM action
 * without its "dynamodb:" prefix) on table, its index (NULL: the table
 * itself) or its stream stream_label (NULL: none), if the resource's policy
 * explicitly denies it to the request's principal
 */
extern void hroe_policy_check(const char *action, const char *table, const char *index,
							  const char *stream_label);

#endif							/* HROE_POLICY_H */
