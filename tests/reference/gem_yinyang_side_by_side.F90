! gem_yinyang_side_by_side.F90 -- GEM's Yin-Yang start (RPN_COMM_gridinit with MultiGrids = 1,
! Grids = 2), printed one line per result; side_by_side.sh builds it against the original RPN_COMM
! and against this library and compares the outputs (they must be identical). Argument 'alongy':
! RPN_COMM_set_petopo(1, 999999) first, as GEM's Ptopo_alongY. Per PE (job rank from MPI): the
! grid number, Pelocal, Petotal, Pex, Pey, RPN_COMM_mype, RPN_COMM_carac; for every communicator
! name, RPN_COMM_size and RPN_COMM_rank, the size and rank MPI gives for RPN_COMM_comm's handle and
! the job ranks of its members in rank order (MPI_Allgather on that handle); allreduce over GRID
! and GRIDPEERS; a periodic halo exchange (sum of the halo).
program gem_yinyang_side_by_side
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  include 'mpif.h'
  integer :: wme, wnp, grid, gme, gnp, pex, pey, ierr, st, k, n, r, c, mn, mr
  integer :: npex, npey, m, medomm, x, y, sizex, sizey, ismaster, mymaster, mybloc, myblocx, myblocy, blocme
  character(len=8) :: dn, arg
  character(len=10), dimension(13), parameter :: names = [character(len=10) :: 'WORLD', 'ALLGRIDS', &
      'MULTIGRID', 'UNIVERSE', 'GRID', 'DOMM', 'DEFO', 'ALL', 'EW', 'NS', 'GRIDPEERS', 'BLOC', 'BLOCMASTER']
  integer, allocatable :: members(:)
  integer, parameter :: ni = 3, nj = 2
  integer :: f(0:ni + 1, 0:nj + 1), i, j
  call get_command_argument(1, arg)
  if (arg == 'alongy') call RPN_COMM_set_petopo(1, 999999)
  wnp = 0   ! MPI is not started yet: the size from the launcher
  pex = 0
  pey = 0
  call env_npes(wnp)
  pey = 1
  if (wnp / 2 >= 4) pey = 2
  pex = wnp / 2 / pey
  grid = RPN_COMM_gridinit(gme, gnp, pex, pey, 1, 2)
  call MPI_Comm_rank(MPI_COMM_WORLD, wme, ierr)
  write(*, '(A,I0,A,5I4)') 'pe ', wme, ' gridinit', grid, gme, gnp, pex, pey
  st = RPN_COMM_mype(m, x, y)
  write(*, '(A,I0,A,4I4)') 'pe ', wme, ' mype', st, m, x, y
  call RPN_COMM_carac(npex, npey, m, medomm, x, y, sizex, sizey, ismaster, mymaster, mybloc, myblocx, myblocy, blocme, dn)
  write(*, '(A,I0,A,14I4,1X,A)') 'pe ', wme, ' carac', npex, npey, m, medomm, x, y, sizex, sizey, &
       ismaster, mymaster, mybloc, myblocx, myblocy, blocme, trim(dn)
  do k = 1, size(names)
    c = RPN_COMM_comm(trim(names(k)))
    if (c == MPI_COMM_NULL) then
      write(*, '(A,I0,1X,A,A)') 'pe ', wme, trim(names(k)), ' null'
      cycle
    endif
    call RPN_COMM_size(trim(names(k)), n, ierr)
    call RPN_COMM_rank(trim(names(k)), r, ierr)
    call MPI_Comm_size(c, mn, ierr)
    call MPI_Comm_rank(c, mr, ierr)
    allocate(members(mn))
    call MPI_Allgather(wme, 1, MPI_INTEGER, members, 1, MPI_INTEGER, c, ierr)
    write(*, '(A,I0,1X,A,4I4,A,*(I4))') 'pe ', wme, trim(names(k)), n, r, mn, mr, ' :', members
    deallocate(members)
  enddo
  call RPN_COMM_allreduce(wme, n, 1, 'MPI_INTEGER', 'MPI_SUM', 'GRID', ierr)
  call RPN_COMM_allreduce(wme, r, 1, 'MPI_INTEGER', 'MPI_SUM', 'GRIDPEERS', ierr)
  write(*, '(A,I0,A,2I6)') 'pe ', wme, ' allreduce grid gridpeers', n, r
  f = -1
  do j = 1, nj
    do i = 1, ni
      f(i, j) = 10000 * grid + 100 * (x * ni + i) + y * nj + j
    enddo
  enddo
  call RPN_COMM_xch_halo(f, 0, ni + 1, 0, nj + 1, ni, nj, 1, 1, 1, .true., .true., pex * ni, 0)
  write(*, '(A,I0,A,I12)') 'pe ', wme, ' halo sum', sum(f)
  call RPN_COMM_finalize(ierr)
contains
  subroutine env_npes(n)
    integer, intent(INOUT) :: n
    character(len=16) :: v
    integer :: l, s
    call get_environment_variable('OMPI_COMM_WORLD_SIZE', v, l, s)
    if (s == 0 .and. l > 0) read(v, *) n
  end subroutine env_npes
end program gem_yinyang_side_by_side
