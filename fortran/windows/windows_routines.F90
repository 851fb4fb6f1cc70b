! windows_routines.F90 -- windows: creation, queries, exposure, data movement, requests, boxes
!
! External procedures with the original RPN_COMM's names and dummy arguments (their link names
! are the plain Fortran ones, so code written for the original links unchanged); each only
! converts its arguments for the C ABI of the Rust core (logical <-> int, character(len=*) ->
! pointer + length, assumed-shape -> contiguous copy + count), which checks them and reports errors.
! Their signatures are rows of fortran/routines.toml, which generates their interfaces;
! fortran/gen/check_routines.py (make check) checks each routine here against its row.

! ============================================================ window creation / freeing

subroutine RPN_COMM_i_win_create(window, dtype, siz, com, array, ierr)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(OUT) :: window
  type(rpncomm_datatype), intent(IN) :: dtype
  integer, intent(IN) :: siz
  type(rpncomm_communicator), intent(IN) :: com
  type(C_PTR), intent(IN), value :: array
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_create(window, dtype, int(siz, C_INT), com, array)
end subroutine RPN_COMM_i_win_create

subroutine RPN_COMM_i_win_create_secondary(window, slots, ierr)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  integer, intent(IN) :: slots
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_create_secondary(window, int(slots, C_INT))
end subroutine RPN_COMM_i_win_create_secondary

subroutine RPN_COMM_i_win_free(window, ierr)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(INOUT) :: window
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_free(window)
end subroutine RPN_COMM_i_win_free

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

subroutine RPN_COMM_i_win_open(window, active, ierr)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  logical, intent(IN) :: active
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_open(window, merge(1_C_INT, 0_C_INT, active))
end subroutine RPN_COMM_i_win_open

subroutine RPN_COMM_i_win_close(window, ierr)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_close(window)
end subroutine RPN_COMM_i_win_close

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

subroutine RPN_COMM_i_win_oper(window, oper, ierr)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  type(rpncomm_operator), intent(IN) :: oper
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_oper(window, oper)
end subroutine RPN_COMM_i_win_oper

! ======================================================================== data movement

subroutine RPN_COMM_i_win_get_r(window, larray, target, offset, nelem, ierr)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  type(C_PTR), intent(IN), value :: larray
  integer, intent(IN) :: target
  integer, intent(IN) :: offset
  integer, intent(IN) :: nelem
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_get_r(window, larray, int(target, C_INT), int(offset, C_INT), int(nelem, C_INT))
end subroutine RPN_COMM_i_win_get_r

subroutine RPN_COMM_i_win_get_l(window, larray, offset, nelem, ierr)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  type(C_PTR), intent(IN), value :: larray
  integer, intent(IN) :: offset
  integer, intent(IN) :: nelem
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_get_l(window, larray, int(offset, C_INT), int(nelem, C_INT))
end subroutine RPN_COMM_i_win_get_l

subroutine RPN_COMM_i_win_put_r(window, larray, targetpe, offset, nelem, ierr)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  type(C_PTR), intent(IN), value :: larray
  integer, intent(IN) :: targetpe
  integer, intent(IN) :: offset
  integer, intent(IN) :: nelem
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_put_r(window, larray, int(targetpe, C_INT), int(offset, C_INT), int(nelem, C_INT))
end subroutine RPN_COMM_i_win_put_r

subroutine RPN_COMM_i_win_put_l(window, larray, offset, nelem, ierr)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  type(C_PTR), intent(IN), value :: larray
  integer, intent(IN) :: offset
  integer, intent(IN) :: nelem
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_put_l(window, larray, int(offset, C_INT), int(nelem, C_INT))
end subroutine RPN_COMM_i_win_put_l

subroutine RPN_COMM_i_win_getacc_r(window, larray, garray, before, targetpe, offset, nelem, oper, ierr)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  type(C_PTR), intent(IN), value :: larray
  type(C_PTR), intent(IN), value :: garray
  logical, intent(IN) :: before
  integer, intent(IN) :: targetpe
  integer, intent(IN) :: offset
  integer, intent(IN) :: nelem
  type(rpncomm_operator), intent(IN) :: oper
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_getacc_r(window, larray, garray, merge(1_C_INT, 0_C_INT, before), &
                              int(targetpe, C_INT), int(offset, C_INT), int(nelem, C_INT), oper)
end subroutine RPN_COMM_i_win_getacc_r

! compare-and-swap on one element of an integer window: it becomes newval if it equals compare,
! oldval receives it from before (compare, newval, oldval: C_LOC of one element each)
subroutine RPN_COMM_i_win_cas_r(window, compare, newval, oldval, targetpe, offset, ierr)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  type(C_PTR), intent(IN), value :: compare
  type(C_PTR), intent(IN), value :: newval
  type(C_PTR), intent(IN), value :: oldval
  integer, intent(IN) :: targetpe
  integer, intent(IN) :: offset
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_cas_r(window, compare, newval, oldval, int(targetpe, C_INT), int(offset, C_INT))
end subroutine RPN_COMM_i_win_cas_r

! fetch-and-op on one element: it becomes element OP operand, oldval receives it from before
subroutine RPN_COMM_i_win_fetchop_r(window, operand, oldval, targetpe, offset, oper, ierr)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  type(C_PTR), intent(IN), value :: operand
  type(C_PTR), intent(IN), value :: oldval
  integer, intent(IN) :: targetpe
  integer, intent(IN) :: offset
  type(rpncomm_operator), intent(IN) :: oper
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_fetchop_r(window, operand, oldval, int(targetpe, C_INT), int(offset, C_INT), oper)
end subroutine RPN_COMM_i_win_fetchop_r

subroutine RPN_COMM_i_win_post(window, pe, offseti, nelemi, offseto, nelemo, nreq, ierr)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  integer, intent(IN) :: nreq
  integer, dimension(nreq), intent(IN) :: pe
  integer, dimension(nreq), intent(IN) :: offseti
  integer, dimension(nreq), intent(IN) :: nelemi
  integer, dimension(nreq), intent(IN) :: offseto
  integer, dimension(nreq), intent(IN) :: nelemo
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_post(window, pe, offseti, nelemi, offseto, nelemo, int(nreq, C_INT))
end subroutine RPN_COMM_i_win_post

! ================================================================ request-based operations

! rput_r, rget_r, rgetacc_r start an operation and return its request at once; the operation
! completes at RPN_COMM_i_win_wait or a successful _test of the request (which set it to
! NULL_rpncomm_request), at _flush (one target) or _flush_all in a passive epoch, or at close.
! The buffers must stay untouched until then.

subroutine RPN_COMM_i_win_rput_r(window, larray, targetpe, offset, nelem, req, ierr)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  type(C_PTR), intent(IN), value :: larray
  integer, intent(IN) :: targetpe
  integer, intent(IN) :: offset
  integer, intent(IN) :: nelem
  type(rpncomm_request), intent(OUT) :: req
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_rput_r(window, larray, int(targetpe, C_INT), int(offset, C_INT), int(nelem, C_INT), req)
end subroutine RPN_COMM_i_win_rput_r

subroutine RPN_COMM_i_win_rget_r(window, larray, targetpe, offset, nelem, req, ierr)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  type(C_PTR), intent(IN), value :: larray
  integer, intent(IN) :: targetpe
  integer, intent(IN) :: offset
  integer, intent(IN) :: nelem
  type(rpncomm_request), intent(OUT) :: req
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_rget_r(window, larray, int(targetpe, C_INT), int(offset, C_INT), int(nelem, C_INT), req)
end subroutine RPN_COMM_i_win_rget_r

subroutine RPN_COMM_i_win_rgetacc_r(window, larray, garray, before, targetpe, offset, nelem, oper, req, ierr)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  type(C_PTR), intent(IN), value :: larray
  type(C_PTR), intent(IN), value :: garray
  logical, intent(IN) :: before
  integer, intent(IN) :: targetpe
  integer, intent(IN) :: offset
  integer, intent(IN) :: nelem
  type(rpncomm_operator), intent(IN) :: oper
  type(rpncomm_request), intent(OUT) :: req
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_rgetacc_r(window, larray, garray, merge(1_C_INT, 0_C_INT, before), &
                               int(targetpe, C_INT), int(offset, C_INT), int(nelem, C_INT), oper, req)
end subroutine RPN_COMM_i_win_rgetacc_r

subroutine RPN_COMM_i_win_wait(req, ierr)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_request), intent(INOUT) :: req
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_wait(req)
end subroutine RPN_COMM_i_win_wait

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

subroutine RPN_COMM_i_win_flush(window, targetpe, ierr)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  integer, intent(IN) :: targetpe
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_flush(window, int(targetpe, C_INT))
end subroutine RPN_COMM_i_win_flush

subroutine RPN_COMM_i_win_flush_all(window, ierr)
  use rpn_comm_windows_types
  use rpn_comm_windows_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_flush_all(window)
end subroutine RPN_COMM_i_win_flush_all

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
