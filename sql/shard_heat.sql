--
-- hroe.hot_partitions: items and read/write capacity per partition-key value
-- of an index, against DynamoDB's 3,000 RCU / 1,000 WCU per partition.
--
-- 3,000 orders of 250 bytes (the seed's average), 80 % OPEN.
-- error contexts name plpgsql line numbers: leave them out
\set SHOW_CONTEXT never
CREATE SCHEMA shard_heat;
SET search_path = shard_heat, public;
CREATE TABLE orders (
	id integer PRIMARY KEY,
	status text NOT NULL,
	shard integer NOT NULL,
	order_date date NOT NULL,
	item_bytes integer NOT NULL
);
INSERT INTO orders
SELECT g, CASE WHEN g % 5 = 0 THEN 'CLOSED' ELSE 'OPEN' END, hroe.shard_of(g, 15),
	   date '2025-01-01' + g % 90, 250
FROM generate_series(1, 3000) g;
-- unsharded: partition key status, sort key date
CREATE INDEX orders_by_status ON orders (status, order_date);
-- write-sharded and sparse (GSI2): partition key status + shard, OPEN only
CREATE INDEX orders_open_sharded ON orders (status, shard, order_date) WHERE status = 'OPEN';
ANALYZE orders;

-- The unsharded index: one hot key. A full read of OPEN is 600,000 bytes =
-- 147 RCU; read 30 times a second that is 4,410 RCU/s, over the 3,000 RCU/s a
-- partition serves (read_share > 1); 1,500 item writes a second put 1,200
-- WCU/s on it (write_share > 1).
SELECT * FROM hroe.hot_partitions('orders_by_status', p_reads_per_second => 30,
								  p_writes_per_second => 1500, p_size_column => 'item_bytes');

-- The sharded index: 15 even partitions, each far below the limits.
SELECT * FROM hroe.hot_partitions('orders_open_sharded', p_reads_per_second => 30,
								  p_writes_per_second => 1200, p_size_column => 'item_bytes');
SELECT count(*) AS partitions, sum(items) AS items, max(imbalance) AS max_over_mean,
	   max(read_share) AS max_read_share, max(write_share) AS max_write_share
FROM hroe.hot_partitions('orders_open_sharded', p_reads_per_second => 30,
						 p_writes_per_second => 1200, p_size_column => 'item_bytes');

-- The seed's arithmetic at its own scale: 600,000 OPEN orders of 250 bytes
-- need 36,622 RCU to read; at one read a second that is 12.2 partitions'
-- worth, hence 13 shards (15 padded).
SELECT ceil(600000 * 250 / 4096.0) AS rcu, round(ceil(600000 * 250 / 4096.0) / 3000, 1) AS partitions,
	   hroe.shard_count(600000, 250) AS shards;

-- Key columns: the first k (default: all but the last, the sort key).
SELECT partition_key, items FROM hroe.hot_partitions('orders_open_sharded', 1);
SELECT count(*) AS partitions, sum(items) AS items
FROM hroe.hot_partitions('orders_open_sharded', 3);
-- Without a size column the size is the stored row's (pg_column_size).
SELECT partition_key, items, bytes > items * 20 AS has_row_bytes
FROM hroe.hot_partitions('orders_by_status');
-- Rows whose key attribute is null are not in the index (sparse).
CREATE TABLE sparse (k text, v integer);
INSERT INTO sparse VALUES ('a', 1), ('a', 2), (NULL, 3), ('b', 4);
CREATE INDEX sparse_k ON sparse (k);
SELECT partition_key, items FROM hroe.hot_partitions('sparse_k');
-- nor are rows without the sort key
CREATE INDEX sparse_k_v ON sparse (k, v);
INSERT INTO sparse VALUES ('a', NULL);
SELECT partition_key, items FROM hroe.hot_partitions('sparse_k_v');

-- A table of hroe.item items: their DynamoDB size (hroe.item_size) is used.
CREATE TABLE items (pk text, shard integer, sk text, item hroe.item);
INSERT INTO items
SELECT 'ORDER', g % 3, 'D#' || g,
	   ('{"PK": {"S": "ORDER#' || g || '"}, "note": {"S": "' || repeat('x', g % 3 * 100) || '"}}')::hroe.item
FROM generate_series(1, 30) g;
CREATE INDEX items_gsi ON items (pk, shard, sk);
SELECT h.partition_key, h.items, h.bytes,
	   (SELECT sum(hroe.item_size(item)) FROM items i WHERE i.shard::text = split_part(h.partition_key, '#', 2)) AS item_size_sum
FROM hroe.hot_partitions('items_gsi') h ORDER BY 1;

-- Errors
SELECT * FROM hroe.hot_partitions('orders');
SELECT * FROM hroe.hot_partitions('orders_by_status', 0);
SELECT * FROM hroe.hot_partitions('orders_by_status', 3);
SELECT * FROM hroe.hot_partitions('orders_by_status', p_reads_per_second => -1);
SELECT * FROM hroe.hot_partitions('orders_by_status', p_size_column => 'nope');
SELECT * FROM hroe.hot_partitions('orders_by_status', p_size_column => 'status');

RESET search_path;
DROP SCHEMA shard_heat CASCADE;
