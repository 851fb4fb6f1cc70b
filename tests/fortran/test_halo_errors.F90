! PES: 1 4
! TIMEOUT: 90
!
! RPN_COMM_xch_halo refuses bad input on every PE with one line and writes nothing: npol_row
! /= 0 (named), bounds that cannot hold the halo, a halo wider than a neighbour's part,
! neighbours of a row that disagree on nj, PEs that disagree on nk, a negative nk; nk = 0 is an
! exchange of nothing, as in the original. The Fortran routine has no
! status argument (it stops the program), so the test calls its C ABI entry, which returns one;
! after each refusal a correct exchange still works.
program test_halo_errors
  use ISO_C_BINDING
  use rpn_comm_windows
  use rpn_comm_halo_binding, only: rpncomm_xch_halo
  implicit none
  integer :: me, npes, nerr, pex, pey, mex, mey, status, i0
  integer, parameter :: ni = 5, nj = 4, nk = 2, h = 2
  ! x bounds wide enough for a halo of ni + 1 (only the neighbour's part is too narrow for it)
  integer :: g(-ni:2 * ni + 1, 1 - h:nj + h + 1, nk + 1), before(-ni:2 * ni + 1, 1 - h:nj + h + 1, nk + 1)

  nerr = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(grid_shape, me, npes, pex, pey)
  status = RPN_COMM_mype(me, mex, mey)
  if (me == 0) write(*, '(A,I0,A,I0,A,I0,A)') 'test_halo_errors: running on ', npes, ' PEs, a ', pex, ' x ', pey, ' grid'

  call section('refusals')
  call refused('npol_row = 1', ni, nj, nk, h, -ni, 2 * ni + 1, 1, 1)
  call refused('maxx too small for the halo', ni, nj, nk, h, -ni, ni + h - 1, 0, 1)
  ! periodic in x: every PE has an x neighbour (itself when Pex = 1), whose ni = 5 < 6
  call refused('halox wider than the neighbour''s ni', ni, nj, nk, ni + 1, -ni, 2 * ni + 1, 0, 1)
  if (pex > 1) call refused('nj differs along a row', ni, merge(nj + 1, nj, mex == 0), nk, h, -ni, 2 * ni + 1, 0, 1)
  if (npes > 1) call refused('nk differs', ni, nj, merge(nk + 1, nk, me == 0), h, -ni, 2 * ni + 1, 0, 1)
  call refused('n = 0 words per element', ni, nj, nk, h, -ni, 2 * ni + 1, 0, 0)
  call refused('nk = -1', ni, nj, -1, h, -ni, 2 * ni + 1, 0, 1)
  if (npes > 1) call refused('nk = 0 on one PE only', ni, nj, merge(0, nk, me == 0), h, -ni, 2 * ni + 1, 0, 1)

  ! nk = 0 (GEM makes such calls): an exchange of nothing, accepted as the original does, g untouched
  call section('nk = 0')
  g = reshape([(i0, i0 = 1, size(g))], shape(g))
  before = g
  status = rpncomm_xch_halo(g, -ni, 2 * ni + 1, 1 - h, nj + h + 1, ni, nj, 0, h, h, 1, 1, 0, 0, 1)
  call check(status == RPN_COMM_OK, 'nk = 0 accepted, status = '//str(status))
  call check(all(g == before), 'nk = 0: nothing written')

  call section('a correct exchange after the refusals')
  g = 7
  status = rpncomm_xch_halo(g, -ni, 2 * ni + 1, 1 - h, nj + h + 1, ni, nj, nk, h, h, 1, 1, 0, 0, 1)
  call check(status == RPN_COMM_OK, 'a correct exchange succeeds, status = '//str(status))
  call finish('test_halo_errors')
contains
  ! An exchange of g with the given arguments (y bounds 1-h:nj+h+1, periodic in x and y) must
  ! be refused on every PE and leave g as it was.
  subroutine refused(what, ni_, nj_, nk_, halox, minx, maxx, npol_row, words)
    character(len=*), intent(IN) :: what
    integer, intent(IN) :: ni_, nj_, nk_, halox, minx, maxx, npol_row, words
    integer :: i
    g = reshape([(i, i = 1, size(g))], shape(g))
    before = g
    status = rpncomm_xch_halo(g, minx, maxx, 1 - h, nj + h + 1, ni_, nj_, nk_, halox, h, 1, 1, 0, npol_row, words)
    call check(status == RPN_COMM_ERROR, what//': refused, status = '//str(status))
    call check(all(g == before), what//': nothing written')
  end subroutine refused

  subroutine grid_shape(px, py)
    integer, intent(INOUT) :: px, py
    integer :: n
    n = px * py
    px = n
    if (n >= 4) px = n / 2
    py = n / px
  end subroutine grid_shape

  include 'tutil.inc'
end program test_halo_errors
