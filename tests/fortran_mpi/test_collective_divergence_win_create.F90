! PES: 2 4 8
! TIMEOUT: 60
! EXPECT: fail
! OUTPUT_HAS@2: RPN_COMM_i_win_create: PE 0: collective call inconsistent across PEs: call 2 on GRID: PE 1 made RPN_COMM_reduce of 16 bytes of MPI_REAL8 with MPI_MIN (root 0) while PE 0 made RPN_COMM_reduce of 16 bytes of MPI_REAL8 with MPI_SUM (root 0) (found in RPN_COMM_i_win_create; the job ends)
! OUTPUT_HAS@4: RPN_COMM_i_win_create: PE 2: collective call inconsistent across PEs: call 2 on GRID: PE 3 made RPN_COMM_reduce of 16 bytes of MPI_REAL8 with MPI_MIN (root 0) while PE 0 made RPN_COMM_reduce of 16 bytes of MPI_REAL8 with MPI_SUM (root 0) (found in RPN_COMM_i_win_create; the job ends)
! OUTPUT_HAS@8: RPN_COMM_i_win_create: PE 7: collective call inconsistent across PEs: call 2 on GRID: PE 7 made RPN_COMM_reduce of 16 bytes of MPI_REAL8 with MPI_MIN (root 0) while PE 0 made RPN_COMM_reduce of 16 bytes of MPI_REAL8 with MPI_SUM (root 0) (found in RPN_COMM_i_win_create; the job ends)
! OUTPUT_LACKS: CHECK FAILED
! OUTPUT_LACKS: the job went on
!
! The default mode over MPI across nodes (every PE a pretend node) (docs/contract.md rule 11, src/runtime/collectives/check.rs): each
! collective is the one MPI call the original makes, unchecked; RPN_COMM_reduce with MPI_MIN on the last PE, MPI_SUM on the others
! is a call MPI completes (with a result that may be wrong). The next call where the PEs meet,
! RPN_COMM_i_win_create, compares the PEs' logs of their calls with a few bytes whatever the PE
! count, and finds them different: every PE names the first call that differs, with both PEs and
! both routines, and the job ends.
program test_collective_divergence_win_create
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr, pex, pey, ierr, last
  real(kind=8) :: sendv(2), recv(2)
  type(rpncomm_window) :: w
  type(rpncomm_datatype) :: dint
  type(rpncomm_communicator) :: com

  nerr = 0
  pex = 0
  pey = 0
  call pretend_nodes()
  call RPN_COMM_init(row_grid, me, npes, pex, pey)
  call RPN_COMM_i_comm(RPN_COMM_GRID, com)
  call RPN_COMM_i_datyp(RPN_COMM_INTEGER, dint)
  last = npes - 1
  sendv = me + 1
  call RPN_COMM_allreduce(sendv, recv, 2, 'MPI_REAL8', RPN_COMM_SUM, RPN_COMM_GRID, ierr)
  call check(ierr == RPN_COMM_OK .and. all(recv == npes * (npes + 1) / 2), 'the same call everywhere')
  call RPN_COMM_reduce(sendv, recv, 2, 'MPI_REAL8', merge('MPI_MIN', 'MPI_SUM', me == last), 0, RPN_COMM_GRID, ierr)
  call RPN_COMM_i_win_create(w, dint, 8, com, C_NULL_PTR, ierr)
  print '(A,I0)', 'the job went on on PE ', me
  call finish('test_collective_divergence_win_create')

contains

  ! every PE a pretend node of its own (RPNCOMM_NODE_SPLIT=1, read by RPN_COMM_init): the
  ! collectives go through MPI's own calls, as between nodes, whatever the launcher's setting
  subroutine pretend_nodes()
    interface
      integer(c_int) function setenv(name, value, overwrite) bind(C, name='setenv')
        import :: c_int, c_char
        character(kind=c_char), dimension(*) :: name, value
        integer(c_int), value :: overwrite
      end function setenv
    end interface
    integer(c_int) :: rc
    rc = setenv('RPNCOMM_NODE_SPLIT'//c_null_char, '1'//c_null_char, 1_c_int)
  end subroutine pretend_nodes

  subroutine row_grid(px, py)
    integer, intent(INOUT) :: px, py
    px = px * py
    py = 1
  end subroutine row_grid

  include 'tutil.inc'
end program test_collective_divergence_win_create
