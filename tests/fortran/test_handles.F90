! PES: 1 2 3 4 8
! TIMEOUT: 120
!
! Window handles and window life cycle:
!   - queries: RPN_COMM_i_valid_win, RPN_COMM_i_win_check, get_size, get_size2, get_ptr (1, 2, bad np)
!   - secondary window sizes (5 words per slot, record 1 = (1,0,0,0,0)), reallocation with slots < 0
!   - a freed handle, never-created handles (garbage p/t1/t2, NULL) and stale handles (the table
!     entry reused by a newer window) are refused by every routine, collective ones included,
!     without crash or hang, and without touching any buffer
!   - 300 create/free cycles with per-PE sizes (0 on some PEs), both window kinds, every type,
!     an epoch every few cycles, several windows alive at once
!   - windows of size 0 on every PE
!   - a create where one PE passes a negative size: refused everywhere, nobody hangs
program test_handles
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr
  integer, parameter :: SENT = -4242
  type(rpncomm_communicator) :: com
  type(rpncomm_datatype) :: dint
  type(rpncomm_operator) :: opsum
  integer, dimension(8), target :: lbuf, gbuf, src

  call start('test_handles')
  call RPN_COMM_i_comm(RPN_COMM_GRID, com)
  call RPN_COMM_i_datyp(RPN_COMM_INTEGER, dint)
  call RPN_COMM_i_oper(RPN_COMM_SUM, opsum)
  src = 1
  lbuf = SENT
  gbuf = SENT

  call queries()
  call dead_handles()
  call cycles()
  call zero_size()
  call inconsistent_create()
  call finish('test_handles')

contains

  include 'tutil.inc'

  ! ------------------------------------------------------------------------------------------
  subroutine queries()
    type(rpncomm_window) :: w
    integer, dimension(10), target :: warr
    integer, dimension(:, :), pointer :: rec
    type(C_PTR) :: p
    integer :: ierr
    call section('window queries and secondary window sizes')
    warr = 0
    call RPN_COMM_i_win_create(w, dint, 10, com, c_loc(warr), ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'create')
    call check(RPN_COMM_i_valid_win(w, ierr), 'valid_win of a new window')
    call check_ierr(ierr, RPN_COMM_OK, 'valid_win status')
    call check(.not. RPN_COMM_i_win_check(w, ierr), 'win_check of a new window')
    call check_ierr(ierr, RPN_COMM_OK, 'win_check status')
    call check(RPN_COMM_i_win_get_size(w, ierr) == 10, 'get_size = 10')
    call check_ierr(ierr, RPN_COMM_OK, 'get_size status')
    p = RPN_COMM_i_win_get_ptr(w, 1, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'get_ptr(1)')
    call check(c_associated(p, c_loc(warr)), 'get_ptr(1) of a user-array window is the user array')
    p = RPN_COMM_i_win_get_ptr(w, 2, ierr)
    call check(.not. c_associated(p), 'get_ptr(2) without secondary window is null')
    p = RPN_COMM_i_win_get_ptr(w, 3, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'get_ptr(3)')
    call check(.not. c_associated(p), 'get_ptr(3) is null')
    p = RPN_COMM_i_win_get_ptr(w, 0, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'get_ptr(0)')

    call RPN_COMM_i_win_create_secondary(w, 4, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'create_secondary(4)')
    call check(RPN_COMM_i_win_get_size2(w, ierr) == 20, 'get_size2 = 5*4')
    call check_ierr(ierr, RPN_COMM_OK, 'get_size2 status')
    call check(RPN_COMM_i_win_get_size(w, ierr) == 10, 'get_size unchanged by the secondary window')
    p = RPN_COMM_i_win_get_ptr(w, 2, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'get_ptr(2)')
    call check(c_associated(p), 'get_ptr(2) not null')
    if (c_associated(p)) then
      call c_f_pointer(p, rec, [5, 4])
      call check(all(rec(:, 1) == [1, 0, 0, 0, 0]), 'record 1 of a new secondary window is (1,0,0,0,0)')
    endif
    call RPN_COMM_i_win_create_secondary(w, -6, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'create_secondary(-6) reallocation')
    call check(RPN_COMM_i_win_get_size2(w, ierr) == 30, 'get_size2 = 5*6 after reallocation')
    p = RPN_COMM_i_win_get_ptr(w, 2, ierr)
    call check(c_associated(p), 'get_ptr(2) after reallocation')
    if (c_associated(p)) then
      call c_f_pointer(p, rec, [5, 6])
      call check(all(rec(:, 1) == [1, 0, 0, 0, 0]), 'record 1 after reallocation is (1,0,0,0,0)')
    endif

    call RPN_COMM_i_win_open(w, .false., ierr)
    call check(RPN_COMM_i_win_check(w, ierr), 'win_check while exposed (passive)')
    call RPN_COMM_i_win_close(w, ierr)
    call RPN_COMM_i_win_open(w, .true., ierr)
    call check(RPN_COMM_i_win_check(w, ierr), 'win_check while exposed (active)')
    call RPN_COMM_i_win_close(w, ierr)
    call check(.not. RPN_COMM_i_win_check(w, ierr), 'win_check after close')

    call RPN_COMM_i_win_free(w, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'free')
    call check(.not. c_associated(w%p) .and. w%t1 == 0 .and. w%t2 == 0, 'free sets the handle to NULL')
    call check(.not. RPN_COMM_i_valid_win(w, ierr), 'valid_win of the NULL handle after free')
    call check_ierr(ierr, RPN_COMM_ERROR, 'valid_win status after free')
  end subroutine queries

  ! ------------------------------------------------------------------------------------------
  ! every routine must refuse the handle `bad`; collective ones are called on every PE
  subroutine refused_everywhere(bad, what)
    type(rpncomm_window), intent(IN) :: bad
    character(len=*), intent(IN) :: what
    type(rpncomm_window) :: b
    integer :: ierr
    type(C_PTR) :: p
    b = bad
    call check(.not. RPN_COMM_i_valid_win(b, ierr), what//': valid_win')
    call check_ierr(ierr, RPN_COMM_ERROR, what//': valid_win status')
    call check(.not. RPN_COMM_i_win_check(b, ierr), what//': win_check value')
    call check_ierr(ierr, RPN_COMM_ERROR, what//': win_check')
    call check(RPN_COMM_i_win_get_size(b, ierr) == -1, what//': get_size = -1')
    call check_ierr(ierr, RPN_COMM_ERROR, what//': get_size')
    call check(RPN_COMM_i_win_get_size2(b, ierr) == -1, what//': get_size2 = -1')
    call check_ierr(ierr, RPN_COMM_ERROR, what//': get_size2')
    p = RPN_COMM_i_win_get_ptr(b, 1, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, what//': get_ptr')
    call check(.not. c_associated(p), what//': get_ptr is null')
    call RPN_COMM_i_win_open(b, .true., ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, what//': open active')
    call RPN_COMM_i_win_open(b, .false., ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, what//': open passive')
    call RPN_COMM_i_win_close(b, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, what//': close')
    call RPN_COMM_i_win_put_l(b, c_loc(src), 0, 1, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, what//': put_l')
    call RPN_COMM_i_win_get_l(b, c_loc(lbuf), 0, 1, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, what//': get_l')
    call RPN_COMM_i_win_put_r(b, c_loc(src), 0, 0, 1, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, what//': put_r')
    call RPN_COMM_i_win_get_r(b, c_loc(lbuf), 0, 0, 1, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, what//': get_r')
    call RPN_COMM_i_win_getacc_r(b, c_loc(src), c_loc(gbuf), .true., 0, 0, 1, opsum, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, what//': getacc_r')
    call RPN_COMM_i_win_group(b, [me], [me], ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, what//': win_group')
    call RPN_COMM_i_win_oper(b, opsum, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, what//': win_oper')
    call RPN_COMM_i_win_create_secondary(b, 3, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, what//': create_secondary')
    call RPN_COMM_i_win_post(b, [0], [0], [1], [1], [1], 1, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, what//': post')
    call RPN_COMM_i_win_free(b, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, what//': free')
    call check(all(lbuf == SENT) .and. all(gbuf == SENT), what//': local buffers changed')
  end subroutine refused_everywhere

  subroutine dead_handles()
    type(rpncomm_window) :: w, wold, w2, forged
    integer, dimension(4), target :: warr, x
    integer, dimension(1), target :: marker
    integer :: ierr, i, right, left
    type(rpncomm_window), dimension(20) :: olds

    call section('freed, never-created and stale handles')
    right = mod(me + 1, npes)
    left  = mod(me - 1 + npes, npes)
    call refused_everywhere(NULL_rpncomm_window, 'NULL handle')
    call refused_everywhere(rpncomm_window(C_NULL_PTR, 1, 1), 'garbage (null, 1, 1)')
    call refused_everywhere(rpncomm_window(C_NULL_PTR, 0, 7), 'garbage (null, 0, 7)')
    call refused_everywhere(rpncomm_window(c_loc(x), 12345, -1), 'garbage (local address, 12345, -1)')
    call refused_everywhere(rpncomm_window(c_loc(x), 0, 0), 'garbage (local address, 0, 0)')
    call refused_everywhere(rpncomm_window(transfer(int(z'7FFF00001230', C_INTPTR_T), C_NULL_PTR), 2, 3), &
                            'garbage (wild address, 2, 3)')
    call refused_everywhere(rpncomm_window(C_NULL_PTR, -huge(0), huge(0)), 'garbage (null, -huge, huge)')

    warr = 0
    call RPN_COMM_i_win_create(w, dint, 4, com, c_loc(warr), ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'create')
    forged = w
    forged%t2 = forged%t2 + 1
    call refused_everywhere(forged, 'live handle with t2+1')
    forged = w
    forged%t1 = forged%t1 + 1000
    call refused_everywhere(forged, 'live handle with t1+1000')
    call check(RPN_COMM_i_valid_win(w, ierr), 'live window still valid after forged handles')
    wold = w
    call RPN_COMM_i_win_free(w, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'free')
    call refused_everywhere(wold, 'freed handle')

    ! new windows (the freed table entry is free for reuse): the old handles stay dead
    do i = 1, size(olds)
      call RPN_COMM_i_win_create(w2, dint, 4, com, c_loc(warr), ierr)
      call check_ierr(ierr, RPN_COMM_OK, 'create after free '//str(i))
      call check(RPN_COMM_i_valid_win(w2, ierr), 'new window valid '//str(i))
      call check(.not. RPN_COMM_i_valid_win(wold, ierr), 'stale handle invalid while entry reused '//str(i))
      if (i > 1) call check(.not. RPN_COMM_i_valid_win(olds(i-1), ierr), 'previous stale handle '//str(i))
      olds(i) = w2
      if (i == size(olds) / 2) then
        call refused_everywhere(wold, 'stale handle (first window)')
        call refused_everywhere(olds(i-1), 'stale handle (previous window)')
      endif
      if (i == size(olds)) exit
      call RPN_COMM_i_win_free(w2, ierr)
      call check_ierr(ierr, RPN_COMM_OK, 'free '//str(i))
    enddo
    ! the live one works: fence epoch with a put to the right neighbour
    marker = 300 + me
    warr = 0
    call RPN_COMM_i_win_open(w2, .true., ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'open of the newest window')
    call RPN_COMM_i_win_put_r(w2, c_loc(marker), right, 1, 1, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'put_r on the newest window')
    call RPN_COMM_i_win_put_r(wold, c_loc(marker), right, 2, 1, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'put_r with the stale handle during an epoch of the new window')
    call RPN_COMM_i_win_close(w2, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'close of the newest window')
    call check(all(warr == [0, 300 + left, 0, 0]), 'newest window received the put, stale handle moved nothing')
    call RPN_COMM_i_win_free(w2, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'free of the newest window')
    call RPN_COMM_i_win_free(olds(size(olds)), ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'second free through a copy of the handle')
  end subroutine dead_handles

  ! ------------------------------------------------------------------------------------------
  integer function cyc_size(pe, c)      ! window size of PE pe in cycle c (0 on some PEs)
    integer, intent(IN) :: pe, c
    cyc_size = mod(pe + c, 4) * 3
  end function cyc_size

  subroutine cycles()
    integer, parameter :: NCYC = 300
    type(rpncomm_window) :: w, prev, extra
    integer(kind=8), dimension(:), allocatable, target :: warr, buf
    real(kind=8), dimension(:), allocatable :: v
    type(C_PTR) :: wmem
    type(rpncomm_datatype) :: dt
    integer :: c, k, sz, szr, ierr, right, left, i, slots
    logical :: user, have_extra

    call section('300 create/free cycles, per-PE sizes, both kinds, every type')
    right = mod(me + 1, npes)
    left  = mod(me - 1 + npes, npes)
    prev = NULL_rpncomm_window
    have_extra = .false.
    allocate(buf(16), v(16))
    do c = 1, NCYC
      k = mod(c, 5) + 1
      user = mod(c, 2) == 0
      sz = cyc_size(me, c)
      call RPN_COMM_i_datyp(dtname(k), dt)
      allocate(warr(max(sz, 1)))
      warr = 0
      if (user) then
        call RPN_COMM_i_win_create(w, dt, sz, com, c_loc(warr), ierr)
      else
        call RPN_COMM_i_win_create(w, dt, sz, com, C_NULL_PTR, ierr)
      endif
      if (ierr /= RPN_COMM_OK) then
        call check_ierr(ierr, RPN_COMM_OK, 'cycle '//str(c)//' create')
        deallocate(warr)
        cycle
      endif
      call check(RPN_COMM_i_valid_win(w, ierr), 'cycle '//str(c)//' valid')
      call check(RPN_COMM_i_win_get_size(w, ierr) == sz, 'cycle '//str(c)//' get_size')
      if (c > 1) call check(.not. RPN_COMM_i_valid_win(prev, ierr), 'cycle '//str(c)//' previous handle dead')
      if (mod(c, 7) == 0) then
        slots = mod(c, 5) + 1
        call RPN_COMM_i_win_create_secondary(w, slots, ierr)
        call check_ierr(ierr, RPN_COMM_OK, 'cycle '//str(c)//' create_secondary')
        call check(RPN_COMM_i_win_get_size2(w, ierr) == 5*slots, 'cycle '//str(c)//' get_size2')
      endif
      if (mod(c, 50) == 25) then          ! a second window alive across cycles
        if (have_extra) then
          call RPN_COMM_i_win_free(extra, ierr)
          call check_ierr(ierr, RPN_COMM_OK, 'cycle '//str(c)//' free extra window')
        endif
        call RPN_COMM_i_win_create(extra, dint, me + 1, com, C_NULL_PTR, ierr)
        call check_ierr(ierr, RPN_COMM_OK, 'cycle '//str(c)//' create extra window')
        have_extra = ierr == RPN_COMM_OK
      endif

      if (mod(c, 6) == 0) then            ! an epoch: put to the right neighbour's whole window
        if (user) then
          wmem = c_loc(warr)
        else
          wmem = RPN_COMM_i_win_get_ptr(w, 1, ierr)
        endif
        szr = cyc_size(right, c)
        call tset(k, c_loc(buf), 0, [(real(c + 10*me + i, 8), i = 1, 16)])
        call RPN_COMM_i_win_open(w, mod(c, 12) == 0, ierr)
        call check_ierr(ierr, RPN_COMM_OK, 'cycle '//str(c)//' open')
        call RPN_COMM_i_win_put_r(w, c_loc(buf), right, 0, szr, ierr)
        call check_ierr(ierr, RPN_COMM_OK, 'cycle '//str(c)//' put_r')
        call RPN_COMM_i_win_put_r(w, c_loc(buf), right, 0, szr + 1, ierr)
        call check_ierr(ierr, RPN_COMM_ERROR, 'cycle '//str(c)//' put_r one past the end of the target')
        call RPN_COMM_i_win_close(w, ierr)
        call check_ierr(ierr, RPN_COMM_OK, 'cycle '//str(c)//' close')
        if (sz > 0) then
          call tget(k, wmem, 0, v(1:sz))
          call check_vals(v(1:sz), [(real(c + 10*left + i, 8), i = 1, sz)], 'cycle '//str(c)//' data')
        endif
      endif

      prev = w
      call RPN_COMM_i_win_free(w, ierr)
      call check_ierr(ierr, RPN_COMM_OK, 'cycle '//str(c)//' free')
      deallocate(warr)
    enddo
    if (have_extra) then
      call check(RPN_COMM_i_valid_win(extra, ierr), 'extra window survived the cycles')
      call RPN_COMM_i_win_free(extra, ierr)
      call check_ierr(ierr, RPN_COMM_OK, 'free extra window')
    endif
    call check(.not. RPN_COMM_i_valid_win(prev, ierr), 'last freed handle dead')
  end subroutine cycles

  ! ------------------------------------------------------------------------------------------
  subroutine zero_size()
    type(rpncomm_window) :: w
    integer :: ierr
    integer, dimension(1), target :: x
    call section('windows of size 0 on every PE')
    call RPN_COMM_i_win_create(w, dint, 0, com, C_NULL_PTR, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'create size 0 (internal)')
    call check(RPN_COMM_i_win_get_size(w, ierr) == 0, 'get_size = 0')
    call RPN_COMM_i_win_open(w, .true., ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'open size 0')
    x = 5
    call RPN_COMM_i_win_put_r(w, c_loc(x), mod(me + 1, npes), 0, 1, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'put_r into a window of size 0')
    call RPN_COMM_i_win_put_r(w, c_loc(x), mod(me + 1, npes), 0, 0, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'put_r of 0 elements into a window of size 0')
    call RPN_COMM_i_win_close(w, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'close size 0')
    call RPN_COMM_i_win_free(w, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'free size 0')
    call RPN_COMM_i_win_create(w, dint, 0, com, c_loc(x), ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'create size 0 (user array)')
    call RPN_COMM_i_win_open(w, .false., ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'open passive size 0')
    call RPN_COMM_i_win_close(w, ierr)
    call RPN_COMM_i_win_free(w, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'free size 0 (user array)')
  end subroutine zero_size

  ! ------------------------------------------------------------------------------------------
  subroutine inconsistent_create()
    type(rpncomm_window) :: w
    integer :: ierr, siz, nok, ierr2
    if (npes < 2) return
    call section('create with a negative size on the last PE only')
    siz = 5
    if (me == npes - 1) siz = -1
    call RPN_COMM_i_win_create(w, dint, siz, com, C_NULL_PTR, ierr)
    if (me == npes - 1) call check_ierr(ierr, RPN_COMM_ERROR, 'create with size -1')
    call RPN_COMM_allreduce(merge(1, 0, ierr == RPN_COMM_OK), nok, 1, RPN_COMM_INTEGER, RPN_COMM_SUM, &
                            RPN_COMM_GRID, ierr2)
    call check(nok == 0, 'create refused on every PE when one PE passes a bad size ('// &
                         str(nok)//' PEs got RPN_COMM_OK)')
  end subroutine inconsistent_create

end program test_handles
