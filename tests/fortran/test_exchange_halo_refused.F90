! PES: 1 2
! EXPECT: 1
! TIMEOUT: 30
! EACH_PE_WROTE: RPN_COMM_exchange_halo on PE
! OUTPUT_LACKS: ERROR STOP
! OUTPUT_LACKS: Backtrace
! OUTPUT_LACKS: MPI_Abort
! OUTPUT_LACKS: after the refused exchange
!
! RPN_COMM_exchange_halo takes an rpncomm_pattern, which no routine creates: every call is
! refused with one line naming the routine and why, and the PE ends with status 1; nothing
! after the call runs.
program test_exchange_halo_refused
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr
  integer, target :: g(3, 3, 1)

  call start('test_exchange_halo_refused')
  g = 1
  call RPN_COMM_exchange_halo(NULL_rpncomm_pattern, c_loc(g), .true., .true., .false., 0)
  write(*, '(A,I0)') 'test_exchange_halo_refused: PE went on after the refused exchange: ', me
  call finish('test_exchange_halo_refused')
contains
  include 'tutil.inc'
end program test_exchange_halo_refused
