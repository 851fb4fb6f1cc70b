! halo_ours.F90 -- RPN_COMM_xch_halo timed for the halo section of `make bench` (bench/halo.sh):
! the field and grid of bench/halo_raw_mpi.c (n x n points per PE x 80 levels, halo 4, 4-byte
! elements, periodic in x and y, Pex x Pey = npes x 1, or npes/2 x 2 from 4 PEs), the same
! array every step as a model's time loop. Prints "ours n microseconds" (the minimum over
! trials of the slowest PE's mean over a batch). Then five fields of n x n x 80 (n = 32, 64):
! "sep5 n us" exchanged one after the other (five RPN_COMM_xch_halo), "list5 n us" in one list
! (RPN_COMM_xch_halo_list: one message per neighbour for the five); built with -DNO_LIST (a
! library without lists) only the former.
program halo_ours
  use rpn_comm_windows
  implicit none
  integer, parameter :: NK = 80, H = 4
  integer :: me, npes, pex, pey, ierr, s, n, reps, t, r, trials
  integer, dimension(3), parameter :: sizes = [32, 64, 128]
  real, allocatable :: g(:,:,:), f5(:,:,:,:)
  integer :: list, ierr5, m
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
  do s = 1, 2
    n = sizes(s)
    reps = merge(100, 40, n <= 32)
    allocate(f5(1 - H:n + H, 1 - H:n + H, NK, 5))
    f5 = real(me)
#ifndef NO_LIST
    call RPN_COMM_xch_halo_list_new(list, 1 - H, n + H, 1 - H, n + H, n, n, H, H, .true., .true., n * pex, 0, ierr5)
    do m = 1, 5
      call RPN_COMM_xch_halo_list_add(list, f5(1 - H, 1 - H, 1, m), NK, 1, ierr5)
    enddo
#endif
    best = huge(1.0d0)
    do t = 1, trials
      call RPN_COMM_barrier(RPN_COMM_GRID, ierr)
      t0 = RPN_COMM_wtime()
      do r = 1, reps
        do m = 1, 5
          call RPN_COMM_xch_halo(f5(1 - H, 1 - H, 1, m), 1 - H, n + H, 1 - H, n + H, n, n, NK, H, H, .true., .true., n * pex, 0)
        enddo
      enddo
      dt = (RPN_COMM_wtime() - t0) / reps
      call RPN_COMM_allreduce(dt, worst, 1, RPN_COMM_REAL8, RPN_COMM_MAX, RPN_COMM_GRID, ierr)
      best = min(best, worst)
    enddo
    if (me == 0) write(*, '(A,I0,A,F0.2)') 'sep5 ', n, ' ', best * 1.0d6
#ifndef NO_LIST
    best = huge(1.0d0)
    do t = 1, trials
      call RPN_COMM_barrier(RPN_COMM_GRID, ierr)
      t0 = RPN_COMM_wtime()
      do r = 1, reps
        call RPN_COMM_xch_halo_list(list, ierr5)
      enddo
      dt = (RPN_COMM_wtime() - t0) / reps
      call RPN_COMM_allreduce(dt, worst, 1, RPN_COMM_REAL8, RPN_COMM_MAX, RPN_COMM_GRID, ierr)
      best = min(best, worst)
    enddo
    if (ierr5 /= RPN_COMM_OK) error stop 'RPN_COMM_xch_halo_list failed'
    if (me == 0) write(*, '(A,I0,A,F0.2)') 'list5 ', n, ' ', best * 1.0d6
    call RPN_COMM_xch_halo_list_free(list, ierr5)
#endif
    deallocate(f5)
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
