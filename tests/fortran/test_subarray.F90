! PES: 1 2 3 4
! TIMEOUT: 180
!
! Sub-array (3-D box) transfers: RPN_COMM_i_win_put_r_box, get_r_box and getacc_r_box (SUM,
! without fetch, fetch before, fetch after), in passive, fence and group (ring) mode, for the 4
! element types, with strided boxes (runs of 3, 4 and 1 elements) and a whole-plane box. PE o works on the window of its
! right neighbour, so every window has one writer. Every element of the target window, of the
! local array and of garray (the box and what surrounds it) is compared with a model computed
! element by element from the box's definition. Then every refusal: a box past each dimension
! of the local array and of the target's shape, negative starts, extents and shapes, a target
! shape larger than the target's window, a bad rank; each with ierr = RPN_COMM_ERROR and
! nothing written anywhere.
program test_subarray
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr
  integer, parameter :: NWIN = 60             ! window elements per PE (the target shape's total)
  integer, dimension(3), parameter :: TSHAPE = [5, 4, 3]
  type(rpncomm_operator) :: sum_op
  integer :: k, sync, geo

  call start('test_subarray')
  call RPN_COMM_i_oper(RPN_COMM_SUM, sum_op)
  do k = 1, 4
    do sync = 1, 3
      do geo = 1, 4
        call transfer_case(k, sync, geo)
      enddo
    enddo
  enddo
  do k = 1, 4
    call refusal_case(k)
  enddo
  call finish('test_subarray')

contains

  include 'tutil.inc'

  ! initial value of element idx (0-based, linear) of PE t's window
  real(kind=8) function w0(t, idx)
    integer, intent(IN) :: t, idx
    w0 = real(1000*t + idx, 8)
  end function w0

  ! element idx of the local operand array of PE o
  real(kind=8) function x0(o, idx)
    integer, intent(IN) :: o, idx
    x0 = real(-(10000 + 100*o + idx), 8)
  end function x0

  ! the geometries: local shape, box start in it, box extents, box start in the target
  subroutine geometry(geo, lshape, lstart, count, tstart)
    integer, intent(IN) :: geo
    integer, dimension(3), intent(OUT) :: lshape, lstart, count, tstart
    if (geo == 1) then       ! strided on both sides
      lshape = [4, 3, 5]; lstart = [1, 1, 2]; count = [3, 2, 2]; tstart = [2, 2, 1]
    else if (geo == 2) then  ! a whole plane of the target (one run)
      lshape = [5, 4, 2]; lstart = [0, 0, 1]; count = [5, 4, 1]; tstart = [0, 0, 2]
    else if (geo == 3) then  ! runs of 4 elements (16 or 32 bytes), whole along dimension 1 locally
      lshape = [4, 3, 5]; lstart = [0, 1, 2]; count = [4, 2, 2]; tstart = [1, 1, 1]
    else                     ! runs of 1 element (4 or 8 bytes)
      lshape = [2, 3, 2]; lstart = [1, 0, 0]; count = [1, 3, 2]; tstart = [4, 1, 1]
    endif
  end subroutine geometry

  ! is 0-based (i,j,l) inside the box starting at s with extents c
  logical function inside(i, j, l, s, c)
    integer, intent(IN) :: i, j, l
    integer, dimension(3), intent(IN) :: s, c
    inside = i >= s(1) .and. i < s(1) + c(1) .and. j >= s(2) .and. j < s(2) + c(2) .and. &
             l >= s(3) .and. l < s(3) + c(3)
  end function inside

  ! model: for each element of an array of shape sh, the linear index of the matching element of
  ! the other side's array (shape osh, box at ostart) when inside the box at s, else -1
  subroutine partner(sh, s, c, osh, ostart, map)
    integer, dimension(3), intent(IN) :: sh, s, c, osh, ostart
    integer, dimension(:), intent(OUT) :: map
    integer :: i, j, l, oi, oj, ol
    do l = 0, sh(3) - 1
      do j = 0, sh(2) - 1
        do i = 0, sh(1) - 1
          map(1 + i + sh(1)*(j + sh(2)*l)) = -1
          if (inside(i, j, l, s, c)) then
            oi = i - s(1) + ostart(1); oj = j - s(2) + ostart(2); ol = l - s(3) + ostart(3)
            map(1 + i + sh(1)*(j + sh(2)*l)) = oi + osh(1)*(oj + osh(2)*ol)
          endif
        enddo
      enddo
    enddo
  end subroutine partner

  subroutine make_window(k, win, wmem, tag)
    integer, intent(IN) :: k
    type(rpncomm_window), intent(OUT) :: win
    type(C_PTR), intent(OUT) :: wmem
    character(len=*), intent(IN) :: tag
    type(rpncomm_datatype) :: dtype
    type(rpncomm_communicator) :: com
    integer :: ierr
    call RPN_COMM_i_comm(RPN_COMM_GRID, com)
    call RPN_COMM_i_datyp(dtname(k), dtype)
    call RPN_COMM_i_win_create(win, dtype, NWIN, com, C_NULL_PTR, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' create')
    wmem = RPN_COMM_i_win_get_ptr(win, 1, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' get_ptr')
  end subroutine make_window

  subroutine reset_window(k, win, tag)
    integer, intent(IN) :: k
    type(rpncomm_window), intent(IN) :: win
    character(len=*), intent(IN) :: tag
    integer(kind=8), dimension(NWIN), target :: buf
    integer :: i, ierr
    call tset(k, c_loc(buf), 0, [(w0(me, i), i = 0, NWIN-1)])
    call RPN_COMM_i_win_put_l(win, c_loc(buf), 0, NWIN, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' put_l reset')
  end subroutine reset_window

  ! op: 1 put, 2 get, 3 getacc no fetch, 4 getacc fetch before, 5 getacc fetch after
  subroutine transfer_case(k, sync, geo)
    integer, intent(IN) :: k, sync, geo
    character(len=*), dimension(3), parameter :: sname = [character(len=8) :: 'passive', 'fence', 'group']
    character(len=*), dimension(5), parameter :: oname = [character(len=16) :: 'put_r_box', 'get_r_box', &
        'getacc_r_box', 'getacc before', 'getacc after']
    type(rpncomm_window) :: win
    type(C_PTR) :: wmem, gptr
    integer, dimension(3) :: lshape, lstart, count, tstart
    integer(kind=8), dimension(:), allocatable, target :: xbuf, gbuf
    integer, dimension(:), allocatable :: lmap, tmap
    real(kind=8), dimension(:), allocatable :: v, expect, xv
    integer :: op, ierr, nl, i, left, right
    character(len=:), allocatable :: tag

    left  = mod(me - 1 + npes, npes)
    right = mod(me + 1, npes)
    call geometry(geo, lshape, lstart, count, tstart)
    nl = product(lshape)
    allocate(xbuf(nl), gbuf(nl), lmap(nl), tmap(NWIN), v(max(nl, NWIN)), expect(max(nl, NWIN)), xv(nl))
    ! lmap: local element -> target element; tmap: target element -> local element
    call partner(lshape, lstart, count, TSHAPE, tstart, lmap)
    call partner(TSHAPE, tstart, count, lshape, lstart, tmap)
    tag = trim(sname(sync))//'/'//dtname(k)//'/geometry '//str(geo)
    call section('boxes '//tag)
    call make_window(k, win, wmem, tag)
    if (sync == 3) then
      call RPN_COMM_i_win_group(win, ring_pes(), ring_pes(), ierr)
      call check_ierr(ierr, RPN_COMM_OK, tag//' win_group')
    endif

    do op = 1, 5
      call reset_window(k, win, tag//' '//trim(oname(op)))
      if (op == 2) then
        call tset(k, c_loc(xbuf), 0, [(777.0_8, i = 1, nl)])
      else
        call tset(k, c_loc(xbuf), 0, [(x0(me, i), i = 0, nl-1)])
      endif
      call tset(k, c_loc(gbuf), 0, [(555.0_8, i = 1, nl)])
      gptr = C_NULL_PTR
      if (op >= 4) gptr = c_loc(gbuf)
      call RPN_COMM_i_win_open(win, sync /= 1, ierr)
      call check_ierr(ierr, RPN_COMM_OK, tag//' open')
      select case (op)
      case (1)
        call RPN_COMM_i_win_put_r_box(win, c_loc(xbuf), lshape, lstart, count, right, TSHAPE, tstart, ierr)
      case (2)
        call RPN_COMM_i_win_get_r_box(win, c_loc(xbuf), lshape, lstart, count, right, TSHAPE, tstart, ierr)
      case default
        call RPN_COMM_i_win_getacc_r_box(win, c_loc(xbuf), gptr, op == 4, lshape, lstart, count, right, &
                                         TSHAPE, tstart, sum_op, ierr)
      end select
      call check_ierr(ierr, RPN_COMM_OK, tag//' '//trim(oname(op)))
      call RPN_COMM_i_win_close(win, ierr)
      call check_ierr(ierr, RPN_COMM_OK, tag//' close')

      ! my window, written (or read) by my left neighbour
      do i = 1, NWIN
        expect(i) = w0(me, i-1)
        if (tmap(i) >= 0 .and. op == 1) expect(i) = x0(left, tmap(i))
        if (tmap(i) >= 0 .and. op >= 3) expect(i) = w0(me, i-1) + x0(left, tmap(i))
      enddo
      call tget(k, wmem, 0, v(1:NWIN))
      call check_vals(v(1:NWIN), expect(1:NWIN), tag//' '//trim(oname(op))//' target window')
      ! my local array: what get brought from my right neighbour, else unchanged
      do i = 1, nl
        expect(i) = x0(me, i-1)
        if (op == 2) then
          expect(i) = 777.0_8
          if (lmap(i) >= 0) expect(i) = w0(right, lmap(i))
        endif
      enddo
      call tget(k, c_loc(xbuf), 0, xv)
      call check_vals(xv, expect(1:nl), tag//' '//trim(oname(op))//' local array')
      ! garray: the target's values before / after, at the box's place, else untouched
      do i = 1, nl
        expect(i) = 555.0_8
        if (lmap(i) >= 0 .and. op == 4) expect(i) = w0(right, lmap(i))
        if (lmap(i) >= 0 .and. op == 5) expect(i) = w0(right, lmap(i)) + x0(me, i-1)
      enddo
      call tget(k, c_loc(gbuf), 0, xv)
      call check_vals(xv, expect(1:nl), tag//' '//trim(oname(op))//' garray')
    enddo

    ! an empty box moves nothing and is accepted
    call reset_window(k, win, tag//' empty box')
    call RPN_COMM_i_win_open(win, sync /= 1, ierr)
    call RPN_COMM_i_win_put_r_box(win, c_loc(xbuf), lshape, lstart, [0, count(2), count(3)], right, TSHAPE, &
                                  tstart, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' empty box put')
    call RPN_COMM_i_win_close(win, ierr)
    call tget(k, wmem, 0, v(1:NWIN))
    call check_vals(v(1:NWIN), [(w0(me, i), i = 0, NWIN-1)], tag//' empty box: window unchanged')

    call RPN_COMM_i_win_free(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' free')
  end subroutine transfer_case

  ! every refusal, for the 3 operations, in fence mode: ierr = ERROR, nothing written
  subroutine refusal_case(k)
    integer, intent(IN) :: k
    integer, parameter :: NBAD = 13
    type(rpncomm_window) :: win
    type(C_PTR) :: wmem
    integer, dimension(3) :: lshape, lstart, count, tstart, ls, lb, c, ts, tb
    integer(kind=8), dimension(:), allocatable, target :: xbuf, gbuf
    real(kind=8), dimension(:), allocatable :: v, xv
    integer :: bad, op, ierr, nl, i, right, d, tgt
    character(len=:), allocatable :: tag, what

    right = mod(me + 1, npes)
    call geometry(1, lshape, lstart, count, tstart)
    nl = product(lshape)
    allocate(xbuf(nl), gbuf(nl), v(NWIN), xv(nl))
    tag = 'refusals/'//dtname(k)
    call section(tag)
    call make_window(k, win, wmem, tag)
    call reset_window(k, win, tag)
    do bad = 1, NBAD
      ls = lshape; lb = lstart; c = count; ts = TSHAPE; tb = tstart; tgt = right
      select case (bad)
      case (1:3)        ! past dimension d of the local array
        d = bad;     lb(d) = lshape(d) - count(d) + 1; what = 'local dimension '//str(d)
      case (4:6)        ! past dimension d of the target's shape
        d = bad - 3; tb(d) = TSHAPE(d) - count(d) + 1; what = 'target dimension '//str(d)
      case (7);  lb(2) = -1;  what = 'negative local start'
      case (8);  tb(3) = -1;  what = 'negative target start'
      case (9);  c(1) = -2;   what = 'negative extent'
      case (10); ls(3) = -5;  what = 'negative local shape'
      case (11); ts(1) = -5;  what = 'negative target shape'
      case (12); ts(3) = 4;   what = 'target shape larger than the window'
      case default; tgt = npes; what = 'target rank out of range'
      end select
      do op = 1, 3
        call tset(k, c_loc(xbuf), 0, [(x0(me, i), i = 0, nl-1)])
        call tset(k, c_loc(gbuf), 0, [(555.0_8, i = 1, nl)])
        call RPN_COMM_i_win_open(win, .true., ierr)
        select case (op)
        case (1)
          call RPN_COMM_i_win_put_r_box(win, c_loc(xbuf), ls, lb, c, tgt, ts, tb, ierr)
        case (2)
          call RPN_COMM_i_win_get_r_box(win, c_loc(xbuf), ls, lb, c, tgt, ts, tb, ierr)
        case default
          call RPN_COMM_i_win_getacc_r_box(win, c_loc(xbuf), c_loc(gbuf), .true., ls, lb, c, tgt, ts, tb, &
                                           sum_op, ierr)
        end select
        call check_ierr(ierr, RPN_COMM_ERROR, tag//' op '//str(op)//' '//what)
        call RPN_COMM_i_win_close(win, ierr)
        call check_ierr(ierr, RPN_COMM_OK, tag//' close')
        call tget(k, wmem, 0, v)
        call check_vals(v, [(w0(me, i), i = 0, NWIN-1)], tag//' op '//str(op)//' '//what//': window unchanged')
        call tget(k, c_loc(xbuf), 0, xv)
        call check_vals(xv, [(x0(me, i), i = 0, nl-1)], tag//' op '//str(op)//' '//what//': local unchanged')
        call tget(k, c_loc(gbuf), 0, xv)
        call check_vals(xv, [(555.0_8, i = 1, nl)], tag//' op '//str(op)//' '//what//': garray unchanged')
      enddo
    enddo
    call RPN_COMM_i_win_free(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' free')
  end subroutine refusal_case
end program test_subarray
