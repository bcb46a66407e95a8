# hroe: DynamoDB single-table design in PostgreSQL (PGXS build)

EXTENSION  = hroe
EXTVERSION = 0.3
MODULE_big = hroe
PGFILEDESC = "hroe - DynamoDB single-table design in PostgreSQL"

# C sources, one per type or concern
OBJS = \
	src/hroe.o \
	src/hroe_legacy.o \
	src/catalog.o \
	src/key.o \
	src/key_support.o \
	src/item_node.o \
	src/item_number.o \
	src/item_json_read.o \
	src/item_json_tree.o \
	src/item_json_write.o \
	src/item_binary.o \
	src/item.o \
	src/collection_io.o \
	src/collection.o \
	src/expression_parse.o \
	src/expression_values.o \
	src/expression_check.o \
	src/expression_key.o \
	src/expression_update_parse.o \
	src/expression_eval.o \
	src/expression_update.o \
	src/expression_api.o \
	src/tables.o \
	src/tables_keys.o \
	src/tables_arn.o \
	src/tables_collection.o \
	src/tables_partition.o \
	src/errors.o \
	src/capacity.o \
	src/operations.o \
	src/operations_read.o \
	src/operations_batch.o \
	src/operations_write.o \
	src/transactions.o \
	src/direct_write.o \
	src/api.o \
	src/gateway_call.o \
	src/http_server.o \
	src/api_items.o \
	src/api_legacy.o \
	src/api_ddl.o \
	src/api_transact.o \
	src/api_tags.o \
	src/api_billing.o \
	src/api_validate.o \
	src/api_partiql.o \
	src/api_partiql_run.o \
	src/partiql_lex.o \
	src/partiql_parse.o \
	src/api_streams.o \
	src/streams.o \
	src/ttl.o \
	src/shard.o \
	src/shard_keys.o \
	src/shard_merge.o \
	src/shard_parallel.o

# The in-server HTTP endpoint (src/http_server.c) answers as hroe-gateway does:
# the gateway's protocol files, compiled position-independent, are linked in
OBJS += gateway/exchange.pic.o gateway/request.pic.o gateway/sigv4.pic.o gateway/json.pic.o \
	gateway/util.pic.o
SHLIB_LINK += -lmicrohttpd -lcrypto -lz
# hroe.so exports only the symbols src/exports.map lists, all under hroe's
# prefix or PostgreSQL's (test/t_release_build.sh)
SHLIB_LINK += -Wl,--version-script=$(srcdir)/src/exports.map

# The HR/OE showcase (models/) beside the core: its C code, the data generator
OBJS += models/generate.o

# The install script is assembled from the SQL declarations that sit beside
# the C code of each concern, in dependency order (layers depend downward):
# the core's in src/, then the HR/OE showcase's in models/.
SCRIPT_PARTS = \
	src/hroe.sql \
	src/key.sql \
	src/item.sql \
	src/collection.sql \
	src/expression.sql \
	src/expression_eval.sql \
	src/tables.sql \
	src/tables_meta.sql \
	src/tables_collection.sql \
	src/partition.sql \
	src/operations.sql \
	src/api.sql \
	src/streams.sql \
	src/ttl.sql \
	src/gateway.sql \
	src/shard.sql \
	src/grid.sql \
	models/generate.sql \
	models/normalized.sql \
	models/load.sql \
	models/multi.sql \
	models/single.sql \
	models/compare.sql \
	models/report.sql

DATA_built = hroe--$(EXTVERSION).sql
# Earlier releases: each one's install script as released, and the upgrade
# scripts between them (test/t_upgrade.sh installs every earlier release,
# updates it and compares it with a fresh installation)
DATA = upgrade/hroe--0.1.sql upgrade/hroe--0.1--0.2.sql upgrade/hroe--0.2.sql upgrade/hroe--0.2--0.3.sql

# pg_regress: every file in sql/, each runnable alone (the extension is
# preloaded into the test database, which is created as UTF8).
REGRESS      = $(patsubst sql/%.sql,%,$(sort $(wildcard sql/*.sql)))
REGRESS_OPTS = --load-extension=hroe --encoding=UTF8

# pg_isolation_regress: specs in test/specs, expected output in test/expected
ISOLATION      = $(patsubst test/specs/%.spec,%,$(sort $(wildcard test/specs/*.spec)))
ISOLATION_OPTS = --inputdir=test --load-extension=hroe

EXTRA_CLEAN = results regression.diffs regression.out output_iso test/out \
	gateway/*.o gateway/hroe-gateway gateway/fuzz_request

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

$(shlib): src/exports.map

# hroe-gateway (gateway/): a standalone program beside the extension.  PGXS
# builds one MODULE_big or one PROGRAM, not both, hence explicit rules; it
# is installed into PostgreSQL's bindir.  Libraries: libpq, libmicrohttpd
# (HTTP/1.1, TLS through GnuTLS), OpenSSL's libcrypto (SigV4), zlib (CRC32).
GATEWAY_OBJS = $(patsubst %.c,%.o,$(filter-out gateway/fuzz_request.c,$(wildcard gateway/*.c)))
GATEWAY_CFLAGS = -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror \
	-Wno-unused-parameter -Wno-missing-field-initializers -Wno-format-truncation \
	-I$(shell $(PG_CONFIG) --includedir) -DHROE_VERSION=\"$(EXTVERSION)\" $(GATEWAY_EXTRA_CFLAGS)
GATEWAY_LIBS = -L$(shell $(PG_CONFIG) --libdir) -lpq -lmicrohttpd -lcrypto -lz -lpthread

all: gateway/hroe-gateway

gateway/%.o: gateway/%.c $(wildcard gateway/*.h)
	$(CC) $(GATEWAY_CFLAGS) -c -o $@ $<

gateway/%.pic.o: gateway/%.c $(wildcard gateway/*.h)
	$(CC) $(GATEWAY_CFLAGS) -fPIC -fvisibility=hidden -c -o $@ $<

gateway/hroe-gateway: $(GATEWAY_OBJS)
	$(CC) $(GATEWAY_CFLAGS) -o $@ $^ $(GATEWAY_LIBS)

# libFuzzer target of the request parsing and SigV4 (a developer command)
gateway/fuzz_request: gateway/fuzz_request.c gateway/request.c gateway/route.c gateway/sigv4.c gateway/json.c gateway/util.c $(wildcard gateway/*.h)
	clang -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined -Wall -Wextra -Werror \
		-Wno-unused-parameter -Wno-missing-field-initializers -o $@ $(filter %.c,$^) -lcrypto

install: install-gateway
.PHONY: install-gateway
install-gateway: gateway/hroe-gateway
	$(MKDIR_P) '$(DESTDIR)$(bindir)'
	$(INSTALL_PROGRAM) gateway/hroe-gateway '$(DESTDIR)$(bindir)/hroe-gateway'

.PHONY: check-all main bench sanitize fuzz
# The README's two commands
check-all:
	test/check.sh
main:
	test/main.sh
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
