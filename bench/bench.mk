# bench/bench.mk -- `make bench`: the performance benchmark of the windows API (included by the Makefile).
#
#   make bench        builds the library (target all), then runs bench/run.sh: the floor (memcpy,
#                     cache-line round trip), the Fortran benchmark under rpnrun on 1, 2, 4, 8 and
#                     16 PEs, memory of 100 windows of 1 MiB; prints the table and writes
#                     build/bench/results.json, results.csv, table.txt and bench.png.
#                     Knobs: BENCH_TRIALS=11 BENCH_MS=10 (trial length, ms) BENCH_SCALE_PES="1 8 16".
#                     bench/halo.sh: the halo section (RPN_COMM_xch_halo against raw MPI and the
#                     copy floor, 2 and 4 PEs, and across 2 simulated nodes).
#                     bench/halo_models.sh: the exchange as a model calls it (same array, 24 fields,
#                     4-D slices, automatic, allocated, alternating) against the original RPN_COMM
#                     GEM ships, when RPNCOMM_ORIGINAL=<prefix> or RPNCOMM_SRC=<checkout> is given.
#                     bench/atomics.sh: cas_r and fetchop_r against the cache-line round trip (and
#                     raw MPI_Compare_and_swap / MPI_Fetch_and_op where an MPI build exists).
#                     bench/requests.sh: 64 rput_r + flush against 64 put_r (issue 20).
# Timings are medians on a possibly shared machine: `make bench` fails only on data errors, never on
# a missed target; no test depends on it.

.PHONY: bench

bench: all
	@MAKE="$(MAKE)" FC="$(FC)" NATIVE_LIBS="$(NATIVE_LIBS)" bash bench/run.sh
	@MAKE="$(MAKE)" FC="$(FC)" NATIVE_LIBS="$(NATIVE_LIBS)" bash bench/binding.sh
	@MAKE="$(MAKE)" FC="$(FC)" NATIVE_LIBS="$(NATIVE_LIBS)" bash bench/stats.sh
	@FC="$(FC)" NATIVE_LIBS="$(NATIVE_LIBS)" bash bench/threads.sh
	@FC="$(FC)" NATIVE_LIBS="$(NATIVE_LIBS)" BUILD_DIR="$(BUILD)" bash bench/halo.sh
	@FC="$(FC)" NATIVE_LIBS="$(NATIVE_LIBS)" BUILD_DIR="$(BUILD)" bash bench/halo_models.sh
	@FC="$(FC)" NATIVE_LIBS="$(NATIVE_LIBS)" bash bench/subarray.sh
	@FC="$(FC)" NATIVE_LIBS="$(NATIVE_LIBS)" bash bench/atomics.sh
	@FC="$(FC)" NATIVE_LIBS="$(NATIVE_LIBS)" bash bench/requests.sh
