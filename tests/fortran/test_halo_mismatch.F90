! PES: 2 3
! TIMEOUT: 60
! ENV: RPNCOMM_CHECK_COLLECTIVES=each
! TRANSPORT: shm
! OUTPUT_HAS@2: RPN_COMM_xch_halo: PE 0: collective call inconsistent across PEs: PE 1 is in RPN_COMM_barrier while PE 0 is in RPN_COMM_xch_halo
! OUTPUT_HAS@2: RPN_COMM_barrier: PE 1: collective call inconsistent across PEs: PE 0 is in RPN_COMM_xch_halo while PE 1 is in RPN_COMM_barrier
! OUTPUT_HAS@3: RPN_COMM_xch_halo: PE 2: collective call inconsistent across PEs: PE 1 is in RPN_COMM_barrier while PE 2 is in RPN_COMM_xch_halo
! OUTPUT_HAS@3: RPN_COMM_xch_halo: PE 0: collective call inconsistent across PEs: PE 1 is in RPN_COMM_barrier while PE 0 is in RPN_COMM_xch_halo
!
! Collectives know each other (docs/contract.md rule 11) for the neighbour-only halo exchange: PE 1 calls
! RPN_COMM_barrier while the others (all its neighbours: one periodic row of 2 or 3 PEs) call
! RPN_COMM_xch_halo. The exchanging PEs see their neighbour enter the barrier and join its
! agreement as the exchange, so every PE fails with RPN_COMM_ERROR and one line naming both
! routines and both PEs, nothing is written into the halos, and afterwards the PEs are in step:
! the next collective works, and so does the next exchange (its halos checked). Twice: PE 1 late
! (the others already wait in the exchange) and PE 1 early (already in the barrier).
! The halo's status comes from its C ABI entry (the Fortran routine stops the program on an
! error). Shared-memory transport only: the MPI transport's channels do not see a neighbour's
! collective yet (there the others name PE 1 as the neighbour they wait for).
program test_halo_mismatch
  use ISO_C_BINDING
  use rpn_comm_windows
  use rpn_comm_halo_binding, only: rpncomm_xch_halo
  implicit none
  integer :: me, npes, nerr, pex, pey, ierr, status, round
  integer, parameter :: SENT = -77, ni = 4, nj = 3, nk = 2, h = 1
  integer :: halo(1 - h:ni + h, 1 - h:nj + h, nk)

  nerr = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(row_grid, me, npes, pex, pey)
  if (me == 0) write(*, '(A,I0,A)') 'test_halo_mismatch: running on ', npes, ' PEs'

  do round = 1, 2
    if (round == 1) call section('PE 1 calls RPN_COMM_barrier late, the others RPN_COMM_xch_halo')
    if (round == 2) call section('PE 1 calls RPN_COMM_barrier early, the others RPN_COMM_xch_halo')
    halo = SENT
    halo(1:ni, 1:nj, :) = me
    if (me == 1) then
      if (round == 1) call pause(0.2d0)
      call RPN_COMM_barrier(RPN_COMM_GRID, ierr)
      status = ierr
    else
      if (round == 2) call pause(0.2d0)
      status = rpncomm_xch_halo(halo, 1 - h, ni + h, 1 - h, nj + h, ni, nj, nk, h, h, 1, 0, 0, 0, 1)
    endif
    call check_ierr(status, RPN_COMM_ERROR, 'the mismatched call')
    call check(all(halo(1:ni, 1:nj, :) == me) .and. count(halo == SENT) == size(halo) - ni * nj * nk, &
               'nothing written into the halo array')
    call in_step()
  enddo

  call finish('test_halo_mismatch')

contains

  ! every PE calls the same collective, then the same exchange: both work
  subroutine in_step()
    integer :: one, total, ierr2
    one = 1
    total = 0
    call RPN_COMM_allreduce(one, total, 1, RPN_COMM_INTEGER, RPN_COMM_SUM, RPN_COMM_GRID, ierr2)
    call check(ierr2 == RPN_COMM_OK .and. total == npes, 'afterwards a collective of every PE works')
    ierr2 = rpncomm_xch_halo(halo, 1 - h, ni + h, 1 - h, nj + h, ni, nj, nk, h, h, 1, 0, 0, 0, 1)
    call check_ierr(ierr2, RPN_COMM_OK, 'afterwards an exchange of every PE works')
    call check(all(halo(0, 1:nj, :) == modulo(me - 1, npes)) .and. all(halo(ni + 1, 1:nj, :) == modulo(me + 1, npes)), &
               'afterwards an exchange fills the x halos from the neighbours')
  end subroutine in_step

  subroutine pause(seconds)
    real(kind=8), intent(IN) :: seconds
    real(kind=8) :: t0
    t0 = RPN_COMM_wtime()
    do while (RPN_COMM_wtime() - t0 < seconds)
    enddo
  end subroutine pause

  ! one row: every PE has x neighbours, nobody has y neighbours
  subroutine row_grid(px, py)
    integer, intent(INOUT) :: px, py
    px = px * py
    py = 1
  end subroutine row_grid

  include 'tutil.inc'
end program test_halo_mismatch
