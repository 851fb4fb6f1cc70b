! PES: 2 3
! TIMEOUT: 60
! OUTPUT_HAS@2: RPN_COMM_adj_halo8: PE 0: collective call inconsistent across PEs: PE 1 (the west neighbour of PE 0) is in RPN_COMM_xch_halo_8 while PE 0 is in RPN_COMM_adj_halo8
! OUTPUT_HAS@2: RPN_COMM_xch_halo_8: PE 1: collective call inconsistent across PEs: PE 0 (the west neighbour of PE 1) is in RPN_COMM_adj_halo8 while PE 1 is in RPN_COMM_xch_halo_8
! OUTPUT_HAS@3: RPN_COMM_adj_halo8: PE 1: bad argument: npol_row = 3: the semi-Lagrangian polar exchange
!
! RPN_COMM_adj_halo8 among PEs that disagree, on one periodic row of PEs (every PE a neighbour of
! the others): every PE fails with RPN_COMM_ERROR and one line, and nothing is written into any
! array; afterwards the PEs are in step (an adjoint of every PE works and gives its sums). Twice:
! - PE 0 in the adjoint while the others are in RPN_COMM_xch_halo_8 with the same arguments (the
!   line names both routines and both PEs);
! - PE 1 refuses its own arguments (npol_row = 3), the others' are right.
! The status comes from the C ABI entry (the Fortran routines end the PE on a refusal, which
! test_adj_halo_refused.F90 checks).
program test_adj_halo_mismatch
  use ISO_C_BINDING
  use rpn_comm_windows
  use rpn_comm_halo_binding, only: rpncomm_adj_halo, rpncomm_xch_halo_8
  implicit none
  integer :: me, npes, nerr, pex, pey, status
  integer, parameter :: ni = 4, nj = 3, nk = 2, h = 1
  real(8), parameter :: SENT = -7.0d0
  real(8) :: g(1 - h:ni + h, 1 - h:nj + h, nk), before(1 - h:ni + h, 1 - h:nj + h, nk)

  nerr = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(row_grid, me, npes, pex, pey)
  if (me == 0) write(*, '(A,I0,A)') 'test_adj_halo_mismatch: running on ', npes, ' PEs'

  call section('PE 0 in RPN_COMM_adj_halo8, the others in RPN_COMM_xch_halo_8')
  call fill()
  if (me == 0) then
    status = rpncomm_adj_halo(g, 1 - h, ni + h, 1 - h, nj + h, ni, nj, nk, h, h, 1, 0, ni, 0, 8)
  else
    status = rpncomm_xch_halo_8(g, 1 - h, ni + h, 1 - h, nj + h, ni, nj, nk, h, h, 1, 0, ni, 0)
  endif
  call check_ierr(status, RPN_COMM_ERROR, 'the mismatched call')
  call check(all(g == before), 'nothing written')
  call in_step()

  call section('PE 1 refuses its arguments (npol_row = 3)')
  call fill()
  status = rpncomm_adj_halo(g, 1 - h, ni + h, 1 - h, nj + h, ni, nj, nk, h, h, 1, 0, ni, merge(3, 0, me == 1), 8)
  call check_ierr(status, RPN_COMM_ERROR, 'the adjoint with PE 1 refusing')
  call check(all(g == before), 'nothing written')
  call in_step()

  call finish('test_adj_halo_mismatch')

contains

  subroutine fill()
    integer :: i, j, k
    do k = 1, nk
      do j = 1 - h, nj + h
        do i = 1 - h, ni + h
          g(i, j, k) = SENT
          if (i >= 1 .and. i <= ni .and. j >= 1 .and. j <= nj) g(i, j, k) = 10 * me + k
          if (i == 0 .or. i == ni + 1) g(i, j, k) = 1
        enddo
      enddo
    enddo
    before = g
  end subroutine fill

  ! every PE makes the adjoint: x halos of 1 added into the first and last columns (the y halos
  ! are not exchanged: not periodic in y, one row)
  subroutine in_step()
    integer :: ierr2
    call fill()
    ierr2 = rpncomm_adj_halo(g, 1 - h, ni + h, 1 - h, nj + h, ni, nj, nk, h, h, 1, 0, ni, 0, 8)
    call check_ierr(ierr2, RPN_COMM_OK, 'afterwards an adjoint of every PE works')
    call check(all(g(1, 1:nj, :) == before(1, 1:nj, :) + 1) .and. all(g(ni, 1:nj, :) == before(ni, 1:nj, :) + 1) &
               .and. all(g(2:ni - 1, 1:nj, :) == before(2:ni - 1, 1:nj, :)), &
               'afterwards the adjoint adds the x halos into the first and last columns')
  end subroutine in_step

  ! one row: every PE has x neighbours, nobody has y neighbours
  subroutine row_grid(px, py)
    integer, intent(INOUT) :: px, py
    px = px * py
    py = 1
  end subroutine row_grid

  include 'tutil.inc'
end program test_adj_halo_mismatch
