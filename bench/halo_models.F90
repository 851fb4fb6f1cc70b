! halo_models.F90 -- RPN_COMM_xch_halo called the way a model calls it, for bench/halo_models.sh.
! Written against the legacy interface only (`include 'RPN_COMM.inc'`), so that the same source
! builds against this library and against the original RPN_COMM that GEM ships, and the two are
! compared in one run.
!
! A field g(1-H:n+H, 1-H:n+H, NK) of 4-byte words per PE, halo H, x periodic, y not; the grid is
! npes x 1, or npes/2 x 2 from 4 PEs. Each case makes NCALL exchanges per round, the way a
! model's time step meets its arrays:
!   same       the same array every call
!   fields     NCALL separately allocated fields, in turn
!   slices     the NCALL slices of tr(minx:maxx,miny:maxy,NK,NCALL), passed as tr(minx,miny,1,m)
!   automatic  an automatic array of a subroutine (a new stack frame each call; build with
!              -fstack-arrays as GEM does)
!   allocate   allocate, fill, exchange, deallocate
!   alternate  two arrays of one shape, in turn
! Only the exchange calls are timed. Prints "<case> <n> <microseconds per exchange>": the best
! round of ROUNDS, each the slowest PE's mean. Argument 1: ROUNDS (default 3); argument 2: n
! (default 64).
program halo_models
  use iso_c_binding
  implicit none
  include 'RPN_COMM.inc'
  integer, parameter :: NK = 80, H = 4, NCALL = 24
  type field
    integer, allocatable :: a(:,:,:)
  end type field
  integer :: me, npes, pex, pey, ierr, n, rounds, r, m, c, gni
  integer, allocatable :: g(:,:,:), g2(:,:,:), tr(:,:,:,:), w(:,:,:)
  type(field) :: f(NCALL)
  real(kind=8) :: spent, worst, best
  character(len=16) :: arg
  character(len=9), dimension(6), parameter :: cases = &
      [character(len=9) :: 'same', 'fields', 'slices', 'automatic', 'allocate', 'alternate']

  pex = 0
  pey = 0
  call RPN_COMM_init(grid_shape, me, npes, pex, pey)
  rounds = 3
  n = 64
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read(arg, *) rounds
  endif
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read(arg, *) n
  endif
  gni = n * pex
  allocate(g(1 - H:n + H, 1 - H:n + H, NK), g2(1 - H:n + H, 1 - H:n + H, NK))
  allocate(tr(1 - H:n + H, 1 - H:n + H, NK, NCALL))
  do m = 1, NCALL
    allocate(f(m)%a(1 - H:n + H, 1 - H:n + H, NK))
    f(m)%a = me + m
  enddo
  g = me
  g2 = me
  tr = me

  do c = 1, size(cases)
    best = huge(1.0d0)
    ! round 0 warms up (first touches, anything an implementation sets up once)
    do r = 0, rounds
      call RPN_COMM_barrier('GRID', ierr)
      spent = 0
      select case (trim(cases(c)))
      case ('same')
        do m = 1, NCALL
          call timed(g)
        enddo
      case ('fields')
        do m = 1, NCALL
          call timed(f(m)%a)
        enddo
      case ('slices')
        do m = 1, NCALL
          spent = spent - RPN_COMM_wtime()
          call RPN_COMM_xch_halo(tr(1 - H, 1 - H, 1, m), 1 - H, n + H, 1 - H, n + H, n, n, NK, H, H, &
                                 .true., .false., gni, 0)
          spent = spent + RPN_COMM_wtime()
        enddo
      case ('automatic')
        do m = 1, NCALL
          call automatic(n, m)
        enddo
      case ('allocate')
        do m = 1, NCALL
          allocate(w(1 - H:n + H, 1 - H:n + H, NK))
          w = me + m
          call timed(w)
          deallocate(w)
        enddo
      case ('alternate')
        do m = 1, NCALL
          if (mod(m, 2) == 0) then
            call timed(g)
          else
            call timed(g2)
          endif
        enddo
      end select
      spent = spent / NCALL
      call RPN_COMM_allreduce(spent, worst, 1, 'MPI_DOUBLE_PRECISION', 'MPI_MAX', 'GRID', ierr)
      if (r > 0) best = min(best, worst)
    enddo
    if (me == 0) write(*, '(A,1X,I0,1X,F0.2)') trim(cases(c)), n, best * 1.0d6
  enddo
  call RPN_COMM_finalize(ierr)
contains
  subroutine timed(a)
    integer, intent(INOUT) :: a(1 - H:n + H, 1 - H:n + H, NK)
    spent = spent - RPN_COMM_wtime()
    call RPN_COMM_xch_halo(a, 1 - H, n + H, 1 - H, n + H, n, n, NK, H, H, .true., .false., gni, 0)
    spent = spent + RPN_COMM_wtime()
  end subroutine timed

  subroutine automatic(nn, val)
    integer, intent(IN) :: nn, val
    integer :: a(1 - H:nn + H, 1 - H:nn + H, NK)
    a = me + val
    call timed(a)
  end subroutine automatic

  subroutine grid_shape(px, py)
    integer, intent(INOUT) :: px, py
    integer :: np
    np = px * py
    px = np
    if (np >= 4 .and. mod(np, 2) == 0) px = np / 2
    py = np / px
  end subroutine grid_shape
end program halo_models
