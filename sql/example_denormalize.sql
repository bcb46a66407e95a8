--
-- Patterns gallery: one-to-many by denormalization (seed 004, strategies 1
-- and 2).
--
-- A. A complex attribute: a customer's mailing addresses embedded in the
--    customer item, as a map (or an hroe.item_collection stored as a list).
--    Use it when the children are bounded in number and never read or
--    queried on their own.  The item's 400 KB limit bounds them, and a key
--    condition or an index cannot reach inside the attribute.
-- B. Duplication: the author's biography copied onto every book.  Use it when
--    the duplicated data is immutable or rarely changes: one read gets a book
--    with its author, but a change must be written to every copy.
--
\set VERBOSITY terse

--
-- A. Complex attribute: Customer with MailingAddresses
--
-- | CustomerId (PK) | Name        | MailingAddresses (M)                       |
-- | CUSTOMER#alexdb | Alex DeBrie | {"Home": {...}, "Business": {...}}         |
SELECT hroe.create_table('ex_customers', 'CustomerId', 'S');
SELECT (hroe.put_item('ex_customers', hroe.item_from_document('{
	"CustomerId": "CUSTOMER#alexdb", "Name": "Alex DeBrie",
	"MailingAddresses": {
		"Home":     {"Street": "111 1st Street", "City": "Omaha",   "State": "NE", "Zip": "68102"},
		"Business": {"Street": "222 2nd Street", "City": "Chicago", "State": "IL", "Zip": "60601"}}}'),
	p_return_consumed_capacity => 'TOTAL')).consumed_capacity;

-- One GetItem reads the customer with all addresses; a document path reads
-- one of them.
SELECT hroe.item_get_text(c, 'Name') AS name,
       hroe.item_get_text(c, 'MailingAddresses.Home.City') AS home_city,
       hroe.item_get_text(c, 'MailingAddresses.Business.Zip') AS business_zip,
       hroe.item_size(c) AS bytes
FROM hroe.get_item('ex_customers', '{"CustomerId": {"S": "CUSTOMER#alexdb"}}') c;

-- The addresses cannot be a key: a key attribute is S, N or B, never a map,
-- so "the customer whose address is in Chicago" has no index.
SELECT hroe.create_index('ex_customers', 'byAddress', '{MailingAddresses}', '{}',
                         '{"MailingAddresses": "M"}');

-- The same children as an hroe.item_collection (sorted by a label, searched
-- by binary search), embedded in the parent as an L of M; the list is turned
-- back into a collection to look an address up by its label.
WITH jeff AS (
	SELECT hroe.item_embed_collection(hroe.item_from_document('{"CustomerId": "CUSTOMER#jeffb", "Name": "Jeff Bezos"}'),
	           'MailingAddresses', hroe.item_collection_agg(label, hroe.item_from_document(a))) AS c
	FROM (VALUES ('Work', '{"Label": "Work", "City": "Seattle", "Zip": "98109"}'::jsonb),
	             ('Home', '{"Label": "Home", "City": "Medina", "Zip": "98039"}')) v(label, a))
SELECT hroe.item_get_type(c, 'MailingAddresses') AS type,
       hroe.item_get_text(c, 'MailingAddresses[0].Label') AS first,
       hroe.item_get_text(hroe.item_collection_get(
           hroe.item_collection_from_attribute(c, 'MailingAddresses', 'Label'), 'Work'), 'City') AS work_city
FROM jeff;

-- The 400 KB limit.  Every address below has the same size (a 4-digit
-- label and four strings), so the item grows linearly:
CREATE FUNCTION ex_customer_with(n int) RETURNS hroe.item LANGUAGE sql AS $$
	SELECT hroe.item_from_document(jsonb_build_object('CustomerId', 'CUSTOMER#many', 'Name', 'Many Addresses',
		'MailingAddresses', (SELECT coalesce(jsonb_object_agg(lpad(i::text, 4, '0'), jsonb_build_object(
			'Street', lpad(i::text, 4, '0') || ' Long Street Name Avenue', 'City', 'Springfield',
			'State', 'IL', 'Zip', '62701')), '{}') FROM generate_series(1, n) i)))
$$;
SELECT n, hroe.item_size(ex_customer_with(n)) AS bytes,
       hroe.write_capacity_units(hroe.item_size(ex_customer_with(n))) AS wcu_per_write,
       hroe.read_capacity_units(hroe.item_size(ex_customer_with(n)), false) AS rcu_per_get
FROM (VALUES (0), (1), (2), (20)) v(n);
-- 76 bytes per address: 20 addresses (the seed's suggested cap) make a
-- 1.5 KB item, and every change to ONE address rewrites all of it (2 WCU).
-- How many addresses fit in 409,600 bytes?
SELECT (409600 - hroe.item_size(ex_customer_with(0))) /
       (hroe.item_size(ex_customer_with(2)) - hroe.item_size(ex_customer_with(1))) AS max_addresses;
-- 5388 fit, and such a customer costs 400 WCU per write; the 5389th
-- address is refused with DynamoDB's error:
SELECT hroe.item_size(ex_customer_with(5388)) AS bytes,
       (hroe.put_item('ex_customers', ex_customer_with(5388), p_return_consumed_capacity => 'TOTAL')).consumed_capacity;
SELECT hroe.put_item('ex_customers', ex_customer_with(5389));
-- the stored customer still has 5388 addresses; reading it costs 50 RCU
SELECT hroe.item_get_text((r).item, 'MailingAddresses.5388.Street') AS last_street,
       hroe.item_get_text((r).item, 'MailingAddresses.5389.Street') AS refused_street,
       (r).consumed_capacity
FROM hroe.get_item_result('ex_customers', '{"CustomerId": {"S": "CUSTOMER#many"}}') r;

--
-- B. Duplication: Book items carry their author's biography
--
-- | Book (PK)           | Title       | AuthorName   | AuthorBirthYear | AuthorBio |
-- | BOOK#it             | It          | Stephen King | 1947            | ...       |
-- | BOOK#the-shining    | The Shining | Stephen King | 1947            | ...       |
--
-- A KEYS_ONLY index byAuthor finds the copies when the biography changes.
SELECT hroe.create_table('ex_books', 'Book', 'S');
SELECT hroe.create_index('ex_books', 'byAuthor', '{AuthorName}', '{Title}',
                         '{"AuthorName": "S", "Title": "S"}', 'KEYS_ONLY');
-- a biography of about 1.5 KB, so each book costs 2 WCU to write, plus 1
-- for its index entry
SELECT hroe.batch_write_item(jsonb_build_object('ex_books', jsonb_agg(jsonb_build_object('PutRequest',
		jsonb_build_object('Item', jsonb_build_object(
			'Book', jsonb_build_object('S', 'BOOK#' || slug), 'Title', jsonb_build_object('S', title),
			'AuthorName', jsonb_build_object('S', author),
			'AuthorBirthYear', jsonb_build_object('N', born::text),
			'AuthorBio', jsonb_build_object('S', author || ' was born in ' || born || '. ' || repeat('Bio. ', 300))))))),
	'INDEXES') AS response
FROM (VALUES ('carrie', 'Carrie', 'Stephen King', 1947), ('it', 'It', 'Stephen King', 1947),
             ('the-shining', 'The Shining', 'Stephen King', 1947), ('misery', 'Misery', 'Stephen King', 1947),
             ('emma', 'Emma', 'Jane Austen', 1775)) v(slug, title, author, born);

-- Read side: one GetItem returns the book AND its author, no second read.
SELECT hroe.item_get_text((r).item, 'Title') AS title, hroe.item_get_text((r).item, 'AuthorName') AS author,
       hroe.item_get_number((r).item, 'AuthorBirthYear') AS born, (r).consumed_capacity
FROM hroe.get_item_result('ex_books', '{"Book": {"S": "BOOK#it"}}') r;

-- Write side: the biography changes.  Every copy must be found (Query on
-- byAuthor), read (GetItem: the index holds only keys) and rewritten; past
-- 25 copies that takes several BatchWriteItem calls, atomic only one by one.
CREATE TEMP TABLE ex_bio_update AS
SELECT hroe.item_get_text(k, 'Book') AS book,
       (hroe.get_item_result('ex_books', jsonb_build_object('Book', hroe.item_get_attribute(k, 'Book')))).*
FROM hroe.query('ex_books', 'AuthorName = :a', '{":a": {"S": "Stephen King"}}', p_index_name => 'byAuthor') k;
SELECT book, consumed_capacity FROM ex_bio_update ORDER BY book;
CREATE TEMP TABLE ex_bio_write AS
SELECT hroe.batch_write_item(jsonb_build_object('ex_books', jsonb_agg(jsonb_build_object('PutRequest',
		jsonb_build_object('Item', hroe.item_set(item, 'AuthorBio',
			jsonb_build_object('S', 'Stephen King was born in 1947 in Portland, Maine. ' || repeat('Bio. ', 300)))::jsonb)))),
	'INDEXES') AS response
FROM ex_bio_update;
SELECT response FROM ex_bio_write;
-- The bill for one fact changing: the Query, 4 reads and 4 rewrites of
-- 2 KB.  A normalized Author item would cost 2 WCU once; the index entries
-- do not change (AuthorBio is not projected), so they cost nothing.
SELECT (hroe.query_page('ex_books', 'AuthorName = :a', '{":a": {"S": "Stephen King"}}', p_index_name => 'byAuthor',
                        p_return_consumed_capacity => 'TOTAL')).consumed_capacity -> 'CapacityUnits' AS query_rcu,
       (SELECT sum((consumed_capacity ->> 'CapacityUnits')::numeric) FROM ex_bio_update) AS get_rcu,
       (SELECT response -> 'ConsumedCapacity' -> 0 -> 'CapacityUnits' FROM ex_bio_write) AS put_wcu;
SELECT hroe.item_get_text(b, 'Title') AS title, left(hroe.item_get_text(b, 'AuthorBio'), 48) AS bio
FROM hroe.scan('ex_books') b ORDER BY 1;

-- Clean up (the tests share one database)
SELECT hroe.delete_table('ex_customers'), hroe.delete_table('ex_books');
DROP FUNCTION ex_customer_with(int);
