# lava.mk: `make check-lava`, the LAVA suites of tests/lava/ against a throwaway LAVA instance (included by the Makefile).
#
# tests/lava/lab starts LAVA's server, scheduler and worker from the Debian packages on
# 127.0.0.1 with qemu devices (scripts/install-deps --with-lava installs them); the suites boot
# two Debian kernels (downloaded and unpacked under build/lava-cache, never installed) with an
# initramfs holding the static clearpath.  The times they measured are printed at the end.

LAVA_TIMES := build/lava-times

.PHONY: check-lava
check-lava: clearpath static
	@test -x /usr/bin/lava-server -a -x /usr/bin/lava-worker -a -x /bin/busybox || scripts/install-deps --with-lava
	@rm -f $(LAVA_TIMES)
	@CLEARPATH=$(CURDIR)/clearpath CLEARPATH_LAVA_TIMES=$(CURDIR)/$(LAVA_TIMES) bats --tap tests/lava/
	@echo "# LAVA suite times (seconds):"; sed 's/^/#   /' $(LAVA_TIMES)
