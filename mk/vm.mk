# vm.mk: `make check-vm`: campaigns through real boots of real kernels in qemu guests (tests/vm/; included by the Makefile).
#
# The x86_64 guest image is built once and cached under build/vm/ (tests/vm/mkimage keys it on
# the packages' versions and the guest's files); each test boots a throw-away overlay of it under
# TCG.  Needs root (mmdebstrap) and scripts/install-deps --with-vm.  Nothing boots on this machine.

VM_BATS := $(wildcard tests/vm/*.bats)

.PHONY: check-vm vm-image
vm-image:
	@tests/vm/mkimage >/dev/null

check-vm: clearpath static
	@t0=$$(date +%s); img=$$(tests/vm/mkimage) && img=$$(echo "$$img" | tail -n1) && echo "check-vm: guest image $$img ($$(( $$(date +%s) - t0 )) s)" && \
	CLEARPATH=$(CURDIR)/clearpath STATIC_BIN=$(CURDIR)/$(STATIC_NATIVE) VM_IMAGE=$(CURDIR)/$$img \
		bats --tap $(VM_BATS); rc=$$?; echo "check-vm: $$(( $$(date +%s) - t0 )) s in all"; exit $$rc
