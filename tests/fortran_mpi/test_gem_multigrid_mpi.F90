! PES: 2 4 8
! TIMEOUT: 120
!
! MPI transport only. GEM's Yin-Yang start as GEM does it: MPI_Init first, then
! RPN_COMM_gridinit(Pelocal, Petotal, Pex, Pey, 1, 2) (2 grids of npes/2 PEs); RPN_COMM_comm's
! handles are real MPI communicators: for every name, the size, rank and members (MPI_Allgather of
! MPI_COMM_WORLD ranks on the handle) that MPI gives, against what is computed here from the
! MPI_COMM_WORLD rank; GEM's own calls on them: point to point between Yin and Yang over
! 'GRIDPEERS' (yyg_rhs_xchng's RPN_COMM_send/recv), an MPI_Allreduce over 'MULTIGRID' and 'GRID'.
program test_gem_multigrid_mpi
  use ISO_C_BINDING
  use mpi
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, nerr
  integer :: grid, gme, gnp, pex, pey, gsize, first, mex, mey, i_, ierr, mierr, st, other
  integer :: sent(2), got(2), stat(MPI_STATUS_SIZE)
  nerr = 0
  call MPI_Init(mierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, mierr)
  call MPI_Comm_size(MPI_COMM_WORLD, npes, mierr)
  gsize = npes / 2
  pey = 1
  if (gsize >= 4) pey = 2
  pex = gsize / pey
  grid = RPN_COMM_gridinit(gme, gnp, pex, pey, 1, 2)
  first = grid * gsize
  call check(grid == me / gsize .and. gme == mod(me, gsize) .and. gnp == gsize, 'the grid of job rank '//str(me))
  st = RPN_COMM_mype(i_, mex, mey)
  call handle_is('WORLD', [(i_, i_ = 0, npes - 1)])
  call handle_is('ALLGRIDS', [(i_, i_ = 0, npes - 1)])
  call handle_is('MULTIGRID', [(i_, i_ = 0, npes - 1)])
  call handle_is('GRID', [(first + i_, i_ = 0, gsize - 1)])
  call handle_is('ALL', [(first + i_, i_ = 0, gsize - 1)])
  call handle_is('EW', [(first + mey * pex + i_, i_ = 0, pex - 1)])
  call handle_is('NS', [(first + mex + pex * i_, i_ = 0, pey - 1)])
  call handle_is('GRIDPEERS', [gme, gsize + gme])
  call handle_is('BLOC', [(first + i_, i_ = 0, gsize - 1)])
  if (gme == 0) call handle_is('BLOCMASTER', [first])
  if (gme /= 0) call check(RPN_COMM_comm('BLOCMASTER') == MPI_COMM_NULL, 'BLOCMASTER off the masters: MPI_COMM_NULL')
  ! Yin and Yang exchange two reals over GRIDPEERS, as GEM's yyg_rhs_xchng does
  sent = [1000 * grid + gme, 7]
  got = -1
  other = 1 - grid
  if (grid == 0) then
    call RPN_COMM_send(sent, 2, 'MPI_INTEGER', other, 11, 'GRIDPEERS', ierr)
    call RPN_COMM_recv(got, 2, 'MPI_INTEGER', other, 12, 'GRIDPEERS', stat, ierr)
  else
    call RPN_COMM_recv(got, 2, 'MPI_INTEGER', other, 11, 'GRIDPEERS', stat, ierr)
    call RPN_COMM_send(sent, 2, 'MPI_INTEGER', other, 12, 'GRIDPEERS', ierr)
  endif
  call check(ierr == RPN_COMM_OK .and. got(1) == 1000 * other + gme .and. got(2) == 7, &
             'send/recv over GRIDPEERS: the other grid''s PE of the same rank')
  call finish('test_gem_multigrid_mpi')
contains
  subroutine handle_is(com, members)
    character(len=*), intent(IN) :: com
    integer, dimension(:), intent(IN) :: members
    integer :: c, n, r, total
    integer, dimension(size(members)) :: gathered
    c = RPN_COMM_comm(com)
    call check(c /= MPI_COMM_NULL, 'RPN_COMM_comm('//com//') is a communicator')
    if (c == MPI_COMM_NULL) return
    call MPI_Comm_size(c, n, mierr)
    call MPI_Comm_rank(c, r, mierr)
    call check(n == size(members) .and. r == findloc(members, me, 1) - 1, &
               com//': MPI size '//str(n)//', rank '//str(r))
    call MPI_Allgather(me, 1, MPI_INTEGER, gathered, 1, MPI_INTEGER, c, mierr)
    call check(all(gathered == members), com//': the members in rank order')
    call MPI_Allreduce(1, total, 1, MPI_INTEGER, MPI_SUM, c, mierr)
    call check(total == size(members), com//': MPI_Allreduce over the handle')
  end subroutine handle_is
  include 'tutil.inc'
end program test_gem_multigrid_mpi
