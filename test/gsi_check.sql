-- test/gsi_check.sql: gsi_mismatches(table), for the shell tests that check
-- a table's GSIs after a load (psql -f test/gsi_check.sql in their database).
-- A GSI holds exactly the items that have all its key attributes (writes of
-- a wrong type are rejected), so for each GSI of the hroe table: a Scan of
-- the GSI gives the table keys of those items, and a Query of each partition
-- key value they hold gives as many entries as there are such items.
-- Returns one line per difference, none when every GSI matches the table;
-- a table without any index, or whose GSIs hold no entry, is a difference
-- too (nothing would have been checked).
CREATE FUNCTION gsi_mismatches(p_table text) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
	t hroe.tables;
	x hroe.indexes;
	n_index bigint;
	n_table bigint;
	n_diff bigint;
	cond text;
	names jsonb;
	v record;
	n_checked bigint := 0;
	n_entries bigint := 0;
BEGIN
	SELECT * INTO STRICT t FROM hroe.tables WHERE table_name = p_table;
	FOR x IN SELECT * FROM hroe.indexes WHERE table_name = p_table ORDER BY index_name LOOP
		-- the table keys: through the GSI, and of the table's items
		EXECUTE format($q$
			WITH i AS (SELECT jsonb_build_array(s::jsonb -> %1$L, s::jsonb -> %2$L) AS k
					   FROM hroe.scan(%3$L, %4$L) s),
				 r AS (SELECT jsonb_build_array(item::jsonb -> %1$L, item::jsonb -> %2$L) AS k
					   FROM %5$s WHERE item::jsonb ?& %6$L)
			SELECT (SELECT count(*) FROM i), (SELECT count(*) FROM r),
				   (SELECT count(*) FROM ((TABLE i EXCEPT ALL TABLE r) UNION ALL (TABLE r EXCEPT ALL TABLE i)) d)
			$q$, t.partition_key, t.sort_key, p_table, x.index_name, t.relid, x.partition_key || x.sort_key)
		INTO n_index, n_table, n_diff;
		n_checked := n_checked + 1;
		n_entries := n_entries + n_index;
		IF n_diff > 0 THEN
			RETURN NEXT format('%s scan: %s entries, %s items in the table, %s keys differ',
							   x.index_name, n_index, n_table, n_diff);
		END IF;
		-- a Query of each partition key value: #p1 = :p1 AND #p2 = :p2 ...
		SELECT string_agg(format('#p%s = :p%s', n, n), ' AND '), jsonb_object_agg('#p' || n, a)
		INTO cond, names FROM unnest(x.partition_key) WITH ORDINALITY u(a, n);
		FOR v IN EXECUTE format($q$
			SELECT (SELECT jsonb_object_agg(':p' || n, item::jsonb -> a)
					FROM unnest(%1$L::text[]) WITH ORDINALITY u(a, n)) AS vals, count(*) AS n_table
			FROM %2$s WHERE item::jsonb ?& %3$L GROUP BY 1 ORDER BY 1
			$q$, x.partition_key, t.relid, x.partition_key || x.sort_key) LOOP
			SELECT count(*) INTO n_index FROM hroe.query(p_table, cond, v.vals, names, x.index_name);
			IF n_index <> v.n_table THEN
				RETURN NEXT format('%s query %s: %s entries, %s items in the table',
								   x.index_name, v.vals, n_index, v.n_table);
			END IF;
		END LOOP;
	END LOOP;
	IF n_checked = 0 OR n_entries = 0 THEN
		RETURN NEXT format('%s: %s indexes with %s entries: nothing checked', p_table, n_checked, n_entries);
	END IF;
END $$;
