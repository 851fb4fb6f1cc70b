# rpncomm-windows: build, install, demo and tests (GNU make).
#
#   make                   build everything into build/ (same layout as an installation)
#   make install PREFIX=d  install into d/{lib,include,bin,lib/pkgconfig,lib/cmake/{rpncomm_windows,rpncomm}}
#   make ... BUILD=dir RUST_TARGET=dir  the build tree and cargo's target directory outside the
#                          source tree, for make, install and demo (MPI=1 too: mpi/mpi.mk); see
#                          docs/building.md for every variable
#   make demo              build and run the request/reply demo on 4 PEs
#   make check             run every test (format and lint included); last line "N passed, N failed"
#   make stress            the reliability tests at full size (tests/stress/stress.mk)
#   make fuzz              fuzz the C ABI and the window core under AddressSanitizer,
#                          FUZZ_SECONDS (default 60) per target (tests/fuzz.sh)
#   make loom              model-check the shared-memory protocols with loom (tests/loom.sh)
#   make clean
#   make ... MPI=1         the same over MPI (mpi/mpi.mk: build-mpi-<impl>/ for Open MPI and MPICH)
#   make check-full        make check, make check FC=$(FLANG_FC), then make check-full MPI=1, summed
#   make check-full MPI=1  the MPI tests' whole matrix: every multi-node layout, every test on the PyPI MPIs
#   make ... FC=flang-new-19  the same with another Fortran compiler (default gfortran), built into
#                          build-<compiler>/ so that the module files of two compilers never mix;
#                          `make check FC=...` runs the Fortran parts only (tests/check.sh);
#                          the compilers tested: gfortran and LLVM Flang (FLANG_FC)
#
# `deps` installs the Fortran compiler (gfortran, or flang-NN for FC=flang-new-NN or flang-NN) and
# pkg-config when they are missing (as root, with apt-get) or says what to install; all, demo and
# check run it first.

SHELL := /bin/bash

CARGO    ?= cargo
# the Fortran compiler: gfortran unless FC is given (command line or environment)
ifeq ($(origin FC),default)
FC       := gfortran
endif
FFLAGS   ?= -O2 -fPIC
# the LLVM Flang that make check (standard conformance), make check-full and CI test besides gfortran
FLANG_FC ?= flang-new-19
AR       := ar
ARPLUGIN := --plugin /dev/null
PREFIX   ?= /usr/local
DESTDIR  ?=

# Fortran layer, compiled in this order (a file may use the modules of the files before it).
FORTRAN_SRCS := fortran/types/types.F90 \
                fortran/types/is_null.F90 \
                fortran/process/process_binding.F90 \
                fortran/grid/grid_binding.F90 \
                fortran/p2p/p2p_binding.F90 \
                fortran/collectives/collectives_binding.F90 \
                fortran/halo/halo_binding.F90 \
                fortran/windows/windows_binding.F90 \
                fortran/utils/utils_binding.F90 \
                fortran/options/options_binding.F90 \
                fortran/distributions/distributions_binding.F90 \
                fortran/process/output_flush.F90 \
                fortran/grid/grid_globals.F90 \
                fortran/process/process_routines.F90 \
                fortran/utils/utils_routines.F90 \
                fortran/utils/omp_threads.F90 \
                fortran/utils/constnt_tables.F90 \
                fortran/rpn_mpi/mpi_definitions.F90 \
                fortran/rpn_mpi/mpi_definitions_routines.F90 \
                fortran/grid/grid_init.F90 \
                fortran/grid/grid_topology.F90 \
                fortran/grid/io_pe_sets.F90 \
                fortran/grid/grid_misc.F90 \
                fortran/p2p/p2p_routines.F90 \
                fortran/p2p/comm_helpers.F90 \
                fortran/p2p/local_dist.F90 \
                fortran/collectives/collectives_routines.F90 \
                fortran/collectives/distribution.F90 \
                fortran/distributions/distributions_routines.F90 \
                fortran/distributions/grid_redist_test.F90 \
                fortran/distributions/io_dist_coll_test.F90 \
                fortran/collectives/transposes.F90 \
                fortran/collectives/soft_barrier.F90 \
                fortran/collectives/diag.F90 \
                fortran/halo/halo_routines.F90 \
                fortran/halo/halo_generic.F90 \
                fortran/halo/halo_variants.F90 \
                fortran/halo/exchange_pattern.F90 \
                fortran/halo/halo_flip_test.F90 \
                fortran/windows/windows_routines.F90 \
                fortran/windows/mpi_comm_windows.F90 \
                fortran/windows/win_test_driver.F90 \
                fortran/options/options_routines.F90 \
                fortran/options/options_pointers.F90 \
                fortran/grid/grid_direct.F90 \
                fortran/collectives/collectives_direct.F90 \
                fortran/p2p/p2p_direct.F90 \
                fortran/halo/halo_direct.F90 \
                fortran/windows/windows_direct.F90 \
                fortran/process/process_direct.F90 \
                fortran/options/options_direct.F90 \
                fortran/rpn_comm_windows.F90
# Include files shipped to users next to the .mod files.
FORTRAN_INCS := fortran/RPN_COMM_types.inc \
                fortran/RPN_COMM_constants.inc \
                fortran/RPN_COMM_interfaces.inc \
                fortran/RPN_COMM_include_interfaces.inc \
                fortran/RPN_COMM_is_null.inc \
                fortran/RPN_COMM.inc \
                fortran/RPN_MPI.hf \
                fortran/RPN_MPI_macros.hf \
                fortran/rpn_mpi/RPN_MPI_mpi_definitions.hf \
                fortran/RPN_MPI_interfaces.hf \
                fortran/RPN_COMM_interfaces.hf

# What the Rust standard library needs when the staticlib is linked by another compiler, from
# `cargo rustc --release --lib --crate-type staticlib -- --print native-static-libs`
# (rustc 1.95, x86_64-unknown-linux-gnu). The only copy of the list: it is substituted into the
# pkg-config files and passed to the test scripts, which otherwise read it from the build tree's
# pkg-config file (tests/lib/native_libs.sh).
NATIVE_LIBS := -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc

VERSION := $(shell sed -n 's/^version *= *"\(.*\)"/\1/p' Cargo.toml | head -n 1)
# The version of the RPN_COMM interface the library provides: the version of the `rpncomm` CMake
# package (cmake/rpncommConfigVersion.cmake.in), which accepts any 4.x up to it. 4.6.4 changed only
# the original's build (GEM 5.3 asks for it); 4.6.10 to 4.6.12 split the module rpn_comm into
# rpn_comm_globals, rpn_comm and rpn_comm_mpi and added RPN_COMM_interfaces.hf, which the library
# gives (fortran/modules/, with 4.6.3's form of rpn_comm beside the newer). VERSION above is the
# implementation's own, that of the rpncomm_windows package and pkg-config file.
API_VERSION := 4.6.12

# The compiler of the Fortran layer, as CMake names it (CMAKE_Fortran_COMPILER_ID and _VERSION),
# recorded in the pkg-config file and the CMake package: only that compiler (and major version)
# reads the installed .mod files. Found when a recipe first needs it (deferred, then cached).
FC_ID_VERSION = $(eval FC_ID_VERSION := $$(shell sh fortran/gen/compiler_id.sh '$(FC)'))$(FC_ID_VERSION)
FC_ID         = $(firstword $(FC_ID_VERSION))
FC_VERSION    = $(lastword $(FC_ID_VERSION))
# sed expressions substituting them into pkgconfig/*.pc.in and cmake/*.cmake.in
FC_SED = -e 's|@FC@|$(FC)|g' -e 's|@FC_ID@|$(FC_ID)|g' -e 's|@FC_VERSION@|$(FC_VERSION)|g'
# The Debian packages of a compiler deps can install: gfortran; flang-NN and its OpenMP runtime
# libomp-NN-dev (not a dependency of flang-NN; tests/fortran/test_threads.F90 needs it) for
# FC=flang-new-NN or flang-NN.
FC_PACKAGES := $(shell echo '$(notdir $(firstword $(FC)))' | \
                 sed -n -E 's/^gfortran$$/gfortran/p; s/^flang(-new)?-([0-9]+)$$/flang-\2 libomp-\2-dev/p')

ifeq ($(MPI),1)
include mpi/mpi.mk
else

# The MPI builds (mpi/mpi.mk) set RUST_TARGET, CARGO_FEATURES=mpi, MPICC, FC and BUILD.
RUST_TARGET    ?= target
CARGO_FEATURES ?=
RUST_LIB := $(RUST_TARGET)/release/librpncomm_windows.a
RUST_BIN := $(RUST_TARGET)/release/rpnrun
# generated by build.rs beside the library (include/rpncomm_windows.h is the committed copy)
RUST_HDR := $(RUST_TARGET)/release/rpncomm_windows.h

# build/ for gfortran, build-<compiler>/ for another (make FC=flang-new-19: build-flang-new-19/)
FC_NAME := $(notdir $(firstword $(FC)))
BUILD   := $(if $(filter gfortran,$(FC_NAME)),build,build-$(FC_NAME))
OBJDIR  := $(BUILD)/obj
INCDIR  := $(BUILD)/include
LIBDIR  := $(BUILD)/lib
BINDIR  := $(BUILD)/bin
DEMODIR := $(BUILD)/demo

LIB     := $(LIBDIR)/librpncomm_windows.a
RPNRUN  := $(BINDIR)/rpnrun
PCFILE  := $(LIBDIR)/pkgconfig/rpncomm-windows.pc
DEMO    := $(DEMODIR)/req_test

FORTRAN_OBJS  := $(patsubst fortran/%.F90,$(OBJDIR)/%.o,$(FORTRAN_SRCS))
INSTALLED_INC := $(addprefix $(INCDIR)/,$(notdir $(FORTRAN_INCS) $(RUST_HDR)))
MODS_STAMP    := $(OBJDIR)/.mods

.PHONY: all deps cargo-build install demo check check-full stress fuzz loom clean

all: deps $(LIB) $(RPNRUN) $(INSTALLED_INC) $(INCDIR)/rpn_comm.inc $(MODS_STAMP) $(PCFILE)

# ---------------------------------------------------------------------------------------- set-up
deps:
	@missing=""; pkgs="pkg-config"; \
	command -v pkg-config >/dev/null 2>&1 || missing="$$missing pkg-config"; \
	if ! command -v $(firstword $(FC)) >/dev/null 2>&1; then \
	  missing="$$missing $(firstword $(FC))"; \
	  if [ -z "$(FC_PACKAGES)" ]; then \
	    echo "deps: the Fortran compiler $(firstword $(FC)) is not installed (FC=$(FC))" >&2; exit 1; \
	  fi; \
	  pkgs="$$pkgs $(FC_PACKAGES)"; \
	elif command -v dpkg-query >/dev/null 2>&1; then \
	  for p in $(filter-out gfortran flang-%,$(FC_PACKAGES)); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || { missing="$$missing $$p"; pkgs="$$pkgs $$p"; }; \
	  done; \
	fi; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "deps: installing$$missing"; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -q && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$pkgs || exit 1; \
	  else \
	    echo "deps: missing$$missing; install them first (Debian/Ubuntu: sudo apt-get install -y $$pkgs)" >&2; \
	    exit 1; \
	  fi; \
	fi; \
	command -v $(CARGO) >/dev/null 2>&1 || { echo "deps: cargo not found; install the Rust toolchain (https://rustup.rs)" >&2; exit 1; }

# ------------------------------------------------------------------------------------------ Rust
# cargo decides what to rebuild; make only looks at the files' times afterwards.
cargo-build: | deps
	$(if $(MPICC),MPICC=$(MPICC)) $(CARGO) build --release --target-dir $(RUST_TARGET) $(if $(CARGO_FEATURES),--features $(CARGO_FEATURES))

$(RUST_LIB) $(RUST_BIN) $(RUST_HDR): cargo-build ;

# --------------------------------------------------------------------------------------- Fortran
# fortran/routines.toml is the one table of the signatures: the include files of interfaces, the
# bind(C) modules and the routines whose body is one C call (<concern>_direct.F90) are generated
# from it (fortran/gen/gen_interfaces.py writes them all, each only if it changes); the generated
# files are committed (users read them) and fortran/gen/test_fortran_gen.py (make check) fails
# while a committed copy is stale.
FORTRAN_TABLE := fortran/routines.toml
FORTRAN_GEN := fortran/gen/gen_interfaces.py fortran/gen/table.py fortran/gen/fortran_source.py
FORTRAN_GENERATED := fortran/RPN_COMM_interfaces.inc fortran/RPN_COMM_include_interfaces.inc \
                     fortran/RPN_MPI_interfaces.hf fortran/RPN_COMM_interfaces.hf fortran/RPN_COMM_is_null.inc \
                     $(filter %_binding.F90 %_direct.F90,$(FORTRAN_SRCS))
fortran/RPN_COMM_interfaces.inc: $(FORTRAN_TABLE) $(FORTRAN_GEN)
	@if command -v python3 >/dev/null 2>&1; then python3 -B fortran/gen/gen_interfaces.py; \
	 else echo "warning: python3 not found: the interfaces not regenerated from $(FORTRAN_TABLE)" >&2; touch $@; fi
# written by the rule above
$(filter-out fortran/RPN_COMM_interfaces.inc,$(FORTRAN_GENERATED)): fortran/RPN_COMM_interfaces.inc ;

$(OBJDIR)/%.o: fortran/%.F90 $(FORTRAN_INCS) | deps
	@mkdir -p $(dir $@) $(INCDIR)
	$(FC) $(FFLAGS) -Ifortran -J$(INCDIR) -c $< -o $@

# each Fortran object also depends on the one before it in FORTRAN_SRCS (its modules)
$(foreach pair,$(join $(wordlist 2,$(words $(FORTRAN_OBJS)),$(FORTRAN_OBJS)),\
  $(addprefix :,$(filter-out $(lastword $(FORTRAN_OBJS)),$(FORTRAN_OBJS)))),$(eval $(pair)))

# The modules named as the original's (fortran/modules/): only their .mod files are installed,
# they compile to no code of their own. The two forms of `rpn_comm` have the same name, so the
# older one's .mod goes to a directory of its own; rpn_comm_mpi (`use mpi`) is the MPI build's.
# FORTRAN_MPI (default: the MPI build) says FC has MPI's Fortran (mpif.h, `use mpi`); an MPI whose
# packages have none (those of PyPI) builds with FORTRAN_MPI= and gets the modules without MPI.
FORTRAN_MPI   ?= $(filter mpi,$(CARGO_FEATURES))
LEGACY_MODDIR := $(INCDIR)/rpn_comm-4.6.3
MODULE_FLAGS  := $(if $(FORTRAN_MPI),-DRPNCOMM_MPI_BUILD)
# MPI's constants for RPN_MPI_get_mpi_definitions come from mpif.h where FC has MPI's Fortran
$(OBJDIR)/rpn_mpi/mpi_definitions.o: FFLAGS += $(MODULE_FLAGS)
NAMED_MODULES := $(OBJDIR)/modules/rpn_comm.o $(OBJDIR)/modules/rpn_comm_463.o \
                 $(if $(FORTRAN_MPI),$(OBJDIR)/modules/rpn_comm_mpi.o)
$(OBJDIR)/modules/rpn_comm.o: fortran/modules/rpn_comm.F90 fortran/RPN_COMM_interfaces.hf $(FORTRAN_OBJS)
	@mkdir -p $(dir $@)
	$(FC) $(FFLAGS) $(MODULE_FLAGS) -Ifortran -J$(INCDIR) -c $< -o $@
$(OBJDIR)/modules/rpn_comm_463.o: fortran/modules/rpn_comm_463.F90 $(FORTRAN_OBJS)
	@mkdir -p $(dir $@) $(LEGACY_MODDIR)
	$(FC) $(FFLAGS) $(MODULE_FLAGS) -Ifortran -I$(INCDIR) -J$(LEGACY_MODDIR) -c $< -o $@
$(OBJDIR)/modules/rpn_comm_mpi.o: fortran/modules/rpn_comm_mpi.F90
	@mkdir -p $(dir $@)
	$(FC) $(FFLAGS) -J$(INCDIR) -c $< -o $@

# the .mod files are written by the compilations above
$(MODS_STAMP): $(FORTRAN_OBJS) $(NAMED_MODULES)
	@touch $@

# ------------------------------------------------------------------------------ installed layout
# `--plugin /dev/null` keeps GNU ar from loading the linker plugins of /usr/lib/bfd-plugins: an
# installed LLVMgold (llvm-*-linker-tools) chokes on the LLVM bitcode embedded in Rust's std objects
# and ar then silently leaves std, core and alloc out of the symbol index (undefined core::panicking
# symbols at link time). The grep checks the rebuilt index still has the Rust std in it.
$(LIB): $(RUST_LIB) $(FORTRAN_OBJS)
	@mkdir -p $(LIBDIR)
	cp $(RUST_LIB) $@.tmp
	$(AR) $(ARPLUGIN) rcs $@.tmp $(FORTRAN_OBJS)
	@nm --print-armap $@.tmp 2>/dev/null | grep -q '^rust_eh_personality in ' || \
	  { echo "error: the symbol index of $@ lacks the Rust std (see the comment in the Makefile)" >&2; \
	    rm -f $@.tmp; exit 1; }
	mv -f $@.tmp $@

$(RPNRUN): $(RUST_BIN)
	@mkdir -p $(BINDIR)
	cp $(RUST_BIN) $@

$(INCDIR)/%.inc: fortran/%.inc
	@mkdir -p $(INCDIR)
	cp $< $@

# the RPN_MPI layer's include files (RPN_MPI.hf and those it includes)
$(INCDIR)/%.hf: fortran/%.hf
	@mkdir -p $(INCDIR)
	cp $< $@
$(INCDIR)/%.hf: fortran/rpn_mpi/%.hf
	@mkdir -p $(INCDIR)
	cp $< $@

# the lower-case name codes written for the original include ('rpn_comm.inc', 52 times in GEM):
# a link, as the original installs it
# (not on a case-insensitive file system, where it is the same file)
$(INCDIR)/rpn_comm.inc: $(INCDIR)/RPN_COMM.inc
	[ $@ -ef $< ] || ln -sf RPN_COMM.inc $@

$(INCDIR)/rpncomm_windows.h: $(RUST_HDR)
	@mkdir -p $(INCDIR)
	cp $< $@

# pkg-config file for the build tree itself (prefix = build/)
$(PCFILE): pkgconfig/rpncomm-windows.pc.in Makefile Cargo.toml
	@mkdir -p $(dir $@)
	sed -e 's|@PREFIX@|$(abspath $(BUILD))|g' -e 's|@VERSION@|$(VERSION)|g' \
	    -e 's|@NATIVE_LIBS@|$(NATIVE_LIBS)|g' $(FC_SED) $< > $@

# --------------------------------------------------------------------------------------- install
IPREFIX := $(DESTDIR)$(abspath $(PREFIX))
# CMake packages (cmake/*.in): find_package(rpncomm_windows), target rpncomm_windows::rpncomm_windows;
# and, for codes written for the original RPN_COMM, find_package(rpncomm 4.6.3), target
# rpncomm::rpncomm (the same library, versioned by the RPN_COMM interface it provides)
CMAKEDIR  := lib/cmake/rpncomm_windows
CMAKEDIR_RPNCOMM := lib/cmake/rpncomm
TRANSPORT := $(if $(filter mpi,$(CARGO_FEATURES)),mpi,shm)

install: all
	install -d $(IPREFIX)/lib/pkgconfig $(IPREFIX)/include $(IPREFIX)/bin $(IPREFIX)/$(CMAKEDIR) $(IPREFIX)/$(CMAKEDIR_RPNCOMM)
	install -m 644 $(LIB) $(IPREFIX)/lib/
	# the original's archive names (-lrpn_comm, -lrpncomm), as links
	ln -sf $(notdir $(LIB)) $(IPREFIX)/lib/librpn_comm.a
	ln -sf $(notdir $(LIB)) $(IPREFIX)/lib/librpncomm.a
	install -m 644 $(INSTALLED_INC) $(INCDIR)/*.mod $(IPREFIX)/include/
	install -d $(IPREFIX)/include/rpn_comm-4.6.3
	install -m 644 $(LEGACY_MODDIR)/*.mod $(IPREFIX)/include/rpn_comm-4.6.3/
	[ $(IPREFIX)/include/rpn_comm.inc -ef $(IPREFIX)/include/RPN_COMM.inc ] || ln -sf RPN_COMM.inc $(IPREFIX)/include/rpn_comm.inc
	install -m 755 $(RPNRUN) $(IPREFIX)/bin/
	sed -e 's|@PREFIX@|$(abspath $(PREFIX))|g' -e 's|@VERSION@|$(VERSION)|g' \
	    -e 's|@NATIVE_LIBS@|$(NATIVE_LIBS)|g' $(FC_SED) pkgconfig/rpncomm-windows.pc.in \
	    > $(IPREFIX)/lib/pkgconfig/rpncomm-windows.pc
	sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@NATIVE_LIBS@|$(NATIVE_LIBS)|g' -e 's|@TRANSPORT@|$(TRANSPORT)|g' \
	    -e 's|@MPICC@|$(MPICC)|g' -e 's|@MPIFC@|$(FC)|g' $(FC_SED) cmake/rpncomm_windowsConfig.cmake.in > $(IPREFIX)/$(CMAKEDIR)/rpncomm_windowsConfig.cmake
	sed -e 's|@VERSION@|$(VERSION)|g' cmake/rpncomm_windowsConfigVersion.cmake.in \
	    > $(IPREFIX)/$(CMAKEDIR)/rpncomm_windowsConfigVersion.cmake
	sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@API_VERSION@|$(API_VERSION)|g' cmake/rpncommConfig.cmake.in \
	    > $(IPREFIX)/$(CMAKEDIR_RPNCOMM)/rpncommConfig.cmake
	sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@API_VERSION@|$(API_VERSION)|g' cmake/rpncommConfigVersion.cmake.in \
	    > $(IPREFIX)/$(CMAKEDIR_RPNCOMM)/rpncommConfigVersion.cmake
	@echo "installed in $(IPREFIX); use: PKG_CONFIG_PATH=$(abspath $(PREFIX))/lib/pkgconfig pkg-config --cflags --libs rpncomm-windows"
	@echo "  or, with CMake: find_package(rpncomm_windows) with -DCMAKE_PREFIX_PATH=$(abspath $(PREFIX))"
	@echo "  or, as the original RPN_COMM: find_package(rpncomm $(API_VERSION)), target rpncomm::rpncomm"

# ------------------------------------------------------------------------------------------ demo
$(DEMO): demo/req_test.F90 $(LIB) $(MODS_STAMP) $(INSTALLED_INC)
	@mkdir -p $(DEMODIR)
	$(FC) -O2 -I$(INCDIR) $< -o $@ $(LIB) $(NATIVE_LIBS)

demo: deps all $(DEMO)
	$(RPNRUN) -n 4 $(DEMO)

# ----------------------------------------------------------------------------------------- tests
# tests/check.sh builds (make all), runs its parts (the format and lint checks of tests/lint.sh
# among them: cargo fmt --check, cargo clippy -- -D warnings) and prints the totals as its last
# line, also when the build fails; keep make's own echo off it (@).
# With another compiler than gfortran (make check FC=flang-new-19) only the Fortran parts run, in
# its own build tree; CHECK_QUICK=1 is CI's narrower pass of that.
check: deps
	@MAKE="$(MAKE)" NATIVE_LIBS="$(NATIVE_LIBS)" FC="$(FC)" BUILD_DIR="$(BUILD)" FLANG_FC="$(FLANG_FC)" \
	  CHECK_FORTRAN_ONLY=$(if $(filter build,$(BUILD)),0,1) bash tests/check.sh

# the whole matrix: make check, then make check-full MPI=1 (tests/check_full.sh sums them)
check-full: deps
	@MAKE="$(MAKE)" FLANG_FC="$(FLANG_FC)" bash tests/check_full.sh

# tests/fuzz.sh installs cargo-fuzz when missing; runs on the stable toolchain (RUSTC_BOOTSTRAP=1).
FUZZ_SECONDS ?= 60
fuzz: deps
	@FUZZ_SECONDS="$(FUZZ_SECONDS)" bash tests/fuzz.sh

loom: deps
	@bash tests/loom.sh

clean:
	rm -rf $(BUILD)
	$(CARGO) clean
	rm -rf fuzz/target

# `make bench`: the performance benchmark (bench/).
include bench/bench.mk

# `make stress`: stress, faults, resource limits and isolation at full size.
include tests/stress/stress.mk
endif
