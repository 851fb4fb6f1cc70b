! p2p_binding.F90 -- bind(C) interfaces of point to point and the MPI handles a program passes to
! MPI
!
! GENERATED from fortran/routines.toml by fortran/gen/gen_interfaces.py: do not edit.
!
! The C functions of the Rust core's C ABI (include/rpncomm_windows.h, cbindgen from src/ffi) that
! the routines of fortran/p2p/ call; fortran/gen/check_c_binding.py (make check) checks
! every interface against that header. Conventions: status 0 = RPN_COMM_OK, -1 = RPN_COMM_ERROR;
! strings are (pointer, length) without NUL; logicals are int 0/1; handles by reference.

module rpn_comm_p2p_binding
  use ISO_C_BINDING
  use rpn_comm_windows_types, only: rpncomm_communicator, rpncomm_datatype
  implicit none
  private :: rpncomm_communicator, rpncomm_datatype

  interface

    function rpncomm_comm(name, name_len, com) result(status) bind(C, name='rpncomm_comm')
      import :: C_CHAR, C_SIZE_T, C_INT, rpncomm_communicator
      implicit none
      character(kind=C_CHAR), dimension(*), intent(IN) :: name
      integer(C_SIZE_T), intent(IN), value :: name_len
      type(rpncomm_communicator), intent(OUT) :: com
      integer(C_INT) :: status
    end function rpncomm_comm

    function rpncomm_comm_mpi(mcom, com) result(status) bind(C, name='rpncomm_comm_mpi')
      import :: C_INT, rpncomm_communicator
      implicit none
      integer(C_INT), intent(IN), value :: mcom
      type(rpncomm_communicator), intent(OUT) :: com
      integer(C_INT) :: status
    end function rpncomm_comm_mpi

    function rpncomm_datyp(name, name_len, dtype) result(status) bind(C, name='rpncomm_datyp')
      import :: C_CHAR, C_SIZE_T, C_INT, rpncomm_datatype
      implicit none
      character(kind=C_CHAR), dimension(*), intent(IN) :: name
      integer(C_SIZE_T), intent(IN), value :: name_len
      type(rpncomm_datatype), intent(OUT) :: dtype
      integer(C_INT) :: status
    end function rpncomm_datyp

    function rpncomm_comm_fortran(name, name_len, fcomm) result(status) &
                                  bind(C, name='rpncomm_comm_fortran')
      import :: C_CHAR, C_SIZE_T, C_INT
      implicit none
      character(kind=C_CHAR), dimension(*), intent(IN) :: name
      integer(C_SIZE_T), intent(IN), value :: name_len
      integer(C_INT), intent(INOUT) :: fcomm
      integer(C_INT) :: status
    end function rpncomm_comm_fortran

    function rpncomm_module_comms(fcomms, n) result(status) bind(C, name='rpncomm_module_comms')
      import :: C_INT
      implicit none
      integer(C_INT), dimension(*), intent(OUT) :: fcomms
      integer(C_INT), intent(IN), value :: n
      integer(C_INT) :: status
    end function rpncomm_module_comms

    function rpncomm_datyp_fortran(name, name_len, ftype) result(status) &
                                   bind(C, name='rpncomm_datyp_fortran')
      import :: C_CHAR, C_SIZE_T, C_INT
      implicit none
      character(kind=C_CHAR), dimension(*), intent(IN) :: name
      integer(C_SIZE_T), intent(IN), value :: name_len
      integer(C_INT), intent(INOUT) :: ftype
      integer(C_INT) :: status
    end function rpncomm_datyp_fortran

    function rpncomm_send(buf, count, dtype, dtype_len, dest, tag, com, com_len) result(status) &
                          bind(C, name='rpncomm_send')
      import :: C_INT, C_CHAR, C_SIZE_T
      implicit none
      type(*), dimension(*), intent(IN) :: buf
      integer(C_INT), intent(IN), value :: count, dest, tag
      character(kind=C_CHAR), dimension(*), intent(IN) :: dtype, com
      integer(C_SIZE_T), intent(IN), value :: dtype_len, com_len
      integer(C_INT) :: status
    end function rpncomm_send

    function rpncomm_recv(buf, count, dtype, dtype_len, source, tag, com, com_len, received) &
                          result(status) bind(C, name='rpncomm_recv')
      import :: C_INT, C_CHAR, C_SIZE_T
      implicit none
      type(*), dimension(*), intent(INOUT) :: buf
      integer(C_INT), intent(IN), value :: count, source, tag
      character(kind=C_CHAR), dimension(*), intent(IN) :: dtype, com
      integer(C_SIZE_T), intent(IN), value :: dtype_len, com_len
      integer(C_INT), intent(INOUT) :: received
      integer(C_INT) :: status
    end function rpncomm_recv

    function rpncomm_isend(buf, count, dtype, dtype_len, dest, tag, com, com_len, request) &
                           result(status) bind(C, name='rpncomm_isend')
      import :: C_INT, C_CHAR, C_SIZE_T
      implicit none
      type(*), dimension(*), intent(IN) :: buf
      integer(C_INT), intent(IN), value :: count, dest, tag
      character(kind=C_CHAR), dimension(*), intent(IN) :: dtype, com
      integer(C_SIZE_T), intent(IN), value :: dtype_len, com_len
      integer(C_INT), intent(INOUT) :: request
      integer(C_INT) :: status
    end function rpncomm_isend

    function rpncomm_irecv(buf, count, dtype, dtype_len, source, tag, com, com_len, request) &
                           result(status) bind(C, name='rpncomm_irecv')
      import :: C_INT, C_CHAR, C_SIZE_T
      implicit none
      type(*), dimension(*), intent(INOUT) :: buf
      integer(C_INT), intent(IN), value :: count, source, tag
      character(kind=C_CHAR), dimension(*), intent(IN) :: dtype, com
      integer(C_SIZE_T), intent(IN), value :: dtype_len, com_len
      integer(C_INT), intent(INOUT) :: request
      integer(C_INT) :: status
    end function rpncomm_irecv

    function rpncomm_waitall_nostat(nreq, requests) result(status) &
                                    bind(C, name='rpncomm_waitall_nostat')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: nreq
      integer(C_INT), dimension(*), intent(INOUT) :: requests
      integer(C_INT) :: status
    end function rpncomm_waitall_nostat

    function rpncomm_split_by_socket(origcomm, values) result(status) &
                                     bind(C, name='rpncomm_split_by_socket')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: origcomm
      integer(C_INT), intent(OUT) :: values(7)
      integer(C_INT) :: status
    end function rpncomm_split_by_socket

    function rpncomm_split(mex, nx, nxg, halox, fill, values) result(status) &
                           bind(C, name='rpncomm_split')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: mex, nx, nxg, halox, fill
      integer(C_INT), intent(OUT) :: values(5)
      integer(C_INT) :: status
    end function rpncomm_split

    function rpncomm_grank(name, name_len, member) result(status) bind(C, name='rpncomm_grank')
      import :: C_CHAR, C_SIZE_T, C_INT
      implicit none
      character(kind=C_CHAR), dimension(*), intent(IN) :: name
      integer(C_SIZE_T), intent(IN), value :: name_len
      integer(C_INT), intent(INOUT) :: member
      integer(C_INT) :: status
    end function rpncomm_grank

    function rpncomm_colors(name, name_len, color) result(status) bind(C, name='rpncomm_colors')
      import :: C_CHAR, C_SIZE_T, C_INT
      implicit none
      character(kind=C_CHAR), dimension(*), intent(IN) :: name
      integer(C_SIZE_T), intent(IN), value :: name_len
      integer(C_INT), intent(INOUT) :: color
      integer(C_INT) :: status
    end function rpncomm_colors

    function rpncomm_datyp_indx(name, name_len, indx) result(status) &
                                bind(C, name='rpncomm_datyp_indx')
      import :: C_CHAR, C_SIZE_T, C_INT
      implicit none
      character(kind=C_CHAR), dimension(*), intent(IN) :: name
      integer(C_SIZE_T), intent(IN), value :: name_len
      integer(C_INT), intent(INOUT) :: indx
      integer(C_INT) :: status
    end function rpncomm_datyp_indx

    function rpncomm_valid_datyp(dtyp, valid) result(status) bind(C, name='rpncomm_valid_datyp')
      import :: C_INT, rpncomm_datatype
      implicit none
      type(rpncomm_datatype), intent(IN) :: dtyp
      integer(C_INT), intent(INOUT) :: valid
      integer(C_INT) :: status
    end function rpncomm_valid_datyp

    function rpncomm_datyp_extent(dtyp, extent) result(status) &
                                  bind(C, name='rpncomm_datyp_extent')
      import :: C_INT, rpncomm_datatype
      implicit none
      type(rpncomm_datatype), intent(IN) :: dtyp
      integer(C_INT), intent(INOUT) :: extent
      integer(C_INT) :: status
    end function rpncomm_datyp_extent

    function rpncomm_user_datyp(ftype, dtyp) result(status) bind(C, name='rpncomm_user_datyp')
      import :: C_INT, rpncomm_datatype
      implicit none
      integer(C_INT), intent(IN), value :: ftype
      type(rpncomm_datatype), intent(OUT) :: dtyp
      integer(C_INT) :: status
    end function rpncomm_user_datyp

    function rpncomm_defo(name, name_len) result(status) bind(C, name='rpncomm_defo')
      import :: C_CHAR, C_SIZE_T, C_INT
      implicit none
      character(kind=C_CHAR), dimension(*), intent(IN) :: name
      integer(C_SIZE_T), intent(IN), value :: name_len
      integer(C_INT) :: status
    end function rpncomm_defo

    function rpncomm_custom_comm(mpicom, name, name_len, mode, fcomm) result(status) &
                                 bind(C, name='rpncomm_custom_comm')
      import :: C_INT, C_CHAR, C_SIZE_T
      implicit none
      integer(C_INT), intent(IN), value :: mpicom
      character(kind=C_CHAR), dimension(*), intent(IN) :: name
      integer(C_SIZE_T), intent(IN), value :: name_len
      integer(C_INT), intent(IN), value :: mode
      integer(C_INT), intent(INOUT) :: fcomm
      integer(C_INT) :: status
    end function rpncomm_custom_comm

    function rpncomm_world_set(fcomm) result(status) bind(C, name='rpncomm_world_set')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: fcomm
      integer(C_INT) :: status
    end function rpncomm_world_set

    function rpncomm_world_get(fcomm) result(status) bind(C, name='rpncomm_world_get')
      import :: C_INT
      implicit none
      integer(C_INT), intent(INOUT) :: fcomm
      integer(C_INT) :: status
    end function rpncomm_world_get

    function rpncomm_split_by_node(origcomm, values) result(status) &
                                   bind(C, name='rpncomm_split_by_node')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: origcomm
      integer(C_INT), intent(OUT) :: values(5)
      integer(C_INT) :: status
    end function rpncomm_split_by_node

    function rpncomm_group_fortran(name, name_len, fgroup) result(status) &
                                   bind(C, name='rpncomm_group_fortran')
      import :: C_CHAR, C_SIZE_T, C_INT
      implicit none
      character(kind=C_CHAR), dimension(*), intent(IN) :: name
      integer(C_SIZE_T), intent(IN), value :: name_len
      integer(C_INT), intent(INOUT) :: fgroup
      integer(C_INT) :: status
    end function rpncomm_group_fortran

    function rpncomm_group_of_comm(rcom, fgroup) result(status) &
                                   bind(C, name='rpncomm_group_of_comm')
      import :: C_INT, rpncomm_communicator
      implicit none
      type(rpncomm_communicator), intent(IN) :: rcom
      integer(C_INT), intent(INOUT) :: fgroup
      integer(C_INT) :: status
    end function rpncomm_group_of_comm

    function rpncomm_group_null() result(fgroup) bind(C, name='rpncomm_group_null')
      import :: C_INT
      implicit none
      integer(C_INT) :: fgroup
    end function rpncomm_group_null

    function rpncomm_ngrank(fgroup, member) result(status) bind(C, name='rpncomm_ngrank')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: fgroup
      integer(C_INT), intent(INOUT) :: member
      integer(C_INT) :: status
    end function rpncomm_ngrank

    function rpncomm_infotyp(name, name_len, finfo) result(status) bind(C, name='rpncomm_infotyp')
      import :: C_CHAR, C_SIZE_T, C_INT
      implicit none
      character(kind=C_CHAR), dimension(*), intent(IN) :: name
      integer(C_SIZE_T), intent(IN), value :: name_len
      integer(C_INT), intent(INOUT) :: finfo
      integer(C_INT) :: status
    end function rpncomm_infotyp

    function rpncomm_status_size(ssize) result(status) bind(C, name='rpncomm_status_size')
      import :: C_INT
      implicit none
      integer(C_INT), intent(INOUT) :: ssize
      integer(C_INT) :: status
    end function rpncomm_status_size

    function rpncomm_oper_fortran(name, name_len, fop) result(status) &
                                  bind(C, name='rpncomm_oper_fortran')
      import :: C_CHAR, C_SIZE_T, C_INT
      implicit none
      character(kind=C_CHAR), dimension(*), intent(IN) :: name
      integer(C_SIZE_T), intent(IN), value :: name_len
      integer(C_INT), intent(INOUT) :: fop
      integer(C_INT) :: status
    end function rpncomm_oper_fortran

    function rpncomm_sendrecv(sendbuf, sendcount, sendtype, sendtype_len, dest, sendtag, recvbuf, &
                              recvcount, recvtype, recvtype_len, source, recvtag, com, com_len, &
                              status) result(ierr) bind(C, name='rpncomm_sendrecv')
      import :: C_INT, C_CHAR, C_SIZE_T
      implicit none
      type(*), dimension(*), intent(IN) :: sendbuf
      type(*), dimension(*), intent(INOUT) :: recvbuf
      integer(C_INT), intent(IN), value :: sendcount, dest, sendtag, recvcount, source, recvtag
      character(kind=C_CHAR), dimension(*), intent(IN) :: sendtype, recvtype, com
      integer(C_SIZE_T), intent(IN), value :: sendtype_len, recvtype_len, com_len
      integer(C_INT), intent(INOUT) :: status
      integer(C_INT) :: ierr
    end function rpncomm_sendrecv

    function rpncomm_alloc_dist_table(nentries, made) result(status) &
                                      bind(C, name='rpncomm_alloc_dist_table')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: nentries
      integer(C_INT), intent(OUT) :: made
      integer(C_INT) :: status
    end function rpncomm_alloc_dist_table

    function rpncomm_dist_pattern(pattern, valid) result(status) &
                                  bind(C, name='rpncomm_dist_pattern')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: pattern
      integer(C_INT), intent(OUT) :: valid
      integer(C_INT) :: status
    end function rpncomm_dist_pattern

    function rpncomm_dist_offsets(pattern, offsets, noffsets, count) result(status) &
                                  bind(C, name='rpncomm_dist_offsets')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: pattern
      integer(C_INT), dimension(*), intent(OUT) :: offsets
      integer(C_INT), intent(IN), value :: noffsets
      integer(C_INT), intent(OUT) :: count
      integer(C_INT) :: status
    end function rpncomm_dist_offsets

    function rpncomm_get_dist_meta(pattern, metadata, nmeta, status) result(ok) &
                                   bind(C, name='rpncomm_get_dist_meta')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: pattern
      integer(C_INT), dimension(*), intent(OUT) :: metadata
      integer(C_INT), intent(IN), value :: nmeta
      integer(C_INT), intent(OUT) :: status
      integer(C_INT) :: ok
    end function rpncomm_get_dist_meta

    function rpncomm_get_dist_dims(pattern, ndata, nmeta) result(status) &
                                   bind(C, name='rpncomm_get_dist_dims')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: pattern
      integer(C_INT), intent(OUT) :: ndata, nmeta
      integer(C_INT) :: status
    end function rpncomm_get_dist_dims

    function rpncomm_add_dist_entry(table, max_clients, nrows, com, com_len, ndata, nmeta, &
                                    pattern) result(status) bind(C, name='rpncomm_add_dist_entry')
      import :: C_INT, C_CHAR, C_SIZE_T
      implicit none
      integer(C_INT), dimension(*), intent(INOUT) :: table
      integer(C_INT), intent(IN), value :: max_clients, nrows
      character(kind=C_CHAR), dimension(*), intent(IN) :: com
      integer(C_SIZE_T), intent(IN), value :: com_len
      integer(C_INT), intent(OUT) :: ndata, nmeta, pattern
      integer(C_INT) :: status
    end function rpncomm_add_dist_entry

    function rpncomm_do_dist(pattern, from_root, values, nvalues) result(status) &
                             bind(C, name='rpncomm_do_dist')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: pattern, from_root
      integer(C_INT), dimension(*), intent(INOUT) :: values
      integer(C_INT), intent(IN), value :: nvalues
      integer(C_INT) :: status
    end function rpncomm_do_dist

  end interface

end module rpn_comm_p2p_binding
