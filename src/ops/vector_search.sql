--
-- SearchVectors in SQL (src/ops/vector_search.c, doc/vectors.md)
--

CREATE FUNCTION hroe.search_vectors(p_table_name text, p_index_name text, p_vector real[],
	p_top_k integer DEFAULT 10, p_filter hroe.item DEFAULT NULL)
RETURNS TABLE (item hroe.item, score real)
AS 'MODULE_PATHNAME', 'hroe_search_vectors'
LANGUAGE C STABLE CALLED ON NULL INPUT PARALLEL RESTRICTED ROWS 10;
COMMENT ON FUNCTION hroe.search_vectors(text, text, real[], integer, hroe.item) IS
'SearchVectors: the p_top_k (1-100) items of table p_table_name nearest p_vector in its vector index p_index_name, nearest first, with their scores (COSINE: 0 identical .. 2 opposite; EUCLIDEAN: the distance; DOT_PRODUCT: the dot product, higher is nearer); p_filter: the SearchSchema attributes the items must equal (required for an index with a HASH element), as an item ({"tenant": {"S": "t1"}}); exact search under one snapshot; items as stored';
