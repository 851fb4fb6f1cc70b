! collectives_direct.F90 -- the routines of the collectives, the distributions and the transposes
! whose body is one C call
!
! GENERATED from fortran/routines.toml by fortran/gen/gen_interfaces.py: do not edit.
!
! External procedures with the original RPN_COMM's names and dummy arguments (their rows say
! body = "direct"): each passes its arguments to one C function of the Rust core, which checks
! them and reports errors, and returns its status (fortran/gen/gen_interfaces.py, direct_call,
! has the conversions). The other routines of the concern are written by hand beside this file.

subroutine RPN_COMM_barrier(com, ierr)
  use ISO_C_BINDING, only: C_SIZE_T
  use rpn_comm_collectives_binding, only: rpncomm_barrier
  implicit none
  character(len=*), intent(IN) :: com
  integer, intent(OUT) :: ierr
  ierr = rpncomm_barrier(com, len(com, kind=C_SIZE_T))
end subroutine RPN_COMM_barrier

subroutine RPN_COMM_allreduce(sendbuf, recbuf, count, datatype, op, com, ierr)
  use ISO_C_BINDING, only: C_INT, C_SIZE_T
  use rpn_comm_collectives_binding, only: rpncomm_allreduce
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf, recbuf
  type(*), dimension(*), intent(IN) :: sendbuf
  type(*), dimension(*), intent(INOUT) :: recbuf
  integer, intent(IN) :: count
  character(len=*), intent(IN) :: datatype, op, com
  integer, intent(OUT) :: ierr
  ierr = rpncomm_allreduce(sendbuf, recbuf, int(count, C_INT), datatype, &
                           len(datatype, kind=C_SIZE_T), op, len(op, kind=C_SIZE_T), com, &
                           len(com, kind=C_SIZE_T))
end subroutine RPN_COMM_allreduce

subroutine RPN_COMM_bcast(buffer, count, datatype, root, com, ierr)
  use ISO_C_BINDING, only: C_INT, C_SIZE_T
  use rpn_comm_collectives_binding, only: rpncomm_bcast
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
  use ISO_C_BINDING, only: C_INT, C_SIZE_T
  use rpn_comm_collectives_binding, only: rpncomm_allgather
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf, recbuf
  type(*), dimension(*), intent(IN) :: sendbuf
  type(*), dimension(*), intent(INOUT) :: recbuf
  integer, intent(IN) :: sendcount, reccount
  character(len=*), intent(IN) :: sendtype, rectype, com
  integer, intent(OUT) :: ierr
  ierr = rpncomm_allgather(sendbuf, int(sendcount, C_INT), sendtype, len(sendtype, kind=C_SIZE_T), &
                           recbuf, int(reccount, C_INT), rectype, len(rectype, kind=C_SIZE_T), &
                           com, len(com, kind=C_SIZE_T))
end subroutine RPN_COMM_allgather

subroutine RPN_COMM_reduce(sendbuf, recbuf, count, datatype, op, root, com, ierr)
  use ISO_C_BINDING, only: C_INT, C_SIZE_T
  use rpn_comm_collectives_binding, only: rpncomm_reduce
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf, recbuf
  type(*), dimension(*), intent(IN) :: sendbuf
  type(*), dimension(*), intent(INOUT) :: recbuf
  integer, intent(IN) :: count, root
  character(len=*), intent(IN) :: datatype, op, com
  integer, intent(OUT) :: ierr
  ierr = rpncomm_reduce(sendbuf, recbuf, int(count, C_INT), datatype, &
                        len(datatype, kind=C_SIZE_T), op, len(op, kind=C_SIZE_T), &
                        int(root, C_INT), com, len(com, kind=C_SIZE_T))
end subroutine RPN_COMM_reduce

subroutine RPN_COMM_gather(sendbuf, sendcount, sendtype, recbuf, reccount, rectype, root, com, &
                           ierr)
  use ISO_C_BINDING, only: C_INT, C_SIZE_T
  use rpn_comm_collectives_binding, only: rpncomm_gather
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf, recbuf
  type(*), dimension(*), intent(IN) :: sendbuf
  type(*), dimension(*), intent(INOUT) :: recbuf
  integer, intent(IN) :: sendcount, reccount, root
  character(len=*), intent(IN) :: sendtype, rectype, com
  integer, intent(OUT) :: ierr
  ierr = rpncomm_gather(sendbuf, int(sendcount, C_INT), sendtype, len(sendtype, kind=C_SIZE_T), &
                        recbuf, int(reccount, C_INT), rectype, len(rectype, kind=C_SIZE_T), &
                        int(root, C_INT), com, len(com, kind=C_SIZE_T))
end subroutine RPN_COMM_gather

! The stacked x-z transpose's setup: gnk levels, lnkx on this PE, over the row communicator row_comm
! (a Fortran MPI handle, as RPN_COMM_comm('EW') gives); ierr 0 or -1. MPI build.
subroutine RPN_MPI_transpose_setup(gnk, lnkx, row_comm, col_comm, ierr)
  use ISO_C_BINDING, only: C_INT
  use rpn_comm_collectives_binding, only: rpncomm_mpi_transpose_setup
  implicit none
  integer, intent(IN) :: row_comm, col_comm
  integer, intent(IN) :: gnk, lnkx
  integer, intent(OUT) :: ierr
  ierr = rpncomm_mpi_transpose_setup(int(gnk, C_INT), int(lnkx, C_INT), int(row_comm, C_INT), &
                                     int(col_comm, C_INT))
end subroutine RPN_MPI_transpose_setup

subroutine RPN_COMM_alltoall(sendbuf, sendcount, sendtype, recbuf, recvcnt, recvtype, com, ierr)
  use ISO_C_BINDING, only: C_INT, C_SIZE_T
  use rpn_comm_collectives_binding, only: rpncomm_alltoall
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf, recbuf
  type(*), dimension(*), intent(IN) :: sendbuf
  type(*), dimension(*), intent(INOUT) :: recbuf
  integer, intent(IN) :: sendcount, recvcnt
  character(len=*), intent(IN) :: sendtype, recvtype, com
  integer, intent(OUT) :: ierr
  ierr = rpncomm_alltoall(sendbuf, int(sendcount, C_INT), sendtype, len(sendtype, kind=C_SIZE_T), &
                          recbuf, int(recvcnt, C_INT), recvtype, len(recvtype, kind=C_SIZE_T), &
                          com, len(com, kind=C_SIZE_T))
end subroutine RPN_COMM_alltoall

subroutine RPN_COMM_gatherv(sendbuf, sendcount, sendtype, recbuf, reccountv, disp, rectype, root, &
                            com, ierr)
  use ISO_C_BINDING, only: C_INT, C_SIZE_T
  use rpn_comm_collectives_binding, only: rpncomm_gatherv
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf, recbuf
  type(*), dimension(*), intent(IN) :: sendbuf
  type(*), dimension(*), intent(INOUT) :: recbuf
  integer, intent(IN) :: sendcount, root
  integer, dimension(*), intent(IN) :: reccountv, disp
  character(len=*), intent(IN) :: sendtype, rectype, com
  integer, intent(OUT) :: ierr
  ierr = rpncomm_gatherv(sendbuf, int(sendcount, C_INT), sendtype, len(sendtype, kind=C_SIZE_T), &
                         recbuf, reccountv, disp, rectype, len(rectype, kind=C_SIZE_T), &
                         int(root, C_INT), com, len(com, kind=C_SIZE_T))
end subroutine RPN_COMM_gatherv

subroutine RPN_COMM_scatterv(sendbuf, sendcount, disp, sendtype, recbuf, reccountv, rectype, root, &
                             com, ierr)
  use ISO_C_BINDING, only: C_SIZE_T, C_INT
  use rpn_comm_collectives_binding, only: rpncomm_scatterv
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf, recbuf
  type(*), dimension(*), intent(IN) :: sendbuf
  type(*), dimension(*), intent(INOUT) :: recbuf
  integer, dimension(*), intent(IN) :: sendcount, disp
  integer, intent(IN) :: reccountv, root
  character(len=*), intent(IN) :: sendtype, rectype, com
  integer, intent(OUT) :: ierr
  ierr = rpncomm_scatterv(sendbuf, sendcount, disp, sendtype, len(sendtype, kind=C_SIZE_T), &
                          recbuf, int(reccountv, C_INT), rectype, len(rectype, kind=C_SIZE_T), &
                          int(root, C_INT), com, len(com, kind=C_SIZE_T))
end subroutine RPN_COMM_scatterv
