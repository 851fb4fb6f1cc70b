! halo_variants.F90 -- the original's other halo variants, on the library's halo exchange
!
! External procedures with the original RPN_COMM's names and dummy arguments; each converts its
! arguments for the C ABI of the Rust core (logical -> int), which checks them and reports
! errors. Like RPN_COMM_xch_halo they have no status argument: a refused call ends the PE with
! status 1 after the library's one-line message. Their signatures are rows of
! fortran/routines.toml.

! East/west halos only (halox wide), of rows jmin..jmax of g(minx:maxx, miny:maxy, nk), 4-byte
! elements; haloy and periody are not used, as in the original.
subroutine RPN_COMM_xch_haloew(g, minx, maxx, miny, maxy, ni, jmin, jmax, nk, halox, haloy, periodx, periody)
  use rpn_comm_windows_types
  use rpn_comm_halo_binding
  use rpn_comm_output_flush, only: rpn_comm_stop_refused
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: g
  type(*), dimension(*), intent(INOUT) :: g
  integer, intent(IN) :: minx, maxx, miny, maxy, ni, jmin, jmax, nk, halox, haloy
  logical, intent(IN) :: periodx, periody
  if (rpncomm_xch_haloew(g, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                         int(ni, C_INT), int(jmin, C_INT), int(jmax, C_INT), int(nk, C_INT), &
                         int(halox, C_INT), int(haloy, C_INT), &
                         merge(1_C_INT, 0_C_INT, periodx), merge(1_C_INT, 0_C_INT, periody)) /= RPN_COMM_OK) &
    call rpn_comm_stop_refused()
end subroutine RPN_COMM_xch_haloew

! North/south halos only (haloy rows) of g(minx:maxx, miny:maxy, nk), 4-byte elements, over
! columns 1-halox..ni+halox: the x halos travel as they are.
subroutine RPN_COMM_xch_halons(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody)
  use rpn_comm_windows_types
  use rpn_comm_halo_binding
  use rpn_comm_output_flush, only: rpn_comm_stop_refused
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: g
  type(*), dimension(*), intent(INOUT) :: g
  integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
  logical, intent(IN) :: periodx, periody
  if (rpncomm_xch_halons(g, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                         int(ni, C_INT), int(nj, C_INT), int(nk, C_INT), int(halox, C_INT), int(haloy, C_INT), &
                         merge(1_C_INT, 0_C_INT, periodx), merge(1_C_INT, 0_C_INT, periody)) /= RPN_COMM_OK) &
    call rpn_comm_stop_refused()
end subroutine RPN_COMM_xch_halons

! The pole flip alone (4-byte elements): on the first and last rows of PEs, the halo rows
! beyond the pole get the rows next to it of the columns half of abs(ggni) away, mirrored.
subroutine RPN_COMM_haloflip(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, ggni)
  use rpn_comm_windows_types
  use rpn_comm_halo_binding
  use rpn_comm_output_flush, only: rpn_comm_stop_refused
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: g
  type(*), dimension(*), intent(INOUT) :: g
  integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, ggni
  if (rpncomm_haloflip(g, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                       int(ni, C_INT), int(nj, C_INT), int(nk, C_INT), int(halox, C_INT), int(haloy, C_INT), &
                       int(ggni, C_INT)) /= RPN_COMM_OK) call rpn_comm_stop_refused()
end subroutine RPN_COMM_haloflip

! Every PE of a row of the grid gets the parts of the row's PEs (PE x's at columns x*nimax+1..),
! then with periodx the halox columns beyond 1..gni wrap around. 4-byte elements.
subroutine RPN_COMM_xch_halosl(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, &
                               gni, npol_row, nimax)
  use rpn_comm_windows_types
  use rpn_comm_halo_binding
  use rpn_comm_output_flush, only: rpn_comm_stop_refused
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: g
  type(*), dimension(*), intent(INOUT) :: g
  integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
  logical, intent(IN) :: periodx, periody
  integer, intent(IN) :: gni, npol_row, nimax
  if (rpncomm_xch_halosl(g, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                         int(ni, C_INT), int(nj, C_INT), int(nk, C_INT), int(halox, C_INT), int(haloy, C_INT), &
                         merge(1_C_INT, 0_C_INT, periodx), merge(1_C_INT, 0_C_INT, periody), &
                         int(gni, C_INT), int(npol_row, C_INT), int(nimax, C_INT)) /= RPN_COMM_OK) &
    call rpn_comm_stop_refused()
end subroutine RPN_COMM_xch_halosl

! RPN_COMM_xch_halox with elements of n 4-byte words (real*8: n = 2).
subroutine RPN_COMM_xch_haloxn(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, &
                               g2, minx2, maxx2, miny2, maxy2, gni, npol_row, n)
  use rpn_comm_windows_types
  use rpn_comm_halo_binding
  use rpn_comm_output_flush, only: rpn_comm_stop_refused
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: g
  type(*), dimension(*), intent(IN) :: g
  integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
  logical, intent(IN) :: periodx, periody
!GCC$ ATTRIBUTES NO_ARG_CHECK :: g2
  type(*), dimension(*), intent(INOUT) :: g2
  integer, intent(IN) :: minx2, maxx2, miny2, maxy2, gni, npol_row, n
  if (rpncomm_xch_halox(g, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                        int(ni, C_INT), int(nj, C_INT), int(nk, C_INT), int(halox, C_INT), int(haloy, C_INT), &
                        merge(1_C_INT, 0_C_INT, periodx), merge(1_C_INT, 0_C_INT, periody), &
                        g2, int(minx2, C_INT), int(maxx2, C_INT), int(miny2, C_INT), int(maxy2, C_INT), &
                        int(gni, C_INT), int(npol_row, C_INT), int(n, C_INT)) /= RPN_COMM_OK) call rpn_comm_stop_refused()
end subroutine RPN_COMM_xch_haloxn

! The adjoint of RPN_COMM_xch_halox: the adjoint exchange of g2 (real*4 sums, as
! RPN_COMM_adj_halo), then g2's part 1:ni x 1:nj copied into g.
subroutine RPN_COMM_adj_halox(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, &
                              g2, minx2, maxx2, miny2, maxy2, gni, npol_row)
  use rpn_comm_windows_types
  use rpn_comm_halo_binding
  use rpn_comm_output_flush, only: rpn_comm_stop_refused
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: g
  type(*), dimension(*), intent(INOUT) :: g
  integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
  logical, intent(IN) :: periodx, periody
!GCC$ ATTRIBUTES NO_ARG_CHECK :: g2
  type(*), dimension(*), intent(INOUT) :: g2
  integer, intent(IN) :: minx2, maxx2, miny2, maxy2, gni, npol_row
  if (rpncomm_adj_halox(g, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                        int(ni, C_INT), int(nj, C_INT), int(nk, C_INT), int(halox, C_INT), int(haloy, C_INT), &
                        merge(1_C_INT, 0_C_INT, periodx), merge(1_C_INT, 0_C_INT, periody), &
                        g2, int(minx2, C_INT), int(maxx2, C_INT), int(miny2, C_INT), int(maxy2, C_INT), &
                        int(gni, C_INT), int(npol_row, C_INT)) /= RPN_COMM_OK) call rpn_comm_stop_refused()
end subroutine RPN_COMM_adj_halox

! The original's short entries, without gni and npol_row (gni = ni, npol_row = 0): xch_halo of
! RPN_COMM_xch_halo, adj_halo of RPN_COMM_adj_halo, adj_halo4 and adj_halo8 of RPN_COMM_adj_halo4
! and RPN_COMM_adj_halo8. A refusal names the routine they are entries of.
subroutine xch_halo(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody)
  use rpn_comm_windows_types
  use rpn_comm_halo_binding
  use rpn_comm_output_flush, only: rpn_comm_stop_refused
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: g
  type(*), dimension(*), intent(INOUT) :: g
  integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
  logical, intent(IN) :: periodx, periody
  if (rpncomm_xch_halo(g, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                       int(ni, C_INT), int(nj, C_INT), int(nk, C_INT), int(halox, C_INT), int(haloy, C_INT), &
                       merge(1_C_INT, 0_C_INT, periodx), merge(1_C_INT, 0_C_INT, periody), &
                       int(ni, C_INT), 0_C_INT, 1_C_INT) /= RPN_COMM_OK) call rpn_comm_stop_refused()
end subroutine xch_halo

subroutine adj_halo(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody)
  use rpn_comm_windows_types
  use rpn_comm_halo_binding
  use rpn_comm_output_flush, only: rpn_comm_stop_refused
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: g
  type(*), dimension(*), intent(INOUT) :: g
  integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
  logical, intent(IN) :: periodx, periody
  if (rpncomm_adj_halo(g, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                       int(ni, C_INT), int(nj, C_INT), int(nk, C_INT), int(halox, C_INT), int(haloy, C_INT), &
                       merge(1_C_INT, 0_C_INT, periodx), merge(1_C_INT, 0_C_INT, periody), &
                       int(ni, C_INT), 0_C_INT, 0_C_INT) /= RPN_COMM_OK) call rpn_comm_stop_refused()
end subroutine adj_halo

subroutine adj_halo4(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody)
  use rpn_comm_windows_types
  use rpn_comm_halo_binding
  use rpn_comm_output_flush, only: rpn_comm_stop_refused
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: g
  type(*), dimension(*), intent(INOUT) :: g
  integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
  logical, intent(IN) :: periodx, periody
  if (rpncomm_adj_halo(g, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                       int(ni, C_INT), int(nj, C_INT), int(nk, C_INT), int(halox, C_INT), int(haloy, C_INT), &
                       merge(1_C_INT, 0_C_INT, periodx), merge(1_C_INT, 0_C_INT, periody), &
                       int(ni, C_INT), 0_C_INT, 4_C_INT) /= RPN_COMM_OK) call rpn_comm_stop_refused()
end subroutine adj_halo4

subroutine adj_halo8(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody)
  use rpn_comm_windows_types
  use rpn_comm_halo_binding
  use rpn_comm_output_flush, only: rpn_comm_stop_refused
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: g
  type(*), dimension(*), intent(INOUT) :: g
  integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
  logical, intent(IN) :: periodx, periody
  if (rpncomm_adj_halo(g, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                       int(ni, C_INT), int(nj, C_INT), int(nk, C_INT), int(halox, C_INT), int(haloy, C_INT), &
                       merge(1_C_INT, 0_C_INT, periodx), merge(1_C_INT, 0_C_INT, periody), &
                       int(ni, C_INT), 0_C_INT, 8_C_INT) /= RPN_COMM_OK) call rpn_comm_stop_refused()
end subroutine adj_halo8

! Limited-area grids (not periodic): on the PEs at the edge of the grid, the outer corner boxes of
! the halo of f (hx x hy, 4-byte elements) along the edge get the halo boxes beyond the edge of the
! neighbours along it; nothing else is written. The circular form fills the same points.
subroutine RPN_COMM_propagate_boundary(f, minx, maxx, miny, maxy, lni, lnj, nk, hx, hy)
  use rpn_comm_windows_types
  use rpn_comm_halo_binding
  use rpn_comm_output_flush, only: rpn_comm_stop_refused
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: f
  type(*), dimension(*), intent(INOUT) :: f
  integer, intent(IN) :: minx, maxx, miny, maxy, lni, lnj, nk, hx, hy
  if (rpncomm_propagate_boundary(f, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                                 int(lni, C_INT), int(lnj, C_INT), int(nk, C_INT), int(hx, C_INT), int(hy, C_INT), &
                                 0_C_INT) /= RPN_COMM_OK) call rpn_comm_stop_refused()
end subroutine RPN_COMM_propagate_boundary

subroutine RPN_COMM_propagate_boundary_circular(f, minx, maxx, miny, maxy, lni, lnj, nk, hx, hy)
  use rpn_comm_windows_types
  use rpn_comm_halo_binding
  use rpn_comm_output_flush, only: rpn_comm_stop_refused
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: f
  type(*), dimension(*), intent(INOUT) :: f
  integer, intent(IN) :: minx, maxx, miny, maxy, lni, lnj, nk, hx, hy
  if (rpncomm_propagate_boundary(f, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                                 int(lni, C_INT), int(lnj, C_INT), int(nk, C_INT), int(hx, C_INT), int(hy, C_INT), &
                                 1_C_INT) /= RPN_COMM_OK) call rpn_comm_stop_refused()
end subroutine RPN_COMM_propagate_boundary_circular

! nwen words wden to the PE north of this one in its column of the grid, nwes words wdes to the
! one south; wdin (room for nwin) gets the north PE's words, nwrn of them, wdis (room for nwis)
! the south PE's, nwrs (0 beyond a non-periodic edge). On a single row of PEs a PE is its own
! neighbour whatever periody, as in the original. status: RPN_COMM_OK; a neighbour's words that
! do not fit end the PE after the library's message, as the original aborts.
subroutine RPN_COMM_swapns(nwen, wden, nwes, wdes, nwin, nwrn, wdin, nwis, nwrs, wdis, periody, status)
  use rpn_comm_windows_types
  use rpn_comm_halo_binding
  use rpn_comm_output_flush, only: rpn_comm_stop_refused
  implicit none
  integer, intent(IN) :: nwen
  integer, intent(IN) :: wden(nwen)
  integer, intent(IN) :: nwes
  integer, intent(IN) :: wdes(nwes)
  integer, intent(IN) :: nwin
  integer, intent(OUT) :: nwrn
  integer, intent(INOUT) :: wdin(nwin)
  integer, intent(IN) :: nwis
  integer, intent(OUT) :: nwrs
  integer, intent(INOUT) :: wdis(nwis)
  logical, intent(IN) :: periody
  integer, intent(OUT) :: status
  integer(C_INT) :: got_n, got_s
  got_n = 0
  got_s = 0
  status = rpncomm_swapns(int(nwen, C_INT), wden, int(nwes, C_INT), wdes, int(nwin, C_INT), got_n, wdin, &
                          int(nwis, C_INT), got_s, wdis, merge(1_C_INT, 0_C_INT, periody))
  nwrn = got_n
  nwrs = got_s
  if (status /= RPN_COMM_OK) call rpn_comm_stop_refused()
end subroutine RPN_COMM_swapns

! The original's self-test driver of the halo exchange: params = gni, gnj, nk, halox, haloy,
! periodx, periody (0 or 1). The global grid is cut with RPN_COMM_limit, each point of the part
! gets k + 10*j + 1000*i (global i, j), RPN_COMM_xch_halo fills the halos, and each PE prints its
! number of halo points that differ from the global value (periodic directions wrapped; nothing
! checked beyond a non-periodic edge) in the original's line "errors= n mex mey"; the last PE
! prints the grid first, PE (0, 0) its array's first level. Returns 0, as the original.
function RPN_COMM_xch_halo_test(nparams, params) result(status)
  use ISO_FORTRAN_ENV, only: output_unit
  implicit none
  integer, intent(IN) :: nparams
  integer, dimension(nparams), intent(IN) :: params
  integer :: status
  integer, external :: RPN_COMM_limit, RPN_COMM_mype
  external :: RPN_COMM_xch_halo, RPN_COMM_allreduce, RPN_COMM_barrier
  integer :: gni, gnj, nk, halox, haloy, me, mex, mey, pex, pey, ierr, errors, i, j, k, ii, jj
  integer :: lminx, lmaxx, lminy, lmaxy, lni, lnj, here(2), dims(2)
  integer, allocatable :: countx(:), offsetx(:), county(:), offsety(:), g(:,:,:)
  logical :: periodx, periody
  status = -1
  if (nparams < 7) then
    write(0, '(A,I0,A)') 'RPN_COMM_xch_halo_test: ', nparams, ' parameters, 7 needed (gni, gnj, nk, halox, haloy, periodx, periody)'
    return
  endif
  gni = params(1)
  gnj = params(2)
  nk = params(3)
  halox = params(4)
  haloy = params(5)
  periodx = params(6) /= 0
  periody = params(7) /= 0
  ierr = RPN_COMM_mype(me, mex, mey)
  here = [mex + 1, mey + 1]
  call RPN_COMM_allreduce(here, dims, 2, 'MPI_INTEGER', 'MPI_MAX', 'GRID', ierr)
  pex = dims(1)
  pey = dims(2)
  allocate(countx(pex), offsetx(pex), county(pey), offsety(pey))
  ierr = RPN_COMM_limit(mex, pex, 1, gni, lminx, lmaxx, countx, offsetx)
  ierr = RPN_COMM_limit(mey, pey, 1, gnj, lminy, lmaxy, county, offsety)
  lni = countx(mex + 1)
  lnj = county(mey + 1)
  if (mex == pex - 1 .and. mey == pey - 1) write(output_unit, '(A,25I5)') 'grid halo exchange test', &
    pex * pey, pex, pey, lminx, lmaxx, lminy, lmaxy, countx, county, 1 - halox, lni + halox, 1 - haloy, lnj + haloy
  allocate(g(lminx - halox:lmaxx + halox, lminy - haloy:lmaxy + haloy, nk))
  g = 99999
  do k = 1, nk
    do j = lminy, lmaxy
      do i = lminx, lmaxx
        g(i, j, k) = k + 10 * j + 1000 * i
      enddo
    enddo
  enddo
  call RPN_COMM_barrier('GRID', ierr)
  call RPN_COMM_xch_halo(g, 1 - halox, lni + halox, 1 - haloy, lnj + haloy, lni, lnj, nk, halox, haloy, &
                         periodx, periody, gni, 0)
  call RPN_COMM_barrier('GRID', ierr)
  if (mex == 0 .and. mey == 0) then
    do j = lmaxy + haloy, lminy - haloy, -1
      write(output_unit, '(1X,I5.4,20(1X,I5.5))') j, g(:, j, 1)
    enddo
  endif
  errors = 0
  do k = 1, nk
    do j = lminy - haloy, lmaxy + haloy
      do i = lminx - halox, lmaxx + halox
        ii = i
        jj = j
        if ((i > gni .or. i < 1) .and. .not. periodx) cycle
        if ((j > gnj .or. j < 1) .and. .not. periody) cycle
        if (i > gni) ii = i - gni
        if (i < 1) ii = i + gni
        if (j > gnj) jj = j - gnj
        if (j < 1) jj = j + gnj
        if (g(i, j, k) /= k + 10 * jj + 1000 * ii) errors = errors + 1
      enddo
    enddo
  enddo
  call RPN_COMM_barrier('GRID', ierr)
  write(output_unit, '(A,25I5)') 'errors=', errors, mex, mey
  status = 0
end function RPN_COMM_xch_halo_test

! The original's self-test of RPN_COMM_exchange_halo, which is empty there: returns 0.
function RPN_COMM_exchange_halo_test(nparams, params) result(status)
  implicit none
  integer, intent(IN) :: nparams
  integer, dimension(nparams), intent(IN) :: params
  integer :: status
  if (nparams < 0) status = params(1)
  status = 0
end function RPN_COMM_exchange_halo_test
