--
-- Patterns gallery: the generic adjacency list (seed 003, "DynamoDB database
-- grid view").
--
-- Pattern: every entity (tenants, projects, issues) lives in ONE table whose
-- items share three generic attributes: PK (the entity id), SK (a related id)
-- and Data (what the index sorts on).  Ids carry a type prefix (tenant-,
-- project-, issue-).  A row whose SK is another entity is an edge: a project
-- row (PK project-35e9, SK tenant-0807) says "this project belongs to that
-- tenant".  One GSI on (SK, Data) turns every edge around: "all the children
-- of X, sorted by Data".  User-defined fields are items too: an attribute
-- definition is an `xattrib-*` item on the project, each value a `value-*`
-- edge item on the issue, so "issues whose Start lies in a range" is an index
-- range as well.
--
-- Use it when: many entity types, one-to-many and many-to-many relations,
-- and user-defined attributes must all be read by key ranges, without joins.
--
\set VERBOSITY terse

-- 1. The table (PK, SK) and the inverted index byRelated (SK, Data).  Data
--    is an S attribute: a DynamoDB key attribute has ONE type per index.
SELECT hroe.create_table('ex_grid', 'PK', 'S', 'SK', 'S');
SELECT hroe.create_index('ex_grid', 'byRelated', '{SK}', '{Data}', '{"Data": "S"}');

-- 2. The seed's sample data, written with one BatchWriteItem (21 puts).
--    Data mixes names, issue numbers and dates.  S keys sort bytewise, so
--    numbers are zero-padded to a fixed width: issue numbers to 4 digits,
--    integer custom values to 10.  ISO dates already sort as strings.
--    Tenants and attribute definitions have no Data: the index is sparse and
--    they are not in it.  (Additions to the seed: project-4c1d, issue-b7c0
--    numbered 10 to show the padding at work; the seed's "value-3fe6" is
--    written value-35e6, the id of the Num Items definition it belongs to.)
--    Cost: 21 table writes of at most 1 KB (21 WCU) plus one write for each
--    of the 15 items that enter the sparse index = 36 WCU.
SELECT hroe.batch_write_item(jsonb_build_object('ex_grid', jsonb_agg(
		jsonb_build_object('PutRequest', jsonb_build_object('Item', hroe.item_from_document(d)::jsonb)))),
	'TOTAL') AS response
FROM (VALUES
	('{"PK": "tenant-0807",  "SK": "*",            "Name": "ACME Engineering"}'::jsonb),
	('{"PK": "tenant-3cc8",  "SK": "*",            "Name": "Big Media"}'),
	('{"PK": "project-35e9", "SK": "tenant-0807",  "Data": "Forth Rail Bridge"}'),
	('{"PK": "project-35e9", "SK": "xattrib-35e6", "Name": "Num Items", "Num": 3, "Type": "int"}'),
	('{"PK": "project-35e9", "SK": "xattrib-3812", "Name": "Start",     "Num": 1, "Type": "date"}'),
	('{"PK": "project-35e9", "SK": "xattrib-47e5", "Name": "Sign Off",  "Num": 4, "Type": "text"}'),
	('{"PK": "project-35e9", "SK": "xattrib-882a", "Name": "End",       "Num": 2, "Type": "date"}'),
	('{"PK": "project-4c1d", "SK": "tenant-0807",  "Data": "Clyde Tunnel"}'),
	('{"PK": "project-7b7e", "SK": "tenant-3cc8",  "Data": "The Daily News"}'),
	('{"PK": "issue-020e",   "SK": "project-35e9", "Data": "0001", "Name": "Needs Painting", "State": "open"}'),
	('{"PK": "issue-020e",   "SK": "value-3812",   "Data": "2023-05-01"}'),
	('{"PK": "issue-020e",   "SK": "value-882a",   "Data": "2023-06-01"}'),
	('{"PK": "issue-3544",   "SK": "project-7b7e", "Data": "0001", "Name": "Launch new newspaper!", "State": "closed"}'),
	('{"PK": "issue-67d1",   "SK": "project-35e9", "Data": "0002", "Name": "Check for rust", "State": "closed"}'),
	('{"PK": "issue-67d1",   "SK": "value-3812",   "Data": "2023-05-02"}'),
	('{"PK": "issue-67d1",   "SK": "value-882a",   "Data": "2023-06-02"}'),
	('{"PK": "issue-83a4",   "SK": "project-7b7e", "Data": "0002", "Name": "Hire reporter for showbiz desk", "State": "open"}'),
	('{"PK": "issue-af34",   "SK": "project-35e9", "Data": "0003", "Name": "Girder needs replacing", "State": "open"}'),
	('{"PK": "issue-af34",   "SK": "value-35e6",   "Data": "0000000042"}'),
	('{"PK": "issue-af34",   "SK": "value-47e5",   "Data": "Approved"}'),
	('{"PK": "issue-b7c0",   "SK": "project-35e9", "Data": "0010", "Name": "Repaint the signage", "State": "open"}')
) AS v(d);

-- Why the padding: as S keys, unpadded numbers sort as text does.
SELECT string_agg(k::text, ' ' ORDER BY k) AS unpadded,
       string_agg(lpad(k::text, 4, '0'), ' ' ORDER BY lpad(k::text, 4, '0')::hroe.key) AS padded
FROM unnest('{1, 2, 3, 10}'::hroe.key[]) k;
-- And why not an N-typed Data: the index key has one type, and DynamoDB
-- rejects the write of an item whose Data has another one.
SELECT hroe.put_item('ex_grid', '{"PK": {"S": "issue-dead"}, "SK": {"S": "project-35e9"}, "Data": {"N": "4"}}');

-- 3. The index, as the seed draws it: (Related Id, Data) -> Entity Id.
--    A Scan of a GSI reads it in key order.
SELECT hroe.item_get_text(i, 'SK') AS "Related Id (PK)", hroe.item_get_text(i, 'Data') AS "Data (SK)",
       hroe.item_get_text(i, 'PK') AS "Entity Id"
FROM hroe.scan('ex_grid', 'byRelated') i;

-- 4. A tenant's projects, sorted by name: Query the index on the tenant id.
SELECT hroe.item_get_text(i, 'Data') AS project_name, hroe.item_get_text(i, 'PK') AS project
FROM hroe.query('ex_grid', 'SK = :t', '{":t": {"S": "tenant-0807"}}', p_index_name => 'byRelated') i;

-- 5. A project's issues by number (newest first with ScanIndexForward false).
SELECT hroe.item_get_text(i, 'Data')::int AS num, hroe.item_get_text(i, 'PK') AS issue,
       hroe.item_get_text(i, 'Name') AS name, hroe.item_get_text(i, 'State') AS state
FROM hroe.query('ex_grid', 'SK = :p', '{":p": {"S": "project-35e9"}}', p_index_name => 'byRelated') i;
SELECT hroe.item_get_text(i, 'Data')::int AS num, hroe.item_get_text(i, 'PK') AS issue
FROM hroe.query('ex_grid', 'SK = :p', '{":p": {"S": "project-35e9"}}', p_index_name => 'byRelated',
                p_scan_index_forward => false) i;

-- 6. Issues whose custom "Start" date lies in a range.
--    a) The project's attribute definitions: one Query with begins_with.
SELECT hroe.item_get_text(i, 'SK') AS definition, hroe.item_get_text(i, 'Name') AS name,
       hroe.item_get_number(i, 'Num') AS position, hroe.item_get_text(i, 'Type') AS type
FROM hroe.query('ex_grid', 'PK = :p AND begins_with(SK, :x)',
                '{":p": {"S": "project-35e9"}, ":x": {"S": "xattrib-"}}') i;
--    b) "Start" is xattrib-3812, so its values are the edges value-3812:
--       one index range.  Data is a DynamoDB reserved word:
SELECT count(*) FROM hroe.query('ex_grid', 'SK = :v AND Data >= :a',
                '{":v": {"S": "value-3812"}, ":a": {"S": "2023-05-02"}}', p_index_name => 'byRelated');
--       so it is written through a name placeholder, #d:
SELECT hroe.item_get_text(i, 'PK') AS issue, hroe.item_get_text(i, 'Data') AS start
FROM hroe.query('ex_grid', 'SK = :v AND #d BETWEEN :a AND :b',
                '{":v": {"S": "value-3812"}, ":a": {"S": "2023-05-02"}, ":b": {"S": "2023-05-31"}}',
                '{"#d": "Data"}', 'byRelated') i;
--    The same two steps in one SQL statement, by attribute name:
SELECT hroe.item_get_text(v, 'PK') AS issue, hroe.item_get_text(v, 'Data') AS start
FROM hroe.query('ex_grid', 'PK = :p AND begins_with(SK, :x)',
                '{":p": {"S": "project-35e9"}, ":x": {"S": "xattrib-"}}') d,
     hroe.query('ex_grid', 'SK = :v AND #d BETWEEN :a AND :b',
                jsonb_build_object(':v', jsonb_build_object('S', 'value-' || substr(hroe.item_get_text(d, 'SK'), 9)),
                                   ':a', '{"S": "2023-01-01"}'::jsonb, ':b', '{"S": "2023-05-01"}'::jsonb),
                '{"#d": "Data"}', 'byRelated') v
WHERE hroe.item_get_text(d, 'Name') = 'Start';
--    It is an index range scan of the GSI's btree:
SELECT * FROM hroe.explain_query('ex_grid', 'SK = :v AND #d BETWEEN :a AND :b',
                '{":v": {"S": "value-3812"}, ":a": {"S": "2023-05-02"}, ":b": {"S": "2023-05-31"}}',
                '{"#d": "Data"}', 'byRelated');

-- 7. An issue with all its custom values in ONE Query: the issue's partition
--    holds the issue row (SK = its project) and its value-* edges.
SELECT hroe.item_get_text(i, 'SK') AS sk, hroe.item_get_text(i, 'Data') AS data,
       hroe.item_get_text(i, 'Name') AS name, hroe.item_get_text(i, 'State') AS state
FROM hroe.query('ex_grid', 'PK = :i', '{":i": {"S": "issue-020e"}}') i;
--    One call: three small items rounded up once to 4 KB = 1 read unit,
--    halved for an eventually consistent read:
SELECT count, last_evaluated_key, consumed_capacity
FROM hroe.query_page('ex_grid', 'PK = :i', '{":i": {"S": "issue-020e"}}', p_return_consumed_capacity => 'TOTAL');
--    Naming the values needs the project's definitions (a second Query,
--    cacheable: definitions change rarely):
SELECT hroe.item_get_text(d, 'Name') AS attribute, hroe.item_get_text(d, 'Type') AS type,
       CASE hroe.item_get_text(d, 'Type') WHEN 'int' THEN hroe.item_get_text(v, 'Data')::bigint::text
            ELSE hroe.item_get_text(v, 'Data') END AS value
FROM hroe.query('ex_grid', 'PK = :i AND begins_with(SK, :v)',
                '{":i": {"S": "issue-af34"}, ":v": {"S": "value-"}}') v
JOIN hroe.query('ex_grid', 'PK = :p AND begins_with(SK, :x)',
                '{":p": {"S": "project-35e9"}, ":x": {"S": "xattrib-"}}') d
  ON substr(hroe.item_get_text(d, 'SK'), 9) = substr(hroe.item_get_text(v, 'SK'), 7)
ORDER BY hroe.item_get_number(d, 'Num');

-- Clean up (the tests share one database)
SELECT hroe.delete_table('ex_grid');
