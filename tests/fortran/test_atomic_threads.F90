! PES: 1 2 4 8
! FFLAGS: -fopenmp
! TIMEOUT: 120
!
! A counter taken to an exact value by every OpenMP thread of every PE at once, in passive mode:
!   - element 0 of PE 0 (8-byte integers) only through compare-and-swap loops (RPN_COMM_i_win_cas_r:
!     guess, swap guess+1 in, retry with the value the CAS returned);
!   - element 1 of PE 0 by CAS loops from even threads and fetch-and-add (fetchop_r SUM) from odd
!     ones, so that the two kinds of atomic do not lose each other's updates.
! Both end at PEs x threads x K. K is at most 5000 in make check (oversubscribed on 2 cores it runs
! in a few seconds), fewer where an operation is slow (over MPI between simulated nodes a passive
! operation takes milliseconds: K then aims at about two seconds, contention counted, and is at
! least 2); RPNCOMM_TEST_ATOMIC_TOTAL=N in the environment takes each counter to at least N (a
! long run's figure: 8 PEs x 2 threads to 1000000) and prints the rate.
program test_atomic_threads
  use ISO_C_BINDING
  use rpn_comm_windows
  use omp_lib
  implicit none
  integer :: me, npes, nerr
  integer, parameter :: NT = 2

  call start('test_atomic_threads')
  call run()
  call finish('test_atomic_threads')

contains

  include 'tutil.inc'

  subroutine run()
    type(rpncomm_window) :: win
    type(rpncomm_datatype) :: dtype
    type(rpncomm_communicator) :: com
    type(rpncomm_operator) :: opsum, opnoop
    integer(kind=8), dimension(:), allocatable, target :: warr
    integer(kind=8), dimension(1), target :: guess, next, old, one
    integer(kind=8) :: total, retries
    integer :: ierr, i, t, k, errs, nthreads, status, length, us, us_max
    character(len=32) :: env
    real(kind=8) :: t_start, seconds

    call RPN_COMM_i_comm(RPN_COMM_GRID, com)
    call RPN_COMM_i_datyp(RPN_COMM_INTEGER8, dtype)
    call RPN_COMM_i_oper(RPN_COMM_SUM, opsum)
    call RPN_COMM_i_oper(RPN_COMM_NO_OP, opnoop)
    allocate(warr(2))
    warr = 0
    call RPN_COMM_i_win_create(win, dtype, size(warr), com, C_LOC(warr), ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'win_create')
    call RPN_COMM_i_win_open(win, .false., ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'open passive')

    ! K: 5000, or what fits in about 2 s where an operation is slow (the fastest of 10 fetchop_r
    ! NO_OP on each PE, a PE preempted on a shared core aside; the slowest PE's), or what the
    ! environment asks for
    one = 0
    us = huge(us)
    do i = 1, 10
      t_start = omp_get_wtime()
      call RPN_COMM_i_win_fetchop_r(win, C_LOC(one), C_LOC(old), 0, 0, opnoop, ierr)
      us = min(us, max(1, int((omp_get_wtime() - t_start) * 1.0e6_8)))
    enddo
    call RPN_COMM_allreduce(us, us_max, 1, RPN_COMM_INTEGER, RPN_COMM_MAX, RPN_COMM_GRID, ierr)
    if (ierr /= RPN_COMM_OK) us_max = us
    ! (every thread of every PE contends for one element: a CAS loop's increment takes about as
    ! many tries as there are threads in all, each an operation of that cost)
    k = max(2, int(min(5000.0_8, 2.0e6_8 / (real(us_max, 8) * 2 * real(npes * NT, 8)**2))))
    call get_environment_variable('RPNCOMM_TEST_ATOMIC_TOTAL', env, length, status)
    if (status == 0 .and. length > 0) then
      read(env, *) total
      k = int((total + npes*NT - 1) / (npes*NT))
    endif
    total = int(npes, 8) * NT * k

    errs = 0
    nthreads = 0
    retries = 0
    t_start = omp_get_wtime()
    !$omp parallel num_threads(NT) default(shared) private(t, i, guess, next, old, one, ierr) &
    !$omp reduction(+:errs, nthreads, retries)
    t = omp_get_thread_num()
    nthreads = 1
    one = 1
    ! counter 0: CAS loops only
    guess = 0
    do i = 1, k
      do
        next = guess + 1
        call RPN_COMM_i_win_cas_r(win, C_LOC(guess), C_LOC(next), C_LOC(old), 0, 0, ierr)
        if (ierr /= RPN_COMM_OK) then
          errs = errs + 1
          exit
        endif
        if (old(1) == guess(1)) exit
        guess = old
        retries = retries + 1
      enddo
      guess = next
    enddo
    ! counter 1: CAS loops (even threads) against fetch-and-add (odd threads)
    guess = 0
    do i = 1, k
      if (mod(t, 2) == 0) then
        do
          next = guess + 1
          call RPN_COMM_i_win_cas_r(win, C_LOC(guess), C_LOC(next), C_LOC(old), 0, 1, ierr)
          if (ierr /= RPN_COMM_OK) then
            errs = errs + 1
            exit
          endif
          if (old(1) == guess(1)) exit
          guess = old
          retries = retries + 1
        enddo
        guess = next
      else
        call RPN_COMM_i_win_fetchop_r(win, C_LOC(one), C_LOC(old), 0, 1, opsum, ierr)
        if (ierr /= RPN_COMM_OK) errs = errs + 1
      endif
    enddo
    !$omp end parallel
    seconds = omp_get_wtime() - t_start
    call check(nthreads == NT, 'the parallel region ran '//str(NT)//' threads, not '//str(nthreads))
    call check(errs == 0, str(errs)//' failed cas_r/fetchop_r calls in the threads')

    call RPN_COMM_i_win_close(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'close')
    if (me == 0) then
      call check(warr(1) == total, 'CAS counter ends at '//str8(warr(1))//', expected '//str8(total))
      call check(warr(2) == total, 'CAS + fetch-and-add counter ends at '//str8(warr(2))//', expected '//str8(total))
      write(*, '(A,I0,A,I0,A,I0,A,F10.3,A,F14.3,A,I0,A)') '   ', npes, ' PEs x ', NT, ' threads: 2 counters to ', total, &
          ' in ', seconds, ' s on PE 0 (', 1.0e6_8 * seconds / real(2 * k, 8), ' us per increment per thread, ', &
          retries, ' CAS retries on PE 0)'
    endif
    call RPN_COMM_i_win_free(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'free')
  end subroutine run

  function str8(i) result(s)
    integer(kind=8), intent(IN) :: i
    character(len=:), allocatable :: s
    character(len=24) :: buf
    write(buf, '(I0)') i
    s = trim(buf)
  end function str8

end program test_atomic_threads
