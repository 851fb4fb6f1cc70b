! grid_globals.F90 -- the module rpn_comm_globals: the PE grid as variables, as the original's
! module of that name (4.6.10 and later; the module rpn_comm before) keeps it
!
! Codes written for the original read this PE's place in the grid from variables (pe_me, pe_mex,
! pe_nx, pe_id, bnd_east, pe_indomm, ...) rather than through calls. RPN_COMM_init (every form)
! fills them once the grid is made, from the library's own state: they are a copy for reading,
! and writing them changes nothing in the library. Reached through the modules rpn_comm (either
! form, fortran/modules/) or directly. The handle types and RPN_COMM_* constants come with them
! (the same entities as the module rpn_comm_windows's, so both modules may be used together).
!
! What the original's module also holds and this one does not (its own internal state): the
! timing table (tmg_*), the options table (pe_optn, pe_opiv, ...), the block variables (BLOC_*,
! pe_bloc, pe_blocmaster: RPN_COMM_bloc changes them after RPN_COMM_init; RPN_COMM_carac gives them),
! the MPI groups (pe_gr_*), the domains and decomposition tables, pe_location, ord_tab, and the
! host communicator (pe_grid_host). Without MPI (shared-memory build) there are no MPI
! communicators: the communicator variables stay -1.

module rpn_comm_globals
  use ISO_C_BINDING
  use rpn_comm_windows_types
  implicit none
  public
  save

  logical :: RPM_COMM_IS_INITIALIZED = .false.
  logical :: WORLD_COMM_MPI_INIT = .false.
  ! this PE and its grid: rank and coordinates (from 0), the grid's PEs along x and y and in all
  ! (pe_medomm = pe_me: one domain), the first PE (0) and whether this PE is out of the grid (0)
  integer :: pe_me = -1, pe_mex = -1, pe_mey = -1
  integer :: pe_nx = 0, pe_ny = 0, pe_tot = 0
  integer :: pe_medomm = -1, pe_dommtot = 0
  integer :: pe_pe0 = 0, pe_extra = 0
  ! ranks and sizes in the job's levels: grid, multigrid, domain (all grids), job, grid peers
  integer :: pe_me_grid = -1, pe_tot_grid = 0
  integer :: pe_me_multi_grid = -1, pe_tot_multi_grid = 0
  integer :: pe_me_a_domain = -1, pe_tot_a_domain = 0
  integer :: pe_me_all_domains = -1, pe_tot_all_domains = 0
  integer :: pe_me_peer = -1, pe_tot_peer = 0
  ! the same levels' MPI communicators (Fortran handles): pe_indomm = pe_grid = pe_defcomm =
  ! pe_wcomm ('GRID'), pe_myrow ('EW'), pe_mycol ('NS'), pe_multi_grid, pe_a_domain,
  ! pe_all_domains = WORLD_COMM_MPI ('WORLD'), pe_grid_peers
  integer, target :: WORLD_COMM_MPI = -1
  integer :: pe_indomm = -1, pe_grid = -1, pe_defcomm = -1, pe_wcomm = -1
  integer :: pe_myrow = -1, pe_mycol = -1
  integer :: pe_multi_grid = -1, pe_a_domain = -1, pe_all_domains = -1
  integer :: pe_grid_peers = -1
  ! whether this PE is on the grid's east, west, north or south edge
  logical :: bnd_east = .false., bnd_west = .false., bnd_north = .false., bnd_south = .false.
  ! the grid's map, as the original's: pe_id(x, y) is the grid rank of the PE at (x, y), with a
  ! border (x = -1 and pe_nx, y = -1 and pe_ny) repeating the opposite side, for periodic
  ! neighbours; pe_xtab(r) and pe_ytab(r) are the coordinates of grid rank r (0:pe_tot, the
  ! last entry -1)
  integer, allocatable, dimension(:,:) :: pe_id
  integer, allocatable, dimension(:) :: pe_xtab, pe_ytab
  ! domain, multigrid and grid ordinals of this PE (my_colors(1:3))
  integer :: my_colors(3) = 0

  private :: fill_grid_comms
contains

  ! Called by RPN_COMM_init (every form) once the grid is made: steps of RPN_COMM_init, which the
  ! statistics count as its own (no call of RPN_COMM_mype, _rank, ... appears). Each answer comes
  ! from the library's own state, so none can fail here but by a defect of the library.
  subroutine fill_grid_globals()
    use rpn_comm_grid_binding, only: rpncomm_module_places, rpncomm_grid_map
    integer(C_INT) :: n
    integer(C_INT), dimension(14) :: places
    integer(C_INT), allocatable, dimension(:) :: xtab, ytab
    integer :: r

    if (rpncomm_module_places(places) /= RPN_COMM_OK) error stop 1
    pe_me = places(1)
    pe_mex = places(2)
    pe_mey = places(3)
    pe_nx = places(4)
    pe_ny = places(5)
    pe_medomm = places(6)
    pe_tot = pe_nx * pe_ny
    pe_dommtot = pe_tot
    pe_pe0 = 0
    pe_extra = 0
    bnd_west = pe_mex == 0
    bnd_east = pe_mex == pe_nx - 1
    bnd_south = pe_mey == 0
    bnd_north = pe_mey == pe_ny - 1

    pe_me_grid = pe_me
    pe_tot_grid = pe_tot
    pe_me_multi_grid = places(7)
    pe_tot_multi_grid = places(8)
    pe_me_a_domain = places(9)
    pe_tot_a_domain = places(10)
    pe_me_all_domains = places(11)
    pe_tot_all_domains = places(12)
    pe_me_peer = places(13)
    pe_tot_peer = places(14)
    ! as the original's: grid, then multigrid, then domain ordinal; one domain (0)
    my_colors(1) = 0
    my_colors(2) = pe_me_a_domain / max(pe_tot_multi_grid, 1)
    my_colors(3) = pe_me_multi_grid / max(pe_tot_grid, 1)

    n = pe_tot
    allocate(xtab(n), ytab(n))
    if (rpncomm_grid_map(xtab, ytab, n) /= RPN_COMM_OK) error stop 1
    if (allocated(pe_id)) deallocate(pe_id)
    if (allocated(pe_xtab)) deallocate(pe_xtab)
    if (allocated(pe_ytab)) deallocate(pe_ytab)
    allocate(pe_id(-1:pe_nx, -1:pe_ny), pe_xtab(0:pe_tot), pe_ytab(0:pe_tot))
    pe_xtab = -1
    pe_ytab = -1
    do r = 0, pe_tot - 1
      pe_xtab(r) = xtab(r + 1)
      pe_ytab(r) = ytab(r + 1)
      pe_id(pe_xtab(r), pe_ytab(r)) = r
    enddo
    pe_id(-1, 0:pe_ny-1) = pe_id(pe_nx-1, 0:pe_ny-1)
    pe_id(pe_nx, 0:pe_ny-1) = pe_id(0, 0:pe_ny-1)
    pe_id(:, -1) = pe_id(:, pe_ny-1)
    pe_id(:, pe_ny) = pe_id(:, 0)

    call fill_grid_comms()
    WORLD_COMM_MPI_INIT = .true.
    RPM_COMM_IS_INITIALIZED = .true.
  end subroutine fill_grid_globals


  subroutine fill_grid_comms()
    use rpn_comm_p2p_binding, only: rpncomm_module_comms
    integer(C_INT), dimension(7) :: comms
    if (rpncomm_module_comms(comms, size(comms, kind=C_INT)) /= RPN_COMM_OK) error stop 1
    pe_indomm = comms(1)
    pe_grid = comms(1)
    pe_defcomm = comms(1)
    pe_wcomm = comms(1)
    pe_myrow = comms(2)
    pe_mycol = comms(3)
    pe_multi_grid = comms(4)
    pe_a_domain = comms(5)
    pe_all_domains = comms(6)
    WORLD_COMM_MPI = comms(6)
    pe_grid_peers = comms(7)
  end subroutine fill_grid_comms
end module rpn_comm_globals
