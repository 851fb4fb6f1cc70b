! rpn_comm_externals.F90 -- the RPN_COMM windows routines, as external procedures
!
! Each routine keeps the name and dummy arguments of the original RPN_COMM
! package and only converts its arguments for the C ABI of the Rust core
! (logical <-> int, character(len=*) -> pointer + length, assumed-shape ->
! contiguous copy + count). All checking and error reporting happen in the core.
! These are deliberately NOT module procedures: the link names are the plain
! gfortran ones (rpn_comm_i_win_create_, ...).

! ====================================================================== environment

subroutine RPN_COMM_init(Userinit, Pelocal, Petotal, Pex, Pey)
  use rpn_comm_windows_types
  use rpn_comm_c_binding
  use rpn_comm_output_flush, only: rpn_comm_flush_units
  implicit none
  external :: Userinit
  integer, intent(OUT)   :: Pelocal, Petotal
  integer, intent(INOUT) :: Pex, Pey
  integer(C_INT) :: rank, npes, px, py

  if (rpncomm_init(rank, npes) /= RPN_COMM_OK) error stop 1
  Pelocal = rank
  Petotal = npes
  ! A second call is refused (the library says so) and keeps the grid: Userinit is not called
  ! again, Pex and Pey return the grid in use.
  px = 0
  py = 0
  if (rpncomm_init_first(px, py) /= RPN_COMM_OK) then
    Pex = px
    Pey = py
    return
  endif
  ! buffered output survives when the job is ended because another PE failed
  ! (C_FUNPTR and C_PTR have the same size on every platform the library builds for)
  if (rpncomm_flush_at_stop(transfer(c_funloc(rpn_comm_flush_units), C_NULL_PTR)) /= RPN_COMM_OK) error stop 1
  px = Pex
  py = Pey
  ! As the original: PE 0 chooses the grid, presetting it to npes x 1 for its Userinit when
  ! Pex or Pey is 0; every PE gets PE 0's choice (a PE's own non-zero values must match it).
  if (rank == 0 .and. (Pex == 0 .or. Pey == 0)) then
    px = npes
    py = 1
    call Userinit(px, py)
  endif
  ! on failure the core has already printed the reason (on every PE)
  if (rpncomm_set_grid(px, py) /= RPN_COMM_OK) error stop 1
  Pex = px
  Pey = py
end subroutine RPN_COMM_init

function RPN_COMM_bloc(nblocx, nblocy) result(status)
  use rpn_comm_c_binding
  implicit none
  integer, intent(IN) :: nblocx, nblocy
  integer :: status
  status = rpncomm_bloc(int(nblocx, C_INT), int(nblocy, C_INT))
end function RPN_COMM_bloc

subroutine RPN_COMM_finalize(ierr)
  use rpn_comm_c_binding
  implicit none
  integer, intent(OUT) :: ierr
  ierr = rpncomm_finalize()
end subroutine RPN_COMM_finalize

function RPN_COMM_mype(Me, Me_x, Me_y) result(status)
  use rpn_comm_c_binding
  implicit none
  integer, intent(OUT) :: Me, Me_x, Me_y
  integer :: status
  integer(C_INT) :: m, mx, my
  status = rpncomm_mype(m, mx, my)
  Me = m
  Me_x = mx
  Me_y = my
end function RPN_COMM_mype

subroutine RPN_COMM_size(com, size, ierr)
  use rpn_comm_c_binding
  implicit none
  character(len=*), intent(IN) :: com
  integer, intent(INOUT) :: size    ! unchanged on a PE outside the communicator, as in the original
  integer, intent(OUT) :: ierr
  integer(C_INT) :: n
  n = size
  ierr = rpncomm_comm_size(com, len(com, kind=C_SIZE_T), n)
  size = n
end subroutine RPN_COMM_size

subroutine RPN_COMM_i_comm(ctyp_c, ctyp, mcom)
  use rpn_comm_windows_types
  use rpn_comm_c_binding
  implicit none
  character(len=*), intent(IN) :: ctyp_c
  type(rpncomm_communicator), intent(OUT) :: ctyp
  integer, optional, intent(IN) :: mcom
  integer(C_INT) :: status
  ! on a refused ctyp_c the core itself stores the (invalid) handle returned
  if (present(mcom)) then
    status = rpncomm_comm_mpi(int(mcom, C_INT), ctyp)
  else
    status = rpncomm_comm(ctyp_c, len(ctyp_c, kind=C_SIZE_T), ctyp)
  endif
end subroutine RPN_COMM_i_comm

subroutine RPN_COMM_i_datyp(dtyp_c, dtyp)
  use rpn_comm_windows_types
  use rpn_comm_c_binding
  implicit none
  character(len=*), intent(IN) :: dtyp_c
  type(rpncomm_datatype), intent(OUT) :: dtyp
  integer(C_INT) :: status
  status = rpncomm_datyp(dtyp_c, len(dtyp_c, kind=C_SIZE_T), dtyp)
end subroutine RPN_COMM_i_datyp

subroutine RPN_COMM_i_oper(op, r_oper)
  use rpn_comm_windows_types
  use rpn_comm_c_binding
  implicit none
  character(len=*), intent(IN) :: op
  type(rpncomm_operator), intent(OUT) :: r_oper
  integer(C_INT) :: status
  status = rpncomm_oper(op, len(op, kind=C_SIZE_T), r_oper)
end subroutine RPN_COMM_i_oper

function RPN_COMM_i_valid_oper(r_oper) result(is_valid)
  use rpn_comm_windows_types
  use rpn_comm_c_binding
  implicit none
  type(rpncomm_operator), intent(IN) :: r_oper
  logical :: is_valid
  is_valid = rpncomm_valid_oper(r_oper) /= 0
end function RPN_COMM_i_valid_oper

subroutine RPN_COMM_barrier(com, ierr)
  use rpn_comm_c_binding
  implicit none
  character(len=*), intent(IN) :: com
  integer, intent(OUT) :: ierr
  ierr = rpncomm_barrier(com, len(com, kind=C_SIZE_T))
end subroutine RPN_COMM_barrier

subroutine RPN_COMM_allreduce(sendbuf, recbuf, count, datatype, op, com, ierr)
  use rpn_comm_c_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf, recbuf
  type(*), dimension(*), intent(IN)    :: sendbuf
  type(*), dimension(*), intent(INOUT) :: recbuf
  integer, intent(IN) :: count
  character(len=*), intent(IN) :: datatype, op, com
  integer, intent(OUT) :: ierr
  ierr = rpncomm_allreduce(sendbuf, recbuf, int(count, C_INT),       &
                           datatype, len(datatype, kind=C_SIZE_T),   &
                           op, len(op, kind=C_SIZE_T),               &
                           com, len(com, kind=C_SIZE_T))
end subroutine RPN_COMM_allreduce

subroutine RPN_COMM_bcast(buffer, count, datatype, root, com, ierr)
  use rpn_comm_c_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: buffer
  type(*), dimension(*), intent(INOUT) :: buffer
  integer, intent(IN) :: count, root
  character(len=*), intent(IN) :: datatype, com
  integer, intent(OUT) :: ierr
  ierr = rpncomm_bcast(buffer, int(count, C_INT), datatype, len(datatype, kind=C_SIZE_T), &
                       int(root, C_INT), com, len(com, kind=C_SIZE_T))
end subroutine RPN_COMM_bcast

subroutine RPN_COMM_allgather(sendbuf, sendcount, sendtype, recbuf, reccount, rectype, com, ierr)
  use rpn_comm_c_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf, recbuf
  type(*), dimension(*), intent(IN)    :: sendbuf
  type(*), dimension(*), intent(INOUT) :: recbuf
  integer, intent(IN) :: sendcount, reccount
  character(len=*), intent(IN) :: sendtype, rectype, com
  integer, intent(OUT) :: ierr
  ierr = rpncomm_allgather(sendbuf, int(sendcount, C_INT), sendtype, len(sendtype, kind=C_SIZE_T), &
                           recbuf, int(reccount, C_INT), rectype, len(rectype, kind=C_SIZE_T),    &
                           com, len(com, kind=C_SIZE_T))
end subroutine RPN_COMM_allgather

function RPN_COMM_wtime() result(t)
  use rpn_comm_c_binding
  implicit none
  real(C_DOUBLE) :: t
  t = rpncomm_wtime()
end function RPN_COMM_wtime

! ============================================================ window creation / freeing

subroutine RPN_COMM_i_win_create(window, dtype, siz, com, array, ierr)
  use rpn_comm_windows_types
  use rpn_comm_c_binding
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
  use rpn_comm_c_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  integer, intent(IN) :: slots
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_create_secondary(window, int(slots, C_INT))
end subroutine RPN_COMM_i_win_create_secondary

subroutine RPN_COMM_i_win_free(window, ierr)
  use rpn_comm_windows_types
  use rpn_comm_c_binding
  implicit none
  type(rpncomm_window), intent(INOUT) :: window
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_free(window)
end subroutine RPN_COMM_i_win_free

! ======================================================================= window queries

function RPN_COMM_i_valid_win(window, ierr) result(is_valid)
  use rpn_comm_windows_types
  use rpn_comm_c_binding
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
  use rpn_comm_c_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  integer, intent(OUT) :: ierr
  logical :: is_open
  integer(C_INT) :: flag
  flag = 0
  ierr = rpncomm_win_check(window, flag)
  is_open = flag /= 0
end function RPN_COMM_i_win_check

! The original's form (window, ierr), the primary window's memory; RPN_COMM_i_win_get_ptr(window,
! np, ierr) resolves to RPN_COMM_i_win_get_ptr_np through the generic of the same name.
! generic: RPN_COMM_i_win_get_ptr
function RPN_COMM_i_win_get_ptr(window, ierr) result(ptr)
  use rpn_comm_windows_types
  use rpn_comm_c_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  integer, intent(OUT) :: ierr
  type(C_PTR) :: ptr
  ptr = C_NULL_PTR
  ierr = rpncomm_win_get_ptr(window, 1_C_INT, ptr)
end function RPN_COMM_i_win_get_ptr

! generic: RPN_COMM_i_win_get_ptr
function RPN_COMM_i_win_get_ptr_np(window, np, ierr) result(ptr)
  use rpn_comm_windows_types
  use rpn_comm_c_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  integer, intent(IN) :: np
  integer, intent(OUT) :: ierr
  type(C_PTR) :: ptr
  ptr = C_NULL_PTR
  ierr = rpncomm_win_get_ptr(window, int(np, C_INT), ptr)
end function RPN_COMM_i_win_get_ptr_np

function RPN_COMM_i_win_get_size(window, ierr) result(siz)
  use rpn_comm_windows_types
  use rpn_comm_c_binding
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
  use rpn_comm_c_binding
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
  use rpn_comm_c_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  logical, intent(IN) :: active
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_open(window, merge(1_C_INT, 0_C_INT, active))
end subroutine RPN_COMM_i_win_open

subroutine RPN_COMM_i_win_close(window, ierr)
  use rpn_comm_windows_types
  use rpn_comm_c_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_close(window)
end subroutine RPN_COMM_i_win_close

subroutine RPN_COMM_i_win_group(window, pes_to, pes_from, ierr)
  use rpn_comm_windows_types
  use rpn_comm_c_binding
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
  use rpn_comm_c_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  type(rpncomm_operator), intent(IN) :: oper
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_oper(window, oper)
end subroutine RPN_COMM_i_win_oper

! ======================================================================== data movement

subroutine RPN_COMM_i_win_get_r(window, larray, target, offset, nelem, ierr)
  use rpn_comm_windows_types
  use rpn_comm_c_binding
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
  use rpn_comm_c_binding
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
  use rpn_comm_c_binding
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
  use rpn_comm_c_binding
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
  use rpn_comm_c_binding
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
  use rpn_comm_c_binding
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
  use rpn_comm_c_binding
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
  use rpn_comm_c_binding
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

! ------------------------------------------------ request-based operations (issue 20)
! rput_r, rget_r, rgetacc_r start an operation and return its request at once; the operation
! completes at RPN_COMM_i_win_wait or a successful _test of the request (which set it to
! NULL_rpncomm_request), at _flush (one target) or _flush_all in a passive epoch, or at close.
! The buffers must stay untouched until then.

subroutine RPN_COMM_i_win_rput_r(window, larray, targetpe, offset, nelem, req, ierr)
  use rpn_comm_windows_types
  use rpn_comm_c_binding
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
  use rpn_comm_c_binding
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
  use rpn_comm_c_binding
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
  use rpn_comm_c_binding
  implicit none
  type(rpncomm_request), intent(INOUT) :: req
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_wait(req)
end subroutine RPN_COMM_i_win_wait

subroutine RPN_COMM_i_win_test_req(req, flag, ierr)
  use rpn_comm_windows_types
  use rpn_comm_c_binding
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
  use rpn_comm_c_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  integer, intent(IN) :: targetpe
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_flush(window, int(targetpe, C_INT))
end subroutine RPN_COMM_i_win_flush

subroutine RPN_COMM_i_win_flush_all(window, ierr)
  use rpn_comm_windows_types
  use rpn_comm_c_binding
  implicit none
  type(rpncomm_window), intent(IN) :: window
  integer, intent(OUT) :: ierr
  ierr = rpncomm_win_flush_all(window)
end subroutine RPN_COMM_i_win_flush_all

! ====================================================================== halo exchange

! The original's halo exchange of g(minx:maxx, miny:maxy, nk) (4-byte elements) with the
! neighbours on the PE grid. It has no status argument: a refused call stops the program after
! the library's message (every PE refuses together).
subroutine RPN_COMM_xch_halo(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, &
                             periodx, periody, gni, npol_row)
  use rpn_comm_windows_types
  use rpn_comm_c_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: g
  type(*), dimension(*), intent(INOUT) :: g
  integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
  logical, intent(IN) :: periodx, periody
  integer, intent(IN) :: gni, npol_row
  if (rpncomm_xch_halo(g, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                       int(ni, C_INT), int(nj, C_INT), int(nk, C_INT), int(halox, C_INT), int(haloy, C_INT), &
                       merge(1_C_INT, 0_C_INT, periodx), merge(1_C_INT, 0_C_INT, periody), &
                       int(gni, C_INT), int(npol_row, C_INT), 1_C_INT) /= RPN_COMM_OK) error stop 1
end subroutine RPN_COMM_xch_halo

! As RPN_COMM_xch_halo, with elements of n 4-byte words (real*8: n = 2).
subroutine RPN_COMM_xch_halon(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, &
                              periodx, periody, gni, npol_row, n)
  use rpn_comm_windows_types
  use rpn_comm_c_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: g
  type(*), dimension(*), intent(INOUT) :: g
  integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
  logical, intent(IN) :: periodx, periody
  integer, intent(IN) :: gni, npol_row, n
  if (rpncomm_xch_halo(g, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                       int(ni, C_INT), int(nj, C_INT), int(nk, C_INT), int(halox, C_INT), int(haloy, C_INT), &
                       merge(1_C_INT, 0_C_INT, periodx), merge(1_C_INT, 0_C_INT, periody), &
                       int(gni, C_INT), int(npol_row, C_INT), int(n, C_INT)) /= RPN_COMM_OK) error stop 1
end subroutine RPN_COMM_xch_halon

! The original's decomposition of gmin..gmax over npe PEs (strict mode): PE my_id gets
! lmini..lmaxi; count and offset (from gmin) of every PE. Returns 0, or -1 when it cannot be cut.
function RPN_COMM_limit(my_id, npe, gmin, gmax, lmini, lmaxi, count, offset) result(status)
  use rpn_comm_c_binding
  implicit none
  integer, intent(IN) :: my_id, npe, gmin, gmax
  integer, intent(OUT) :: lmini, lmaxi
  integer, dimension(npe), intent(OUT) :: count, offset
  integer :: status
  integer(C_INT) :: lo, hi
  integer(C_INT), dimension(max(npe, 1)) :: c, o
  lo = -1
  hi = -1
  c = 0
  o = 0
  status = rpncomm_limit(int(my_id, C_INT), int(npe, C_INT), int(gmin, C_INT), int(gmax, C_INT), lo, hi, c, o)
  lmini = lo
  lmaxi = hi
  count = c(1:npe)
  offset = o(1:npe)
end function RPN_COMM_limit
! Sub-array (3-D box) transfers. lshape: the local array's extents; lstart: the box's 0-based
! start in it; count: the box's extents; tshape, tstart: the target's window seen as an array
! of that shape, and the box's 0-based start there.
subroutine RPN_COMM_i_win_put_r_box(window, larray, lshape, lstart, count, targetpe, tshape, tstart, ierr)
  use rpn_comm_windows_types
  use rpn_comm_c_binding
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
  use rpn_comm_c_binding
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
  use rpn_comm_c_binding
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
