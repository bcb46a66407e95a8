
-- The charts of a design's page (hroe.design_html, models/design.sql):
-- inline SVG, no network.

-- A design's colour in the charts: the same in each chart.
CREATE FUNCTION hroe.report_colour(p_model text, p_position integer)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT CASE p_model WHEN 'hroe_normalized' THEN '#2563eb' WHEN 'hroe_single' THEN '#16a34a' WHEN 'hroe_multi' THEN '#ea580c'
	   ELSE (ARRAY['#9333ea', '#0891b2', '#be123c', '#4d7c0f'])[(COALESCE(p_position, 1) - 1) % 4 + 1] END
$$;
COMMENT ON FUNCTION hroe.report_colour(text, integer) IS
'internal: the colour of a design in the charts of hroe.design_html (hroe_normalized blue, hroe_single green, hroe_multi orange, others by position)';

-- A horizontal grouped bar chart: per label (in p_labels' order) one bar per
-- series; p_data [{"label", "series", "value"}], log scale when p_log.
CREATE FUNCTION hroe.report_bar_chart(p_id text, p_title text, p_unit text, p_labels text[], p_series text[],
									  p_data jsonb, p_log boolean)
RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_bar integer := 7;
	v_left integer := 190;
	v_width integer := 560;
	v_group integer := cardinality(p_series) * v_bar + 8;
	v_height integer := 40 + cardinality(p_labels) * v_group + 30;
	v_max float8;
	v_min float8;
	v_svg text;
	l integer;
	s integer;
	v float8;
	x float8;
BEGIN
	SELECT max((d ->> 'value')::float8), min((d ->> 'value')::float8) FILTER (WHERE (d ->> 'value')::float8 > 0)
	INTO v_max, v_min FROM jsonb_array_elements(p_data) d;
	v_max := COALESCE(NULLIF(v_max, 0), 1);
	v_min := COALESCE(v_min, v_max / 10);
	IF p_log THEN
		v_min := power(10, floor(log(v_min)));
		v_max := power(10, ceil(log(v_max)));
		IF v_max <= v_min THEN
			v_max := v_min * 10;
		END IF;
	END IF;
	v_svg := format('<svg id="%s" xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" role="img" aria-label="%s" style="font:11px system-ui,sans-serif">',
					hroe.html_escape(p_id), v_left + v_width + 60, v_height, v_left + v_width + 60, v_height, hroe.html_escape(p_title))
		|| format('<text x="0" y="14" style="font-weight:600;font-size:13px">%s</text>', hroe.html_escape(p_title));
	-- legend
	FOR s IN 1 .. cardinality(p_series) LOOP
		v_svg := v_svg || format('<rect x="%s" y="22" width="10" height="10" fill="%s"/><text x="%s" y="31">%s</text>',
								 v_left + (s - 1) * 150, hroe.report_colour(p_series[s], s), v_left + (s - 1) * 150 + 14, hroe.html_escape(p_series[s]));
	END LOOP;
	-- grid lines: decades (log) or fifths (linear)
	FOR l IN 0 .. CASE WHEN p_log THEN round(log(v_max / v_min))::integer ELSE 5 END LOOP
		v := CASE WHEN p_log THEN v_min * power(10, l) ELSE v_max * l / 5 END;
		x := v_left + v_width * l / CASE WHEN p_log THEN GREATEST(round(log(v_max / v_min)), 1) ELSE 5 END;
		v_svg := v_svg || format('<line x1="%s" y1="38" x2="%s" y2="%s" stroke="#e2e8f0"/><text x="%s" y="%s" text-anchor="middle" fill="#475569">%s</text>',
								 round(x::numeric, 1), round(x::numeric, 1), v_height - 24, round(x::numeric, 1), v_height - 10,
								 rtrim(rtrim(to_char(v::numeric, 'FM999999990.999'), '0'), '.') || ' ' || p_unit);
	END LOOP;
	FOR l IN 1 .. cardinality(p_labels) LOOP
		v_svg := v_svg || format('<text x="%s" y="%s" text-anchor="end">%s</text>', v_left - 6,
								 40 + (l - 1) * v_group + cardinality(p_series) * v_bar / 2 + 4, hroe.html_escape(p_labels[l]));
		FOR s IN 1 .. cardinality(p_series) LOOP
			SELECT (d ->> 'value')::float8 INTO v FROM jsonb_array_elements(p_data) d
			WHERE d ->> 'label' = p_labels[l] AND d ->> 'series' = p_series[s] LIMIT 1;
			CONTINUE WHEN v IS NULL;
			x := CASE WHEN p_log THEN v_width * GREATEST(log(GREATEST(v, v_min) / v_min) / log(v_max / v_min), 0.005)
					  ELSE v_width * GREATEST(v / v_max, 0.005) END;
			v_svg := v_svg || format('<rect x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s, %s: %s %s</title></rect>',
									 v_left, 40 + (l - 1) * v_group + (s - 1) * v_bar, round(x::numeric, 1), v_bar - 1,
									 hroe.report_colour(p_series[s], s), hroe.html_escape(p_labels[l]), hroe.html_escape(p_series[s]), v, p_unit);
		END LOOP;
	END LOOP;
	RETURN v_svg || '</svg>';
END
$$;
COMMENT ON FUNCTION hroe.report_bar_chart(text, text, text, text[], text[], jsonb, boolean) IS
'internal: an SVG horizontal grouped bar chart for hroe.design_html: per label one bar per series from p_data [{"label", "series", "value"}], log scale when p_log';

-- A small line chart per pattern: latency against scale, a line per model,
-- both axes logarithmic; p_data [{"scale", "pattern", "model", "ms"}].
CREATE FUNCTION hroe.report_growth_chart(p_pattern text, p_data jsonb)
RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_models text[] := ARRAY(SELECT DISTINCT d ->> 'model' FROM jsonb_array_elements(p_data) d
							 WHERE d ->> 'pattern' = p_pattern ORDER BY 1);
	v_s0 float8; v_s1 float8; v_m0 float8; v_m1 float8;
	v_svg text;
	m integer;
	v_points text;
BEGIN
	SELECT min((d ->> 'scale')::float8), max((d ->> 'scale')::float8), min((d ->> 'ms')::float8), max((d ->> 'ms')::float8)
	INTO v_s0, v_s1, v_m0, v_m1 FROM jsonb_array_elements(p_data) d
	WHERE d ->> 'pattern' = p_pattern AND (d ->> 'ms')::float8 > 0 AND (d ->> 'scale')::float8 > 0;
	IF v_s0 IS NULL THEN
		RETURN '';
	END IF;
	v_m0 := power(10, floor(log(v_m0)));
	v_m1 := GREATEST(power(10, ceil(log(v_m1))), v_m0 * 10);
	v_s1 := GREATEST(v_s1, v_s0 * 10);
	v_svg := format('<svg class="growth" xmlns="http://www.w3.org/2000/svg" width="220" height="150" viewBox="0 0 220 150" style="font:10px system-ui,sans-serif"><text x="4" y="12" style="font-weight:600">%s</text>', hroe.html_escape(p_pattern))
		|| '<rect x="34" y="18" width="176" height="104" fill="none" stroke="#cbd5e1"/>'
		|| format('<text x="30" y="24" text-anchor="end">%s</text><text x="30" y="122" text-anchor="end">%s</text>', v_m1, v_m0)
		|| format('<text x="34" y="134">%s</text><text x="210" y="134" text-anchor="end">scale %s</text><text x="4" y="146" fill="#475569">ms (log) against scale (log)</text>', v_s0, v_s1);
	FOR m IN 1 .. cardinality(v_models) LOOP
		SELECT string_agg(format('%s,%s', round((34 + 176 * log((d ->> 'scale')::float8 / v_s0) / log(v_s1 / v_s0))::numeric, 1),
								 round((122 - 104 * log((d ->> 'ms')::float8 / v_m0) / log(v_m1 / v_m0))::numeric, 1)),
						  ' ' ORDER BY (d ->> 'scale')::float8)
		INTO v_points FROM jsonb_array_elements(p_data) d
		WHERE d ->> 'pattern' = p_pattern AND d ->> 'model' = v_models[m] AND (d ->> 'ms')::float8 > 0 AND (d ->> 'scale')::float8 > 0;
		v_svg := v_svg || format('<polyline points="%s" fill="none" stroke="%s" stroke-width="2"><title>%s</title></polyline>',
								 v_points, hroe.report_colour(v_models[m], m), hroe.html_escape(v_models[m]));
	END LOOP;
	RETURN v_svg || '</svg>';
END
$$;
COMMENT ON FUNCTION hroe.report_growth_chart(text, jsonb) IS
'internal: an SVG line chart of one pattern''s latency against scale (both logarithmic), a line per model, from the benchmark''s rows [{"scale", "pattern", "model", "ms"}], for hroe.design_html';
