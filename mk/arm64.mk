# arm64.mk: the arm64 tests (included by the Makefile).  `make check` runs the kernels' TAP test
# cross-built under qemu-aarch64; `make check-arm64` cross-builds the whole clearpath into
# build/arm64/ and runs the unit and CLI tests against it under qemu-aarch64 user mode.
#
# The libraries come from Debian multiarch (scripts/install-deps --with-cross).  The arm64
# binaries run through wrapper scripts that call qemu explicitly, so CI needs no binfmt_misc
# registration; the wrappers are what tests/run-all and the bats suites execute.

ARM64_BUILD   := build/arm64
ARM64_CC      := aarch64-linux-gnu-gcc
ARM64_AR      := aarch64-linux-gnu-ar
ARM64_QEMU    := qemu-aarch64-static
ARM64_LIBDIR  := /usr/lib/aarch64-linux-gnu
ARM64_PC      := PKG_CONFIG_LIBDIR=$(ARM64_LIBDIR)/pkgconfig:/usr/share/pkgconfig pkg-config
# libgsl-dev is not multiarch-installable: GSL's headers are the native package's (they are
# the same on every architecture), the libraries the arm64 runtime packages'.
ARM64_GSL_LIBS = $(shell $(ARM64_PC) --exists gsl 2>/dev/null && $(ARM64_PC) --libs gsl || \
	echo $(firstword $(wildcard $(ARM64_LIBDIR)/libgsl.so.[0-9]*)) \
	$(firstword $(wildcard $(ARM64_LIBDIR)/libgslcblas.so.[0-9]*)))
# No cairo for arm64 (its -dev package would pull a graphics stack into multiarch): the
# emulated binary says report needs cairo, and the report tests know to expect that.
# No libpq either: the PostgreSQL tests skip under the emulator.
# WITH_LIBDW=0: no arm64 libdw is installed beside the native one; --profile names kernel symbols only.
ARM64_VARS = BUILD=$(ARM64_BUILD) SANITIZE=0 SANFLAGS= CC=$(ARM64_CC) AR=$(ARM64_AR) WITH_CAIRO=0 WITH_LIBPQ=0 WITH_LIBDW=0 WITH_LIBCURL=0 \
	PKG_CFLAGS="$(shell $(ARM64_PC) --cflags sqlite3 yaml-0.1 jansson libmd 2>/dev/null) $(shell pkg-config --cflags gsl 2>/dev/null)" \
	PKG_LIBS="$(shell $(ARM64_PC) --libs sqlite3 yaml-0.1 jansson libmd 2>/dev/null) $(ARM64_GSL_LIBS)" \
	TEST_CFLAGS="$(shell $(ARM64_PC) --cflags cmocka 2>/dev/null)" \
	TEST_LIBS="$(shell $(ARM64_PC) --libs cmocka 2>/dev/null)"
ARM64_BIN  := $(ARM64_BUILD)/clearpath
ARM64_UNIT := $(UNIT_SRC:tests/unit/%.c=$(ARM64_BUILD)/tests/%)
ARM64_RUN  := $(ARM64_BUILD)/run

# The kernels' TAP test, static against the cross libc.  Without the cross tools a native build
# of it reports each of its tests as skipped with the reason, so the totals show what was not run.
ARM64_TAP_SRC := tests/cross/test_kernels_tap.c $(wildcard src/kernels/*.c)
ARM64_NOT_RUN := arm64 build not run: needs gcc-aarch64-linux-gnu and qemu-user-static (scripts/install-deps --with-cross)
.PHONY: cross
cross:
	@if command -v $(ARM64_CC) >/dev/null && command -v $(ARM64_QEMU) >/dev/null; then \
		rm -f $(BUILD)/cross/run-kernels-arm64-not-run; \
		$(MAKE) --no-print-directory $(BUILD)/cross/run-kernels-arm64; \
	else \
		rm -f $(BUILD)/cross/run-kernels-arm64; \
		$(MAKE) --no-print-directory $(BUILD)/cross/kernels-native; \
		printf '#!/bin/sh\nexec %s --not-run "%s"\n' "$(CURDIR)/$(BUILD)/cross/kernels-native" \
			"$(ARM64_NOT_RUN)" > $(BUILD)/cross/run-kernels-arm64-not-run; \
		chmod +x $(BUILD)/cross/run-kernels-arm64-not-run; \
		echo "# arm64 kernel tests counted as skipped: $(ARM64_NOT_RUN)"; \
	fi

$(BUILD)/cross/kernels-arm64: $(ARM64_TAP_SRC) $(wildcard src/kernels/*.h)
	@mkdir -p $(dir $@)
	$(ARM64_CC) -static -std=gnu11 -O2 -g -ffp-contract=off $(WARN) -Isrc -o $@ $(ARM64_TAP_SRC)

$(BUILD)/cross/kernels-native: $(ARM64_TAP_SRC) $(wildcard src/kernels/*.h)
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g $(WARN) -Isrc -o $@ $(ARM64_TAP_SRC)

$(BUILD)/cross/run-kernels-arm64: $(BUILD)/cross/kernels-arm64
	@printf '#!/bin/sh\nexec $(ARM64_QEMU) %s "$$@"\n' "$(CURDIR)/$<" > $@
	@chmod +x $@

.PHONY: check-arm64 arm64-tools
check-arm64: arm64-tools
	@$(MAKE) --no-print-directory $(ARM64_VARS) $(ARM64_BIN) $(ARM64_UNIT)
	@$(MAKE) --no-print-directory $(ARM64_RUN)/clearpath $(ARM64_UNIT:$(ARM64_BUILD)/tests/%=$(ARM64_RUN)/%)
	@CLEARPATH_EMULATOR=$(ARM64_QEMU) tests/run-all $(ARM64_RUN)/clearpath \
		$(ARM64_UNIT:$(ARM64_BUILD)/tests/%=$(ARM64_RUN)/%)

# Like make check's deps: install what is missing (scripts/install-deps says how when it cannot).
arm64-tools:
	@command -v $(ARM64_CC) >/dev/null && command -v $(ARM64_QEMU) >/dev/null \
		&& $(ARM64_PC) --exists sqlite3 yaml-0.1 jansson libmd cmocka \
		&& [ -n "$(ARM64_GSL_LIBS)" ] || scripts/install-deps --with-cross

# One wrapper per arm64 program: qemu runs it against the multiarch arm64 libraries, and
# CLEARPATH_EMULATOR tells clearpath to start its session processes the same way.
ARM64_WRAP = @mkdir -p $(dir $@) && \
	printf '\#!/bin/sh\n: "$${CLEARPATH_EMULATOR:=$(ARM64_QEMU)}"\nexport CLEARPATH_EMULATOR\nexec $(ARM64_QEMU) %s "$$@"\n' \
		"$(CURDIR)/$<" > $@ && chmod +x $@
$(ARM64_RUN)/%: $(ARM64_BUILD)/tests/%
	$(ARM64_WRAP)
# test_stats_sim feeds thousands of simulated tables through the statistics: about a minute
# natively, 30 times that under qemu, a third of CI's time.  Emulated it runs one scenario (the
# arithmetic is test_stats's, run whole); make check and SANITIZE=1 run every one natively.
$(ARM64_RUN)/test_stats_sim: $(ARM64_BUILD)/tests/test_stats_sim
	@mkdir -p $(dir $@) && \
	printf '#!/bin/sh\n: "$${CLEARPATH_SIM_ONLY:=test_no_effect_false_alarms}"\nexport CLEARPATH_SIM_ONLY\n: "$${CLEARPATH_EMULATOR:=$(ARM64_QEMU)}"\nexport CLEARPATH_EMULATOR\nexec $(ARM64_QEMU) %s "$$@"\n' \
		"$(CURDIR)/$<" > $@ && chmod +x $@
$(ARM64_RUN)/clearpath: $(ARM64_BIN)
	$(ARM64_WRAP)
