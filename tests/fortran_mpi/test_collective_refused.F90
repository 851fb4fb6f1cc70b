! PES: 2 3 4
! TIMEOUT: 60
! EXPECT: fail
! OUTPUT_HAS@2: RPN_COMM_allreduce: PE 1: unknown datatype name 'MPI_REALX': this PE cannot make call 2 on GRID (RPN_COMM_allreduce), which the other PEs make with MPI's own collective and would wait in for ever (the job ends
! OUTPUT_HAS@3: RPN_COMM_allreduce: PE 1: unknown datatype name 'MPI_REALX': this PE cannot make call 2 on GRID (RPN_COMM_allreduce)
! OUTPUT_HAS@4: RPN_COMM_allreduce: PE 1: unknown datatype name 'MPI_REALX': this PE cannot make call 2 on GRID (RPN_COMM_allreduce)
! OUTPUT_LACKS: the job went on
! OUTPUT_LACKS: still waiting
!
! The default mode over MPI across nodes (every PE a pretend node): each per-step collective is
! the one MPI call the original makes, with no exchange before it, so a PE that refuses its
! arguments cannot tell the others at no cost, and they would wait in MPI's call for ever while
! the program goes on (GEM does not stop on ierr). The refusing PE ends the job at once with
! one line that names its call. PE 1 refuses (a bad type name where the others give MPI_REAL8)
! after a first call made alike; the others go on into a halo exchange, which it never reaches.
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
