# hroe: DynamoDB single-table design in PostgreSQL (PGXS build)

EXTENSION  = hroe
EXTVERSION = 0.3
MODULE_big = hroe
PGFILEDESC = "hroe - DynamoDB single-table design in PostgreSQL"

# C sources: one folder per layer, lowest first (doc/architecture.md); each
# file one concern, its name prefixed by it
HROE_LAYERS = base types expr partiql tables ops api streams shard transfer http
OBJS = $(foreach d,. $(HROE_LAYERS),$(patsubst %.c,%.o,$(sort $(wildcard src/$(d)/*.c))))
PG_CPPFLAGS += $(foreach d,$(HROE_LAYERS),-Isrc/$(d)) -Iprotocol

# DynamoDB's HTTP protocol (protocol/: reading a request, its checks, SigV4,
# error bodies): a static library both front ends link, hroe-gateway and the
# in-server workers (src/http/)
PROTOCOL_OBJS = $(patsubst %.c,%.o,$(sort $(wildcard protocol/*.c)))
SHLIB_LINK += protocol/libhroe_protocol.a
SHLIB_LINK += -lmicrohttpd -lcrypto -lz -lzstd
# libcurl: exports to and imports from an S3-compatible endpoint (src/transfer/transfer_remote.c)
PG_CPPFLAGS += $(shell pkg-config --cflags libcurl)
SHLIB_LINK += $(shell pkg-config --libs libcurl)
# libpq: hroe's own reads of distributed tables (src/tables/remote_read.c)
PG_CPPFLAGS += -I$(includedir)
SHLIB_LINK += -L$(libdir) -lpq
# hroe.so exports only the symbols src/exports.map lists, all under hroe's
# prefix or PostgreSQL's (test/t_release_build.sh).  make HROE_LEGACY=1
# builds a library that also answers to the C names the released install
# scripts give the key, item and collection functions (src/legacy/, README
# "Updating"): for databases of 0.1 and 0.2 used before they are updated.
ifeq ($(HROE_LEGACY),1)
OBJS += src/legacy/hroe_legacy_names.o
HROE_EXPORTS = src/legacy/exports.map
else
HROE_EXPORTS = src/exports.map
endif
SHLIB_LINK += -Wl,--version-script=$(srcdir)/$(HROE_EXPORTS)

# The install script is assembled from the SQL declarations that sit beside
# the C code of each concern, in dependency order (layers depend downward).
# The HR/OE showcase is an extension of its own, hroe_hr (models/, built and
# installed by models/Makefile, called from here): CREATE EXTENSION hroe
# creates no DynamoDB table.
SCRIPT_PARTS = \
	src/hroe.sql \
	src/types/key.sql \
	src/types/item.sql \
	src/types/collection.sql \
	src/expr/expression.sql \
	src/expr/expression_eval.sql \
	src/tables/tables.sql \
	src/tables/tables_meta.sql \
	src/tables/throttle.sql \
	src/tables/tables_collection.sql \
	src/tables/table_options.sql \
	src/tables/partition.sql \
	src/tables/vectors.sql \
	src/ops/operations.sql \
	src/ops/vector_search.sql \
	src/api/api.sql \
	src/api/backup.sql \
	src/streams/streams.sql \
	src/streams/ttl.sql \
	src/transfer/transfer.sql \
	src/tables/policy.sql \
	src/streams/pitr.sql \
	src/http/gateway.sql \
	src/shard/shard.sql \
	src/ops/grid.sql

DATA_built = hroe--$(EXTVERSION).sql
# Earlier releases: each one's install script as released, and the upgrade
# scripts between them (test/t_upgrade.sh installs every earlier release,
# updates it and compares it with a fresh installation)
DATA = upgrade/hroe--0.1.sql upgrade/hroe--0.1--0.2.sql upgrade/hroe--0.2.sql upgrade/hroe--0.2--0.3.sql

# pg_regress: every file in sql/, each runnable alone (the extensions are
# preloaded into the test database, which is created as UTF8: hroe and the
# HR/OE showcase hroe_hr, whose models most files read;
# test/t_fresh_account.sh checks a database with hroe alone)
REGRESS      = $(patsubst sql/%.sql,%,$(sort $(wildcard sql/*.sql)))
REGRESS_OPTS = --load-extension=hroe --load-extension=hroe_hr --encoding=UTF8

# pg_isolation_regress: specs in test/specs, expected output in test/expected
ISOLATION      = $(patsubst test/specs/%.spec,%,$(sort $(wildcard test/specs/*.spec)))
ISOLATION_OPTS = --inputdir=test --load-extension=hroe --load-extension=hroe_hr

EXTRA_CLEAN = results regression.diffs regression.out output_iso test/out \
	gateway/*.o gateway/hroe-gateway gateway/fuzz_request \
	protocol/*.o protocol/libhroe_protocol.a \
	src/legacy/*.o src/legacy/exports.map

PG_CONFIG ?= pg_config
PG_CFLAGS += -Wall -Wextra -Werror -Wno-unused-parameter -Wno-sign-compare \
	-Wno-missing-field-initializers
ifeq ($(ASSERTS),1)
PG_CPPFLAGS += -DUSE_ASSERT_CHECKING
endif

# test/sanitize.sh builds with SANITIZE=1: sanitizer options compiled in
# (test/sanitize_options.c), the flags come in PROFILE
ifeq ($(SANITIZE),1)
OBJS += test/sanitize_options.o
endif

# No LLVM bitcode: JIT inlining of hroe's functions is not worth a clang
# dependency on every build machine.
override with_llvm = no

PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

hroe--$(EXTVERSION).sql: $(SCRIPT_PARTS)
	cat $^ > $@

# The HR/OE showcase, the extension hroe_hr (models/Makefile: PGXS builds one
# MODULE_big per Makefile), built, installed and cleaned with hroe
all: showcase
install: install-showcase
clean: clean-showcase
.PHONY: showcase install-showcase clean-showcase
showcase:
	$(MAKE) -C models
install-showcase:
	$(MAKE) -C models install
clean-showcase:
	$(MAKE) -C models clean

$(shlib): $(HROE_EXPORTS)

# The legacy library linked from the same objects into LEGACY_OUT, leaving
# hroe.so alone (test/t_upgrade.sh creates the databases of earlier releases
# with it, then updates them with hroe.so)
.PHONY: legacy-library
legacy-library:
	test -n "$(LEGACY_OUT)"
	$(MAKE) HROE_LEGACY=1 shlib='$(LEGACY_OUT)/hroe.so' '$(LEGACY_OUT)/hroe.so'

# the legacy library's version script: src/exports.map and the old names
src/legacy/exports.map: src/exports.map src/legacy/hroe_legacy_names.c
	{ sed '/^\tlocal:/,$$d' src/exports.map; \
	  sed -n 's/^HROE_LEGACY(\([a-z_]*\),.*/\t\t\1;/p' src/legacy/hroe_legacy_names.c; \
	  sed -n '/^\tlocal:/,$$p' src/exports.map; } >$@

# hroe-gateway (gateway/): a standalone program beside the extension.  PGXS
# builds one MODULE_big or one PROGRAM, not both, hence explicit rules; it
# is installed into PostgreSQL's bindir.  Libraries: libpq, libmicrohttpd
# (HTTP/1.1, TLS through GnuTLS), OpenSSL's libcrypto (SigV4), zlib (CRC32).
GATEWAY_OBJS = $(patsubst %.c,%.o,$(filter-out gateway/fuzz_request.c,$(wildcard gateway/*.c)))
GATEWAY_CFLAGS = -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror \
	-Wno-unused-parameter -Wno-missing-field-initializers -Wno-format-truncation \
	-I$(shell $(PG_CONFIG) --includedir) -Iprotocol -DHROE_VERSION=\"$(EXTVERSION)\" $(GATEWAY_EXTRA_CFLAGS)
GATEWAY_LIBS = -L$(shell $(PG_CONFIG) --libdir) -lpq -lmicrohttpd -lcrypto -lz -lpthread

all: gateway/hroe-gateway

gateway/%.o: gateway/%.c $(wildcard gateway/*.h protocol/*.h)
	$(CC) $(GATEWAY_CFLAGS) -c -o $@ $<

# the protocol library: position-independent (hroe.so links it too), its
# symbols hidden from hroe.so's exports
protocol/%.o: protocol/%.c $(wildcard protocol/*.h)
	$(CC) $(GATEWAY_CFLAGS) -fPIC -fvisibility=hidden -c -o $@ $<

protocol/libhroe_protocol.a: $(PROTOCOL_OBJS)
	rm -f $@
	$(AR) crs $@ $^

$(shlib): protocol/libhroe_protocol.a

gateway/hroe-gateway: $(GATEWAY_OBJS) protocol/libhroe_protocol.a
	$(CC) $(GATEWAY_CFLAGS) -o $@ $^ $(GATEWAY_LIBS)

# libFuzzer target of the request parsing and SigV4 (a developer command)
gateway/fuzz_request: gateway/fuzz_request.c protocol/request.c gateway/route.c protocol/sigv4.c protocol/json.c protocol/util.c $(wildcard gateway/*.h protocol/*.h)
	clang -std=c11 -D_GNU_SOURCE -Iprotocol -g -O1 -fsanitize=fuzzer,address,undefined -Wall -Wextra -Werror \
		-Wno-unused-parameter -Wno-missing-field-initializers -o $@ $(filter %.c,$^) -lcrypto

install: install-gateway
.PHONY: install-gateway
install-gateway: gateway/hroe-gateway
	$(MKDIR_P) '$(DESTDIR)$(bindir)'
	$(INSTALL_PROGRAM) gateway/hroe-gateway '$(DESTDIR)$(bindir)/hroe-gateway'

.PHONY: check-all main bench sanitize fuzz deb
# The README's two commands
check-all:
	test/check.sh
main:
	test/main.sh
# The Debian packages postgresql-15-hroe and hroe-gateway (debian/), built in
# a copy of the tree; prints the directory they are in (HROE_DEB_OUT=dir)
deb:
	test/deb.sh
# Benchmarks: all of them, or one with BENCH=name (test/bench/name.sh)
bench:
	test/bench/run.sh $(BENCH)
# The whole suite under AddressSanitizer + UBSan (a developer command, not CI)
sanitize:
	test/sanitize.sh
# The libFuzzer harnesses, FUZZ_SECONDS each (the suite's test/t_fuzz.sh
# runs them for seconds only); corpora stay in test/fuzz/corpus-* (ignored)
FUZZ_SECONDS ?= 600
fuzz:
	test/fuzz/run.sh $(FUZZ_SECONDS)
	test/fuzz/run-expression.sh $(FUZZ_SECONDS)
	test/fuzz/run-partiql.sh $(FUZZ_SECONDS)
