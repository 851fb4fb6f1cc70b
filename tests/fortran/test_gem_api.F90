! PES: 1 2 4 6
! TIMEOUT: 120
! ENV: RPNCOMM_CHECK_COLLECTIVES=each
!
! The routines GEM calls beyond the windows, through the legacy include under implicit none (as
! GEM does), on both transports, against independent references:
! - RPN_COMM_limit_2: every case of limit_2_reference.inc, the figures of the ORIGINAL RPN_COMM
!   4.6.3 (tests/reference/limit_2_reference.F90), in the 5 modes;
! - RPN_COMM_topo_2 along x and y, with and without fill, from the same figures;
! - RPN_COMM_carac and RPN_COMM_bloctopo before and after RPN_COMM_bloc, from the grid's geometry;
! - RPN_COMM_set_petopo with a placement equal to the default (accepted);
! - RPN_COMM_rank of every kind of name, in any case, the name in a variable;
! - RPN_COMM_reduce (SUM, MAX, MIN, BOR on GRID, EW, NS, BLOC; root anywhere; the others'
!   buffers untouched; a bad root, or a bad datatype on one PE, refused on every PE) and
!   RPN_COMM_gather (two roots refused), with names in any case; a PE in RPN_COMM_barrier while
!   the others reduce: all told (collectives know each other);
! - RPN_COMM_io_pe_valid_set: every case of io_pe_reference.inc, the original's figures
!   (tests/reference/io_pe_reference.F90);
! - I/O PE sets on the grid: RPN_COMM_create_io_set places them as io_pe_valid_set does (the
!   reference), is_io_pe, io_pe_gridid, io_pe_size agree with it; free_io_set, then the number is
!   given again; 16 sets at most; a set of more PEs than the grid refused;
! - shared memory: RPN_COMM_comm, RPN_COMM_io_pe_comm, RPN_COMM_datyp and point-to-point refused (ierr = -1 and one line
!   each), RPN_COMM_waitall_nostat of no request accepted. The MPI build's handles and messages
!   are tested in tests/fortran_mpi/test_gem_mpi.F90.
program test_gem_api
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, nerr
  integer :: pex, pey, mex, mey, ierr, status
  logical :: mpi_build
  integer :: ref(28, 240), ioref(20, 247)
  include 'limit_2_reference.inc'
  include 'io_pe_reference.inc'
  ! The original's include leaves the routines with buffers of any type undeclared (GEM calls them
  ! through implicit interfaces, compiled with -fallow-argument-mismatch); declared here as the
  ! library's own collectives are, so that the test compiles without that flag.
  interface
    subroutine RPN_COMM_reduce(sendbuf, recbuf, count, datatype, op, root, com, ierr)
!GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf, recbuf
      type(*), dimension(*), intent(IN) :: sendbuf
      type(*), dimension(*), intent(INOUT) :: recbuf
      integer, intent(IN) :: count, root
      character(len=*), intent(IN) :: datatype, op, com
      integer, intent(OUT) :: ierr
    end subroutine RPN_COMM_reduce
    subroutine RPN_COMM_gather(sendbuf, sendcount, sendtype, recbuf, reccount, rectype, root, com, ierr)
!GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf, recbuf
      type(*), dimension(*), intent(IN) :: sendbuf
      type(*), dimension(*), intent(INOUT) :: recbuf
      integer, intent(IN) :: sendcount, reccount, root
      character(len=*), intent(IN) :: sendtype, rectype, com
      integer, intent(OUT) :: ierr
    end subroutine RPN_COMM_gather
  end interface

  nerr = 0
  pex = 0
  pey = 0
  ! blocks one PE high place the PEs x first: the default placement, accepted
  call RPN_COMM_set_petopo(4, 1)
  call RPN_COMM_init(grid_shape, me, npes, pex, pey)
  if (me == 0) write(*, '(A,I0,A,I0,A,I0,A)') 'test_gem_api: running on ', npes, ' PEs, a ', pex, ' x ', pey, ' grid'
  status = RPN_COMM_mype(me, mex, mey)
  call check(mex == mod(me, pex) .and. mey == me / pex, 'the default placement after RPN_COMM_set_petopo(4, 1)')
  ! the shared-memory build has no MPI handles (RPN_COMM_datyp says so on stderr and gives -1)
  mpi_build = RPN_COMM_datyp('MPI_INTEGER') /= -1

  call section('RPN_COMM_limit_2 against the original')
  if (me == 0) call limits()
  call section('RPN_COMM_topo_2')
  call topos()
  call section('RPN_COMM_carac and RPN_COMM_bloctopo')
  call topology(1, 1)
  call section('RPN_COMM_rank')
  call ranks()
  call section('RPN_COMM_reduce')
  call reductions()
  call section('RPN_COMM_gather')
  call gathers()
  call section('RPN_COMM_io_pe_valid_set against the original')
  if (me == 0) call valid_sets()
  call section('I/O PE sets')
  call io_sets()
  if (.not. mpi_build) then
    call section('shared memory: MPI handles and point-to-point refused')
    call refusals()
  endif
  call section('after RPN_COMM_bloc')
  status = RPN_COMM_bloc(pex, 1)
  call check_ierr(status, RPN_COMM_OK, 'RPN_COMM_bloc(pex, 1)')
  call topology(pex, 1)
  call ranks()
  call reductions()

  call finish('test_gem_api')

contains

  include 'tutil.inc'

  subroutine grid_shape(px, py)
    integer, intent(INOUT) :: px, py
    select case (px)
    case (4)
      px = 2
      py = 2
    case (6)
      px = 3
      py = 2
    case default
      py = 1
    end select
  end subroutine grid_shape

  ! every case of the reference, for every my_id
  subroutine limits()
    integer :: c, npe, n, relax, id, st, lo, hi
    integer :: count(6), offset(6)
    do c = 1, size(ref, 2)
      npe = ref(1, c)
      n = ref(2, c)
      relax = ref(3, c)
      do id = npe - 1, 0, -1
        count = -7
        offset = -7
        st = RPN_COMM_limit_2(id, npe, 1, n, lo, hi, count, offset, relax)
        call check(st == ref(4, c) .and. lo == ref(5 + 2 * id, c) .and. hi == ref(6 + 2 * id, c), &
                   'limit_2(my_id '//str(id)//', npe '//str(npe)//', 1, '//str(n)//', relax '//str(relax)// &
                   '): status '//str(st)//', lmini '//str(lo)//', lmaxi '//str(hi)//', expected '// &
                   str(ref(4, c))//', '//str(ref(5 + 2 * id, c))//', '//str(ref(6 + 2 * id, c)))
      enddo
      call check(all(count(1:npe) == ref(5 + 2 * npe:4 + 3 * npe, c)) .and. &
                 all(offset(1:npe) == ref(5 + 3 * npe:4 + 4 * npe, c)), &
                 'limit_2 counts and offsets, npe '//str(npe)//', n '//str(n)//', relax '//str(relax))
    enddo
  end subroutine limits

  ! the reference case of npe PEs, n points, mode relax
  integer function ref_case(npe, n, relax)
    integer, intent(IN) :: npe, n, relax
    integer :: c
    ref_case = 0
    do c = 1, size(ref, 2)
      if (ref(1, c) == npe .and. ref(2, c) == n .and. ref(3, c) == relax) ref_case = c
    enddo
  end function ref_case

  subroutine topos()
    integer, parameter :: sizes(5) = [3, 5, 7, 13, 23]
    integer :: k, relax, axis, c, npe, my, st, minx, maxx, nxl, nxlmax, nx0, halo, lo, hi, big, want
    logical :: fill
    do axis = 1, 2
      npe = merge(pex, pey, axis == 1)
      my = merge(mex, mey, axis == 1)
      do k = 1, size(sizes)
        do relax = 0, 4
          c = ref_case(npe, sizes(k), relax)
          if (c == 0) cycle
          fill = mod(k, 2) == 0
          halo = k - 1
          st = RPN_COMM_topo_2(sizes(k), minx, maxx, nxl, nxlmax, halo, nx0, axis == 1, fill, relax, .false.)
          if (ref(4, c) /= 0) then
            call check(st /= 0, 'topo_2 of '//str(sizes(k))//' on '//str(npe)//' PEs, relax '//str(relax)//' refused')
            cycle
          endif
          lo = ref(5 + 2 * my, c)
          hi = ref(6 + 2 * my, c)
          big = ref(5 + 2 * npe, c)
          want = big + halo
          if (fill .and. mod(big, 2) == 0) want = want + 1
          call check(st == 0 .and. minx == 1 - halo .and. maxx == want .and. nx0 == lo .and. nxl == hi - lo + 1 &
                     .and. nxlmax == big, 'topo_2 of '//str(sizes(k))//' along '//merge('x', 'y', axis == 1)// &
                     ', relax '//str(relax)//': '//str(minx)//':'//str(maxx)//' start '//str(nx0)//' length '// &
                     str(nxl)//' largest '//str(nxlmax))
        enddo
      enddo
    enddo
  end subroutine topos

  ! carac and bloctopo with nbx x nby blocks, from the grid's geometry
  subroutine topology(nbx, nby)
    integer, intent(IN) :: nbx, nby
    integer :: npex, npey, m, medomm, x, y, sizex, sizey, ismaster, mymaster, mybloc, myblocx, myblocy, blocme
    integer :: bme, bmex, bmey, bsx, bsy, wide, high, bx, by, corner
    character(len=8) :: domname
    call RPN_COMM_carac(npex, npey, m, medomm, x, y, sizex, sizey, ismaster, mymaster, mybloc, &
                        myblocx, myblocy, blocme, domname)
    wide = pex / nbx
    high = pey / nby
    bx = mex / wide
    by = mey / high
    corner = (by * high) * pex + bx * wide      ! the lower left PE of my block
    call check(npex == pex .and. npey == pey .and. m == me .and. medomm == me .and. x == mex .and. y == mey, &
               'carac: the grid and my place')
    call check(sizex == nbx .and. sizey == nby .and. myblocx == bx .and. myblocy == by .and. &
               mybloc == bx + nbx * by, 'carac: '//str(sizex)//' x '//str(sizey)//' blocks, mine '//str(mybloc))
    call check(mymaster == corner .and. ismaster == merge(1, 0, corner == me) .and. &
               blocme == (mex - bx * wide) + wide * (mey - by * high), &
               'carac: master '//str(mymaster)//' ('//str(ismaster)//'), rank in block '//str(blocme))
    call check(domname == 'DOM1', 'carac: domain name '//domname)
    call RPN_COMM_bloctopo(bme, bmex, bmey, bsx, bsy)
    call check(bme == blocme .and. bmex == mex - bx * wide .and. bmey == mey - by * high .and. &
               bsx == nbx .and. bsy == nby, 'bloctopo: '//str(bme)//' at '//str(bmex)//','//str(bmey))
  end subroutine topology

  subroutine ranks()
    integer :: r, e
    character(len=32) :: name
    integer :: blocme, bmex, bmey, bsx, bsy
    call RPN_COMM_rank(RPN_COMM_GRID, r, e)
    call check(e == RPN_COMM_OK .and. r == me, 'rank in GRID: '//str(r))
    call RPN_COMM_rank('world', r, e)
    call check(e == RPN_COMM_OK .and. r == me, 'rank in world')
    call RPN_COMM_rank('MULTIGRID', r, e)
    call check(e == RPN_COMM_OK .and. r == me, 'rank in MULTIGRID')
    call RPN_COMM_rank('ew', r, e)
    call check(e == RPN_COMM_OK .and. r == mex, 'rank in ew: '//str(r))
    name = 'Ns'
    call RPN_COMM_rank(name, r, e)
    call check(e == RPN_COMM_OK .and. r == mey, 'rank in a variable holding Ns: '//str(r))
    call RPN_COMM_bloctopo(blocme, bmex, bmey, bsx, bsy)
    call RPN_COMM_rank(RPN_COMM_BLOC_COMM, r, e)
    call check(e == RPN_COMM_OK .and. r == blocme, 'rank in BLOC: '//str(r))
    ! (rank is intent(OUT), as in the original: off BLOCMASTER it is not set, whatever it held)
    call RPN_COMM_rank(RPN_COMM_BLOCMASTER, r, e)
    call check(e == RPN_COMM_OK, 'rank in BLOCMASTER: ierr '//str(e))
    if (blocme == 0) call check(r == mybloc(), 'rank in BLOCMASTER: '//str(r))
    call RPN_COMM_rank('NOSUCHCOMM', r, e)
    call check(e == RPN_COMM_ERROR, 'an unknown name refused')
  end subroutine ranks

  integer function mybloc()
    integer :: npex, npey, m, medomm, x, y, sizex, sizey, ismaster, mymaster, myblocx, myblocy, blocme
    character(len=8) :: domname
    call RPN_COMM_carac(npex, npey, m, medomm, x, y, sizex, sizey, ismaster, mymaster, mybloc, &
                        myblocx, myblocy, blocme, domname)
  end function mybloc

  subroutine reductions()
    integer :: isend(2), irecv(2), e, blocme, bmex, bmey, bsx, bsy, bsize
    real(kind=8) :: dsend(3), drecv(3)
    integer(kind=8) :: ksend(1), krecv(1)
    ! SUM of 1..npes and 2..2npes over GRID at the last PE
    isend = [me + 1, 2 * (me + 1)]
    irecv = -9
    call RPN_COMM_reduce(isend, irecv, 2, 'mpi_integer', 'Mpi_Sum', npes - 1, 'grid', e)
    call check(e == RPN_COMM_OK, 'reduce SUM over grid: ierr '//str(e))
    if (me == npes - 1) then
      call check(irecv(1) == npes * (npes + 1) / 2 .and. irecv(2) == npes * (npes + 1), &
                 'reduce SUM: '//str(irecv(1))//' '//str(irecv(2)))
    else
      call check(all(irecv == -9), 'reduce: a PE other than the root keeps its buffer')
    endif
    ! no element (GEM's liebman_dm with Nk = 0): accepted, nothing written
    irecv = -9
    call RPN_COMM_reduce(isend, irecv, 0, 'MPI_INTEGER', 'MPI_SUM', 0, 'GRID', e)
    call check(e == RPN_COMM_OK .and. all(irecv == -9), 'reduce of 0 elements: ierr '//str(e))
    call RPN_COMM_allreduce(isend, irecv, 0, 'MPI_REAL', 'MPI_MAX', 'grid', e)
    call check(e == RPN_COMM_OK .and. all(irecv == -9), 'allreduce of 0 elements: ierr '//str(e))
    ! MAX along each row, at its rank 0
    dsend = [mex * 1.5d0 + mey, -real(mex, 8), 0.25d0]
    drecv = -1d0
    call RPN_COMM_reduce(dsend, drecv, 3, RPN_COMM_DOUBLE_PRECISION, 'mpi_max', 0, RPN_COMM_EW, e)
    call check(e == RPN_COMM_OK, 'reduce MAX over EW: ierr '//str(e))
    if (mex == 0) then
      call check(drecv(1) == (pex - 1) * 1.5d0 + mey .and. drecv(2) == 0d0 .and. drecv(3) == 0.25d0, &
                 'reduce MAX along the row: '//strd(drecv(1)))
    else
      call check(all(drecv == -1d0), 'reduce MAX: off the root untouched')
    endif
    ! MIN of 8-byte integers down each column, at its last rank
    ksend = 1000_8 * (mey + 1) + mex
    krecv = -1
    call RPN_COMM_reduce(ksend, krecv, 1, 'MPI_INTEGER8', RPN_COMM_MIN, pey - 1, 'ns', e)
    call check(e == RPN_COMM_OK, 'reduce MIN over NS: ierr '//str(e))
    if (mey == pey - 1) call check(krecv(1) == 1000_8 + mex, 'reduce MIN down the column')
    ! BOR of one bit per PE of the block, at its master
    call RPN_COMM_bloctopo(blocme, bmex, bmey, bsx, bsy)
    bsize = (pex / bsx) * (pey / bsy)
    isend(1) = ishft(1, blocme)
    irecv(1) = -9
    call RPN_COMM_reduce(isend, irecv, 1, RPN_COMM_INTEGER, RPN_COMM_BOR, 0, RPN_COMM_BLOC_COMM, e)
    call check(e == RPN_COMM_OK, 'reduce BOR over BLOC: ierr '//str(e))
    if (blocme == 0) call check(irecv(1) == 2**bsize - 1, 'reduce BOR over the block: '//str(irecv(1)))
    ! a root outside the communicator: refused on every PE, nothing written
    irecv = -9
    call RPN_COMM_reduce(isend, irecv, 1, 'MPI_INTEGER', 'MPI_SUM', npes, 'GRID', e)
    call check(e == RPN_COMM_ERROR .and. all(irecv == -9), 'reduce to root npes refused')
    ! one PE's bad datatype: every PE refused, none waits for it
    call RPN_COMM_reduce(isend, irecv, 1, merge('MPI_NOTYPE ', 'MPI_INTEGER', me == npes - 1), 'MPI_SUM', 0, 'GRID', e)
    call check(e == RPN_COMM_ERROR .and. all(irecv == -9), 'reduce with a bad datatype on the last PE refused everywhere')
    call RPN_COMM_gather(isend, 1, 'MPI_INTEGER', irecv, 1, 'MPI_INTEGER', merge(1, 0, me == npes - 1 .and. npes > 1), &
                         'GRID', e)
    if (npes > 1) call check(e == RPN_COMM_ERROR, 'gather with two roots refused everywhere')
    ! PE 0 in a barrier while the others reduce: every PE told, nothing written
    if (npes > 1) then
      irecv = -9
      if (me == 0) then
        call RPN_COMM_barrier('GRID', e)
      else
        call RPN_COMM_reduce(isend, irecv, 1, 'MPI_INTEGER', 'MPI_SUM', 1, 'GRID', e)
      endif
      call check(e == RPN_COMM_ERROR .and. all(irecv == -9), 'a barrier against reduces refused everywhere')
    endif
  end subroutine reductions

  subroutine gathers()
    integer :: isend(2), e, i
    integer, allocatable :: got(:)
    real(kind=8) :: dsend(1)
    real(kind=8), allocatable :: row(:)
    allocate(got(2 * npes), row(pex))
    isend = [me, 100 + me]
    got = -9
    call RPN_COMM_gather(isend, 2, 'MPI_INTEGER', got, 2, 'mpi_integer', 0, 'GRID', e)
    call check(e == RPN_COMM_OK, 'gather over GRID: ierr '//str(e))
    if (me == 0) then
      call check(all(got([(2 * i - 1, i = 1, npes)]) == [(i, i = 0, npes - 1)]) .and. &
                 all(got([(2 * i, i = 1, npes)]) == [(100 + i, i = 0, npes - 1)]), 'gather: every PE''s pair in rank order')
    else
      call check(all(got == -9), 'gather: off the root untouched')
    endif
    dsend = mex + 0.5d0
    row = -1d0
    call RPN_COMM_gather(dsend, 1, 'mpi_real8', row, 1, 'MPI_DOUBLE_PRECISION', pex - 1, 'EW', e)
    call check(e == RPN_COMM_OK, 'gather over EW: ierr '//str(e))
    if (mex == pex - 1) call check(all(row == [(i + 0.5d0, i = 0, pex - 1)]), 'gather along the row')
  end subroutine gathers

  subroutine valid_sets()
    integer :: c, n, st, x(8), y(8)
    do c = 1, size(ioref, 2)
      n = ioref(3, c)
      x = -5
      y = -5
      st = RPN_COMM_io_pe_valid_set(x, y, n, ioref(1, c), ioref(2, c), .false., 0)
      call check(st == ioref(4, c), 'io_pe_valid_set of '//str(n)//' PEs on '//str(ioref(1, c))//' x '// &
                 str(ioref(2, c))//': status '//str(st))
      if (st == 0 .and. ioref(4, c) == 0) then
        call check(all(x(1:n) == ioref(5:4 + n, c)) .and. all(y(1:n) == ioref(13:12 + n, c)), &
                   'io_pe_valid_set of '//str(n)//' PEs on '//str(ioref(1, c))//' x '//str(ioref(2, c))//': the PEs')
      endif
    enddo
    st = RPN_COMM_io_pe_valid_set(x, y, 2, 2, 2, .false., 1)
    call check(st == RPN_COMM_ERROR, 'io_pe_valid_set with method 1 refused')
  end subroutine valid_sets

  subroutine io_sets()
    integer :: n, setno, set2, i, st, mine, sets(16), extra
    integer, allocatable :: x(:), y(:)
    n = min(npes, min(pex, pey) + 1)
    allocate(x(n), y(n))
    st = RPN_COMM_io_pe_valid_set(x, y, n, pex, pey, .false., 0)
    call check(st == RPN_COMM_OK, 'a set of '//str(n)//' on the grid is possible')
    setno = RPN_COMM_create_io_set(n, 0)
    call check(setno == 1, 'the first set is number 1: '//str(setno))
    call check(RPN_COMM_io_pe_size(setno) == n, 'io_pe_size')
    mine = -1
    do i = 1, n
      call check(RPN_COMM_io_pe_gridid(setno, i - 1) == y(i) * pex + x(i), 'io_pe_gridid of member '//str(i - 1))
      if (x(i) == mex .and. y(i) == mey) mine = i - 1
    enddo
    call check(RPN_COMM_is_io_pe(setno) == mine, 'is_io_pe: '//str(RPN_COMM_is_io_pe(setno))//', expected '//str(mine))
    call check(RPN_COMM_io_pe_gridid(setno, n) == -1, 'io_pe_gridid past the set: -1')
    set2 = RPN_COMM_create_io_set(1, 0)
    call check(set2 == 2 .and. RPN_COMM_is_io_pe(set2) == merge(0, -1, me == 0), 'a set of PE 0 alone, number 2')
    call check(RPN_COMM_free_io_set(setno) == setno, 'free_io_set')
    call check(RPN_COMM_is_io_pe(setno) == -1 .and. RPN_COMM_io_pe_size(setno) == -1, 'a freed set is no set')
    call check(RPN_COMM_free_io_set(setno) == -1, 'a freed set cannot be freed again')
    setno = RPN_COMM_create_io_set(n, 0)
    call check(setno == 1, 'the freed number is given again: '//str(setno))
    call check(RPN_COMM_create_io_set(npes + 1, 0) == -1, 'a set of more PEs than the grid refused')
    ! 16 sets at most at once (2 exist)
    do i = 1, 14
      sets(i) = RPN_COMM_create_io_set(1, 0)
    enddo
    call check(all(sets(1:14) == [(i, i = 3, 16)]), 'sets 3 to 16')
    extra = RPN_COMM_create_io_set(1, 0)
    call check(extra == -1, 'a 17th set refused')
    do i = 1, 14
      st = RPN_COMM_free_io_set(sets(i))
    enddo
    call check(RPN_COMM_free_io_set(set2) == set2 .and. RPN_COMM_free_io_set(setno) == setno, 'all freed')
  end subroutine io_sets

  subroutine refusals()
    integer :: buf(4), e, st, req(2)
    call check(RPN_COMM_comm('GRID') == -1, 'RPN_COMM_comm refused (-1) without MPI')
    e = RPN_COMM_create_io_set(1, 0)
    call check(RPN_COMM_io_pe_comm(e) == -1, 'RPN_COMM_io_pe_comm refused (-1) without MPI')
    call check(RPN_COMM_free_io_set(e) == e, 'free')
    buf = me
    call RPN_COMM_send(buf, 4, 'MPI_INTEGER', 0, 1, 'GRID', e)
    call check(e == RPN_COMM_ERROR, 'RPN_COMM_send refused')
    call RPN_COMM_recv(buf, 4, 'MPI_INTEGER', 0, 1, 'GRID', st, e)
    call check(e == RPN_COMM_ERROR, 'RPN_COMM_recv refused')
    call RPN_COMM_isend(buf, 4, 'MPI_INTEGER', 0, 1, 'GRID', req(1), e)
    call check(e == RPN_COMM_ERROR, 'RPN_COMM_isend refused')
    call RPN_COMM_irecv(buf, 4, 'MPI_INTEGER', 0, 1, 'GRID', req(2), e)
    call check(e == RPN_COMM_ERROR, 'RPN_COMM_irecv refused')
    call RPN_COMM_waitall_nostat(2, req, e)
    call check(e == RPN_COMM_ERROR, 'RPN_COMM_waitall_nostat of 2 requests refused')
    call RPN_COMM_waitall_nostat(0, req, e)
    call check(e == RPN_COMM_OK, 'RPN_COMM_waitall_nostat of no request')
  end subroutine refusals
end program test_gem_api
