! PES: 1 2
! TIMEOUT: 60
!
! RPN_COMM_i_win_get_ptr in both forms, through include 'RPN_COMM.inc' (tests/gem_build includes it
! as 'rpn_comm.inc', as GEM does): the windows specification's (window, np, ierr), which is also
! the link symbol, and RPN_COMM 4.6.3's (window, ierr), which the generic of the same name resolves
! to RPN_COMM_i_win_get_ptr_primary. Both give the primary window's memory (the caller's array);
! np = 2 gives the secondary window once it exists, and is refused before.
program test_get_ptr_forms
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, nerr
  integer, parameter :: N = 8
  integer, dimension(N), target :: arr
  type(rpncomm_window) :: w
  type(rpncomm_datatype) :: dint
  type(rpncomm_communicator) :: com
  type(C_PTR) :: p
  integer :: ierr

  call start('test_get_ptr_forms')
  call RPN_COMM_i_comm(RPN_COMM_GRID, com)
  call RPN_COMM_i_datyp(RPN_COMM_INTEGER, dint)
  call RPN_COMM_i_win_create(w, dint, N, com, c_loc(arr), ierr)
  call check_ierr(ierr, RPN_COMM_OK, 'create')

  p = RPN_COMM_i_win_get_ptr(w, ierr)
  call check_ierr(ierr, RPN_COMM_OK, 'get_ptr(window, ierr)')
  call check(c_associated(p, c_loc(arr)), 'get_ptr(window, ierr) is the caller''s array')
  p = RPN_COMM_i_win_get_ptr(w, 1, ierr)
  call check_ierr(ierr, RPN_COMM_OK, 'get_ptr(window, 1, ierr)')
  call check(c_associated(p, c_loc(arr)), 'get_ptr(window, 1, ierr) is the caller''s array')
  p = RPN_COMM_i_win_get_ptr_primary(w, ierr)
  call check(ierr == RPN_COMM_OK .and. c_associated(p, c_loc(arr)), 'get_ptr_primary(window, ierr)')
  p = RPN_COMM_i_win_get_ptr(w, 2, ierr)
  call check_ierr(ierr, RPN_COMM_ERROR, 'get_ptr(window, 2, ierr) without a secondary window')
  call RPN_COMM_i_win_create_secondary(w, 4, ierr)
  call check_ierr(ierr, RPN_COMM_OK, 'create_secondary')
  p = RPN_COMM_i_win_get_ptr(w, 2, ierr)
  call check(ierr == RPN_COMM_OK .and. c_associated(p) .and. .not. c_associated(p, c_loc(arr)), &
             'get_ptr(window, 2, ierr) is the secondary window')
  call RPN_COMM_i_win_free(w, ierr)
  call check_ierr(ierr, RPN_COMM_OK, 'free')
  p = RPN_COMM_i_win_get_ptr(w, ierr)
  call check_ierr(ierr, RPN_COMM_ERROR, 'get_ptr(window, ierr) of a freed window')

  call finish('test_get_ptr_forms')

contains
  include 'tutil.inc'
end program test_get_ptr_forms
