! halo_binding.F90 -- bind(C) interfaces of the halo exchanges and lists of halo fields
!
! GENERATED from fortran/routines.toml by fortran/gen/gen_interfaces.py: do not edit.
!
! The C functions of the Rust core's C ABI (include/rpncomm_windows.h, cbindgen from src/ffi) that
! the routines of fortran/halo/ call; fortran/gen/check_c_binding.py (make check) checks
! every interface against that header. Conventions: status 0 = RPN_COMM_OK, -1 = RPN_COMM_ERROR;
! strings are (pointer, length) without NUL; logicals are int 0/1; handles by reference.

module rpn_comm_halo_binding
  use ISO_C_BINDING
  implicit none

  interface

    function rpncomm_xch_halo(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, &
                              periody, gni, npol_row, n) result(status) &
                              bind(C, name='rpncomm_xch_halo')
      import :: C_INT
      implicit none
      type(*), dimension(*), intent(INOUT) :: g
      integer(C_INT), intent(IN), value :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
      integer(C_INT), intent(IN), value :: periodx, periody, gni, npol_row, n
      integer(C_INT) :: status
    end function rpncomm_xch_halo

    ! RPN_COMM_xch_halo_start, RPN_COMM_xch_halo_finish)
    function rpncomm_xch_halo_list_new(minx, maxx, miny, maxy, ni, nj, halox, haloy, periodx, &
                                       periody, gni, npol_row, list) result(status) &
                                       bind(C, name='rpncomm_xch_halo_list_new')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: minx, maxx, miny, maxy, ni, nj, halox, haloy
      integer(C_INT), intent(IN), value :: periodx, periody, gni, npol_row
      integer(C_INT), intent(OUT) :: list
      integer(C_INT) :: status
    end function rpncomm_xch_halo_list_new

    function rpncomm_xch_halo_list_add(list, g, nk, n) result(status) &
                                       bind(C, name='rpncomm_xch_halo_list_add')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: list
      type(*), dimension(*), intent(INOUT) :: g
      integer(C_INT), intent(IN), value :: nk, n
      integer(C_INT) :: status
    end function rpncomm_xch_halo_list_add

    function rpncomm_xch_halo_list(list) result(status) bind(C, name='rpncomm_xch_halo_list')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: list
      integer(C_INT) :: status
    end function rpncomm_xch_halo_list

    function rpncomm_xch_halo_start(list) result(status) bind(C, name='rpncomm_xch_halo_start')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: list
      integer(C_INT) :: status
    end function rpncomm_xch_halo_start

    function rpncomm_xch_halo_finish(list) result(status) bind(C, name='rpncomm_xch_halo_finish')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: list
      integer(C_INT) :: status
    end function rpncomm_xch_halo_finish

    function rpncomm_xch_halo_list_free(list) result(status) &
                                        bind(C, name='rpncomm_xch_halo_list_free')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: list
      integer(C_INT) :: status
    end function rpncomm_xch_halo_list_free

    ! RPN_COMM_propagate_pilot_circular) and the quiet end of a PE after a refusal
    function rpncomm_xch_halo_8(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, &
                                periody, gni, npol_row) result(status) &
                                bind(C, name='rpncomm_xch_halo_8')
      import :: C_INT
      implicit none
      type(*), dimension(*), intent(INOUT) :: g
      integer(C_INT), intent(IN), value :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
      integer(C_INT), intent(IN), value :: periodx, periody, gni, npol_row
      integer(C_INT) :: status
    end function rpncomm_xch_halo_8

    function rpncomm_xch_halox(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, &
                               periody, g2, minx2, maxx2, miny2, maxy2, gni, npol_row, n) &
                               result(status) bind(C, name='rpncomm_xch_halox')
      import :: C_INT
      implicit none
      type(*), dimension(*), intent(IN) :: g
      integer(C_INT), intent(IN), value :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
      integer(C_INT), intent(IN), value :: periodx, periody
      type(*), dimension(*), intent(INOUT) :: g2
      integer(C_INT), intent(IN), value :: minx2, maxx2, miny2, maxy2, gni, npol_row, n
      integer(C_INT) :: status
    end function rpncomm_xch_halox

    function rpncomm_propagate_pilot_circular(f, minx, maxx, miny, maxy, lni, lnj, nk, pilx, pily, &
                                              hx, hy) result(status) &
                                              bind(C, name='rpncomm_propagate_pilot_circular')
      import :: C_INT
      implicit none
      type(*), dimension(*), intent(INOUT) :: f
      integer(C_INT), intent(IN), value :: minx, maxx, miny, maxy, lni, lnj, nk, pilx, pily, hx, &
          hy
      integer(C_INT) :: status
    end function rpncomm_propagate_pilot_circular

    ! the adjoint of the halo exchange (which: 8 RPN_COMM_adj_halo8, 4 adj_halo4, 0 adj_halo)
    function rpncomm_adj_halo(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, &
                              periody, gni, npol_row, which) result(status) &
                              bind(C, name='rpncomm_adj_halo')
      import :: C_INT
      implicit none
      type(*), dimension(*), intent(INOUT) :: g
      integer(C_INT), intent(IN), value :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
      integer(C_INT), intent(IN), value :: periodx, periody, gni, npol_row, which
      integer(C_INT) :: status
    end function rpncomm_adj_halo

    ! the original's halo variants: one direction, the pole flip alone, rows gathered, adjoint of
    ! xch_halox
    function rpncomm_xch_haloew(g, minx, maxx, miny, maxy, ni, jmin, jmax, nk, halox, haloy, &
                                periodx, periody) result(status) &
                                bind(C, name='rpncomm_xch_haloew')
      import :: C_INT
      implicit none
      type(*), dimension(*), intent(INOUT) :: g
      integer(C_INT), intent(IN), value :: minx, maxx, miny, maxy, ni, jmin, jmax, nk, halox, &
          haloy
      integer(C_INT), intent(IN), value :: periodx, periody
      integer(C_INT) :: status
    end function rpncomm_xch_haloew

    function rpncomm_xch_halons(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, &
                                periody) result(status) bind(C, name='rpncomm_xch_halons')
      import :: C_INT
      implicit none
      type(*), dimension(*), intent(INOUT) :: g
      integer(C_INT), intent(IN), value :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
      integer(C_INT), intent(IN), value :: periodx, periody
      integer(C_INT) :: status
    end function rpncomm_xch_halons

    function rpncomm_haloflip(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, ggni) &
                              result(status) bind(C, name='rpncomm_haloflip')
      import :: C_INT
      implicit none
      type(*), dimension(*), intent(INOUT) :: g
      integer(C_INT), intent(IN), value :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, ggni
      integer(C_INT) :: status
    end function rpncomm_haloflip

    function rpncomm_haloflip_row(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, gni, pole, &
                                  npes, mex) result(status) bind(C, name='rpncomm_haloflip_row')
      import :: C_INT
      implicit none
      type(*), dimension(*), intent(INOUT) :: g
      integer(C_INT), intent(IN), value :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, gni, &
          pole
      integer(C_INT), intent(OUT) :: npes, mex
      integer(C_INT) :: status
    end function rpncomm_haloflip_row

    function rpncomm_adj_halox(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, &
                               periody, g2, minx2, maxx2, miny2, maxy2, gni, npol_row) &
                               result(status) bind(C, name='rpncomm_adj_halox')
      import :: C_INT
      implicit none
      type(*), dimension(*), intent(INOUT) :: g
      integer(C_INT), intent(IN), value :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
      integer(C_INT), intent(IN), value :: periodx, periody
      type(*), dimension(*), intent(INOUT) :: g2
      integer(C_INT), intent(IN), value :: minx2, maxx2, miny2, maxy2, gni, npol_row
      integer(C_INT) :: status
    end function rpncomm_adj_halox

    function rpncomm_xch_halosl(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, &
                                periody, gni, npol_row, nimax) result(status) &
                                bind(C, name='rpncomm_xch_halosl')
      import :: C_INT
      implicit none
      type(*), dimension(*), intent(INOUT) :: g
      integer(C_INT), intent(IN), value :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
      integer(C_INT), intent(IN), value :: periodx, periody, gni, npol_row, nimax
      integer(C_INT) :: status
    end function rpncomm_xch_halosl

    ! the original C functions of the table of valid halo widths (also its Fortran functions: their
    ! link names with underscores)
    function rpn_comm_get_valid_halo(array, hx, hy, hz) result(status) &
                                     bind(C, name='rpn_comm_get_valid_halo')
      import :: C_INT
      implicit none
      type(*), dimension(*), intent(IN) :: array
      integer(C_INT), intent(OUT) :: hx, hy, hz
      integer(C_INT) :: status
    end function rpn_comm_get_valid_halo

    function rpn_comm_set_valid_halo(array, hx, hy, hz) result(status) &
                                     bind(C, name='rpn_comm_set_valid_halo')
      import :: C_INT
      implicit none
      type(*), dimension(*), intent(IN) :: array
      integer(C_INT), intent(IN) :: hx, hy, hz
      integer(C_INT) :: status
    end function rpn_comm_set_valid_halo

    function rpn_comm_inc_valid_halo(array, hx, hy, hz) result(status) &
                                     bind(C, name='rpn_comm_inc_valid_halo')
      import :: C_INT
      implicit none
      type(*), dimension(*), intent(IN) :: array
      integer(C_INT), intent(IN) :: hx, hy, hz
      integer(C_INT) :: status
    end function rpn_comm_inc_valid_halo

    function rpncomm_propagate_boundary(f, minx, maxx, miny, maxy, lni, lnj, nk, hx, hy, circular) &
                                        result(status) bind(C, name='rpncomm_propagate_boundary')
      import :: C_INT
      implicit none
      type(*), dimension(*), intent(INOUT) :: f
      integer(C_INT), intent(IN), value :: minx, maxx, miny, maxy, lni, lnj, nk, hx, hy, circular
      integer(C_INT) :: status
    end function rpncomm_propagate_boundary

    function rpncomm_swapns(nwen, wden, nwes, wdes, nwin, nwrn, wdin, nwis, nwrs, wdis, periody) &
                            result(status) bind(C, name='rpncomm_swapns')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: nwen
      integer(C_INT), dimension(*), intent(IN) :: wden
      integer(C_INT), intent(IN), value :: nwes
      integer(C_INT), dimension(*), intent(IN) :: wdes
      integer(C_INT), intent(IN), value :: nwin
      integer(C_INT), intent(OUT) :: nwrn
      integer(C_INT), dimension(*), intent(INOUT) :: wdin
      integer(C_INT), intent(IN), value :: nwis
      integer(C_INT), intent(OUT) :: nwrs
      integer(C_INT), dimension(*), intent(INOUT) :: wdis
      integer(C_INT), intent(IN), value :: periody
      integer(C_INT) :: status
    end function rpncomm_swapns

  end interface

end module rpn_comm_halo_binding
