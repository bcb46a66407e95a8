"""test/bench/profile_report.py: the table of test/bench/profile.sh.

    profile_report.py OUTDIR WARM N LABEL...

Reads OUTDIR/LABEL/{OP-WARM,OP-WARM+N,select1-100,select1-1100}.txt
(callgrind_annotate, self instructions per function; OP DescribeEndpoints,
GetItem, PutItem), sorts every function into a category by its object,
source file or name, and prints instructions per request: the run of WARM + N
requests less the run of WARM, over N (SELECT 1: 1100 less 100, over 1000)."""
import re
import os
import sys

outdir, warm, n, labels = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
LINE = re.compile(r"^\s*([\d,]+)\s+(?:\(\s*[\d.]+%\)\s+)?(.*?):(\S+)(?:\s+\[(.*)\])?\s*$")

# (category, test on (file, function, object)); the first that matches wins
CATEGORIES = [
    # memset's "rep stosb" counts as one instruction a byte: libmicrohttpd
    # zeroing a connection's memory pool (32 kB, MHD's default) for each request
    ("memset (mostly libmicrohttpd zeroing its 32 kB connection pool per request; one per byte)",
     lambda f, fn, o: fn.startswith("__memset")),
    ("HTTP parse and answer (libmicrohttpd, protocol/exchange, request, guard, util, src/http)",
     lambda f, fn, o: "libmicrohttpd" in o or re.search(r"protocol/(exchange|request|guard|util)\.c|src/http/", f)),
    ("SigV4 (protocol/sigv4, OpenSSL)", lambda f, fn, o: "libcrypto" in o or "protocol/sigv4.c" in f),
    ("JSON (protocol/json, src/types, PostgreSQL's json/jsonb)",
     lambda f, fn, o: re.search(r"protocol/json\.c|src/types/", f) or re.search(r"(?i)json", fn)),
    ("WAL (XLogInsert, XLogFlush, CRC)",
     lambda f, fn, o: re.match(r"(XLog|xlog|log_heap|CopyXLog|ReserveXLog|WALInsert|pg_comp_crc32c|issue_xlog)", fn)),
    ("index probe (btree)",
     lambda f, fn, o: re.match(r"(_bt|bt[a-z]|index_|_hash_|ExecIndex|IndexNext|ExecInsertIndexTuples)", fn)),
    ("transaction (start, commit, snapshot, locks, resource owners)",
     lambda f, fn, o: re.search(r"Transaction|Snapshot|ProcArray|Xact|AtEOXact|AtCommit|AtStart|Lock|ResourceOwner"
                                r"|TransactionId|CommandCounter|pgstat|SetCurrentStatement", fn)),
    ("heap and buffers", lambda f, fn, o: re.match(r"(heap|Heap|ReadBuffer|PinBuffer|UnpinBuffer|Buffer|MarkBuffer|"
                                                   r"ReleaseBuffer|toast|Toast|Page|visibilitymap)", fn)),
    ("memory (palloc, AllocSet, malloc)",
     lambda f, fn, o: re.match(r"(palloc|pfree|repalloc|AllocSet|MemoryContext|GenerationAlloc|SlabAlloc|"
                               r"malloc|free|_int_malloc|_int_free|calloc|realloc|cfree|unlink_chunk)", fn)),
    ("hroe's operation (src/ but types and http)", lambda f, fn, o: "/src/" in f or "hroe.so" in o),
    ("libc (string, memcpy, ...)", lambda f, fn, o: "libc.so" in o or "ld-linux" in o),
    ("PostgreSQL: executor, SPI, plans, catalog caches, fmgr (named)",
     lambda f, fn, o: "postgres" in o and fn != "0x" and not fn.startswith("0x")),
    ("PostgreSQL: static functions (no symbol)", lambda f, fn, o: "postgres" in o),
    ("other", lambda f, fn, o: True),
]


def read(path):
    costs = {}
    with open(path) as fh:
        for line in fh:
            m = LINE.match(line)
            if m:
                key = (m.group(2), m.group(3), m.group(4) or "")
                costs[key] = costs.get(key, 0) + int(m.group(1).replace(",", ""))
    return costs


def categorise(costs, div):
    out = {c: 0.0 for c, _ in CATEGORIES}
    top = []
    for (f, fn, o), v in costs.items():
        for c, test in CATEGORIES:
            if test(f, fn, o):
                out[c] += v / div
                break
        top.append((v / div, fn, f, o))
    return out, sorted(top, reverse=True)


cols = []
tops = {}
for label in labels:
    d = "%s/%s" % (outdir, label)
    for op in os.environ.get("HROE_BENCH_OPS", "DescribeEndpoints GetItem PutItem").split():
        a, b = read("%s/%s-%d.txt" % (d, op, warm)), read("%s/%s-%d.txt" % (d, op, warm + n))
        diff = {k: b.get(k, 0) - a.get(k, 0) for k in set(a) | set(b)}
        cols.append(("%s %s" % (label, op),) + categorise(diff, n))
        tops["%s %s" % (label, op)] = cols[-1][2]
    a, b = read("%s/select1-100.txt" % d), read("%s/select1-1100.txt" % d)
    diff = {k: b.get(k, 0) - a.get(k, 0) for k in set(a) | set(b)}
    cols.append(("%s SELECT 1 (libpq)" % label,) + categorise(diff, 1000))

print("Instructions per request (user space, self cost by category; thousands)")
print()
print("| category | " + " | ".join(c[0] for c in cols) + " |")
print("|---|" + "---:|" * len(cols))
for c, _ in CATEGORIES:
    vals = [col[1][c] for col in cols]
    if all(abs(v) < 50 for v in vals):
        continue
    print("| %s | %s |" % (c, " | ".join("%.1f" % (round(v / 1000, 1) + 0.0) for v in vals)))
print("| **total** | %s |" % " | ".join("**%.1f**" % (sum(col[1].values()) / 1000) for col in cols))
print()
for k, top in tops.items():
    print("Top functions, %s (self, thousands of instructions per request):" % k)
    print()
    for v, fn, f, o in top[:25]:
        print("    %8.1f  %s  %s" % (v / 1000, fn, (f if f != "???" else o.rsplit("/", 1)[-1])))
    print()
