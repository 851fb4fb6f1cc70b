! PES: 1 2 3
! FFLAGS: -fopenmp
! TIMEOUT: 120
!
! Request-based operations from 2 OpenMP threads of every PE at once, passive mode:
!   - each thread starts K one-element rput_r into its own part of the right neighbour's window,
!     flushing to it every 50 requests while the other thread goes on starting its own;
!   - after a barrier each thread waits for half of its own requests and half of the other
!     thread's (a request is completed and released by any thread, once);
!   - each thread adds 1 K times to element 2K of PE 0 with rgetacc_r (no fetch), waited at the
!     end: no update is lost (the element ends at npes * 2 * K);
!   - the values put are read back with get_r.
program test_requests_threads
  use ISO_C_BINDING
  use rpn_comm_windows
  use omp_lib
  implicit none
  integer :: me, npes, nerr
  integer, parameter :: NT = 2, K = 400

  call start('test_requests_threads')
  call run()
  call finish('test_requests_threads')

contains

  include 'tutil.inc'

  subroutine run()
    type(rpncomm_window) :: win
    type(rpncomm_datatype) :: dtype
    type(rpncomm_communicator) :: com
    type(rpncomm_operator) :: opsum
    integer, dimension(:), allocatable, target :: warr
    integer, dimension(K, 0:NT-1), target :: src
    integer, dimension(NT*K), target :: back
    type(rpncomm_request), dimension(K, 0:NT-1) :: reqs, accs
    integer, dimension(1), target :: one
    integer :: ierr, t, i, right, errs, nthreads, total

    call RPN_COMM_i_comm(RPN_COMM_GRID, com)
    call RPN_COMM_i_datyp(RPN_COMM_INTEGER, dtype)
    call RPN_COMM_i_oper(RPN_COMM_SUM, opsum)
    allocate(warr(NT*K + 1))
    warr = 0
    right = mod(me + 1, npes)
    one(1) = 1
    call RPN_COMM_i_win_create(win, dtype, size(warr), com, C_LOC(warr), ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'win_create')
    call RPN_COMM_i_win_open(win, .false., ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'open passive')

    errs = 0
    nthreads = 0
    !$omp parallel num_threads(NT) default(shared) private(t, i, ierr) reduction(+:errs, nthreads)
    t = omp_get_thread_num()
    nthreads = 1
    do i = 1, K
      src(i, t) = me*100000 + t*1000 + i
      call RPN_COMM_i_win_rput_r(win, C_LOC(src(i, t)), right, t*K + i - 1, 1, reqs(i, t), ierr)
      if (ierr /= RPN_COMM_OK) errs = errs + 1
      call RPN_COMM_i_win_rgetacc_r(win, C_LOC(one), C_NULL_PTR, .false., 0, NT*K, 1, opsum, accs(i, t), ierr)
      if (ierr /= RPN_COMM_OK) errs = errs + 1
      if (mod(i, 50) == 0) then
        call RPN_COMM_i_win_flush(win, right, ierr)
        if (ierr /= RPN_COMM_OK) errs = errs + 1
      endif
    enddo
    !$omp barrier
    do i = 1, K
      if (mod(i, 2) == 0) then
        call RPN_COMM_i_win_wait(reqs(i, t), ierr)
      else
        call RPN_COMM_i_win_wait(reqs(i, NT - 1 - t), ierr)
      endif
      if (ierr /= RPN_COMM_OK) errs = errs + 1
      call RPN_COMM_i_win_wait(accs(i, t), ierr)
      if (ierr /= RPN_COMM_OK) errs = errs + 1
    enddo
    !$omp end parallel
    call check(nthreads == NT, 'the parallel region ran '//str(NT)//' threads, not '//str(nthreads))
    call check(errs == 0, str(errs)//' failed rput_r/rgetacc_r/flush/wait calls in the threads')
    call check(all(reqs(:, :)%t1 == 0) .and. all(accs(:, :)%t1 == 0), 'every request is null after its wait')

    back = -1
    call RPN_COMM_i_win_get_r(win, C_LOC(back), right, 0, NT*K, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'get_r back')
    call check(all(back == reshape(src, [NT*K])), 'the right neighbour does not hold the values put by both threads')
    call RPN_COMM_barrier(RPN_COMM_GRID, ierr)
    call RPN_COMM_i_win_close(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'close')
    total = npes*NT*K
    if (me == 0) call check(warr(NT*K + 1) == total, 'accumulated element is '//str(warr(NT*K + 1))//', expected '//str(total))
    call RPN_COMM_i_win_free(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'free')
  end subroutine run

end program test_requests_threads
