! PES: 1 2 3 4 8
! TIMEOUT: 90
!
! Data movement in every exposure mode, on every element type, on user-array and internal windows:
!   modes: 1 fence (active, no group)  2 group with every PE  3 group with the two ring neighbours
!          4 passive
!   put_l / get_l while closed (and the window memory seen directly through the user array or
!   RPN_COMM_i_win_get_ptr), put_r / get_r to the ring neighbour and to every PE, getacc_r with the
!   NULL operator (window default SUM) from every PE, two epochs per window.
!
! Window layout (n = 10 + npes elements, origin 0) on each PE:
!   0..3        P: written by the left neighbour (put_r)
!   4..7        G: read-only source set with put_l, read by the right neighbour and by everyone
!   8..7+npes   A: element 8+q written by PE q (put_r to every PE)
!   8+npes, 9+npes  S: accumulated into by every PE (getacc_r, garray null)
program test_modes
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr
  integer :: mode, wkind, k

  call start('test_modes')
  do mode = 1, 4
    do wkind = 1, 2
      do k = 1, 5
        call one_case(mode, wkind, k)
      enddo
    enddo
  enddo
  call finish('test_modes')

contains

  include 'tutil.inc'

  subroutine one_case(mode, wkind, k)
    integer, intent(IN) :: mode, wkind, k
    character(len=*), dimension(4), parameter :: mname = &
      [character(len=16) :: 'fence', 'group(all)', 'group(ring)', 'passive']
    character(len=*), dimension(2), parameter :: kname = [character(len=8) :: 'user', 'internal']
    type(rpncomm_window) :: win
    type(rpncomm_datatype) :: dtype
    type(rpncomm_communicator) :: com
    integer(kind=8), dimension(:), allocatable, target :: warr, lbuf, ring_get, all_get, src, acc, tmp
    real(kind=8), dimension(:), allocatable :: init, v, expect
    type(C_PTR) :: wmem
    integer :: n, ierr, i, j, p, ep, left, right, nsum
    integer, dimension(:), allocatable :: grp
    logical :: active
    character(len=:), allocatable :: tag

    tag = trim(mname(mode))//'/'//trim(kname(wkind))//'/'//dtname(k)
    call section('mode '//tag)
    left  = mod(me - 1 + npes, npes)
    right = mod(me + 1, npes)
    n = 10 + npes
    allocate(warr(n), lbuf(n), ring_get(4), all_get(4*npes), src(npes), acc(2), tmp(4))
    allocate(init(n), v(n), expect(n))

    call RPN_COMM_i_comm(RPN_COMM_GRID, com)
    call RPN_COMM_i_datyp(dtname(k), dtype)
    warr = 0
    if (wkind == 1) then
      call RPN_COMM_i_win_create(win, dtype, n, com, c_loc(warr), ierr)
      wmem = c_loc(warr)
    else
      call RPN_COMM_i_win_create(win, dtype, n, com, C_NULL_PTR, ierr)
      wmem = RPN_COMM_i_win_get_ptr(win, 1, ierr)
      call check_ierr(ierr, RPN_COMM_OK, tag//' get_ptr(1)')
      call check(c_associated(wmem), tag//' get_ptr(1) of an internal window is not null')
    endif
    call check_ierr(ierr, RPN_COMM_OK, tag//' create')
    if (.not. c_associated(wmem)) return
    call check(RPN_COMM_i_valid_win(win, ierr), tag//' valid_win after create')
    call check(RPN_COMM_i_win_get_size(win, ierr) == n, tag//' get_size')
    call check(.not. RPN_COMM_i_win_check(win, ierr), tag//' win_check: closed after create')

    if (mode == 2) then
      grp = all_pes()
    else
      grp = ring_pes()
    endif
    if (mode == 2 .or. mode == 3) then
      call RPN_COMM_i_win_group(win, grp, grp, ierr)
      call check_ierr(ierr, RPN_COMM_OK, tag//' win_group')
    endif
    active = mode /= 4

    do ep = 1, 2
      ! ---- local initialisation while closed: put_l of the whole window, then G with put_l
      do i = 0, n-1
        init(i+1) = -(me*1000 + i + 100*ep)
      enddo
      do j = 0, 3
        init(4+j+1) = me*1000 + 500 + j + 10*ep
      enddo
      call tset(k, c_loc(lbuf), 0, init)
      call RPN_COMM_i_win_put_l(win, c_loc(lbuf), 0, 4, ierr)
      call check_ierr(ierr, RPN_COMM_OK, tag//' put_l 0..3')
      call RPN_COMM_i_win_put_l(win, tloc(k, c_loc(lbuf), 8), 8, n-8, ierr)
      call check_ierr(ierr, RPN_COMM_OK, tag//' put_l 8..n-1')
      call RPN_COMM_i_win_put_l(win, tloc(k, c_loc(lbuf), 4), 4, 4, ierr)
      call check_ierr(ierr, RPN_COMM_OK, tag//' put_l of G')
      call tget(k, wmem, 0, v)
      call check_vals(v, init, tag//' window memory after put_l')
      lbuf = 0
      call RPN_COMM_i_win_get_l(win, c_loc(lbuf), 0, n, ierr)
      call check_ierr(ierr, RPN_COMM_OK, tag//' get_l')
      call tget(k, c_loc(lbuf), 0, v)
      call check_vals(v, init, tag//' get_l after put_l')

      ! ---- one exposure epoch
      call RPN_COMM_i_win_open(win, active, ierr)
      call check_ierr(ierr, RPN_COMM_OK, tag//' open')
      call check(RPN_COMM_i_win_check(win, ierr), tag//' win_check: open')

      call tset(k, c_loc(tmp), 0, [(real(me*100 + j + 1 + ep, 8), j = 0, 3)])
      call RPN_COMM_i_win_put_r(win, c_loc(tmp), right, 0, 4, ierr)
      call check_ierr(ierr, RPN_COMM_OK, tag//' put_r to right neighbour')
      ring_get = 0
      call RPN_COMM_i_win_get_r(win, c_loc(ring_get), right, 4, 4, ierr)
      call check_ierr(ierr, RPN_COMM_OK, tag//' get_r from right neighbour')
      if (mode == 4) then
        ! passive: the put is complete on return, read it back at once (only this PE writes there)
        lbuf = 0
        call RPN_COMM_i_win_get_r(win, c_loc(lbuf), right, 0, 4, ierr)
        call check_ierr(ierr, RPN_COMM_OK, tag//' get_r of own put')
        call tget(k, c_loc(lbuf), 0, v(1:4))
        call check_vals(v(1:4), [(real(me*100 + j + 1 + ep, 8), j = 0, 3)], &
                        tag//' passive put_r visible on return')
      endif

      call tset(k, c_loc(acc), 0, [real(me + 1, 8), real(2*(me + 1), 8)])
      if (mode == 3) then
        call RPN_COMM_i_win_getacc_r(win, c_loc(acc), C_NULL_PTR, .false., right, 8+npes, 2, &
                                     NULL_rpncomm_operator, ierr)
        call check_ierr(ierr, RPN_COMM_OK, tag//' getacc_r to right neighbour')
      else
        all_get = 0
        call tset(k, c_loc(src), 0, [(real(100*me + p + 1, 8), p = 0, npes-1)])
        do p = 0, npes-1
          call RPN_COMM_i_win_put_r(win, tloc(k, c_loc(src), p), p, 8+me, 1, ierr)
          call check_ierr(ierr, RPN_COMM_OK, tag//' put_r to PE '//str(p))
          call RPN_COMM_i_win_get_r(win, tloc(k, c_loc(all_get), 4*p), p, 4, 4, ierr)
          call check_ierr(ierr, RPN_COMM_OK, tag//' get_r from PE '//str(p))
          call RPN_COMM_i_win_getacc_r(win, c_loc(acc), C_NULL_PTR, .false., p, 8+npes, 2, &
                                       NULL_rpncomm_operator, ierr)
          call check_ierr(ierr, RPN_COMM_OK, tag//' getacc_r to PE '//str(p))
        enddo
      endif

      call RPN_COMM_i_win_close(win, ierr)
      call check_ierr(ierr, RPN_COMM_OK, tag//' close')
      call check(.not. RPN_COMM_i_win_check(win, ierr), tag//' win_check: closed')

      ! ---- results
      expect = init
      do j = 0, 3
        expect(j+1) = left*100 + j + 1 + ep
      enddo
      if (mode == 3) then
        nsum = left + 1
      else
        do p = 0, npes-1
          expect(8+p+1) = 100*p + me + 1
        enddo
        nsum = npes*(npes + 1)/2
      endif
      expect(8+npes+1) = init(8+npes+1) + nsum
      expect(9+npes+1) = init(9+npes+1) + 2*nsum
      call tget(k, wmem, 0, v)
      call check_vals(v, expect, tag//' window after epoch '//str(ep))
      lbuf = 0
      call RPN_COMM_i_win_get_l(win, c_loc(lbuf), 0, n, ierr)
      call check_ierr(ierr, RPN_COMM_OK, tag//' get_l after epoch')
      call tget(k, c_loc(lbuf), 0, v)
      call check_vals(v, expect, tag//' get_l after epoch '//str(ep))

      call tget(k, c_loc(ring_get), 0, v(1:4))
      call check_vals(v(1:4), [(real(right*1000 + 500 + j + 10*ep, 8), j = 0, 3)], &
                      tag//' get_r from right neighbour')
      if (mode /= 3) then
        do p = 0, npes-1
          call tget(k, c_loc(all_get), 4*p, v(1:4))
          call check_vals(v(1:4), [(real(p*1000 + 500 + j + 10*ep, 8), j = 0, 3)], &
                          tag//' get_r from PE '//str(p))
        enddo
      endif
    enddo

    if (mode == 2 .or. mode == 3) then
      call RPN_COMM_i_win_group(win, [-1], [-1], ierr)
      call check_ierr(ierr, RPN_COMM_OK, tag//' win_group back to fence')
    endif
    call RPN_COMM_i_win_free(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' free')
    call check(.not. RPN_COMM_i_valid_win(win, ierr), tag//' valid_win after free')
  end subroutine one_case

end program test_modes
