! PES: 2 4
! TIMEOUT: 60
! OUTPUT_HAS@2: count = 000005 000005
! OUTPUT_HAS@2:  040501 050501 060501 070501 080501 090501 100501 010501 020501
! OUTPUT_HAS@2:  090201 100201 010201 020201 030201 040201 050201 060201 070201
! OUTPUT_HAS@2: total erors (south,north) =
! OUTPUT_HAS@4: total erors (south,north) =
! OUTPUT_LACKS: errors=
!
! RPN_COMM_haloflip_test, the original's self-test of the pole flip, called with no RPN_COMM_init
! as the original's driver calls it (the job becomes one row of PEs): the cases of that driver,
! then halos wider than a PE's part. Its lines are checked: the parts and rows of the arrays
! beyond each pole on 2 PEs (4.6.3's own lines, in an explicit format), and no PE's 'errors='
! line (a PE prints it when one of its halo points across a pole is wrong; list-directed, as the
! counts, so its spacing is the compiler's). On 1 PE (gni = 4), 4.6.3's check expects, in the last
! halo column, a point more than a globe away that its flip leaves at 0: both builds print 2 and
! 2 errors there (tests/reference/haloflip_test_side_by_side.F90 compares it with 4.6.3's).
program test_haloflip_self_test
  implicit none
  external :: RPN_COMM_haloflip_test, RPN_COMM_finalize
  integer :: ierr

  call RPN_COMM_haloflip_test(1, 2, 5, 6, 1)
  call RPN_COMM_haloflip_test(3, 3, 75, 27, 80)
  call RPN_COMM_haloflip_test(2, 1, 3, 3, 2)
  call RPN_COMM_finalize(ierr)
end program test_haloflip_self_test
