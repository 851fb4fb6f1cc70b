! bench/threads.F90 -- throughput of passive one-element operations from 1..MAXT OpenMP threads
! of one PE (issue 12, thread-parallel calls), each thread on an element of its own cache line
! of the target's window, for both kinds of window: over the caller's array (user) and in memory
! the library allocates (internal, array = C_NULL_PTR). Prints one line per (kind, operation,
! threads):
!   THREADS <kind> <op> <threads> <Mops/s, all threads together, median of the trials>
! Run by bench/threads.sh under rpnrun (1 PE, the target is the PE itself: the same path as a
! remote target on shared memory).
program bench_threads
  use ISO_C_BINDING
  use rpn_comm_windows
  use omp_lib
  implicit none
  integer, parameter :: MAXT = 4, STRIDE = 32, NOPS = 200000, TRIALS = 7
  integer :: me, npes, pex, pey, ierr, nt, op, trial, kind
  type(rpncomm_window) :: win
  type(rpncomm_datatype) :: dtype
  type(rpncomm_communicator) :: com
  type(rpncomm_operator) :: opsum
  integer, dimension(STRIDE*MAXT), target :: warr
  real(kind=8), dimension(TRIALS) :: rate
  character(len=6), dimension(3), parameter :: names = ['put   ', 'get   ', 'getacc']
  character(len=8), dimension(2), parameter :: kinds = ['user    ', 'internal']

  pex = 0
  pey = 0
  call RPN_COMM_init(userinit, me, npes, pex, pey)
  call RPN_COMM_i_comm(RPN_COMM_GRID, com)
  call RPN_COMM_i_datyp(RPN_COMM_INTEGER, dtype)
  call RPN_COMM_i_oper(RPN_COMM_SUM, opsum)
  warr = 0
  do kind = 1, 2
    if (kind == 1) then
      call RPN_COMM_i_win_create(win, dtype, size(warr), com, C_LOC(warr), ierr)
    else
      call RPN_COMM_i_win_create(win, dtype, size(warr), com, C_NULL_PTR, ierr)
    endif
    call RPN_COMM_i_win_open(win, .false., ierr)
    do op = 1, 3
      do nt = 1, MAXT
        do trial = 1, TRIALS
          rate(trial) = one_trial(op, nt)
        enddo
        call sort(rate)
        if (me == 0) write(*, '(A,1X,A,1X,A,1X,I0,1X,F12.3)') 'THREADS', trim(kinds(kind)), trim(names(op)), nt, &
                                                              rate((TRIALS + 1)/2)
      enddo
    enddo
    call RPN_COMM_i_win_close(win, ierr)
    call RPN_COMM_i_win_free(win, ierr)
  enddo
  call RPN_COMM_finalize(ierr)

contains

  subroutine userinit(px, py)
    integer, intent(INOUT) :: px, py
    integer :: ier
    call RPN_COMM_size(RPN_COMM_WORLD, px, ier)
    py = 1
  end subroutine userinit

  ! Millions of operations per second of `nt` threads doing NOPS operations each.
  function one_trial(op, nt) result(mops)
    integer, intent(IN) :: op, nt
    real(kind=8) :: mops, t0, t1
    integer :: t, i, ierr, errs
    integer, dimension(1), target :: v
    errs = 0
    !$omp parallel num_threads(nt) private(t, i, ierr, v) reduction(+:errs)
    t = omp_get_thread_num()
    v(1) = 1
    !$omp barrier
    !$omp master
    t0 = omp_get_wtime()
    !$omp end master
    !$omp barrier
    do i = 1, NOPS
      select case (op)
      case (1)
        call RPN_COMM_i_win_put_r(win, C_LOC(v), 0, t*STRIDE, 1, ierr)
      case (2)
        call RPN_COMM_i_win_get_r(win, C_LOC(v), 0, t*STRIDE, 1, ierr)
      case default
        call RPN_COMM_i_win_getacc_r(win, C_LOC(v), C_NULL_PTR, .true., 0, t*STRIDE, 1, opsum, ierr)
      end select
      if (ierr /= RPN_COMM_OK) errs = errs + 1
    enddo
    !$omp barrier
    !$omp master
    t1 = omp_get_wtime()
    !$omp end master
    !$omp end parallel
    if (errs /= 0) then
      write(*, '(A,I0,A)') 'bench_threads: ', errs, ' calls failed'
      error stop 1
    endif
    mops = dble(nt) * dble(NOPS) / (t1 - t0) / 1.0d6
  end function one_trial

  subroutine sort(a)
    real(kind=8), dimension(:), intent(INOUT) :: a
    integer :: i, j
    real(kind=8) :: x
    do i = 2, size(a)
      x = a(i)
      j = i - 1
      do while (j >= 1)
        if (a(j) <= x) exit
        a(j + 1) = a(j)
        j = j - 1
      enddo
      a(j + 1) = x
    enddo
  end subroutine sort

end program bench_threads

