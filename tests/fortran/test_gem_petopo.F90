! PES: 4
! EXPECT: fail
! TIMEOUT: 30
!
! RPN_COMM_set_petopo(1, 999999) (GEM's Ptopo_alongY: the PEs numbered along y first) on a 2 x 2
! grid: a placement other than the default, not supported yet: RPN_COMM_init says so and stops on
! every PE. Reaching the end of the program (status 0) is a failure.
program test_gem_petopo
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, pex, pey, ierr
  call RPN_COMM_set_petopo(1, 999999)
  pex = 2
  pey = 2
  call RPN_COMM_init(no_userinit, me, npes, pex, pey)
  write(*, '(A)') 'test_gem_petopo: RPN_COMM_init accepted the placement along y'
  call RPN_COMM_finalize(ierr)
contains
  subroutine no_userinit(px, py)
    integer, intent(INOUT) :: px, py
    px = 2
    py = 2
  end subroutine no_userinit
end program test_gem_petopo
