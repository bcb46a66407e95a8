#!/usr/bin/env bash
# test/t_hostile_inputs.sh: hostile input to hroe's SQL surface must end in a
# clean error or a faithful value, never a crashed backend. Runs inside the
# test cluster (PG* variables set): huge text inputs, deep nesting, and
# mutated binary (COPY BINARY -> recv) values of hroe.key, hroe.item and
# hroe.item_collection, including invalid UTF-8 and impossible lengths.
set -uo pipefail
db=hroe_hostile_inputs
work=$(mktemp -d)
trap 'rm -rf "$work"; psql -XAtq -d postgres -c "DROP DATABASE IF EXISTS $db" 2>/dev/null' EXIT
psql -XAtq -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db ENCODING 'UTF8' TEMPLATE template0" || exit 1
psql -XAtq -d "$db" -c "CREATE EXTENSION hroe" || exit 1
failures=0

crashed() { grep -qE 'server closed the connection|terminated abnormally|connection to server was lost|could not connect' "$1"; }

# $1 label, $2 SQL, $3 (optional) extended regex its first line of output
# must match: passes if it does not crash and, given $3, answers as expected
# (the error DynamoDB gives, or the faithful value)
check_sql() {
	local out=$work/out
	psql -XAtq -d "$db" -c "$2" >"$out" 2>&1
	if crashed "$out"; then
		echo "FAIL $1: the backend crashed"; sed 's/^/    /' "$out" | head -5
		failures=$((failures + 1))
	elif [ -n "${3:-}" ] && ! head -1 "$out" | grep -qE "$3"; then
		echo "FAIL $1: expected /$3/, got: $(head -c 160 "$out" | head -1)"
		failures=$((failures + 1))
	else
		echo "ok   $1: $(head -c 160 "$out" | head -1)"
	fi
}

big="repeat('x', 10 * 1024 * 1024)"
check_sql "10 MB hroe.key" "SELECT octet_length(($big)::hroe.key::text)" "Size of hashkey has exceeded the maximum size limit of ?2048 bytes"
check_sql "10 MB hroe.item string" "SELECT hroe.item_size(('{\"a\": {\"S\": \"' || $big || '\"}}')::hroe.item)" "Item size has exceeded the maximum allowed size"
check_sql "10 MB hroe.item attribute name" "SELECT hroe.item_size(('{\"' || $big || '\": {\"S\": \"v\"}}')::hroe.item)" "Attribute name is too large, must be less than 65536 bytes"
check_sql "10 MB hroe.item_collection" "SELECT hroe.item_collection_count(('[{\"SortKey\": {\"S\": \"' || $big || '\"}, \"Item\": {}}]')::hroe.item_collection)" "Aggregated size of all range keys has exceeded the size limit of 1024 bytes"
check_sql "10 MB number" "SELECT ('{\"n\": {\"N\": \"' || repeat('9', 10 * 1024 * 1024) || '\"}}')::hroe.item" "more than 38 significant digits"
check_sql "10 MB item_get path" "SELECT hroe.item_get('{}'::hroe.item, $big)" "^$|^ERROR:"
check_sql "10 MB key condition" "SELECT hroe.explain_key_condition($big, NULL, NULL)" "Expression size has exceeded the maximum allowed size"
check_sql "10,000 nested L in hroe.item" "SELECT ('{\"a\": ' || repeat('{\"L\": [', 10000) || repeat(']}', 10000) || '}')::hroe.item" "Nesting Levels have exceeded supported limits|stack depth limit exceeded"
check_sql "10,000 nested M in hroe.item" "SELECT ('{\"a\": ' || repeat('{\"M\": {\"b\": ', 10000) || '{\"S\": \"x\"}' || repeat('}}', 10000) || '}')::hroe.item" "Nesting Levels have exceeded supported limits|stack depth limit exceeded"
check_sql "10,000 nested arrays via jsonb" "SELECT hroe.item_from_document(('{\"a\": ' || repeat('[', 10000) || repeat(']', 10000) || '}')::jsonb)" "Nesting Levels have exceeded supported limits|stack depth limit exceeded"
check_sql "10,000 nested objects via jsonb" "SELECT hroe.item_from_jsonb(('{\"a\": ' || repeat('{\"M\": {\"b\": ', 10000) || '{\"S\": \"x\"}' || repeat('}}', 10000) || '}')::jsonb)" "Nesting Levels have exceeded supported limits|stack depth limit exceeded"
check_sql "10,000 nested in item_collection" "SELECT ('[{\"SortKey\": {\"S\": \"a\"}, \"Item\": {\"a\": ' || repeat('{\"L\": [', 10000) || repeat(']}', 10000) || '}}]')::hroe.item_collection" "Nesting Levels have exceeded supported limits|stack depth limit exceeded"

# Binary: a valid value per type, sent back through recv mutated.
psql -XAtq -d "$db" -c "CREATE TABLE k (v hroe.key); CREATE TABLE i (v hroe.item); CREATE TABLE c (v hroe.item_collection)" || exit 1
psql -XAtq -d "$db" \
	-c "\\copy (SELECT 'USER#xxxxxxxx'::hroe.key) TO '$work/k.bin' (FORMAT binary)" \
	-c "\\copy (SELECT '{\"pk\": {\"S\": \"xxxxxxxx\"}, \"n\": {\"N\": \"12.5\"}, \"l\": {\"L\": [{\"B\": \"AAEC\"}, {\"SS\": [\"a\", \"b\"]}, {\"M\": {\"q\": {\"BOOL\": true}}}]}}'::hroe.item) TO '$work/i.bin' (FORMAT binary)" \
	-c "\\copy (SELECT '[{\"SortKey\": {\"S\": \"xxxxxxxx\"}, \"Item\": {\"a\": {\"S\": \"v\"}}}, {\"SortKey\": {\"S\": \"y\"}, \"Item\": {}}]'::hroe.item_collection) TO '$work/c.bin' (FORMAT binary)" || exit 1

# Write one COPY BINARY file per mutation of the value in $1; print the names.
mutate() {
	perl -e '
		my ($in, $pre) = @ARGV;
		open my $f, "<:raw", $in or die; local $/; my $all = <$f>;
		my $len = unpack("N", substr($all, 21, 4));
		my $v = substr($all, 25, $len);
		my @m;
		push @m, substr($v, 0, $_) for grep { $_ < length $v } (0, 1, 2, 3, 4, 5, 8, int(length($v) / 2), length($v) - 1);
		for my $p (0 .. length($v) - 1) {
			for my $b ("\x00", "\xff", "\x7f", "\x80") {
				my $w = $v; substr($w, $p, 1) = $b; push @m, $w;
			}
		}
		for my $bad ("\xc3\x28", "\xff\xfe", "\xed\xa0\x80", "\xe2\x82", "\x00") {
			(my $w = $v) =~ s/xxxxxxxx/xxx${bad}xxx/; push @m, $w;
		}
		push @m, $v . "\x00\x00\x00\x00", $v . $v;
		my $n = 0;
		for my $w (@m) {
			my $name = sprintf("%s.%04d", $pre, $n++);
			open my $o, ">:raw", $name or die;
			print $o substr($all, 0, 19), pack("n", 1), pack("N", length $w), $w, pack("n", 0xffff);
			close $o; print "$name\n";
		}' "$1" "$2"
}

for t in k i c; do
	mutate "$work/$t.bin" "$work/m$t" >"$work/list.$t"
	n=$(wc -l <"$work/list.$t")
	sed "s|.*|\\\\copy $t FROM '&' (FORMAT binary)|" "$work/list.$t" >"$work/copy.$t.sql"
	psql -Xq -d "$db" -f "$work/copy.$t.sql" >"$work/copy.$t.out" 2>&1
	errors=$(grep -c ERROR "$work/copy.$t.out")
	rows=$(psql -XAtq -d "$db" -c "SELECT count(*) FROM $t")
	if crashed "$work/copy.$t.out"; then
		echo "FAIL binary $t: a mutated value crashed the backend"
		grep -B2 -E 'server closed|terminated abnormally' "$work/copy.$t.out" | head -8 | sed 's/^/    /'
		failures=$((failures + 1))
	elif [ $((errors + rows)) -ne "$n" ]; then
		echo "FAIL binary $t: $n mutated values, but $errors rejected and $rows accepted"
		failures=$((failures + 1))
	else
		echo "ok   binary $t: $n mutated values, $errors rejected with an error, $rows accepted"
	fi
	# every accepted value must survive output and re-input unchanged
	check_sql "accepted $t values round-trip" \
		"SELECT count(*) FILTER (WHERE v::text::$(case $t in k) echo hroe.key ;; i) echo hroe.item ;; c) echo hroe.item_collection ;; esac)::text IS DISTINCT FROM v::text) AS changed FROM $t"
	grep -q '^0$' "$work/out" || { echo "FAIL accepted $t values do not round-trip: $(cat "$work/out")"; failures=$((failures + 1)); }
done

# Error messages quote input bytes escaped (\xNN), never raw: every message
# the mutated values drew is valid UTF-8, and an N value holding an invalid
# byte or a NUL is quoted with it escaped
for t in k i c; do
	if perl -MEncode -e 'local $/; my $s = <STDIN>; decode("UTF-8", $s, Encode::FB_CROAK); 1' <"$work/copy.$t.out" 2>/dev/null; then
		echo "ok   binary $t: every error message is valid UTF-8"
	else
		echo "FAIL binary $t: an error message carries invalid UTF-8:"
		grep -naxv '.*' "$work/copy.$t.out" | head -3 | sed 's/^/    /'
		failures=$((failures + 1))
	fi
done
for b in ff 00; do
	perl -e '
		my ($in, $b, $out) = @ARGV;
		open my $f, "<:raw", $in or die; local $/; my $all = <$f>;
		my $len = unpack("N", substr($all, 21, 4));
		my $v = substr($all, 25, $len);
		my $c = chr(hex $b);
		$v =~ s/12\.5/1$c.5/ or die "no N value";
		open my $o, ">:raw", $out or die;
		print $o substr($all, 0, 19), pack("n", 1), pack("N", length $v), $v, pack("n", 0xffff);' \
		"$work/i.bin" "$b" "$work/n$b.bin"
	check_sql "N value with byte 0x$b (binary)" "\\copy i FROM '$work/n$b.bin' (FORMAT binary)" \
		"numeric value: 1\\\\x$b\\.5\$"
done

psql -XAtq -d "$db" -c "SELECT 1" >/dev/null 2>&1 || { echo "FAIL the server is not answering"; failures=$((failures + 1)); }
echo "hostile inputs: $failures failure(s)"
[ "$failures" -eq 0 ]
