! PES: 1 2 4 6
! TIMEOUT: 90
! OUTPUT_HAS@4: SUCCESS: id = 13579BDE       1
! OUTPUT_HAS@4: ERROR: id, status = 00000001      -1
! OUTPUT_HAS@4: status (i) , value =           0 "hello"
! OUTPUT_HAS@4: pe_me=     2    11    13     1    13     1     0
! ENV: RPN_COMM_DEBUG=IVAL=12:RVAL=1.5:LVAL=.true.:SVAL=hello
! OUTPUT_HAS@4: 1: CLIENTS   2   2   3   3   0   0
! OUTPUT_HAS@4: == 3 ==   1   2 201 201   0   0
! OUTPUT_HAS@4: == 0 ==   3   4 401 401   0   0
!
! The original's smaller grid routines, on both transports:
! - rpn_comm_dummy_init as RPN_COMM_init's Userinit: the grid stays npes x 1;
! - RPN_COMM_qadl: every PE's block of a 10 x 7 array, computed here as the original does;
! - RPN_COMM_petopo: on 4 PEs the 4 x 1 grid becomes 2 x 2 (RPN_COMM_mype, the 'EW' and 'NS'
!   sizes and the module's pe_nx follow), a shape of another number of PEs is refused (-1), and
!   the grid goes back to npes x 1;
! - RPN_COMM_dist_test, the original's self-test driver of the local distribution tables: on 4
!   PEs PE 1 is the root of clients 2, 2, 3, 3, 0, 0 and every client receives its rows;
! - RPN_COMM_test_limit, RPN_COMM_debug_test and rpn_comm_2dgrid_test, the original's drivers
!   (lines of the original's output, which they print identically).
program test_grid_misc
  use ISO_C_BINDING
  use rpn_comm, only: pe_nx, pe_ny
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, nerr
  integer :: pex, pey, mex, mey, ierr, ipe, i0, in, j0, jn, ilim, jlim, n
  external :: rpn_comm_dummy_init
  integer, external :: RPN_COMM_dist_test, rpn_comm_2dgrid_test

  nerr = 0
  me = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(rpn_comm_dummy_init, me, npes, pex, pey)
  call check(pex == npes .and. pey == 1, 'dummy_init keeps npes x 1')

  call section('RPN_COMM_qadl')
  ilim = (10 + pex - 1) / pex
  jlim = (7 + pey - 1) / pey
  do ipe = 0, npes - 1
    call RPN_COMM_qadl(ipe, 10, 7, i0, in, j0, jn)
    call check(i0 == ilim * mod(ipe, pex) + 1 .and. in == min(i0 + ilim - 1, 10) .and. &
               j0 == jlim * (ipe / pex) + 1 .and. jn == min(j0 + jlim - 1, 7), 'qadl of PE '//str(ipe))
  enddo

  call section('RPN_COMM_petopo')
  if (npes == 4) then
    call check(RPN_COMM_petopo(2, 2) == 0, 'petopo 2 x 2')
    ierr = RPN_COMM_mype(me, mex, mey)
    call check(mex == mod(me, 2) .and. mey == me / 2, 'mype on 2 x 2: '//str(mex)//' '//str(mey))
    call RPN_COMM_size('EW', n, ierr)
    call check(n == 2, 'EW of 2')
    call RPN_COMM_size('NS', n, ierr)
    call check(n == 2, 'NS of 2')
    call check(pe_nx == 2 .and. pe_ny == 2, 'the module follows')
    call RPN_COMM_qadl(3, 10, 7, i0, in, j0, jn)
    call check(i0 == 6 .and. in == 10 .and. j0 == 5 .and. jn == 7, 'qadl on 2 x 2')
  endif
  call check(RPN_COMM_petopo(npes + 1, 1) == -1, 'petopo of another number of PEs refused')
  call check(RPN_COMM_petopo(npes, 1) == 0, 'petopo back to npes x 1')
  ierr = RPN_COMM_mype(me, mex, mey)
  call check(mex == me .and. mey == 0 .and. pe_nx == npes, 'npes x 1 again')

  ! the original's self-test driver of the local distribution tables (its lines: OUTPUT_HAS above)
  call check(RPN_COMM_dist_test(npes) == 0, 'RPN_COMM_dist_test')

  ! the original's drivers of RPN_COMM_limit_2, the debug flags and the 2D grids (their lines:
  ! OUTPUT_HAS above, the original's)
  if (me == 0) call RPN_COMM_test_limit(3)
  if (me == 0) call RPN_COMM_debug_test()
  call check(rpn_comm_2dgrid_test(1, [0]) == 0, 'rpn_comm_2dgrid_test')

  call finish('test_grid_misc')
contains
  include 'tutil.inc'
end program test_grid_misc
