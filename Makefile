# utf8ext - build, test, bench, install.
#
#   make            ./utf8ext.so (the loadable extension)
#   make test       every test (installs missing Debian packages first)
#   make demo       build, load into sqlite3, audit the bundled sample table
#   make bench      the benchmark
#   make clean

CC      ?= cc
CFLAGS  ?= -O2
WARN    := -Wall -Wextra
PIC     := -fPIC -fvisibility=hidden
BUILD   ?= build
SHELL   := /bin/bash

CORE_SRC := core/decode.c core/fix.c core/recode.c core/dispatch.c core/context.c
CORE_HDR := core/utf8.h core/impl.h core/context.h

# SIMD paths: each file carries its own target attributes, so no global -m
# flag is needed and the .so runs on any CPU of the architecture.
MACHINE := $(shell $(CC) -dumpmachine)
ifneq (,$(and $(filter x86_64%,$(MACHINE)),$(wildcard core/simd_avx2.c)))
  CORE_DEFS += -DUTF8EXT_HAVE_X86
  CORE_SRC  += core/simd_sse4.c core/simd_avx2.c core/simd_avx512.c core/cpu_x86.c
endif
ifneq (,$(and $(filter aarch64%,$(MACHINE)),$(wildcard core/simd_neon.c)))
  CORE_DEFS += -DUTF8EXT_HAVE_NEON
  CORE_SRC  += core/simd_neon.c
endif
CORE_HDR += $(wildcard core/simd_*.h)

CORE_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(CORE_SRC))
GLUE_SRC := utf8ext.c utf8ext_codepoints.c
ifneq (,$(wildcard utf8ext_audit.c))
  GLUE_SRC  += utf8ext_audit.c
  CORE_DEFS += -DUTF8EXT_HAVE_AUDIT
endif
GLUE_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(GLUE_SRC))

SO      ?= utf8ext.so

all: $(SO)

$(BUILD)/%.o: %.c $(CORE_HDR) utf8ext.h utf8ext_glue.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(WARN) $(PIC) $(CORE_DEFS) -Icore -I. -c $< -o $@

$(SO): $(GLUE_OBJ) $(CORE_OBJ)
	$(CC) $(CFLAGS) -shared $^ -o $@

# ---- tests --------------------------------------------------------------

deps:
	@bash tools/install-deps.sh

$(BUILD)/test/core_test: test/core_test.c test/reference.c test/reference.h $(CORE_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(WARN) $(CORE_DEFS) -Icore -Itest test/core_test.c test/reference.c $(CORE_OBJ) -o $@

$(BUILD)/test/context_test: test/context_test.c $(CORE_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(WARN) $(CORE_DEFS) -Icore test/context_test.c $(CORE_OBJ) -o $@

TEST_BINS = $(BUILD)/test/core_test $(BUILD)/test/context_test

test: deps
	$(MAKE) --no-print-directory all $(TEST_BINS)
	@bash test/run-all.sh $(BUILD)

# The same suite with AddressSanitizer and UndefinedBehaviorSanitizer: the
# core tests built with them, and tclsh running the sanitized module with
# the runtimes preloaded (tclsh itself is not built with them).
SAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
test-asan: deps
	$(MAKE) --no-print-directory all
	$(MAKE) --no-print-directory BUILD=build-asan SO=build-asan/utf8ext.so CC=gcc \
	  CFLAGS="$(SAN_FLAGS)" build-asan/utf8ext.so build-asan/test/core_test build-asan/test/context_test
	@ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  CORE_TEST_ARGS=--quick SIMD_TEST_ARGS=--quick UTF8EXT_LIB=build-asan/utf8ext \
	  SAN_PRELOAD="$$(gcc -print-file-name=libasan.so) $$(gcc -print-file-name=libubsan.so)" \
	  bash test/run-all.sh build-asan

# ---- the main job ---------------------------------------------------------

demo: deps
	$(MAKE) --no-print-directory all
	@bash sql/demo.sh

clean:
	rm -rf $(BUILD) build-asan utf8ext.so

.PHONY: all deps test test-asan demo clean
