! PES: 1 2 3 4 8
! TIMEOUT: 90
!
! One-sided request/reply (RPN_COMM_i_win_post with a secondary window):
!   round 1: every PE posts a request to every other PE; each server checks its records
!            (client, offseti, n_in, offseto, n_out), reads the requests, puts the replies;
!            every client checks its replies
!   round 2: reinitialisation keeping the slots (offseti(1) = -1, nelemi(1) = -1): records cleared,
!            counter kept, the same slots reused by new requests with other offsets
!   round 3: full reinitialisation (nelemi(1) = -2): counter back to 1, slots forgotten; only the
!            even PEs post; servers see exactly those
!   capacity: a secondary window with 2 records (1 usable): of the PEs posting to PE 0 exactly one
!            gets a slot, the others get RPN_COMM_ERROR, nothing is written out of bounds; again
!            after a full reinitialisation
!   refused posts: closed window, active mode, bad target, request outside the own window, bad
!            reinitialisation code; nreq = 0 is a no-op
program test_reqreply
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr
  integer, parameter :: RQ = 2, RP = 3, SENT = -99
  type(rpncomm_window) :: w
  type(rpncomm_datatype) :: dint
  type(rpncomm_communicator) :: com
  integer, dimension(:), allocatable, target :: rr
  integer, dimension(:, :), pointer :: records
  integer, dimension(:), allocatable :: pe, offi, nin, offo, nout
  integer, dimension(:), allocatable :: slot_of_client
  integer :: ierr, nwin

  call start('test_reqreply')
  call RPN_COMM_i_comm(RPN_COMM_GRID, com)
  call RPN_COMM_i_datyp(RPN_COMM_INTEGER, dint)
  nwin = npes*(RQ + RP)
  allocate(rr(nwin), pe(npes), offi(npes), nin(npes), offo(npes), nout(npes), slot_of_client(0:npes-1))
  rr = SENT
  call RPN_COMM_i_win_create(w, dint, nwin, com, c_loc(rr), ierr)
  call check_ierr(ierr, RPN_COMM_OK, 'create primary window')

  call section('secondary window: too small, then reallocated')
  if (npes > 1) then
    call RPN_COMM_i_win_create_secondary(w, npes - 1, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'create_secondary(npes-1)')
    call check(RPN_COMM_i_win_get_size2(w, ierr) == 5*(npes - 1), 'get_size2 = 5*(npes-1)')
  endif
  call RPN_COMM_i_win_create_secondary(w, -npes, ierr)
  call check_ierr(ierr, RPN_COMM_OK, 'create_secondary(-npes)')
  call check(RPN_COMM_i_win_get_size2(w, ierr) == 5*npes, 'get_size2 = 5*npes')
  call map_records()
  call check(all(records(:, 1) == [1, 0, 0, 0, 0]), 'fresh record 1 = (1,0,0,0,0)')

  call round1()
  call round2()
  call round3()
  call refused_posts()
  call RPN_COMM_i_win_free(w, ierr)
  call check_ierr(ierr, RPN_COMM_OK, 'free')
  call capacity()
  call finish('test_reqreply')

contains

  include 'tutil.inc'

  subroutine map_records()
    type(C_PTR) :: p
    p = RPN_COMM_i_win_get_ptr(w, 2, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'get_ptr(2)')
    call c_f_pointer(p, records, [5, npes])
  end subroutine map_records

  ! request values: a and b sent by client c in its request number r
  integer function aval(c, r, round)
    integer, intent(IN) :: c, r, round
    aval = 10*c + r + 100*round
  end function aval
  integer function bval(c, t, round)
    integer, intent(IN) :: c, t, round
    bval = 7 + t + 3*c + round
  end function bval

  ! build this PE's request list for `round` (reverse = other offsets for the same targets)
  subroutine build_requests(round, reverse, nreq)
    integer, intent(IN) :: round
    logical, intent(IN) :: reverse
    integer, intent(OUT) :: nreq
    integer :: t, r, slot
    nreq = 0
    rr = SENT
    do t = 0, npes-1
      if (t == me) cycle
      nreq = nreq + 1
      pe(nreq) = t
    enddo
    do r = 1, nreq
      slot = r
      if (reverse) slot = nreq + 1 - r
      offi(r) = (slot - 1)*RQ
      nin(r)  = RQ
      offo(r) = npes*RQ + (slot - 1)*RP
      nout(r) = RP
      rr(offi(r) + 1) = aval(me, r, round)
      rr(offi(r) + 2) = bval(me, pe(r), round)
    enddo
  end subroutine build_requests

  ! position (1-based) of `me` in the request list of client c
  integer function index_in(c)
    integer, intent(IN) :: c
    index_in = me + 1
    if (me > c) index_in = me
  end function index_in

  ! the server side: check the records against what clients `posting` posted, serve them
  subroutine serve_and_check(round, reverse, posting, tag)
    integer, intent(IN) :: round
    logical, intent(IN) :: reverse
    logical, dimension(0:npes-1), intent(IN) :: posting
    character(len=*), intent(IN) :: tag
    integer :: i, c, idx, ncl, nexp, last, slot
    integer, dimension(0:npes-1) :: seen
    integer, dimension(RQ), target :: req
    integer, dimension(RP), target :: rep
    nexp = count(posting) - merge(1, 0, posting(me))
    last = records(1, 1)
    call check(last == nexp + 1, tag//': last valid record = '//str(last)//', expected '//str(nexp + 1))
    call check(all(records(2:5, 1) == 0), tag//': record 1 words 2..5 are 0')
    seen = 0
    do i = 2, min(last, npes)
      c = records(1, i)
      if (c < 0 .or. c >= npes .or. c == me) then
        call check(.false., tag//': record '//str(i)//' has client '//str(c))
        cycle
      endif
      if (.not. posting(c)) call check(.false., tag//': record from PE '//str(c)//' that did not post')
      seen(c) = seen(c) + 1
      idx = index_in(c)
      ncl = npes - 1
      slot = idx
      if (reverse) slot = ncl + 1 - idx
      call check(all(records(2:5, i) == [(slot - 1)*RQ, RQ, npes*RQ + (slot - 1)*RP, RP]), &
                 tag//': record '//str(i)//' of client '//str(c)//' content')
    enddo
    do c = 0, npes-1
      if (c /= me .and. posting(c)) call check(seen(c) == 1, tag//': PE '//str(c)//' seen '//str(seen(c))//' times')
    enddo

    call RPN_COMM_i_win_open(w, .false., ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' open to serve')
    do i = 2, min(last, npes)
      c = records(1, i)
      if (c < 0 .or. c >= npes) cycle
      req = SENT
      call RPN_COMM_i_win_get_r(w, c_loc(req), c, records(2, i), records(3, i), ierr)
      call check_ierr(ierr, RPN_COMM_OK, tag//' get_r of a request')
      idx = index_in(c)
      call check(req(1) == aval(c, idx, round) .and. req(2) == bval(c, me, round), &
                 tag//': request of PE '//str(c)//' = '//str(req(1))//','//str(req(2)))
      rep = [req(1) + req(2), req(1)*req(2), req(1)*req(1) + req(2)*req(2)]
      call RPN_COMM_i_win_put_r(w, c_loc(rep), c, records(4, i), records(5, i), ierr)
      call check_ierr(ierr, RPN_COMM_OK, tag//' put_r of a reply')
    enddo
    call RPN_COMM_i_win_close(w, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' close after serving')
  end subroutine serve_and_check

  ! the client side: replies for every request, nothing else touched
  subroutine check_replies(nreq, round, tag)
    integer, intent(IN) :: nreq, round
    character(len=*), intent(IN) :: tag
    integer :: r, a, b
    integer, dimension(nwin) :: expect
    expect = SENT
    do r = 1, nreq
      a = aval(me, r, round)
      b = bval(me, pe(r), round)
      expect(offi(r) + 1 : offi(r) + 2) = [a, b]
      expect(offo(r) + 1 : offo(r) + 3) = [a + b, a*b, a*a + b*b]
    enddo
    call check(all(rr == expect), tag//': replies in the client window')
  end subroutine check_replies

  subroutine post_round(nreq, tag)
    integer, intent(IN) :: nreq
    character(len=*), intent(IN) :: tag
    call RPN_COMM_i_win_open(w, .false., ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' open to post')
    call RPN_COMM_i_win_post(w, pe, offi, nin, offo, nout, nreq, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' post')
    call RPN_COMM_i_win_close(w, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' close after posting')
  end subroutine post_round

  ! ------------------------------------------------------------------------------------------
  subroutine round1()
    integer :: nreq, i
    logical, dimension(0:npes-1) :: posting
    call section('round 1: every PE asks every other PE')
    call build_requests(1, .false., nreq)
    call post_round(nreq, 'round 1')
    posting = .true.
    call serve_and_check(1, .false., posting, 'round 1')
    call check_replies(nreq, 1, 'round 1')
    slot_of_client = -1
    do i = 2, min(records(1, 1), npes)
      if (records(1, i) >= 0 .and. records(1, i) < npes) slot_of_client(records(1, i)) = i
    enddo
  end subroutine round1

  subroutine round2()
    integer :: nreq, i, last
    logical, dimension(0:npes-1) :: posting
    call section('round 2: reinitialisation keeping the slots (-1, -1)')
    last = records(1, 1)
    call RPN_COMM_i_win_post(w, [0], [-1], [-1], [0], [0], 1, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'reinitialisation (-1,-1)')
    call check(records(1, 1) == last, 'reinitialisation (-1,-1) keeps the counter')
    call check(all(records(:, 2:) == 0), 'reinitialisation (-1,-1) clears the records')
    call build_requests(2, .true., nreq)
    call post_round(nreq, 'round 2')
    posting = .true.
    call serve_and_check(2, .true., posting, 'round 2')
    call check_replies(nreq, 2, 'round 2')
    do i = 2, min(records(1, 1), npes)
      if (records(1, i) >= 0 .and. records(1, i) < npes) &
        call check(slot_of_client(records(1, i)) == i, 'round 2: PE '//str(records(1, i))//' kept its slot')
    enddo
  end subroutine round2

  subroutine round3()
    integer :: nreq, t
    logical, dimension(0:npes-1) :: posting
    call section('round 3: full reinitialisation (-1, -2), only even PEs post')
    call RPN_COMM_i_win_post(w, [0], [-1], [-2], [0], [0], 1, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'reinitialisation (-1,-2)')
    call check(all(records(:, 1) == [1, 0, 0, 0, 0]), 'reinitialisation (-1,-2) resets the counter')
    call check(all(records(:, 2:) == 0), 'reinitialisation (-1,-2) clears the records')
    posting = [(mod(t, 2) == 0, t = 0, npes-1)]
    call build_requests(3, .false., nreq)
    if (.not. posting(me)) then
      nreq = 0
      rr = SENT
    endif
    call post_round(nreq, 'round 3')
    call serve_and_check(3, .false., posting, 'round 3')
    call check_replies(nreq, 3, 'round 3')
  end subroutine round3

  ! ------------------------------------------------------------------------------------------
  subroutine refused_posts()
    integer :: last
    call section('refused posts')
    last = records(1, 1)
    call RPN_COMM_i_win_post(w, [mod(me + 1, npes)], [0], [1], [1], [1], 1, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'post on a closed window')
    call RPN_COMM_i_win_open(w, .true., ierr)
    call RPN_COMM_i_win_post(w, [mod(me + 1, npes)], [0], [1], [1], [1], 1, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'post in active mode')
    call RPN_COMM_i_win_post(w, [0], [-1], [-2], [0], [0], 1, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'reinitialisation in active mode')
    call RPN_COMM_i_win_close(w, ierr)
    call RPN_COMM_i_win_open(w, .false., ierr)
    call RPN_COMM_i_win_post(w, [npes], [0], [1], [1], [1], 1, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'post to PE npes')
    call RPN_COMM_i_win_post(w, [-1], [0], [1], [1], [1], 1, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'post to PE -1')
    call RPN_COMM_i_win_post(w, [mod(me + 1, npes)], [nwin - 1], [2], [0], [1], 1, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'post of a request past the end of the own window')
    call RPN_COMM_i_win_post(w, [mod(me + 1, npes)], [0], [1], [nwin], [1], 1, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'post of a reply area past the end of the own window')
    call RPN_COMM_i_win_post(w, [mod(me + 1, npes)], [-3], [1], [0], [1], 1, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'post with offseti -3')
    call RPN_COMM_i_win_post(w, [mod(me + 1, npes)], [0], [-4], [0], [1], 1, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'post with nelemi -4')
    call RPN_COMM_i_win_post(w, [0], [-1], [5], [0], [0], 1, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'reinitialisation with nelemi(1) = 5')
    call RPN_COMM_i_win_post(w, pe, offi, nin, offo, nout, 0, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'post with nreq = 0')
    call RPN_COMM_i_win_close(w, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'close after refused posts')
    call check(records(1, 1) == last, 'refused posts did not claim slots here')
  end subroutine refused_posts

  ! ------------------------------------------------------------------------------------------
  subroutine capacity()
    type(rpncomm_window) :: w2
    integer, dimension(8), target :: arr
    integer, dimension(:, :), pointer :: rec2
    type(C_PTR) :: p
    integer :: ok, nok, attempt, winner
    call section('slot capacity: 2 records, everybody posts to PE 0')
    arr = 0
    call RPN_COMM_i_win_create(w2, dint, 8, com, c_loc(arr), ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'capacity: create')
    call RPN_COMM_i_win_create_secondary(w2, 2, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'capacity: create_secondary(2)')
    p = RPN_COMM_i_win_get_ptr(w2, 2, ierr)
    call c_f_pointer(p, rec2, [5, 2])
    do attempt = 1, 2
      call RPN_COMM_i_win_open(w2, .false., ierr)
      call RPN_COMM_i_win_post(w2, [0], [1], [2], [3], [4], 1, ierr)
      ok = merge(1, 0, ierr == RPN_COMM_OK)
      if (ierr /= RPN_COMM_OK) call check_ierr(ierr, RPN_COMM_ERROR, 'capacity: refused post status')
      call RPN_COMM_i_win_close(w2, ierr)
      call RPN_COMM_allreduce(ok, nok, 1, RPN_COMM_INTEGER, RPN_COMM_SUM, RPN_COMM_GRID, ierr)
      call check(nok == 1, 'capacity: '//str(nok)//' posts succeeded, expected 1 (attempt '//str(attempt)//')')
      winner = -1
      if (ok == 1) winner = me
      call RPN_COMM_allreduce(winner, nok, 1, RPN_COMM_INTEGER, RPN_COMM_MAX, RPN_COMM_GRID, ierr)
      winner = nok
      if (me == 0) then
        call check(rec2(1, 1) == 2, 'capacity: counter = '//str(rec2(1, 1)))
        call check(all(rec2(:, 2) == [winner, 1, 2, 3, 4]), 'capacity: record 2 is the winner''s')
      endif
      call check(all(arr == 0), 'capacity: primary window untouched')
      ! full reinitialisation everywhere, then try again
      call RPN_COMM_i_win_post(w2, [0], [-1], [-2], [0], [0], 1, ierr)
      call check_ierr(ierr, RPN_COMM_OK, 'capacity: reinitialisation (-1,-2)')
    enddo
    call RPN_COMM_i_win_free(w2, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'capacity: free')
  end subroutine capacity

end program test_reqreply
