! halo_ours.F90 -- RPN_COMM_xch_halo timed for the halo section of `make bench` (bench/halo.sh):
! the field and grid of bench/halo_raw_mpi.c (n x n points per PE x 80 levels, halo 4, 4-byte
! elements, periodic in x and y, Pex x Pey = npes x 1, or npes/2 x 2 from 4 PEs), the same
! array every step as a model's time loop. Prints "ours n microseconds" (the minimum over
! trials of the slowest PE's mean over a batch).
program halo_ours
  use rpn_comm_windows
  implicit none
  integer, parameter :: NK = 80, H = 4
  integer :: me, npes, pex, pey, ierr, s, n, reps, t, r, trials
  integer, dimension(3), parameter :: sizes = [32, 64, 128]
  real, allocatable :: g(:,:,:)
  real(kind=8) :: t0, dt, worst, best
  character(len=16) :: arg

  pex = 0
  pey = 0
  call RPN_COMM_init(grid_shape, me, npes, pex, pey)
  trials = 5
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read(arg, *) trials
  endif
  do s = 1, size(sizes)
    n = sizes(s)
    reps = merge(200, merge(100, 30, n <= 64), n <= 32)
    allocate(g(1 - H:n + H, 1 - H:n + H, NK))
    g = real(me)
    call RPN_COMM_xch_halo(g, 1 - H, n + H, 1 - H, n + H, n, n, NK, H, H, .true., .true., n * pex, 0)
    best = huge(1.0d0)
    do t = 1, trials
      call RPN_COMM_barrier(RPN_COMM_GRID, ierr)
      t0 = RPN_COMM_wtime()
      do r = 1, reps
        call RPN_COMM_xch_halo(g, 1 - H, n + H, 1 - H, n + H, n, n, NK, H, H, .true., .true., n * pex, 0)
      enddo
      dt = (RPN_COMM_wtime() - t0) / reps
      call RPN_COMM_allreduce(dt, worst, 1, RPN_COMM_REAL8, RPN_COMM_MAX, RPN_COMM_GRID, ierr)
      best = min(best, worst)
    enddo
    if (me == 0) write(*, '(A,I0,A,F0.2)') 'ours ', n, ' ', best * 1.0d6
    deallocate(g)
  enddo
  call RPN_COMM_finalize(ierr)
contains
  subroutine grid_shape(px, py)
    integer, intent(INOUT) :: px, py
    integer :: np
    np = px * py
    px = np
    if (np >= 4 .and. mod(np, 2) == 0) px = np / 2
    py = np / px
  end subroutine grid_shape
end program halo_ours
