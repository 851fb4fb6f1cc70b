! PES: 1 2 4
! EXPECT: fail
! TIMEOUT: 10
!
! RPN_COMM_init with a Userinit asking for an impossible grid (Pex*Pey /= number of PEs): the
! library prints why, RPN_COMM_init stops the program with a non-zero status on every PE.
! Reaching the end of the program is itself a failure.
program test_badgrid
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, pex, pey
  pex = 0
  pey = 0
  call RPN_COMM_init(bad_grid, me, npes, pex, pey)
  write(*, '(A,I0,A,I0,A,I0)') 'test_badgrid: RPN_COMM_init accepted a ', pex, ' x ', pey, &
                                ' grid for npes = ', npes
  error stop 1
contains
  subroutine bad_grid(px, py)
    integer, intent(INOUT) :: px, py
    integer :: n, ierr
    call RPN_COMM_size(RPN_COMM_WORLD, n, ierr)
    px = n + 1
    py = 1
  end subroutine bad_grid
end program test_badgrid
