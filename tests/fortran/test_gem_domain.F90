! PES: 1 2 3
! TIMEOUT: 60
!
! RPN_COMM_get_my_domain (both forms of the generic, as GEM calls it) and RPN_COMM_mydomain before
! RPN_COMM_init, through the legacy include under implicit none: one domain, numbered from the
! offset given (or the call_back's), on every PE; then RPN_COMM_init works as usual.
! test_gem_domain_refused: several domains, and a call_back's error, end the job.
program test_gem_domain
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, nerr
  integer :: d, pex, pey

  nerr = 0
  me = 0
  npes = 1
  d = RPN_COMM_get_my_domain(1, 7)
  call check(d == 7, 'get_my_domain(1, 7) = '//str(d))
  d = RPN_COMM_get_my_domain(one_domain)
  call check(d == 3, 'get_my_domain(call_back) = '//str(d))
  call RPN_COMM_mydomain(one_domain, d)
  call check(d == 3, 'mydomain(call_back) = '//str(d))
  pex = 0
  pey = 0
  call RPN_COMM_init(userinit, me, npes, pex, pey)
  call check(pex * pey == npes, 'RPN_COMM_init after them')
  call finish('test_gem_domain')

contains

  include 'tutil.inc'

  subroutine one_domain(ndomains, offset, err)
    integer, intent(OUT) :: ndomains, offset, err
    ndomains = 1
    offset = 3
    err = 0
  end subroutine one_domain
end program test_gem_domain
