! grid_binding.F90 -- bind(C) interfaces of the PE grid: init, blocks, topology queries, 2-D grids,
! I/O PE sets
!
! GENERATED from fortran/routines.toml by fortran/gen/gen_interfaces.py: do not edit.
!
! The C functions of the Rust core's C ABI (include/rpncomm_windows.h, cbindgen from src/ffi) that
! the routines of fortran/grid/ call; fortran/gen/check_c_binding.py (make check) checks
! every interface against that header. Conventions: status 0 = RPN_COMM_OK, -1 = RPN_COMM_ERROR;
! strings are (pointer, length) without NUL; logicals are int 0/1; handles by reference.

module rpn_comm_grid_binding
  use ISO_C_BINDING
  implicit none

  interface

    function rpncomm_init(rank, npes) result(status) bind(C, name='rpncomm_init')
      import :: C_INT
      implicit none
      integer(C_INT), intent(OUT) :: rank, npes
      integer(C_INT) :: status
    end function rpncomm_init

    function rpncomm_set_grid(pex, pey) result(status) bind(C, name='rpncomm_set_grid')
      import :: C_INT
      implicit none
      integer(C_INT), intent(INOUT) :: pex, pey
      integer(C_INT) :: status
    end function rpncomm_set_grid

    ! a second RPN_COMM_init (a batch of runs in one program) keeps the grid
    function rpncomm_init_first(pex, pey) result(status) bind(C, name='rpncomm_init_first')
      import :: C_INT
      implicit none
      integer(C_INT), intent(INOUT) :: pex, pey
      integer(C_INT) :: status
    end function rpncomm_init_first

    function rpncomm_bloc(nblocx, nblocy) result(status) bind(C, name='rpncomm_bloc')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: nblocx, nblocy
      integer(C_INT) :: status
    end function rpncomm_bloc

    function rpncomm_bloc_create(nblocx, nblocy) result(status) &
                                 bind(C, name='rpncomm_bloc_create')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: nblocx, nblocy
      integer(C_INT) :: status
    end function rpncomm_bloc_create

    function rpncomm_bloc_find(nblocx, nblocy, set, entry) result(status) &
                               bind(C, name='rpncomm_bloc_find')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: nblocx, nblocy, set
      integer(C_INT), intent(OUT) :: entry
      integer(C_INT) :: status
    end function rpncomm_bloc_find

    function rpncomm_mype(me, me_x, me_y) result(status) bind(C, name='rpncomm_mype')
      import :: C_INT
      implicit none
      integer(C_INT), intent(OUT) :: me, me_x, me_y
      integer(C_INT) :: status
    end function rpncomm_mype

    function rpncomm_module_places(values) result(status) bind(C, name='rpncomm_module_places')
      import :: C_INT
      implicit none
      integer(C_INT), dimension(14), intent(OUT) :: values
      integer(C_INT) :: status
    end function rpncomm_module_places

    function rpncomm_grid_map(xtab, ytab, n) result(status) bind(C, name='rpncomm_grid_map')
      import :: C_INT
      implicit none
      integer(C_INT), dimension(*), intent(OUT) :: xtab, ytab
      integer(C_INT), intent(IN), value :: n
      integer(C_INT) :: status
    end function rpncomm_grid_map

    function rpncomm_comm_size(name, name_len, siz) result(status) &
                               bind(C, name='rpncomm_comm_size')
      import :: C_CHAR, C_SIZE_T, C_INT
      implicit none
      character(kind=C_CHAR), dimension(*), intent(IN) :: name
      integer(C_SIZE_T), intent(IN), value :: name_len
      integer(C_INT), intent(INOUT) :: siz
      integer(C_INT) :: status
    end function rpncomm_comm_size

    function rpncomm_limit(my_id, npe, gmin, gmax, lmini, lmaxi, count, offset) result(status) &
                           bind(C, name='rpncomm_limit')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: my_id, npe, gmin, gmax
      integer(C_INT), intent(OUT) :: lmini, lmaxi
      integer(C_INT), dimension(*), intent(OUT) :: count, offset
      integer(C_INT) :: status
    end function rpncomm_limit

    function rpncomm_rank(name, name_len, rank) result(status) bind(C, name='rpncomm_rank')
      import :: C_CHAR, C_SIZE_T, C_INT
      implicit none
      character(kind=C_CHAR), dimension(*), intent(IN) :: name
      integer(C_SIZE_T), intent(IN), value :: name_len
      integer(C_INT), intent(INOUT) :: rank
      integer(C_INT) :: status
    end function rpncomm_rank

    function rpncomm_carac(values) result(status) bind(C, name='rpncomm_carac')
      import :: C_INT
      implicit none
      integer(C_INT), dimension(14), intent(OUT) :: values
      integer(C_INT) :: status
    end function rpncomm_carac

    function rpncomm_bloctopo(values) result(status) bind(C, name='rpncomm_bloctopo')
      import :: C_INT
      implicit none
      integer(C_INT), dimension(5), intent(OUT) :: values
      integer(C_INT) :: status
    end function rpncomm_bloctopo

    function rpncomm_limit_2(my_id, npe, gmin, gmax, lmini, lmaxi, count, offset, relax) &
                             result(status) bind(C, name='rpncomm_limit_2')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: my_id, npe, gmin, gmax, relax
      integer(C_INT), intent(OUT) :: lmini, lmaxi
      integer(C_INT), dimension(*), intent(OUT) :: count, offset
      integer(C_INT) :: status
    end function rpncomm_limit_2

    function rpncomm_topo_2(nxg, minx, maxx, nxl, nxlmax, halo, nx0, alongx, fill, relax) &
                            result(status) bind(C, name='rpncomm_topo_2')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: nxg, halo, alongx, fill, relax
      integer(C_INT), intent(OUT) :: minx, maxx, nxl, nxlmax, nx0
      integer(C_INT) :: status
    end function rpncomm_topo_2

    function rpncomm_set_petopo(sizx, sizy) result(status) bind(C, name='rpncomm_set_petopo')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: sizx, sizy
      integer(C_INT) :: status
    end function rpncomm_set_petopo

    function rpncomm_topo_xy(nig, njg, haloi, haloj, bounds, has_points) result(status) &
                             bind(C, name='rpncomm_topo_xy')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: nig, njg, haloi, haloj
      integer(C_INT), dimension(6), intent(OUT) :: bounds
      integer(C_INT), intent(OUT) :: has_points
      integer(C_INT) :: status
    end function rpncomm_topo_xy

    function rpncomm_get_pe(x, y, grd, sgrd, name, name_len, pe) result(status) &
                            bind(C, name='rpncomm_get_pe')
      import :: C_INT, C_CHAR, C_SIZE_T
      implicit none
      integer(C_INT), intent(IN), value :: x, y, grd, sgrd
      character(kind=C_CHAR), dimension(*), intent(IN) :: name
      integer(C_SIZE_T), intent(IN), value :: name_len
      integer(C_INT), intent(OUT) :: pe
      integer(C_INT) :: status
    end function rpncomm_get_pe

    function rpncomm_create_io_set(npes, method, setno) result(status) &
                                   bind(C, name='rpncomm_create_io_set')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: npes, method
      integer(C_INT), intent(OUT) :: setno
      integer(C_INT) :: status
    end function rpncomm_create_io_set

    function rpncomm_free_io_set(setno, freed) result(status) bind(C, name='rpncomm_free_io_set')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: setno
      integer(C_INT), intent(OUT) :: freed
      integer(C_INT) :: status
    end function rpncomm_free_io_set

    function rpncomm_is_io_pe(setno, ordinal) result(status) bind(C, name='rpncomm_is_io_pe')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: setno
      integer(C_INT), intent(OUT) :: ordinal
      integer(C_INT) :: status
    end function rpncomm_is_io_pe

    function rpncomm_io_pe_gridid(setno, n, ordinal) result(status) &
                                  bind(C, name='rpncomm_io_pe_gridid')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: setno, n
      integer(C_INT), intent(OUT) :: ordinal
      integer(C_INT) :: status
    end function rpncomm_io_pe_gridid

    function rpncomm_io_pe_size(setno, population) result(status) &
                                bind(C, name='rpncomm_io_pe_size')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: setno
      integer(C_INT), intent(OUT) :: population
      integer(C_INT) :: status
    end function rpncomm_io_pe_size

    function rpncomm_io_pe_comm(setno, fcomm) result(status) bind(C, name='rpncomm_io_pe_comm')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: setno
      integer(C_INT), intent(INOUT) :: fcomm
      integer(C_INT) :: status
    end function rpncomm_io_pe_comm

    function rpncomm_io_pe_valid_set(x, y, npes, penx, peny, diag, method) result(status) &
                                     bind(C, name='rpncomm_io_pe_valid_set')
      import :: C_INT
      implicit none
      integer(C_INT), dimension(*), intent(OUT) :: x, y
      integer(C_INT), intent(IN), value :: npes, penx, peny, diag, method
      integer(C_INT) :: status
    end function rpncomm_io_pe_valid_set

    function rpncomm_mydomain(ndomains, offset, err, domain) result(status) &
                              bind(C, name='rpncomm_mydomain')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: ndomains, offset, err
      integer(C_INT), intent(OUT) :: domain
      integer(C_INT) :: status
    end function rpncomm_mydomain

    function rpncomm_gridinit_check(multigrids, grids, place) result(status) &
                                    bind(C, name='rpncomm_gridinit_check')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: multigrids, grids
      integer(C_INT), dimension(3), intent(OUT) :: place
      integer(C_INT) :: status
    end function rpncomm_gridinit_check

    function rpncomm_grid_place(place) result(status) bind(C, name='rpncomm_grid_place')
      import :: C_INT
      implicit none
      integer(C_INT), dimension(3), intent(OUT) :: place
      integer(C_INT) :: status
    end function rpncomm_grid_place

    function rpncomm_create_2dgrid(gni, gnj, mini, maxi, minj, maxj, grid_id) result(status) &
                                   bind(C, name='rpncomm_create_2dgrid')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: gni, gnj, mini, maxi, minj, maxj
      integer(C_INT), intent(OUT) :: grid_id
      integer(C_INT) :: status
    end function rpncomm_create_2dgrid

    function rpncomm_get_2dgrid(grid_id, dim_i, dim_j, dims, starti, counti, startj, countj) &
                                result(status) bind(C, name='rpncomm_get_2dgrid')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: grid_id, dim_i, dim_j
      integer(C_INT), intent(OUT) :: dims(*), starti(*), counti(*), startj(*), countj(*)
      integer(C_INT) :: status
    end function rpncomm_get_2dgrid

    function rpncomm_is_valid_io_setno(setno, valid) result(status) &
                                       bind(C, name='rpncomm_is_valid_io_setno')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: setno
      integer(C_INT), intent(OUT) :: valid
      integer(C_INT) :: status
    end function rpncomm_is_valid_io_setno

    function rpncomm_io_pe_groups(setno, ngroups) result(status) &
                                  bind(C, name='rpncomm_io_pe_groups')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: setno
      integer(C_INT), intent(OUT) :: ngroups
      integer(C_INT) :: status
    end function rpncomm_io_pe_groups

    function rpncomm_io_pe_members(routine, routine_len, setno, capacity, x, y, ids, npe) &
                                   result(status) bind(C, name='rpncomm_io_pe_members')
      import :: C_CHAR, C_SIZE_T, C_INT
      implicit none
      character(kind=C_CHAR), dimension(*), intent(IN) :: routine
      integer(C_SIZE_T), intent(IN), value :: routine_len
      integer(C_INT), intent(IN), value :: setno, capacity
      integer(C_INT), dimension(*), intent(OUT) :: x, y, ids
      integer(C_INT), intent(OUT) :: npe
      integer(C_INT) :: status
    end function rpncomm_io_pe_members

    function rpncomm_io_pe_membership(setno, me, fcomm, status) result(ok) &
                                      bind(C, name='rpncomm_io_pe_membership')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: setno
      integer(C_INT), intent(OUT) :: me, fcomm, status
      integer(C_INT) :: ok
    end function rpncomm_io_pe_membership

    function rpncomm_io_pe_bcast(buffer, count, dtype, dtype_len, root, setno, member) &
                                 result(status) bind(C, name='rpncomm_io_pe_bcast')
      import :: C_INT, C_CHAR, C_SIZE_T
      implicit none
      type(*), dimension(*), intent(INOUT) :: buffer
      integer(C_INT), intent(IN), value :: count
      character(kind=C_CHAR), dimension(*), intent(IN) :: dtype
      integer(C_SIZE_T), intent(IN), value :: dtype_len
      integer(C_INT), intent(IN), value :: root, setno
      integer(C_INT), intent(OUT) :: member
      integer(C_INT) :: status
    end function rpncomm_io_pe_bcast

    function rpncomm_make_io_pe_list(x, y, npes, pe_nx, pe_ny, method) result(status) &
                                     bind(C, name='rpncomm_make_io_pe_list')
      import :: C_INT
      implicit none
      integer(C_INT), dimension(*), intent(OUT) :: x, y
      integer(C_INT), intent(IN), value :: npes, pe_nx, pe_ny, method
      integer(C_INT) :: status
    end function rpncomm_make_io_pe_list

    function rpncomm_check_ioset(newset, x, y, npes, pe_nx, pe_ny, pe_me, diag) result(status) &
                                 bind(C, name='rpncomm_check_ioset')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: newset
      integer(C_INT), dimension(*), intent(IN) :: x, y
      integer(C_INT), intent(IN), value :: npes, pe_nx, pe_ny, pe_me, diag
      integer(C_INT) :: status
    end function rpncomm_check_ioset

    function rpncomm_qadl(ipe, ni, nj, bounds) result(status) bind(C, name='rpncomm_qadl')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: ipe, ni, nj
      integer(C_INT), dimension(4), intent(OUT) :: bounds
      integer(C_INT) :: status
    end function rpncomm_qadl

    function rpncomm_petopo(pex, pey) result(status) bind(C, name='rpncomm_petopo')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: pex, pey
      integer(C_INT) :: status
    end function rpncomm_petopo

  end interface

end module rpn_comm_grid_binding
