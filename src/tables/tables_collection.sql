-- Item collections of tables with local secondary indexes
-- (src/tables/tables_collection.c): their sizes, kept by a trigger, for DynamoDB's
-- 10 GB limit and ItemCollectionMetrics

CREATE TABLE hroe.item_collection_sizes (
	table_name			text NOT NULL REFERENCES hroe.tables ON DELETE CASCADE,
	-- the SHA-256 of the partition key value as DynamoDB JSON ({"S": "..."})
	collection			bytea NOT NULL,
	-- its items' sizes plus their LSI entries' sizes, in bytes
	size_bytes			bigint NOT NULL,
	PRIMARY KEY (table_name, collection)
);
COMMENT ON TABLE hroe.item_collection_sizes IS 'internal: The size of each non-empty item collection of each table with local secondary indexes (its items and their LSI entries, DynamoDB''s measure), kept by the trigger hroe.item_collection_size in the writing transaction; read and written only by the extension''s owner, through that trigger and ItemCollectionMetrics';
REVOKE ALL ON hroe.item_collection_sizes FROM PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('hroe.item_collection_sizes', '');

CREATE FUNCTION hroe.item_collection_size()
RETURNS trigger AS 'MODULE_PATHNAME', 'hroe_item_collection_size'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.item_collection_size() IS
'internal: The AFTER ROW trigger of a table with local secondary indexes (argument: the DynamoDB table''s name, checked to be the trigger''s table): adds a write''s change to its item collections'' sizes in hroe.item_collection_sizes as the extension''s owner, and raises ItemCollectionSizeLimitExceededException when a write grows a collection past hroe.item_collection_size_limit (10 GB); as the table''s AFTER TRUNCATE statement trigger, deletes its sizes';
