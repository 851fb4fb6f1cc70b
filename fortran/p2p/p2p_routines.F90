! p2p_routines.F90 -- point to point and the handles of communicators and data types
!
! External procedures with the original RPN_COMM's names and dummy arguments (their link names
! are the plain Fortran ones, so code written for the original links unchanged); each only
! converts its arguments for the C ABI of the Rust core (logical <-> int, character(len=*) ->
! pointer + length, assumed-shape -> contiguous copy + count), which checks them and reports errors.
! Their signatures are rows of fortran/routines.toml, which generates their interfaces;
! fortran/gen/check_routines.py (make check) checks each routine here against its row.
! MPI handles (RPN_COMM_comm, RPN_COMM_datyp, requests) are the Fortran MPI integers, for the
! caller's own MPI calls; they exist in the MPI build only (the shared-memory build refuses those
! routines with one line).

! ======================================================================= point to point

subroutine RPN_COMM_i_comm(ctyp_c, ctyp, mcom)
  use rpn_comm_windows_types
  use rpn_comm_p2p_binding
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
  use rpn_comm_p2p_binding
  implicit none
  character(len=*), intent(IN) :: dtyp_c
  type(rpncomm_datatype), intent(OUT) :: dtyp
  integer(C_INT) :: status
  status = rpncomm_datyp(dtyp_c, len(dtyp_c, kind=C_SIZE_T), dtyp)
end subroutine RPN_COMM_i_datyp

integer function RPN_COMM_comm(com)
  use rpn_comm_p2p_binding
  implicit none
  character(len=*), intent(IN) :: com
  integer(C_INT) :: f, status
  f = -1      ! stays so where there is no MPI handle (the shared-memory build: refused)
  status = rpncomm_comm_fortran(com, len(com, kind=C_SIZE_T), f)
  RPN_COMM_comm = f
end function RPN_COMM_comm

integer function RPN_COMM_datyp(data_int)
  use rpn_comm_p2p_binding
  implicit none
  character(len=*), intent(IN) :: data_int
  integer(C_INT) :: f, status
  f = -1
  status = rpncomm_datyp_fortran(data_int, len(data_int, kind=C_SIZE_T), f)
  RPN_COMM_datyp = f
end function RPN_COMM_datyp

integer function RPN_COMM_oper(op)
  use rpn_comm_p2p_binding
  implicit none
  character(len=*), intent(IN) :: op
  integer(C_INT) :: f, status
  f = -1      ! stays so where there is no MPI handle (the shared-memory build: refused)
  status = rpncomm_oper_fortran(op, len(op, kind=C_SIZE_T), f)
  RPN_COMM_oper = f
end function RPN_COMM_oper

subroutine RPN_COMM_sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, recv, &
                             recvtag, com, status, ierr)
  use rpn_comm_p2p_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf, recvbuf
  type(*), dimension(*), intent(IN)    :: sendbuf
  type(*), dimension(*), intent(INOUT) :: recvbuf
  integer, intent(IN) :: sendcount, dest, sendtag, recvcount, recv, recvtag
  character(len=*), intent(IN) :: sendtype, recvtype, com
  integer, intent(OUT) :: status     ! as the original: the number of elements received
  integer, intent(OUT) :: ierr
  integer(C_INT) :: n
  n = 0
  ierr = rpncomm_sendrecv(sendbuf, int(sendcount, C_INT), sendtype, len(sendtype, kind=C_SIZE_T), &
                          int(dest, C_INT), int(sendtag, C_INT),                                  &
                          recvbuf, int(recvcount, C_INT), recvtype, len(recvtype, kind=C_SIZE_T), &
                          int(recv, C_INT), int(recvtag, C_INT), com, len(com, kind=C_SIZE_T), n)
  status = n
end subroutine RPN_COMM_sendrecv

subroutine RPN_COMM_recv(buffer, count, datatype, source, tag, com, status, ierr)
  use rpn_comm_p2p_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: buffer
  type(*), dimension(*), intent(INOUT) :: buffer
  integer, intent(IN) :: count, source, tag
  character(len=*), intent(IN) :: datatype, com
  integer, intent(OUT) :: status     ! as the original: the number of elements received
  integer, intent(OUT) :: ierr
  integer(C_INT) :: n
  n = 0
  ierr = rpncomm_recv(buffer, int(count, C_INT), datatype, len(datatype, kind=C_SIZE_T), &
                      int(source, C_INT), int(tag, C_INT), com, len(com, kind=C_SIZE_T), n)
  status = n
end subroutine RPN_COMM_recv

subroutine RPN_COMM_isend(buffer, count, datatype, dest, tag, com, request, ierr)
  use rpn_comm_p2p_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: buffer
  type(*), dimension(*), intent(IN) :: buffer
  integer, intent(IN) :: count, dest, tag
  character(len=*), intent(IN) :: datatype, com
  integer, intent(INOUT) :: request
  integer, intent(OUT) :: ierr
  integer(C_INT) :: r
  r = request
  ierr = rpncomm_isend(buffer, int(count, C_INT), datatype, len(datatype, kind=C_SIZE_T), &
                       int(dest, C_INT), int(tag, C_INT), com, len(com, kind=C_SIZE_T), r)
  request = r
end subroutine RPN_COMM_isend

subroutine RPN_COMM_irecv(buffer, count, datatype, source, tag, com, request, ierr)
  use rpn_comm_p2p_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: buffer
  type(*), dimension(*), intent(INOUT) :: buffer
  integer, intent(IN) :: count, source, tag
  character(len=*), intent(IN) :: datatype, com
  integer, intent(INOUT) :: request
  integer, intent(OUT) :: ierr
  integer(C_INT) :: r
  r = request
  ierr = rpncomm_irecv(buffer, int(count, C_INT), datatype, len(datatype, kind=C_SIZE_T), &
                       int(source, C_INT), int(tag, C_INT), com, len(com, kind=C_SIZE_T), r)
  request = r
end subroutine RPN_COMM_irecv

subroutine RPN_COMM_waitall_nostat(nreq, req, ierr)
  use rpn_comm_p2p_binding
  implicit none
  integer, intent(IN) :: nreq
  integer, dimension(nreq), intent(INOUT) :: req
  integer, intent(OUT) :: ierr
  integer(C_INT), dimension(max(nreq, 1)) :: r
  if (nreq > 0) r(1:nreq) = req(1:nreq)
  ierr = rpncomm_waitall_nostat(int(nreq, C_INT), r)
  if (nreq > 0) req(1:nreq) = r(1:nreq)
end subroutine RPN_COMM_waitall_nostat

! MPI build only: the caller's communicator origcomm (a Fortran MPI handle) split by node, each node
! cut into the original's "sockets", and the peers of equal rank in their socket; the new
! communicators are the caller's. On failure err = RPN_COMM_ERROR, the ranks -1 and isiz 0.
subroutine RPN_COMM_split_by_socket(origcomm, nodecomm, sockcomm, peercomm, noderank, sockrank, peerrank, isiz, err)
  use rpn_comm_p2p_binding
  implicit none
  integer, intent(IN)  :: origcomm
  integer, intent(OUT) :: nodecomm
  integer, intent(OUT) :: sockcomm
  integer, intent(OUT) :: peercomm
  integer, intent(OUT) :: noderank
  integer, intent(OUT) :: sockrank
  integer, intent(OUT) :: peerrank
  integer, intent(OUT) :: isiz
  integer, intent(OUT) :: err
  integer(C_INT) :: v(7)
  v = [-1, -1, -1, -1, -1, -1, 0]
  err = 0
  if (rpncomm_split_by_socket(int(origcomm, C_INT), v) /= 0) then
    v = [-1, -1, -1, -1, -1, -1, 0]
    err = -1
  endif
  nodecomm = v(1); sockcomm = v(2); peercomm = v(3)
  noderank = v(4); sockrank = v(5); peerrank = v(6); isiz = v(7)
end subroutine RPN_COMM_split_by_socket
