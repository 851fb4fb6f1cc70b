! PES: 1 2 3 4 8
! TIMEOUT: 180
!
! Concurrent accumulates lose no update, fetch-and-add hands out unique tickets:
!   - passive: every PE adds (me+1) NITER times to element 0 of PE 0 (hot spot) and adds 1 to
!     element 1 of every PE NITER times (all to all); exact totals
!   - fence: the same hot spot inside one epoch, plus MAX from every PE
!   - tickets: every PE takes K tickets with getacc_r SUM 1, garray before (and after), on one
!     element of PE 0, in passive mode (one op per call) and in one fence epoch; the tickets of all
!     PEs (allgather) are exactly 0..npes*K-1 (1..npes*K with after), each once
! on MPI_INTEGER, MPI_INTEGER8, MPI_REAL8 and MPI_REAL, user-array and internal windows.
program test_concurrent
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr
  integer, parameter :: NITER = 300, K = 100
  type(rpncomm_operator) :: opsum, opmax

  call start('test_concurrent')
  call RPN_COMM_i_oper(RPN_COMM_SUM, opsum)
  call RPN_COMM_i_oper(RPN_COMM_MAX, opmax)
  call one_type(1, 1)
  call one_type(1, 2)
  call one_type(3, 2)
  call one_type(4, 1)
  call one_type(2, 2)
  call finish('test_concurrent')

contains

  include 'tutil.inc'

  subroutine one_type(k, wkind)
    integer, intent(IN) :: k, wkind
    type(rpncomm_window) :: win
    type(rpncomm_datatype) :: dtype
    type(rpncomm_communicator) :: com
    integer, parameter :: N = 8
    integer(kind=8), dimension(N), target :: warr, zero
    integer(kind=8), dimension(1), target :: one, val
    integer(kind=8), dimension(NITER), target :: mx
    type(C_PTR) :: wmem
    real(kind=8), dimension(N) :: v
    integer :: ierr, it, p, i
    character(len=:), allocatable :: tag

    tag = merge('user    ', 'internal', wkind == 1)//'/'//dtname(k)
    call RPN_COMM_i_comm(RPN_COMM_GRID, com)
    call RPN_COMM_i_datyp(dtname(k), dtype)
    warr = 0
    if (wkind == 1) then
      call RPN_COMM_i_win_create(win, dtype, N, com, c_loc(warr), ierr)
      wmem = c_loc(warr)
    else
      call RPN_COMM_i_win_create(win, dtype, N, com, C_NULL_PTR, ierr)
      wmem = RPN_COMM_i_win_get_ptr(win, 1, ierr)
    endif
    call check_ierr(ierr, RPN_COMM_OK, tag//' create')
    call tset(k, c_loc(zero), 0, [(0.0_8, i = 1, N)])

    ! ---------------------------------------------------------------- passive hot spot
    call section('passive hot spot and all-to-all SUM, '//tag)
    call RPN_COMM_i_win_put_l(win, c_loc(zero), 0, N, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' put_l zero')
    call RPN_COMM_i_win_open(win, .false., ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' open passive')
    call tset(k, c_loc(val), 0, [real(me + 1, 8)])
    call tset(k, c_loc(one), 0, [1.0_8])
    do it = 1, NITER
      call RPN_COMM_i_win_getacc_r(win, c_loc(val), C_NULL_PTR, .false., 0, 0, 1, opsum, ierr)
      if (ierr /= RPN_COMM_OK) call check_ierr(ierr, RPN_COMM_OK, tag//' hot spot getacc_r')
      do p = 0, npes-1
        call RPN_COMM_i_win_getacc_r(win, c_loc(one), C_NULL_PTR, .false., mod(me + p, npes), 1, 1, &
                                     NULL_rpncomm_operator, ierr)
        if (ierr /= RPN_COMM_OK) call check_ierr(ierr, RPN_COMM_OK, tag//' all-to-all getacc_r')
      enddo
    enddo
    call RPN_COMM_i_win_close(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' close passive')
    call tget(k, wmem, 0, v)
    if (me == 0) call check(v(1) == real(NITER, 8)*npes*(npes + 1)/2, &
                            tag//' passive hot spot total = '//strd(v(1)))
    call check(v(2) == real(NITER*npes, 8), tag//' passive all-to-all total = '//strd(v(2)))

    ! ---------------------------------------------------------------- fence hot spot
    call section('fence hot spot SUM and MAX, '//tag)
    call RPN_COMM_i_win_put_l(win, c_loc(zero), 0, N, ierr)
    ! origin buffers must not change during a fence epoch: one operand per MAX call
    call tset(k, c_loc(mx), 0, [(real(me*NITER + it, 8), it = 1, NITER)])
    call RPN_COMM_i_win_open(win, .true., ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' open fence')
    do it = 1, NITER
      call RPN_COMM_i_win_getacc_r(win, c_loc(val), C_NULL_PTR, .false., 0, 2, 1, opsum, ierr)
      if (ierr /= RPN_COMM_OK) call check_ierr(ierr, RPN_COMM_OK, tag//' fence getacc_r SUM')
      call RPN_COMM_i_win_getacc_r(win, tloc(k, c_loc(mx), it-1), C_NULL_PTR, .false., 0, 3, 1, opmax, ierr)
      if (ierr /= RPN_COMM_OK) call check_ierr(ierr, RPN_COMM_OK, tag//' fence getacc_r MAX')
    enddo
    call RPN_COMM_i_win_close(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' close fence')
    call tget(k, wmem, 0, v)
    if (me == 0) then
      call check(v(3) == real(NITER, 8)*npes*(npes + 1)/2, tag//' fence hot spot total = '//strd(v(3)))
      call check(v(4) == real(npes*NITER, 8), tag//' fence MAX = '//strd(v(4)))
    endif

    ! ---------------------------------------------------------------- tickets
    call section('fetch-and-add tickets, '//tag)
    call tickets(k, win, wmem, zero, .false., .true., tag//' passive tickets (before)')
    call tickets(k, win, wmem, zero, .false., .false., tag//' passive tickets (after)')
    call tickets(k, win, wmem, zero, .true., .true., tag//' fence tickets (before)')

    call RPN_COMM_i_win_free(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' free')
  end subroutine one_type

  subroutine tickets(k, win, wmem, zero, active, before, tag)
    integer, intent(IN) :: k
    type(rpncomm_window), intent(IN) :: win
    type(C_PTR), intent(IN) :: wmem
    integer(kind=8), dimension(:), intent(IN), target :: zero
    logical, intent(IN) :: active, before
    character(len=*), intent(IN) :: tag
    integer(kind=8), dimension(1), target :: one
    integer(kind=8), dimension(K), target :: tick
    real(kind=8), dimension(K) :: tv
    real(kind=8), dimension(1) :: v
    integer, dimension(K) :: mine
    integer, dimension(:), allocatable :: allt, seen
    integer :: ierr, i, base, bad

    call RPN_COMM_i_win_put_l(win, c_loc(zero), 0, size(zero), ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' put_l zero')
    call tset(k, c_loc(one), 0, [1.0_8])
    call tset(k, c_loc(tick), 0, [(-5.0_8, i = 1, K)])
    call RPN_COMM_i_win_open(win, active, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' open')
    do i = 1, K
      call RPN_COMM_i_win_getacc_r(win, c_loc(one), tloc(k, c_loc(tick), i-1), before, 0, 5, 1, &
                                   opsum, ierr)
      if (ierr /= RPN_COMM_OK) call check_ierr(ierr, RPN_COMM_OK, tag//' getacc_r ticket')
    enddo
    call RPN_COMM_i_win_close(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' close')

    call tget(k, c_loc(tick), 0, tv)
    mine = nint(tv)
    allocate(allt(K*npes), seen(K*npes))
    allt = -1
    call RPN_COMM_allgather(mine, K, RPN_COMM_INTEGER, allt, K, RPN_COMM_INTEGER, RPN_COMM_GRID, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' allgather')
    base = 0
    if (.not. before) base = 1
    seen = 0
    bad = 0
    do i = 1, K*npes
      if (allt(i) - base < 0 .or. allt(i) - base >= K*npes) then
        bad = bad + 1
      else
        seen(allt(i) - base + 1) = seen(allt(i) - base + 1) + 1
      endif
    enddo
    call check(bad == 0, tag//': '//str(bad)//' tickets out of range')
    call check(all(seen == 1), tag//': tickets not unique, '//str(count(seen /= 1))//' wrong')
    if (me == 0) then
      call tget(k, wmem, 5, v)
      call check(v(1) == real(K*npes, 8), tag//': counter = '//strd(v(1)))
    endif
  end subroutine tickets

end program test_concurrent
