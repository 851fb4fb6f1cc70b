# rpncomm-windows over MPI (included by the Makefile when MPI=1).
#
#   make MPI=1 [MPI_IMPL=openmpi|mpich]          build into build-mpi-<impl>/ (both MPIs by default)
#   make install MPI=1 MPI_IMPL=<impl> PREFIX=d  install the build for one MPI
#   make demo MPI=1                              the request/reply demo under mpirun on 4 ranks
#   make check MPI=1                             Fortran tests, demo and C ABI test under mpirun,
#                                                for each MPI (and Open MPI over TCP), a part of
#                                                them against Open MPI 5 and MPICH 5 from PyPI,
#                                                and across simulated nodes (tests/multinode/);
#                                                last line "N passed, N failed"
#   make check-full MPI=1                        the same with the whole matrix (every layout,
#                                                every test on the PyPI MPIs): see mpi/check_mpi.sh
#   make clean MPI=1
#
# Each MPI gets its own build tree, its own cargo target directory (the C shim is compiled by that
# MPI's mpicc) and is linked by its own mpifort. The wrappers are called by their Debian names
# (mpicc.openmpi, mpicc.mpich, ...) so that both MPIs can be installed at once; MPICC_<impl>,
# MPIFORT_<impl> and MPIRUN_<impl> override them.

MPI_IMPLS ?= openmpi mpich
MPI_IMPL  ?=
IMPLS     := $(if $(MPI_IMPL),$(MPI_IMPL),$(MPI_IMPLS))

MPICC_openmpi  ?= mpicc.openmpi
MPIFORT_openmpi ?= mpifort.openmpi
MPIRUN_openmpi ?= mpirun.openmpi
MPICC_mpich    ?= mpicc.mpich
MPIFORT_mpich  ?= mpifort.mpich
MPIRUN_mpich   ?= mpiexec.mpich

# Debian/Ubuntu packages of each MPI
MPI_PKGS_openmpi := openmpi-bin libopenmpi-dev
MPI_PKGS_mpich   := mpich libmpich-dev

# BUILD= and RUST_TARGET= given to make (command line; RUST_TARGET also from the environment, as
# without MPI=1) replace the build tree and cargo target directory of the MPI built, so that
# `make install MPI=1 BUILD=/tmp/b RUST_TARGET=/tmp/t` writes nothing into the source tree. They
# name the tree of one MPI: refused without MPI_IMPL (both MPIs), and for check and bench, whose
# scripts build their own trees.
USER_BUILD       := $(if $(filter command line,$(origin BUILD)),$(BUILD))
USER_RUST_TARGET := $(if $(filter command line environment,$(origin RUST_TARGET)),$(RUST_TARGET))
USER_TREES       := $(strip $(if $(USER_BUILD),BUILD=$(USER_BUILD)) $(if $(USER_RUST_TARGET),RUST_TARGET=$(USER_RUST_TARGET)))
ifneq ($(USER_TREES),)
ifneq ($(words $(IMPLS)),1)
$(error $(USER_TREES) names the tree of one MPI: add MPI_IMPL=openmpi or MPI_IMPL=mpich)
endif
endif
mpi_build_dir  = $(or $(USER_BUILD),build-mpi-$(1))
mpi_target_dir = $(or $(USER_RUST_TARGET),target-mpi-$(1))

# make variables of the build for one MPI (the rules are the Makefile's own)
mpi_build_vars = MPI= BUILD=$(call mpi_build_dir,$(1)) RUST_TARGET=$(call mpi_target_dir,$(1)) CARGO_FEATURES=mpi \
                 MPICC=$(MPICC_$(1)) FC=$(MPIFORT_$(1))

.PHONY: all mpi-deps install demo check check-full clean bench no-user-trees

all: mpi-deps
	@set -e; for impl in $(IMPLS); do \
	  case $$impl in openmpi) vars="$(call mpi_build_vars,openmpi)" ;; mpich) vars="$(call mpi_build_vars,mpich)" ;; \
	    *) echo "MPI_IMPL=$$impl: openmpi or mpich" >&2; exit 1 ;; esac; \
	  echo "==== build for $$impl"; \
	  $(MAKE) --no-print-directory $$vars all; \
	done

# the MPI packages, installed with apt-get when a wrapper is missing and we are root; also
# as root, iproute2 (the simulated nodes of tests/multinode) and python3-venv (the MPIs of PyPI);
# without them those parts print SKIP
mpi-deps:
	@missing=""; \
	for impl in $(IMPLS); do \
	  case $$impl in \
	    openmpi) tools="$(MPICC_openmpi) $(MPIFORT_openmpi) $(MPIRUN_openmpi)"; pkgs="$(MPI_PKGS_openmpi)" ;; \
	    mpich)   tools="$(MPICC_mpich) $(MPIFORT_mpich) $(MPIRUN_mpich)"; pkgs="$(MPI_PKGS_mpich)" ;; \
	    *) echo "MPI_IMPL=$$impl: openmpi or mpich" >&2; exit 1 ;; \
	  esac; \
	  for t in $$tools; do command -v $$t >/dev/null 2>&1 || { missing="$$missing $$pkgs"; break; }; done; \
	done; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  command -v ip >/dev/null 2>&1 || missing="$$missing iproute2"; \
	  command -v python3 >/dev/null 2>&1 && python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || missing="$$missing python3-venv"; \
	fi; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "mpi-deps: installing$$missing"; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -q && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing gfortran pkg-config || exit 1; \
	  else \
	    echo "mpi-deps: missing MPI packages:$$missing (Debian/Ubuntu: sudo apt-get install -y$$missing)" >&2; \
	    exit 1; \
	  fi; \
	fi

install: mpi-deps
	@if [ "$(words $(IMPLS))" != 1 ]; then echo "make install MPI=1: choose one MPI with MPI_IMPL=openmpi or MPI_IMPL=mpich" >&2; exit 1; fi
	$(MAKE) --no-print-directory $(call mpi_build_vars,$(IMPLS)) install

demo: all
	@set -e; for impl in $(IMPLS); do \
	  case $$impl in openmpi) run="$(MPIRUN_openmpi) --oversubscribe $$( [ "$$(id -u)" = 0 ] && echo --allow-run-as-root )"; fc=$(MPIFORT_openmpi) ;; \
	                 mpich) run="$(MPIRUN_mpich)"; fc=$(MPIFORT_mpich) ;; esac; \
	  b=$(or $(USER_BUILD),build-mpi-$$impl); mkdir -p $$b/demo; \
	  $$fc -O2 -I$$b/include demo/req_test.F90 -o $$b/demo/req_test $$b/lib/librpncomm_windows.a $(NATIVE_LIBS); \
	  echo "==== $$run -n 4 $$b/demo/req_test"; \
	  $$run -n 4 $$b/demo/req_test; \
	done

check-full: SCOPE := full
check check-full:
	@MAKE="$(MAKE)" MPI_IMPLS="$(IMPLS)" NATIVE_LIBS="$(NATIVE_LIBS)" SCOPE="$(or $(SCOPE),ci)" \
	  MPICC_openmpi=$(MPICC_openmpi) MPIFORT_openmpi=$(MPIFORT_openmpi) MPIRUN_openmpi=$(MPIRUN_openmpi) \
	  MPICC_mpich=$(MPICC_mpich) MPIFORT_mpich=$(MPIFORT_mpich) MPIRUN_mpich=$(MPIRUN_mpich) \
	  bash mpi/check_mpi.sh

clean:
	rm -rf $(foreach i,$(IMPLS),$(call mpi_build_dir,$(i)) $(call mpi_target_dir,$(i)))

# make check/bench MPI=1 build their own trees (mpi/check_mpi.sh, bench/mpi_bench.sh)
check check-full bench: no-user-trees
no-user-trees:
	@if [ -n "$(USER_TREES)" ]; then echo "make $(MAKECMDGOALS) MPI=1 builds its own trees: $(USER_TREES) is for make, make install and make demo" >&2; exit 1; fi

# MPI transport vs shared memory vs raw MPI-3 in one run (bench/mpi_bench.sh)
bench: all
	@MAKE="$(MAKE)" MPI_IMPLS="$(IMPLS)" NATIVE_LIBS="$(NATIVE_LIBS)" bash bench/mpi_bench.sh
