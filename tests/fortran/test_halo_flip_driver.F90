! PES: 1 2
! TIMEOUT: 60
! OUTPUT_HAS@1: 4 2222    0   45   90  135  180  225  270  315 2222 -999 2222   67   67   67   67   67   67   67   67 2222
! OUTPUT_HAS@1: 5  135  180  225  270  315    0   45   90  135  180 -999   67   67   67   67   67   67   67   67   67   67
! OUTPUT_HAS@1: 4  315    0   45   90  135  180  225  270  315    0 -999   67   67   67   67   67   67   67   67   67   67
! OUTPUT_HAS@2: 5  135  180  225  270  315    0 -999   67   67   67   67   67   67
! OUTPUT_HAS@2: 5  315    0   45   90  135  180 -999   67   67   67   67   67   67
! OUTPUT_HAS@2: 1 2222  180  225  270  315 2222 -999 2222  -67  -67  -67  -67 2222
!
! RPN_COMM_xch_halo_flip_test, the original's self-test driver of the pole flip, on a 1 x 1 and a
! 2 x 1 grid: gni = 8, gnj = 4, one level, halos 1 x 1, periodic along x and y (the flip needs
! periody). Its lines are checked
! (OUTPUT_HAS): before the exchange the halos hold 2222; after it, the row beyond each pole holds
! the row next to the pole half a globe away (longitudes 180 degrees on, latitudes those of the
! row next to the pole), the x halos wrap around. It must return 0, and -1 with 6 parameters.
program test_halo_flip_driver
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr, pex, pey, status
  integer, external :: RPN_COMM_xch_halo_flip_test
  integer :: params(7)

  nerr = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(grid_shape, me, npes, pex, pey)
  params = [8, 4, 1, 1, 1, 1, 1]
  status = RPN_COMM_xch_halo_flip_test(7, params)
  call check(status == 0, 'RPN_COMM_xch_halo_flip_test returns 0')
  status = RPN_COMM_xch_halo_flip_test(6, params(1:6))
  call check(status == -1, 'RPN_COMM_xch_halo_flip_test returns -1 with 6 parameters')
  call finish('test_halo_flip_driver')
contains
  subroutine grid_shape(px, py)
    integer, intent(INOUT) :: px, py
    px = px * py
    py = 1
  end subroutine grid_shape

  include 'tutil.inc'
end program test_halo_flip_driver
