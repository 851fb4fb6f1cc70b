! PES: 1 2
! EXPECT: fail
! TIMEOUT: 30
!
! RPN_COMM_get_my_domain(2, 0): two domains in one job are not supported (RPN_COMM_init makes one
! grid of the whole job): the library says so and, as the original does when it cannot give the
! domains, ends the job on every PE. Reaching the end of the program (status 0) is a failure.
! On 1 PE, 2 domains do not fit the job: refused as well.
program test_gem_domain_refused
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer :: d, ierr
  d = RPN_COMM_get_my_domain(2, 0)
  write(*, '(A,I0)') 'test_gem_domain_refused: RPN_COMM_get_my_domain(2, 0) gave ', d
  call RPN_COMM_finalize(ierr)
end program test_gem_domain_refused
