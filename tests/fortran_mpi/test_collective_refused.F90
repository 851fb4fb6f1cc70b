! PES: 2 3
! TIMEOUT: 60
! EXPECT: fail
! OUTPUT_HAS@2: RPN_COMM_allreduce: PE 1: unknown datatype name 'MPI_REALX' (the other PEs cannot learn of it without RPNCOMM_CHECK_COLLECTIVES=each: the job ends)
! OUTPUT_HAS@3: RPN_COMM_allreduce: PE 2: unknown datatype name 'MPI_REALX' (the other PEs cannot learn of it without RPNCOMM_CHECK_COLLECTIVES=each: the job ends)
! OUTPUT_LACKS: the job went on
!
! The default mode over MPI: each per-step collective is the one MPI call the original makes, with
! no exchange before it, so the other PEs cannot learn that one PE refused its arguments (here a
! bad type name on the last PE): they are in the MPI call already, and would wait forever. The
! refusing PE prints its line and ends the job (a program that goes on after an error, as GEM
! does, would pair its next call with the others' MPI call). In the checking mode
! (test_collective_mismatch) every PE fails the call instead and the job goes on.
program test_collective_refused
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr, pex, pey, ierr, last
  real(kind=8) :: sendv(2), recv(2)

  nerr = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(row_grid, me, npes, pex, pey)
  last = npes - 1
  sendv = me + 1
  call RPN_COMM_allreduce(sendv, recv, 2, merge('MPI_REALX', 'MPI_REAL8', me == last), RPN_COMM_SUM, RPN_COMM_GRID, ierr)
  print '(A,I0)', 'the job went on on PE ', me
  call finish('test_collective_refused')

contains

  subroutine row_grid(px, py)
    integer, intent(INOUT) :: px, py
    px = px * py
    py = 1
  end subroutine row_grid

  include 'tutil.inc'
end program test_collective_refused
