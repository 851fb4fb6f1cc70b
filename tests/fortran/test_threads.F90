! PES: 1 2 3
! FFLAGS: -fopenmp
! TIMEOUT: 120
!
! OpenMP threads of every PE call the operations at the same time on one window (docs/windows.md,
! "Threads"), in passive mode:
!   - every thread of every PE takes K tickets with getacc_r SUM 1 (garray before) on element 0
!     of PE 0: the tickets of one PE are distinct, all in 0..T-1 (T = all tickets), their sum
!     over all PEs is T(T-1)/2, and the element ends at T;
!   - every thread puts its own value (put_r) into its own element of every PE in turn and
!     gets it back (get_r) unchanged.
program test_threads
  use ISO_C_BINDING
  use rpn_comm_windows
  use omp_lib
  implicit none
  integer :: me, npes, nerr
#ifndef CALLS
#define CALLS 300
#endif
  integer, parameter :: NT = 4, K = CALLS

  call start('test_threads')
  call run()
  call finish('test_threads')

contains

  include 'tutil.inc'

  subroutine run()
    type(rpncomm_window) :: win
    type(rpncomm_datatype) :: dtype
    type(rpncomm_communicator) :: com
    type(rpncomm_operator) :: opsum
    integer, dimension(:), allocatable, target :: warr
    integer, dimension(NT*K), target :: tickets
    integer, dimension(1), target :: one, got, val, back
    integer :: ierr, t, i, target, errs, total, ticket_sum, all_sum, nthreads

    call RPN_COMM_i_comm(RPN_COMM_GRID, com)
    call RPN_COMM_i_datyp(RPN_COMM_INTEGER, dtype)
    call RPN_COMM_i_oper(RPN_COMM_SUM, opsum)
    allocate(warr(1 + npes*NT))
    warr = 0
    call RPN_COMM_i_win_create(win, dtype, size(warr), com, C_LOC(warr), ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'win_create')
    call RPN_COMM_i_win_open(win, .false., ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'open passive')

    errs = 0
    nthreads = 0
    !$omp parallel num_threads(NT) default(shared) private(t, i, target, one, got, val, back, ierr) &
    !$omp reduction(+:errs, nthreads)
    t = omp_get_thread_num()
    nthreads = 1
    one(1) = 1
    do i = 1, K
      call RPN_COMM_i_win_getacc_r(win, C_LOC(one), C_LOC(got), .true., 0, 0, 1, opsum, ierr)
      if (ierr /= RPN_COMM_OK) errs = errs + 1
      tickets(t*K + i) = got(1)
    enddo
    do i = 1, K
      target = mod(i, npes)
      val(1) = me*100000 + t*1000 + i
      call RPN_COMM_i_win_put_r(win, C_LOC(val), target, 1 + me*NT + t, 1, ierr)
      if (ierr /= RPN_COMM_OK) errs = errs + 1
      back(1) = -1
      call RPN_COMM_i_win_get_r(win, C_LOC(back), target, 1 + me*NT + t, 1, ierr)
      if (ierr /= RPN_COMM_OK .or. back(1) /= val(1)) errs = errs + 1
    enddo
    !$omp end parallel
    call check(nthreads == NT, 'the parallel region ran '//str(NT)//' threads, not '//str(nthreads))
    call check(errs == 0, str(errs)//' failed or wrong put/get/getacc calls in the threads')

    call RPN_COMM_i_win_close(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'close')

    total = npes*NT*K
    call check(all(tickets >= 0 .and. tickets < total), 'tickets in 0..T-1')
    do i = 2, NT*K
      if (any(tickets(1:i-1) == tickets(i))) then
        call check(.false., 'ticket '//str(tickets(i))//' handed out twice on this PE')
        exit
      endif
    enddo
    ticket_sum = sum(tickets)
    call RPN_COMM_allreduce(ticket_sum, all_sum, 1, RPN_COMM_INTEGER, RPN_COMM_SUM, RPN_COMM_GRID, ierr)
    call check(all_sum == total*(total - 1)/2, 'sum of all tickets '//str(all_sum)//', expected '//str(total*(total-1)/2))
    if (me == 0) call check(warr(1) == total, 'hot element ends at '//str(warr(1))//', expected '//str(total))
    call RPN_COMM_i_win_free(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'free')
  end subroutine run

end program test_threads
