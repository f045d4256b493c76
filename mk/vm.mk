# vm.mk: `make check-vm`: campaigns through real boots of real kernels in qemu guests (tests/vm/; included by the Makefile).
#
# The x86_64 guest image is built once and cached under build/vm/ (tests/vm/mkimage keys it on
# the packages' versions and the guest's files); each test boots a throw-away overlay of it under
# TCG.  The arm64 guest (tests/vm/arm64.bats) is two Debian cloud-arm64 kernels and a busybox
# initramfs, cached the same way by tests/vm/mkinitrd-arm64, run with the static arm64 binary.
# Needs root (mmdebstrap) and scripts/install-deps --with-vm.  Nothing boots on this machine.

VM_BATS := $(wildcard tests/vm/*.bats)

.PHONY: check-vm vm-image vm-arm64
vm-image:
	@tests/vm/mkimage >/dev/null
vm-arm64:
	@tests/vm/mkinitrd-arm64 >/dev/null

# The suites run side by side, one guest each (a TCG guest keeps one core busy; its boots
# mostly wait on it): their TAP in build/vm/logs/SUITE.tap, printed in order at the end.
# VM_BATS_FLAGS passes bats options (-f REGEX: some tests only).
check-vm: clearpath static static-arm64
	@t0=$$(date +%s); img=$$(tests/vm/mkimage) && img=$$(echo "$$img" | tail -n1) || exit 1; \
	arm=$$(tests/vm/mkinitrd-arm64) && arm=$$(echo "$$arm" | tail -n1) || exit 1; \
	echo "check-vm: guest image $$img, arm64 guest $$arm ($$(( $$(date +%s) - t0 )) s)"; mkdir -p build/vm/logs; pids=; \
	for t in $(VM_BATS); do \
		CLEARPATH=$(CURDIR)/clearpath STATIC_BIN=$(CURDIR)/$(STATIC_NATIVE) VM_IMAGE=$(CURDIR)/$$img \
			ARM64_BIN=$(CURDIR)/$(STATIC_ARM64) VM_ARM64=$(CURDIR)/$$arm \
			bats --tap $(VM_BATS_FLAGS) $$t >build/vm/logs/$$(basename $$t .bats).tap 2>&1 & pids="$$pids $$!"; \
	done; rc=0; for p in $$pids; do wait $$p || rc=1; done; \
	for t in $(VM_BATS); do echo "# $$t"; cat build/vm/logs/$$(basename $$t .bats).tap; done; \
	echo "check-vm: $$(( $$(date +%s) - t0 )) s in all"; exit $$rc
