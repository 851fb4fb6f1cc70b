! PES: 2 4
! TIMEOUT: 30
! ENV: RPNCOMM_NODE_SPLIT=1 RPNCOMM_HANG_REPORT=1
! OUTPUT_HAS@2: RPN_COMM_xch_halo_8: PE 0: still waiting after
! OUTPUT_HAS@4: RPN_COMM_xch_halo_8: PE 0: still waiting after
! OUTPUT_LACKS: inconsistent
!
! Long but legitimate waits for neighbours of other nodes (every PE its own pretend node) are
! only reported (docs/halo.md): the last PE computes for 2 s before a collective of its column
! (MPI's own call), then every PE exchanges halos with its neighbours. On 2 PEs, PE 0 waits in
! the exchange for PE 1, which computes; on a 2 x 2 grid, PE 0 waits for PE 1, blocked in the
! column's collective with PE 3, a collective PE 0 is not in. Neither is a collective PE 0 can
! never meet: the job goes on and ends well.
program test_far_wait_legit
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  interface
    integer(C_INT) function usleep(us) bind(C, name='usleep')
      import :: C_INT
      integer(C_INT), value :: us
    end function usleep
  end interface
  integer :: me, npes, nerr, pex, pey, ierr
  integer, parameter :: ni = 4, nj = 3, nk = 2, h = 1
  real(8) :: g(1 - h:ni + h, 1 - h:nj + h, nk), s(2), r(2)

  nerr = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(grid_shape, me, npes, pex, pey)
  g = me
  s = 1
  if (me == npes - 1) ierr = usleep(2000000_C_INT)
  call RPN_COMM_allreduce(s, r, 2, 'MPI_REAL8', 'MPI_SUM', 'NS', ierr)
  call check(ierr == RPN_COMM_OK .and. r(1) == npes / 2, 'the column''s allreduce')
  call RPN_COMM_xch_halo_8(g, 1 - h, ni + h, 1 - h, nj + h, ni, nj, nk, h, h, .true., .true., ni * pex, 0)
  call RPN_COMM_allreduce(s, r, 2, 'MPI_REAL8', 'MPI_SUM', 'GRID', ierr)
  call check(ierr == RPN_COMM_OK .and. r(1) == npes, 'the grid''s allreduce')
  call finish('test_far_wait_legit')

contains

  ! two columns of PEs
  subroutine grid_shape(px, py)
    integer, intent(INOUT) :: px, py
    integer :: n
    n = px * py
    px = 2
    py = n / 2
  end subroutine grid_shape

  include 'tutil.inc'
end program test_far_wait_legit
