# `make stress`: the reliability tests of tests/stress.rs at full size (RPNCOMM_STRESS=full):
# 10^6 accumulates per phase on 8 PEs, random programs of 5000 epochs (10 seeds x 5 PE counts),
# 10^5 epochs in a row, 100 random SIGKILLs, the deterministic deaths, /dev/shm limits,
# 10^4 create/free cycles, isolation, six hang cases. `make check` runs the same tests in their short form
# (through `cargo test`). The log is kept in build/stress.log.

.PHONY: stress

stress: deps
	@mkdir -p $(BUILD)
	$(CARGO) build --release --bins --examples
	@set -o pipefail; RPNCOMM_STRESS=full $(CARGO) test --release --test stress -- --nocapture --test-threads=1 \
	  2>&1 | tee $(BUILD)/stress.log
