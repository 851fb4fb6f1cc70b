! collectives_routines.F90 -- operators, barrier, allreduce, bcast(c), allgather, reduce, gather(v),
! scatterv, alltoall
!
! External procedures with the original RPN_COMM's names and dummy arguments (their link names
! are the plain Fortran ones, so code written for the original links unchanged); each only
! converts its arguments for the C ABI of the Rust core (logical <-> int, character(len=*) ->
! pointer + length, assumed-shape -> contiguous copy + count), which checks them and reports errors.
! Their signatures are rows of fortran/routines.toml, which generates their interfaces;
! fortran/gen/check_routines.py (make check) checks each routine here against its row.

! ========================================================================== collectives

subroutine RPN_COMM_i_oper(op, r_oper)
  use rpn_comm_windows_types
  use rpn_comm_collectives_binding
  implicit none
  character(len=*), intent(IN) :: op
  type(rpncomm_operator), intent(OUT) :: r_oper
  integer(C_INT) :: status
  status = rpncomm_oper(op, len(op, kind=C_SIZE_T), r_oper)
end subroutine RPN_COMM_i_oper

function RPN_COMM_i_valid_oper(r_oper) result(is_valid)
  use rpn_comm_windows_types
  use rpn_comm_collectives_binding
  implicit none
  type(rpncomm_operator), intent(IN) :: r_oper
  logical :: is_valid
  is_valid = rpncomm_valid_oper(r_oper) /= 0
end function RPN_COMM_i_valid_oper

subroutine RPN_COMM_bcastc(buffer, count, datatype, root, com, ierr)
  use rpn_comm_collectives_binding
  implicit none
  character(len=*), intent(INOUT) :: buffer
  integer, intent(IN) :: count, root
  character(len=*), intent(IN) :: datatype, com
  integer, intent(OUT) :: ierr
  ierr = rpncomm_bcastc(buffer, len(buffer, kind=C_SIZE_T), int(count, C_INT), datatype, len(datatype, kind=C_SIZE_T), &
                        int(root, C_INT), com, len(com, kind=C_SIZE_T))
end subroutine RPN_COMM_bcastc

! Spread (their interfaces are in RPN_COMM_include_interfaces.inc).
!
! RPN_COMM_spread_context and RPN_COMM_spread, with the original's names, arguments and results: a
! root PE holds a table source(npts, ndata) of real*4 and a destination PE for each point (pe(i), a
! rank of the communicator; negative: the point goes nowhere). RPN_COMM_spread_context makes the
! plan once (collective over com); each RPN_COMM_spread then sends every point to its PE, which
! receives its points in their order in the table as dest(ndata, npoints) (dest is a pointer: the
! include declares their interfaces).

! The context of a spread over communicator com (RPN_COMM's names) from rootpe: point i of the
! tables the root spreads goes to the PE of rank pe(i) (negative: to none); pe and npts are used
! on the root only. Collective over com. Result: 0, or -1 (contxt then the null context) after the
! library's one-line message.
function RPN_COMM_spread_context(contxt, com, rootpe, pe, npts) result(status)
  use rpn_comm_windows_types, only: rpncomm_context, NULL_rpncomm_context
  use rpn_comm_collectives_binding
  implicit none
  type(rpncomm_context), intent(OUT) :: contxt
  character(len=*), intent(IN) :: com
  integer, intent(IN) :: npts
  integer, intent(IN) :: rootpe
  integer, dimension(npts), intent(IN) :: pe
  integer :: status
  contxt = NULL_rpncomm_context
  ! pe is passed as it is (read on the root only: the other PEs' pe may be shorter than npts)
  status = rpncomm_spread_context(contxt, com, len(com, kind=C_SIZE_T), int(rootpe, C_INT), pe, int(npts, C_INT))
  if (status /= 0) then
    contxt = NULL_rpncomm_context
    status = -1
  endif
end function RPN_COMM_spread_context

! Spreads the root's table source(npts, ndata) as contxt says (source and npts are used on the
! root only). dest, when not associated, is allocated dest(ndata, max(1, npoints)) (as the
! original: a PE receiving no point gets one column it does not use); when associated it must have
! that shape. Collective over the context's communicator. Result: the number of points this PE
! received (>= 0), or -1 after the library's one-line message.
function RPN_COMM_spread(contxt, source, npts, ndata, dest) result(status)
  use rpn_comm_windows_types, only: rpncomm_context
  use rpn_comm_collectives_binding
  implicit none
  type(rpncomm_context), intent(IN) :: contxt
  integer, intent(IN) :: npts, ndata
  real, dimension(npts, ndata), intent(IN) :: source
  real, dimension(:,:), pointer, intent(INOUT) :: dest
  integer :: status
  integer(C_INT) :: npoints, got
  status = -1
  npoints = 0
  got = 0
  if (rpncomm_spread_points(contxt, npoints) /= 0) return
  if (.not. associated(dest)) allocate(dest(max(ndata, 0), max(1, int(npoints))))
  if (rpncomm_spread(contxt, source, int(npts, C_INT), int(ndata, C_INT), dest, &
                     int(size(dest, 1), C_INT), int(size(dest, 2), C_INT), got) == 0) status = got
end function RPN_COMM_spread
