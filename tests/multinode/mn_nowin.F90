! Across nodes (tests/multinode/check.sh), with an MPI configured so that it cannot make a window
! between the nodes (Open MPI 4 with OMPI_MCA_osc=rdma over TCP): RPN_COMM_i_win_create must be
! refused on every PE, with one line that says what to do, and the job must go on (no hang, no
! abort): each PE prints "mn_nowin: PE n refused" and the program ends normally.
program mn_nowin
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr, ierr
  type(rpncomm_window) :: w
  type(rpncomm_datatype) :: dint
  type(rpncomm_communicator) :: com

  call start('mn_nowin')
  call RPN_COMM_i_comm(RPN_COMM_GRID, com)
  call RPN_COMM_i_datyp(RPN_COMM_INTEGER, dint)
  call RPN_COMM_i_win_create(w, dint, 16, com, C_NULL_PTR, ierr)
  call check_ierr(ierr, RPN_COMM_ERROR, 'window creation without a one-sided path')
  if (ierr /= RPN_COMM_OK) write(*, '(A,I0,A)') 'mn_nowin: PE ', me, ' refused'
  flush(6)
  call finish('mn_nowin')
contains
  include 'tutil.inc'
end program mn_nowin
