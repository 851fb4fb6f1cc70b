! PES: 1 2 4
! TIMEOUT: 90
!
! The original's soft barrier on both transports: rpn_comm_softbarrier of a communicator never
! registered refused (-1); rpn_comm_softbarrier_init returns the communicator it registers ('GRID''s
! in the MPI build, any number, here 7, in the shared-memory build), again the same;
! rpn_comm_softbarrier_init_all returns the job's (RPN_COMM_world_get's in the MPI build); then a
! barrier over each holds every PE until PE 0, which sleeps 1 s first, has come (measured).
! RPN_COMM_barrier_data: nothing to read at level 0 (-1); at level 1 the longest wait of a barrier
! over 'GRID' (at least 0.5 s on more than one PE: PE 0 slept) on rank 0 once, -1 elsewhere and the second time; at
! level 2 every PE's wait (npes values, the longest at least 0.5 s); level 0 again.
program test_soft_barrier
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, nerr
  integer :: pex, pey, c, jall, t0, t1, rate, world
  logical :: mpi
  integer :: ierr, n
  real(kind=8), dimension(8) :: tv
  integer, external :: rpn_comm_softbarrier_init, rpn_comm_softbarrier_init_all, rpn_comm_softbarrier
  external :: soft_barrier_grid

  nerr = 0
  me = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(soft_barrier_grid, me, npes, pex, pey)
  mpi = RPN_COMM_datyp('MPI_INTEGER') /= -1
  c = 7
  if (mpi) c = RPN_COMM_comm('GRID')
  call check(rpn_comm_softbarrier(c) == -1, 'a communicator never registered refused')
  call check(rpn_comm_softbarrier_init(c) == c, 'init returns the communicator')
  call check(rpn_comm_softbarrier_init(c) == c, 'init again')
  jall = rpn_comm_softbarrier_init_all()
  if (mpi) then
    call RPN_COMM_world_get(world)
    call check(jall == world, 'init_all: the world communicator')
  else
    call check(jall == 0, 'init_all: the job (0)')
  endif
  call system_clock(t0, rate)
  if (me == 0) call sleep(1)
  call check(rpn_comm_softbarrier(c) == 0, 'softbarrier')
  call system_clock(t1)
  call check(real(t1 - t0) / real(rate) > 0.5, 'every PE waited for PE 0')
  call system_clock(t0, rate)
  if (me == 0) call sleep(1)
  call check(rpn_comm_softbarrier(jall) == 0, 'softbarrier of init_all''s')
  call system_clock(t1)
  call check(real(t1 - t0) / real(rate) > 0.5, 'every PE waited for PE 0 again')

  call check(RPN_COMM_barrier_data(-1, tv, 1) == -1, 'barrier_data: nothing at level 0')
  call check(RPN_COMM_barrier_data(1, tv, 1) == 0, 'barrier_data: level 1')
  if (me == 0) call sleep(1)
  call RPN_COMM_barrier('GRID', ierr)
  tv = -1
  n = RPN_COMM_barrier_data(-1, tv, 1)
  if (me == 0) then
    call check(n == 1 .and. (tv(1) > 0.5 .or. (npes == 1 .and. tv(1) >= 0)), 'level 1: the longest wait '//str(n))
  else
    call check(n == -1, 'level 1: nothing off rank 0')
  endif
  call check(RPN_COMM_barrier_data(-1, tv, 1) == -1, 'level 1: read once')
  call check(RPN_COMM_barrier_data(2, tv, 1) == 0, 'barrier_data: level 2')
  if (me == 0) call sleep(1)
  call RPN_COMM_barrier('GRID', ierr)
  tv = -1
  n = RPN_COMM_barrier_data(-1, tv, size(tv))
  if (me == 0) then
    call check(n == npes .and. (maxval(tv(1:max(n, 1))) > 0.5 .or. npes == 1) .and. &
               all(tv(1:max(n, 1)) >= 0), 'level 2: every wait')
  else
    call check(n == -1, 'level 2: nothing off rank 0')
  endif
  call check(RPN_COMM_barrier_data(0, tv, 1) == 0, 'barrier_data: level 0')

  call finish('test_soft_barrier')
contains
  include 'tutil.inc'
end program test_soft_barrier

subroutine soft_barrier_grid(px, py)
  implicit none
  integer, intent(INOUT) :: px, py
  px = px
  py = py
end subroutine soft_barrier_grid
