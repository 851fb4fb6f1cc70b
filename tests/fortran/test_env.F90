! PES: 1 2 3 4 8
! TIMEOUT: 60
!
! The environment routines through the LEGACY entry (include 'RPN_COMM.inc'):
!   RPN_COMM_init with a Userinit that chooses a 2-D grid, RPN_COMM_mype, RPN_COMM_size,
!   RPN_COMM_i_comm / RPN_COMM_i_datyp / RPN_COMM_i_oper / RPN_COMM_i_valid_oper for every name,
!   windows over the WORLD and ALLGRIDS communicators, RPN_COMM_barrier, RPN_COMM_allreduce and
!   RPN_COMM_allgather (scalars and arrays, 4- and 8-byte integers and reals, several operators),
!   RPN_COMM_wtime, RPN_COMM_finalize.
program test_env
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, nerr
  integer :: pelocal, petotal, pex, pey, status, me_x, me_y, n, ierr, i, k
  character(len=24), dimension(12), parameter :: opnames = [character(len=24) :: &
      RPN_COMM_SUM, RPN_COMM_PROD, RPN_COMM_MIN, RPN_COMM_MAX, RPN_COMM_BAND, RPN_COMM_BOR, &
      RPN_COMM_BXOR, RPN_COMM_LAND, RPN_COMM_LOR, RPN_COMM_LXOR, RPN_COMM_REPLACE, RPN_COMM_NO_OP]
  type(rpncomm_operator) :: op
  type(rpncomm_datatype) :: dt
  type(rpncomm_communicator) :: com
  type(rpncomm_window) :: w
  real(kind=8) :: t1, t2, t3

  nerr = 0
  me = 0
  npes = 1
  pex = 0
  pey = 0
  call RPN_COMM_init(grid_init, pelocal, petotal, pex, pey)
  me = pelocal
  npes = petotal
  if (me == 0) write(*, '(A,I0,A,I0,A,I0)') 'test_env: running on ', npes, ' PEs, grid ', pex, ' x ', pey

  call section('RPN_COMM_init, RPN_COMM_mype, RPN_COMM_size')
  ! Userinit (called because Pex = Pey = 0) chose the grid
  if (mod(npes, 2) == 0 .and. npes > 2) then
    call check(pex == 2 .and. pey == npes/2, 'grid chosen by Userinit: 2 x npes/2')
  else
    call check(pex == npes .and. pey == 1, 'grid chosen by Userinit: npes x 1')
  endif
  call check(pex*pey == petotal, 'Pex*Pey = Petotal')
  call check(pelocal >= 0 .and. pelocal < petotal, 'Pelocal in 0..Petotal-1')
  status = RPN_COMM_mype(me, me_x, me_y)
  call check(status == RPN_COMM_OK, 'RPN_COMM_mype status')
  call check(me == pelocal, 'RPN_COMM_mype: Me = Pelocal')
  call check(me_x == mod(me, pex) .and. me_y == me / pex, 'RPN_COMM_mype: Me_x, Me_y on the grid')
  call RPN_COMM_size(RPN_COMM_GRID, n, ierr)
  call check(ierr == RPN_COMM_OK .and. n == npes, 'RPN_COMM_size(GRID)')
  call RPN_COMM_size(RPN_COMM_WORLD, n, ierr)
  call check(ierr == RPN_COMM_OK .and. n == npes, 'RPN_COMM_size(WORLD)')
  call RPN_COMM_size(RPN_COMM_ALLGRIDS, n, ierr)
  call check(ierr == RPN_COMM_OK .and. n == npes, 'RPN_COMM_size(ALLGRIDS)')

  call section('datatypes, operators and communicators by name')
  do i = 1, 12
    call RPN_COMM_i_oper(trim(opnames(i)), op)
    call check(RPN_COMM_i_valid_oper(op), 'valid_oper('//trim(opnames(i))//')')
  enddo
  call RPN_COMM_i_comm(RPN_COMM_GRID, com)
  do k = 1, 5
    call RPN_COMM_i_datyp(dtname(k), dt)
    call RPN_COMM_i_win_create(w, dt, 3, com, C_NULL_PTR, ierr)
    call check(ierr == RPN_COMM_OK, 'window of type '//dtname(k))
    call RPN_COMM_i_win_free(w, ierr)
  enddo
  ! RPN_COMM_i_comm(name, com, mcom): wrapping an MPI communicator needs an MPI transport; whatever
  ! the transport, the call must not crash and a refused wrap must give a handle create refuses
  call RPN_COMM_i_comm(RPN_COMM_GRID, com, 0)
  call RPN_COMM_i_datyp(RPN_COMM_INTEGER, dt)
  call RPN_COMM_i_win_create(w, dt, 1, com, C_NULL_PTR, ierr)
  if (ierr == RPN_COMM_OK) call RPN_COMM_i_win_free(w, ierr)
  call check(ierr == RPN_COMM_OK .or. ierr == RPN_COMM_ERROR, 'window over a wrapped MPI communicator')
  call RPN_COMM_i_comm(RPN_COMM_GRID, com)
  call comm_window(RPN_COMM_WORLD)
  call comm_window(RPN_COMM_ALLGRIDS)
  call comm_window(RPN_COMM_GRID)

  call section('barrier, allreduce, allgather')
  call RPN_COMM_barrier(RPN_COMM_GRID, ierr)
  call check(ierr == RPN_COMM_OK, 'barrier GRID')
  call RPN_COMM_barrier(RPN_COMM_WORLD, ierr)
  call check(ierr == RPN_COMM_OK, 'barrier WORLD')
  call reductions()
  call gathers()

  call section('RPN_COMM_wtime')
  t1 = RPN_COMM_wtime()
  t2 = t1
  do while (t2 - t1 < 0.02_8)
    t3 = RPN_COMM_wtime()
    call check(t3 >= t2, 'wtime is monotonic')
    if (t3 < t2) exit
    t2 = t3
  enddo
  call check(t2 - t1 >= 0.02_8 .and. t2 - t1 < 5.0_8, 'wtime advances in seconds')

  call finish('test_env')

contains

  include 'tutil.inc'

  subroutine grid_init(px, py)
    integer, intent(INOUT) :: px, py
    integer :: ntot, ierr
    call RPN_COMM_size(RPN_COMM_WORLD, ntot, ierr)
    if (mod(ntot, 2) == 0 .and. ntot > 2) then
      px = 2
      py = ntot / 2
    else
      px = ntot
      py = 1
    endif
  end subroutine grid_init

  ! a window over a named communicator: every PE puts its rank into the right neighbour
  subroutine comm_window(name)
    character(len=*), intent(IN) :: name
    type(rpncomm_communicator) :: c
    type(rpncomm_datatype) :: d
    type(rpncomm_window) :: win
    integer, dimension(2), target :: arr
    integer, dimension(1), target :: val
    integer :: ierr
    call RPN_COMM_i_comm(name, c)
    call RPN_COMM_i_datyp(RPN_COMM_INTEGER, d)
    arr = -1
    call RPN_COMM_i_win_create(win, d, 2, c, c_loc(arr), ierr)
    call check(ierr == RPN_COMM_OK, 'window over '//name)
    val = me
    call RPN_COMM_i_win_open(win, .true., ierr)
    call RPN_COMM_i_win_put_r(win, c_loc(val), mod(me + 1, npes), 1, 1, ierr)
    call check(ierr == RPN_COMM_OK, 'put_r over '//name)
    call RPN_COMM_i_win_close(win, ierr)
    call check(all(arr == [-1, mod(me - 1 + npes, npes)]), 'data over '//name)
    call RPN_COMM_i_win_free(win, ierr)
    call check(ierr == RPN_COMM_OK, 'free window over '//name)
  end subroutine comm_window

  subroutine reductions()
    integer :: ierr, i, isum, imax, imin, iprod, iband, ibor, ibxor
    integer, dimension(3) :: iv, ivr
    integer(kind=8) :: l8, l8r
    real(kind=4) :: r4, r4r
    real(kind=4), dimension(2) :: r4v, r4vr
    real(kind=8) :: d8, d8r
    real(kind=8), dimension(2) :: d8v, d8vr
    integer :: pw, expect_band, expect_bor, expect_bxor

    call RPN_COMM_allreduce(me + 1, isum, 1, RPN_COMM_INTEGER, RPN_COMM_SUM, RPN_COMM_GRID, ierr)
    call check(ierr == RPN_COMM_OK .and. isum == npes*(npes + 1)/2, 'allreduce integer scalar SUM')
    call RPN_COMM_allreduce(me, imax, 1, RPN_COMM_INTEGER, RPN_COMM_MAX, RPN_COMM_GRID, ierr)
    call check(imax == npes - 1, 'allreduce integer MAX')
    call RPN_COMM_allreduce(me + 10, imin, 1, RPN_COMM_INTEGER, RPN_COMM_MIN, RPN_COMM_WORLD, ierr)
    call check(imin == 10, 'allreduce integer MIN over WORLD')
    pw = merge(2, 1, me < 3)
    call RPN_COMM_allreduce(pw, iprod, 1, RPN_COMM_INTEGER, RPN_COMM_PROD, RPN_COMM_GRID, ierr)
    call check(iprod == 2**min(npes, 3), 'allreduce integer PROD')
    expect_band = -1
    expect_bor = 0
    expect_bxor = 0
    do i = 0, npes-1
      expect_band = iand(expect_band, 7 + 2*i)
      expect_bor  = ior(expect_bor, 2**i)
      expect_bxor = ieor(expect_bxor, 3*i + 1)
    enddo
    call RPN_COMM_allreduce(7 + 2*me, iband, 1, RPN_COMM_INTEGER, RPN_COMM_BAND, RPN_COMM_GRID, ierr)
    call check(iband == expect_band, 'allreduce integer BAND')
    call RPN_COMM_allreduce(2**me, ibor, 1, RPN_COMM_INTEGER, RPN_COMM_BOR, RPN_COMM_GRID, ierr)
    call check(ibor == expect_bor, 'allreduce integer BOR')
    call RPN_COMM_allreduce(3*me + 1, ibxor, 1, RPN_COMM_INTEGER, RPN_COMM_BXOR, RPN_COMM_GRID, ierr)
    call check(ibxor == expect_bxor, 'allreduce integer BXOR')

    iv = [me, 2*me, -me]
    ivr = 0
    call RPN_COMM_allreduce(iv, ivr, 3, RPN_COMM_INTEGER, RPN_COMM_SUM, RPN_COMM_GRID, ierr)
    n = npes*(npes - 1)/2
    call check(all(ivr == [n, 2*n, -n]), 'allreduce integer array SUM')

    l8 = 3000000000_8 + me
    call RPN_COMM_allreduce(l8, l8r, 1, RPN_COMM_INTEGER8, RPN_COMM_SUM, RPN_COMM_GRID, ierr)
    call check(ierr == RPN_COMM_OK .and. l8r == 3000000000_8*npes + n, 'allreduce integer8 SUM past 2**31')

    r4 = 0.5 * (me + 1)
    call RPN_COMM_allreduce(r4, r4r, 1, RPN_COMM_REAL, RPN_COMM_SUM, RPN_COMM_GRID, ierr)
    call check(r4r == 0.25 * npes * (npes + 1), 'allreduce real SUM')
    r4v = [real(me, 4), -real(me, 4)]
    call RPN_COMM_allreduce(r4v, r4vr, 2, RPN_COMM_REAL, RPN_COMM_MAX, RPN_COMM_GRID, ierr)
    call check(all(r4vr == [real(npes - 1, 4), 0.0]), 'allreduce real array MAX')

    d8 = 1.0_8 / 1024 * (me + 1)
    call RPN_COMM_allreduce(d8, d8r, 1, RPN_COMM_REAL8, RPN_COMM_SUM, RPN_COMM_GRID, ierr)
    call check(d8r == 1.0_8 / 1024 * npes * (npes + 1) / 2, 'allreduce real8 SUM')
    d8v = [real(me, 8) + 0.5_8, real(-me, 8)]
    call RPN_COMM_allreduce(d8v, d8vr, 2, RPN_COMM_DOUBLE_PRECISION, RPN_COMM_MIN, RPN_COMM_GRID, ierr)
    call check(all(d8vr == [0.5_8, real(1 - npes, 8)]), 'allreduce double precision array MIN')
  end subroutine reductions

  subroutine gathers()
    integer :: ierr, p
    integer, dimension(2) :: mine
    integer, dimension(:), allocatable :: all2
    real(kind=8), dimension(:), allocatable :: alld
    real(kind=8) :: d
    allocate(all2(2*npes), alld(npes))
    mine = [me, 100 + me]
    all2 = -1
    call RPN_COMM_allgather(mine, 2, RPN_COMM_INTEGER, all2, 2, RPN_COMM_INTEGER, RPN_COMM_GRID, ierr)
    call check(ierr == RPN_COMM_OK, 'allgather integer status')
    call check(all([(all2(2*p + 1) == p .and. all2(2*p + 2) == 100 + p, p = 0, npes-1)]), 'allgather integer data')
    d = 0.25_8 * me
    alld = -1
    call RPN_COMM_allgather(d, 1, RPN_COMM_REAL8, alld, 1, RPN_COMM_REAL8, RPN_COMM_WORLD, ierr)
    call check(ierr == RPN_COMM_OK, 'allgather real8 status')
    call check(all(alld == [(0.25_8 * p, p = 0, npes-1)]), 'allgather real8 scalar data')
  end subroutine gathers

end program test_env
