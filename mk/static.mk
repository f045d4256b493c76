# static.mk: `make static` (and `make static-arm64`) build one fully static clearpath per
# architecture for the machines under test; `make check-static` tests them (included by the Makefile).
#
# A machine under test runs sessions and nothing else: the static builds leave out the
# optional libraries a controller uses.  Each optional library sits behind one switch,
# WITH_<NAME>=0|1 (WITH_LIBPQ for the PostgreSQL store, WITH_CAIRO for the report's plots,
# WITH_LIBDW for --profile's user-space symbol names, WITH_LIBCURL for LAVA labs);
# the static builds pass them all as 0.  A module adding an optional library honours its
# switch and adds it to STATIC_OFF below.
#
# The binaries are named by the architecture `uname -m` reports on the host that runs them,
# build/static/clearpath-x86_64 and build/static/clearpath-aarch64: remote mode asks a host's
# `uname -m` and copies the matching one.

STATIC_DIR  := build/static
STATIC_OFF  := WITH_LIBPQ=0 WITH_CAIRO=0 WITH_LIBDW=0 WITH_LIBCURL=0
# The archives Debian ships (sqlite3 needs no zlib here: Debian builds it without the
# zlib extensions pkg-config --static lists).
STATIC_LIBS := -lsqlite3 -lyaml -ljansson -lgsl -lgslcblas -lmd
# libgsl-dev cannot be installed for arm64 beside the native one (arm64.mk), so
# scripts/install-deps --with-cross unpacks the arm64 package's two archives here.
ARM64_STATIC_GSL := /usr/local/lib/aarch64-linux-gnu
STATIC_NATIVE := $(STATIC_DIR)/clearpath-$(shell uname -m)
STATIC_ARM64  := $(STATIC_DIR)/clearpath-aarch64

.PHONY: static static-arm64 check-static
static:
	@$(MAKE) --no-print-directory BUILD=$(STATIC_DIR)/obj-native SANITIZE=0 SANFLAGS= $(STATIC_OFF) \
		LDFLAGS=-static PKG_LIBS="$(STATIC_LIBS)" $(STATIC_DIR)/obj-native/clearpath
	cp $(STATIC_DIR)/obj-native/clearpath $(STATIC_NATIVE)

static-arm64: arm64-tools
	@test -e $(ARM64_STATIC_GSL)/libgsl.a || scripts/install-deps --with-cross
	@$(MAKE) --no-print-directory $(ARM64_VARS) BUILD=$(STATIC_DIR)/obj-arm64 $(STATIC_OFF) \
		LDFLAGS=-static PKG_LIBS="-L$(ARM64_STATIC_GSL) $(STATIC_LIBS)" $(STATIC_DIR)/obj-arm64/clearpath
	cp $(STATIC_DIR)/obj-arm64/clearpath $(STATIC_ARM64)

# Each static binary: linked statically, runs --version, a bench and a run into a store that
# the normal build then reads; the arm64 one under qemu-aarch64 user mode.
check-static: clearpath static static-arm64
	@CLEARPATH=$(CURDIR)/clearpath STATIC_BIN=$(CURDIR)/$(STATIC_NATIVE) bats --tap tests/static/static.bats
	@CLEARPATH=$(CURDIR)/clearpath STATIC_BIN=$(CURDIR)/$(STATIC_ARM64) STATIC_EMULATOR=$(ARM64_QEMU) \
		bats --tap tests/static/static.bats
