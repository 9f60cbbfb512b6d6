# ---- the ABI promise (docs/abi.md) ---------------------------------------------
# abi/SONAME.abi is the committed baseline (libabigail's abidw) of the release's
# library; tests/abi.sh compares the built library with it (make check runs it
# with the proofs that it catches breaks). An intended break changes the soname
# and regenerates the baseline in the same commit.
.PHONY: abi-baseline abi-check
abi-baseline: $(SHARED_REAL)
	@sh tests/abi.sh --baseline $(B)
abi-check: $(SHARED_REAL)
	@sh tests/abi.sh --check $(B)
