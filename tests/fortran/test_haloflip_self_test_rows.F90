! PES: 4
! TIMEOUT: 60
! EXPECT: 1
! OUTPUT_HAS@4: RPN_COMM_haloflip_test: PE 0: bad argument: the self-test takes every PE as one row of PEs, and RPN_COMM_init set a grid of 2 rows: call it before RPN_COMM_init
!
! RPN_COMM_haloflip_test after RPN_COMM_init set a 2 x 2 grid: the self-test needs every PE in one
! row and says so in one line; the PE ends with status 1 (as a refused RPN_COMM_haloflip).
program test_haloflip_self_test_rows
  use rpn_comm_windows
  implicit none
  external :: RPN_COMM_haloflip_test
  integer :: me, npes, pex, pey

  pex = 2
  pey = 2
  call RPN_COMM_init(no_grid_choice, me, npes, pex, pey)
  call RPN_COMM_haloflip_test(1, 2, 5, 6, 1)
contains
  subroutine no_grid_choice(px, py)
    integer, intent(INOUT) :: px, py
  end subroutine no_grid_choice
end program test_haloflip_self_test_rows
