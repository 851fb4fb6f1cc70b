! PES: 2
! TIMEOUT: 30
! EXPECT: fail
! OUTPUT_HAS@2: RPN_COMM_bcst_world: PE 1: bad argument: mode 1 unknown (0: a broadcast from PE 0 of the grid)
!
! RPN_COMM_bcst_world with a mode other than 0: refused with one line naming the mode, and the job
! ends, as the original (which stops: the routine has no status to return).
program test_bcst_world_refused
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, nerr
  integer :: words(3)
  call start('test_bcst_world_refused')
  words = me
  call RPN_COMM_bcst_world(words(1), words(3), 1)
  call check(.false., 'RPN_COMM_bcst_world returned after a refused mode')
  call finish('test_bcst_world_refused')
contains
  include 'tutil.inc'
end program test_bcst_world_refused
