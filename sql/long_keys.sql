-- Keys at DynamoDB's maximum sizes: a 2048-byte partition key with a
-- 1024-byte sort key, random (incompressible: hex of MD5 chains, which pglz
-- cannot shrink), in the table and in a GSI, S and B.  A partition key over
-- 192 bytes is stored in its index form (a prefix, then its SHA-256: see
-- src/tables/tables.h, HROE_KEY_FORM_MAX), so the btree entries fit; every
-- operation finds the items by their keys, sort keys keep their order, and
-- the indexes agree with the heap (amcheck).  Keys are never printed: each
-- item carries a short tag.
CREATE EXTENSION amcheck;
-- len pseudo-random hex digits from seed
CREATE FUNCTION lk(seed text, len int) RETURNS text LANGUAGE sql IMMUTABLE
RETURN left((SELECT string_agg(md5(seed || ':' || i), '' ORDER BY i)
			 FROM generate_series(1, len / 32 + 1) i), len);
-- the partition keys: 2048 bytes; B starts with 'x' and 2-byte characters,
-- so the form's prefix is cut back to a character boundary
CREATE FUNCTION pkey(p text) RETURNS text LANGUAGE sql IMMUTABLE
RETURN CASE p WHEN 'A' THEN lk('A', 2048) ELSE 'x' || repeat('é', 120) || lk(p, 1807) END;
-- the sort keys: 1024 bytes, a 1000-byte common prefix, then n (3 digits)
CREATE FUNCTION skey(n int) RETURNS text LANGUAGE sql IMMUTABLE
RETURN lk('S', 1000) || lpad(n::text, 3, '0') || lk('t' || n, 21);
CREATE FUNCTION sval(s text) RETURNS jsonb LANGUAGE sql IMMUTABLE
RETURN jsonb_build_object('S', s);
-- the tags of items (SQL) or of DynamoDB JSON items (API), in order
CREATE FUNCTION tags(items hroe.item[]) RETURNS text LANGUAGE sql IMMUTABLE
RETURN (SELECT string_agg(hroe.item_get_text(i, 'tag'), ',' ORDER BY o) FROM unnest(items) WITH ORDINALITY u(i, o));
CREATE FUNCTION api_tags(items jsonb) RETURNS text LANGUAGE sql IMMUTABLE
RETURN (SELECT string_agg(i -> 'tag' ->> 'S', ',' ORDER BY o) FROM jsonb_array_elements(items) WITH ORDINALITY u(i, o));
-- every page of a Query (kce) or Scan (kce NULL) through hroe.query_page /
-- hroe.scan_page, Limit 2, each resumed at the last page's LastEvaluatedKey
CREATE FUNCTION sql_pages(t text, kce text, vals jsonb, idx text DEFAULT NULL, fwd boolean DEFAULT true)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	p hroe.page;
	esk jsonb;
	r text := '';
BEGIN
	LOOP
		IF kce IS NULL THEN
			p := hroe.scan_page(t, idx, p_limit => 2, p_exclusive_start_key => esk);
		ELSE
			p := hroe.query_page(t, kce, vals, NULL, idx, fwd, p_limit => 2, p_exclusive_start_key => esk);
		END IF;
		r := r || coalesce(tags(p.items), '') || '|';
		esk := p.last_evaluated_key;
		EXIT WHEN esk IS NULL;
	END LOOP;
	RETURN r;
END $$;
-- the same through the JSON API (hroe.dynamodb), Limit 2
CREATE FUNCTION api_pages(op text, req jsonb) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	resp jsonb;
	esk jsonb;
	r text := '';
BEGIN
	LOOP
		resp := hroe.dynamodb(op, req || jsonb_build_object('Limit', 2)
								  || coalesce(jsonb_build_object('ExclusiveStartKey', esk), '{}'));
		IF resp ? '__type' THEN
			RETURN resp::text;
		END IF;
		r := r || coalesce(api_tags(resp -> 'Items'), '') || '|';
		esk := resp -> 'LastEvaluatedKey';
		EXIT WHEN esk IS NULL;
	END LOOP;
	RETURN r;
END $$;
-- a Query of table lk in partition p: its items' tags, forward and back,
-- through SQL and the API, one page at a time
CREATE FUNCTION lk_query(p text, kce text, vals jsonb, idx text DEFAULT NULL)
RETURNS TABLE (forward text, backward text, api_forward text, api_backward text)
LANGUAGE sql AS $$
SELECT sql_pages('lkt', kce, vals || jsonb_build_object(':p', sval(pkey(p))), idx, true),
	   sql_pages('lkt', kce, vals || jsonb_build_object(':p', sval(pkey(p))), idx, false),
	   api_pages('Query', jsonb_build_object('TableName', 'lkt', 'KeyConditionExpression', kce,
					'ExpressionAttributeValues', vals || jsonb_build_object(':p', sval(pkey(p))))
					|| coalesce(jsonb_build_object('IndexName', idx), '{}')),
	   api_pages('Query', jsonb_build_object('TableName', 'lkt', 'KeyConditionExpression', kce,
					'ExpressionAttributeValues', vals || jsonb_build_object(':p', sval(pkey(p))),
					'ScanIndexForward', false)
					|| coalesce(jsonb_build_object('IndexName', idx), '{}'))
$$;
-- every index of table t checked against the heap
CREATE FUNCTION check_indexes(t regclass) RETURNS TABLE (index regclass, heap_all_indexed boolean)
LANGUAGE sql AS $$
SELECT indexrelid::regclass, (SELECT true FROM bt_index_check(indexrelid, true))
FROM pg_index WHERE indrelid = t ORDER BY indexrelid::regclass::text COLLATE "C"
$$;

SELECT hroe.create_table('lkt', 'PK', 'S', 'SK', 'S');
-- a GSI whose HASH key is a 2048-byte attribute and RANGE a 1024-byte one
SELECT hroe.create_index('lkt', 'byG', '{G}', '{H}', '{"G": "S", "H": "S"}');
-- PutItem (SQL): partitions A and B, sort keys 1-5, 10, 11; A's items in
-- the GSI partition GA, B's in GB, GSI sort keys in reverse
SELECT count(hroe.put_item('lkt', (jsonb_build_object('PK', sval(pkey(p)), 'SK', sval(skey(n)),
		'G', sval(pkey('G' || p)), 'H', sval(skey(100 - n)), 'tag', sval(p || n)))::hroe.item))
FROM (VALUES ('A'), ('B')) v(p), unnest('{1,2,3,4,5,10,11}'::int[]) n;
-- the key columns' sizes: partition keys in their form (SHA-256 in hex
-- after a 192-byte prefix, B's cut back to 191 bytes), sort keys as they are
SELECT hroe.item_get_text(item, 'tag') AS tag, octet_length(pk::text) AS pk,
	   octet_length(sk::text) AS sk, octet_length("byG_pk1"::text) AS g, octet_length("byG_sk1"::text) AS h,
	   convert_to(pk::text, 'UTF8') = substr(k, 1, octet_length(pk::text) - 64)
		   || convert_to(encode(sha256(k), 'hex'), 'UTF8') AS pk_is_form,
	   sk::text = skey(substr(hroe.item_get_text(item, 'tag'), 2)::int) AS sk_is_key
FROM lkt, LATERAL convert_to(pkey(left(hroe.item_get_text(item, 'tag'), 1)), 'UTF8') k
WHERE hroe.item_get_text(item, 'tag') IN ('A1', 'B1') ORDER BY 1;

-- GetItem: SQL and API
SELECT hroe.item_get_text(hroe.get_item('lkt', jsonb_build_object('PK', sval(pkey('A')), 'SK', sval(skey(3)))), 'tag');
SELECT hroe.item_get_text(hroe.get_item('lkt', jsonb_build_object('PK', sval(pkey('B')), 'SK', sval(skey(11))), true), 'tag');
SELECT hroe.dynamodb('GetItem', jsonb_build_object('TableName', 'lkt', 'Key',
	jsonb_build_object('PK', sval(pkey('B')), 'SK', sval(skey(4))), 'ProjectionExpression', 'tag'));
-- another key of the same 192-byte prefix and length is another item
SELECT hroe.get_item('lkt', jsonb_build_object('PK', sval(left(pkey('A'), 2047) || 'z'), 'SK', sval(skey(3))));
-- a key equal to another key's stored form is another item: a form is
-- longer than 192 bytes, so it is itself stored as a form
SELECT count(hroe.put_item('lkt', (jsonb_build_object('PK', sval(pk::text), 'SK', sval(sk::text), 'tag', sval('F')))::hroe.item))
FROM lkt WHERE hroe.item_get_text(item, 'tag') = 'A1';
SELECT count(*) AS a_partition, count(DISTINCT pk) FROM lkt WHERE hroe.item_get_text(item, 'tag') IN ('A1', 'F');
SELECT hroe.item_get_text(hroe.get_item('lkt', jsonb_build_object('PK', sval(pkey('A')), 'SK', sval(skey(1)))), 'tag');

-- Query on the long sort keys, each key condition, both directions, pages of 2
SELECT * FROM lk_query('A', 'PK = :p', '{}');
SELECT * FROM lk_query('B', 'PK = :p AND SK = :s', jsonb_build_object(':s', sval(skey(3))));
SELECT * FROM lk_query('A', 'PK = :p AND SK < :s', jsonb_build_object(':s', sval(skey(4))));
SELECT * FROM lk_query('B', 'PK = :p AND SK <= :s', jsonb_build_object(':s', sval(skey(4))));
SELECT * FROM lk_query('A', 'PK = :p AND SK > :s', jsonb_build_object(':s', sval(skey(3))));
SELECT * FROM lk_query('B', 'PK = :p AND SK >= :s', jsonb_build_object(':s', sval(skey(3))));
SELECT * FROM lk_query('A', 'PK = :p AND SK BETWEEN :s AND :t', jsonb_build_object(':s', sval(skey(2)), ':t', sval(skey(10))));
SELECT * FROM lk_query('B', 'PK = :p AND begins_with(SK, :s)', jsonb_build_object(':s', sval(lk('S', 1000) || '00')));
-- hroe.query (every page at once) runs on the primary key
SELECT tags(array_agg(i)) FROM hroe.query('lkt', 'PK = :p AND SK > :s',
	jsonb_build_object(':p', sval(pkey('B')), ':s', sval(skey(2)))) i;
-- the GSI: HASH 2048 bytes, RANGE 1024 (ordered 11, 10, 5, ..., 1)
SELECT * FROM lk_query('GA', 'G = :p', '{}', 'byG');
SELECT * FROM lk_query('GB', 'G = :p AND H BETWEEN :s AND :t', jsonb_build_object(':s', sval(skey(90)), ':t', sval(skey(97))), 'byG');
-- Scan of the table and of the GSI, pages of 2: every item once
CREATE FUNCTION sorted(pages text) RETURNS text LANGUAGE sql IMMUTABLE
RETURN (SELECT string_agg(t, ',' ORDER BY t) FROM regexp_split_to_table(pages, '[,|]') t WHERE t <> '');
SELECT sorted(sql_pages('lkt', NULL, NULL)) AS sql_table, sorted(sql_pages('lkt', NULL, NULL, 'byG')) AS sql_gsi;
SELECT sorted(api_pages('Scan', '{"TableName": "lkt"}')) AS api_table,
	   sorted(api_pages('Scan', '{"TableName": "lkt", "IndexName": "byG"}')) AS api_gsi;

-- UpdateItem and conditional writes (SQL)
SELECT (hroe.update_item('lkt', jsonb_build_object('PK', sval(pkey('A')), 'SK', sval(skey(2))),
	'SET v = :v', 'attribute_exists(PK)', NULL, '{":v": {"N": "1"}}', 'UPDATED_NEW')).attributes;
SELECT hroe.update_item('lkt', jsonb_build_object('PK', sval(pkey('A')), 'SK', sval(skey(2))),
	'SET v = :v', 'v = :w', NULL, '{":v": {"N": "2"}, ":w": {"N": "9"}}');
SELECT hroe.put_item('lkt', (jsonb_build_object('PK', sval(pkey('A')), 'SK', sval(skey(2)), 'tag', sval('X')))::hroe.item,
	p_condition_expression => 'attribute_not_exists(PK)');
SELECT hroe.delete_item('lkt', jsonb_build_object('PK', sval(pkey('A')), 'SK', sval(skey(2))),
	p_condition_expression => 'v = :w', p_expression_attribute_values => '{":w": {"N": "9"}}');
SELECT hroe.item_get_text((hroe.delete_item('lkt', jsonb_build_object('PK', sval(pkey('A')), 'SK', sval(skey(2))),
	'ALL_OLD', p_condition_expression => 'v = :w', p_expression_attribute_values => '{":w": {"N": "1"}}')).attributes, 'tag');
-- the same through the API
SELECT hroe.dynamodb('UpdateItem', jsonb_build_object('TableName', 'lkt', 'Key',
	jsonb_build_object('PK', sval(pkey('B')), 'SK', sval(skey(5))), 'UpdateExpression', 'SET v = :v',
	'ConditionExpression', 'attribute_exists(PK)', 'ExpressionAttributeValues', '{":v": {"N": "5"}}'::jsonb,
	'ReturnValues', 'UPDATED_NEW'));
SELECT hroe.dynamodb('PutItem', jsonb_build_object('TableName', 'lkt', 'Item',
	jsonb_build_object('PK', sval(pkey('B')), 'SK', sval(skey(5)), 'tag', sval('X')),
	'ConditionExpression', 'attribute_not_exists(PK)')) ->> '__type';
SELECT hroe.dynamodb('DeleteItem', jsonb_build_object('TableName', 'lkt', 'Key',
	jsonb_build_object('PK', sval(pkey('B')), 'SK', sval(skey(5))), 'ConditionExpression', 'v = :v',
	'ExpressionAttributeValues', '{":v": {"N": "5"}}'::jsonb, 'ReturnValues', 'ALL_OLD')) -> 'Attributes' -> 'tag';
SELECT hroe.dynamodb('PutItem', jsonb_build_object('TableName', 'lkt', 'Item',
	jsonb_build_object('PK', sval(pkey('B')), 'SK', sval(skey(5)), 'G', sval(pkey('GB')), 'H', sval(skey(95)), 'tag', sval('B5'))));
SELECT hroe.put_item('lkt', (jsonb_build_object('PK', sval(pkey('A')), 'SK', sval(skey(2)),
	'G', sval(pkey('GA')), 'H', sval(skey(98)), 'tag', sval('A2')))::hroe.item);

-- BatchGetItem and BatchWriteItem (SQL, then API)
SELECT api_tags(jsonb_path_query_array(hroe.batch_get_item(jsonb_build_object('lkt', jsonb_build_object('Keys', jsonb_build_array(
	jsonb_build_object('PK', sval(pkey('A')), 'SK', sval(skey(1))),
	jsonb_build_object('PK', sval(pkey('B')), 'SK', sval(skey(10))),
	jsonb_build_object('PK', sval(pkey('C')), 'SK', sval(skey(1))))))), '$.Responses.lkt[*]')) AS sql_batch_get;
SELECT hroe.batch_write_item(jsonb_build_object('lkt', jsonb_build_array(
	jsonb_build_object('PutRequest', jsonb_build_object('Item', jsonb_build_object('PK', sval(pkey('C')), 'SK', sval(skey(1)), 'tag', sval('C1')))),
	jsonb_build_object('DeleteRequest', jsonb_build_object('Key', jsonb_build_object('PK', sval(pkey('A')), 'SK', sval(skey(11))))))));
SELECT hroe.dynamodb('BatchWriteItem', jsonb_build_object('RequestItems', jsonb_build_object('lkt', jsonb_build_array(
	jsonb_build_object('PutRequest', jsonb_build_object('Item', jsonb_build_object('PK', sval(pkey('C')), 'SK', sval(skey(2)), 'tag', sval('C2')))),
	jsonb_build_object('DeleteRequest', jsonb_build_object('Key', jsonb_build_object('PK', sval(pkey('B')), 'SK', sval(skey(11)))))))));
SELECT api_tags(jsonb_path_query_array(hroe.dynamodb('BatchGetItem', jsonb_build_object('RequestItems', jsonb_build_object('lkt', jsonb_build_object('Keys', jsonb_build_array(
	jsonb_build_object('PK', sval(pkey('C')), 'SK', sval(skey(1))),
	jsonb_build_object('PK', sval(pkey('C')), 'SK', sval(skey(2))),
	jsonb_build_object('PK', sval(pkey('A')), 'SK', sval(skey(11))),
	jsonb_build_object('PK', sval(pkey('B')), 'SK', sval(skey(11)))))))), '$.Responses.lkt[*]')) AS api_batch_get;

-- TransactWriteItems (SQL, then API) and TransactGetItems
SELECT hroe.transact_write_items(jsonb_build_array(
	jsonb_build_object('Put', jsonb_build_object('TableName', 'lkt', 'Item', jsonb_build_object('PK', sval(pkey('C')), 'SK', sval(skey(3)), 'tag', sval('C3')))),
	jsonb_build_object('Update', jsonb_build_object('TableName', 'lkt', 'Key', jsonb_build_object('PK', sval(pkey('C')), 'SK', sval(skey(1))),
		'UpdateExpression', 'SET v = :v', 'ConditionExpression', 'attribute_exists(PK)', 'ExpressionAttributeValues', '{":v": {"N": "7"}}'::jsonb)),
	jsonb_build_object('ConditionCheck', jsonb_build_object('TableName', 'lkt', 'Key', jsonb_build_object('PK', sval(pkey('A')), 'SK', sval(skey(1))),
		'ConditionExpression', 'attribute_exists(PK)')),
	jsonb_build_object('Delete', jsonb_build_object('TableName', 'lkt', 'Key', jsonb_build_object('PK', sval(pkey('C')), 'SK', sval(skey(2)))))));
SELECT hroe.dynamodb('TransactWriteItems', jsonb_build_object('TransactItems', jsonb_build_array(
	jsonb_build_object('Put', jsonb_build_object('TableName', 'lkt', 'Item', jsonb_build_object('PK', sval(pkey('C')), 'SK', sval(skey(4)), 'tag', sval('C4')))),
	jsonb_build_object('ConditionCheck', jsonb_build_object('TableName', 'lkt', 'Key', jsonb_build_object('PK', sval(pkey('C')), 'SK', sval(skey(1))),
		'ConditionExpression', 'v = :v', 'ExpressionAttributeValues', '{":v": {"N": "8"}}'::jsonb))))) -> 'CancellationReasons';
SELECT api_tags(jsonb_path_query_array(hroe.transact_get_items(jsonb_build_array(
	jsonb_build_object('Get', jsonb_build_object('TableName', 'lkt', 'Key', jsonb_build_object('PK', sval(pkey('C')), 'SK', sval(skey(1))))),
	jsonb_build_object('Get', jsonb_build_object('TableName', 'lkt', 'Key', jsonb_build_object('PK', sval(pkey('C')), 'SK', sval(skey(2))))),
	jsonb_build_object('Get', jsonb_build_object('TableName', 'lkt', 'Key', jsonb_build_object('PK', sval(pkey('C')), 'SK', sval(skey(3))))))), '$[*].Item')) AS sql_transact_get;
SELECT api_tags(jsonb_path_query_array(hroe.dynamodb('TransactGetItems', jsonb_build_object('TransactItems', jsonb_build_array(
	jsonb_build_object('Get', jsonb_build_object('TableName', 'lkt', 'Key', jsonb_build_object('PK', sval(pkey('C')), 'SK', sval(skey(3))))),
	jsonb_build_object('Get', jsonb_build_object('TableName', 'lkt', 'Key', jsonb_build_object('PK', sval(pkey('C')), 'SK', sval(skey(4)))))))), '$.Responses[*].Item')) AS api_transact_get;
SELECT * FROM lk_query('C', 'PK = :p', '{}');
SELECT * FROM lk_query('GB', 'G = :p', '{}', 'byG');
-- a write-sharded GSI whose partition is a 2048-byte key and a shard:
-- hroe.sharded_query probes the HASH column with the prefix's form
SELECT hroe.create_index('lkt', 'byGS', '{G, sh}', '{H}', '{"G": "S", "sh": "N", "H": "S"}');
SELECT count(hroe.put_item('lkt', jsonb_build_object('PK', sval(pkey('D')), 'SK', sval(skey(n)), 'G', sval(pkey('GD')),
	'sh', jsonb_build_object('N', (n % 2)::text), 'H', sval(skey(n)), 'tag', sval('D' || n))::hroe.item))
FROM generate_series(1, 5) n;
SELECT string_agg(hroe.item_get_text(r.item, 'tag'), ',') FROM hroe.sharded_query(NULL::lkt, '"lkt.byGS"'::regclass, 2,
	'>=', skey(2)::hroe.key, p_forward => false, p_prefix => ARRAY[pkey('GD')]) r;
SELECT * FROM lk_query('GD', 'G = :p AND sh = :s', '{":s": {"N": "1"}}', 'byGS');
-- shared key columns: a GSI HASH key on SK is probed in sk with the key
-- itself (sort key columns hold keys as they are), one on PK in pk with the
-- key's form
SELECT hroe.create_index('lkt', 'bySK', '{SK}', '{}', p_share_key_columns => true),
	   hroe.create_index('lkt', 'byPK', '{PK}', '{H}', '{"H": "S"}', p_share_key_columns => true);
SELECT index_name, partition_key_columns, sort_key_columns FROM hroe.indexes
WHERE table_name = 'lkt' AND index_name IN ('bySK', 'byPK') ORDER BY 1;
SELECT sql_pages('lkt', 'SK = :s', jsonb_build_object(':s', sval(skey(3))), 'bySK') AS by_sk,
	   sql_pages('lkt', 'PK = :p', jsonb_build_object(':p', sval(pkey('A'))), 'byPK') AS by_pk,
	   api_pages('Query', jsonb_build_object('TableName', 'lkt', 'IndexName', 'byPK', 'KeyConditionExpression', 'PK = :p AND H < :h',
		'ExpressionAttributeValues', jsonb_build_object(':p', sval(pkey('B')), ':h', sval(skey(97))))) AS api_by_pk;
-- a multi-attribute GSI whose entry can exceed a btree entry (two 2048-byte
-- HASH keys, two 1024-byte RANGE keys, the table key): its key constraint
-- checks each entry, a write whose keys do not fit is refused with a
-- ValidationException (README, "Not done yet"); one whose keys fit is taken
SELECT hroe.create_index('lkt', 'byWide', '{G, G2}', '{H, H2}', '{"G": "S", "G2": "S", "H": "S", "H2": "S"}');
SELECT substring(pg_get_constraintdef(oid) FROM 'hroe\.check_index_entry\([^)]*\)') FROM pg_constraint WHERE conname = 'byWide_key_check';
SELECT hroe.put_item('lkt', jsonb_build_object('PK', sval(pkey('E')), 'SK', sval(skey(1)), 'G', sval(pkey('GE')),
	'G2', sval(pkey('GF')), 'H', sval(skey(1)), 'H2', sval(skey(2)), 'tag', sval('E1'))::hroe.item);
SELECT hroe.dynamodb('PutItem', jsonb_build_object('TableName', 'lkt', 'Item', jsonb_build_object('PK', sval(pkey('E')),
	'SK', sval(skey(1)), 'G', sval(pkey('GE')), 'G2', sval(pkey('GF')), 'H', sval(skey(1)), 'H2', sval(skey(2)))));
SELECT count(hroe.put_item('lkt', jsonb_build_object('PK', sval(pkey('E')), 'SK', sval(skey(n)), 'G', sval(pkey('GE')),
	'G2', sval('g2'), 'H', sval(skey(n)), 'H2', sval('h' || n), 'tag', sval('E' || n))::hroe.item))
FROM generate_series(1, 3) n;
SELECT * FROM lk_query('GE', 'G = :p AND G2 = :g AND H >= :h', jsonb_build_object(':g', sval('g2'), ':h', sval(skey(2))), 'byWide');
SELECT * FROM check_indexes('lkt');

-- B keys of the maximum sizes: 2048-byte partition, 1024-byte sort keys
-- (the form: 192 bytes, then the 32-byte SHA-256)
CREATE FUNCTION bkey(seed text, len int) RETURNS jsonb LANGUAGE sql IMMUTABLE
RETURN jsonb_build_object('B', translate(encode(decode(lk(seed, 2 * len), 'hex'), 'base64'), E'\n', ''));
SELECT hroe.create_table('lkb', 'PK', 'B', 'SK', 'B');
SELECT hroe.create_index('lkb', 'byG', '{G}', '{SK}', '{"G": "B"}');
SELECT count(hroe.put_item('lkb', jsonb_build_object('PK', bkey(p, 2048), 'SK', bkey('s' || n, 1024),
	'G', bkey('G', 2048), 'tag', sval(p || n))::hroe.item))
FROM (VALUES ('A'), ('B')) v(p), generate_series(1, 4) n;
SELECT octet_length(pk) AS pk, octet_length(sk) AS sk, octet_length("byG_pk1") AS g,
	   pk = substr(decode(lk('A', 4096), 'hex'), 1, 192) || sha256(decode(lk('A', 4096), 'hex')) AS pk_is_form
FROM lkb WHERE hroe.item_get_text(item, 'tag') = 'A1';
-- the B sort keys in their order (the tags in sort key order, from SQL)
SELECT string_agg(t, ',' ORDER BY k) FROM (SELECT hroe.item_get_text(item, 'tag') t, sk k FROM lkb WHERE hroe.item_get_text(item, 'tag') LIKE 'A%') s;
SELECT sql_pages('lkb', 'PK = :p AND SK > :s', jsonb_build_object(':p', bkey('A', 2048), ':s', bkey('s2', 1024))) AS sql_query,
	   sql_pages('lkb', 'G = :g', jsonb_build_object(':g', bkey('G', 2048)), 'byG', false) AS sql_gsi_back;
SELECT api_pages('Query', jsonb_build_object('TableName', 'lkb', 'KeyConditionExpression', 'PK = :p',
	'ExpressionAttributeValues', jsonb_build_object(':p', bkey('B', 2048)), 'ScanIndexForward', false)) AS api_query;
SELECT sorted(sql_pages('lkb', NULL, NULL)) AS sql_scan, sorted(api_pages('Scan', '{"TableName": "lkb", "IndexName": "byG"}')) AS api_gsi_scan;
SELECT hroe.dynamodb('GetItem', jsonb_build_object('TableName', 'lkb', 'Key',
	jsonb_build_object('PK', bkey('B', 2048), 'SK', bkey('s3', 1024)), 'ProjectionExpression', 'tag'));
SELECT hroe.item_get_text((hroe.delete_item('lkb', jsonb_build_object('PK', bkey('B', 2048), 'SK', bkey('s3', 1024)), 'ALL_OLD')).attributes, 'tag');
SELECT hroe.get_item('lkb', jsonb_build_object('PK', bkey('B', 2048), 'SK', bkey('s3', 1024)));
SELECT * FROM check_indexes('lkb');

-- short keys are stored as they are: up to 192 bytes, the key itself
SELECT count(hroe.put_item('lkt', jsonb_build_object('PK', sval(repeat('p', n)), 'SK', sval('s'), 'tag', sval('P' || n))::hroe.item))
FROM unnest('{1,191,192,193}'::int[]) n;
SELECT hroe.item_get_text(item, 'tag') AS tag, pk::text = repeat('p', substr(hroe.item_get_text(item, 'tag'), 2)::int) AS pk_is_key,
	   octet_length(pk::text) AS pk
FROM lkt WHERE hroe.item_get_text(item, 'tag') LIKE 'P%' ORDER BY octet_length(pk::text);
SELECT * FROM check_indexes('lkt');
SELECT hroe.delete_table('lkt'), hroe.delete_table('lkb');
DROP FUNCTION lk_query, check_indexes, api_pages, sql_pages, sorted, tags, api_tags, sval, skey, pkey, bkey, lk;
DROP EXTENSION amcheck;
