! PES: 1 2 4 6
! TIMEOUT: 90
! ENV: RPNCOMM_CHECK_COLLECTIVES=each
! OUTPUT_HAS@2: RPN_COMM_gatherv: PE 0: bad argument: reccountv(2) makes 16 bytes for PE 1, which sends 24 bytes
! OUTPUT_HAS@2: RPN_COMM_gatherv: PE 1: collective call inconsistent across PEs: PE 0 refused the call (see its message)
! OUTPUT_HAS@2: RPN_COMM_gatherv: PE 0: bad argument: negative count reccountv(2) = -1 (PE 1)
! OUTPUT_HAS@2: RPN_COMM_gatherv: PE 0: bad argument: the blocks of PE 0 and PE 1 overlap in the receive buffer (reccountv(1) = 2, reccountv(2) = 2 elements from disp(1) = 0, disp(2) = 1)
! OUTPUT_HAS@2: RPN_COMM_scatterv: PE 0: bad argument: sendcount(2) makes 16 bytes for PE 1, which receives 8 bytes
! OUTPUT_HAS@2: RPN_COMM_bcastc: PE 1: bad argument: count 9 of MPI_CHARACTER makes 9 bytes, the buffer holds 8
! OUTPUT_HAS@2: RPN_COMM_alltoall: PE 0: unknown datatype name 'MPI_INTEGRE'
! OUTPUT_HAS@2: RPN_COMM_gatherv: PE 0: collective call inconsistent across PEs: PE 1 is in RPN_COMM_scatterv while PE 0 is in RPN_COMM_gatherv
! OUTPUT_HAS@2: RPN_COMM_scatterv: PE 1: collective call inconsistent across PEs: PE 0 is in RPN_COMM_gatherv while PE 1 is in RPN_COMM_scatterv
! OUTPUT_HAS@2: RPN_COMM_alltoall: PE 0: collective call inconsistent across PEs: PE 1 is in RPN_COMM_barrier while PE 0 is in RPN_COMM_alltoall
! OUTPUT_HAS@2: RPN_COMM_barrier: PE 1: collective call inconsistent across PEs: PE 0 is in RPN_COMM_alltoall while PE 1 is in RPN_COMM_barrier
!
! The routines MIDAS calls that GEM does not, with the original's arguments (RPN_COMM 4.6.3:
! RPN_COMM_alltoall, gatherv, scatterv, bcastc, sendrecv, whose layouts are MPI_Alltoall's,
! MPI_Gatherv's, MPI_Scatterv's, MPI_Bcast's and MPI_Sendrecv's, status being the count received),
! called as MIDAS calls them (names in lower case, through the legacy include), against values
! computed here:
! - alltoall of 2 reals per pair; gatherv to the last PE of p+1 values from PE p into blocks in
!   reverse rank order with gaps (the gaps and the other PEs' buffers untouched); scatterv from
!   PE 0 of p+1 values to PE p, from overlapping blocks; bcastc of a string from PE 1, and of its
!   first 5 characters only; sendrecv around a ring (status = the count received, fewer than
!   the room given), and to this PE itself;
! - refusals, each on every PE with nothing written: the root's count for one PE that is not
!   what the PE sends, a negative count, overlapping receive blocks, a bcastc count longer than
!   the string, an unknown name, and PEs in different routines (gatherv / scatterv, alltoall /
!   barrier: both routines named).
#ifndef TEST_NAME
#define TEST_NAME 'test_block_collectives'
#endif
program test_block_collectives
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, nerr, pex, pey, err
  ! The original's include leaves the routines with buffers of any type undeclared (MIDAS calls
  ! them through implicit interfaces, compiled with -fallow-argument-mismatch); declared here as
  ! the library's externals are, so that the test compiles without that flag.
  interface
    subroutine RPN_COMM_alltoall(sendbuf, sendcount, sendtype, recbuf, recvcnt, recvtype, com, ierr)
!GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf, recbuf
      type(*), dimension(*), intent(IN)    :: sendbuf
      type(*), dimension(*), intent(INOUT) :: recbuf
      integer, intent(IN) :: sendcount, recvcnt
      character(len=*), intent(IN) :: sendtype, recvtype, com
      integer, intent(OUT) :: ierr
    end subroutine RPN_COMM_alltoall
    subroutine RPN_COMM_gatherv(sendbuf, sendcount, sendtype, recbuf, reccountv, disp, rectype, root, com, ierr)
!GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf, recbuf
      type(*), dimension(*), intent(IN)    :: sendbuf
      type(*), dimension(*), intent(INOUT) :: recbuf
      integer, intent(IN) :: sendcount, root
      integer, dimension(*), intent(IN) :: reccountv, disp
      character(len=*), intent(IN) :: sendtype, rectype, com
      integer, intent(OUT) :: ierr
    end subroutine RPN_COMM_gatherv
    subroutine RPN_COMM_scatterv(sendbuf, sendcount, disp, sendtype, recbuf, reccountv, rectype, root, com, ierr)
!GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf, recbuf
      type(*), dimension(*), intent(IN)    :: sendbuf
      type(*), dimension(*), intent(INOUT) :: recbuf
      integer, dimension(*), intent(IN) :: sendcount, disp
      integer, intent(IN) :: reccountv, root
      character(len=*), intent(IN) :: sendtype, rectype, com
      integer, intent(OUT) :: ierr
    end subroutine RPN_COMM_scatterv
    subroutine RPN_COMM_sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, recv, &
                                 recvtag, com, status, ierr)
!GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf, recvbuf
      type(*), dimension(*), intent(IN)    :: sendbuf
      type(*), dimension(*), intent(INOUT) :: recvbuf
      integer, intent(IN) :: sendcount, dest, sendtag, recvcount, recv, recvtag
      character(len=*), intent(IN) :: sendtype, recvtype, com
      integer, intent(OUT) :: status
      integer, intent(OUT) :: ierr
    end subroutine RPN_COMM_sendrecv
  end interface

  nerr = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(keep_grid, me, npes, pex, pey)
  if (me == 0) write(*, '(A,I0,A)') 'test_block_collectives: running on ', npes, ' PEs'

  call section('RPN_COMM_alltoall')
  call alltoalls()
  call section('RPN_COMM_gatherv and RPN_COMM_scatterv')
  call gathervs()
  call section('RPN_COMM_alltoall, gatherv and scatterv of blocks longer than a round')
  call long_blocks()
  call section('RPN_COMM_bcastc')
  call bcastcs()
  call section('RPN_COMM_sendrecv')
  call sendrecvs()
#ifndef DEFAULT_MODE
  call section('refusals')
  call refusals()
#endif
  call finish(TEST_NAME)

contains

  subroutine keep_grid(px, py)
    integer, intent(INOUT) :: px, py
    px = px + 0 * py
  end subroutine keep_grid

  ! what PE p sends to PE q in the alltoall (2 values)
  real(kind=8) function a2a(p, q, k)
    integer, intent(IN) :: p, q, k
    a2a = 100 * p + q + 0.5d0 * k
  end function a2a

  subroutine alltoalls()
    real(kind=8) :: send(2, 0:7), recv(2, 0:7)
    integer :: p, k
    do p = 0, npes - 1
      send(:, p) = [a2a(me, p, 0), a2a(me, p, 1)]
    enddo
    recv = -1
    call RPN_COMM_alltoall(send, 2, 'mpi_real8', recv, 2, 'mpi_real8', 'GRID', err)
    call check_ierr(err, RPN_COMM_OK, 'alltoall')
    do p = 0, npes - 1
      do k = 1, 2
        call check(recv(k, p) == a2a(p, me, k - 1), 'alltoall: block from PE '//str(p))
      enddo
    enddo
    call check(all(recv(:, npes:) == -1), 'alltoall: nothing past the last block')
  end subroutine alltoalls

  subroutine gathervs()
    integer, parameter :: GAP = 2
    real(kind=8) :: mine(8), all_(100), expected(100), back(8)
    integer :: counts(0:7), displs(0:7), p, k, root, at, rank, ranks
    ! PE p sends p+1 values 10p + k; the root puts PE p's at a displacement that puts the last
    ! PE first, GAP elements between blocks
    do k = 1, me + 1
      mine(k) = 10 * me + k
    enddo
    root = npes - 1
    expected = -5
    at = 0
    do p = npes - 1, 0, -1
      counts(p) = p + 1
      displs(p) = at
      do k = 1, p + 1
        expected(at + k) = 10 * p + k
      enddo
      at = at + p + 1 + GAP
    enddo
    all_ = -5
    call RPN_COMM_gatherv(mine, me + 1, 'mpi_real8', all_, counts, displs, 'mpi_real8', root, 'GRID', err)
    call check_ierr(err, RPN_COMM_OK, 'gatherv')
    if (me == root) then
      call check(all(all_ == expected), 'gatherv: every block in place, the gaps untouched')
    else
      call check(all(all_ == -5), 'gatherv: the others'' receive buffers untouched')
    endif
    ! scatterv from PE 0: PE p gets p+1 values from displacement p (the blocks overlap)
    do k = 1, 20
      all_(k) = 3 * k
    enddo
    do p = 0, npes - 1
      counts(p) = p + 1
      displs(p) = p
    enddo
    back = -1
    call RPN_COMM_scatterv(all_, counts, displs, 'mpi_real8', back, me + 1, 'mpi_real8', 0, 'GRID', err)
    call check_ierr(err, RPN_COMM_OK, 'scatterv')
    do k = 1, me + 1
      call check(back(k) == 3 * (me + k), 'scatterv: element '//str(k))
    enddo
    call check(all(back(me + 2:) == -1), 'scatterv: nothing past the block')
    ! over this PE's column ('NS': a communicator of its own, on shared memory a split's
    ! mailboxes), PE r of the column sending r+1 values to the column's last PE, and back from it
    call RPN_COMM_rank('NS', rank, err)
    call RPN_COMM_size('NS', ranks, err)
    do k = 1, rank + 1
      mine(k) = 10 * me + k
    enddo
    at = 0
    do p = 0, ranks - 1
      counts(p) = p + 1
      displs(p) = at
      at = at + p + 1
    enddo
    all_ = -5
    call RPN_COMM_gatherv(mine, rank + 1, 'mpi_real8', all_, counts, displs, 'mpi_real8', ranks - 1, 'NS', err)
    call check_ierr(err, RPN_COMM_OK, 'gatherv over NS')
    if (rank == ranks - 1) then
      call check(all([((nint(all_(displs(p) + k)) - k == nint(all_(displs(p) + 1)) - 1, k = 1, p + 1), p = 0, ranks - 1)]) &
                 .and. all(all_(at + 1:) == -5), 'gatherv over NS: every block, whole, nothing past them')
    endif
    back = -1
    call RPN_COMM_scatterv(all_, counts, displs, 'mpi_real8', back, rank + 1, 'mpi_real8', ranks - 1, 'NS', err)
    call check_ierr(err, RPN_COMM_OK, 'scatterv over NS')
    call check(all(back(:rank + 1) == mine(:rank + 1)) .and. all(back(rank + 2:) == -1), 'scatterv over NS: this PE''s block back')
  end subroutine gathervs

  ! blocks of 150 values and more (over 1 KiB: past what a round carries); in gatherv and
  ! scatterv PE 0's block is 3 values, so that some blocks fit a round and others do not
  subroutine long_blocks()
    integer, parameter :: LONG = 150
    real(kind=8) :: send(LONG, 0:7), recv(LONG, 0:7), mine(LONG + 8), every((LONG + 8) * 8)
    integer :: counts(0:7), displs(0:7), p, k, root, mycount
    do p = 0, npes - 1
      do k = 1, LONG
        send(k, p) = a2a(me, p, k)
      enddo
    enddo
    recv = -1
    call RPN_COMM_alltoall(send, LONG, 'MPI_REAL8', recv, LONG, 'MPI_REAL8', 'GRID', err)
    call check_ierr(err, RPN_COMM_OK, 'long alltoall')
    call check(all([((recv(k, p) == a2a(p, me, k), k = 1, LONG), p = 0, npes - 1)]), 'long alltoall: every block')
    ! gatherv to PE 0: PE 0 sends 3 values (they fit a round), the others LONG + p
    root = 0
    mycount = merge(3, LONG + me, me == 0)
    do k = 1, mycount
      mine(k) = 1000 * me + k
    enddo
    displs(0) = 0
    do p = 0, npes - 1
      counts(p) = merge(3, LONG + p, p == 0)
      if (p > 0) displs(p) = displs(p - 1) + counts(p - 1)
    enddo
    every = -1
    call RPN_COMM_gatherv(mine, mycount, 'MPI_REAL8', every, counts, displs, 'MPI_REAL8', root, 'GRID', err)
    call check_ierr(err, RPN_COMM_OK, 'long gatherv')
    if (me == root) then
      do p = 0, npes - 1
        call check(all([(every(displs(p) + k) == 1000 * p + k, k = 1, counts(p))]), 'long gatherv: the block of PE '//str(p))
      enddo
    endif
    ! and back from the root
    mine = -1
    call RPN_COMM_scatterv(every, counts, displs, 'MPI_REAL8', mine, mycount, 'MPI_REAL8', root, 'GRID', err)
    call check_ierr(err, RPN_COMM_OK, 'long scatterv')
    call check(all([(mine(k) == 1000 * me + k, k = 1, mycount)]) .and. all(mine(mycount + 1:) == -1), &
               'long scatterv: this PE''s block')
  end subroutine long_blocks

  subroutine bcastcs()
    character(len=24) :: s
    integer :: root
    root = min(1, npes - 1)
    s = 'not yet'
    if (me == root) s = 'hello from the root PE'
    call rpn_comm_bcastc(s, len(s), 'MPI_CHARACTER', root, 'GRID', err)
    call check(err == RPN_COMM_OK .and. s == 'hello from the root PE', 'bcastc of the whole string')
    s = 'xxxxxxxxxx'
    if (me == root) s = 'HELLO world'
    call rpn_comm_bcastc(s, 5, 'MPI_CHARACTER', root, 'GRID', err)
    if (me == root) then
      call check(err == RPN_COMM_OK .and. s == 'HELLO world', 'bcastc of 5 characters: the root''s string')
    else
      call check(err == RPN_COMM_OK .and. s == 'HELLOxxxxx', 'bcastc of 5 characters: the rest untouched')
    endif
  end subroutine bcastcs

  subroutine sendrecvs()
    real(kind=8) :: out(4), in(6)
    integer :: next, prev, status
    next = mod(me + 1, npes)
    prev = mod(me - 1 + npes, npes)
    out = [me + 0.25d0, me + 0.5d0, me + 0.75d0, me + 1d0]
    in = -1
    status = -1
    ! as MIDAS's diffusion operator: to the next PE, from the previous one, room for more
    call rpn_comm_sendrecv(out, 3, 'mpi_real8', next, 7, in, 6, 'mpi_real8', prev, 7, 'GRID', status, err)
    call check_ierr(err, RPN_COMM_OK, 'sendrecv around the ring')
    call check(status == 3, 'sendrecv: status is the count received (3), got '//str(status))
    call check(all(in(1:3) == [prev + 0.25d0, prev + 0.5d0, prev + 0.75d0]) .and. all(in(4:) == -1), &
               'sendrecv: the previous PE''s 3 values')
    in = -1
    call rpn_comm_sendrecv(out, 4, 'MPI_DOUBLE_PRECISION', me, 3, in, 4, 'MPI_REAL8', me, 3, 'GRID', status, err)
    call check(err == RPN_COMM_OK .and. status == 4 .and. all(in(1:4) == out), 'sendrecv to this PE itself')
  end subroutine sendrecvs

  subroutine refusals()
    integer, parameter :: SENT = -77
    real(kind=8) :: mine(4), all_(64), back(4)
    integer :: counts(0:7), displs(0:7), p, iv(8), ir(16)
    character(len=8) :: s
    mine = me
    do p = 0, npes - 1
      counts(p) = 2
      displs(p) = 2 * p
    enddo
    ! the root expects 2 values from every PE, the last PE sends 3
    all_ = SENT
    call RPN_COMM_gatherv(mine, merge(3, 2, me == npes - 1), 'MPI_REAL8', all_, counts, displs, 'MPI_REAL8', 0, 'GRID', err)
    call check(err == RPN_COMM_ERROR .and. all(all_ == SENT), 'gatherv: a count the root does not expect')
    ! a negative count on the root
    counts(npes - 1) = -1
    call RPN_COMM_gatherv(mine, 2, 'MPI_REAL8', all_, counts, displs, 'MPI_REAL8', 0, 'GRID', err)
    call check(err == RPN_COMM_ERROR .and. all(all_ == SENT), 'gatherv: a negative count')
    counts(npes - 1) = 2
    ! overlapping receive blocks
    displs(npes - 1) = 1
    if (npes > 1) then
      call RPN_COMM_gatherv(mine, 2, 'MPI_REAL8', all_, counts, displs, 'MPI_REAL8', 0, 'GRID', err)
      call check(err == RPN_COMM_ERROR .and. all(all_ == SENT), 'gatherv: overlapping blocks')
    endif
    displs(npes - 1) = 2 * (npes - 1)
    ! scatterv: the root's count for the last PE is not what it receives
    back = SENT
    call RPN_COMM_scatterv(mine, counts, displs, 'MPI_REAL8', back, merge(1, 2, me == npes - 1), 'MPI_REAL8', 0, 'GRID', err)
    call check(err == RPN_COMM_ERROR .and. all(back == SENT), 'scatterv: a count the PE does not receive')
    ! bcastc longer than the string
    s = 'abc'
    call rpn_comm_bcastc(s, 9, 'MPI_CHARACTER', 0, 'GRID', err)
    call check(err == RPN_COMM_ERROR .and. s == 'abc', 'bcastc: a count past the string')
    ! alltoall with an unknown name
    ir = SENT
    iv = me
    call RPN_COMM_alltoall(iv, 1, 'MPI_INTEGRE', ir, 1, 'MPI_INTEGER', 'GRID', err)
    call check(err == RPN_COMM_ERROR .and. all(ir == SENT), 'alltoall: an unknown name')
    if (npes > 1) then
      ! PE 0 in gatherv, the others in scatterv
      all_ = SENT
      back = SENT
      if (me == 0) then
        call RPN_COMM_gatherv(mine, 2, 'MPI_REAL8', all_, counts, displs, 'MPI_REAL8', 0, 'GRID', err)
      else
        call RPN_COMM_scatterv(mine, counts, displs, 'MPI_REAL8', back, 2, 'MPI_REAL8', 0, 'GRID', err)
      endif
      call check(err == RPN_COMM_ERROR .and. all(all_ == SENT) .and. all(back == SENT), 'gatherv / scatterv')
      ! the last PE in a barrier, the others in alltoall
      if (me == npes - 1) then
        call RPN_COMM_barrier('GRID', err)
      else
        call RPN_COMM_alltoall(iv, 1, 'MPI_INTEGER', ir, 1, 'MPI_INTEGER', 'GRID', err)
      endif
      call check(err == RPN_COMM_ERROR .and. all(ir == SENT), 'alltoall / barrier')
    endif
    ! in step again
    call RPN_COMM_alltoall(iv, 1, 'MPI_INTEGER', ir, 1, 'MPI_INTEGER', 'GRID', err)
    call check(err == RPN_COMM_OK .and. all(ir(1:npes) == [(p, p = 0, npes - 1)]), 'in step again')
  end subroutine refusals

  include 'tutil.inc'
end program test_block_collectives
