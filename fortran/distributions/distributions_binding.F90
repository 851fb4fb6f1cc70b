! distributions_binding.F90 -- bind(C) interfaces of the original's older distributions: fast_dist,
! move, the check of an I/O distribution's grid
!
! GENERATED from fortran/routines.toml by fortran/gen/gen_interfaces.py: do not edit.
!
! The C functions of the Rust core's C ABI (include/rpncomm_windows.h, cbindgen from src/ffi) that
! the routines of fortran/distributions/ call; fortran/gen/check_c_binding.py (make check) checks
! every interface against that header. Conventions: status 0 = RPN_COMM_OK, -1 = RPN_COMM_ERROR;
! strings are (pointer, length) without NUL; logicals are int 0/1; handles by reference.

module rpn_comm_distributions_binding
  use ISO_C_BINDING
  implicit none

  interface

    function rpncomm_fast_dist(garr, gmini, gmaxi, gminj, gmaxj, nig, njg, nk, ghalox, ghaloy, &
                               size, larr, mini, maxi, minj, maxj, halox, haloy, periodx, periody) &
                               result(status) bind(C, name='rpncomm_fast_dist')
      import :: C_INT
      implicit none
      type(*), dimension(*), intent(IN) :: garr
      type(*), dimension(*), intent(INOUT) :: larr
      integer(C_INT), intent(IN), value :: gmini, gmaxi, gminj, gmaxj, nig, njg, nk, ghalox, &
          ghaloy, size
      integer(C_INT), intent(IN), value :: mini, maxi, minj, maxj, halox, haloy, periodx, periody
      integer(C_INT) :: status
    end function rpncomm_fast_dist

    function rpncomm_move(sendbuf, sendcount, mtyp, mtyp_len, dest, dest_len, recvbuf, recvcount, &
                          periodicity) result(status) bind(C, name='rpncomm_move')
      import :: C_INT, C_CHAR, C_SIZE_T
      implicit none
      type(*), dimension(*), intent(IN) :: sendbuf
      type(*), dimension(*), intent(INOUT) :: recvbuf
      integer(C_INT), intent(IN), value :: sendcount, recvcount, periodicity
      character(kind=C_CHAR), dimension(*), intent(IN) :: mtyp, dest
      integer(C_SIZE_T), intent(IN), value :: mtyp_len, dest_len
      integer(C_INT) :: status
    end function rpncomm_move

    function rpncomm_io_dist_coll_check(gni, gnj, halo_x, halo_y) result(status) &
                                        bind(C, name='rpncomm_io_dist_coll_check')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: gni, gnj, halo_x, halo_y
      integer(C_INT) :: status
    end function rpncomm_io_dist_coll_check

    function rpncomm_shuf_dist(setno, global, gni, gnj, dnk, local, mini, maxi, minj, maxj, lnk, &
                               liste_i, liste_o, start_x, count_x, nx, start_y, count_y, ny, &
                               periodx, periody) result(status) bind(C, name='rpncomm_shuf_dist')
      import :: C_INT
      implicit none
      type(*), dimension(*), intent(IN) :: global
      type(*), dimension(*), intent(INOUT) :: local
      integer(C_INT), intent(IN), value :: setno, gni, gnj, dnk, mini, maxi, minj, maxj, lnk, nx, &
          ny, periodx, periody
      integer(C_INT), dimension(*), intent(IN) :: liste_i, start_x, count_x, start_y, count_y
      integer(C_INT), dimension(*), intent(INOUT) :: liste_o
      integer(C_INT) :: status
    end function rpncomm_shuf_dist

    function rpncomm_shuf_coll(setno, global, gni, gnj, dnk, local, mini, maxi, minj, maxj, nk, &
                               liste_o, start_x, count_x, nx, start_y, count_y, ny) result(status) &
                               bind(C, name='rpncomm_shuf_coll')
      import :: C_INT
      implicit none
      type(*), dimension(*), intent(INOUT) :: global
      type(*), dimension(*), intent(IN) :: local
      integer(C_INT), intent(IN), value :: setno, gni, gnj, dnk, mini, maxi, minj, maxj, nk, nx, &
          ny
      integer(C_INT), dimension(*), intent(IN) :: start_x, count_x, start_y, count_y
      integer(C_INT), dimension(*), intent(INOUT) :: liste_o
      integer(C_INT) :: status
    end function rpncomm_shuf_coll

    function rpncomm_shuf_ezdist_h(setno, grid_id, global, dnk, local, lnk, liste_i, liste_o) &
                                   result(status) bind(C, name='rpncomm_shuf_ezdist_h')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: setno, grid_id, dnk, lnk
      type(*), dimension(*), intent(IN) :: global
      type(*), dimension(*), intent(INOUT) :: local
      integer(C_INT), dimension(*), intent(IN) :: liste_i
      integer(C_INT), dimension(*), intent(INOUT) :: liste_o
      integer(C_INT) :: status
    end function rpncomm_shuf_ezdist_h

    function rpncomm_grid_redist(zin, mini, maxi, i0, in, minj, maxj, j0, jn, nk, zout, ix0, ixn, &
                                 jy0, jyn, nz, zlist, gni, gnj, outpe_x, noutpe_x, outpe_y, &
                                 noutpe_y, ltok, points) result(status) &
                                 bind(C, name='rpncomm_grid_redist')
      import :: C_INT
      implicit none
      type(*), dimension(*), intent(IN) :: zin
      type(*), dimension(*), intent(INOUT) :: zout
      integer(C_INT), intent(IN), value :: mini, maxi, i0, in, minj, maxj, j0, jn, nk, ix0, ixn, &
          jy0, jyn, nz
      integer(C_INT), intent(IN), value :: gni, gnj, noutpe_x, noutpe_y, ltok, points
      integer(C_INT), dimension(*), intent(INOUT) :: zlist
      integer(C_INT), dimension(*), intent(IN) :: outpe_x, outpe_y
      integer(C_INT) :: status
    end function rpncomm_grid_redist

  end interface

end module rpn_comm_distributions_binding
