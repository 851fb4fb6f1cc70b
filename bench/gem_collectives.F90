! gem_collectives.F90 -- the collectives GEM makes every time step, called as GEM calls them, timed;
! for bench/halo_models_nodes.sh and bench/collectives.sh. Written against the legacy interface only
! (`include 'RPN_COMM.inc'`), so that the same source builds against this library and against the
! original RPN_COMM that GEM ships, and the two are compared in one run. Every result is checked.
!   allreduce1     one real*8, MPI_MAX over GRID (a CFL or convergence check)
!   allreduce2     2 real*8, MPI_SUM over GRID (the FGMRES restart)
!   allreduce16    16 real*8, MPI_SUM over GRID (an FGMRES inner iteration)
!   allreduce64    64 real*8, MPI_SUM over GRID (statistics of a field's levels)
!   schwarz        one real*4 MPI_MAX and one real*4 MPI_SUM over GRID, then one integer from PE 0
!                  (the Yin-Yang Schwarz iteration), per triple
!   barrier        RPN_COMM_barrier over GRID
!   reduce_gather  RPN_COMM_reduce of 7 real*8 (MPI_SUM) to PE 0, then RPN_COMM_gather of 3 real*8
!                  to PE 0 (the per-step statistics), per pair
!   bcast_l        one logical from PE 0 over GRID (the stop check, gem_muststop)
!   bcast_alt      one logical over GRID from PE 0 and PE npes-1 in turn
!   bcast_i        16 integers from PE 0 over GRID (a step's settings)
!   gather         one level of n x n real*4 per PE to PE 0 over GRID (a field's output)
!   transpose      RPN_COMM_transpose forward and back along x over EW (real*8: the limited-area
!                  solver's, n1g = 64 points, 20 rows, 80 levels), per pair
! Prints "<case> <n> <microseconds per call>": the median of ROUNDS rounds of up to REPS calls
! (fewer where a call is slow: a round takes about 50 ms at least), each the slowest PE's mean.
! Argument 1: ROUNDS (default 7); argument 2: n (default 64); argument 3: the cases to run, names
! separated by commas (default: all, in the order above; an unknown name stops the program).
program gem_collectives
  use iso_c_binding
  implicit none
  include 'RPN_COMM.inc'
  integer, parameter :: REPS = 50, N1G = 64, N2 = 20, N3G = 80
  integer :: me, npes, pex, pey, ierr, n, rounds, r, i, c, k, p, n1p, n3p, nrep, root, iter, a, b
  real(kind=8) :: x, y, v(64), w(64), t0, spent, worst, st(7), sts(7)
  real(kind=8), target :: sg(3)
  real(kind=8), allocatable :: times(:), za(:,:,:), zb(:,:,:)
  real(kind=8), allocatable, target :: sgs(:)
  ! the real*8 statistics are gathered through real*4 views of their buffers: RPN_COMM_gather has
  ! no explicit interface in the legacy include, and gfortran refuses real*8 and real*4 arguments to
  ! one external routine in one file without -fallow-argument-mismatch (the level gather is real*4)
  real(kind=4), pointer :: sg_view(:), sgs_view(:)
  real(kind=4), allocatable :: level(:), collected(:)
  real(kind=4) :: conv, convmax, convsum
  logical :: stop_now, bad
  integer :: settings(16)
  character(len=16) :: arg
  character(len=512) :: wanted
  character(len=13), dimension(12), parameter :: cases = [character(len=13) :: &
      'allreduce1', 'allreduce2', 'allreduce16', 'allreduce64', 'schwarz', 'barrier', 'reduce_gather', &
      'bcast_l', 'bcast_alt', 'bcast_i', 'gather', 'transpose']
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
  wanted = ''
  if (command_argument_count() >= 3) call get_command_argument(3, wanted)
  ! every name asked for must be a case
  a = 1
  do while (a <= len_trim(wanted))
    b = index(wanted(a:), ',')
    if (b == 0) then
      b = len_trim(wanted) + 1
    else
      b = a + b - 1
    endif
    if (b > a .and. .not. any(cases == wanted(a:b - 1))) then
      if (me == 0) write(*, '(A,A,A)') 'gem_collectives: no case named "', wanted(a:b - 1), '"'
      call RPN_COMM_finalize(ierr)
      stop 2
    endif
    a = b + 1
  enddo
  allocate(times(rounds), level(n * n), collected(n * n * npes), sgs(3 * npes))
  call c_f_pointer(c_loc(sg), sg_view, [2 * size(sg)])
  call c_f_pointer(c_loc(sgs), sgs_view, [2 * size(sgs)])
  n1p = (N1G + npes - 1) / npes
  n3p = (N3G + npes - 1) / npes
  allocate(za(0:n1p + 1, N2, N3G), zb(N2, n3p, npes * n1p))
  level = real(me, 4)
  za = me
  v = me
  settings = me
  do c = 1, size(cases)
    if (len_trim(wanted) > 0) then
      if (index(',' // trim(wanted) // ',', ',' // trim(cases(c)) // ',') == 0) cycle
    endif
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
      case ('allreduce2')
        bad = .false.
        do i = 1, nrep
          v(1) = me + i
          v(2) = 1
          call RPN_COMM_allreduce(v, w, 2, 'MPI_DOUBLE_PRECISION', 'MPI_SUM', 'GRID', ierr)
          bad = bad .or. w(1) /= npes * (npes - 1) / 2 + npes * i .or. w(2) /= npes
        enddo
        if (bad) call fail('allreduce2')
      case ('allreduce16')
        bad = .false.
        do i = 1, nrep
          do k = 1, 16
            v(k) = me * k + i
          enddo
          call RPN_COMM_allreduce(v, w, 16, 'MPI_DOUBLE_PRECISION', 'MPI_SUM', 'GRID', ierr)
          do k = 1, 16
            bad = bad .or. w(k) /= k * (npes * (npes - 1) / 2) + npes * i
          enddo
        enddo
        if (bad) call fail('allreduce16')
      case ('allreduce64')
        do i = 1, nrep
          call RPN_COMM_allreduce(v, w, 64, 'MPI_DOUBLE_PRECISION', 'MPI_SUM', 'GRID', ierr)
        enddo
        if (w(64) /= npes * (npes - 1) / 2) call fail('allreduce64')
      case ('schwarz')
        bad = .false.
        do i = 1, nrep
          conv = real(me + i, 4)
          call RPN_COMM_allreduce(conv, convmax, 1, 'MPI_REAL', 'MPI_MAX', 'GRID', ierr)
          call RPN_COMM_allreduce(conv, convsum, 1, 'MPI_REAL', 'MPI_SUM', 'GRID', ierr)
          iter = 1000 * i + me
          call RPN_COMM_bcast(iter, 1, 'MPI_INTEGER', 0, 'GRID', ierr)
          bad = bad .or. convmax /= real(npes - 1 + i, 4) .or. convsum /= real(npes * (npes - 1) / 2 + npes * i, 4) &
                    .or. iter /= 1000 * i
        enddo
        if (bad) call fail('schwarz')
      case ('barrier')
        do i = 1, nrep
          call RPN_COMM_barrier('GRID', ierr)
        enddo
        if (ierr /= 0) call fail('barrier')
      case ('reduce_gather')
        bad = .false.
        do i = 1, nrep
          do k = 1, 7
            st(k) = me + k + i
          enddo
          sts = -1
          call RPN_COMM_reduce(st, sts, 7, 'MPI_DOUBLE_PRECISION', 'MPI_SUM', 0, 'GRID', ierr)
          do k = 1, 3
            sg(k) = 10 * me + k + i
          enddo
          sgs = -1
          call RPN_COMM_gather(sg_view, 3, 'MPI_DOUBLE_PRECISION', sgs_view, 3, 'MPI_DOUBLE_PRECISION', 0, 'GRID', ierr)
          if (me == 0) then
            do k = 1, 7
              bad = bad .or. sts(k) /= npes * (k + i) + npes * (npes - 1) / 2
            enddo
            do p = 0, npes - 1
              do k = 1, 3
                bad = bad .or. sgs(3 * p + k) /= 10 * p + k + i
              enddo
            enddo
          endif
        enddo
        if (bad) call fail('reduce_gather')
      case ('bcast_l')
        do i = 1, nrep
          stop_now = (me == 0 .and. mod(i, 2) == 0)
          call RPN_COMM_bcast(stop_now, 1, 'MPI_LOGICAL', 0, 'GRID', ierr)
        enddo
        if (stop_now .neqv. (mod(nrep, 2) == 0)) call fail('bcast_l')
      case ('bcast_alt')
        bad = .false.
        do i = 1, nrep
          root = 0
          if (mod(i, 2) == 1) root = npes - 1
          ! the root's value changes every third call, the others' is its opposite
          stop_now = (mod(i, 3) == 0) .eqv. (me == root)
          call RPN_COMM_bcast(stop_now, 1, 'MPI_LOGICAL', root, 'GRID', ierr)
          bad = bad .or. (stop_now .neqv. (mod(i, 3) == 0))
        enddo
        if (bad) call fail('bcast_alt')
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
