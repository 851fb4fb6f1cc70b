! gem_collectives.F90 -- the collectives GEM makes every time step, called as GEM calls them, timed;
! for bench/halo_models_nodes.sh. Written against the legacy interface only (`include 'RPN_COMM.inc'`),
! so that the same source builds against this library and against the original RPN_COMM that GEM
! ships, and the two are compared in one run.
!   allreduce1   one real*8, MPI_MAX over GRID (a CFL or convergence check)
!   allreduce64  64 real*8, MPI_SUM over GRID (statistics of a field's levels)
!   bcast_l      one logical from PE 0 over GRID (the stop check, gem_muststop)
!   bcast_i      16 integers from PE 0 over GRID (a step's settings)
!   gather       one level of n x n real*4 per PE to PE 0 over GRID (a field's output)
!   transpose    RPN_COMM_transpose forward and back along x over EW (real*8: the limited-area
!                solver's, n1g = 64 points, 20 rows, 80 levels), per pair
! Prints "<case> <microseconds per call>": the median of ROUNDS rounds of up to REPS calls (fewer
! where a call is slow: a round takes about 50 ms at least), each the slowest PE's mean. Argument 1: ROUNDS (default 7); argument 2: n (default 64).
program gem_collectives
  use iso_c_binding
  implicit none
  include 'RPN_COMM.inc'
  integer, parameter :: REPS = 50, N1G = 64, N2 = 20, N3G = 80
  integer :: me, npes, pex, pey, ierr, n, rounds, r, i, c, n1p, n3p, nrep
  real(kind=8) :: x, y, v(64), w(64), t0, spent, worst
  real(kind=8), allocatable :: times(:), za(:,:,:), zb(:,:,:)
  real(kind=4), allocatable :: level(:), collected(:)
  logical :: stop_now
  integer :: settings(16)
  character(len=16) :: arg
  character(len=11), dimension(6), parameter :: cases = &
      [character(len=11) :: 'allreduce1', 'allreduce64', 'bcast_l', 'bcast_i', 'gather', 'transpose']
  external :: row_grid

  pex = 0
  pey = 0
  call RPN_COMM_init(row_grid, me, npes, pex, pey)
  rounds = 7
  n = 64
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read(arg, *) rounds
  endif
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read(arg, *) n
  endif
  allocate(times(rounds), level(n * n), collected(n * n * npes))
  n1p = (N1G + npes - 1) / npes
  n3p = (N3G + npes - 1) / npes
  allocate(za(0:n1p + 1, N2, N3G), zb(N2, n3p, npes * n1p))
  level = real(me, 4)
  za = me
  v = me
  settings = me
  do c = 1, size(cases)
    ! round 0 warms up (3 calls) and sets the calls per round, the same on every PE
    nrep = 3
    do r = 0, rounds
      call RPN_COMM_barrier('GRID', ierr)
      t0 = RPN_COMM_wtime()
      select case (trim(cases(c)))
      case ('allreduce1')
        do i = 1, nrep
          x = me + i
          call RPN_COMM_allreduce(x, y, 1, 'MPI_DOUBLE_PRECISION', 'MPI_MAX', 'GRID', ierr)
        enddo
        if (y /= npes - 1 + nrep) call fail('allreduce1')
      case ('allreduce64')
        do i = 1, nrep
          call RPN_COMM_allreduce(v, w, 64, 'MPI_DOUBLE_PRECISION', 'MPI_SUM', 'GRID', ierr)
        enddo
        if (w(64) /= npes * (npes - 1) / 2) call fail('allreduce64')
      case ('bcast_l')
        do i = 1, nrep
          stop_now = (me == 0 .and. mod(i, 2) == 0)
          call RPN_COMM_bcast(stop_now, 1, 'MPI_LOGICAL', 0, 'GRID', ierr)
        enddo
        if (stop_now .neqv. (mod(nrep, 2) == 0)) call fail('bcast_l')
      case ('bcast_i')
        do i = 1, nrep
          settings = me + i
          call RPN_COMM_bcast(settings, 16, 'MPI_INTEGER', 0, 'GRID', ierr)
        enddo
        if (settings(16) /= nrep) call fail('bcast_i')
      case ('gather')
        do i = 1, nrep
          call RPN_COMM_gather(level, n * n, 'MPI_REAL', collected, n * n, 'MPI_REAL', 0, 'GRID', ierr)
        enddo
        if (me == 0 .and. collected(n * n * npes) /= npes - 1) call fail('gather')
      case ('transpose')
        do i = 1, nrep
          call RPN_COMM_transpose(za, 0, n1p + 1, N1G, N2, 1, n3p, N3G, zb, 1, 2)
          call RPN_COMM_transpose(za, 0, n1p + 1, N1G, N2, 1, n3p, N3G, zb, -1, 2)
        enddo
      end select
      spent = (RPN_COMM_wtime() - t0) / nrep
      call RPN_COMM_allreduce(spent, worst, 1, 'MPI_DOUBLE_PRECISION', 'MPI_MAX', 'GRID', ierr)
      if (r > 0) times(r) = worst
      if (r == 0) nrep = max(3, min(REPS, int(0.05d0 / max(worst, 1d-9))))
    enddo
    call sort(times)
    if (me == 0) write(*, '(A,1X,I0,1X,F0.2)') trim(cases(c)), n, times((rounds + 1) / 2) * 1.0d6
  enddo
  call RPN_COMM_finalize(ierr)
contains
  subroutine fail(what)
    character(len=*), intent(IN) :: what
    write(*, '(A,A,A,I0)') 'gem_collectives: wrong result of ', what, ' on PE ', me
    call RPN_COMM_finalize(ierr)
    stop 1
  end subroutine fail

  subroutine sort(t)
    real(kind=8), intent(INOUT) :: t(:)
    integer :: a, b
    real(kind=8) :: tmp
    do a = 1, size(t)
      do b = a + 1, size(t)
        if (t(b) < t(a)) then
          tmp = t(a); t(a) = t(b); t(b) = tmp
        endif
      enddo
    enddo
  end subroutine sort
end program gem_collectives

! every PE on one row: the x transpose then spans the job (as GEM's limited-area solver's rows)
subroutine row_grid(px, py)
  integer, intent(INOUT) :: px, py
  px = px * py
  py = 1
end subroutine row_grid
