! diag_side_by_side.F90 -- RPN_COMM_diag, built against the original RPN_COMM and against this
! library by side_by_side.sh, which compares what they print: each PE's calls of the callback
! (pass, first) in their order, then its Tmp_8 and R_8 after the call, every value as bits. The
! callback's sums depend on the order of the calls (what comes from the west is multiplied by 3,
! from the north by 5) and on non-integer values, so another chain order or rounding shows.
! Grid: npes x 1, or 1 x npes with the argument "column" (4.6.3 broadcasts along a row and a
! column with the grid's rank of the root as its rank in the row or column communicator, which is
! right on one PE only). No include: implicit interfaces, as the original's callers use them.
module diag_sbs_log
  implicit none
  integer :: ncalls = 0
  integer :: passes(8) = 0
  logical :: firsts(8) = .false.
end module diag_sbs_log

program diag_side_by_side
  use diag_sbs_log
  implicit none
  integer, parameter :: NI = 3, NJ = 2, NK = 2, NR = 2
  integer, parameter :: MINX = 0, MAXX = NI + 1, MINY = -1, MAXY = NJ + 1
  integer :: me, npes, pex, pey, mex, mey, status, ierr, i, j, k, r, round
  real :: arr(MINX:MAXX, MINY:MAXY, NK)
  real(8) :: r8(NK, NR), tmp8(MINY:MAXY, NK, NR)
  integer, external :: RPN_COMM_mype
  external :: RPN_COMM_init, RPN_COMM_finalize, RPN_COMM_diag, diag_sbs_grid, diag_sbs_sub

  pex = 0
  pey = 0
  call RPN_COMM_init(diag_sbs_grid, me, npes, pex, pey)
  status = RPN_COMM_mype(me, mex, mey)
  do round = 1, 2
    do k = 1, NK
      do j = MINY, MAXY
        do i = MINX, MAXX
          arr(i, j, k) = (me * 97 + i * 13 + j * 7 + k * round) / 7.0
        enddo
      enddo
    enddo
    r8 = 0
    tmp8 = 0
    ncalls = 0
    call RPN_COMM_diag(diag_sbs_sub, arr, MINX, MAXX, MINY, MAXY, NI, NJ, NK, r8, NR, tmp8, .false.)
    do i = 1, min(ncalls, size(passes))
      write(*, '(A,I0,A,I0,A,I0,A,I0,A,L1)') 'pe ', me, ' round ', round, ' call ', i, ' pass ', passes(i), &
        ' first ', firsts(i)
    enddo
    do r = 1, NR
      do k = 1, NK
        do j = MINY, MAXY
          write(*, '(A,I0,A,I0,3(A,I0),A,Z16.16)') 'pe ', me, ' round ', round, ' tmp8 ', j, ' ', k, ' ', r, &
            ' ', tmp8(j, k, r)
        enddo
        write(*, '(A,I0,A,I0,2(A,I0),A,Z16.16)') 'pe ', me, ' round ', round, ' r8 ', k, ' ', r, ' ', r8(k, r)
      enddo
    enddo
  enddo
  call RPN_COMM_finalize(ierr)
end program diag_side_by_side

subroutine diag_sbs_grid(px, py)
  implicit none
  integer, intent(INOUT) :: px, py
  character(len=16) :: arg
  integer :: n
  n = px * py
  arg = ' '
  if (command_argument_count() > 0) call get_command_argument(1, arg)
  if (arg == 'column') then
    px = 1
    py = n
  else
    px = n
    py = 1
  endif
end subroutine diag_sbs_grid

subroutine diag_sbs_sub(Array, Minx, Maxx, Miny, Maxy, Ni, Nj, Nk, R_8, Nr, Tmp_8, pass, first)
  use diag_sbs_log
  implicit none
  integer :: Minx, Maxx, Miny, Maxy, Ni, Nj, Nk, Nr, pass
  logical :: first
  real :: Array(Minx:Maxx, Miny:Maxy, Nk)
  real(8) :: R_8(Nk, Nr), Tmp_8(Miny:Maxy, Nk, Nr)
  integer :: i, j, k, r
  real(8) :: s
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
            s = s + Array(i, j, k) / (r + 2.0d0)
          enddo
          if (first) then
            Tmp_8(j, k, r) = s
          else
            Tmp_8(j, k, r) = Tmp_8(j, k, r) * 3.1d0 + s
          endif
        enddo
      else
        s = sum(Tmp_8(:, k, r)) / 1.7d0 + Array(1, 1, k) * r
        if (first) then
          R_8(k, r) = s
        else
          R_8(k, r) = R_8(k, r) * 5.3d0 + s
        endif
      endif
    enddo
  enddo
end subroutine diag_sbs_sub
