! PES: 2 3
! EXPECT: fail
! TIMEOUT: 30
! EACH_PE_WROTE: test_output_kept_kill: PE %P line 40 of 40
!
! Output kept however a PE ends: the last PE ends with SIGKILL while the others compute;
! every PE's printed lines must be in the job's output file (see output_kept.inc).
program test_output_kept_kill
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr

  call start('test_output_kept_kill')
  call print_then_fail('test_output_kept_kill', 'kill')
contains
  include 'tutil.inc'
  include 'output_kept.inc'
end program test_output_kept_kill
