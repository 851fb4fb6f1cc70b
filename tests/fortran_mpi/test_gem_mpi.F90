! PES: 1 2 4 6
! TIMEOUT: 120
!
! MPI transport only. A program written as GEM is: it calls MPI_Init itself (thread level SINGLE)
! before RPN_COMM_init, includes the legacy include under implicit none, hands RPN_COMM's
! communicators and datatypes to raw MPI, and leaves MPI_Finalize to RPN_COMM_finalize, as the
! original RPN_COMM does it. Checked against MPI itself:
! - RPN_COMM_comm: 'GRID' is congruent with MPI_COMM_WORLD; 'ew' and a variable holding 'Ns' are
!   this PE's row and column (sizes, ranks, an MPI_Allreduce over them); 'BLOCMASTER' off the
!   masters, 'RPN_COMM_NULL' and an unknown name are MPI_COMM_NULL;
! - RPN_COMM_datyp: names in any case give MPI's own Fortran datatypes; an unknown one
!   MPI_DATATYPE_NULL; raw MPI_Allreduce with them agrees with RPN_COMM_allreduce, to the last
!   bit on sums whose value depends on the order of combination;
! - RPN_COMM_oper: names in any case give MPI's own operators (MPI_OP_NULL for 'MPI_OP_NULL' and,
!   with a message, for an unknown name); a raw MPI_Allreduce of logicals with RPN_COMM_oper's
!   MPI_LAND and MPI_LOR agrees with RPN_COMM_allreduce's;
! - RPN_COMM_send/recv around a ring of 'GRID', in turn (the count received in status), RPN_COMM_isend/
!   irecv + RPN_COMM_waitall_nostat along the rows, and mixed with raw MPI (RPN_COMM_isend with
!   MPI_Recv, MPI_Isend with RPN_COMM_waitall_nostat);
! - RPN_COMM_io_pe_comm: the members of an I/O PE set get a communicator of the set's size where
!   their rank is RPN_COMM_is_io_pe's, the others MPI_COMM_NULL;
! - after RPN_COMM_finalize MPI is finalized, and the program ends with status 0.
program test_gem_mpi
  use ISO_C_BINDING
  use mpi
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, nerr
  integer :: pex, pey, mex, mey, ierr, status, mierr
  logical :: flag

  nerr = 0
  call MPI_Init(mierr)
  pex = 0
  pey = 0
  call RPN_COMM_init(grid_shape, me, npes, pex, pey)
  if (me == 0) write(*, '(A,I0,A,I0,A,I0,A)') 'test_gem_mpi: running on ', npes, ' PEs, a ', pex, ' x ', pey, ' grid'
  status = RPN_COMM_mype(me, mex, mey)

  call section('RPN_COMM_comm')
  call communicators()
  call section('RPN_COMM_datyp')
  call datatypes()
  call section('RPN_COMM_send and RPN_COMM_recv around a ring')
  call ring()
  call section('RPN_COMM_isend, irecv and waitall_nostat along the rows')
  call rows()
  call section('mixed with raw MPI')
  call mixed()
  call section('RPN_COMM_io_pe_comm')
  call io_comm()

  call finish('test_gem_mpi')
  call MPI_Finalized(flag, mierr)
  if (.not. flag) then
    write(*, '(A,I0)') 'test_gem_mpi: MPI is not finalized after RPN_COMM_finalize on PE ', me
    error stop 3
  endif

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

  subroutine communicators()
    integer :: c, n, r, res, e, total
    character(len=32) :: name
    c = RPN_COMM_comm('GRID')
    call MPI_Comm_size(c, n, e)
    call MPI_Comm_rank(c, r, e)
    call check(e == MPI_SUCCESS .and. n == npes .and. r == me, 'GRID: '//str(n)//' PEs, rank '//str(r))
    call MPI_Comm_compare(c, MPI_COMM_WORLD, res, e)
    call check(res == MPI_CONGRUENT .or. res == MPI_IDENT, 'GRID is congruent with MPI_COMM_WORLD')
    call check(RPN_COMM_comm('grid') == c .and. RPN_COMM_comm(RPN_COMM_GRID) == c, 'grid in any case')
    c = RPN_COMM_comm('ew')
    call MPI_Comm_size(c, n, e)
    call MPI_Comm_rank(c, r, e)
    call check(n == pex .and. r == mex, 'ew: '//str(n)//' PEs, rank '//str(r))
    call MPI_Allreduce(me, total, 1, MPI_INTEGER, MPI_SUM, c, e)
    call check(e == MPI_SUCCESS .and. total == pex * mey * pex + pex * (pex - 1) / 2, 'MPI_Allreduce over ew')
    name = 'Ns'
    c = RPN_COMM_comm(name)
    call MPI_Comm_size(c, n, e)
    call MPI_Comm_rank(c, r, e)
    call check(n == pey .and. r == mey, 'a variable holding Ns: '//str(n)//' PEs, rank '//str(r))
    c = RPN_COMM_comm(RPN_COMM_BLOCMASTER)
    if (me == 0) then
      call check(c /= MPI_COMM_NULL, 'BLOCMASTER on the master')
    else
      call check(c == MPI_COMM_NULL, 'BLOCMASTER off the master is MPI_COMM_NULL')
    endif
    call check(RPN_COMM_comm('RPN_COMM_NULL') == MPI_COMM_NULL, 'RPN_COMM_NULL is MPI_COMM_NULL')
    call check(RPN_COMM_comm('NOSUCHCOMM') == MPI_COMM_NULL, 'an unknown name gives MPI_COMM_NULL')
    c = RPN_COMM_comm('MULTIGRID')
    call MPI_Comm_size(c, n, e)
    call check(n == npes, 'MULTIGRID: the job (one grid)')
  end subroutine communicators

  subroutine datatypes()
    real(kind=8) :: x, s, s2, xs(16), ss(16), ss2(16)
    integer :: e, k
    call check(RPN_COMM_datyp('MPI_double_precision') == MPI_DOUBLE_PRECISION, 'MPI_double_precision')
    call check(RPN_COMM_datyp('mpi_integer') == MPI_INTEGER, 'mpi_integer')
    call check(RPN_COMM_datyp(RPN_COMM_REAL) == MPI_REAL, 'RPN_COMM_REAL')
    call check(RPN_COMM_datyp('MPI_INTEGER8') == MPI_INTEGER8, 'MPI_INTEGER8')
    call check(RPN_COMM_datyp('MPI_REAL8') == MPI_REAL8, 'MPI_REAL8')
    call check(RPN_COMM_datyp('MPI_CHARACTER') == MPI_CHARACTER, 'MPI_CHARACTER')
    call check(RPN_COMM_datyp('MPI_LOGICAL') == MPI_LOGICAL, 'MPI_LOGICAL')
    call check(RPN_COMM_datyp('MPI_2INTEGER') == MPI_2INTEGER, 'MPI_2INTEGER')
    call check(RPN_COMM_datyp('MPI_DOUBLE') == MPI_DATATYPE_NULL, 'MPI_DOUBLE is not in the table')
    call check(RPN_COMM_datyp('MPI_COMPLEX8') == MPI_COMPLEX8, 'MPI_COMPLEX8')
    call check(RPN_COMM_datyp('mpi_integer2') == MPI_INTEGER2, 'MPI_INTEGER2')
    call check(RPN_COMM_datyp('MPI_BYTE') == MPI_BYTE, 'MPI_BYTE')
    call check(RPN_COMM_datyp('MPI_DOUBLE_COMPLEX') == MPI_DOUBLE_COMPLEX, 'MPI_DOUBLE_COMPLEX')
    call check(RPN_COMM_oper('mpi_sum') == MPI_SUM, 'RPN_COMM_oper: mpi_sum')
    call check(RPN_COMM_oper('MPI_LOR') == MPI_LOR, 'RPN_COMM_oper: MPI_LOR')
    call check(RPN_COMM_oper('MPI_LAND') == MPI_LAND, 'RPN_COMM_oper: MPI_LAND')
    call check(RPN_COMM_oper('MPI_BXOR') == MPI_BXOR, 'RPN_COMM_oper: MPI_BXOR')
    call check(RPN_COMM_oper('MPI_MAXLOC') == MPI_MAXLOC, 'RPN_COMM_oper: MPI_MAXLOC')
    call check(RPN_COMM_oper('MPI_REPLACE') == MPI_REPLACE, 'RPN_COMM_oper: MPI_REPLACE')
    call check(RPN_COMM_oper('MPI_OP_NULL') == MPI_OP_NULL, 'RPN_COMM_oper: MPI_OP_NULL')
    call check(RPN_COMM_oper('MPI_NOSUCH') == MPI_OP_NULL, 'RPN_COMM_oper: an unknown name gives MPI_OP_NULL')
    call logical_reductions()
    x = me + 0.5d0
    call MPI_Allreduce(x, s, 1, RPN_COMM_datyp('MPI_double_precision'), MPI_SUM, RPN_COMM_comm('grid'), e)
    call RPN_COMM_allreduce(x, s2, 1, 'MPI_DOUBLE_PRECISION', 'MPI_SUM', 'GRID', ierr)
    call check(e == MPI_SUCCESS .and. s == s2 .and. s == npes * (npes - 1) / 2 + 0.5d0 * npes, &
               'raw MPI_Allreduce on RPN_COMM_comm/RPN_COMM_datyp: '//strd(s))
    ! sums whose value depends on the order of combination (1 + 1e16 - 1e16 + 1 is 1 in rank
    ! order, 0 in pairs): to the last bit MPI_Allreduce's, as the original's RPN_COMM_allreduce
    do k = 1, size(xs)
      xs(k) = merge(1.0d16, 1.0d0, mod(me + k, 3) == 1) * merge(-1.0d0, 1.0d0, mod(me * k, 2) == 1) + me * 1.0d-3
    enddo
    call MPI_Allreduce(xs, ss, size(xs), MPI_DOUBLE_PRECISION, MPI_SUM, RPN_COMM_comm('GRID'), e)
    call RPN_COMM_allreduce(xs, ss2, size(xs), 'MPI_DOUBLE_PRECISION', 'MPI_SUM', 'GRID', ierr)
    call check(e == MPI_SUCCESS .and. ierr == RPN_COMM_OK .and. &
               all(transfer(ss, 1_8, size(ss)) == transfer(ss2, 1_8, size(ss2))), &
               'RPN_COMM_allreduce of real*8 sums bit for bit as MPI_Allreduce')
  end subroutine datatypes

  ! PE p's element i is true when p is a multiple of i: MPI's own reduction against ours
  subroutine logical_reductions()
    logical :: l(6), mpi_and(6), mpi_or(6), ours_and(6), ours_or(6)
    integer :: i, e
    l = [(mod(me, i) == 0, i = 1, 6)]
    call MPI_Allreduce(l, mpi_and, 6, RPN_COMM_datyp('MPI_LOGICAL'), RPN_COMM_oper('MPI_LAND'), RPN_COMM_comm('GRID'), e)
    call MPI_Allreduce(l, mpi_or, 6, RPN_COMM_datyp('MPI_LOGICAL'), RPN_COMM_oper('MPI_LOR'), RPN_COMM_comm('GRID'), e)
    call RPN_COMM_allreduce(l, ours_and, 6, 'MPI_LOGICAL', 'MPI_LAND', 'GRID', ierr)
    call RPN_COMM_allreduce(l, ours_or, 6, 'MPI_LOGICAL', 'MPI_LOR', 'GRID', ierr)
    call check(all(transfer(mpi_and, 1, 6) == transfer(ours_and, 1, 6)) .and. &
               all(transfer(mpi_or, 1, 6) == transfer(ours_or, 1, 6)), 'MPI_LAND and MPI_LOR on logicals as MPI''s own')
  end subroutine logical_reductions

  subroutine ring()
    integer :: sbuf(3), rbuf(5), st, e, right, left, req(1)
    right = mod(me + 1, npes)
    left = mod(me + npes - 1, npes)
    sbuf = [me, 10 * me, -me]
    rbuf = -1
    st = -1
    ! in turn around the ring (PE 0 sends first, every other PE receives first): no blocking send
    ! waits for a receive that is not coming (an MPI need not buffer a message: MPICH does not, to
    ! itself); on one PE, the receive is posted first
    if (npes == 1) then
      call RPN_COMM_irecv(rbuf, 5, 'MPI_INTEGER', left, 7, 'GRID', req(1), e)
      call RPN_COMM_send(sbuf, 3, 'mpi_integer', right, 7, 'grid', e)
      call check(e == RPN_COMM_OK, 'RPN_COMM_send: ierr '//str(e))
      call RPN_COMM_waitall_nostat(1, req, e)
      st = 3
    else if (me == 0) then
      call RPN_COMM_send(sbuf, 3, 'mpi_integer', right, 7, 'grid', e)
      call check(e == RPN_COMM_OK, 'RPN_COMM_send: ierr '//str(e))
      call RPN_COMM_recv(rbuf, 5, 'MPI_INTEGER', left, 7, RPN_COMM_GRID, st, e)
    else
      call RPN_COMM_recv(rbuf, 5, 'MPI_INTEGER', left, 7, RPN_COMM_GRID, st, e)
      call RPN_COMM_send(sbuf, 3, 'mpi_integer', right, 7, 'grid', e)
      call check(e == RPN_COMM_OK, 'RPN_COMM_send: ierr '//str(e))
    endif
    call check(e == RPN_COMM_OK .and. st == 3, 'RPN_COMM_recv: ierr '//str(e)//', count '//str(st))
    call check(all(rbuf == [left, 10 * left, -left, -1, -1]), 'the left neighbour''s message')
  end subroutine ring

  subroutine rows()
    integer :: req(4), sbuf(2), fromleft(2), fromright(2), e, right, left, n
    right = mod(mex + 1, pex)
    left = mod(mex + pex - 1, pex)
    sbuf = [me, mex]
    fromleft = -1
    fromright = -1
    call RPN_COMM_irecv(fromleft, 2, 'MPI_INTEGER', left, 1, 'ew', req(1), e)
    call check(e == RPN_COMM_OK, 'RPN_COMM_irecv from the left')
    call RPN_COMM_irecv(fromright, 2, 'MPI_INTEGER', right, 2, 'EW', req(2), e)
    call RPN_COMM_isend(sbuf, 2, 'MPI_INTEGER', right, 1, 'Ew', req(3), e)
    call check(e == RPN_COMM_OK, 'RPN_COMM_isend to the right')
    call RPN_COMM_isend(sbuf, 2, 'MPI_INTEGER', left, 2, 'eW', req(4), e)
    n = 4
    call RPN_COMM_waitall_nostat(n, req, e)
    call check(e == RPN_COMM_OK, 'RPN_COMM_waitall_nostat: ierr '//str(e))
    call check(all(req == MPI_REQUEST_NULL), 'the requests are MPI_REQUEST_NULL after the wait')
    call check(all(fromleft == [mey * pex + left, left]) .and. all(fromright == [mey * pex + right, right]), &
               'both neighbours'' messages along the row')
  end subroutine rows

  subroutine mixed()
    integer :: req(1), sbuf(1), rbuf(1), e, right, left, stat(MPI_STATUS_SIZE)
    right = mod(me + 1, npes)
    left = mod(me + npes - 1, npes)
    ! RPN_COMM_isend, received by MPI_Recv; its request completed by MPI_Wait
    sbuf = 1000 + me
    call RPN_COMM_isend(sbuf, 1, 'MPI_INTEGER', right, 3, 'GRID', req(1), e)
    call MPI_Recv(rbuf, 1, MPI_INTEGER, left, 3, RPN_COMM_comm('GRID'), stat, e)
    call check(e == MPI_SUCCESS .and. rbuf(1) == 1000 + left, 'RPN_COMM_isend -> MPI_Recv')
    call MPI_Wait(req(1), stat, e)
    call check(e == MPI_SUCCESS .and. req(1) == MPI_REQUEST_NULL, 'MPI_Wait on RPN_COMM_isend''s request')
    ! MPI_Irecv completed by RPN_COMM_waitall_nostat, from RPN_COMM_send
    rbuf = -1
    call MPI_Irecv(rbuf, 1, MPI_INTEGER, left, 4, RPN_COMM_comm('GRID'), req(1), e)
    sbuf = 2000 + me
    call RPN_COMM_send(sbuf, 1, 'MPI_INTEGER', right, 4, 'GRID', e)
    call RPN_COMM_waitall_nostat(1, req, e)
    call check(e == RPN_COMM_OK .and. rbuf(1) == 2000 + left .and. req(1) == MPI_REQUEST_NULL, &
               'MPI_Irecv completed by RPN_COMM_waitall_nostat')
  end subroutine mixed
  subroutine io_comm()
    integer :: setno, n, c, sz, r, e, total
    n = min(npes, min(pex, pey) + 1)
    setno = RPN_COMM_create_io_set(n, 0)
    call check(setno > 0, 'create_io_set: '//str(setno))
    c = RPN_COMM_io_pe_comm(setno)
    if (RPN_COMM_is_io_pe(setno) >= 0) then
      call MPI_Comm_size(c, sz, e)
      call MPI_Comm_rank(c, r, e)
      call check(e == MPI_SUCCESS .and. sz == n .and. r == RPN_COMM_is_io_pe(setno), &
                 'the set''s communicator: '//str(sz)//' PEs, rank '//str(r))
      call MPI_Allreduce(1, total, 1, MPI_INTEGER, MPI_SUM, c, e)
      call check(e == MPI_SUCCESS .and. total == n, 'MPI_Allreduce over the set')
    else
      call check(c == MPI_COMM_NULL, 'off the set: MPI_COMM_NULL')
    endif
    call check(RPN_COMM_free_io_set(setno) == setno, 'free_io_set')
  end subroutine io_comm
end program test_gem_mpi
