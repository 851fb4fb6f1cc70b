! PES: 1 2 4 6
! TIMEOUT: 60
!
! A legacy-style program of the original's kind: include 'RPN_COMM.inc', external calls, and a
! Userinit that leaves Pex, Pey as it finds them. RPN_COMM_init presets them to npes x 1 before it
! calls Userinit (on PE 0), so the program runs on a grid of one row, and every PE gets Pex = npes,
! Pey = 1 back. Then the grid's communicators through the original's constants: RPN_COMM_ROW is the
! row (all PEs), RPN_COMM_COLUMN the PE alone, RPN_COMM_BLOC_COMM the grid, with RPN_COMM_size,
! RPN_COMM_allreduce, RPN_COMM_bcast and a fence window over the row; RPN_COMM_bloc into npes
! blocks makes every PE a master.
program test_grid_legacy
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  external :: keep_grid
  integer :: me, npes, nerr
  integer :: pex, pey, mex, mey, ierr, n, total, status
  integer, target :: cell, v
  type(rpncomm_communicator) :: row
  type(rpncomm_datatype) :: dint
  type(rpncomm_window) :: w

  nerr = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(keep_grid, me, npes, pex, pey)
  if (me == 0) write(*, '(A,I0,A)') 'test_grid_legacy: running on ', npes, ' PEs'
  call check(pex == npes .and. pey == 1, 'the preset grid npes x 1: '//str(pex)//' x '//str(pey))
  status = RPN_COMM_mype(me, mex, mey)
  call check(mex == me .and. mey == 0, 'one row: me_x = me, me_y = 0')

  call RPN_COMM_size(RPN_COMM_ROW, n, ierr)
  call check(ierr == RPN_COMM_OK .and. n == npes, 'RPN_COMM_ROW holds every PE')
  call RPN_COMM_size(RPN_COMM_COLUMN, n, ierr)
  call check(ierr == RPN_COMM_OK .and. n == 1, 'RPN_COMM_COLUMN holds this PE alone')
  call RPN_COMM_size(RPN_COMM_BLOC_COMM, n, ierr)
  call check(ierr == RPN_COMM_OK .and. n == npes, 'RPN_COMM_BLOC_COMM is the grid')
  call RPN_COMM_allreduce(1, total, 1, RPN_COMM_INTEGER, RPN_COMM_SUM, RPN_COMM_COLUMN, ierr)
  call check(ierr == RPN_COMM_OK .and. total == 1, 'allreduce over RPN_COMM_COLUMN')
  v = me
  call RPN_COMM_bcast(v, 1, RPN_COMM_INTEGER, npes - 1, RPN_COMM_EW, ierr)
  call check(ierr == RPN_COMM_OK .and. v == npes - 1, 'bcast over RPN_COMM_EW from its last rank')

  call RPN_COMM_i_comm(RPN_COMM_ROW, row)
  call RPN_COMM_i_datyp(RPN_COMM_INTEGER, dint)
  cell = -1
  call RPN_COMM_i_win_create(w, dint, 1, row, C_LOC(cell), ierr)
  call check(ierr == RPN_COMM_OK, 'window over RPN_COMM_ROW')
  call RPN_COMM_i_win_open(w, .true., ierr)
  v = RPN_COMM_MAGIC + me
  call RPN_COMM_i_win_put_r(w, C_LOC(v), mod(me + 1, npes), 0, 1, ierr)
  call RPN_COMM_i_win_close(w, ierr)
  call check(cell == RPN_COMM_MAGIC + mod(me - 1 + npes, npes), 'value from the left neighbour')
  call RPN_COMM_i_win_free(w, ierr)

  status = RPN_COMM_bloc(npes, 1)
  call check(status == RPN_COMM_OK, 'RPN_COMM_bloc(npes, 1)')
  call RPN_COMM_size(RPN_COMM_BLOCMASTER, n, ierr)
  call check(ierr == RPN_COMM_OK .and. n == npes, 'every PE is a master of its block of one')
  call RPN_COMM_size(RPN_COMM_BLOCK, n, ierr)
  call check(ierr == RPN_COMM_OK .and. n == 1, 'a block of one PE')

  call finish('test_grid_legacy')

contains
  include 'tutil.inc'
end program test_grid_legacy

! Userinit of a program that relies on the preset grid: it does not touch Pex, Pey.
subroutine keep_grid(px, py)
  implicit none
  integer, intent(INOUT) :: px, py
  if (px < 1 .or. py /= 1) write(*, '(A,I0,A,I0)') 'keep_grid: unexpected preset ', px, ' x ', py
end subroutine keep_grid
