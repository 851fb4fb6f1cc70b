! PES: 1 2 4
! EXPECT: 1
! TIMEOUT: 30
! EACH_PE_WROTE: RPN_COMM_adj_halo8: PE %P: bad argument: npol_row = 2: the semi-Lagrangian polar exchange
! OUTPUT_LACKS: ERROR STOP
! OUTPUT_LACKS: Backtrace
! OUTPUT_LACKS: Error termination
! OUTPUT_LACKS: MPI_ABORT
! OUTPUT_LACKS: MPI_Abort
! OUTPUT_LACKS: after the refused adjoint
!
! A refused RPN_COMM_adj_halo8 (no status argument, as the original) called as MIDAS calls it
! (implicit interface): every PE prints its one line naming the routine, the PE and the reason, and
! the job ends with status 1, without ERROR STOP, a backtrace or the MPI_Abort banner; nothing
! after the call runs. Here npol_row = 2 (the original's semi-Lagrangian polar rows).
program test_adj_halo_refused
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, nerr
  integer, parameter :: ni = 4, nj = 3, nk = 2
  real(8) :: g(0:ni + 1, 0:nj + 1, nk)

  call start('test_adj_halo_refused')
  g = 1.0d0
  write(*, '(A,I0,A)') 'test_adj_halo_refused: PE ', me, ' calls RPN_COMM_adj_halo8 with npol_row = 2'
  flush(6)
  call RPN_COMM_adj_halo8(g, 0, ni + 1, 0, nj + 1, ni, nj, nk, 1, 1, .true., .true., ni, 2)
  write(*, '(A,I0)') 'test_adj_halo_refused: PE went on after the refused adjoint: ', me
  call finish('test_adj_halo_refused')
contains
  include 'tutil.inc'
end program test_adj_halo_refused
