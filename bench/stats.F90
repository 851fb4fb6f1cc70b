! bench/stats.F90 -- the loops bench/stats.sh times with the statistics off and on: passive put_r of
! one element and fence epochs with one put_r, on a window of 1024 integers, each PE on its right
! neighbour. The measure is CPU time (cpu_time: what this process spent, not the wall clock), best of
! `trials` trials: on a machine shared with other jobs, the wall clock measures the others' load, while
! the CPU time of a PE that never waits (1 PE) is the cost of the calls themselves.
!
!   rpnrun -n 1 build/bench/stats/stats_loops [trials=7] [n=400000]
!
! Output (PE 0): STATS_RESULT <key> <ns per operation or epoch>; exit status 1 on a wrong value.
program stats_loops
  use ISO_C_BINDING
  use ISO_FORTRAN_ENV, only: ERROR_UNIT
  use rpn_comm_windows
  implicit none
  integer, parameter :: NW = 1024
  integer :: me, npes, pex, pey, ier, right, i, k, trials, n, nargs, errors
  integer, dimension(NW), target :: src
  integer, dimension(:), pointer :: wp
  type(rpncomm_window) :: win
  type(rpncomm_datatype) :: dt
  type(rpncomm_communicator) :: com
  type(C_PTR) :: p
  real :: t0, t1
  real(kind=8) :: best_put, best_fence
  character(len=64) :: arg
  external :: one_row

  trials = 7
  n = 400000
  nargs = command_argument_count()
  do i = 1, nargs
    call get_command_argument(i, arg)
    if (arg(1:7) == 'trials=') read(arg(8:), *) trials
    if (arg(1:2) == 'n=') read(arg(3:), *) n
  enddo
  pex = 0
  pey = 0
  call RPN_COMM_init(one_row, me, npes, pex, pey)
  right = mod(me + 1, npes)
  call RPN_COMM_i_comm(RPN_COMM_GRID, com)
  call RPN_COMM_i_datyp(RPN_COMM_INTEGER, dt)
  call RPN_COMM_i_win_create(win, dt, NW, com, C_NULL_PTR, ier)
  p = RPN_COMM_i_win_get_ptr(win, 1, ier)
  call c_f_pointer(p, wp, [NW])
  do i = 1, NW
    src(i) = 1000 * me + i
  enddo
  errors = 0
  best_put = huge(1d0)
  best_fence = huge(1d0)
  do k = 1, trials
    call RPN_COMM_barrier(RPN_COMM_GRID, ier)
    call RPN_COMM_i_win_open(win, .false., ier)
    call cpu_time(t0)
    do i = 1, n
      call RPN_COMM_i_win_put_r(win, C_LOC(src(mod(i - 1, NW) + 1)), right, mod(i - 1, NW), 1, ier)
    enddo
    call cpu_time(t1)
    call RPN_COMM_i_win_close(win, ier)
    best_put = min(best_put, dble(t1 - t0) / n)
    call RPN_COMM_barrier(RPN_COMM_GRID, ier)
    call cpu_time(t0)
    do i = 1, n / 20
      call RPN_COMM_i_win_open(win, .true., ier)
      call RPN_COMM_i_win_put_r(win, C_LOC(src(mod(i - 1, NW) + 1)), right, mod(i - 1, NW), 1, ier)
      call RPN_COMM_i_win_close(win, ier)
    enddo
    call cpu_time(t1)
    best_fence = min(best_fence, dble(t1 - t0) / (n / 20))
    call RPN_COMM_barrier(RPN_COMM_GRID, ier)
    ! every element was last written by the left neighbour with its own src
    do i = 1, NW
      if (wp(i) /= 1000 * mod(me - 1 + npes, npes) + i) errors = errors + 1
    enddo
  enddo
  call RPN_COMM_i_win_free(win, ier)
  if (me == 0) then
    write(*, '(A,F10.2)') 'STATS_RESULT passive_put ', best_put * 1d9
    write(*, '(A,F10.2)') 'STATS_RESULT fence_put ', best_fence * 1d9
  endif
  if (errors > 0) write(ERROR_UNIT, '(A,I0,A,I0)') 'BENCH ERROR on PE ', me, ': wrong values: ', errors
  call RPN_COMM_finalize(ier)
  if (errors > 0) error stop 1
end program stats_loops

subroutine one_row(px, py)
  use rpn_comm_windows
  implicit none
  integer, intent(INOUT) :: px, py
  integer :: ier
  call RPN_COMM_size(RPN_COMM_WORLD, px, ier)
  py = 1
end subroutine one_row
