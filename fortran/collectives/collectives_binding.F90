! collectives_binding.F90 -- bind(C) interfaces of the collectives, the distributions and the
! transposes
!
! GENERATED from fortran/routines.toml by fortran/gen/gen_interfaces.py: do not edit.
!
! The C functions of the Rust core's C ABI (include/rpncomm_windows.h, cbindgen from src/ffi) that
! the routines of fortran/collectives/ call; fortran/gen/check_c_binding.py (make check) checks
! every interface against that header. Conventions: status 0 = RPN_COMM_OK, -1 = RPN_COMM_ERROR;
! strings are (pointer, length) without NUL; logicals are int 0/1; handles by reference.

module rpn_comm_collectives_binding
  use ISO_C_BINDING
  use rpn_comm_windows_types, only: rpncomm_operator, rpncomm_context
  implicit none
  private :: rpncomm_operator, rpncomm_context
  ! The RPN_MPI layer's wrapped address (RPN_MPI.hf declares the same type for callers).
  type, bind(C) :: RPN_MPI_Loc
    type(C_PTR) :: p
  end type RPN_MPI_Loc

  interface

    function rpncomm_barrier(name, name_len) result(status) bind(C, name='rpncomm_barrier')
      import :: C_CHAR, C_SIZE_T, C_INT
      implicit none
      character(kind=C_CHAR), dimension(*), intent(IN) :: name
      integer(C_SIZE_T), intent(IN), value :: name_len
      integer(C_INT) :: status
    end function rpncomm_barrier

    function rpncomm_oper(name, name_len, oper) result(status) bind(C, name='rpncomm_oper')
      import :: C_CHAR, C_SIZE_T, C_INT, rpncomm_operator
      implicit none
      character(kind=C_CHAR), dimension(*), intent(IN) :: name
      integer(C_SIZE_T), intent(IN), value :: name_len
      type(rpncomm_operator), intent(OUT) :: oper
      integer(C_INT) :: status
    end function rpncomm_oper

    function rpncomm_valid_oper(oper) result(is_valid) bind(C, name='rpncomm_valid_oper')
      import :: C_INT, rpncomm_operator
      implicit none
      type(rpncomm_operator), intent(IN) :: oper
      integer(C_INT) :: is_valid
    end function rpncomm_valid_oper

    function rpncomm_allreduce(sendbuf, recvbuf, count, dtype, dtype_len, op, op_len, com, &
                               com_len) result(status) bind(C, name='rpncomm_allreduce')
      import :: C_INT, C_CHAR, C_SIZE_T
      implicit none
      type(*), dimension(*), intent(IN) :: sendbuf
      type(*), dimension(*), intent(INOUT) :: recvbuf
      integer(C_INT), intent(IN), value :: count
      character(kind=C_CHAR), dimension(*), intent(IN) :: dtype, op, com
      integer(C_SIZE_T), intent(IN), value :: dtype_len, op_len, com_len
      integer(C_INT) :: status
    end function rpncomm_allreduce

    function rpncomm_bcast(buffer, count, dtype, dtype_len, root, com, com_len) result(status) &
                           bind(C, name='rpncomm_bcast')
      import :: C_INT, C_CHAR, C_SIZE_T
      implicit none
      type(*), dimension(*), intent(INOUT) :: buffer
      integer(C_INT), intent(IN), value :: count
      character(kind=C_CHAR), dimension(*), intent(IN) :: dtype
      integer(C_SIZE_T), intent(IN), value :: dtype_len
      integer(C_INT), intent(IN), value :: root
      character(kind=C_CHAR), dimension(*), intent(IN) :: com
      integer(C_SIZE_T), intent(IN), value :: com_len
      integer(C_INT) :: status
    end function rpncomm_bcast

    function rpncomm_allgather(sendbuf, sendcount, sendtype, sendtype_len, recvbuf, recvcount, &
                               recvtype, recvtype_len, com, com_len) result(status) &
                               bind(C, name='rpncomm_allgather')
      import :: C_INT, C_CHAR, C_SIZE_T
      implicit none
      type(*), dimension(*), intent(IN) :: sendbuf
      integer(C_INT), intent(IN), value :: sendcount
      character(kind=C_CHAR), dimension(*), intent(IN) :: sendtype
      integer(C_SIZE_T), intent(IN), value :: sendtype_len
      type(*), dimension(*), intent(INOUT) :: recvbuf
      integer(C_INT), intent(IN), value :: recvcount
      character(kind=C_CHAR), dimension(*), intent(IN) :: recvtype
      integer(C_SIZE_T), intent(IN), value :: recvtype_len
      character(kind=C_CHAR), dimension(*), intent(IN) :: com
      integer(C_SIZE_T), intent(IN), value :: com_len
      integer(C_INT) :: status
    end function rpncomm_allgather

    function rpncomm_reduce(sendbuf, recvbuf, count, dtype, dtype_len, op, op_len, root, com, &
                            com_len) result(status) bind(C, name='rpncomm_reduce')
      import :: C_INT, C_CHAR, C_SIZE_T
      implicit none
      type(*), dimension(*), intent(IN) :: sendbuf
      type(*), dimension(*), intent(INOUT) :: recvbuf
      integer(C_INT), intent(IN), value :: count, root
      character(kind=C_CHAR), dimension(*), intent(IN) :: dtype, op, com
      integer(C_SIZE_T), intent(IN), value :: dtype_len, op_len, com_len
      integer(C_INT) :: status
    end function rpncomm_reduce

    function rpncomm_gather(sendbuf, sendcount, sendtype, sendtype_len, recvbuf, reccount, &
                            rectype, rectype_len, root, com, com_len) result(status) &
                            bind(C, name='rpncomm_gather')
      import :: C_INT, C_CHAR, C_SIZE_T
      implicit none
      type(*), dimension(*), intent(IN) :: sendbuf
      type(*), dimension(*), intent(INOUT) :: recvbuf
      integer(C_INT), intent(IN), value :: sendcount, reccount, root
      character(kind=C_CHAR), dimension(*), intent(IN) :: sendtype, rectype, com
      integer(C_SIZE_T), intent(IN), value :: sendtype_len, rectype_len, com_len
      integer(C_INT) :: status
    end function rpncomm_gather

    function rpncomm_transpose(za, min1, max1, n1g, n2, min3, max3, n3g, zb, kind, size) &
                               result(status) bind(C, name='rpncomm_transpose')
      import :: C_INT
      implicit none
      type(*), dimension(*), intent(INOUT) :: za, zb
      integer(C_INT), intent(IN), value :: min1, max1, n1g, n2, min3, max3, n3g, kind, size
      integer(C_INT) :: status
    end function rpncomm_transpose

    function rpncomm_dist(garr, gmini, gmaxi, gminj, gmaxj, nig, njg, nk, ghalox, ghaloy, size, &
                          larr, mini, maxi, minj, maxj, halox, haloy, periodx, periody) &
                          result(status) bind(C, name='rpncomm_dist')
      import :: C_INT
      implicit none
      type(*), dimension(*), intent(IN) :: garr
      type(*), dimension(*), intent(INOUT) :: larr
      integer(C_INT), intent(IN), value :: gmini, gmaxi, gminj, gmaxj, nig, njg, nk, ghalox, &
          ghaloy, size
      integer(C_INT), intent(IN), value :: mini, maxi, minj, maxj, halox, haloy, periodx, periody
      integer(C_INT) :: status
    end function rpncomm_dist

    function rpncomm_coll(garr, gmini, gmaxi, gminj, gmaxj, nig, njg, nk, ghalox, ghaloy, size, &
                          larr, mini, maxi, minj, maxj, halox, haloy) result(status) &
                          bind(C, name='rpncomm_coll')
      import :: C_INT
      implicit none
      type(*), dimension(*), intent(INOUT) :: garr
      type(*), dimension(*), intent(IN) :: larr
      integer(C_INT), intent(IN), value :: gmini, gmaxi, gminj, gmaxj, nig, njg, nk, ghalox, &
          ghaloy, size
      integer(C_INT), intent(IN), value :: mini, maxi, minj, maxj, halox, haloy
      integer(C_INT) :: status
    end function rpncomm_coll

    function rpncomm_shuf_ezdist(setno, grid_id, global, dnk, local, lnk, liste_i, liste_o) &
                                 result(status) bind(C, name='rpncomm_shuf_ezdist')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: setno, grid_id, dnk, lnk
      type(*), dimension(*), intent(IN) :: global
      type(*), dimension(*), intent(INOUT) :: local
      integer(C_INT), dimension(*), intent(IN) :: liste_i
      integer(C_INT), dimension(*), intent(INOUT) :: liste_o
      integer(C_INT) :: status
    end function rpncomm_shuf_ezdist

    function rpncomm_shuf_ezcoll(setno, grid_id, global, dnk, local, lnk, liste_o) result(status) &
                                 bind(C, name='rpncomm_shuf_ezcoll')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: setno, grid_id, dnk, lnk
      type(*), dimension(*), intent(INOUT) :: global
      type(*), dimension(*), intent(IN) :: local
      integer(C_INT), dimension(*), intent(INOUT) :: liste_o
      integer(C_INT) :: status
    end function rpncomm_shuf_ezcoll

    function rpncomm_mpi_transpose_setup(gnk, lnkx, row_comm, col_comm) result(status) &
                                         bind(C, name='rpncomm_mpi_transpose_setup')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: gnk, lnkx, row_comm, col_comm
      integer(C_INT) :: status
    end function rpncomm_mpi_transpose_setup

    function rpncomm_mpi_ez_transpose_xz(z, zt, forward, lnix, lnjy, lnkx) result(status) &
                                         bind(C, name='rpncomm_mpi_ez_transpose_xz')
      import :: C_PTR, C_INT
      implicit none
      type(C_PTR), intent(IN), value :: z, zt
      integer(C_INT), intent(IN), value :: forward, lnix, lnjy, lnkx
      integer(C_INT) :: status
    end function rpncomm_mpi_ez_transpose_xz

    function rpncomm_bcastc(buffer, buffer_len, count, dtype, dtype_len, root, com, com_len) &
                            result(status) bind(C, name='rpncomm_bcastc')
      import :: C_CHAR, C_SIZE_T, C_INT
      implicit none
      character(kind=C_CHAR), dimension(*), intent(INOUT) :: buffer
      integer(C_SIZE_T), intent(IN), value :: buffer_len
      integer(C_INT), intent(IN), value :: count
      character(kind=C_CHAR), dimension(*), intent(IN) :: dtype
      integer(C_SIZE_T), intent(IN), value :: dtype_len
      integer(C_INT), intent(IN), value :: root
      character(kind=C_CHAR), dimension(*), intent(IN) :: com
      integer(C_SIZE_T), intent(IN), value :: com_len
      integer(C_INT) :: status
    end function rpncomm_bcastc

    function rpncomm_alltoall(sendbuf, sendcount, sendtype, sendtype_len, recbuf, recvcnt, &
                              recvtype, recvtype_len, com, com_len) result(status) &
                              bind(C, name='rpncomm_alltoall')
      import :: C_INT, C_CHAR, C_SIZE_T
      implicit none
      type(*), dimension(*), intent(IN) :: sendbuf
      type(*), dimension(*), intent(INOUT) :: recbuf
      integer(C_INT), intent(IN), value :: sendcount, recvcnt
      character(kind=C_CHAR), dimension(*), intent(IN) :: sendtype, recvtype, com
      integer(C_SIZE_T), intent(IN), value :: sendtype_len, recvtype_len, com_len
      integer(C_INT) :: status
    end function rpncomm_alltoall

    function rpncomm_gatherv(sendbuf, sendcount, sendtype, sendtype_len, recbuf, reccountv, disp, &
                             rectype, rectype_len, root, com, com_len) result(status) &
                             bind(C, name='rpncomm_gatherv')
      import :: C_INT, C_CHAR, C_SIZE_T
      implicit none
      type(*), dimension(*), intent(IN) :: sendbuf
      type(*), dimension(*), intent(INOUT) :: recbuf
      integer(C_INT), intent(IN), value :: sendcount, root
      integer(C_INT), dimension(*), intent(IN) :: reccountv, disp
      character(kind=C_CHAR), dimension(*), intent(IN) :: sendtype, rectype, com
      integer(C_SIZE_T), intent(IN), value :: sendtype_len, rectype_len, com_len
      integer(C_INT) :: status
    end function rpncomm_gatherv

    function rpncomm_scatterv(sendbuf, sendcount, disp, sendtype, sendtype_len, recbuf, reccountv, &
                              rectype, rectype_len, root, com, com_len) result(status) &
                              bind(C, name='rpncomm_scatterv')
      import :: C_INT, C_CHAR, C_SIZE_T
      implicit none
      type(*), dimension(*), intent(IN) :: sendbuf
      type(*), dimension(*), intent(INOUT) :: recbuf
      integer(C_INT), dimension(*), intent(IN) :: sendcount, disp
      integer(C_INT), intent(IN), value :: reccountv, root
      character(kind=C_CHAR), dimension(*), intent(IN) :: sendtype, rectype, com
      integer(C_SIZE_T), intent(IN), value :: sendtype_len, rectype_len, com_len
      integer(C_INT) :: status
    end function rpncomm_scatterv

    function rpncomm_spread_context(contxt, com, com_len, rootpe, pe, npts) result(status) &
                                    bind(C, name='rpncomm_spread_context')
      import :: C_CHAR, C_SIZE_T, C_INT, rpncomm_context
      implicit none
      type(rpncomm_context), intent(INOUT) :: contxt
      character(kind=C_CHAR), dimension(*), intent(IN) :: com
      integer(C_SIZE_T), intent(IN), value :: com_len
      integer(C_INT), intent(IN), value :: rootpe, npts
      integer(C_INT), dimension(*), intent(IN) :: pe
      integer(C_INT) :: status
    end function rpncomm_spread_context

    function rpncomm_spread_points(contxt, npoints) result(status) &
                                   bind(C, name='rpncomm_spread_points')
      import :: C_INT, rpncomm_context
      implicit none
      type(rpncomm_context), intent(IN) :: contxt
      integer(C_INT), intent(INOUT) :: npoints
      integer(C_INT) :: status
    end function rpncomm_spread_points

    function rpncomm_spread(contxt, source, npts, ndata, dest, dest_rows, dest_cols, npoints) &
                            result(status) bind(C, name='rpncomm_spread')
      import :: C_INT, rpncomm_context
      implicit none
      type(rpncomm_context), intent(IN) :: contxt
      type(*), dimension(*), intent(IN) :: source
      integer(C_INT), intent(IN), value :: npts, ndata
      type(*), dimension(*), intent(INOUT) :: dest
      integer(C_INT), intent(IN), value :: dest_rows, dest_cols
      integer(C_INT), intent(INOUT) :: npoints
      integer(C_INT) :: status
    end function rpncomm_spread

    function rpncomm_xpose(n3partiel, npe, pecomm, n1partiel, za, min1, max1, n1g, n2, min3, max3, &
                           n3g, zb, size, forward) result(status) bind(C, name='rpncomm_xpose')
      import :: C_INT
      implicit none
      type(*), dimension(*), intent(INOUT) :: za, zb
      integer(C_INT), intent(IN), value :: n3partiel, npe, pecomm, n1partiel, min1, max1, n1g, n2, &
          min3, max3, n3g, size, forward
      integer(C_INT) :: status
    end function rpncomm_xpose

    function rpncomm_transpose_44(za, min1, max1, n1g, n2, min3, max3, n3g, zb, direction) &
                                  result(status) bind(C, name='rpncomm_transpose_44')
      import :: C_INT
      implicit none
      type(*), dimension(*), intent(INOUT) :: za, zb
      integer(C_INT), intent(IN), value :: min1, max1, n1g, n2, min3, max3, n3g, direction
      integer(C_INT) :: status
    end function rpncomm_transpose_44

    function rpncomm_transpose48(za, min1, max1, n1g, min2, max2, n2l, min3, max3, n3g, zb, kind, &
                                 a, b, npe, pecomm) result(status) &
                                 bind(C, name='rpncomm_transpose48')
      import :: C_INT, C_DOUBLE
      implicit none
      type(*), dimension(*), intent(INOUT) :: za, zb
      integer(C_INT), intent(IN), value :: min1, max1, n1g, min2, max2, n2l, min3, max3, n3g, &
          kind, npe, pecomm
      real(C_DOUBLE), intent(IN), value :: a, b
      integer(C_INT) :: status
    end function rpncomm_transpose48

    function rpncomm_mpi_transpose_xz(z, zt, forward, lnix, lnjy, gnk, lnkx, row_comm, staggered) &
                                      result(status) bind(C, name='rpncomm_mpi_transpose_xz')
      import :: C_PTR, C_INT
      implicit none
      type(C_PTR), intent(IN), value :: z, zt
      integer(C_INT), intent(IN), value :: forward, lnix, lnjy, gnk, lnkx, row_comm, staggered
      integer(C_INT) :: status
    end function rpncomm_mpi_transpose_xz

    function rpncomm_mpi_transpose_xy(z, zt, forward, lniy, lnjy, lnkx, col_comm, ez, staggered) &
                                      result(status) bind(C, name='rpncomm_mpi_transpose_xy')
      import :: C_PTR, C_INT
      implicit none
      type(C_PTR), intent(IN), value :: z, zt
      integer(C_INT), intent(IN), value :: forward, lniy, lnjy, lnkx, col_comm, ez, staggered
      integer(C_INT) :: status
    end function rpncomm_mpi_transpose_xy

    function rpncomm_mpi_print_transpose_times() result(status) &
                                               bind(C, name='rpncomm_mpi_print_transpose_times')
      import :: C_INT
      implicit none
      integer(C_INT) :: status
    end function rpncomm_mpi_print_transpose_times

    function rpncomm_globalsum(array, minx, maxx, miny, maxy, nptsz, nil, njl, sum) result(status) &
                               bind(C, name='rpncomm_globalsum')
      import :: C_INT
      implicit none
      type(*), dimension(*), intent(IN) :: array
      type(*), dimension(*), intent(INOUT) :: sum
      integer(C_INT), intent(IN), value :: minx, maxx, miny, maxy, nptsz, nil, njl
      integer(C_INT) :: status
    end function rpncomm_globalsum

    function rpncomm_compress(array, minx, maxx, miny, maxy, nil, njl, nk, words, expand) &
                              result(status) bind(C, name='rpncomm_compress')
      import :: C_INT
      implicit none
      type(*), dimension(*), intent(INOUT) :: array
      integer(C_INT), intent(IN), value :: minx, maxx, miny, maxy, nil, njl, nk, words, expand
      integer(C_INT) :: status
    end function rpncomm_compress

    function rpncomm_softbarrier_init(fcomm, out) result(status) &
                                      bind(C, name='rpncomm_softbarrier_init')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: fcomm
      integer(C_INT), intent(OUT) :: out
      integer(C_INT) :: status
    end function rpncomm_softbarrier_init

    function rpncomm_softbarrier_init_all(out) result(status) &
                                          bind(C, name='rpncomm_softbarrier_init_all')
      import :: C_INT
      implicit none
      integer(C_INT), intent(OUT) :: out
      integer(C_INT) :: status
    end function rpncomm_softbarrier_init_all

    function rpncomm_softbarrier(fcomm) result(status) bind(C, name='rpncomm_softbarrier')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: fcomm
      integer(C_INT) :: status
    end function rpncomm_softbarrier

    function rpncomm_barrier_data(level, values, nvalues, count) result(status) &
                                  bind(C, name='rpncomm_barrier_data')
      import :: C_INT, C_DOUBLE
      implicit none
      integer(C_INT), intent(IN), value :: level
      real(C_DOUBLE), dimension(*), intent(OUT) :: values
      integer(C_INT), intent(IN), value :: nvalues
      integer(C_INT), intent(OUT) :: count
      integer(C_INT) :: status
    end function rpncomm_barrier_data

  end interface

end module rpn_comm_collectives_binding
