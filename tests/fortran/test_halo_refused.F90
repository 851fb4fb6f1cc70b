! PES: 1 2 4
! EXPECT: 1
! TIMEOUT: 30
! EACH_PE_WROTE: bad argument: npol_row = 5: the semi-Lagrangian polar exchange
! OUTPUT_LACKS: ERROR STOP
! OUTPUT_LACKS: Backtrace
! OUTPUT_LACKS: Error termination
! OUTPUT_LACKS: MPI_ABORT
! OUTPUT_LACKS: MPI_Abort
! OUTPUT_LACKS: after the refused exchange
!
! A refused RPN_COMM_xch_halo (it has no status argument) as a new user meets it: the PEs print
! their one line naming the routine, the PE and the reason (at least one does: the launcher ends
! the others once the first is gone), and the job ends with status 1, without
! ERROR STOP, a backtrace on every PE or, over MPI, the MPI_Abort banner; nothing after the call
! runs. Here npol_row = 5 (the original's semi-Lagrangian polar rows, not supported).
program test_halo_refused
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr
  integer, parameter :: ni = 4, nj = 3, nk = 2, h = 1
  real :: g(1 - h:ni + h, 1 - h:nj + h, nk)

  call start('test_halo_refused')
  g = 1.0
  write(*, '(A,I0,A)') 'test_halo_refused: PE ', me, ' calls RPN_COMM_xch_halo with npol_row = 5'
  flush(6)
  call RPN_COMM_xch_halo(g, 1 - h, ni + h, 1 - h, nj + h, ni, nj, nk, h, h, .true., .true., ni * npes, 5)
  write(*, '(A,I0)') 'test_halo_refused: PE went on after the refused exchange: ', me
  call finish('test_halo_refused')
contains
  include 'tutil.inc'
end program test_halo_refused
