--
-- hroe.grid: the grid view of a table's item collections and of an index's
-- view of them, as aligned text and as HTML: the adjacency-list sample of
-- the grid-view seed (tenants, projects, issues, custom attributes), the
-- limit, the key prefix, a sparse GSI, a number-keyed GSI, a composite
-- partition key, a KEYS_ONLY projection, errors, a hostile search_path and
-- privileges.
--
\set VERBOSITY terse
SELECT hroe.create_table('grid_adj', 'PK', 'S', 'SK', 'S');
-- the GSI of the seed: Related Id (SK) and Data, sparse (items without Data)
SELECT hroe.create_index('grid_adj', 'byData', '{SK}', '{Data}', '{"Data": "S"}') IS NOT NULL;
-- a number partition key, keys only; a composite partition key
SELECT hroe.create_index('grid_adj', 'byNum', '{Num}', '{PK}', '{"Num": "N"}', 'KEYS_ONLY') IS NOT NULL;
SELECT hroe.create_index('grid_adj', 'byStateType', '{State, Type}', '{PK}', '{"State": "S", "Type": "S"}') IS NOT NULL;
SELECT count(*) FROM (
	SELECT hroe.put_item('grid_adj', hroe.item_from_document(d))
	FROM jsonb_array_elements('[
		{"PK": "tenant-0807", "SK": "*", "Name": "ACME Engineering", "type": "tenant"},
		{"PK": "tenant-3cc8", "SK": "*", "Name": "Big Media", "type": "tenant"},
		{"PK": "project-35e9", "SK": "tenant-0807", "Data": "Forth Rail Bridge", "type": "project"},
		{"PK": "project-35e9", "SK": "xattrib-35e6", "Name": "Num Items", "Num": 3, "Type": "int"},
		{"PK": "project-35e9", "SK": "xattrib-3812", "Name": "Start", "Num": 1, "Type": "date"},
		{"PK": "project-35e9", "SK": "xattrib-47e5", "Name": "Sign Off", "Num": 4, "Type": "text"},
		{"PK": "project-35e9", "SK": "xattrib-882a", "Name": "End", "Num": 2, "Type": "date"},
		{"PK": "project-7b7e", "SK": "tenant-3cc8", "Data": "The Daily News", "type": "project"},
		{"PK": "issue-020e", "SK": "project-35e9", "Data": "1", "Name": "Needs Painting", "State": "open", "Type": "bug"},
		{"PK": "issue-020e", "SK": "value-3812", "Data": "2023-05-01"},
		{"PK": "issue-020e", "SK": "value-882a", "Data": "2023-06-01"},
		{"PK": "issue-3544", "SK": "project-7b7e", "Data": "1", "Name": "Launch new newspaper!", "State": "closed", "Type": "task"},
		{"PK": "issue-67d1", "SK": "project-35e9", "Data": "2", "Name": "Check for rust", "State": "closed", "Type": "bug"},
		{"PK": "issue-67d1", "SK": "value-3812", "Data": "2023-05-02"},
		{"PK": "issue-67d1", "SK": "value-882a", "Data": "2023-06-02"},
		{"PK": "issue-83a4", "SK": "project-7b7e", "Data": "2", "Name": "Hire reporter for showbiz desk", "State": "open", "Type": "task"},
		{"PK": "issue-af34", "SK": "project-35e9", "Data": "3", "Name": "Girder needs replacing", "State": "open", "Type": "bug", "Tags": ["steel", "urgent"], "Done": false, "Note": null},
		{"PK": "issue-af34", "SK": "value-3fe6", "Data": "42"},
		{"PK": "issue-af34", "SK": "value-47e5", "Data": "Approved"}]'::jsonb) d) p;

-- the table: item collections in key order, the partition key once each
SELECT hroe.grid('grid_adj');
-- the limit: the first items, and that more follow
SELECT hroe.grid('grid_adj', p_max_items => 4);
-- the key prefix: the collections whose partition key begins with it
SELECT hroe.grid('grid_adj', NULL, 'project-');
SELECT hroe.grid('grid_adj', NULL, 'issue-6');
SELECT hroe.grid('grid_adj', NULL, 'nothing-');
-- the seed's GSI: the same items regrouped by SK and Data; the items
-- without Data (tenants, custom attribute definitions) are absent
SELECT hroe.grid('grid_adj', 'byData');
SELECT hroe.grid('grid_adj', 'byData', 'value-', 3);
-- a number partition key: the prefix is the number; KEYS_ONLY shows keys
SELECT hroe.grid('grid_adj', 'byNum');
SELECT hroe.grid('grid_adj', 'byNum', '2');
SELECT hroe.grid('grid_adj', 'byNum', '2.0');
-- a composite partition key (State, Type): collection after collection
SELECT hroe.grid('grid_adj', 'byStateType');
SELECT hroe.grid('grid_adj', 'byStateType', 'open', 2);
-- by PostgreSQL name
SELECT hroe.grid('public.grid_adj', p_max_items => 1) = hroe.grid('grid_adj', p_max_items => 1) AS same;

-- every type of value: B as base64, maps, lists and sets as DynamoDB JSON
SELECT hroe.put_item('grid_adj', '{"PK": {"S": "types"}, "SK": {"S": "all"}, "b": {"B": "AAE="}, "bool": {"BOOL": true},
	"l": {"L": [{"N": "1"}, {"S": "a"}]}, "m": {"M": {"a": {"N": "1"}}}, "n": {"N": "-1.5E+3"}, "nul": {"NULL": true},
	"ss": {"SS": ["x", "y"]}, "ns": {"NS": ["1", "2"]}, "bs": {"BS": ["AA=="]}}'::hroe.item);
SELECT hroe.grid('grid_adj', NULL, 'types');

-- HTML: a table, the partition key spanning its collection's rows, entity
-- types coloured in order of appearance, text escaped
SELECT hroe.put_item('grid_adj', hroe.item_from_document('{"PK": "<b>x&y</b>", "SK": "\"q\"", "v": "it''s <i>"}'));
SELECT hroe.grid('grid_adj', NULL, '<b>', 5, 'html');
SELECT hroe.grid('grid_adj', 'byData', 'project-7b7e', 5, 'html');
SELECT (SELECT count(*) FROM regexp_matches(hroe.grid('grid_adj', p_format => 'html'), '<tr data-type', 'g')) AS item_rows,
	   (SELECT count(*) FROM regexp_matches(hroe.grid('grid_adj', p_format => 'html'), '<th class="pk"', 'g')) AS collections;

-- errors
SELECT hroe.grid(NULL);
SELECT hroe.grid('no_such_table');
SELECT hroe.grid('grid_adj', 'noSuchIndex');
SELECT hroe.grid('grid_adj', p_max_items => 0);
SELECT hroe.grid('grid_adj', p_max_items => NULL);
SELECT hroe.grid('grid_adj', p_format => 'csv');
SELECT hroe.grid('grid_adj', 'byNum', 'abc');
SELECT hroe.create_table('grid_bin', 'id', 'B');
SELECT hroe.grid('grid_bin', NULL, 'AA==');
SELECT hroe.grid('grid_bin');

-- a hostile search_path changes nothing
CREATE SCHEMA grid_evil;
CREATE FUNCTION grid_evil.replace(text, text, text) RETURNS text LANGUAGE sql AS $$ SELECT 'evil' $$;
CREATE FUNCTION grid_evil.rpad(text, integer) RETURNS text LANGUAGE sql AS $$ SELECT 'evil' $$;
CREATE FUNCTION grid_evil.jsonb_array_elements(jsonb) RETURNS SETOF jsonb LANGUAGE sql AS $$ SELECT '"evil"'::jsonb $$;
SET search_path = grid_evil, pg_catalog, public;
SELECT hroe.grid('grid_adj', NULL, 'issue-3', 5);
SELECT position('evil' IN hroe.grid('grid_adj', NULL, 'issue-3', 5, 'html')) AS evil_at;
RESET search_path;

-- privileges: the caller's, as for a Query
CREATE ROLE grid_reader;
GRANT USAGE ON SCHEMA hroe TO grid_reader;
SET ROLE grid_reader;
SELECT hroe.grid('grid_adj');
RESET ROLE;
GRANT SELECT ON grid_adj TO grid_reader;
SET ROLE grid_reader;
SELECT hroe.grid('grid_adj', NULL, 'tenant-', 1);
RESET ROLE;
DROP OWNED BY grid_reader;
DROP ROLE grid_reader;
DROP SCHEMA grid_evil CASCADE;
SELECT hroe.delete_table('grid_adj');
SELECT hroe.delete_table('grid_bin');
