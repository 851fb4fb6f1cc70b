# rpncomm-windows: build, install, demo and tests (GNU make).
#
#   make                   build everything into build/ (same layout as an installation)
#   make install PREFIX=d  install into d/{lib,include,bin,lib/pkgconfig}
#   make demo              build and run the request/reply demo on 4 PEs
#   make check             run every test; last line "N passed, N failed"
#   make stress            the reliability tests at full size (tests/stress/stress.mk)
#   make fuzz              fuzz the C ABI and the window core under AddressSanitizer,
#                          FUZZ_SECONDS (default 60) per target (tests/fuzz.sh)
#   make loom              model-check the shared-memory protocols with loom (tests/loom.sh)
#   make clean
#   make ... MPI=1         the same over MPI (mpi/mpi.mk: build-mpi-<impl>/ for Open MPI and MPICH)
#
# `deps` installs gfortran and pkg-config when they are missing (as root, with apt-get) or says what
# to install; all, demo and check run it first.

SHELL := /bin/bash

CARGO    ?= cargo
FC       := gfortran
FFLAGS   ?= -O2 -fPIC
AR       := ar
ARPLUGIN := --plugin /dev/null
PREFIX   ?= /usr/local
DESTDIR  ?=

# Fortran layer, compiled in this order (a file may use the modules of the files before it).
FORTRAN_SRCS := fortran/rpn_comm_c_binding.F90 \
                fortran/rpn_comm_windows.F90 \
                fortran/rpn_comm_externals.F90
# Include files shipped to users next to the .mod files.
FORTRAN_INCS := fortran/RPN_COMM_types.inc \
                fortran/RPN_COMM_constants.inc \
                fortran/RPN_COMM_interfaces.inc \
                fortran/RPN_COMM.inc

# What the Rust standard library needs when the staticlib is linked by another compiler, from
# `cargo rustc --release --lib --crate-type staticlib -- --print native-static-libs`
# (rustc 1.95, x86_64-unknown-linux-gnu). Also substituted into the pkg-config file.
NATIVE_LIBS := -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc

VERSION := $(shell sed -n 's/^version *= *"\(.*\)"/\1/p' Cargo.toml | head -n 1)

ifeq ($(MPI),1)
include mpi/mpi.mk
else

# The MPI builds (mpi/mpi.mk) set RUST_TARGET, CARGO_FEATURES=mpi, MPICC, FC and BUILD.
RUST_TARGET    ?= target
CARGO_FEATURES ?=
RUST_LIB := $(RUST_TARGET)/release/librpncomm_windows.a
RUST_BIN := $(RUST_TARGET)/release/rpnrun
RUST_HDR := include/rpncomm_windows.h

BUILD   := build
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

.PHONY: all deps cargo-build install demo check stress fuzz loom clean

all: deps $(LIB) $(RPNRUN) $(INSTALLED_INC) $(MODS_STAMP) $(PCFILE)

# ---------------------------------------------------------------------------------------- set-up
deps:
	@missing=""; \
	for t in gfortran pkg-config; do command -v "$$t" >/dev/null 2>&1 || missing="$$missing $$t"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "deps: installing$$missing"; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -q && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -q gfortran pkg-config || exit 1; \
	  else \
	    echo "deps: missing$$missing; install them first (Debian/Ubuntu: sudo apt-get install -y gfortran pkg-config)" >&2; \
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
$(OBJDIR)/%.o: fortran/%.F90 $(FORTRAN_INCS) | deps
	@mkdir -p $(OBJDIR) $(INCDIR)
	$(FC) $(FFLAGS) -Ifortran -J$(INCDIR) -c $< -o $@

# each Fortran object also depends on the one before it in FORTRAN_SRCS (its modules)
$(foreach pair,$(join $(wordlist 2,$(words $(FORTRAN_OBJS)),$(FORTRAN_OBJS)),\
  $(addprefix :,$(filter-out $(lastword $(FORTRAN_OBJS)),$(FORTRAN_OBJS)))),$(eval $(pair)))

# the .mod files are written by the compilations above
$(MODS_STAMP): $(FORTRAN_OBJS)
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

$(INCDIR)/rpncomm_windows.h: $(RUST_HDR)
	@mkdir -p $(INCDIR)
	cp $< $@

# pkg-config file for the build tree itself (prefix = build/)
$(PCFILE): pkgconfig/rpncomm-windows.pc.in Makefile Cargo.toml
	@mkdir -p $(dir $@)
	sed -e 's|@PREFIX@|$(abspath $(BUILD))|g' -e 's|@VERSION@|$(VERSION)|g' \
	    -e 's|@NATIVE_LIBS@|$(NATIVE_LIBS)|g' $< > $@

# --------------------------------------------------------------------------------------- install
IPREFIX := $(DESTDIR)$(abspath $(PREFIX))

install: all
	install -d $(IPREFIX)/lib/pkgconfig $(IPREFIX)/include $(IPREFIX)/bin
	install -m 644 $(LIB) $(IPREFIX)/lib/
	install -m 644 $(INSTALLED_INC) $(INCDIR)/*.mod $(IPREFIX)/include/
	install -m 755 $(RPNRUN) $(IPREFIX)/bin/
	sed -e 's|@PREFIX@|$(abspath $(PREFIX))|g' -e 's|@VERSION@|$(VERSION)|g' \
	    -e 's|@NATIVE_LIBS@|$(NATIVE_LIBS)|g' pkgconfig/rpncomm-windows.pc.in \
	    > $(IPREFIX)/lib/pkgconfig/rpncomm-windows.pc
	@echo "installed in $(IPREFIX); use: PKG_CONFIG_PATH=$(abspath $(PREFIX))/lib/pkgconfig pkg-config --cflags --libs rpncomm-windows"

# ------------------------------------------------------------------------------------------ demo
$(DEMO): demo/req_test.F90 $(LIB) $(MODS_STAMP) $(INSTALLED_INC)
	@mkdir -p $(DEMODIR)
	$(FC) -O2 -I$(INCDIR) $< -o $@ $(LIB) $(NATIVE_LIBS)

demo: deps all $(DEMO)
	$(RPNRUN) -n 4 $(DEMO)

# ----------------------------------------------------------------------------------------- tests
# tests/check.sh builds (make all), runs the five parts and prints the totals as its last line,
# also when the build fails; keep make's own echo off it (@).
check: deps
	@MAKE="$(MAKE)" NATIVE_LIBS="$(NATIVE_LIBS)" bash tests/check.sh

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
