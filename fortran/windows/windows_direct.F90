! windows_direct.F90 -- the routines of the windows, their boxes and requests whose body is one C
! call
!
! GENERATED from fortran/routines.toml by fortran/gen/gen_interfaces.py: do not edit.
!
! External procedures with the original RPN_COMM's names and dummy arguments (their rows say
! body = "direct"): each passes its arguments to one C function of the Rust core, which checks
! them and reports errors, and returns its status (fortran/gen/gen_interfaces.py, direct_call,
! has the conversions). The other routines of the concern are written by hand beside this file.

subroutine RPN_COMM_i_win_create(window, dtype, siz, com, array, ierr)
  use ISO_C_BINDING, only: C_PTR, C_INT
  use rpn_comm_windows_types, only: rpncomm_window, rpncomm_datatype, rpncomm_communicator
  use rpn_comm_windows_binding, only: rpncomm_win_create
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
  use ISO_C_BINDING, only: C_INT
  use rpn_comm_windows_types, only: rpncomm_window
  use rpn_comm_windows_binding, only: rpncomm_win_create_secondary
  implicit none
  type(rpncomm_window), intent(IN) :: window
  integer, intent(IN) :: slots
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_create_secondary(window, int(slots, C_INT))
end subroutine RPN_COMM_i_win_create_secondary

subroutine RPN_COMM_i_win_free(window, ierr)
  use rpn_comm_windows_types, only: rpncomm_window
  use rpn_comm_windows_binding, only: rpncomm_win_free
  implicit none
  type(rpncomm_window), intent(INOUT) :: window
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_free(window)
end subroutine RPN_COMM_i_win_free

subroutine RPN_COMM_i_win_open(window, active, ierr)
  use ISO_C_BINDING, only: C_INT
  use rpn_comm_windows_types, only: rpncomm_window
  use rpn_comm_windows_binding, only: rpncomm_win_open
  implicit none
  type(rpncomm_window), intent(IN) :: window
  logical, intent(IN) :: active
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_open(window, merge(1_C_INT, 0_C_INT, active))
end subroutine RPN_COMM_i_win_open

subroutine RPN_COMM_i_win_close(window, ierr)
  use rpn_comm_windows_types, only: rpncomm_window
  use rpn_comm_windows_binding, only: rpncomm_win_close
  implicit none
  type(rpncomm_window), intent(IN) :: window
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_close(window)
end subroutine RPN_COMM_i_win_close

subroutine RPN_COMM_i_win_oper(window, oper, ierr)
  use rpn_comm_windows_types, only: rpncomm_window, rpncomm_operator
  use rpn_comm_windows_binding, only: rpncomm_win_oper
  implicit none
  type(rpncomm_window), intent(IN) :: window
  type(rpncomm_operator), intent(IN) :: oper
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_oper(window, oper)
end subroutine RPN_COMM_i_win_oper

subroutine RPN_COMM_i_win_get_r(window, larray, target, offset, nelem, ierr)
  use ISO_C_BINDING, only: C_PTR, C_INT
  use rpn_comm_windows_types, only: rpncomm_window
  use rpn_comm_windows_binding, only: rpncomm_win_get_r
  implicit none
  type(rpncomm_window), intent(IN) :: window
  type(C_PTR), intent(IN), value :: larray
  integer, intent(IN) :: target
  integer, intent(IN) :: offset
  integer, intent(IN) :: nelem
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_get_r(window, larray, int(target, C_INT), int(offset, C_INT), &
                           int(nelem, C_INT))
end subroutine RPN_COMM_i_win_get_r

subroutine RPN_COMM_i_win_get_l(window, larray, offset, nelem, ierr)
  use ISO_C_BINDING, only: C_PTR, C_INT
  use rpn_comm_windows_types, only: rpncomm_window
  use rpn_comm_windows_binding, only: rpncomm_win_get_l
  implicit none
  type(rpncomm_window), intent(IN) :: window
  type(C_PTR), intent(IN), value :: larray
  integer, intent(IN) :: offset
  integer, intent(IN) :: nelem
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_get_l(window, larray, int(offset, C_INT), int(nelem, C_INT))
end subroutine RPN_COMM_i_win_get_l

subroutine RPN_COMM_i_win_put_r(window, larray, targetpe, offset, nelem, ierr)
  use ISO_C_BINDING, only: C_PTR, C_INT
  use rpn_comm_windows_types, only: rpncomm_window
  use rpn_comm_windows_binding, only: rpncomm_win_put_r
  implicit none
  type(rpncomm_window), intent(IN) :: window
  type(C_PTR), intent(IN), value :: larray
  integer, intent(IN) :: targetpe
  integer, intent(IN) :: offset
  integer, intent(IN) :: nelem
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_put_r(window, larray, int(targetpe, C_INT), int(offset, C_INT), &
                           int(nelem, C_INT))
end subroutine RPN_COMM_i_win_put_r

subroutine RPN_COMM_i_win_put_l(window, larray, offset, nelem, ierr)
  use ISO_C_BINDING, only: C_PTR, C_INT
  use rpn_comm_windows_types, only: rpncomm_window
  use rpn_comm_windows_binding, only: rpncomm_win_put_l
  implicit none
  type(rpncomm_window), intent(IN) :: window
  type(C_PTR), intent(IN), value :: larray
  integer, intent(IN) :: offset
  integer, intent(IN) :: nelem
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_put_l(window, larray, int(offset, C_INT), int(nelem, C_INT))
end subroutine RPN_COMM_i_win_put_l

subroutine RPN_COMM_i_win_getacc_r(window, larray, garray, before, targetpe, offset, nelem, oper, &
                                   ierr)
  use ISO_C_BINDING, only: C_PTR, C_INT
  use rpn_comm_windows_types, only: rpncomm_window, rpncomm_operator
  use rpn_comm_windows_binding, only: rpncomm_win_getacc_r
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

subroutine RPN_COMM_i_win_acc_r(window, larray, targetpe, offset, nelem, oper, ierr)
  use ISO_C_BINDING, only: C_PTR, C_INT
  use rpn_comm_windows_types, only: rpncomm_window, rpncomm_operator
  use rpn_comm_windows_binding, only: rpncomm_win_acc_r
  implicit none
  type(rpncomm_window), intent(IN) :: window
  type(C_PTR), intent(IN), value :: larray
  integer, intent(IN) :: targetpe
  integer, intent(IN) :: offset
  integer, intent(IN) :: nelem
  type(rpncomm_operator), intent(IN) :: oper
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_acc_r(window, larray, int(targetpe, C_INT), int(offset, C_INT), &
                           int(nelem, C_INT), oper)
end subroutine RPN_COMM_i_win_acc_r

! compare-and-swap on one element of an integer window: it becomes newval if it equals compare,
! oldval receives it from before (compare, newval, oldval: C_LOC of one element each)
subroutine RPN_COMM_i_win_cas_r(window, compare, newval, oldval, targetpe, offset, ierr)
  use ISO_C_BINDING, only: C_PTR, C_INT
  use rpn_comm_windows_types, only: rpncomm_window
  use rpn_comm_windows_binding, only: rpncomm_win_cas_r
  implicit none
  type(rpncomm_window), intent(IN) :: window
  type(C_PTR), intent(IN), value :: compare
  type(C_PTR), intent(IN), value :: newval
  type(C_PTR), intent(IN), value :: oldval
  integer, intent(IN) :: targetpe
  integer, intent(IN) :: offset
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_cas_r(window, compare, newval, oldval, int(targetpe, C_INT), &
                           int(offset, C_INT))
end subroutine RPN_COMM_i_win_cas_r

! fetch-and-op on one element: it becomes element OP operand, oldval receives it from before
subroutine RPN_COMM_i_win_fetchop_r(window, operand, oldval, targetpe, offset, oper, ierr)
  use ISO_C_BINDING, only: C_PTR, C_INT
  use rpn_comm_windows_types, only: rpncomm_window, rpncomm_operator
  use rpn_comm_windows_binding, only: rpncomm_win_fetchop_r
  implicit none
  type(rpncomm_window), intent(IN) :: window
  type(C_PTR), intent(IN), value :: operand
  type(C_PTR), intent(IN), value :: oldval
  integer, intent(IN) :: targetpe
  integer, intent(IN) :: offset
  type(rpncomm_operator), intent(IN) :: oper
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_fetchop_r(window, operand, oldval, int(targetpe, C_INT), int(offset, C_INT), &
                               oper)
end subroutine RPN_COMM_i_win_fetchop_r

subroutine RPN_COMM_i_win_post(window, pe, offseti, nelemi, offseto, nelemo, nreq, ierr)
  use ISO_C_BINDING, only: C_INT
  use rpn_comm_windows_types, only: rpncomm_window
  use rpn_comm_windows_binding, only: rpncomm_win_post
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

! Starts the put and returns its request at once; the operation completes at RPN_COMM_i_win_wait or
! a successful RPN_COMM_i_win_test_req of the request (which set it to NULL_rpncomm_request), at
! _flush (one target) or _flush_all in a passive epoch, or at close. The buffers must stay untouched
! until then.
subroutine RPN_COMM_i_win_rput_r(window, larray, targetpe, offset, nelem, req, ierr)
  use ISO_C_BINDING, only: C_PTR, C_INT
  use rpn_comm_windows_types, only: rpncomm_window, rpncomm_request
  use rpn_comm_windows_binding, only: rpncomm_win_rput_r
  implicit none
  type(rpncomm_window), intent(IN) :: window
  type(C_PTR), intent(IN), value :: larray
  integer, intent(IN) :: targetpe
  integer, intent(IN) :: offset
  integer, intent(IN) :: nelem
  type(rpncomm_request), intent(OUT) :: req
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_rput_r(window, larray, int(targetpe, C_INT), int(offset, C_INT), &
                            int(nelem, C_INT), req)
end subroutine RPN_COMM_i_win_rput_r

! As RPN_COMM_i_win_rput_r, a get: starts it and returns its request at once.
subroutine RPN_COMM_i_win_rget_r(window, larray, targetpe, offset, nelem, req, ierr)
  use ISO_C_BINDING, only: C_PTR, C_INT
  use rpn_comm_windows_types, only: rpncomm_window, rpncomm_request
  use rpn_comm_windows_binding, only: rpncomm_win_rget_r
  implicit none
  type(rpncomm_window), intent(IN) :: window
  type(C_PTR), intent(IN), value :: larray
  integer, intent(IN) :: targetpe
  integer, intent(IN) :: offset
  integer, intent(IN) :: nelem
  type(rpncomm_request), intent(OUT) :: req
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_rget_r(window, larray, int(targetpe, C_INT), int(offset, C_INT), &
                            int(nelem, C_INT), req)
end subroutine RPN_COMM_i_win_rget_r

! As RPN_COMM_i_win_rput_r, a get-accumulate: starts it and returns its request at once.
subroutine RPN_COMM_i_win_rgetacc_r(window, larray, garray, before, targetpe, offset, nelem, oper, &
                                    req, ierr)
  use ISO_C_BINDING, only: C_PTR, C_INT
  use rpn_comm_windows_types, only: rpncomm_window, rpncomm_operator, rpncomm_request
  use rpn_comm_windows_binding, only: rpncomm_win_rgetacc_r
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
                               int(targetpe, C_INT), int(offset, C_INT), int(nelem, C_INT), oper, &
                               req)
end subroutine RPN_COMM_i_win_rgetacc_r

subroutine RPN_COMM_i_win_wait(req, ierr)
  use rpn_comm_windows_types, only: rpncomm_request
  use rpn_comm_windows_binding, only: rpncomm_win_wait
  implicit none
  type(rpncomm_request), intent(INOUT) :: req
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_wait(req)
end subroutine RPN_COMM_i_win_wait

subroutine RPN_COMM_i_win_flush(window, targetpe, ierr)
  use ISO_C_BINDING, only: C_INT
  use rpn_comm_windows_types, only: rpncomm_window
  use rpn_comm_windows_binding, only: rpncomm_win_flush
  implicit none
  type(rpncomm_window), intent(IN) :: window
  integer, intent(IN) :: targetpe
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_flush(window, int(targetpe, C_INT))
end subroutine RPN_COMM_i_win_flush

subroutine RPN_COMM_i_win_flush_all(window, ierr)
  use rpn_comm_windows_types, only: rpncomm_window
  use rpn_comm_windows_binding, only: rpncomm_win_flush_all
  implicit none
  type(rpncomm_window), intent(IN) :: window
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_flush_all(window)
end subroutine RPN_COMM_i_win_flush_all

subroutine RPN_COMM_ezwin_create(sz, comm, mywin, ierr)
  use ISO_C_BINDING, only: C_INT
  use rpn_comm_windows_types, only: rpncomm_window
  use rpn_comm_windows_binding, only: rpncomm_ezwin_create
  implicit none
  integer, intent(IN) :: sz, comm
  type(rpncomm_window), intent(OUT) :: mywin
  integer, intent(OUT) :: ierr
  ierr = rpncomm_ezwin_create(int(sz, C_INT), int(comm, C_INT), mywin)
end subroutine RPN_COMM_ezwin_create

subroutine RPN_COMM_ezwin_fetch_add(mywin, add, fetch, rank, offset, ierr)
  use ISO_C_BINDING, only: C_INT
  use rpn_comm_windows_types, only: rpncomm_window
  use rpn_comm_windows_binding, only: rpncomm_ezwin_fetch_add
  implicit none
  type(rpncomm_window), intent(IN) :: mywin
  integer, intent(IN) :: add
  integer, intent(OUT) :: fetch
  integer, intent(IN) :: rank, offset
  integer, intent(OUT) :: ierr
  ierr = rpncomm_ezwin_fetch_add(mywin, int(add, C_INT), fetch, int(rank, C_INT), &
                                 int(offset, C_INT))
end subroutine RPN_COMM_ezwin_fetch_add

subroutine RPN_COMM_ezwin_get(mywin, pz, nw, rank, offset, ierr)
  use ISO_C_BINDING, only: C_PTR, C_INT
  use rpn_comm_windows_types, only: rpncomm_window
  use rpn_comm_windows_binding, only: rpncomm_ezwin_get
  implicit none
  type(rpncomm_window), intent(IN) :: mywin
  type(C_PTR), intent(IN), value :: pz
  integer, intent(IN) :: nw, rank, offset
  integer, intent(OUT) :: ierr
  ierr = rpncomm_ezwin_get(mywin, pz, int(nw, C_INT), int(rank, C_INT), int(offset, C_INT))
end subroutine RPN_COMM_ezwin_get

subroutine RPN_COMM_ezwin_put(mywin, pz, nw, rank, offset, ierr)
  use ISO_C_BINDING, only: C_PTR, C_INT
  use rpn_comm_windows_types, only: rpncomm_window
  use rpn_comm_windows_binding, only: rpncomm_ezwin_put
  implicit none
  type(rpncomm_window), intent(IN) :: mywin
  type(C_PTR), intent(IN), value :: pz
  integer, intent(IN) :: nw, rank, offset
  integer, intent(OUT) :: ierr
  ierr = rpncomm_ezwin_put(mywin, pz, int(nw, C_INT), int(rank, C_INT), int(offset, C_INT))
end subroutine RPN_COMM_ezwin_put
