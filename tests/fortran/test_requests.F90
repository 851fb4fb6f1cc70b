! PES: 1 2 3 4
! TIMEOUT: 120
!
! Request-based operations: RPN_COMM_i_win_rput_r, _rget_r, _rgetacc_r, completed by
! _wait, a _test loop, _flush (one target), _flush_all, or close, in passive, fence and group
! mode; every PE works on its right neighbour. Then the refused cases: a request waited twice
! (null, and a stale copy), a request never made, a request whose window was freed, a flush
! outside a passive epoch, a refused rput (null request back), requests never waited for when
! the window is freed (reported, the window still freed). Last, many short fence and group
! epochs on one window each (STRESS rounds): a close that leaves one rput or rget incomplete now
! and then (MPICH's ch4:ucx between nodes did, 1 close in 50-100) fails here in most runs.
program test_requests
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr
  integer, parameter :: N = 64
  integer, parameter :: STRESS = 16
  integer :: left, right

  call start('test_requests')
  left = mod(me - 1 + npes, npes)
  right = mod(me + 1, npes)
  call passive_cases()
  call active_cases(.false.)
  call active_cases(.true.)
  call active_stress(.false.)
  call active_stress(.true.)
  call error_cases()
  call finish('test_requests')

contains

  include 'tutil.inc'

  subroutine make_window(win, warr)
    type(rpncomm_window), intent(OUT) :: win
    integer, dimension(:), intent(INOUT), target :: warr
    type(rpncomm_datatype) :: dtype
    type(rpncomm_communicator) :: com
    integer :: ierr
    call RPN_COMM_i_comm(RPN_COMM_GRID, com)
    call RPN_COMM_i_datyp(RPN_COMM_INTEGER, dtype)
    call RPN_COMM_i_win_create(win, dtype, size(warr), com, C_LOC(warr), ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'win_create')
  end subroutine make_window

  ! waits for every request of reqs, all must succeed and become null
  subroutine wait_all(reqs, what)
    type(rpncomm_request), dimension(:), intent(INOUT) :: reqs
    character(len=*), intent(IN) :: what
    integer :: i, ierr, bad
    bad = 0
    do i = 1, size(reqs)
      call RPN_COMM_i_win_wait(reqs(i), ierr)
      if (ierr /= RPN_COMM_OK) bad = bad + 1
      if (reqs(i)%t1 /= 0 .or. reqs(i)%t2 /= 0 .or. c_associated(reqs(i)%p)) bad = bad + 1
    enddo
    call check(bad == 0, what//': '//str(bad)//' waits failed or left the request not null')
  end subroutine wait_all

  ! the N elements at offset `at` of PE right, read back with get_r, must be base + 1 .. base + N
  subroutine check_right(win, at, base, what)
    type(rpncomm_window), intent(IN) :: win
    integer, intent(IN) :: at, base
    character(len=*), intent(IN) :: what
    integer, dimension(N), target :: back
    integer :: i, ierr
    back = -1
    call RPN_COMM_i_win_get_r(win, C_LOC(back), right, at, N, ierr)
    call check_ierr(ierr, RPN_COMM_OK, what//': get_r back')
    call check(all(back == [(base + i, i = 1, N)]), what//': the target does not hold the values put')
  end subroutine check_right

  subroutine passive_cases()
    type(rpncomm_window) :: win
    integer, dimension(:), allocatable, target :: warr
    integer, dimension(N), target :: src, dst, fetched
    integer, dimension(1), target :: one
    type(rpncomm_request), dimension(N) :: reqs
    type(rpncomm_request) :: req
    type(rpncomm_operator) :: opsum
    logical :: flag
    integer :: i, ierr, polls, bad, at

    call section('passive: rput + flush, test loop, rget + wait, rgetacc + flush_all, close')
    allocate(warr(8*N))
    warr = 0
    call make_window(win, warr)
    call RPN_COMM_i_oper(RPN_COMM_SUM, opsum)
    call RPN_COMM_i_win_open(win, .false., ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'open passive')

    ! N one-element rputs to the right neighbour, one flush to it
    src = [(1000*me + i, i = 1, N)]
    bad = 0
    do i = 1, N
      call RPN_COMM_i_win_rput_r(win, C_LOC(src(i)), right, i - 1, 1, reqs(i), ierr)
      if (ierr /= RPN_COMM_OK) bad = bad + 1
    enddo
    call check(bad == 0, str(bad)//' rput_r refused')
    call RPN_COMM_i_win_flush(win, right, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'flush(right)')
    call check_right(win, 0, 1000*me, 'rput + flush')
    call wait_all(reqs, 'waits after the flush')

    ! one rput of N elements, completed by a test loop
    src = [(2000*me + i, i = 1, N)]
    call RPN_COMM_i_win_rput_r(win, C_LOC(src), right, N, N, req, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'rput_r of N elements')
    flag = .false.
    polls = 0
    do while (.not. flag .and. polls < 100000)
      call RPN_COMM_i_win_test_req(req, flag, ierr)
      if (ierr /= RPN_COMM_OK) exit
      polls = polls + 1
    enddo
    call check_ierr(ierr, RPN_COMM_OK, 'test')
    call check(flag, 'test never said complete')
    call check(.not. c_associated(req%p) .and. req%t1 == 0, 'a complete test leaves the request null')
    call check_right(win, N, 2000*me, 'rput + test loop')

    ! rget of what the last put wrote, completed by wait; and the same one element at a time
    dst = -1
    call RPN_COMM_i_win_rget_r(win, C_LOC(dst), right, N, N, req, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'rget_r')
    call RPN_COMM_i_win_wait(req, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'wait (rget)')
    call check(all(dst == [(2000*me + i, i = 1, N)]), 'rget_r + wait: wrong values')
    dst = -1
    do i = 1, N
      call RPN_COMM_i_win_rget_r(win, C_LOC(dst(i)), right, N + i - 1, 1, reqs(i), ierr)
    enddo
    call RPN_COMM_i_win_flush_all(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'flush_all (rgets)')
    call check(all(dst == [(2000*me + i, i = 1, N)]), 'one-element rget_r + flush_all: wrong values')
    call wait_all(reqs, 'waits after the rgets')

    ! N accumulates of 1 to this PE's element of the right neighbour, fetching the value before:
    ! issued in order, they fetch 0, 1, ..., N-1 (nobody else touches that element)
    at = 2*N + me
    one(1) = 1
    fetched = -1
    do i = 1, N
      call RPN_COMM_i_win_rgetacc_r(win, C_LOC(one), C_LOC(fetched(i)), .true., right, at, 1, opsum, reqs(i), ierr)
      if (ierr /= RPN_COMM_OK) bad = bad + 1
    enddo
    call check(bad == 0, 'rgetacc_r refused')
    call RPN_COMM_i_win_flush_all(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'flush_all (rgetacc)')
    call check(all(fetched == [(i - 1, i = 1, N)]), 'rgetacc_r SUM: fetched values are not 0 .. N-1')
    call wait_all(reqs, 'waits after the accumulates')
    dst(1) = -1
    call RPN_COMM_i_win_get_r(win, C_LOC(dst), right, at, 1, ierr)
    call check(dst(1) == N, 'rgetacc_r SUM: the element is '//str(dst(1))//', expected '//str(N))

    ! accumulates with the window's default operator (null oper), no fetch, completed by wait
    do i = 1, N
      call RPN_COMM_i_win_rgetacc_r(win, C_LOC(one), C_NULL_PTR, .true., right, at, 1, NULL_rpncomm_operator, &
                                    reqs(i), ierr)
    enddo
    call wait_all(reqs, 'waits of the plain accumulates')
    call RPN_COMM_i_win_get_r(win, C_LOC(dst), right, at, 1, ierr)
    call check(dst(1) == 2*N, 'plain rgetacc_r: the element is '//str(dst(1))//', expected '//str(2*N))

    ! rputs left to the close, waited for after it
    src = [(3000*me + i, i = 1, N)]
    do i = 1, N
      call RPN_COMM_i_win_rput_r(win, C_LOC(src(i)), right, 4*N + i - 1, 1, reqs(i), ierr)
    enddo
    call RPN_COMM_i_win_close(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'close passive')
    call check(all(warr(4*N+1:5*N) == [(3000*left + i, i = 1, N)]), 'passive close: the left neighbour''s rputs are missing')
    call wait_all(reqs, 'waits after the close')
    call RPN_COMM_i_win_free(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'free')
  end subroutine passive_cases

  ! fence (group = .false.) or group mode: rputs and rgets complete at close (or at a wait)
  subroutine active_cases(group)
    logical, intent(IN) :: group
    type(rpncomm_window) :: win
    integer, dimension(:), allocatable, target :: warr
    integer, dimension(N), target :: src, dst
    type(rpncomm_request), dimension(N) :: reqs
    type(rpncomm_request) :: req
    integer :: i, ierr
    character(len=6) :: mode

    mode = merge('group ', 'fence ', group)
    call section(trim(mode)//' mode: rput_r and rget_r complete at close')
    allocate(warr(2*N))
    warr = [(100*me + i, i = 1, 2*N)]
    call make_window(win, warr)
    if (group) then
      call RPN_COMM_i_win_group(win, [right], [left], ierr)
      call check_ierr(ierr, RPN_COMM_OK, 'group')
    endif
    call RPN_COMM_i_win_open(win, .true., ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'open active')
    src = [(5000*me + i, i = 1, N)]
    dst = -1
    do i = 1, N
      call RPN_COMM_i_win_rput_r(win, C_LOC(src(i)), right, i - 1, 1, reqs(i), ierr)
    enddo
    ! the second half of the right neighbour's window, as it was at open
    call RPN_COMM_i_win_rget_r(win, C_LOC(dst), right, N, N, req, ierr)
    call check_ierr(ierr, RPN_COMM_OK, trim(mode)//' rget_r')
    call RPN_COMM_i_win_flush_all(win, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, trim(mode)//' flush_all outside a passive epoch')
    call RPN_COMM_i_win_close(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, trim(mode)//' close')
    call check(all(warr(1:N) == [(5000*left + i, i = 1, N)]), trim(mode)//': the left neighbour''s rputs are missing')
    call check(all(dst == [(100*right + i, i = N + 1, 2*N)]), trim(mode)//': rget_r got wrong values')
    call wait_all(reqs, trim(mode)//' waits after close')
    call RPN_COMM_i_win_wait(req, ierr)
    call check_ierr(ierr, RPN_COMM_OK, trim(mode)//' wait of the rget after close')
    call RPN_COMM_i_win_free(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, trim(mode)//' free')
  end subroutine active_cases

  ! STRESS epochs of fence (group = .false.) or group mode on one window: in each, N one-element
  ! rputs to the right neighbour and one rget of the other half of its window, which it changed
  ! (locally, between epochs) for this round; the close must complete all of them every time
  subroutine active_stress(group)
    logical, intent(IN) :: group
    type(rpncomm_window) :: win
    integer, dimension(:), allocatable, target :: warr
    integer, dimension(N), target :: src, dst
    type(rpncomm_request), dimension(N) :: reqs
    type(rpncomm_request) :: req
    integer :: i, r, ierr, bad_puts, bad_gets, bad_calls
    character(len=6) :: mode

    mode = merge('group ', 'fence ', group)
    call section(trim(mode)//' mode: '//str(STRESS)//' epochs of rput_r and rget_r completed by close')
    allocate(warr(2*N))
    warr = 0
    call make_window(win, warr)
    if (group) then
      call RPN_COMM_i_win_group(win, [right], [left], ierr)
      call check_ierr(ierr, RPN_COMM_OK, trim(mode)//' stress: group')
    endif
    bad_puts = 0
    bad_gets = 0
    bad_calls = 0
    do r = 1, STRESS
      warr(N+1:2*N) = [(100000*r + 100*me + i, i = 1, N)]
      call RPN_COMM_i_win_open(win, .true., ierr)
      if (ierr /= RPN_COMM_OK) bad_calls = bad_calls + 1
      src = [(1000000*r + 1000*me + i, i = 1, N)]
      dst = -1
      do i = 1, N
        call RPN_COMM_i_win_rput_r(win, C_LOC(src(i)), right, i - 1, 1, reqs(i), ierr)
        if (ierr /= RPN_COMM_OK) bad_calls = bad_calls + 1
      enddo
      call RPN_COMM_i_win_rget_r(win, C_LOC(dst), right, N, N, req, ierr)
      if (ierr /= RPN_COMM_OK) bad_calls = bad_calls + 1
      call RPN_COMM_i_win_close(win, ierr)
      if (ierr /= RPN_COMM_OK) bad_calls = bad_calls + 1
      if (.not. all(warr(1:N) == [(1000000*r + 1000*left + i, i = 1, N)])) bad_puts = bad_puts + 1
      if (.not. all(dst == [(100000*r + 100*right + i, i = 1, N)])) bad_gets = bad_gets + 1
      do i = 1, N
        call RPN_COMM_i_win_wait(reqs(i), ierr)
        if (ierr /= RPN_COMM_OK) bad_calls = bad_calls + 1
      enddo
      call RPN_COMM_i_win_wait(req, ierr)
      if (ierr /= RPN_COMM_OK) bad_calls = bad_calls + 1
    enddo
    call check(bad_calls == 0, trim(mode)//' stress: '//str(bad_calls)//' calls failed')
    call check(bad_puts == 0, trim(mode)//' stress: the left neighbour''s rputs were missing after '//str(bad_puts)//' closes')
    call check(bad_gets == 0, trim(mode)//' stress: rget_r got wrong values at '//str(bad_gets)//' closes')
    call RPN_COMM_i_win_free(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, trim(mode)//' stress: free')
  end subroutine active_stress

  subroutine error_cases()
    type(rpncomm_window) :: win
    integer, dimension(:), allocatable, target :: warr
    integer, dimension(4), target :: src
    type(rpncomm_request) :: req, copy, forged
    logical :: flag, valid
    integer :: ierr

    call section('refused: waited twice, stale copy, never made, freed window, flush outside passive, free with requests')
    allocate(warr(4))
    warr = 0
    src = 7
    call make_window(win, warr)
    call RPN_COMM_i_win_flush(win, right, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'flush on a closed window')
    call RPN_COMM_i_win_rput_r(win, C_LOC(src), right, 0, 1, req, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'rput_r on a closed window')
    call check(.not. c_associated(req%p) .and. req%t1 == 0, 'a refused rput_r returns the null request')
    call RPN_COMM_i_win_open(win, .false., ierr)
    call RPN_COMM_i_win_rput_r(win, C_LOC(src), right, 3, 2, req, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'rput_r past the end of the target''s window')
    call RPN_COMM_i_win_flush(win, npes, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'flush to a PE outside the communicator')

    call RPN_COMM_i_win_rput_r(win, C_LOC(src), right, 0, 1, req, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'rput_r')
    copy = req
    call RPN_COMM_i_win_wait(req, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'first wait')
    call RPN_COMM_i_win_wait(req, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'second wait (null request)')
    call RPN_COMM_i_win_wait(copy, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'wait of a stale copy of the request')
    call RPN_COMM_i_win_test_req(copy, flag, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'test of a stale copy of the request')
    call check(.not. flag, 'a refused test says not complete')
    forged = copy
    forged%t2 = forged%t2 + 1000
    call RPN_COMM_i_win_wait(forged, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'wait of a request never made (forged serial)')
    forged = rpncomm_request(C_NULL_PTR, 12, 34)
    call RPN_COMM_i_win_wait(forged, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'wait of a request never made (garbage)')

    ! left outstanding: completed by close, then free says so (on this PE) and still frees
    call RPN_COMM_i_win_rput_r(win, C_LOC(src), right, 1, 1, req, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'rput_r left outstanding')
    call RPN_COMM_i_win_close(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'close')
    call check(warr(2) == 7, 'the request left outstanding completed at close')
    call RPN_COMM_i_win_free(win, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'free with a request never waited for')
    valid = RPN_COMM_i_valid_win(win, ierr)
    call check(.not. valid, 'the window is freed all the same')
    ! its request went with it, also when a new window takes the freed one's place
    deallocate(warr)
    allocate(warr(1))
    warr = 0
    call make_window(win, warr)
    call RPN_COMM_i_win_wait(req, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'wait of a request of a freed window')
    call RPN_COMM_i_win_free(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'free of the new window')
  end subroutine error_cases

end program test_requests
