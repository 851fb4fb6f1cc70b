! ring.F90 -- the first program of the README, in module form (use rpn_comm_windows): every PE
! puts a number into its right neighbour's one-element window during an active epoch and reads
! what its left neighbour left there. PE 0 prints "ring: OK on N PEs" when every PE got it right.
program ring
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  external :: one_row                 ! chooses the PE grid, below
  integer :: me, npes, pex, pey, ierr, bad, total
  integer, dimension(1), target :: box, mine
  type(rpncomm_window) :: win
  type(rpncomm_datatype) :: dtype
  type(rpncomm_communicator) :: com

  pex = 0
  pey = 0
  call RPN_COMM_init(one_row, me, npes, pex, pey)
  call RPN_COMM_i_comm(RPN_COMM_GRID, com)
  call RPN_COMM_i_datyp(RPN_COMM_INTEGER, dtype)
  call RPN_COMM_i_win_create(win, dtype, 1, com, C_LOC(box), ierr)   ! box is this PE's window
  mine = 100 + me
  call RPN_COMM_i_win_open(win, .true., ierr)                         ! active (fence) epoch
  call RPN_COMM_i_win_put_r(win, C_LOC(mine), mod(me + 1, npes), 0, 1, ierr)
  call RPN_COMM_i_win_close(win, ierr)                                ! every put is done
  print '(A,I0,A,I0)', 'PE ', me, ' got ', box(1)
  bad = merge(0, 1, box(1) == 100 + mod(me - 1 + npes, npes))
  call RPN_COMM_allreduce(bad, total, 1, RPN_COMM_INTEGER, RPN_COMM_SUM, RPN_COMM_GRID, ierr)
  call RPN_COMM_i_win_free(win, ierr)
  call RPN_COMM_finalize(ierr)
  if (total /= 0) error stop 1
  if (me == 0) print '(A,I0,A)', 'ring: OK on ', npes, ' PEs'
end program ring

subroutine one_row(px, py)            ! called by RPN_COMM_init: a grid of npes x 1 PEs
  use rpn_comm_windows
  implicit none
  integer, intent(INOUT) :: px, py
  integer :: ierr
  call RPN_COMM_size(RPN_COMM_WORLD, px, ierr)
  py = 1
end subroutine one_row
