! PES: 2 3 4
! TIMEOUT: 60
! EXPECT: fail
! ENV: RPNCOMM_HANG_REPORT=2
! OUTPUT_HAS@2: RPN_COMM_allreduce: PE 1: unknown datatype name 'MPI_REALX': not every PE of GRID refused call 3 on GRID (RPN_COMM_allreduce) within 2 s: the others wait for this PE in MPI's collective, which never comes (the job ends
! OUTPUT_HAS@3: RPN_COMM_allreduce: PE 1: unknown datatype name 'MPI_REALX': not every PE of GRID refused call 3 on GRID (RPN_COMM_allreduce) within 2 s
! OUTPUT_HAS@4: RPN_COMM_allreduce: PE 1: unknown datatype name 'MPI_REALX': not every PE of GRID refused call 3 on GRID (RPN_COMM_allreduce) within 2 s
! OUTPUT_LACKS: the job went on
!
! The default mode over MPI across nodes (every PE a pretend node): each per-step collective is
! the one MPI call the original makes, with no exchange before it, so a PE that refuses its
! arguments cannot tell the others at no cost. On that path only, the PEs that refused a call
! learn whether the others did too (a nonblocking allgather, which MPI never pairs with the
! others' blocking collective). Where every PE refuses alike (the same bad type name everywhere,
! the usual case) every PE fails the call and the PEs go on in step: the next barrier passes.
! Where only PE 1 refuses (a bad type name where the others give MPI_REAL8) the others wait in
! MPI's allreduce for it while the program goes on past ierr into a halo exchange (GEM does not
! stop on ierr): PE 1 ends the job after the hang report's interval, with one line naming its call.
program test_collective_refused
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr, pex, pey, ierr
  integer, parameter :: ni = 4, nj = 3, nk = 2, h = 1
  real(kind=8) :: sendv(2), recv(2), g(1 - h:ni + h, 1 - h:nj + h, nk)

  nerr = 0
  pex = 0
  pey = 0
  call pretend_nodes()
  call RPN_COMM_init(row_grid, me, npes, pex, pey)
  sendv = me + 1
  g = me
  call RPN_COMM_allreduce(sendv, recv, 2, 'MPI_REAL8', RPN_COMM_SUM, RPN_COMM_GRID, ierr)
  call check_ierr(ierr, RPN_COMM_OK, 'the first call')
  call RPN_COMM_allreduce(sendv, recv, 2, 'MPI_REALX', RPN_COMM_SUM, RPN_COMM_GRID, ierr)
  call check_ierr(ierr, RPN_COMM_ERROR, 'refused alike on every PE')
  call RPN_COMM_barrier(RPN_COMM_GRID, ierr)
  call check_ierr(ierr, RPN_COMM_OK, 'in step after it')
  if (me == 1) then
    call RPN_COMM_allreduce(sendv, recv, 2, 'MPI_REALX', RPN_COMM_SUM, RPN_COMM_GRID, ierr)
  else
    call RPN_COMM_allreduce(sendv, recv, 2, 'MPI_REAL8', RPN_COMM_SUM, RPN_COMM_GRID, ierr)
  endif
  call RPN_COMM_xch_halo_8(g, 1 - h, ni + h, 1 - h, nj + h, ni, nj, nk, h, h, .true., .true., ni * npes, 0)
  print '(A,I0)', 'the job went on on PE ', me
  call finish('test_collective_refused')

contains

  subroutine row_grid(px, py)
    integer, intent(INOUT) :: px, py
    px = px * py
    py = 1
  end subroutine row_grid

  include 'pretend_nodes.inc'
  include 'tutil.inc'
end program test_collective_refused
