! PES: 1 2 3 4
! TIMEOUT: 120
!
! One-element atomics: RPN_COMM_i_win_cas_r (compare-and-swap) and RPN_COMM_i_win_fetchop_r
! (fetch-and-op), against a model computed here.
!   - fetchop_r: every operator on every element type, in passive, fence and group (ring) mode:
!     PE o works on element o of its right neighbour; the fetched value and the target element
!     after close are compared with the model (MPI's definition of each operator); an operator
!     that makes no sense for reals is refused and moves nothing; a null operator uses the
!     window's default (RPN_COMM_i_win_oper).
!   - cas_r on 4- and 8-byte integers (values beyond 32 bits for the latter), in the three modes:
!     a compare that differs swaps nothing and fetches the element, an equal one swaps.
!   - contention (passive): every PE takes the same counter (element 0 of the last PE) up by
!     CAS loops, fetchop SUM and getacc_r SUM at once; it ends at the exact total, and the
!     tickets fetchop hands out increase on each PE. The counts (at most 300, 200 and 100 per PE)
!     are cut to what fits in about a second where one operation is slow (between simulated
!     nodes over TCP, a passive operation takes milliseconds).
!   - refusals, each moving nothing and leaving the window usable: CAS on a real window,
!     an offset outside the TARGET's window (sizes differ per PE), a negative offset, a target
!     outside the communicator, the window not exposed, a target outside pes_to in group mode,
!     a null oldval; then a CAS that must succeed.
program test_atomics
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr
  integer, parameter :: NOPS = 12
  character(len=12), dimension(NOPS), parameter :: opnames = [character(len=12) :: &
      RPN_COMM_SUM, RPN_COMM_PROD, RPN_COMM_MIN, RPN_COMM_MAX, RPN_COMM_BAND, RPN_COMM_BOR, &
      RPN_COMM_BXOR, RPN_COMM_LAND, RPN_COMM_LOR, RPN_COMM_LXOR, RPN_COMM_REPLACE, RPN_COMM_NO_OP]
  character(len=8), dimension(3), parameter :: sname = [character(len=8) :: 'passive', 'fence', 'group']
  type(rpncomm_operator), dimension(NOPS) :: opers
  integer :: i, k, sync

  call start('test_atomics')
  do i = 1, NOPS
    call RPN_COMM_i_oper(trim(opnames(i)), opers(i))
  enddo

  do k = 1, 4
    do sync = 1, 3
      call fetchop_case(k, sync)
    enddo
    call default_oper_case(k)
  enddo
  do k = 1, 3, 2
    do sync = 1, 3
      call cas_case(k, sync)
    enddo
    call contention_case(k)
  enddo
  call refusals()
  call finish('test_atomics')

contains

  include 'tutil.inc'

  ! target OP operand, as MPI defines it
  real(kind=8) function apply(iop, t, x)
    integer, intent(IN) :: iop
    real(kind=8), intent(IN) :: t, x
    integer(kind=8) :: a, b
    a = int(t, 8)
    b = int(x, 8)
    select case (iop)
    case (1); apply = t + x
    case (2); apply = t * x
    case (3); apply = min(t, x)
    case (4); apply = max(t, x)
    case (5); apply = real(iand(a, b), 8)
    case (6); apply = real(ior(a, b), 8)
    case (7); apply = real(ieor(a, b), 8)
    case (8); apply = merge(1.0_8, 0.0_8, a /= 0 .and. b /= 0)
    case (9); apply = merge(1.0_8, 0.0_8, a /= 0 .or. b /= 0)
    case (10); apply = merge(1.0_8, 0.0_8, (a /= 0) .neqv. (b /= 0))
    case (11); apply = x
    case default; apply = t
    end select
  end function apply

  logical function op_valid(k, iop)
    integer, intent(IN) :: k, iop
    op_valid = is_int(k) .or. iop < 5 .or. iop > 10
  end function op_valid

  ! initial value of element q of PE t's window, and the operand PE o sends (exact in every kind;
  ! an operand of 0 on odd PEs exercises the logical operators' false side)
  real(kind=8) function t0(k, t, q)
    integer, intent(IN) :: k, t, q
    if (is_int(k)) then
      t0 = real(12 + q + 16*t, 8)
    else
      t0 = 1.5_8 + q + 4*t
    endif
  end function t0

  real(kind=8) function x0(k, o)
    integer, intent(IN) :: k, o
    if (is_int(k)) then
      x0 = real(merge(10 + o, 0, mod(o, 2) == 0), 8)
    else
      x0 = -2.25_8 + o
    endif
  end function x0

  subroutine make_window(k, n, win, wmem, tag)
    integer, intent(IN) :: k, n
    type(rpncomm_window), intent(OUT) :: win
    type(C_PTR), intent(OUT) :: wmem
    character(len=*), intent(IN) :: tag
    type(rpncomm_datatype) :: dtype
    type(rpncomm_communicator) :: com
    integer :: ierr
    call RPN_COMM_i_comm(RPN_COMM_GRID, com)
    call RPN_COMM_i_datyp(dtname(k), dtype)
    call RPN_COMM_i_win_create(win, dtype, n, com, C_NULL_PTR, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' create')
    wmem = RPN_COMM_i_win_get_ptr(win, 1, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' get_ptr')
  end subroutine make_window

  ! this PE's window back to t0 (local put while closed)
  subroutine reset_window(k, win, n, tag)
    integer, intent(IN) :: k, n
    type(rpncomm_window), intent(IN) :: win
    character(len=*), intent(IN) :: tag
    integer(kind=8), dimension(n), target :: buf
    integer :: q, ierr
    call tset(k, c_loc(buf), 0, [(t0(k, me, q), q = 0, n-1)])
    call RPN_COMM_i_win_put_l(win, c_loc(buf), 0, n, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' put_l reset')
  end subroutine reset_window

  subroutine open_window(win, sync, tag)
    type(rpncomm_window), intent(IN) :: win
    integer, intent(IN) :: sync
    character(len=*), intent(IN) :: tag
    integer :: ierr
    call RPN_COMM_i_win_open(win, sync /= 1, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' open')
  end subroutine open_window

  subroutine close_window(win, tag)
    type(rpncomm_window), intent(IN) :: win
    character(len=*), intent(IN) :: tag
    integer :: ierr
    call RPN_COMM_i_win_close(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' close')
  end subroutine close_window

  subroutine fetchop_case(k, sync)
    integer, intent(IN) :: k, sync
    type(rpncomm_window) :: win
    type(C_PTR) :: wmem
    integer(kind=8), dimension(1), target :: xbuf, obuf
    real(kind=8), dimension(:), allocatable :: v, expect
    real(kind=8), dimension(1) :: got
    integer :: ierr, iop, q, left, right
    character(len=:), allocatable :: tag, tag2

    tag = 'fetchop_r '//trim(sname(sync))//'/'//dtname(k)
    call section(tag)
    left  = mod(me - 1 + npes, npes)
    right = mod(me + 1, npes)
    allocate(v(npes), expect(npes))
    call make_window(k, npes, win, wmem, tag)
    if (sync == 3) then
      call RPN_COMM_i_win_group(win, ring_pes(), ring_pes(), ierr)
      call check_ierr(ierr, RPN_COMM_OK, tag//' win_group')
    endif
    do iop = 1, NOPS
      tag2 = tag//' '//trim(opnames(iop))
      call reset_window(k, win, npes, tag2)
      call tset(k, c_loc(xbuf), 0, [x0(k, me)])
      call tset(k, c_loc(obuf), 0, [777.0_8])
      call open_window(win, sync, tag2)
      call RPN_COMM_i_win_fetchop_r(win, c_loc(xbuf), c_loc(obuf), right, me, opers(iop), ierr)
      if (op_valid(k, iop)) then
        call check_ierr(ierr, RPN_COMM_OK, tag2//' fetchop_r')
      else
        call check_ierr(ierr, RPN_COMM_ERROR, tag2//' fetchop_r (operator invalid for reals)')
      endif
      call close_window(win, tag2)
      do q = 0, npes-1
        expect(q+1) = t0(k, me, q)
        if (q == left .and. op_valid(k, iop)) expect(q+1) = apply(iop, t0(k, me, q), x0(k, q))
      enddo
      call tget(k, wmem, 0, v)
      call check_vals(v, expect, tag2//' target window')
      call tget(k, c_loc(obuf), 0, got)
      if (op_valid(k, iop)) then
        call check_vals(got, [t0(k, right, me)], tag2//' oldval (element before)')
      else
        call check_vals(got, [777.0_8], tag2//' oldval untouched by a refused call')
      endif
      call tget(k, c_loc(xbuf), 0, got)
      call check_vals(got, [x0(k, me)], tag2//' operand unchanged')
    enddo
    call RPN_COMM_i_win_free(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' free')
  end subroutine fetchop_case

  ! fetchop_r with the null operator: the window's default (MAX, then REPLACE)
  subroutine default_oper_case(k)
    integer, intent(IN) :: k
    type(rpncomm_window) :: win
    type(C_PTR) :: wmem
    integer(kind=8), dimension(1), target :: xbuf, obuf
    real(kind=8), dimension(:), allocatable :: v
    real(kind=8), dimension(1) :: got
    integer, dimension(2), parameter :: seq = [4, 11]
    integer :: ierr, s, left, right
    character(len=:), allocatable :: tag

    tag = 'fetchop_r default operator/'//dtname(k)
    call section(tag)
    left  = mod(me - 1 + npes, npes)
    right = mod(me + 1, npes)
    allocate(v(npes))
    call make_window(k, npes, win, wmem, tag)
    do s = 1, size(seq)
      call RPN_COMM_i_win_oper(win, opers(seq(s)), ierr)
      call check_ierr(ierr, RPN_COMM_OK, tag//' win_oper '//trim(opnames(seq(s))))
      call reset_window(k, win, npes, tag)
      call tset(k, c_loc(xbuf), 0, [x0(k, me) + 100])
      call open_window(win, 1, tag)
      call RPN_COMM_i_win_fetchop_r(win, c_loc(xbuf), c_loc(obuf), right, me, NULL_rpncomm_operator, ierr)
      call check_ierr(ierr, RPN_COMM_OK, tag//' fetchop_r with the null operator')
      call close_window(win, tag)
      call tget(k, wmem, 0, v)
      call check_vals(v(left+1:left+1), [apply(seq(s), t0(k, me, left), x0(k, left) + 100)], &
                      tag//' target element, default '//trim(opnames(seq(s))))
      call tget(k, c_loc(obuf), 0, got)
      call check_vals(got, [t0(k, right, me)], tag//' oldval, default '//trim(opnames(seq(s))))
    enddo
    call RPN_COMM_i_win_free(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' free')
  end subroutine default_oper_case

  ! 8-byte integers start beyond 32 bits: a swap of the low half only would show
  real(kind=8) function c0(k, t, q)
    integer, intent(IN) :: k, t, q
    c0 = t0(k, t, q)
    if (k == 3) c0 = c0 + 2.0_8**33
  end function c0

  subroutine cas_case(k, sync)
    integer, intent(IN) :: k, sync
    type(rpncomm_window) :: win
    type(C_PTR) :: wmem
    integer(kind=8), dimension(1), target :: cbuf, nbuf, obuf
    integer(kind=8), dimension(:), allocatable, target :: init
    real(kind=8), dimension(:), allocatable :: v, expect
    real(kind=8), dimension(1) :: got
    integer :: ierr, q, left, right, step
    character(len=:), allocatable :: tag, tag2

    tag = 'cas_r '//trim(sname(sync))//'/'//dtname(k)
    call section(tag)
    left  = mod(me - 1 + npes, npes)
    right = mod(me + 1, npes)
    allocate(v(npes), expect(npes), init(npes))
    call make_window(k, npes, win, wmem, tag)
    if (sync == 3) then
      call RPN_COMM_i_win_group(win, ring_pes(), ring_pes(), ierr)
      call check_ierr(ierr, RPN_COMM_OK, tag//' win_group')
    endif
    call tset(k, c_loc(init), 0, [(c0(k, me, q), q = 0, npes-1)])
    call RPN_COMM_i_win_put_l(win, c_loc(init), 0, npes, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' put_l')
    ! step 1: a compare that differs (by 2**32 for 8-byte integers); step 2: the right one
    do step = 1, 2
      tag2 = tag//merge(' different compare', ' equal compare    ', step == 1)
      if (step == 1) then
        call tset(k, c_loc(cbuf), 0, [c0(k, right, me) + merge(2.0_8**32, 1.0_8, k == 3)])
      else
        call tset(k, c_loc(cbuf), 0, [c0(k, right, me)])
      endif
      call tset(k, c_loc(nbuf), 0, [real(-1000 - me, 8)])
      call tset(k, c_loc(obuf), 0, [777.0_8])
      call open_window(win, sync, tag2)
      call RPN_COMM_i_win_cas_r(win, c_loc(cbuf), c_loc(nbuf), c_loc(obuf), right, me, ierr)
      call check_ierr(ierr, RPN_COMM_OK, tag2//' cas_r')
      call close_window(win, tag2)
      do q = 0, npes-1
        expect(q+1) = c0(k, me, q)
        if (q == left .and. step == 2) expect(q+1) = real(-1000 - left, 8)
      enddo
      call tget(k, wmem, 0, v)
      call check_vals(v, expect, tag2//' target window')
      call tget(k, c_loc(obuf), 0, got)
      call check_vals(got, [c0(k, right, me)], tag2//' oldval (element before)')
    enddo
    call RPN_COMM_i_win_free(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' free')
  end subroutine cas_case

  ! every PE takes one counter up by CAS loops, fetchop SUM and getacc_r SUM, all at once
  subroutine contention_case(k)
    integer, intent(IN) :: k
    type(rpncomm_window) :: win
    type(C_PTR) :: wmem
    integer(kind=8), dimension(1), target :: cbuf, nbuf, obuf, one
    integer(kind=8), dimension(:), allocatable :: tickets
    real(kind=8), dimension(1) :: got, seen
    integer :: ierr, i, last, errs, retries, tries, ncas, nfop, nacc, scale
    integer(kind=8) :: total
    character(len=:), allocatable :: tag

    tag = 'contended counter/'//dtname(k)
    call section(tag)
    last = npes - 1
    call make_window(k, 1, win, wmem, tag)
    call tset(k, wmem, 0, [0.0_8])
    call tset(k, c_loc(one), 0, [1.0_8])
    call open_window(win, 1, tag)
    ! the counts: 300, 200 and 100 per PE where an operation is fast, fewer where it is slow
    scale = ops_in(win, 1.0_8, last, 300 + 200 + 100)
    ncas = max(3, 300 * scale / 600)
    nfop = max(2, 200 * scale / 600)
    nacc = max(1, 100 * scale / 600)
    allocate(tickets(nfop))
    errs = 0
    retries = 0
    do i = 1, max(ncas, nfop, nacc)
      if (i <= ncas) then
        ! the classic loop: guess, swap guess+1 in if the counter holds the guess, else retry
        ! with what it held
        seen = 0
        tries = 0
        do
          call tset(k, c_loc(cbuf), 0, seen)
          call tset(k, c_loc(nbuf), 0, seen + 1)
          call RPN_COMM_i_win_cas_r(win, c_loc(cbuf), c_loc(nbuf), c_loc(obuf), last, 0, ierr)
          if (ierr /= RPN_COMM_OK) then
            errs = errs + 1
            exit
          endif
          call tget(k, c_loc(obuf), 0, got)
          if (got(1) == seen(1)) exit
          seen = got
          tries = tries + 1
        enddo
        retries = retries + tries
      endif
      if (i <= nfop) then
        call RPN_COMM_i_win_fetchop_r(win, c_loc(one), c_loc(obuf), last, 0, opers(1), ierr)
        if (ierr /= RPN_COMM_OK) errs = errs + 1
        call tget(k, c_loc(obuf), 0, got)
        tickets(i) = int(got(1), 8)
      endif
      if (i <= nacc) then
        call RPN_COMM_i_win_getacc_r(win, c_loc(one), C_NULL_PTR, .false., last, 0, 1, opers(1), ierr)
        if (ierr /= RPN_COMM_OK) errs = errs + 1
      endif
    enddo
    call close_window(win, tag)
    call check(errs == 0, tag//': '//str(errs)//' atomic calls failed')
    total = int(npes, 8) * (ncas + nfop + nacc)
    if (me == last) then
      call tget(k, wmem, 0, got)
      call check_vals(got, [real(total, 8)], tag//' counter after every increment')
    endif
    call check(all(tickets >= 0 .and. tickets < total), tag//' fetchop tickets in 0..total-1')
    do i = 2, nfop
      if (tickets(i) <= tickets(i-1)) then
        call check(.false., tag//' fetchop tickets of one PE increase')
        exit
      endif
    enddo
    if (me == 0) write(*, '(A,I0,A,I0,A)') '   ', npes*ncas, ' CAS increments, ', retries, ' retries on PE 0'
    call RPN_COMM_i_win_free(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' free')
  end subroutine contention_case

  ! How many passive one-element operations (up to `most`) every PE can make on element 0 of PE
  ! `target` of the open window `win` in about `seconds`, all of them at once: the fastest of 10
  ! fetchop_r NO_OP (the element unchanged) on each PE, the slowest PE's counts. The same on
  ! every PE.
  integer function ops_in(win, seconds, target, most) result(n)
    type(rpncomm_window), intent(IN) :: win
    real(kind=8), intent(IN) :: seconds
    integer, intent(IN) :: target, most
    integer(kind=8), dimension(1), target :: x, o
    real(kind=8) :: t0
    integer :: i, ierr, us, us_max
    x = 0
    us = huge(us)
    do i = 1, 10
      t0 = RPN_COMM_wtime()
      call RPN_COMM_i_win_fetchop_r(win, c_loc(x), c_loc(o), target, 0, opers(12), ierr)
      us = min(us, max(1, int((RPN_COMM_wtime() - t0) * 1.0e6_8)))
    enddo
    call RPN_COMM_allreduce(us, us_max, 1, RPN_COMM_INTEGER, RPN_COMM_MAX, RPN_COMM_GRID, ierr)
    if (ierr /= RPN_COMM_OK) us_max = us
    ! the target serves the PEs one after the other
    n = int(min(real(most, 8), seconds * 1.0e6_8 / (real(us_max, 8) * npes)))
  end function ops_in

  ! every refused call moves nothing and leaves the window usable
  subroutine refusals()
    type(rpncomm_window) :: win, rwin
    type(C_PTR) :: wmem, rmem
    type(rpncomm_datatype) :: dtype
    type(rpncomm_communicator) :: com
    integer, dimension(:), allocatable, target :: init
    integer, dimension(1), target :: cbuf, nbuf, obuf, xbuf
    real(kind=8), dimension(1), target :: rc, rn, ro
    integer, dimension(:), pointer :: w
    integer :: ierr, right, szr, q, sync
    character(len=:), allocatable :: tag

    call section('refusals')
    right = mod(me + 1, npes)
    szr = right + 2                       ! PE p has p + 2 elements
    call RPN_COMM_i_comm(RPN_COMM_GRID, com)
    call RPN_COMM_i_datyp(RPN_COMM_INTEGER, dtype)
    call RPN_COMM_i_win_create(win, dtype, me + 2, com, C_NULL_PTR, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'refusals: create')
    wmem = RPN_COMM_i_win_get_ptr(win, 1, ierr)
    call c_f_pointer(wmem, w, [me + 2])
    allocate(init(me + 2))
    init = [(50 + q, q = 0, me + 1)]
    call RPN_COMM_i_win_put_l(win, c_loc(init), 0, me + 2, ierr)
    cbuf = 50
    nbuf = -9
    xbuf = 5
    obuf = 777

    ! not exposed
    call RPN_COMM_i_win_cas_r(win, c_loc(cbuf), c_loc(nbuf), c_loc(obuf), right, 0, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'cas_r while not exposed')
    call RPN_COMM_i_win_fetchop_r(win, c_loc(xbuf), c_loc(obuf), right, 0, opers(1), ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'fetchop_r while not exposed')

    do sync = 1, 2
      tag = trim(sname(sync))
      call open_window(win, sync, tag)
      ! the last element of the target's window is in, the one after it is not (the target's
      ! size, not this PE's)
      call RPN_COMM_i_win_cas_r(win, c_loc(cbuf), c_loc(nbuf), c_loc(obuf), right, szr, ierr)
      call check_ierr(ierr, RPN_COMM_ERROR, tag//' cas_r at offset = size of the target '//str(szr))
      call RPN_COMM_i_win_fetchop_r(win, c_loc(xbuf), c_loc(obuf), right, szr, opers(1), ierr)
      call check_ierr(ierr, RPN_COMM_ERROR, tag//' fetchop_r at offset = size of the target')
      call RPN_COMM_i_win_cas_r(win, c_loc(cbuf), c_loc(nbuf), c_loc(obuf), right, -1, ierr)
      call check_ierr(ierr, RPN_COMM_ERROR, tag//' cas_r at offset -1')
      call RPN_COMM_i_win_fetchop_r(win, c_loc(xbuf), c_loc(obuf), npes, 0, opers(1), ierr)
      call check_ierr(ierr, RPN_COMM_ERROR, tag//' fetchop_r to PE npes')
      call RPN_COMM_i_win_cas_r(win, c_loc(cbuf), c_loc(nbuf), C_NULL_PTR, right, 0, ierr)
      call check_ierr(ierr, RPN_COMM_ERROR, tag//' cas_r with a null oldval')
      call RPN_COMM_i_win_fetchop_r(win, C_NULL_PTR, c_loc(obuf), right, 0, opers(1), ierr)
      call check_ierr(ierr, RPN_COMM_ERROR, tag//' fetchop_r with a null operand')
      call check(obuf(1) == 777, tag//' oldval untouched by the refused calls')
      ! still usable: the last element of the target, with a real effect
      call RPN_COMM_i_win_fetchop_r(win, c_loc(xbuf), c_loc(obuf), right, szr - 1, opers(1), ierr)
      call check_ierr(ierr, RPN_COMM_OK, tag//' fetchop_r on the last element of the target')
      call close_window(win, tag)
      call check(obuf(1) == 50 + szr - 1 + 5*(sync - 1), tag//' fetchop_r on the last element: oldval '//str(obuf(1)))
      call check(all(w(1:me+1) == init(1:me+1)), tag//' elements before the last unchanged')
      call check(w(me+2) == 50 + me + 1 + 5*sync, tag//' last element '//str(w(me+2)))
      obuf = 777
    enddo

    ! group mode: a target outside pes_to (only the right neighbour is listed: this PE is not)
    if (npes > 1) then
      call RPN_COMM_i_win_group(win, [right], [mod(me - 1 + npes, npes)], ierr)
      call check_ierr(ierr, RPN_COMM_OK, 'refusals: win_group')
      call open_window(win, 3, 'group')
      call RPN_COMM_i_win_cas_r(win, c_loc(cbuf), c_loc(nbuf), c_loc(obuf), me, 0, ierr)
      call check_ierr(ierr, RPN_COMM_ERROR, 'group: cas_r to a PE outside pes_to')
      call RPN_COMM_i_win_fetchop_r(win, c_loc(xbuf), c_loc(obuf), me, 0, opers(1), ierr)
      call check_ierr(ierr, RPN_COMM_ERROR, 'group: fetchop_r to a PE outside pes_to')
      call RPN_COMM_i_win_cas_r(win, c_loc(cbuf), c_loc(nbuf), c_loc(obuf), right, 0, ierr)
      call check_ierr(ierr, RPN_COMM_OK, 'group: cas_r to the PE of pes_to')
      call close_window(win, 'group')
      call check(obuf(1) == 50, 'group: cas_r oldval '//str(obuf(1)))
      call check(w(1) == -9, 'group: cas_r swapped element 0: '//str(w(1)))
      call check(all(w(2:me+1) == init(2:me+1)), 'group: the other elements unchanged')
    endif
    call RPN_COMM_i_win_free(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'refusals: free')

    ! compare-and-swap on reals: refused in every mode, nothing moved
    call RPN_COMM_i_datyp(RPN_COMM_REAL8, dtype)
    call RPN_COMM_i_win_create(rwin, dtype, 1, com, C_NULL_PTR, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'real window: create')
    rmem = RPN_COMM_i_win_get_ptr(rwin, 1, ierr)
    rc = 0.0_8
    call RPN_COMM_i_win_put_l(rwin, c_loc(rc), 0, 1, ierr)    ! (MPI's memory starts undefined)
    call check_ierr(ierr, RPN_COMM_OK, 'real window: put_l')
    rn = 2.5_8
    ro = 777.0_8
    do sync = 1, 2
      call open_window(rwin, sync, 'real window')
      call RPN_COMM_i_win_cas_r(rwin, c_loc(rc), c_loc(rn), c_loc(ro), right, 0, ierr)
      call check_ierr(ierr, RPN_COMM_ERROR, trim(sname(sync))//': cas_r on a window of reals')
      call close_window(rwin, 'real window')
    enddo
    call tget(4, rmem, 0, rc)
    call check(rc(1) == 0.0_8 .and. ro(1) == 777.0_8, 'cas_r on reals moved nothing')
    call RPN_COMM_i_win_free(rwin, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'real window: free')
  end subroutine refusals

end program test_atomics
