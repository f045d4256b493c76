# clearpath build: `make` builds ./clearpath, `make run` the main job, `make check` every test.
#
# Every src/<module>/*.c except src/main.c goes into one static library that
# the binary and the unit tests link against, so a new file needs no Makefile
# edit.  SANITIZE=1 builds everything with ASan + UBSan in its own directory.

CC        ?= gcc
PREFIX    ?= /usr/local
PKGS      := sqlite3 yaml-0.1 jansson gsl libmd
# elfutils' libdw names the user-space addresses of --profile; WITH_LIBDW=0 (the static
# builds) leaves them unnamed, "[user]", and profiles the kernel as before.
WITH_LIBDW ?= 1
ifeq ($(WITH_LIBDW),1)
PKGS      += libdw
LIBDW_DEF := -DCLEARPATH_HAVE_LIBDW
endif
TEST_PKGS := cmocka
# Plots (clearpath report) are drawn with cairo when pkg-config finds it; WITH_CAIRO=0 builds
# without it (the static build), and report then says so instead of drawing.
WITH_CAIRO ?= 1
ifeq ($(WITH_CAIRO),1)
ifeq ($(shell pkg-config --exists cairo 2>/dev/null && echo yes),yes)
PKGS      += cairo
CAIRO_DEF := -DCLEARPATH_HAVE_CAIRO
endif
endif
VERSION   := $(shell git describe --always --dirty 2>/dev/null || echo 0.1)

ifeq ($(SANITIZE),1)
BUILD     := build/sanitize
SANFLAGS  := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else
BUILD     := build/release
SANFLAGS  :=
endif

WARN      := -Wall -Wextra -Wshadow -Wformat=2 -Wmissing-prototypes
ifeq ($(CI),true)
WARN      += -Werror
endif
ifdef WERROR
WARN      += -Werror
endif

# PostgreSQL stores (src/store/postgresql/, libpq) when libpq is installed; WITH_LIBPQ=0 leaves
# them out (the static and cross builds), and such a binary says so when asked for one.
WITH_LIBPQ ?= $(shell pkg-config --exists libpq 2>/dev/null && echo 1 || echo 0)
ifeq ($(WITH_LIBPQ),1)
PKGS      += libpq
STORE_SRC := $(wildcard src/store/*/*.c)
PQ_FLAGS  := -DCLEARPATH_HAVE_LIBPQ
else
STORE_SRC := $(filter-out src/store/postgresql/%,$(wildcard src/store/*/*.c))
PQ_FLAGS  :=
endif

# LAVA campaigns (src/lava/: its REST API over libcurl; libcrypto decodes and checks the sessions
# a job hands back) when both are installed; WITH_LIBCURL=0 leaves them out (the static and cross
# builds), and such a binary says so when asked for a LAVA lab.
WITH_LIBCURL ?= $(shell pkg-config --exists libcurl libcrypto 2>/dev/null && echo 1 || echo 0)
ifeq ($(WITH_LIBCURL),1)
PKGS      += libcurl libcrypto
CURL_DEF  := -DCLEARPATH_HAVE_LIBCURL
endif

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
TEST_CFLAGS := $(shell pkg-config --cflags $(TEST_PKGS) 2>/dev/null)
TEST_LIBS   := $(shell pkg-config --libs $(TEST_PKGS) 2>/dev/null)

CFLAGS   ?= -O2 -g
# No fused multiply-add: the same store must give the same statistics, digit for digit, on
# arm64 (where GCC fuses by default) as on x86-64.
CFLAGS   += -ffp-contract=off
CFLAGS   += -std=gnu11 $(WARN) $(SANFLAGS) -Isrc $(PKG_CFLAGS) $(CAIRO_DEF) $(PQ_FLAGS) $(LIBDW_DEF) $(CURL_DEF) -DCLEARPATH_VERSION='"$(VERSION)"' -MMD -MP
LDFLAGS  += $(SANFLAGS)
LDLIBS   += $(PKG_LIBS) -lpthread -lm

LIB_SRC  := $(filter-out src/main.c,$(wildcard src/*/*.c)) $(STORE_SRC)
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
MAIN_OBJ := $(BUILD)/src/main.o
LIB      := $(BUILD)/libclearpath.a
BIN      := $(BUILD)/clearpath

UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all deps run check check-run unit cli install clean bench
all: clearpath

# ./clearpath is the normal build; sanitizer builds stay under build/sanitize.
clearpath: $(BIN)
	@if [ "$(SANITIZE)" != 1 ]; then cp $(BIN) $@; fi

$(BIN): $(MAIN_OBJ) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(LIB): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(TEST_CFLAGS) -o $@ $< $(LIB) $(LDFLAGS) $(TEST_LIBS) $(LDLIBS)

# Install build dependencies only when something is missing (cairo for the plots, chromium
# for the report's browser test, a PostgreSQL server for the PostgreSQL store's tests, perf
# for the comparison with perf's own output).
deps:
	@pkg-config --exists $(PKGS) cairo libpq libcurl libcrypto $(TEST_PKGS) && command -v bats >/dev/null \
		&& command -v python3 >/dev/null && command -v ssh >/dev/null \
		&& test -x /usr/sbin/sshd && command -v chromium >/dev/null && command -v perf >/dev/null \
		&& ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || scripts/install-deps

# The main job: plans/quick.yaml into a fresh store under build/, then the answer:
# is clearing with memset faster than with non-temporal stores, for one page and more,
# and what does the consumer pay?  In words first, then the tables, then the page.
RUN_STORE := build/run/results.db
run: deps
	@$(MAKE) --no-print-directory clearpath
	@mkdir -p $(dir $(RUN_STORE)) && rm -f $(RUN_STORE) $(RUN_STORE)-wal $(RUN_STORE)-shm
	-./clearpath doctor
	@echo "running plans/quick.yaml (4 sessions, about three minutes; per-session summaries in build/run/plan.log)"
	./clearpath plan run --store $(RUN_STORE) plans/quick.yaml > build/run/plan.log
	@echo
	@./clearpath report --store $(RUN_STORE) --answer
	@echo
	./clearpath show --store $(RUN_STORE) --columns param:f --base default --benchmark 'mem/clear'
	./clearpath show --store $(RUN_STORE) --columns param:f --base default --benchmark 'mem/memset'
	./clearpath show --store $(RUN_STORE) --benchmark 'mem/mmap'
	@./clearpath report --store $(RUN_STORE) -o $(dir $(RUN_STORE))report.html | sed 's/^wrote /the report with plots: /'

# After `make run`: its own store and page checked as tests/cli/consistency.bats checks the fixture
# of one (every format's cells, the answer, the page; in headless Chromium: axes, whiskers, size).
check-run: clearpath
	@test -f $(RUN_STORE) -a -f $(dir $(RUN_STORE))report.html || { echo "no $(RUN_STORE): make run first"; exit 2; }
	python3 tests/cli/consistency_check.py ./clearpath $(RUN_STORE)
	@./clearpath show --store $(RUN_STORE) --columns param:f --base default --benchmark mem/clear --format json >$(dir $(RUN_STORE))1.json
	@./clearpath show --store $(RUN_STORE) --columns param:f --base default --benchmark mem/memset --format json >$(dir $(RUN_STORE))2.json
	@./clearpath show --store $(RUN_STORE) --benchmark mem/mmap --format json >$(dir $(RUN_STORE))3.json
	python3 tests/cli/browser_check.py --max-bytes 1500000 --show $(dir $(RUN_STORE))2.json \
		--show $(dir $(RUN_STORE))3.json $(dir $(RUN_STORE))report.html $(dir $(RUN_STORE))1.json \
		$(dir $(RUN_STORE))report.png

check: deps
	@$(MAKE) --no-print-directory clearpath $(UNIT_BIN) cross
	@CLEARPATH_TEST_PG_START=$(WITH_LIBPQ) tests/run-all $(BIN) $(UNIT_BIN) $$(ls $(BUILD)/cross/run-* 2>/dev/null)

# arm64: the kernels' TAP test under make check, the whole binary under make check-arm64.
include mk/arm64.mk
# `make static`, `make static-arm64`: one static binary per architecture for machines under test.
include mk/static.mk
# `make check-lava`: campaigns through a real, throwaway LAVA instance.
include mk/lava.mk
# `make check-vm`: campaigns through real boots of two real kernels in qemu guests.
include mk/vm.mk

bench: clearpath
	bench/fidelity

# Fuzzing: every tests/fuzz/fuzz_NAME.c is a libFuzzer harness, found by name (a new one is a
# file plus, optionally, seeds in tests/fuzz/corpus/NAME/).  clang builds them and the library
# with ASan + UBSan in build/fuzz; `make fuzz FUZZ_SECONDS=N` runs each for N seconds.
FUZZ_CC      := clang
FUZZ_SECONDS ?= 60
FUZZ_BUILD   := build/fuzz
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
# clang checks vfprintf() inside the log helpers as gcc does not; the callers are checked.
FUZZ_CFLAGS  := -O1 -g -std=gnu11 $(WARN) -Wno-format-nonliteral $(FUZZ_SAN) -Isrc $(PKG_CFLAGS) $(CAIRO_DEF) $(PQ_FLAGS) $(CURL_DEF) \
		-DCLEARPATH_VERSION='"$(VERSION)"' -MMD -MP
FUZZ_SRC     := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN     := $(FUZZ_SRC:tests/fuzz/%.c=$(FUZZ_BUILD)/%)
FUZZ_LIB     := $(FUZZ_BUILD)/libclearpath.a
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(FUZZ_BUILD)/%.o)

.PHONY: fuzz fuzz-build
fuzz-build: $(FUZZ_BIN)

fuzz:
	@command -v $(FUZZ_CC) >/dev/null || scripts/install-deps --with-fuzz
	@$(MAKE) --no-print-directory clearpath fuzz-build
	tests/fuzz/run $(FUZZ_SECONDS) ./clearpath $(FUZZ_BIN)

$(FUZZ_BUILD)/src/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_LIB): $(FUZZ_LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(wildcard tests/fuzz/*.h) $(FUZZ_LIB)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_LIB) $(LDLIBS)

install: clearpath
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 755 clearpath $(DESTDIR)$(PREFIX)/bin/clearpath
	install -m 644 docs/clearpath.1 $(DESTDIR)$(PREFIX)/share/man/man1/clearpath.1
	install -m 644 completions/clearpath.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/clearpath

clean:
	rm -rf build clearpath

-include $(LIB_OBJ:.o=.d) $(MAIN_OBJ:.o=.d) $(UNIT_BIN:=.d) $(FUZZ_LIB_OBJ:.o=.d)
