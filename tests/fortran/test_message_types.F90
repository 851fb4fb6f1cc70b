! PES: 1 2 4 6
! TIMEOUT: 90
! ENV: RPNCOMM_CHECK_COLLECTIVES=each
! OUTPUT_HAS@2: RPN_COMM_bcast: PE 0: unknown datatype name 'MPI_LOGICALS'
! OUTPUT_HAS@2: RPN_COMM_allreduce: PE 1: operator MPI_SUM makes no sense for MPI_LOGICAL
! OUTPUT_HAS@2: RPN_COMM_allreduce: PE 0: bad argument: MPI_OP_NULL combines nothing: no reduction can be made with it
! OUTPUT_HAS@2: RPN_COMM_reduce: PE 0: operator MPI_SUM makes no sense for MPI_REAL16
! OUTPUT_HAS@2: RPN_COMM_bcast: PE 1: bad argument: datatype MPI_UB was removed from MPI (MPI-3): no data can be sent as it
! OUTPUT_HAS@2: RPN_COMM_allreduce: PE 0: collective call inconsistent across PEs: RPN_COMM_allreduce: PE 1 gives 8 bytes of MPI_LOGICAL with MPI_LOR, PE 0 8 bytes of MPI_INTEGER with MPI_LOR
! OUTPUT_HAS@2: RPN_COMM_i_win_create: PE 1: bad argument: a window holds 4- or 8-byte integers or reals, not MPI_LOGICAL
! OUTPUT_HAS@2: RPN_COMM_bcast: PE 0: collective call inconsistent across PEs: PE 1 is in RPN_COMM_allreduce while PE 0 is in RPN_COMM_bcast
! OUTPUT_HAS@2: RPN_COMM_allreduce: PE 1: collective call inconsistent across PEs: PE 0 is in RPN_COMM_bcast while PE 1 is in RPN_COMM_allreduce
!
! Every datatype and operator name of the original's table (RPN_COMM 4.6.3, RPN_COMM_datyp and
! RPN_COMM_oper) where the original takes one, in the collectives GEM and MIDAS call, through the
! legacy include as they do:
! - GEM's stop check exactly as gem_muststop makes it, after RPN_COMM_init_multigrid:
!   RPN_COMM_bcast(flag, 1, "MPI_LOGICAL", 0, "MULTIGRID", err), PE 0's flag on every PE;
! - MPI_LOGICAL in bcast, allgather, gather, allreduce and reduce with MPI_LOR, MPI_LAND and
!   MPI_LXOR: every result is .true. or .false. as gfortran stores them (1 and 0);
! - MPI_COMPLEX / MPI_COMPLEX8 SUM and MPI_DOUBLE_COMPLEX PROD, MPI_INTEGER2 SUM and MAX,
!   MPI_INTEGER1 SUM, MPI_BYTE BOR and bcast, MPI_CHARACTER in allgather, MPI_2INTEGER MAXLOC and
!   MPI_2DOUBLE_PRECISION MINLOC, against values computed here;
! - refusals (ierr = RPN_COMM_ERROR on every PE, one line, nothing written): an unknown name, an
!   operator that makes no sense for the type (SUM on logicals, arithmetic on MPI_REAL16),
!   MPI_OP_NULL, MPI_UB (removed from MPI), PEs that give different types of the same size, and a
!   PE in RPN_COMM_bcast while the others are in RPN_COMM_allreduce (both routines named);
!   RPN_COMM_i_datyp makes a handle of every name of the table, as the original, but a window of
!   MPI_LOGICAL is refused (windows hold 4- and 8-byte integers and reals).
program test_message_types
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, nerr
  integer :: grid, pex, pey, err
  ! declared as the library's own collectives are (the original's include leaves them undeclared)
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
  grid = RPN_COMM_init_multigrid(keep_grid, me, npes, pex, pey, 1)
  call check(grid == 0, 'RPN_COMM_init_multigrid returns 0')
  if (me == 0) write(*, '(A,I0,A)') 'test_message_types: running on ', npes, ' PEs'

  call section('GEM''s stop check: RPN_COMM_bcast(flag, 1, "MPI_LOGICAL", 0, "MULTIGRID", err)')
  call stop_check()
  call section('MPI_LOGICAL with MPI_LOR, MPI_LAND, MPI_LXOR')
  call logicals()
  call section('complex, 1- and 2-byte integers, bytes, characters, pairs')
  call other_types()
  call section('refusals')
  call refusals()
  call finish('test_message_types')

contains

  subroutine keep_grid(px, py)
    integer, intent(INOUT) :: px, py
    px = px + 0 * py
  end subroutine keep_grid

  ! Fortran's .true. and .false. as gfortran and flang store them
  integer function bits(l)
    logical, intent(IN) :: l
    bits = transfer(l, 0)
  end function bits

  logical function canonical(l, expected)
    logical, dimension(:), intent(IN) :: l, expected
    integer :: i
    canonical = .true.
    do i = 1, size(l)
      if (expected(i)) then
        canonical = canonical .and. bits(l(i)) == 1
      else
        canonical = canonical .and. bits(l(i)) == 0
      endif
    enddo
  end function canonical

  subroutine stop_check()
    logical :: flag
    ! as gem_muststop: only PE 0 sets the flag (from its time_left file), then broadcasts it
    flag = me /= 0
    if (me == 0) flag = .true.
    call RPN_COMM_bcast (flag, 1, "MPI_LOGICAL",0,"MULTIGRID",err)
    call check_ierr(err, RPN_COMM_OK, 'the stop check')
    call check(canonical([flag], [.true.]), 'every PE has PE 0''s .true.')
    flag = me /= 0
    call RPN_COMM_bcast (flag, 1, "MPI_LOGICAL",0,"MULTIGRID",err)
    call check(err == RPN_COMM_OK .and. canonical([flag], [.false.]), 'every PE has PE 0''s .false.')
  end subroutine stop_check

  ! PE p's element i is true when p is a multiple of i (element 1: true everywhere; element
  ! npes+1: true on PE 0 only)
  logical function mine(p, i)
    integer, intent(IN) :: p, i
    mine = mod(p, i) == 0
  end function mine

  subroutine logicals()
    integer, parameter :: N = 8
    logical :: send(N), recv(N), anyv(N), allv(N), oddv(N), gathered(N * 8), expected(N * 8), bc(3)
    integer :: i, p, root, cnt
    do i = 1, N
      send(i) = mine(me, i)
      cnt = 0
      do p = 0, npes - 1
        if (mine(p, i)) cnt = cnt + 1
      enddo
      anyv(i) = cnt > 0
      allv(i) = cnt == npes
      oddv(i) = mod(cnt, 2) == 1
    enddo
    recv = .false.
    call RPN_COMM_allreduce(send, recv, N, 'MPI_LOGICAL', 'MPI_LOR', 'GRID', err)
    call check(err == RPN_COMM_OK .and. canonical(recv, anyv), 'allreduce MPI_LOR')
    recv = .false.
    call RPN_COMM_allreduce(send, recv, N, 'mpi_logical', 'mpi_land', 'GRID', err)
    call check(err == RPN_COMM_OK .and. canonical(recv, allv), 'allreduce MPI_LAND')
    recv = .true.
    call RPN_COMM_allreduce(send, recv, N, 'MPI_LOGICAL', 'MPI_LXOR', 'MULTIGRID', err)
    call check(err == RPN_COMM_OK .and. canonical(recv, oddv), 'allreduce MPI_LXOR')
    root = npes - 1
    recv = .true.
    call RPN_COMM_reduce(send, recv, N, 'MPI_LOGICAL', 'MPI_LAND', root, 'GRID', err)
    call check_ierr(err, RPN_COMM_OK, 'reduce MPI_LAND')
    if (me == root) then
      call check(canonical(recv, allv), 'reduce MPI_LAND on the root')
    else
      call check(all(recv), 'reduce: the others'' buffers untouched')
    endif
    gathered = .false.
    call RPN_COMM_allgather(send, N, 'MPI_LOGICAL', gathered, N, 'MPI_LOGICAL', 'GRID', err)
    do p = 0, npes - 1
      do i = 1, N
        expected(p * N + i) = mine(p, i)
      enddo
    enddo
    call check(err == RPN_COMM_OK .and. canonical(gathered(1:N * npes), expected(1:N * npes)), 'allgather MPI_LOGICAL')
    gathered = .true.
    call RPN_COMM_gather(send, N, 'MPI_LOGICAL', gathered, N, 'MPI_LOGICAL', 0, 'GRID', err)
    call check_ierr(err, RPN_COMM_OK, 'gather MPI_LOGICAL')
    if (me == 0) call check(canonical(gathered(1:N * npes), expected(1:N * npes)), 'gather MPI_LOGICAL on the root')
    bc = [me == 0, .false., me == 0]
    call RPN_COMM_bcast(bc, 3, 'MPI_LOGICAL', 0, 'GRID', err)
    call check(err == RPN_COMM_OK .and. canonical(bc, [.true., .false., .true.]), 'bcast of 3 logicals')
  end subroutine logicals

  subroutine other_types()
    complex :: c(2), csum(2)
    complex(kind=8) :: z(1), zprod(1)
    integer(kind=2) :: s(3), ssum(3)
    integer(kind=1) :: b(2), bor(2), i1(1), i1sum(1), chars(4), allchars(4 * 8)
    integer :: pairs(2, 2), best(2, 2), p, k
    real(kind=8) :: dpairs(2, 1), dbest(2, 1)
    complex(kind=8) :: expected
    ! complex SUM, exact: (p+1, -(p+1)/2) and (1/4, p)
    c = [cmplx(me + 1, -0.5 * (me + 1)), cmplx(0.25, real(me))]
    csum = (0., 0.)
    call RPN_COMM_allreduce(c, csum, 2, 'MPI_COMPLEX', 'MPI_SUM', 'GRID', err)
    call check(err == RPN_COMM_OK, 'allreduce MPI_COMPLEX MPI_SUM')
    call check(csum(1) == cmplx(npes * (npes + 1) / 2, -0.25 * npes * (npes + 1)), 'complex sum, element 1')
    call check(csum(2) == cmplx(0.25 * npes, npes * (npes - 1) / 2), 'complex sum, element 2')
    csum = (0., 0.)
    call RPN_COMM_allreduce(c, csum, 2, 'MPI_COMPLEX8', 'MPI_SUM', 'GRID', err)
    call check(err == RPN_COMM_OK .and. csum(2) == cmplx(0.25 * npes, npes * (npes - 1) / 2), 'MPI_COMPLEX8 sum')
    ! DOUBLE_COMPLEX PROD: i on every PE gives i**npes
    z = (0.d0, 1.d0)
    zprod = (9.d0, 9.d0)
    call RPN_COMM_allreduce(z, zprod, 1, 'MPI_DOUBLE_COMPLEX', 'MPI_PROD', 'GRID', err)
    expected = (1.d0, 0.d0)
    do p = 1, npes
      expected = expected * (0.d0, 1.d0)
    enddo
    call check(err == RPN_COMM_OK .and. zprod(1) == expected, 'MPI_DOUBLE_COMPLEX MPI_PROD')
    ! INTEGER2 SUM and MAX (2-byte integers: a third element wraps)
    s = [int(me + 1, 2), int(-me, 2), int(32767 - npes + 1, 2)]
    ssum = 0
    call RPN_COMM_allreduce(s, ssum, 2, 'MPI_INTEGER2', 'MPI_SUM', 'GRID', err)
    call check(err == RPN_COMM_OK .and. ssum(1) == npes * (npes + 1) / 2 .and. ssum(2) == -npes * (npes - 1) / 2 &
               .and. ssum(3) == 0, 'MPI_INTEGER2 MPI_SUM (2 elements, the third untouched)')
    call RPN_COMM_allreduce(s, ssum, 3, 'MPI_INTEGER2', 'MPI_MAX', 'GRID', err)
    call check(err == RPN_COMM_OK .and. ssum(1) == npes .and. ssum(2) == 0 .and. ssum(3) == 32767 - npes + 1, &
               'MPI_INTEGER2 MPI_MAX')
    i1 = int(me, 1)
    i1sum = 0
    call RPN_COMM_allreduce(i1, i1sum, 1, 'MPI_INTEGER1', 'MPI_SUM', 'GRID', err)
    call check(err == RPN_COMM_OK .and. i1sum(1) == npes * (npes - 1) / 2, 'MPI_INTEGER1 MPI_SUM')
    ! BYTE: bit p of byte 1 from PE p (p < 8), byte 2 from PE 0 only
    b = 0_1
    if (me < 7) b(1) = int(ishft(1, me), 1)
    if (me == 0) b(2) = 15_1
    bor = 0_1
    call RPN_COMM_allreduce(b, bor, 2, 'MPI_BYTE', 'MPI_BOR', 'GRID', err)
    call check(err == RPN_COMM_OK .and. bor(1) == int(ishft(1, min(npes, 7)) - 1, 1) .and. bor(2) == 15_1, 'MPI_BYTE MPI_BOR')
    b = int(me, 1)
    if (me == 0) b = [-3_1, 100_1]
    call RPN_COMM_bcast(b, 2, 'MPI_BYTE', 0, 'GRID', err)
    call check(err == RPN_COMM_OK .and. b(1) == -3_1 .and. b(2) == 100_1, 'bcast MPI_BYTE')
    ! CHARACTER in allgather: 'PE' and two digits per PE
    chars = int([iachar('P'), iachar('E'), iachar('0') + me / 10, iachar('0') + mod(me, 10)], 1)
    allchars = 0_1
    call RPN_COMM_allgather(chars, 4, 'MPI_CHARACTER', allchars, 4, 'MPI_CHARACTER', 'GRID', err)
    call check_ierr(err, RPN_COMM_OK, 'allgather MPI_CHARACTER')
    do p = 0, npes - 1
      k = 4 * p
      call check(achar(allchars(k + 1)) // achar(allchars(k + 2)) == 'PE' .and. &
                 allchars(k + 3) == iachar('0') + p / 10 .and. allchars(k + 4) == iachar('0') + mod(p, 10), &
                 'allgather MPI_CHARACTER: PE '//str(p)//'''s')
    enddo
    ! MAXLOC on (value, index): value 1 everywhere (the smallest index wins), value me (the last PE)
    pairs(:, 1) = [1, 10 + me]
    pairs(:, 2) = [me, me]
    best = -1
    call RPN_COMM_allreduce(pairs, best, 2, 'MPI_2INTEGER', 'MPI_MAXLOC', 'GRID', err)
    call check(err == RPN_COMM_OK .and. all(best(:, 1) == [1, 10]) .and. all(best(:, 2) == [npes - 1, npes - 1]), &
               'MPI_2INTEGER MPI_MAXLOC')
    dpairs(:, 1) = [real(mod(me + 1, npes), 8), real(me, 8)]
    dbest = -1
    call RPN_COMM_allreduce(dpairs, dbest, 1, 'MPI_2DOUBLE_PRECISION', 'MPI_MINLOC', 'GRID', err)
    call check(err == RPN_COMM_OK .and. all(dbest(:, 1) == [0.d0, real(npes - 1, 8)]), 'MPI_2DOUBLE_PRECISION MPI_MINLOC')
  end subroutine other_types

  subroutine refusals()
    integer, parameter :: SENT = -77
    logical :: l(2), lr(2)
    integer :: iv(2), ir(2)
    real(kind=16) :: q(1), qr(1)
    type(rpncomm_datatype) :: dt
    type(rpncomm_communicator) :: com
    type(rpncomm_window) :: w
    l = me == 0
    lr = .true.
    iv = SENT
    ir = SENT
    ! an unknown name on PE 0 only: every PE refuses
    if (me == 0) then
      call RPN_COMM_bcast(l, 2, 'MPI_LOGICALS', 0, 'GRID', err)
    else
      call RPN_COMM_bcast(l, 2, 'MPI_LOGICAL', 0, 'GRID', err)
    endif
    call check_ierr(err, RPN_COMM_ERROR, 'bcast with an unknown name on PE 0')
    call check(all(l .eqv. (me == 0)), 'bcast refused: nothing written')
    call RPN_COMM_allreduce(l, lr, 2, 'MPI_LOGICAL', 'MPI_SUM', 'GRID', err)
    call check(err == RPN_COMM_ERROR .and. all(lr), 'MPI_SUM on MPI_LOGICAL refused, nothing written')
    call RPN_COMM_allreduce(iv, ir, 2, 'MPI_INTEGER', 'MPI_OP_NULL', 'GRID', err)
    call check(err == RPN_COMM_ERROR .and. all(ir == SENT), 'MPI_OP_NULL refused')
    q = 1
    qr = SENT
    call RPN_COMM_reduce(q, qr, 1, 'MPI_REAL16', 'MPI_SUM', 0, 'GRID', err)
    call check(err == RPN_COMM_ERROR .and. all(qr == SENT), 'MPI_SUM on MPI_REAL16 refused')
    call RPN_COMM_bcast(q, 1, 'MPI_REAL16', 0, 'GRID', err)
    call check(err == RPN_COMM_OK .and. all(q == 1), 'MPI_REAL16 moved (bcast)')
    call RPN_COMM_bcast(iv, 0, 'MPI_UB', 0, 'GRID', err)
    call check_ierr(err, RPN_COMM_ERROR, 'MPI_UB refused')
    ! the same bytes under different names on PE 0 and the others
    if (me == 0) then
      call RPN_COMM_allreduce(iv, ir, 2, 'MPI_INTEGER', 'MPI_LOR', 'GRID', err)
    else
      call RPN_COMM_allreduce(l, lr, 2, 'MPI_LOGICAL', 'MPI_LOR', 'GRID', err)
    endif
    if (npes > 1) then
      call check_ierr(err, RPN_COMM_ERROR, 'MPI_INTEGER on PE 0, MPI_LOGICAL elsewhere')
      call check(all(ir == SENT) .and. all(lr), 'different names: nothing written')
    endif
    ! PE 0 in bcast, the others in allreduce: both routines named, nothing written
    lr = .true.
    l = .false.
    if (me == 0) then
      call RPN_COMM_bcast(l, 2, 'MPI_LOGICAL', 0, 'GRID', err)
    else
      call RPN_COMM_allreduce(l, lr, 2, 'MPI_LOGICAL', 'MPI_LAND', 'GRID', err)
    endif
    if (npes > 1) then
      call check_ierr(err, RPN_COMM_ERROR, 'bcast on PE 0, allreduce elsewhere')
      call check(all(lr) .and. all(.not. l), 'mismatched collectives: nothing written')
    endif
    ! a handle of MPI_LOGICAL, but no window of it
    call RPN_COMM_i_datyp('mpi_logical', dt)
    call RPN_COMM_i_comm('GRID', com)
    call RPN_COMM_i_win_create(w, dt, 4, com, C_NULL_PTR, err)
    call check_ierr(err, RPN_COMM_ERROR, 'a window of MPI_LOGICAL')
    ! and the PEs are in step again
    l = .true.
    call RPN_COMM_allreduce(l, lr, 2, 'MPI_LOGICAL', 'MPI_LAND', 'GRID', err)
    call check(err == RPN_COMM_OK .and. canonical(lr, [.true., .true.]), 'in step again')
  end subroutine refusals

  include 'tutil.inc'
end program test_message_types
