! halo_nodes.F90 -- RPN_COMM_xch_halo timed across (simulated) nodes, for bench/halo_nodes.sh.
! Written against the legacy interface (`include 'RPN_COMM.inc'`), so that the same source builds
! against this library and against the original RPN_COMM that GEM ships (without -DLIST: the
! original has no lists), to be compared in one run with bench/halo_raw_mpi.c.
!
! The field and grid of bench/halo_raw_mpi.c: n x n points per PE x 80 levels, halo 4, 4-byte
! words, periodic in x and y, on a Pex x Pey grid (argument 2: Pex; default npes x 1, or
! npes/2 x 2 from 4 PEs). The same array every step, as a model's time loop. Prints
!   one <n> <us>    one field (n = 32, 64, 128)
!   sep5 32 <us>    five fields of 32 x 32 x 80 exchanged one after the other (five calls)
!   list5 32 <us>   the same five in one RPN_COMM_xch_halo_list (-DLIST only)
! each the minimum over trials (argument 1, default 5) of the slowest PE's mean over a batch.
! Argument 3: the largest n timed (default 128); argument 4 (1): check every halo point of one
! exchange of each n before timing it (stops with an error if one is wrong); argument 5: the
! exchanges per batch (default 200, 100, 30 as n grows; 100 for the five fields).
program halo_nodes
  use iso_c_binding
  implicit none
  include 'RPN_COMM.inc'
  integer, parameter :: NK = 80, H = 4
  integer, dimension(3), parameter :: sizes = [32, 64, 128]
  integer :: me, npes, pex, pey, ierr, s, n, reps, t, r, trials, m, want_pex, gni, nmax, want_reps
  integer, allocatable :: g(:,:,:), f5(:,:,:,:)
  integer :: list, ierr5
  real(kind=8) :: t0, dt, worst, best
  character(len=16) :: arg
  logical :: check

  trials = 5
  want_pex = 0
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read(arg, *) trials
  endif
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read(arg, *) want_pex
  endif
  nmax = 128
  if (command_argument_count() >= 3) then
    call get_command_argument(3, arg)
    read(arg, *) nmax
  endif
  check = .false.
  if (command_argument_count() >= 4) then
    call get_command_argument(4, arg)
    check = trim(arg) == '1'
  endif
  want_reps = 0
  if (command_argument_count() >= 5) then
    call get_command_argument(5, arg)
    read(arg, *) want_reps
  endif
  pex = 0
  pey = 0
  call RPN_COMM_init(grid_shape, me, npes, pex, pey)
  do s = 1, size(sizes)
    n = sizes(s)
    if (n > nmax) exit
    gni = n * pex
    reps = merge(200, merge(100, 30, n <= 64), n <= 32)
    if (want_reps > 0) reps = want_reps
    allocate(g(1 - H:n + H, 1 - H:n + H, NK))
    if (check) call verify(n)
    g = me
    call RPN_COMM_xch_halo(g, 1 - H, n + H, 1 - H, n + H, n, n, NK, H, H, .true., .true., gni, 0)
    best = huge(1.0d0)
    do t = 1, trials
      call RPN_COMM_barrier('GRID', ierr)
      t0 = RPN_COMM_wtime()
      do r = 1, reps
        call RPN_COMM_xch_halo(g, 1 - H, n + H, 1 - H, n + H, n, n, NK, H, H, .true., .true., gni, 0)
      enddo
      dt = (RPN_COMM_wtime() - t0) / reps
      call RPN_COMM_allreduce(dt, worst, 1, 'MPI_DOUBLE_PRECISION', 'MPI_MAX', 'GRID', ierr)
      best = min(best, worst)
    enddo
    if (me == 0) write(*, '(A,I0,A,F0.2)') 'one ', n, ' ', best * 1.0d6
    deallocate(g)
  enddo

  n = 32
  gni = n * pex
  reps = 100
  if (want_reps > 0) reps = want_reps
  allocate(f5(1 - H:n + H, 1 - H:n + H, NK, 5))
  f5 = me
  best = huge(1.0d0)
  do t = 0, trials
    call RPN_COMM_barrier('GRID', ierr)
    t0 = RPN_COMM_wtime()
    do r = 1, reps
      do m = 1, 5
        call RPN_COMM_xch_halo(f5(1 - H, 1 - H, 1, m), 1 - H, n + H, 1 - H, n + H, n, n, NK, H, H, .true., .true., gni, 0)
      enddo
    enddo
    dt = (RPN_COMM_wtime() - t0) / reps
    call RPN_COMM_allreduce(dt, worst, 1, 'MPI_DOUBLE_PRECISION', 'MPI_MAX', 'GRID', ierr)
    if (t > 0) best = min(best, worst)
  enddo
  if (me == 0) write(*, '(A,I0,A,F0.2)') 'sep5 ', n, ' ', best * 1.0d6
#ifdef LIST
  call RPN_COMM_xch_halo_list_new(list, 1 - H, n + H, 1 - H, n + H, n, n, H, H, .true., .true., gni, 0, ierr5)
  do m = 1, 5
    call RPN_COMM_xch_halo_list_add(list, f5(1 - H, 1 - H, 1, m), NK, 1, ierr5)
  enddo
  best = huge(1.0d0)
  do t = 0, trials
    call RPN_COMM_barrier('GRID', ierr)
    t0 = RPN_COMM_wtime()
    do r = 1, reps
      call RPN_COMM_xch_halo_list(list, ierr5)
    enddo
    dt = (RPN_COMM_wtime() - t0) / reps
    call RPN_COMM_allreduce(dt, worst, 1, 'MPI_DOUBLE_PRECISION', 'MPI_MAX', 'GRID', ierr)
    if (t > 0) best = min(best, worst)
  enddo
  if (ierr5 /= RPN_COMM_OK) error stop 'RPN_COMM_xch_halo_list failed'
  if (me == 0) write(*, '(A,I0,A,F0.2)') 'list5 ', n, ' ', best * 1.0d6
  call RPN_COMM_xch_halo_list_free(list, ierr5)
#else
  if (.false.) list = ierr5
#endif
  deallocate(f5)
  call RPN_COMM_finalize(ierr)
contains
  ! Every point of g holds a code of its global position; after one exchange each halo point
  ! must hold its periodic image's code.
  subroutine verify(nn)
    integer, intent(IN) :: nn
    integer :: i, j, k, gi, gj, bad, x0, y0, anybad
    x0 = mod(me, pex) * nn
    y0 = (me / pex) * nn
    g = -1
    do k = 1, NK
      do j = 1, nn
        do i = 1, nn
          g(i, j, k) = code(x0 + i, y0 + j, k)
        enddo
      enddo
    enddo
    call RPN_COMM_xch_halo(g, 1 - H, nn + H, 1 - H, nn + H, nn, nn, NK, H, H, .true., .true., nn * pex, 0)
    bad = 0
    do k = 1, NK
      do j = 1 - H, nn + H
        do i = 1 - H, nn + H
          gi = modulo(x0 + i - 1, nn * pex) + 1
          gj = modulo(y0 + j - 1, nn * pey) + 1
          if (g(i, j, k) /= code(gi, gj, k)) bad = bad + 1
        enddo
      enddo
    enddo
    call RPN_COMM_allreduce(bad, anybad, 1, 'MPI_INTEGER', 'MPI_SUM', 'GRID', ierr)
    if (anybad /= 0) then
      if (me == 0) write(*, '(A,I0,A,I0)') 'halo_nodes: wrong halo points at n = ', nn, ': ', anybad
      error stop 1
    endif
    if (me == 0) write(*, '(A,I0)') 'checked ', nn
  end subroutine verify

  integer function code(gi, gj, k)
    integer, intent(IN) :: gi, gj, k
    code = (k * 4096 + gj) * 4096 + gi
  end function code

  subroutine grid_shape(px, py)
    integer, intent(INOUT) :: px, py
    integer :: np
    np = px * py
    px = np
    if (np >= 4 .and. mod(np, 2) == 0) px = np / 2
    if (want_pex > 0) px = want_pex
    py = np / px
  end subroutine grid_shape
end program halo_nodes
