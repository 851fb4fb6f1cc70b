! PES: 1 2 4
! TIMEOUT: 60
!
! A second RPN_COMM_init is refused and keeps the grid: the first chose npes x 1 (tutil's
! userinit); the second, with a Userinit that would choose 1 x npes, must not call it, must
! return the grid in use in Pex, Pey (and the same Pelocal, Petotal), and RPN_COMM_mype and the
! 'EW' communicator must still describe npes x 1. The refusal is one line on stderr per PE.

! whether the second Userinit ran (a module variable: COMMON is obsolescent in Fortran 2018)
module second_init_flag
  implicit none
  logical :: called_again = .false.
end module second_init_flag

program test_second_init
  use ISO_C_BINDING
  use rpn_comm_windows
  use second_init_flag
  implicit none
  integer :: me, npes, nerr
  integer :: pelocal, petotal, pex, pey, me_x, me_y, n, ierr, status
  external :: column_init

  call start('test_second_init')
  called_again = .false.
  pex = 0
  pey = 0
  pelocal = -1
  petotal = -1
  call RPN_COMM_init(column_init, pelocal, petotal, pex, pey)
  call check(.not. called_again, 'the second RPN_COMM_init does not call Userinit')
  call check(pelocal == me .and. petotal == npes, 'second init: Pelocal, Petotal as before')
  call check(pex == npes .and. pey == 1, 'second init: Pex x Pey = '//str(pex)//' x '//str(pey)// &
             ', the grid kept is '//str(npes)//' x 1')
  status = RPN_COMM_mype(n, me_x, me_y)
  call check(status == RPN_COMM_OK .and. me_x == me .and. me_y == 0, 'RPN_COMM_mype: the grid npes x 1 kept')
  call RPN_COMM_size('EW', n, ierr)
  call check(ierr == RPN_COMM_OK .and. n == npes, "'EW' still holds a row of npes PEs")
  call RPN_COMM_size('NS', n, ierr)
  call check(ierr == RPN_COMM_OK .and. n == 1, "'NS' still holds one PE")
  ! a third call with Pex, Pey given is refused the same way
  pex = 1
  pey = npes
  call RPN_COMM_init(column_init, pelocal, petotal, pex, pey)
  call check(pex == npes .and. pey == 1, 'third init with Pex, Pey given: the grid kept')
  call finish('test_second_init')
contains
  include 'tutil.inc'
end program test_second_init

! the grid the second call would choose if it were accepted: one column
subroutine column_init(px, py)
  use rpn_comm_windows
  use second_init_flag
  implicit none
  integer, intent(INOUT) :: px, py
  integer :: ierr
  called_again = .true.
  px = 1
  call RPN_COMM_size(RPN_COMM_WORLD, py, ierr)
end subroutine column_init
