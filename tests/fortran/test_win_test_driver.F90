! PES: 1 2 4
! TIMEOUT: 60
! OUTPUT_LACKS: TEST ERROR
! OUTPUT_HAS@2: TEST INFO: ACC passive mode test end
! OUTPUT_HAS@2: TEST INFO: GET/PUT active group mode test end
! OUTPUT_HAS@4: TEST INFO: ACC passive mode test end
! OUTPUT_LACKS: CHECK FAILED
!
! RPN_COMM_i_win_test, the original's self-test of the windows package, driving this library's
! window routines: every mode of every operation runs, each with no unexpected value.
program test_win_test_driver
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, nerr, pex, pey, ierr
  integer, dimension(1) :: params
  external :: RPN_COMM_i_win_test, driver_grid

  nerr = 0
  me = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(driver_grid, me, npes, pex, pey)
  params = 0
  call RPN_COMM_i_win_test(1, params)
  call finish('test_win_test_driver')
contains
  include 'tutil.inc'
end program test_win_test_driver

! RPN_COMM_init presets the grid to (number of PEs) x 1: kept
subroutine driver_grid(px, py)
  implicit none
  integer, intent(INOUT) :: px, py
  py = 1
end subroutine driver_grid
