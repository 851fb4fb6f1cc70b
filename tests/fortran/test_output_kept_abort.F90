! PES: 2 3
! EXPECT: fail
! TIMEOUT: 30
! EACH_PE_WROTE: test_output_kept_abort: PE %P line 40 of 40
!
! Output kept however a PE ends: the last PE ends with abort() (SIGABRT) while the others compute;
! every PE's printed lines must be in the job's output file (see output_kept.inc).
program test_output_kept_abort
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr

  call start('test_output_kept_abort')
  call print_then_fail('test_output_kept_abort', 'abort')
contains
  include 'tutil.inc'
  include 'output_kept.inc'
end program test_output_kept_abort
