! PES: 8
! TIMEOUT: 180
! OUTPUT_HAS@8: test_gem_dist: all checks passed
!
! test_gem_dist's cases (tests/fortran/test_gem_dist.F90, against global indices) on two grids, as
! GEM's Yin-Yang starts with Ptopo_alongY: RPN_COMM_set_petopo(1, 999999), then
! RPN_COMM_gridinit(..., 1, 2): two grids of 2 x 2 whose PEs are placed column after column. Each
! grid distributes and collects its own fields (the second grid's PEs are not job ranks 0-3), and a
! PE's part is the one of its place (x, y), which is not grid rank x + y * pex here.
#define DIST_TWO_GRIDS
#include "test_gem_dist.F90"
