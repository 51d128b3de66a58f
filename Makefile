# utf8ext - build, test, bench, install.
#
#   make            ./utf8ext.so (the loadable extension)
#   make test       every test (installs missing Debian packages first)
#   make test-asan  the same under AddressSanitizer + UBSan
#   make test-tsan  the thread test under ThreadSanitizer
#   make test-valgrind  the sql/ scripts in the sqlite3 shell under valgrind
#   make test-fresh the README's commands on a fresh Debian 12 (debootstrap)
#   make test-big   512 MiB and 100 MB values, peak memory (slow)
#   make fuzz FUZZ_SECONDS=N  each libFuzzer target for N seconds
#   make demo       build, load into sqlite3, audit the bundled sample table
#   make bench      the benchmark
#   make guess-bench  utf8_guess's speed next to uchardet's (fetches the corpus)
#   make moji-eval  utf8_unmojibake next to ftfy on misread corpus text (FTFY_SRC=DIR runs ftfy)
#   make clean

CC      ?= cc
FUZZ_CC ?= clang
CFLAGS  ?= -O2
# CPPFLAGS and LDFLAGS (as packagers pass them, e.g. dpkg-buildflags'
# hardening flags) go into every compile and every link below.
CPPFLAGS ?=
LDFLAGS  ?=
WARN    := -Wall -Wextra
PIC     := -fPIC -fvisibility=hidden
BUILD   ?= build
SHELL   := /bin/bash

CORE_SRC := core/decode.c core/fix.c core/recode.c core/dispatch.c core/context.c \
            core/mojibake.c core/widetext.c core/charsets.c core/charsets_encode.c \
            core/charsets_tables.c \
            core/guess.c core/model_tables.c core/reencode.c core/c1moji.c \
            core/cesumoji.c core/lossymoji.c
CORE_HDR := core/utf8.h core/impl.h core/context.h core/mojibake.h core/mojiscan.h \
            core/charsets.h core/guess.h core/model.h core/model_tables.h core/reencode.h \
            core/c1moji.h core/cesumoji.h core/lossymoji.h

# SIMD paths: each file carries its own target attributes, so no global -m
# flag is needed and the .so runs on any CPU of the architecture.
MACHINE := $(shell $(CC) -dumpmachine 2>/dev/null)
ifneq (,$(filter x86_64%,$(MACHINE)))
  CORE_DEFS += -DUTF8EXT_HAVE_X86
  CORE_SRC  += core/simd_sse4.c core/simd_avx2.c core/simd_avx512.c core/cpu_x86.c
endif
ifneq (,$(filter aarch64%,$(MACHINE)))
  CORE_DEFS += -DUTF8EXT_HAVE_NEON
  CORE_SRC  += core/simd_neon.c
endif
CORE_HDR += core/simd_kl.h core/simd_x86.h

CORE_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(CORE_SRC))
GLUE_SRC := utf8ext.c utf8ext_value.c utf8ext_scalars.c utf8ext_codepoints.c \
            utf8ext_scan.c utf8ext_audit.c utf8ext_spill.c utf8ext_job.c \
            utf8ext_repair.c utf8ext_undo.c utf8ext_guess.c \
            utf8ext_guard.c
GLUE_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(GLUE_SRC))

# ---- platform: the module's file name (ecosystem section) ---------------
# SQLite's .load appends the platform's own suffix, so the module is
# utf8ext.so on Linux and the BSDs, utf8ext.dylib on macOS and utf8ext.dll
# on Windows (MinGW, also when cross-compiling). The compiler's target
# decides, so "make CC=x86_64-w64-mingw32-gcc" names it right; uname is the
# fallback for a compiler without -dumpmachine.
TARGET_OS := $(or $(MACHINE),$(shell uname -s | tr A-Z a-z))
ifneq (,$(findstring mingw,$(TARGET_OS))$(findstring cygwin,$(TARGET_OS))$(findstring msys,$(TARGET_OS)))
  SO_EXT := .dll
else ifneq (,$(findstring darwin,$(TARGET_OS))$(findstring apple,$(TARGET_OS)))
  SO_EXT := .dylib
else
  SO_EXT := .so
endif

SO      ?= utf8ext$(SO_EXT)

all: $(SO)

# The core needs no SQLite header; the glue needs both.
$(BUILD)/core/%.o: core/%.c $(CORE_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(PIC) $(CORE_DEFS) -Icore -c $< -o $@

$(BUILD)/%.o: %.c $(CORE_HDR) utf8ext.h utf8ext_glue.h utf8ext_scan.h utf8ext_spill.h \
               utf8ext_job.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(PIC) $(CORE_DEFS) -Icore -I. -c $< -o $@

$(SO): $(GLUE_OBJ) $(CORE_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -shared $^ -o $@

# ---- tests --------------------------------------------------------------

deps:
	@bash tools/install-deps.sh

$(BUILD)/test/core_test: test/core_test.c test/reference.c test/reference.h test/testutil.h $(CORE_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(LDFLAGS) $(CORE_DEFS) -Icore -Itest test/core_test.c test/reference.c $(CORE_OBJ) -o $@

$(BUILD)/test/reencode_test: test/reencode_test.c $(CORE_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(LDFLAGS) $(CORE_DEFS) -Icore test/reencode_test.c $(CORE_OBJ) -o $@

$(BUILD)/test/readings_test: test/readings_test.c $(CORE_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(LDFLAGS) $(CORE_DEFS) -Icore test/readings_test.c $(CORE_OBJ) -o $@

$(BUILD)/test/charsets_test: test/charsets_test.c $(CORE_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(LDFLAGS) $(CORE_DEFS) -Icore test/charsets_test.c $(CORE_OBJ) -o $@

$(BUILD)/test/guess_test: test/guess_test.c $(CORE_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(LDFLAGS) $(CORE_DEFS) -Icore test/guess_test.c $(CORE_OBJ) -lm -o $@

$(BUILD)/test/context_test: test/context_test.c test/testutil.h $(CORE_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(LDFLAGS) $(CORE_DEFS) -Icore test/context_test.c $(CORE_OBJ) -o $@

# core/mojibake.c against text misread by the test's own charset tables.
$(BUILD)/test/mojibake_test: test/mojibake_test.c $(CORE_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(WARN) $(CORE_DEFS) -Icore test/mojibake_test.c $(CORE_OBJ) -o $@

# Every SIMD path the CPU runs against the scalar core and an RFC 3629
# reference. --quick (or a number, scaling the iterations) for sanitizers.
$(BUILD)/test/simd_test: test/simd_test.c $(CORE_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(LDFLAGS) $(CORE_DEFS) -Icore test/simd_test.c $(CORE_OBJ) -o $@

# Every repair kernel (core/simd_kl.h kl_fix) against the reference's
# repair, inputs and outputs against guard pages.
$(BUILD)/test/fix_test: test/fix_test.c test/reference.c test/reference.h $(CORE_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(LDFLAGS) $(CORE_DEFS) -Icore -Itest test/fix_test.c test/reference.c $(CORE_OBJ) -o $@

# The extension's glue compiled into a test program, SQLite's API called
# directly (SQLITE_CORE), registered with sqlite3_auto_extension().
STATIC_EXT_SRC  := $(GLUE_SRC) $(CORE_SRC)
STATIC_EXT_DEFS := $(CORE_DEFS) -DSQLITE_CORE -Icore -I.
STATIC_EXT_DEPS := $(STATIC_EXT_SRC) $(CORE_HDR) utf8ext.h utf8ext_glue.h utf8ext_scan.h \
                   utf8ext_spill.h utf8ext_job.h

$(BUILD)/test/malloc_test: test/malloc_test.c test/testutil.h $(STATIC_EXT_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(LDFLAGS) $(STATIC_EXT_DEFS) test/malloc_test.c $(STATIC_EXT_SRC) -lsqlite3 -o $@

$(BUILD)/test/thread_test: test/thread_test.c test/testutil.h $(STATIC_EXT_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(LDFLAGS) $(STATIC_EXT_DEFS) test/thread_test.c $(STATIC_EXT_SRC) -lsqlite3 -lpthread -o $@

$(BUILD)/test/limits_test: test/limits_test.c $(STATIC_EXT_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(LDFLAGS) $(STATIC_EXT_DEFS) test/limits_test.c $(STATIC_EXT_SRC) -lsqlite3 -o $@

# utf8_audit's peak memory over 1,000,000 ill-formed values.
$(BUILD)/test/memory_test: test/memory_test.c $(STATIC_EXT_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(LDFLAGS) $(STATIC_EXT_DEFS) test/memory_test.c $(STATIC_EXT_SRC) -lsqlite3 -o $@

TEST_BINS = $(BUILD)/test/core_test $(BUILD)/test/charsets_test $(BUILD)/test/reencode_test $(BUILD)/test/readings_test $(BUILD)/test/context_test $(BUILD)/test/simd_test \
            $(BUILD)/test/fix_test $(BUILD)/test/guess_test \
            $(BUILD)/test/malloc_test $(BUILD)/test/thread_test $(BUILD)/test/limits_test \
            $(BUILD)/test/memory_test \
            $(BUILD)/test/mojibake_test

# The fuzz targets need clang, which make deps installs. Whether it is
# there is asked when the recipe runs (after deps), not when make reads
# this file; without it test/run-all.sh names the fuzz suites as skipped.
test: deps corpus
	$(MAKE) --no-print-directory all $(TEST_BINS)
	@if command -v $(FUZZ_CC) >/dev/null 2>&1; then \
	  $(MAKE) --no-print-directory fuzz-build; \
	else echo "make test: $(FUZZ_CC) is not installed; the fuzz targets are not built"; fi
	@bash test/run-all.sh $(BUILD)

# The same suite with AddressSanitizer and UndefinedBehaviorSanitizer: the
# core tests built with them, and tclsh running the sanitized module with
# the runtimes preloaded (tclsh itself is not built with them).
SAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
test-asan: deps corpus
	$(MAKE) --no-print-directory all
	$(MAKE) --no-print-directory BUILD=build-asan SO=build-asan/utf8ext.so CC=gcc \
	  STATIC=build-asan/libutf8ext.a CFLAGS="$(SAN_FLAGS)" build-asan/utf8ext.so \
	  $(patsubst $(BUILD)/%,build-asan/%,$(TEST_BINS))
	@ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  CORE_TEST_ARGS=--quick SIMD_TEST_ARGS=--quick UTF8EXT_LIB=build-asan/utf8ext \
	  SAN_PRELOAD="$$(gcc -print-file-name=libasan.so) $$(gcc -print-file-name=libubsan.so)" \
	  FUZZ_SECONDS=0 bash test/run-all.sh build-asan

# ThreadSanitizer: test/thread_test.c with the extension linked in, and
# again loading an instrumented utf8ext.so (its sqlite3_api pointer).
TSAN_FLAGS := -O1 -g -fsanitize=thread -fno-omit-frame-pointer
test-tsan: deps
	@mkdir -p build-tsan/test
	clang $(CPPFLAGS) $(TSAN_FLAGS) $(WARN) $(LDFLAGS) $(STATIC_EXT_DEFS) test/thread_test.c $(STATIC_EXT_SRC) \
	  -lsqlite3 -lpthread -o build-tsan/test/thread_test
	clang $(CPPFLAGS) $(TSAN_FLAGS) $(WARN) $(LDFLAGS) $(PIC) $(CORE_DEFS) -Icore -I. -shared \
	  $(STATIC_EXT_SRC) -o build-tsan/utf8ext.so
	@bash test/tsan.sh build-tsan

# valgrind over the sql/ scripts in the real sqlite3 shell.
test-valgrind: deps
	$(MAKE) --no-print-directory all
	@bash test/valgrind.sh ./utf8ext

# A fresh Debian 12 (debootstrap --variant=minbase) with only make and
# git added, a clone of HEAD in it, then the README's two commands (make
# demo, make test) in a chroot; the totals must match this machine's
# make test (test/fresh.sh; about N minutes).
test-fresh:
	@bash tools/install-deps.sh fresh
	@bash test/fresh.sh

# The slow and memory-hungry limits: a 512 MiB value validated and
# repaired, utf8_codepoints and utf8_audit over 100 MB, peak RSS printed.
test-big: deps
	$(MAKE) --no-print-directory all $(BUILD)/test/limits_test
	@$(BUILD)/test/limits_test --big

# ---- fuzzing (libFuzzer; see test/fuzz/) -----------------------------------
#
#   make fuzz FUZZ_SECONDS=N    build both targets, run each for N seconds,
#                               one after the other (never in parallel)

FUZZ_SECONDS ?= 60
FUZZ_FLAGS   := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
                -fno-omit-frame-pointer
FUZZ_BUILD   := $(BUILD)/fuzz
FUZZ_TARGETS := core sql
# fuzz_sql links the extension in (STATIC_EXT_SRC, see the tests above).

$(FUZZ_BUILD)/fuzz_core: test/fuzz/fuzz_core.c test/reference.c $(CORE_SRC) $(CORE_HDR) test/reference.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_FLAGS) $(WARN) $(LDFLAGS) $(CORE_DEFS) -Icore -Itest test/fuzz/fuzz_core.c test/reference.c $(CORE_SRC) -o $@

$(FUZZ_BUILD)/fuzz_sql: test/fuzz/fuzz_sql.c test/reference.c $(STATIC_EXT_SRC) $(CORE_HDR) utf8ext.h utf8ext_glue.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_FLAGS) $(WARN) $(LDFLAGS) $(STATIC_EXT_DEFS) test/fuzz/fuzz_sql.c test/reference.c $(STATIC_EXT_SRC) -lsqlite3 -o $@

fuzz-build: $(patsubst %,$(FUZZ_BUILD)/fuzz_%,$(FUZZ_TARGETS))

fuzz: fuzz-build
	@rc=0; for t in $(FUZZ_TARGETS); do \
	  bash test/fuzz/run.sh $(BUILD) $$t $(FUZZ_SECONDS) || rc=1; done; exit $$rc

# ---- the main job ---------------------------------------------------------

# Only what the demo needs (tools/install-deps.sh demo): no root when it is there.
demo:
	@bash tools/install-deps.sh demo
	$(MAKE) --no-print-directory all
	@bash sql/demo.sh

# ---- benchmark ----------------------------------------------------------

# Timing only, no assertions: the C harness (validators, repair), then the
# SQL-level figures in the sqlite3 shell.
BENCH_SRC := bench/bench.c bench/naive.c
$(BUILD)/bench/bench: $(BENCH_SRC) bench/naive.h $(CORE_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(LDFLAGS) $(CORE_DEFS) -Icore -Ibench $(BENCH_SRC) $(CORE_OBJ) -o $@

# The 1 MiB table also goes to $(BUILD)/bench/results.tsv, drawn by
# bench/chart.sh as bench/results.png (the chart the README shows).
bench: deps all $(BUILD)/bench/bench
	@rm -f $(BUILD)/bench/results.tsv
	BENCH_TSV=$(BUILD)/bench/results.tsv $(BUILD)/bench/bench
	@python3 bench/sql_bench.py
	@bash bench/chart.sh $(BUILD)/bench/results.tsv bench/results.png
	@$(MAKE) --no-print-directory guess-bench
	@$(MAKE) --no-print-directory moji-eval

# utf8_guess (core/guess.h) next to uchardet's C API, on the values
# test/guess_eval.py draws from the corpus's test split (GUESS_CORPUS, made
# by tools/corpus.py). libuchardet.so.0 is opened with dlopen: no -dev
# package. Not part of the default build.
GUESS_CORPUS ?= build/corpus

# The text the guess is measured on and its model made from, fetched from
# Debian packages (tools/corpus.py; docs/corpus.md): 135 MB of downloads
# the first time, about 2 minutes; kept in $(GUESS_CORPUS) after.
corpus: $(GUESS_CORPUS)/manifest.txt
$(GUESS_CORPUS)/manifest.txt: tools/corpus.py tools/corpus-sources.txt
	/usr/bin/python3 tools/corpus.py $(GUESS_CORPUS)
GUESS_VALUES := $(BUILD)/bench/guess_values.bin
$(BUILD)/bench/guess_bench: bench/guess_bench.c core/guess.h $(CORE_HDR) $(CORE_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(LDFLAGS) $(CORE_DEFS) -Icore bench/guess_bench.c $(CORE_OBJ) -ldl -o $@

guess-bench: deps corpus all $(BUILD)/bench/guess_bench
	/usr/bin/python3 test/guess_eval.py --corpus $(GUESS_CORPUS) --dump $(GUESS_VALUES) --dump-only
	$(BUILD)/bench/guess_bench $(GUESS_VALUES)


# utf8_unmojibake on the corpus's test split misread each way of issue 37,
# beside ftfy's fix_encoding and the engine before issue 37
# (test/mojibake_eval.py; docs/testing.md). ftfy runs from its source when
# FTFY_SRC=DIR is set, else its figures come from test/mojibake_baseline.txt.
# No thresholds: TODO(37) --check once the new engine lands.
moji-eval: corpus all
	/usr/bin/python3 test/mojibake_eval.py --corpus $(GUESS_CORPUS) --report


clean:
	rm -rf $(BUILD) build-asan build-tsan utf8ext.so utf8ext.dylib utf8ext.dll

.PHONY: all deps test test-asan test-tsan test-valgrind test-fresh test-big demo bench guess-bench moji-eval corpus clean fuzz fuzz-build

# ==========================================================================
# ---- ecosystem: static library, install, dist, embedding, cross builds ---
# ==========================================================================
#
#   make static       ./libutf8ext.a, for programs that link utf8ext in
#   make install      module, header, static library, pkg-config file, docs
#                     and the sql/ scripts under PREFIX (default /usr/local);
#                     DESTDIR stages the whole tree elsewhere
#   make uninstall    removes what install put there
#   make dist         utf8ext-VERSION.tar.gz: the tracked sources
#   make cross        utf8ext.dll with mingw-w64; the aarch64 build, its core
#                     tests run under qemu-aarch64
#   make test-sqlite-versions   the embedding test against the SQLite
#                     amalgamations shipped in npm packages, old and new
#   make chart        bench/results.tsv drawn as bench/results.png (gnuplot)

VERSION    := $(shell sed -n 's/.*define UTF8EXT_VERSION "\(.*\)".*/\1/p' utf8ext.h)
STATIC     ?= libutf8ext.a
PREFIX     ?= /usr/local
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MODULEDIR  ?= $(LIBDIR)/sqlite3
DOCDIR     ?= $(PREFIX)/share/doc/utf8ext
DATADIR    ?= $(PREFIX)/share/utf8ext
INSTALL    ?= install

static: $(STATIC)

# The same objects as the module: hidden visibility only keeps names out of
# a shared object's export table, a static link sees them all.
$(STATIC): $(GLUE_OBJ) $(CORE_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

install: $(SO) $(STATIC)
	$(INSTALL) -d $(DESTDIR)$(MODULEDIR) $(DESTDIR)$(INCLUDEDIR) \
	  $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(DOCDIR) $(DESTDIR)$(DATADIR)/sql
	$(INSTALL) -m 644 $(SO) $(DESTDIR)$(MODULEDIR)/utf8ext$(SO_EXT)
	$(INSTALL) -m 644 $(STATIC) $(DESTDIR)$(LIBDIR)/libutf8ext.a
	$(INSTALL) -m 644 utf8ext.h $(DESTDIR)$(INCLUDEDIR)/utf8ext.h
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' -e 's|@MODULEDIR@|$(MODULEDIR)|g' \
	    -e 's|@VERSION@|$(VERSION)|g' utf8ext.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/utf8ext.pc
	$(INSTALL) -d $(DESTDIR)$(DOCDIR)/docs
	$(INSTALL) -m 644 README.md CHANGELOG.md LICENSE $(DESTDIR)$(DOCDIR)/
	$(INSTALL) -m 644 docs/*.md $(DESTDIR)$(DOCDIR)/docs/
	$(INSTALL) -m 644 sql/*.sql sql/sample.csv $(DESTDIR)$(DATADIR)/sql/

uninstall:
	rm -f $(DESTDIR)$(MODULEDIR)/utf8ext$(SO_EXT) $(DESTDIR)$(LIBDIR)/libutf8ext.a \
	  $(DESTDIR)$(INCLUDEDIR)/utf8ext.h $(DESTDIR)$(LIBDIR)/pkgconfig/utf8ext.pc
	rm -rf $(DESTDIR)$(DOCDIR) $(DESTDIR)$(DATADIR)
	-rmdir $(DESTDIR)$(MODULEDIR) 2>/dev/null

dist:
	@bash tools/dist.sh $(VERSION)

# The embedding test: utf8ext linked in statically, Debian's libsqlite3
# linked dynamically, registered with sqlite3_auto_extension.
$(BUILD)/test/embed_test: test/embed_test.c utf8ext.h $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(LDFLAGS) -I. test/embed_test.c $(STATIC) $(SQLITE_LIBS) -o $@

SQLITE_LIBS ?= -lsqlite3
TEST_BINS   += $(BUILD)/test/embed_test

# ---- cross builds ----
# A cross compiler searches its own sysroot, not /usr/include, so it gets a
# directory holding only SQLite's two headers (they are the same on every
# target). Packages: tools/install-deps.sh cross.
MINGW      ?= x86_64-w64-mingw32
AARCH64    ?= aarch64-linux-gnu
SQLITE_INC ?= /usr/include
QEMU_AARCH64 ?= qemu-aarch64 -L /usr/$(AARCH64)

build-%/include/sqlite3ext.h: $(SQLITE_INC)/sqlite3ext.h $(SQLITE_INC)/sqlite3.h
	@mkdir -p $(dir $@)
	cp $^ $(dir $@)

cross: cross-windows cross-aarch64

cross-deps:
	@bash tools/install-deps.sh cross

cross-windows: cross-deps build-mingw/include/sqlite3ext.h
	$(MAKE) --no-print-directory CC=$(MINGW)-gcc AR=$(MINGW)-ar BUILD=build-mingw \
	  SO=build-mingw/utf8ext.dll STATIC=build-mingw/libutf8ext.a \
	  CFLAGS="$(CFLAGS) -isystem build-mingw/include" build-mingw/utf8ext.dll build-mingw/libutf8ext.a
	@bash test/cross-check.sh dll build-mingw/utf8ext.dll $(MINGW)-objdump

AARCH64_TESTS := build-aarch64/test/core_test build-aarch64/test/context_test \
                 build-aarch64/test/simd_test build-aarch64/test/fix_test
cross-aarch64: cross-deps build-aarch64/include/sqlite3ext.h
	$(MAKE) --no-print-directory CC=$(AARCH64)-gcc AR=$(AARCH64)-ar BUILD=build-aarch64 \
	  SO=build-aarch64/utf8ext.so STATIC=build-aarch64/libutf8ext.a \
	  CFLAGS="$(CFLAGS) -isystem build-aarch64/include" \
	  build-aarch64/utf8ext.so build-aarch64/libutf8ext.a $(AARCH64_TESTS)
	@bash test/cross-check.sh so build-aarch64/utf8ext.so $(AARCH64)-objdump
	@QEMU="$(QEMU_AARCH64)" bash test/cross-check.sh run $(AARCH64_TESTS)

# ---- other SQLite versions ----
test-sqlite-versions: all
	@bash test/sqlite-versions.sh

# ---- the benchmark's chart ----
chart:
	@bash bench/chart.sh bench/results.tsv bench/results.png

clean: clean-eco
clean-eco:
	rm -rf build-mingw build-aarch64 build-sqlite libutf8ext.a utf8ext-*.tar.gz

.PHONY: static install uninstall dist cross cross-deps cross-windows cross-aarch64 \
        test-sqlite-versions chart clean-eco

# ==========================================================================
# ---- distribution: Debian packages, Python wheel, npm packages, cluster --
# ==========================================================================
#
#   make deb          build/deb/*.deb: libsqlite3-mod-utf8ext, libutf8ext-dev
#                     (packaging/debian; needs debhelper)
#   make test-deb     build, lintian, install, load by bare name, purge (root)
#   make wheel        build/wheel/dist/utf8ext-VERSION-py3-none-PLATFORM.whl
#   make test-wheel   the wheel in a fresh venv (pip install --no-index)
#   make npm          build/npm/utf8ext-VERSION.tgz, utf8ext-PLATFORM-VERSION.tgz
#   make test-npm     both tarballs with libsql in a fresh directory
#   make cluster-demo a 3-node dqlite cluster on 127.0.0.1, utf8ext in each
#   make test-cluster the same, asserted (go-dqlite's dqlite-demo and dqlite)

deb:
	@bash tools/deb.sh --deps
	@BUILD=$(BUILD) bash tools/deb.sh

test-deb:
	@BUILD=$(BUILD) bash test/deb_test.sh

wheel: $(SO)
	@bash tools/wheel.sh --deps
	@BUILD=$(BUILD) SO=$(SO) bash tools/wheel.sh

test-wheel:
	@BUILD=$(BUILD) bash test/wheel_test.sh

npm: $(SO)
	@BUILD=$(BUILD) SO=$(SO) bash tools/npm.sh

test-npm:
	@BUILD=$(BUILD) bash test/npm_test.sh

# utf8ext linked into a preload library that registers it in every
# connection of a dqlite node (tools/cluster_preload.c says why).
$(BUILD)/cluster/preload.so: tools/cluster_preload.c $(STATIC_EXT_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(WARN) $(PIC) -shared $(STATIC_EXT_DEFS) tools/cluster_preload.c \
	  $(STATIC_EXT_SRC) -lsqlite3 -o $@

cluster-deps:
	@bash test/cluster.sh --deps

cluster-demo: cluster-deps $(BUILD)/cluster/preload.so
	@BUILD=$(BUILD) bash test/cluster.sh --demo

test-cluster: cluster-deps $(BUILD)/cluster/preload.so
	@BUILD=$(BUILD) bash test/cluster.sh

.PHONY: deb test-deb wheel test-wheel npm test-npm cluster-deps cluster-demo test-cluster
