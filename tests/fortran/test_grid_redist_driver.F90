! PES: 4 6
! TIMEOUT: 60
! OUTPUT_HAS@4: pe=  0  0,  level=  1,  errors=  0
! OUTPUT_HAS@4: pe=  0  0,  level=  3,  errors=  0
! OUTPUT_HAS@4: pe=  0  1,  level=  2,  errors=  0
! OUTPUT_HAS@4: pe=  0  1,  level=  4,  errors=  0
! OUTPUT_HAS@4: pe=  1  0,  level=  5,  errors=  0
! OUTPUT_HAS@4: pe=  1  0,  level=  7,  errors=  0
! OUTPUT_HAS@4: pe=  1  1,  level=  6,  errors=  0
! OUTPUT_HAS@4: 04101 05101 06101
! OUTPUT_HAS@6: pe=  0  0,  level=  1,  errors=  0
! OUTPUT_HAS@6: pe=  0  1,  level=  4,  errors=  0
! OUTPUT_HAS@6: pe=  2  0,  level=  7,  errors=  0
! OUTPUT_HAS@6: pe=  2  1,  level=  6,  errors=  0
! OUTPUT_HAS@6: 04066 05066 06066
!
! RPN_COMM_grid_redist_test, the original's self-test driver of RPN_COMM_grid_redist_n, on a
! 2 x 2 and a 3 x 2 grid: each output PE's levels (those 4.6.3 sends to it, checked side by side)
! with no error, a row of a window among its lines, its status 1 on every PE.
program test_grid_redist_driver
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr, pex, pey, status, params(100)
  integer, external :: RPN_COMM_grid_redist_test

  nerr = 0
  pex = 0
  pey = 0
  params = 0
  call RPN_COMM_init(grid_shape, me, npes, pex, pey)
  status = RPN_COMM_grid_redist_test(0, params)
  call check(status == 1, 'RPN_COMM_grid_redist_test returns RPN_COMM_grid_redist_n''s 1')
  call finish('test_grid_redist_driver')
contains
  subroutine grid_shape(px, py)
    integer, intent(INOUT) :: px, py
    integer :: n
    n = px * py
    px = n / 2
    py = 2
  end subroutine grid_shape

  include 'tutil.inc'
end program test_grid_redist_driver
