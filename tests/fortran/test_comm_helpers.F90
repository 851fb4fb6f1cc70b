! PES: 1 2 4 6
! TIMEOUT: 90
!
! The original's helpers around handles, datatypes and communicators, through the legacy include,
! on both transports. The job is one grid (1 PE), 2 grids (2 and 6 PEs) or 2 multigrids (4 PEs) of
! RPN_COMM_init_multi_level:
! - RPN_COMM_split against RPN_COMM_limit for every tile of 7 to 12 points over 1 to 5 PEs, halos
!   0 to 2, fill or not (a cut limit refuses, an empty last tile, refused too); a PE number out of
!   range refused (-1);
! - RPN_COMM_grank of the names (members of all), an unknown name refused (.false.);
! - RPN_COMM_colors: 0 for 'WORLD' and 'ALLGRIDS', the multigrid and grid numbers, -1 for 'EW';
! - RPN_COMM_datyp_indx: the places of the original's table, MPI_UB and MPI_LB included, -1 else;
! - RPN_COMM_i_valid_datyp and i_datyp_extent of handles of RPN_COMM_i_datyp (MPI_DATATYPE_NULL's
!   valid, of no extent), of the null handle and of an unknown name's;
! - RPN_COMM_defo: 'DEFO' designates 'EW' and back 'GRID' (RPN_COMM_size), an unknown name refused;
! - the MPI-only routines: refused with their values on shared memory (world_get -1, group -1,
!   ngrank .false., split_by_node err -1, infotyp -1, status_size -1, custom_comm -1, i_user_datyp's
!   handle invalid, i_group's null); in the MPI build consistent with RPN_COMM_comm
!   (tests/fortran_mpi/test_comm_helpers_mpi.F90 checks them against MPI itself).
program test_comm_helpers
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, nerr
  integer :: pex, pey, mg, g, grid, wnpes, ierr, i, n, mex, nx, nxg, halox, st, expect, k
  integer :: minx, maxx, nxl, nxlmax, nx0, lmin, lmax, sz, c, f, node, peer, nrank, prank, isiz
  integer, dimension(5) :: cnt, off
  logical :: mpi, fill
  type(rpncomm_datatype) :: dt
  type(rpncomm_group) :: rg
  character(len=24), dimension(7) :: tnames = [character(len=24) :: 'MPI_INTEGER', 'MPI_REAL', 'MPI_REAL8', &
      'MPI_LOGICAL', 'MPI_CHARACTER', 'MPI_DOUBLE_COMPLEX', 'MPI_2INTEGER']
  integer, dimension(7) :: textent = [4, 4, 8, 4, 1, 16, 8]
  external :: helpers_grid

  nerr = 0
  me = 0
  call job_size(wnpes)
  mg = 1
  g = 1
  if (wnpes == 4) mg = 2
  if (wnpes == 2 .or. wnpes == 6) g = 2
  pex = wnpes / (mg * g)
  pey = 1
  grid = RPN_COMM_init_multi_level(helpers_grid, me, npes, pex, pey, mg, g)
  call RPN_COMM_rank(RPN_COMM_WORLD, k, ierr)     ! rank in the job
  mpi = RPN_COMM_datyp('MPI_INTEGER') /= -1       ! the shared-memory build has no MPI handles

  call section('RPN_COMM_split')
  do nx = 1, 5
    do nxg = 7, 12
      do halox = 0, 2
        do mex = 0, nx - 1
          do i = 0, 1
            fill = i == 1
            st = RPN_COMM_limit(mex, nx, 1, nxg, lmin, lmax, cnt, off)
            n = RPN_COMM_split(mex, nx, nxg, minx, maxx, nxl, nxlmax, halox, nx0, fill)
            expect = cnt(1) + halox
            if (fill .and. mod(cnt(1), 2) == 0) expect = expect + 1
            if (st /= 0) then       ! a cut RPN_COMM_limit refuses (an empty last tile): refused too
              call check(n == -1, 'RPN_COMM_split refuses what RPN_COMM_limit refuses')
              cycle
            endif
            call check(n == 0 .and. minx == 1 - halox .and. maxx == expect .and. nxl == lmax - lmin + 1 .and. &
                       nxlmax == cnt(1) .and. nx0 == lmin, 'RPN_COMM_split of PE '//str(mex)//' of '//str(nx)// &
                       ' over '//str(nxg)//' points')
          enddo
        enddo
      enddo
    enddo
  enddo
  n = RPN_COMM_split(3, 3, 10, minx, maxx, nxl, nxlmax, 0, nx0, .false.)
  call check(n == -1, 'RPN_COMM_split of PE 3 of 3 refused, got '//str(n))

  call section('RPN_COMM_grank and RPN_COMM_colors')
  call check(RPN_COMM_grank('GRID') .and. RPN_COMM_grank('world') .and. RPN_COMM_grank('EW') .and. &
             RPN_COMM_grank('NS') .and. RPN_COMM_grank('MULTIGRID') .and. RPN_COMM_grank('ALLGRIDS'), &
             'RPN_COMM_grank: a member of every name')
  call check(.not. RPN_COMM_grank('NOSUCH'), 'RPN_COMM_grank of an unknown name: .false.')
  call check(RPN_COMM_colors('WORLD') == 0 .and. RPN_COMM_colors('ALLGRIDS') == 0, 'colors of the job: 0')
  call check(RPN_COMM_colors('MULTIGRID') == k / (wnpes / mg), 'colors of MULTIGRID: '// &
             str(RPN_COMM_colors('MULTIGRID')))
  call check(RPN_COMM_colors('GRID') == mod(k, wnpes / mg) / (wnpes / (mg * g)), 'colors of GRID: '// &
             str(RPN_COMM_colors('GRID')))
  call check(RPN_COMM_colors('grid') == RPN_COMM_colors('GRID'), 'colors of grid (any case)')
  call check(RPN_COMM_colors('EW') == -1, 'colors of EW: -1')

  call section('datatypes')
  call check(RPN_COMM_datyp_indx('MPI_BYTE') == 1 .and. RPN_COMM_datyp_indx('MPI_UB') == 3 .and. &
             RPN_COMM_datyp_indx('mpi_integer') == 7 .and. RPN_COMM_datyp_indx('MPI_DATATYPE_NULL') == 12 .and. &
             RPN_COMM_datyp_indx('MPI_2INTEGER') == 25 .and. RPN_COMM_datyp_indx('MPI_DOUBLE') == -1, &
             'RPN_COMM_datyp_indx: the places of the original''s table')
  do i = 1, size(tnames)
    call RPN_COMM_i_datyp(tnames(i), dt)
    call check(RPN_COMM_i_valid_datyp(dt), 'a handle of '//trim(tnames(i))//' is valid')
    call check(RPN_COMM_i_datyp_extent(dt) == textent(i), 'extent of '//trim(tnames(i))//': '// &
               str(RPN_COMM_i_datyp_extent(dt)))
  enddo
  call RPN_COMM_i_datyp('MPI_DATATYPE_NULL', dt)
  call check(RPN_COMM_i_valid_datyp(dt) .and. RPN_COMM_i_datyp_extent(dt) == -1, &
             'MPI_DATATYPE_NULL: a valid handle of no extent')
  call check(.not. RPN_COMM_i_valid_datyp(NULL_rpncomm_datatype) .and. &
             RPN_COMM_i_datyp_extent(NULL_rpncomm_datatype) == -1, 'the null datatype: not valid, no extent')
  call RPN_COMM_i_datyp('MPI_NOSUCH', dt)
  call check(.not. RPN_COMM_i_valid_datyp(dt), 'the handle of an unknown name: not valid')

  call section('RPN_COMM_defo')
  call RPN_COMM_size('EW', n, ierr)
  call RPN_COMM_defo('EW')
  call RPN_COMM_size('DEFO', sz, ierr)
  call check(sz == n .and. ierr == RPN_COMM_OK, 'DEFO is EW: size '//str(sz))
  call RPN_COMM_defo('NOSUCH')
  call RPN_COMM_size(RPN_COMM_DEFAULT, sz, ierr)
  call check(sz == n, 'an unknown name leaves DEFO as it was')
  call RPN_COMM_defo('grid')
  call RPN_COMM_size('DEFO', sz, ierr)
  call check(sz == npes, 'DEFO is GRID again: size '//str(sz))

  call section('the MPI-only routines')
  call RPN_COMM_world_get(f)
  ! (the job's own handle with MPI: 0 is MPI_COMM_WORLD for Open MPI only)
  c = 0
  if (mpi) c = RPN_COMM_comm(RPN_COMM_WORLD)
  call RPN_COMM_split_by_node(c, node, peer, nrank, prank, isiz, ierr)
  call RPN_COMM_status_size(sz)
  call RPN_COMM_i_group('GRID', rg)
  if (.not. mpi) then
    call check(f == -1, 'RPN_COMM_world_get refused without MPI')
    call RPN_COMM_world_set(0)
    call check(ierr == -1 .and. nrank == -1 .and. prank == -1 .and. isiz == 0, 'RPN_COMM_split_by_node refused')
    call check(RPN_COMM_group('GRID') == -1 .and. .not. RPN_COMM_ngrank(0), 'RPN_COMM_group and _ngrank refused')
    call check(RPN_COMM_infotyp('MPI_INFO_NULL') == -1 .and. sz == -1, 'RPN_COMM_infotyp and _status_size refused')
    call check(RPN_COMM_custom_comm(0, 'MINE', RPN_COMM_SET) == -1, 'RPN_COMM_custom_comm refused')
    call RPN_COMM_i_user_datyp(0, dt)
    call check(.not. RPN_COMM_i_valid_datyp(dt), 'RPN_COMM_i_user_datyp refused: an invalid handle')
    call check(.not. c_associated(rg%p), 'RPN_COMM_i_group refused: a null group')
  else
    call check(ierr == 0 .and. isiz >= 1 .and. nrank >= 0 .and. nrank < isiz, 'RPN_COMM_split_by_node')
    call check(sz > 0, 'RPN_COMM_status_size: '//str(sz))
    call check(RPN_COMM_ngrank(RPN_COMM_group('GRID')) .and. c_associated(rg%p) .and. &
               rg%t1 == ieor(rg%t2, RPN_COMM_MAGIC), 'RPN_COMM_group, _ngrank and _i_group of GRID')
    c = RPN_COMM_custom_comm(RPN_COMM_comm('EW'), 'MINE', RPN_COMM_SET)
    call check(c == RPN_COMM_comm('EW') .and. RPN_COMM_comm('mine') == c .and. &
               RPN_COMM_custom_comm(0, 'MINE', RPN_COMM_GET) == c, 'RPN_COMM_custom_comm names EW MINE')
    call check(RPN_COMM_custom_comm(0, 'GRID', RPN_COMM_SET) == -1, 'RPN_COMM_custom_comm cannot rename GRID')
    c = RPN_COMM_custom_comm(0, 'MINE', RPN_COMM_DEL)
    call check(RPN_COMM_custom_comm(0, 'MINE', RPN_COMM_GET) == RPN_COMM_comm('RPN_COMM_NULL'), &
               'RPN_COMM_custom_comm forgets MINE')
  endif

  call finish('test_comm_helpers')
contains
  include 'tutil.inc'

  ! the job's size, before RPN_COMM_init
  subroutine job_size(n)
    integer, intent(OUT) :: n
    integer :: ierr
    call RPN_COMM_size(RPN_COMM_WORLD, n, ierr)
  end subroutine job_size
end program test_comm_helpers

subroutine helpers_grid(px, py)
  implicit none
  integer, intent(INOUT) :: px, py
  py = 1
end subroutine helpers_grid
