! PES: 1 2 4 6 8
! TIMEOUT: 120
!
! RPN_COMM_xch_halo on a npes/2 x 2 (npes = 1, 2: one row) grid against an independent reference of every point
! (tests/fortran/halo_check.inc): halo widths 1-4, periodic in x, y, both and neither, uneven
! decompositions by RPN_COMM_limit, bounds wider than the halo, a different array at each call
! (automatic, allocatable, static); real*8 through RPN_COMM_xch_halon with n = 2.
program test_halo
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr, pex, pey, mex, mey, status
  ! a static array outside any procedure (as a module array; no module, so no .mod file)
  integer, allocatable :: module_array(:,:,:)

  nerr = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(grid_shape, me, npes, pex, pey)
  status = RPN_COMM_mype(me, mex, mey)
  if (me == 0) write(*, '(A,I0,A,I0,A,I0,A)') 'test_halo: running on ', npes, ' PEs, a ', pex, ' x ', pey, ' grid'
  call section('every halo width and periodicity')
  call all_exchanges()
  call section('real*8 through RPN_COMM_xch_halon')
  call real8_exchange()
  call finish('test_halo')
contains
  subroutine grid_shape(px, py)
    integer, intent(INOUT) :: px, py
    integer :: n
    n = px * py
    px = n
    if (n >= 4 .and. mod(n, 2) == 0) px = n / 2
    py = n / px
  end subroutine grid_shape

  include 'halo_check.inc'
  include 'tutil.inc'
end program test_halo
