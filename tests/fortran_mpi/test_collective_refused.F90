! PES: 2 3 4
! TIMEOUT: 60
! EXPECT: fail
! OUTPUT_HAS@2: RPN_COMM_allreduce: PE 0: unknown datatype name 'MPI_REALX'
! OUTPUT_HAS@2: RPN_COMM_barrier: PE 0: collective call inconsistent across PEs: call 2 on GRID: PE 1 made RPN_COMM_allreduce (refused: its arguments were wrong) while PE 0 made RPN_COMM_allreduce of 16 bytes of MPI_REAL8 with MPI_SUM (found in RPN_COMM_barrier; the job ends)
! OUTPUT_HAS@3: RPN_COMM_barrier: PE 2: collective call inconsistent across PEs: call 2 on GRID: PE 1 made RPN_COMM_allreduce (refused: its arguments were wrong) while PE 0 made RPN_COMM_allreduce of 16 bytes of MPI_REAL8 with MPI_SUM (found in RPN_COMM_barrier; the job ends)
! OUTPUT_HAS@4: RPN_COMM_barrier: PE 3: collective call inconsistent across PEs: call 2 on GRID: PE 1 made RPN_COMM_allreduce (refused: its arguments were wrong) while PE 0 made RPN_COMM_allreduce of 16 bytes of MPI_REAL8 with MPI_SUM (found in RPN_COMM_barrier; the job ends)
! OUTPUT_LACKS: the job went on
!
! The default mode over MPI across nodes (every PE a pretend node): each per-step collective is the one MPI call the original makes, with
! no exchange before it, so a PE that refuses its arguments cannot tell the others at no cost.
! Where every PE refuses alike (the same bad type name everywhere, the usual case: the arguments
! are the program's literals) every PE fails the call and the PEs go on in step, their logs of
! calls alike (the next barrier passes). Where only some refuse (here the reduction that PE 1
! refuses), the others' MPI call pairs with the
! next call of the refusing PE, and the next meeting names the first call that differs.
program test_collective_refused
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr, pex, pey, ierr
  real(kind=8) :: sendv(2), recv(2)

  nerr = 0
  pex = 0
  pey = 0
  call pretend_nodes()
  call RPN_COMM_init(row_grid, me, npes, pex, pey)
  sendv = me + 1
  call RPN_COMM_allreduce(sendv, recv, 2, 'MPI_REALX', RPN_COMM_SUM, RPN_COMM_GRID, ierr)
  call check_ierr(ierr, RPN_COMM_ERROR, 'refused alike on every PE')
  call RPN_COMM_barrier(RPN_COMM_GRID, ierr)
  call check_ierr(ierr, RPN_COMM_OK, 'in step after it')
  ! PE 1 refuses (a bad type name where the others give MPI_REAL8); PE 1's next call is the
  ! same allreduce, which the others' first one meets
  if (me == 1) then
    call RPN_COMM_allreduce(sendv, recv, 2, 'MPI_REALX', RPN_COMM_SUM, RPN_COMM_GRID, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'PE 1 refuses')
  endif
  call RPN_COMM_allreduce(sendv, recv, 2, 'MPI_REAL8', RPN_COMM_SUM, RPN_COMM_GRID, ierr)
  call RPN_COMM_barrier(RPN_COMM_GRID, ierr)
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
