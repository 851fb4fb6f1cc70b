! PES: 4 6
! TIMEOUT: 90
! OUTPUT_HAS@4: ERROR: IO PE set creation error, quitting
! OUTPUT_HAS@6: nerrors,  nvalid,  npts =    0   72   72    3    4    6
! OUTPUT_HAS@6: nerrors,  nvalid,  npts =    0   90   90    3    5    6
! OUTPUT_HAS@6: nerrors,  nvalid,  npts =    0  120  120    5    4    6
! OUTPUT_HAS@6: nerrors,  nvalid,  npts =    0  144  144    6    4    6
! OUTPUT_HAS@6: nerrors,  nvalid,  npts =    0  150  150    5    5    6
! OUTPUT_HAS@6: nerrors,  nvalid,  npts =    0  180  180    6    5    6
! OUTPUT_HAS@6: ====== after shuf_coll ======
! OUTPUT_LACKS: ERROR: expected, got
!
! RPN_COMM_io_dist_coll_test, the original's self-test driver of RPN_COMM_shuf_ezdist, _ezdist_h
! and _ezcoll, with its default parameters (gni = 10, gnj = 7, 2 levels per I/O PE, 6 local
! levels, min(pe_nx, pe_ny) + 3 I/O PEs): on a 2 x 2 grid the I/O PE set cannot be made (5 PEs of
! 4), the original's line; on a 3 x 2 grid every PE's distributed tile without error and every I/O
! PE's collected levels without error (no "ERROR: expected, got": its list-directed count line
! has other widths with Flang); the lines 4.6.3 prints, checked side by side.
program test_io_dist_coll_driver
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr, pex, pey, params(1)
  external :: RPN_COMM_io_dist_coll_test

  nerr = 0
  pex = 0
  pey = 0
  params = 0
  call RPN_COMM_init(grid_shape, me, npes, pex, pey)
  call RPN_COMM_io_dist_coll_test(0, params)
  call finish('test_io_dist_coll_driver')
contains
  subroutine grid_shape(px, py)
    integer, intent(INOUT) :: px, py
    integer :: n
    n = px * py
    px = n / 2
    py = 2
  end subroutine grid_shape

  include 'tutil.inc'
end program test_io_dist_coll_driver
