--
-- Patterns gallery: one-to-many with a composite primary key + Query, and
-- with a secondary index + Query (seed 004, strategies 3 and 4).
--
-- Organizations sign up for a SaaS product; Users belong to an Organization;
-- each User files Tickets.
-- A. Composite primary key: an Organization and its Users share a partition
--    key (ORG#<name>), so one Query reads the item collection: the org and
--    all its users, or only the users with begins_with(SK, 'USER#').  Use it
--    when the parent and its children are read together.
-- B. Secondary index: Tickets would crowd the organization's partition, so
--    they get their own primary key and meet their User in GSI1 instead.  Use
--    it when the table's primary key is needed for something else, or when a
--    second level of children must not be read with the first.
--
\set VERBOSITY terse

-- | Entity       | PK                 | SK                  | GSI1PK                         | GSI1SK              |
-- | Organization | ORG#<OrgName>      | METADATA#<OrgName>  |                                |                     |
-- | User         | ORG#<OrgName>      | USER#<UserName>     | ORG#<OrgName>#USER#<UserName>  | USER#<UserName>     |
-- | Ticket       | TICKET#<TicketId>  | TICKET#<TicketId>   | ORG#<OrgName>#USER#<UserName>  | TICKET#<TicketId>   |
SELECT hroe.create_table('ex_saas', 'PK', 'S', 'SK', 'S');
SELECT hroe.create_index('ex_saas', 'GSI1', '{GSI1PK}', '{GSI1SK}', '{"GSI1PK": "S", "GSI1SK": "S"}');

-- The seed's five items: two organizations, three users.
SELECT hroe.batch_write_item(jsonb_build_object('ex_saas', jsonb_agg(
		jsonb_build_object('PutRequest', jsonb_build_object('Item', hroe.item_from_document(d)::jsonb)))),
	'INDEXES') AS response
FROM (VALUES
	('{"PK": "ORG#MICROSOFT", "SK": "METADATA#MICROSOFT", "OrgName": "Microsoft", "SubscriptionLevel": "Pro"}'::jsonb),
	('{"PK": "ORG#MICROSOFT", "SK": "USER#BILLGATES", "UserName": "Bill Gates", "Email": "bgates@microsoft.com",
	   "GSI1PK": "ORG#MICROSOFT#USER#BILLGATES", "GSI1SK": "USER#BILLGATES"}'),
	('{"PK": "ORG#MICROSOFT", "SK": "USER#SATYANADELLA", "UserName": "Satya Nadella", "Email": "satya@microsoft.com",
	   "GSI1PK": "ORG#MICROSOFT#USER#SATYANADELLA", "GSI1SK": "USER#SATYANADELLA"}'),
	('{"PK": "ORG#AMAZON", "SK": "METADATA#AMAZON", "OrgName": "Amazon", "SubscriptionLevel": "Enterprise"}'),
	('{"PK": "ORG#AMAZON", "SK": "USER#JEFFBEZOS", "UserName": "Jeff Bezos", "Email": "jeff@amazon.com",
	   "GSI1PK": "ORG#AMAZON#USER#JEFFBEZOS", "GSI1SK": "USER#JEFFBEZOS"}')
) AS v(d);

--
-- A. Composite primary key + Query
--
-- Retrieve an Organization: GetItem on (ORG#<name>, METADATA#<name>).
SELECT hroe.item_get_text(o, 'OrgName') AS org, hroe.item_get_text(o, 'SubscriptionLevel') AS level
FROM hroe.get_item('ex_saas', '{"PK": {"S": "ORG#MICROSOFT"}, "SK": {"S": "METADATA#MICROSOFT"}}') o;

-- Retrieve an Organization and all its Users: one Query on the partition
-- key.  METADATA# sorts before USER#, so the parent comes first: a join done
-- at write time.
SELECT hroe.item_get_text(i, 'SK') AS sk,
       coalesce(hroe.item_get_text(i, 'OrgName'), hroe.item_get_text(i, 'UserName')) AS name
FROM hroe.query('ex_saas', 'PK = :o', '{":o": {"S": "ORG#MICROSOFT"}}') i;

-- Retrieve only the Users: begins_with on the sort key (an index range, see
-- the plan: begins_with becomes [prefix, successor of prefix)).
SELECT hroe.item_get_text(i, 'UserName') AS user_name, hroe.item_get_text(i, 'Email') AS email
FROM hroe.query('ex_saas', 'PK = :o AND begins_with(SK, :u)',
                '{":o": {"S": "ORG#MICROSOFT"}, ":u": {"S": "USER#"}}') i;
SELECT * FROM hroe.explain_query('ex_saas', 'PK = :o AND begins_with(SK, :u)',
                                 '{":o": {"S": "ORG#MICROSOFT"}, ":u": {"S": "USER#"}}');

-- Retrieve a specific User: GetItem on (ORG#<name>, USER#<username>).
SELECT hroe.item_get_text(u, 'Email') AS email
FROM hroe.get_item('ex_saas', '{"PK": {"S": "ORG#MICROSOFT"}, "SK": {"S": "USER#SATYANADELLA"}}') u;

--
-- B. Secondary index + Query: Tickets
--
-- 25 tickets of about 600 bytes for Bill Gates and 15 for Satya Nadella.
-- A ticket id is a timestamp plus a random suffix, so it sorts by time.
SELECT count(*) AS tickets_written FROM (
	SELECT hroe.put_item('ex_saas', hroe.item_from_document(jsonb_build_object(
		'PK', id, 'SK', id, 'Subject', 'Ticket ' || n || ' of ' || u,
		'Description', repeat('Steps to reproduce. ', 22),
		'GSI1PK', 'ORG#MICROSOFT#USER#' || u, 'GSI1SK', id)))
	FROM (SELECT u, n, 'TICKET#2025-03-' || lpad(n::text, 2, '0') || 'T09:00:00Z#' || left(md5(u || n), 4) AS id
	      FROM (VALUES ('BILLGATES', 25), ('SATYANADELLA', 15)) v(u, k), generate_series(1, k) n) t) w;

-- In GSI1 a User and its Tickets share a partition.  USER# sorts after
-- TICKET#, so a descending Query returns the User first, then the newest
-- Tickets: a User and their 3 latest tickets is ONE Query with Limit 4.
SELECT hroe.item_get_text(i, 'GSI1SK') AS gsi1sk,
       coalesce(hroe.item_get_text(i, 'UserName'), hroe.item_get_text(i, 'Subject')) AS what
FROM unnest((hroe.query_page('ex_saas', 'GSI1PK = :u', '{":u": {"S": "ORG#MICROSOFT#USER#BILLGATES"}}',
                             p_index_name => 'GSI1', p_scan_index_forward => false, p_limit => 4)).items) i;
-- The page stops at Limit, with the key to resume from (GSI keys + table
-- keys); it reads 4 entries, not the user's 26, and is charged to the index:
SELECT count, last_evaluated_key, consumed_capacity
FROM hroe.query_page('ex_saas', 'GSI1PK = :u', '{":u": {"S": "ORG#MICROSOFT#USER#BILLGATES"}}',
                     p_index_name => 'GSI1', p_scan_index_forward => false, p_limit => 4,
                     p_return_consumed_capacity => 'INDEXES');
-- A ticket by id is a GetItem; organizations have no GSI1 attributes, so
-- the sparse index holds only users and tickets.
SELECT hroe.item_get_text(t, 'Subject') AS subject
FROM hroe.get_item('ex_saas', '{"PK": {"S": "TICKET#2025-03-25T09:00:00Z#63d1"}, "SK": {"S": "TICKET#2025-03-25T09:00:00Z#63d1"}}') t;
SELECT count(*) AS gsi1_entries, count(*) FILTER (WHERE hroe.item_get_text(i, 'GSI1SK') LIKE 'USER#%') AS users
FROM hroe.scan('ex_saas', 'GSI1') i;

--
-- The trade-off: the same tickets interspersed in the organization's
-- partition (SK USER#<name>#TICKET#<id>), the design the seed warns about.
--
SELECT hroe.create_table('ex_saas_crowded', 'PK', 'S', 'SK', 'S');
SELECT count(*) AS items_copied FROM hroe.scan('ex_saas') i,
	hroe.put_item('ex_saas_crowded', CASE WHEN hroe.item_get_text(i, 'PK') LIKE 'TICKET#%'
		THEN hroe.item_merge(hroe.item_remove(i, 'GSI1PK', 'GSI1SK'), hroe.item_from_document(jsonb_build_object(
			'PK', 'ORG#MICROSOFT', 'SK', replace(hroe.item_get_text(i, 'GSI1PK'), 'ORG#MICROSOFT#', '') || '#' || hroe.item_get_text(i, 'SK'))))
		ELSE hroe.item_remove(i, 'GSI1PK', 'GSI1SK') END);
-- "The org and all its users" and "only the users", on both designs: the
-- crowded partition reads every ticket (ScannedCount) and pays for it,
-- and the caller must filter them out.  Strongly consistent reads: whole
-- 4 KB units.
SELECT t AS "table", q AS query, (p).count, (p).scanned_count,
       (p).consumed_capacity -> 'CapacityUnits' AS rcu, (p).last_evaluated_key IS NOT NULL AS more_pages
FROM (VALUES ('ex_saas'), ('ex_saas_crowded')) tb(t),
     (VALUES ('org and users', 'PK = :o', '{":o": {"S": "ORG#MICROSOFT"}}'::jsonb),
             ('only users', 'PK = :o AND begins_with(SK, :u)', '{":o": {"S": "ORG#MICROSOFT"}, ":u": {"S": "USER#"}}')) qs(q, kce, vals),
     LATERAL (SELECT hroe.query_page(t, kce, vals, p_consistent_read => true,
                                     p_return_consumed_capacity => 'TOTAL') AS p) s
ORDER BY 2 DESC, 1;

-- Clean up (the tests share one database)
SELECT hroe.delete_table('ex_saas'), hroe.delete_table('ex_saas_crowded');
