! PES: 1 2 4 6
! TIMEOUT: 120
!
! RPN_COMM_diag with a callback whose sums depend on the order of the calls: pass 1 multiplies
! what it got from the west by 3 before adding its own row sums, pass 2 multiplies what it got
! from the north by 5 before adding. Every PE checks, against a reference computed from every
! PE's array, the row's Tmp_8 (the eastmost PE's) and the column's R_8 (the southmost PE's), its
! two calls of the callback (pass 1 first, first = .true. on the westmost PE only; pass 2,
! first = .true. on the northmost PE only) and that its array is unchanged; twice in a row.
! Then RPN_COMM_exchange_ew followed by RPN_COMM_exchange_ns: the same array as RPN_COMM_xch_halo
! (gni = ni * pe_nx, npol_row = 0), every periodicity, but for the corners beyond a non-periodic x
! edge (the y neighbour's x halo there); after exchange_ew alone the x halos of rows 1..nj as
! there, every other point unchanged.
! Grids: 1 x 1, 2 x 1, 2 x 2, 3 x 2.
module diag_test_log
  implicit none
  integer :: ncalls = 0
  integer :: passes(4) = 0
  logical :: firsts(4) = .false.
end module diag_test_log

program test_diag
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr, pex, pey, mex, mey, status
  integer, parameter :: NI = 4, NJ = 3, NK = 2, NR = 3
  integer, parameter :: MINX = -1, MAXX = NI + 1, MINY = 0, MAXY = NJ + 1
  external :: diag_test_sub, RPN_COMM_diag, RPN_COMM_exchange_ew, RPN_COMM_exchange_ns
  integer :: p, round

  nerr = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(grid_shape, me, npes, pex, pey)
  status = RPN_COMM_mype(me, mex, mey)
  if (me == 0) write(*, '(A,I0,A,I0,A,I0,A)') 'test_diag: running on ', npes, ' PEs, a ', pex, ' x ', pey, ' grid'
  call section('RPN_COMM_diag')
  do round = 1, 2
    call diag()
  enddo
  call section('RPN_COMM_exchange_ew, RPN_COMM_exchange_ns')
  do p = 0, 3
    call exchange(btest(p, 0), btest(p, 1))
  enddo
  call finish('test_diag')
contains
  subroutine grid_shape(px, py)
    integer, intent(INOUT) :: px, py
    integer :: n
    n = px * py
    select case (n)
    case (4)
      px = 2
      py = 2
    case (6)
      px = 3
      py = 2
    case default
      px = n
      py = 1
    end select
  end subroutine grid_shape

  ! the array of the PE at (x, y), halos included: small integers, exact in real and double
  real function a(x, y, i, j, k)
    integer, intent(IN) :: x, y, i, j, k
    a = real(x * 64 + y * 16 + i + 2 * j + 3 * k)
  end function a

  ! the row y's Tmp_8 after the west-to-east chain
  subroutine row_result(y, t)
    integer, intent(IN) :: y
    real(kind=kind(1.d0)), intent(OUT) :: t(MINY:MAXY, NK, NR)
    integer :: x, i, j, k, r
    real(kind=kind(1.d0)) :: s
    do x = 0, pex - 1
      do r = 1, NR
        do k = 1, NK
          do j = MINY, MAXY
            s = 0
            do i = 1, NI
              s = s + a(x, y, i, j, k)
            enddo
            s = s * r
            if (x == 0) then
              t(j, k, r) = s
            else
              t(j, k, r) = t(j, k, r) * 3 + s
            endif
          enddo
        enddo
      enddo
    enddo
  end subroutine row_result

  ! the column x's R_8 after the north-to-south chain
  subroutine column_result(x, rr)
    integer, intent(IN) :: x
    real(kind=kind(1.d0)), intent(OUT) :: rr(NK, NR)
    real(kind=kind(1.d0)) :: t(MINY:MAXY, NK, NR), s
    integer :: y, k, r
    do y = pey - 1, 0, -1
      call row_result(y, t)
      do r = 1, NR
        do k = 1, NK
          s = sum(t(:, k, r)) + a(x, y, 1, 1, k) * r
          if (y == pey - 1) then
            rr(k, r) = s
          else
            rr(k, r) = rr(k, r) * 5 + s
          endif
        enddo
      enddo
    enddo
  end subroutine column_result

  subroutine diag()
    use diag_test_log
    real :: arr(MINX:MAXX, MINY:MAXY, NK), arr0(MINX:MAXX, MINY:MAXY, NK)
    real(kind=kind(1.d0)) :: r8(NK, NR), tmp8(MINY:MAXY, NK, NR), tref(MINY:MAXY, NK, NR), rref(NK, NR)
    integer :: i, j, k
    do k = 1, NK
      do j = MINY, MAXY
        do i = MINX, MAXX
          arr(i, j, k) = a(mex, mey, i, j, k)
        enddo
      enddo
    enddo
    arr0 = arr
    r8 = -1
    tmp8 = -1
    ncalls = 0
    call RPN_COMM_diag(diag_test_sub, arr, MINX, MAXX, MINY, MAXY, NI, NJ, NK, r8, NR, tmp8, .false.)
    call row_result(mey, tref)
    call column_result(mex, rref)
    call check(ncalls == 2, 'RPN_COMM_diag: two calls of the callback')
    call check(passes(1) == 1 .and. passes(2) == 2, 'RPN_COMM_diag: pass 1, then pass 2')
    call check(firsts(1) .eqv. (mex == 0), 'RPN_COMM_diag: pass 1 starts on the westmost PE only')
    call check(firsts(2) .eqv. (mey == pey - 1), 'RPN_COMM_diag: pass 2 starts on the northmost PE only')
    call check(all(tmp8 == tref), 'RPN_COMM_diag: Tmp_8 is the row''s, west to east')
    call check(all(r8 == rref), 'RPN_COMM_diag: R_8 is the column''s, north to south')
    call check(all(arr == arr0), 'RPN_COMM_diag: the array is unchanged')
  end subroutine diag

  ! RPN_COMM_exchange_ew then _ns against RPN_COMM_xch_halo; _ew alone against the x halos of
  ! rows 1..nj of that
  subroutine exchange(periodx, periody)
    logical, intent(IN) :: periodx, periody
    integer, parameter :: HX = 1, HY = 2
    integer :: g(1 - HX:NI + HX, 1 - HY:NJ + HY, NK), ref(1 - HX:NI + HX, 1 - HY:NJ + HY, NK)
    integer :: g0(1 - HX:NI + HX, 1 - HY:NJ + HY, NK)
    integer :: i, j, k
    character(len=40) :: what
    write(what, '(A,L1,A,L1)') ' periodx=', periodx, ' periody=', periody
    do k = 1, NK
      do j = 1 - HY, NJ + HY
        do i = 1 - HX, NI + HX
          g0(i, j, k) = k * 1000000 + (mex * NI + i + 10) * 1000 + mey * NJ + j + 10
        enddo
      enddo
    enddo
    ref = g0
    call RPN_COMM_xch_halo(ref, 1 - HX, NI + HX, 1 - HY, NJ + HY, NI, NJ, NK, HX, HY, periodx, periody, &
                           NI * pex, 0)
    g = g0
    call RPN_COMM_exchange_ew(g, 1 - HX, NI + HX, 1 - HY, NJ + HY, NI, NJ, NK, HX, periodx, 0)
    call check(all(g(:, 1:NJ, :) == ref(:, 1:NJ, :)), 'RPN_COMM_exchange_ew: rows 1..nj as xch_halo' // trim(what))
    call check(all(g(:, 1 - HY:0, :) == g0(:, 1 - HY:0, :)) .and. &
               all(g(:, NJ + 1:, :) == g0(:, NJ + 1:, :)), 'RPN_COMM_exchange_ew: y halos unchanged' // trim(what))
    call RPN_COMM_exchange_ns(g, 1 - HX, NI + HX, 1 - HY, NJ + HY, NI, NJ, NK, HX, HY, periody, 0)
    ! beyond a non-periodic x edge, the corners of the y halos: xch_halo leaves them, _ns brings
    ! the y neighbour's x halo there as it holds it (its initial values, linear in i)
    if (.not. periodx) then
      do k = 1, NK
        do j = 1 - HY, NJ + HY
          if (j >= 1 .and. j <= NJ) cycle
          do i = 1 - HX, NI + HX
            if ((i < 1 .and. mex == 0) .or. (i > NI .and. mex == pex - 1)) ref(i, j, k) = ref(1, j, k) + (i - 1) * 1000
          enddo
        enddo
      enddo
    endif
    call check(all(g == ref), 'RPN_COMM_exchange_ew + _ns: as xch_halo' // trim(what))
  end subroutine exchange

  include 'tutil.inc'
end program test_diag

! the callback: order-dependent sums (see the header)
subroutine diag_test_sub(Array, Minx, Maxx, Miny, Maxy, Ni, Nj, Nk, R_8, Nr, Tmp_8, pass, first)
  use diag_test_log
  implicit none
  integer :: Minx, Maxx, Miny, Maxy, Ni, Nj, Nk, Nr, pass
  logical :: first
  real :: Array(Minx:Maxx, Miny:Maxy, Nk)
  real(kind=kind(1.d0)) :: R_8(Nk, Nr), Tmp_8(Miny:Maxy, Nk, Nr)
  integer :: i, j, k, r
  real(kind=kind(1.d0)) :: s
  ncalls = ncalls + 1
  if (ncalls <= size(passes)) then
    passes(ncalls) = pass
    firsts(ncalls) = first
  endif
  if (Nj < 0) return
  do r = 1, Nr
    do k = 1, Nk
      if (pass == 1) then
        do j = Miny, Maxy
          s = 0
          do i = 1, Ni
            s = s + Array(i, j, k)
          enddo
          s = s * r
          if (first) then
            Tmp_8(j, k, r) = s
          else
            Tmp_8(j, k, r) = Tmp_8(j, k, r) * 3 + s
          endif
        enddo
      else
        s = sum(Tmp_8(:, k, r)) + Array(1, 1, k) * r
        if (first) then
          R_8(k, r) = s
        else
          R_8(k, r) = R_8(k, r) * 5 + s
        endif
      endif
    enddo
  enddo
end subroutine diag_test_sub
