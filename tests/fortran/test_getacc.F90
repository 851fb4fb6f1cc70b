! PES: 1 2 3 4 8
! TIMEOUT: 120
!
! RPN_COMM_i_win_getacc_r with every operator on every element type, user-array and internal windows,
! in passive, fence and group (ring) mode, with garray null (plain accumulate), before and after;
! and the original's RPN_COMM_i_win_acc_r (accumulate, nothing back) in the same cases.
! Operators that make no sense for reals (BAND BOR BXOR LAND LOR LXOR) must be refused without
! moving data. RPN_COMM_i_win_oper changes the operator used when oper = NULL_rpncomm_operator.
!
! Window: 4 elements per origin PE (n = 4*npes); PE o accumulates into slot o (offset 4*o) of its
! right neighbour, so every element has exactly one writer and every result is known exactly.
program test_getacc
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr
  integer :: k, wkind, sync
  integer, parameter :: NOPS = 12
  character(len=12), dimension(NOPS), parameter :: opnames = [character(len=12) :: &
      RPN_COMM_SUM, RPN_COMM_PROD, RPN_COMM_MIN, RPN_COMM_MAX, RPN_COMM_BAND, RPN_COMM_BOR, &
      RPN_COMM_BXOR, RPN_COMM_LAND, RPN_COMM_LOR, RPN_COMM_LXOR, RPN_COMM_REPLACE, RPN_COMM_NO_OP]
  type(rpncomm_operator), dimension(NOPS) :: opers
  integer :: i

  call start('test_getacc')

  call section('operator handles')
  do i = 1, NOPS
    call RPN_COMM_i_oper(trim(opnames(i)), opers(i))
    call check(RPN_COMM_i_valid_oper(opers(i)), 'valid_oper('//trim(opnames(i))//')')
  enddo
  call check(.not. RPN_COMM_i_valid_oper(NULL_rpncomm_operator), 'NULL operator is not a valid operator')

  do k = 1, 5
    do wkind = 1, 2
      do sync = 1, 3
        call one_case(k, wkind, sync)
      enddo
      call default_oper_case(k, wkind)
    enddo
  enddo
  call finish('test_getacc')

contains

  include 'tutil.inc'

  ! initial value of element j (1..4) of slot q in the window of PE t
  real(kind=8) function t0(k, t, q, j)
    integer, intent(IN) :: k, t, q, j
    real(kind=8), dimension(4) :: v
    if (is_int(k)) then
      v = [real(6 + q, 8), 0.0_8, real(-(3 + t), 8), 0.0_8]
    else
      v = [real(6 + q, 8), 0.5_8, real(-(3 + t), 8), 1.25_8]
    endif
    t0 = v(j)
  end function t0

  ! operand element j (1..4) sent by PE o
  real(kind=8) function x0(k, o, j)
    integer, intent(IN) :: k, o, j
    real(kind=8), dimension(4) :: v
    if (is_int(k)) then
      v = [3.0_8, real(5 + o, 8), 0.0_8, 0.0_8]
    else
      v = [3.0_8, real(5 + o, 8) + 0.5_8, -0.25_8, 0.0_8]
    endif
    x0 = v(j)
  end function x0

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

  subroutine make_window(k, wkind, n, warr, win, wmem, tag)
    integer, intent(IN) :: k, wkind, n
    integer(kind=8), dimension(:), intent(INOUT), target :: warr
    type(rpncomm_window), intent(OUT) :: win
    type(C_PTR), intent(OUT) :: wmem
    character(len=*), intent(IN) :: tag
    type(rpncomm_datatype) :: dtype
    type(rpncomm_communicator) :: com
    integer :: ierr
    call RPN_COMM_i_comm(RPN_COMM_GRID, com)
    call RPN_COMM_i_datyp(dtname(k), dtype)
    if (wkind == 1) then
      call RPN_COMM_i_win_create(win, dtype, n, com, c_loc(warr), ierr)
      wmem = c_loc(warr)
    else
      call RPN_COMM_i_win_create(win, dtype, n, com, C_NULL_PTR, ierr)
      call check_ierr(ierr, RPN_COMM_OK, tag//' create')
      wmem = RPN_COMM_i_win_get_ptr(win, 1, ierr)
    endif
    call check_ierr(ierr, RPN_COMM_OK, tag//' create / get_ptr')
  end subroutine make_window

  ! window of PE me back to t0 (local put while closed)
  subroutine reset_window(k, win, wmem, n, tag)
    integer, intent(IN) :: k, n
    type(rpncomm_window), intent(IN) :: win
    type(C_PTR), intent(IN) :: wmem
    character(len=*), intent(IN) :: tag
    integer(kind=8), dimension(n), target :: buf
    real(kind=8), dimension(n) :: v
    integer :: q, j, ierr
    do q = 0, npes-1
      do j = 1, 4
        v(4*q + j) = t0(k, me, q, j)
      enddo
    enddo
    call tset(k, c_loc(buf), 0, v)
    call RPN_COMM_i_win_put_l(win, c_loc(buf), 0, n, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' put_l reset')
    v = -1
    call tget(k, wmem, 0, v(1:n))
    do q = 0, npes-1
      do j = 1, 4
        if (v(4*q + j) /= t0(k, me, q, j)) then
          call check(.false., tag//' window memory after put_l reset')
          return
        endif
      enddo
    enddo
  end subroutine reset_window

  subroutine one_case(k, wkind, sync)
    integer, intent(IN) :: k, wkind, sync
    character(len=*), dimension(3), parameter :: sname = [character(len=8) :: 'passive', 'fence', 'group']
    type(rpncomm_window) :: win
    type(C_PTR) :: wmem, gptr
    integer(kind=8), dimension(:), allocatable, target :: warr
    integer(kind=8), dimension(4), target :: xbuf, gbuf
    real(kind=8), dimension(:), allocatable :: v, expect
    real(kind=8), dimension(4) :: gv, gexp
    integer :: n, ierr, iop, g, q, j, left, right
    character(len=:), allocatable :: tag, tag2

    tag = trim(sname(sync))//'/'//merge('user    ', 'internal', wkind == 1)//'/'//dtname(k)
    call section('getacc_r '//tag)
    left  = mod(me - 1 + npes, npes)
    right = mod(me + 1, npes)
    n = 4*npes
    allocate(warr(n), v(n), expect(n))
    warr = 0
    call make_window(k, wkind, n, warr, win, wmem, tag)
    if (sync == 3) then
      call RPN_COMM_i_win_group(win, ring_pes(), ring_pes(), ierr)
      call check_ierr(ierr, RPN_COMM_OK, tag//' win_group')
    endif

    do iop = 1, NOPS
      do g = 0, 3
        select case (g)
        case (0); tag2 = tag//' '//trim(opnames(iop))//' garray=null'
        case (1); tag2 = tag//' '//trim(opnames(iop))//' garray before'
        case (2); tag2 = tag//' '//trim(opnames(iop))//' garray after'
        case default; tag2 = tag//' '//trim(opnames(iop))//' acc_r'
        end select
        call reset_window(k, win, wmem, n, tag2)
        call tset(k, c_loc(xbuf), 0, [(x0(k, me, j), j = 1, 4)])
        call tset(k, c_loc(gbuf), 0, [(777.0_8, j = 1, 4)])
        gptr = C_NULL_PTR
        if (g == 1 .or. g == 2) gptr = c_loc(gbuf)

        call RPN_COMM_i_win_open(win, sync /= 1, ierr)
        call check_ierr(ierr, RPN_COMM_OK, tag2//' open')
        if (g == 3) then
          call RPN_COMM_i_win_acc_r(win, c_loc(xbuf), right, 4*me, 4, opers(iop), ierr)
        else
          call RPN_COMM_i_win_getacc_r(win, c_loc(xbuf), gptr, g == 1, right, 4*me, 4, opers(iop), ierr)
        endif
        if (op_valid(k, iop)) then
          call check_ierr(ierr, RPN_COMM_OK, tag2//' getacc_r')
        else
          call check_ierr(ierr, RPN_COMM_ERROR, tag2//' getacc_r (operator invalid for reals)')
        endif
        call RPN_COMM_i_win_close(win, ierr)
        call check_ierr(ierr, RPN_COMM_OK, tag2//' close')

        ! my window: only the slot of my left neighbour changed (if the operator was valid)
        do q = 0, npes-1
          do j = 1, 4
            expect(4*q + j) = t0(k, me, q, j)
            if (q == left .and. op_valid(k, iop)) expect(4*q + j) = apply(iop, t0(k, me, q, j), x0(k, q, j))
          enddo
        enddo
        call tget(k, wmem, 0, v)
        call check_vals(v, expect, tag2//' target window')
        ! what came back into garray
        do j = 1, 4
          gexp(j) = 777.0_8
          if (g == 1 .and. op_valid(k, iop)) gexp(j) = t0(k, right, me, j)
          if (g == 2 .and. op_valid(k, iop)) gexp(j) = apply(iop, t0(k, right, me, j), x0(k, me, j))
        enddo
        call tget(k, c_loc(gbuf), 0, gv)
        call check_vals(gv, gexp, tag2//' garray')
        ! operand untouched
        call tget(k, c_loc(xbuf), 0, gv)
        call check_vals(gv, [(x0(k, me, j), j = 1, 4)], tag2//' larray unchanged')
      enddo
    enddo

    call RPN_COMM_i_win_free(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' free')
  end subroutine one_case

  ! RPN_COMM_i_win_oper: the default operator used with oper = NULL_rpncomm_operator
  subroutine default_oper_case(k, wkind)
    integer, intent(IN) :: k, wkind
    type(rpncomm_window) :: win
    type(C_PTR) :: wmem
    integer(kind=8), dimension(:), allocatable, target :: warr
    integer(kind=8), dimension(4), target :: xbuf, gbuf
    real(kind=8), dimension(:), allocatable :: v, expect
    real(kind=8), dimension(4) :: gv, gexp
    integer, dimension(4), parameter :: seq = [4, 11, 1, 5]    ! MAX, REPLACE, SUM, BAND
    integer :: n, ierr, ierr_set, s, iop, eff, q, j, left, right
    character(len=:), allocatable :: tag
    type(rpncomm_operator) :: garbage

    tag = 'win_oper/'//merge('user    ', 'internal', wkind == 1)//'/'//dtname(k)
    call section(tag)
    left  = mod(me - 1 + npes, npes)
    right = mod(me + 1, npes)
    n = 4*npes
    allocate(warr(n), v(n), expect(n))
    warr = 0
    call make_window(k, wkind, n, warr, win, wmem, tag)

    ! a never-created operator handle is refused
    garbage = rpncomm_operator(C_NULL_PTR, 4242, 77)
    call RPN_COMM_i_win_oper(win, garbage, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, tag//' win_oper with a garbage operator')

    do s = 1, size(seq)
      iop = seq(s)
      call RPN_COMM_i_win_oper(win, opers(iop), ierr_set)
      if (op_valid(k, iop)) call check_ierr(ierr_set, RPN_COMM_OK, tag//' win_oper '//trim(opnames(iop)))
      call reset_window(k, win, wmem, n, tag)
      call tset(k, c_loc(xbuf), 0, [(x0(k, me, j), j = 1, 4)])
      call tset(k, c_loc(gbuf), 0, [(777.0_8, j = 1, 4)])
      call RPN_COMM_i_win_open(win, .false., ierr)
      call check_ierr(ierr, RPN_COMM_OK, tag//' open')
      call RPN_COMM_i_win_getacc_r(win, c_loc(xbuf), c_loc(gbuf), .false., right, 4*me, 4, &
                                   NULL_rpncomm_operator, ierr)
      eff = iop                 ! operator that must have been applied, 0 = nothing moved
      if (op_valid(k, iop)) then
        call check_ierr(ierr, RPN_COMM_OK, tag//' getacc_r with default '//trim(opnames(iop)))
      else
        ! BAND on reals: refused either when set (the previous default stays) or when used
        call check(ierr_set == RPN_COMM_ERROR .or. ierr == RPN_COMM_ERROR, &
                   tag//' BAND on reals must be refused (win_oper or getacc_r)')
        if (ierr_set == RPN_COMM_ERROR) eff = seq(s-1)
        if (ierr /= RPN_COMM_OK) eff = 0
      endif
      call RPN_COMM_i_win_close(win, ierr)
      call check_ierr(ierr, RPN_COMM_OK, tag//' close')
      do q = 0, npes-1
        do j = 1, 4
          expect(4*q + j) = t0(k, me, q, j)
          if (q == left .and. eff > 0) expect(4*q + j) = apply(eff, t0(k, me, q, j), x0(k, q, j))
        enddo
      enddo
      call tget(k, wmem, 0, v)
      call check_vals(v, expect, tag//' target window, default '//trim(opnames(iop)))
      if (eff > 0) then
        gexp = [(apply(eff, t0(k, right, me, j), x0(k, me, j)), j = 1, 4)]
      else
        gexp = 777.0_8
      endif
      call tget(k, c_loc(gbuf), 0, gv)
      call check_vals(gv, gexp, tag//' garray (after), default '//trim(opnames(iop)))
    enddo

    call RPN_COMM_i_win_free(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' free')
  end subroutine default_oper_case

end program test_getacc
