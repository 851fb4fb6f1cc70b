! windows_routines.F90 -- windows: creation, queries, exposure, data movement, requests, boxes
!
! External procedures with the original RPN_COMM's names and dummy arguments (their link names
! are the plain Fortran ones, so code written for the original links unchanged); each only
! converts its arguments for the C ABI of the Rust core (logical <-> int, character(len=*) ->
! pointer + length, assumed-shape -> contiguous copy + count), which checks them and reports errors.
! Their signatures are rows of fortran/routines.toml, which generates their interfaces;
! fortran/gen/check_routines.py (make check) checks each routine here against its row.

! ======================================================================= window queries

function RPN_COMM_i_valid_win(window, ierr) result(is_valid)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  integer, intent(OUT) :: ierr
  logical :: is_valid
  integer(C_INT) :: flag
  flag = 0
  ierr = rpncomm_win_valid(window, flag)
  is_valid = flag /= 0
end function RPN_COMM_i_valid_win

function RPN_COMM_i_win_check(window, ierr) result(is_open)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  integer, intent(OUT) :: ierr
  logical :: is_open
  integer(C_INT) :: flag
  flag = 0
  ierr = rpncomm_win_check(window, flag)
  is_open = flag /= 0
end function RPN_COMM_i_win_check

! The windows specification's form (window, np, ierr), which is also the link symbol: np = 1 the
! primary window's memory, np = 2 the secondary window's records. RPN_COMM 4.6.3's external takes
! (window, ierr); a program declaring the specification's interface itself (as its request/reply
! example does) would have its literal np written into by that form, so the specification's
! holds at link level (docs/windows.md). The two-argument form stays available through the
! generic of the same name (RPN_COMM_i_win_get_ptr_primary).
function RPN_COMM_i_win_get_ptr(window, np, ierr) result(ptr)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  integer, intent(IN) :: np
  integer, intent(OUT) :: ierr
  type(C_PTR) :: ptr
  ptr = C_NULL_PTR
  ierr = rpncomm_win_get_ptr(window, int(np, C_INT), ptr)
end function RPN_COMM_i_win_get_ptr

! 4.6.3's form (window, ierr): the primary window's memory. Called by that name, or as
! RPN_COMM_i_win_get_ptr(window, ierr) through the generic.
function RPN_COMM_i_win_get_ptr_primary(window, ierr) result(ptr)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  integer, intent(OUT) :: ierr
  type(C_PTR) :: ptr
  ptr = C_NULL_PTR
  ierr = rpncomm_win_get_ptr(window, 1_C_INT, ptr)
end function RPN_COMM_i_win_get_ptr_primary

function RPN_COMM_i_win_get_size(window, ierr) result(siz)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  integer, intent(OUT) :: ierr
  integer :: siz
  integer(C_INT) :: n
  n = -1
  ierr = rpncomm_win_get_size(window, n)
  siz = n
end function RPN_COMM_i_win_get_size

function RPN_COMM_i_win_get_size2(window, ierr) result(siz)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  integer, intent(OUT) :: ierr
  integer :: siz
  integer(C_INT) :: n
  n = -1
  ierr = rpncomm_win_get_size2(window, n)
  siz = n
end function RPN_COMM_i_win_get_size2

! ===================================================================== exposure control

subroutine RPN_COMM_i_win_group(window, pes_to, pes_from, ierr)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  integer, dimension(:), intent(IN) :: pes_to
  integer, dimension(:), intent(IN) :: pes_from
  integer, intent(OUT) :: ierr
  integer(C_INT), dimension(size(pes_to))   :: to     ! contiguous copies
  integer(C_INT), dimension(size(pes_from)) :: from
  to   = pes_to
  from = pes_from
  ierr = rpncomm_win_group(window, to, int(size(to), C_INT), from, int(size(from), C_INT))
end subroutine RPN_COMM_i_win_group

! ================================================================ request-based operations

! Whether the operation of req is complete (then req is NULL_rpncomm_request): the
! request-based operations are RPN_COMM_i_win_rput_r, _rget_r, _rgetacc_r (windows_direct.F90).
subroutine RPN_COMM_i_win_test_req(req, flag, ierr)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_request), intent(INOUT) :: req
  logical, intent(OUT) :: flag
  integer, intent(OUT) :: ierr
  integer(C_INT) :: cflag
  ierr = rpncomm_win_test(req, cflag)
  flag = cflag /= 0
end subroutine RPN_COMM_i_win_test_req

! ================================================================================ boxes

! Sub-array (3-D box) transfers. lshape: the local array's extents; lstart: the box's 0-based
! start in it; count: the box's extents; tshape, tstart: the target's window seen as an array
! of that shape, and the box's 0-based start there.
subroutine RPN_COMM_i_win_put_r_box(window, larray, lshape, lstart, count, targetpe, tshape, tstart, ierr)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  type(C_PTR), intent(IN), value :: larray
  integer, dimension(3), intent(IN) :: lshape, lstart, count
  integer, intent(IN) :: targetpe
  integer, dimension(3), intent(IN) :: tshape, tstart
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_put_r_box(window, larray, int(lshape, C_INT), int(lstart, C_INT), int(count, C_INT), &
                               int(targetpe, C_INT), int(tshape, C_INT), int(tstart, C_INT))
end subroutine RPN_COMM_i_win_put_r_box

subroutine RPN_COMM_i_win_get_r_box(window, larray, lshape, lstart, count, targetpe, tshape, tstart, ierr)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  type(C_PTR), intent(IN), value :: larray
  integer, dimension(3), intent(IN) :: lshape, lstart, count
  integer, intent(IN) :: targetpe
  integer, dimension(3), intent(IN) :: tshape, tstart
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_get_r_box(window, larray, int(lshape, C_INT), int(lstart, C_INT), int(count, C_INT), &
                               int(targetpe, C_INT), int(tshape, C_INT), int(tstart, C_INT))
end subroutine RPN_COMM_i_win_get_r_box

subroutine RPN_COMM_i_win_getacc_r_box(window, larray, garray, before, lshape, lstart, count, targetpe, &
                                       tshape, tstart, oper, ierr)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  type(C_PTR), intent(IN), value :: larray
  type(C_PTR), intent(IN), value :: garray
  logical, intent(IN) :: before
  integer, dimension(3), intent(IN) :: lshape, lstart, count
  integer, intent(IN) :: targetpe
  integer, dimension(3), intent(IN) :: tshape, tstart
  type(rpncomm_operator), intent(IN) :: oper
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_getacc_r_box(window, larray, garray, merge(1_C_INT, 0_C_INT, before), &
                                  int(lshape, C_INT), int(lstart, C_INT), int(count, C_INT), &
                                  int(targetpe, C_INT), int(tshape, C_INT), int(tstart, C_INT), oper)
end subroutine RPN_COMM_i_win_getacc_r_box
