! mpi_comm_windows.F90 -- windows over a caller's MPI communicator: the original's easy windows
! (RPN_COMM_ezwin_*) and shared-memory windows (RPN_COMM_win_allocate_shared)
!
! External procedures with the original's names and dummy arguments; each converts its
! arguments for the C ABI (src/ffi/windows/mpi_comm_windows.rs), which checks them and reports
! errors. The windows are the library's (RPN_COMM_i_win_* take their handles); MPI build only.
! Their signatures are rows of fortran/routines.toml (those with a direct body are generated in
! windows_direct.F90).

! The MPI window of an easy window: the library's windows have none, MPI_WIN_NULL (with a line).
function RPN_COMM_ezwin_id(mywin) result(winid)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(IN) :: mywin
  integer :: winid
  integer(C_INT) :: id, status
  id = -1
  status = rpncomm_ezwin_id(mywin, id)
  winid = id
end function RPN_COMM_ezwin_id

! This PE's part of the window (C_NULL_PTR for a handle of no window).
function RPN_COMM_ezwin_ptr(mywin) result(winptr)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(IN) :: mywin
  type(C_PTR) :: winptr
  integer(C_INT) :: status
  winptr = C_NULL_PTR
  status = rpncomm_ezwin_ptr(mywin, winptr)
end function RPN_COMM_ezwin_ptr

! This PE's number of integers in the window (-1 for a handle of no window).
function RPN_COMM_ezwin_size(mywin) result(sz)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(IN) :: mywin
  integer :: sz
  integer(C_INT) :: n, status
  n = -1
  status = rpncomm_ezwin_size(mywin, n)
  sz = n
end function RPN_COMM_ezwin_size

! Collective over comm (PEs of one node): baseptr addresses rank 0's msize integers on every PE.
subroutine RPN_COMM_win_allocate_shared2(comm, msize, win, baseptr, err)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  integer, intent(IN) :: comm
  integer(C_INTPTR_T), intent(IN) :: msize
  integer, intent(OUT) :: win
  type(C_PTR), intent(OUT) :: baseptr
  integer, intent(OUT) :: err
  integer(C_INT) :: w
  w = -1
  baseptr = C_NULL_PTR
  err = rpncomm_win_allocate_shared(int(comm, C_INT), int(msize, C_INT64_T), w, baseptr)
  win = w
end subroutine RPN_COMM_win_allocate_shared2

subroutine RPN_COMM_win_allocate_shared1(comm, msize, win, baseptr, err)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  integer, intent(IN) :: comm
  integer, intent(IN) :: msize
  integer, intent(OUT) :: win
  type(C_PTR), intent(OUT) :: baseptr
  integer, intent(OUT) :: err
  integer(C_INT) :: w
  w = -1
  baseptr = C_NULL_PTR
  err = rpncomm_win_allocate_shared(int(comm, C_INT), int(msize, C_INT64_T), w, baseptr)
  win = w
end subroutine RPN_COMM_win_allocate_shared1
