! haloflip_test_side_by_side.F90 -- RPN_COMM_haloflip_test, the original's self-test of the pole
! flip, built against the original RPN_COMM and against this library by side_by_side.sh, called as
! the original's own driver (TEST_009) calls it: after MPI_Init, with no RPN_COMM_init, the job
! taken as one row of PEs. side_by_side.sh compares every line the self-test prints (the sizes,
! the arrays of the small cases, its error counts) but the trace lines of 4.6.3's RPN_COMM_haloflip
! (its ring's 'low=' and 'gis=', its 'TIMES='). No include: implicit interfaces, as the original's
! callers use them.
program haloflip_test_side_by_side
  implicit none
  integer :: ierr
  external :: MPI_Init, MPI_Finalize, RPN_COMM_haloflip_test

  call MPI_Init(ierr)
  ! (halox, haloy, ni, nj, nk): TEST_009's cases, then halos wider than some PEs' parts
  call RPN_COMM_haloflip_test(1, 2, 5, 6, 1)
  call RPN_COMM_haloflip_test(3, 3, 75, 27, 80)
  call RPN_COMM_haloflip_test(2, 1, 3, 3, 2)
  call MPI_Finalize(ierr)
end program haloflip_test_side_by_side
