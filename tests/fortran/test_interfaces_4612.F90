! PES: 1 2 4
! TIMEOUT: 60
!
! A program written as for the original RPN_COMM 4.6.12: its explicit interfaces from
! #include <RPN_COMM_interfaces.hf> (after the constants and types, without RPN_COMM.inc or the
! module), so every call below is checked against them, the buffers of any type, kind and rank
! included: allreduce of a 2-D real*8 array and of an integer scalar, bcast of a logical scalar
! and of a 2-D real*4 array, allgather of real*8 scalars, gather of integer*8 scalars, reduce of
! a real*4 array, alltoall of integers, gatherv and scatterv called with keywords (4.6.12's
! `sendcounts`), RPN_COMM_xch_halo of a 3-D real*4 array and
! RPN_COMM_xch_halo_8 of a 3-D real*8 one (one row of PEs, periodic in x), sendrecv of 2-D
! integer arrays around a ring, and the queries GEM makes (size, rank, mype, barrier, wtime).
! isend/irecv/waitall_nostat and send/recv with MPI; without MPI (RPN_COMM_comm is -1), send and
! recv refused.
program test_interfaces_4612
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM_constants.inc'
  include 'RPN_COMM_types.inc'
#include <RPN_COMM_interfaces.hf>
  integer :: me, npes, nerr

  call start('test_interfaces_4612')
  call collectives()
  call halo()
  call point_to_point()
  call finish('test_interfaces_4612')

contains

  include 'tutil.inc'

  subroutine collectives()
    real(kind=8) :: r8(3, 2), r8sum(3, 2), a8, all8(npes)
    real(kind=4) :: r4(2, 3), mins(4)
    integer :: i, j, ierr, imax, isz, irank, mex, mey, st
    integer :: counts(npes), displs(npes), mine(npes), every(npes * (npes + 1) / 2)
    integer :: ito(npes), ifrom(npes)
    integer(kind=8) :: i8, i8all(npes)
    logical :: flag
    real(kind=8) :: t0

    call section('queries and barrier')
    t0 = RPN_COMM_wtime()
    call RPN_COMM_size(RPN_COMM_GRID, isz, ierr)
    call check(ierr == RPN_COMM_OK .and. isz == npes, 'RPN_COMM_size of GRID')
    call RPN_COMM_rank(RPN_COMM_GRID, irank, ierr)
    call check(ierr == RPN_COMM_OK .and. irank == me, 'RPN_COMM_rank of GRID')
    st = RPN_COMM_mype(irank, mex, mey)
    call check(st == RPN_COMM_OK .and. irank == me .and. mex == me .and. mey == 0, 'RPN_COMM_mype')
    call RPN_COMM_barrier(RPN_COMM_GRID, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'RPN_COMM_barrier')
    call check(RPN_COMM_wtime() >= t0, 'RPN_COMM_wtime does not go back')

    call section('allreduce: a 2-D real*8 array, an integer scalar')
    do j = 1, 2
      do i = 1, 3
        r8(i, j) = me + i + 10 * j
      enddo
    enddo
    r8sum = -1d0
    call RPN_COMM_allreduce(r8, r8sum, 6, RPN_COMM_REAL8, RPN_COMM_SUM, RPN_COMM_GRID, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'allreduce of real*8(3,2)')
    do j = 1, 2
      do i = 1, 3
        call check(r8sum(i, j) == npes * (i + 10 * j) + npes * (npes - 1) / 2, 'allreduce sum element')
      enddo
    enddo
    imax = -1
    call RPN_COMM_allreduce(me, imax, 1, RPN_COMM_INTEGER, 'MPI_MAX', RPN_COMM_GRID, ierr)
    call check(ierr == RPN_COMM_OK .and. imax == npes - 1, 'allreduce MAX of an integer scalar')

    call section('bcast: a logical scalar, a 2-D real*4 array')
    flag = me == 0
    call RPN_COMM_bcast(flag, 1, RPN_COMM_LOGICAL, 0, RPN_COMM_GRID, ierr)
    call check(ierr == RPN_COMM_OK .and. flag, 'bcast of a logical from PE 0')
    r4 = -1.0
    if (me == npes - 1) r4 = reshape([1.5, 2.5, 3.5, 4.5, 5.5, 6.5], [2, 3])
    call RPN_COMM_bcast(r4, 6, RPN_COMM_REAL, npes - 1, RPN_COMM_GRID, ierr)
    call check(ierr == RPN_COMM_OK .and. all(r4 == reshape([1.5, 2.5, 3.5, 4.5, 5.5, 6.5], [2, 3])), &
               'bcast of real*4(2,3) from the last PE')

    call section('allgather of real*8 scalars, gather of integer*8 scalars')
    a8 = 0.25d0 * me
    all8 = -1d0
    call RPN_COMM_allgather(a8, 1, RPN_COMM_REAL8, all8, 1, RPN_COMM_REAL8, RPN_COMM_GRID, ierr)
    call check(ierr == RPN_COMM_OK .and. all(all8 == [(0.25d0 * i, i = 0, npes - 1)]), 'allgather')
    i8 = 1000000000000_8 + me
    i8all = -1
    call RPN_COMM_gather(i8, 1, RPN_COMM_INTEGER8, i8all, 1, RPN_COMM_INTEGER8, 0, RPN_COMM_GRID, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'gather of integer*8')
    if (me == 0) call check(all(i8all == [(1000000000000_8 + i, i = 0, npes - 1)]), 'gathered at the root')

    call section('reduce of a real*4 array (MIN at the last PE), alltoall of integers')
    mins = -99.0
    call RPN_COMM_reduce([real(me + 1), real(me + 2), real(10 - me), 7.0], mins, 4, RPN_COMM_REAL, 'MPI_MIN', &
                         npes - 1, RPN_COMM_GRID, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'reduce')
    if (me == npes - 1) call check(all(mins == [1.0, 2.0, real(11 - npes), 7.0]), 'reduced at the root')
    ito = [(100 * me + i, i = 0, npes - 1)]
    ifrom = -1
    call RPN_COMM_alltoall(ito, 1, RPN_COMM_INTEGER, ifrom, 1, RPN_COMM_INTEGER, RPN_COMM_GRID, ierr)
    call check(ierr == RPN_COMM_OK .and. all(ifrom == [(100 * i + me, i = 0, npes - 1)]), 'alltoall')

    ! 4.6.12 calls scatterv's counts `sendcounts` (4.6.3: `sendcount`): keyword calls as written for it
    call section('gatherv and scatterv, called with keywords')
    do i = 1, npes
      counts(i) = i
      displs(i) = (i - 1) * i / 2
    enddo
    mine = me
    every = -1
    call RPN_COMM_gatherv(sendbuf=mine, sendcount=me + 1, sendtype=RPN_COMM_INTEGER, recbuf=every, reccountv=counts, &
                          disp=displs, rectype=RPN_COMM_INTEGER, root=0, com=RPN_COMM_GRID, ierr=ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'RPN_COMM_gatherv')
    if (me == 0) then
      do i = 1, npes
        call check(all(every(displs(i) + 1:displs(i) + i) == i - 1), 'RPN_COMM_gatherv: the block of PE '//str(i - 1))
      enddo
    endif
    every = every + 100
    mine = -1
    call RPN_COMM_scatterv(sendbuf=every, sendcounts=counts, disp=displs, sendtype=RPN_COMM_INTEGER, recbuf=mine, &
                           reccountv=me + 1, rectype=RPN_COMM_INTEGER, root=0, com=RPN_COMM_GRID, ierr=ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'RPN_COMM_scatterv')
    call check(all(mine(1:me + 1) == me + 100) .and. all(mine(me + 2:) == -1), 'RPN_COMM_scatterv: this PE''s block')
  end subroutine collectives

  ! one row of PEs (userinit): 4 x 3 x 2 points each, halo 1, periodic along x only. As in the
  ! original, RPN_COMM_xch_halo moves 4-byte elements and RPN_COMM_xch_halo_8 8-byte ones.
  subroutine halo()
    integer, parameter :: ni = 4, nj = 3, nk = 2, h = 1
    real(kind=4) :: f4(1 - h:ni + h, 1 - h:nj + h, nk)
    real(kind=8) :: f8(1 - h:ni + h, 1 - h:nj + h, nk)
    integer :: i, j, k, gni
    logical :: ok4, ok8

    call section('RPN_COMM_xch_halo of a 3-D real*4 array, RPN_COMM_xch_halo_8 of a 3-D real*8 one')
    gni = ni * npes
    f4 = -1.0
    f8 = -1d0
    do k = 1, nk
      do j = 1, nj
        do i = 1, ni
          f4(i, j, k) = real(value(me * ni + i, j, k), 4)
          f8(i, j, k) = value(me * ni + i, j, k)
        enddo
      enddo
    enddo
    call RPN_COMM_xch_halo(f4, 1 - h, ni + h, 1 - h, nj + h, ni, nj, nk, h, h, .true., .false., gni, 0)
    call RPN_COMM_xch_halo_8(f8, 1 - h, ni + h, 1 - h, nj + h, ni, nj, nk, h, h, .true., .false., gni, 0)
    ok4 = .true.
    ok8 = .true.
    do k = 1, nk
      do j = 1, nj
        ! i = 0: west of the first column, i = ni + 1: east of the last, wrapping around
        do i = 0, ni + 1
          ok4 = ok4 .and. f4(i, j, k) == real(value(modulo(me * ni + i - 1, gni) + 1, j, k), 4)
          ok8 = ok8 .and. f8(i, j, k) == value(modulo(me * ni + i - 1, gni) + 1, j, k)
        enddo
      enddo
    enddo
    call check(ok4, 'real*4: x halo columns from the neighbours, the interior kept')
    call check(ok8, 'real*8: x halo columns from the neighbours, the interior kept')
  end subroutine halo

  pure function value(gi, j, k) result(v)
    integer, intent(IN) :: gi, j, k
    real(kind=8) :: v
    v = 100d0 * gi + 10 * j + k
  end function value

  ! a ring: each PE sends to the next and receives from the previous
  subroutine point_to_point()
    integer :: buf(2, 3), got(2, 3), want(2, 3), st, ierr, nxt, prv, req(2)
    logical :: with_mpi

    with_mpi = RPN_COMM_comm(RPN_COMM_GRID) /= -1
    nxt = modulo(me + 1, npes)
    prv = modulo(me - 1, npes)
    buf = reshape([1, 2, 3, 4, 5, 6], [2, 3]) + 10 * me
    want = reshape([1, 2, 3, 4, 5, 6], [2, 3]) + 10 * prv
    call section('sendrecv: a ring of 2-D integer arrays')
    got = -1
    call RPN_COMM_sendrecv(buf, 6, RPN_COMM_INTEGER, nxt, 8, got, 6, RPN_COMM_INTEGER, prv, 8, RPN_COMM_GRID, st, ierr)
    call check(ierr == RPN_COMM_OK .and. all(got == want), 'sendrecv')
    if (.not. with_mpi) then
      call section('send and recv refused without MPI')
      call RPN_COMM_send(buf, 6, RPN_COMM_INTEGER, nxt, 7, RPN_COMM_GRID, ierr)
      call check_ierr(ierr, RPN_COMM_ERROR, 'RPN_COMM_send')
      call RPN_COMM_recv(got, 6, RPN_COMM_INTEGER, prv, 7, RPN_COMM_GRID, st, ierr)
      call check_ierr(ierr, RPN_COMM_ERROR, 'RPN_COMM_recv')
      return
    endif
    call section('isend, irecv, send, recv')
    got = -1
    call RPN_COMM_irecv(got, 6, RPN_COMM_INTEGER, prv, 9, RPN_COMM_GRID, req(1), ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'irecv')
    call RPN_COMM_isend(buf, 6, RPN_COMM_INTEGER, nxt, 9, RPN_COMM_GRID, req(2), ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'isend')
    call RPN_COMM_waitall_nostat(2, req, ierr)
    call check(ierr == RPN_COMM_OK .and. all(got == want), 'isend, irecv, waitall_nostat')
    if (npes < 2) return
    got = -1
    if (me == 0) then
      call RPN_COMM_send(buf, 6, RPN_COMM_INTEGER, 1, 10, RPN_COMM_GRID, ierr)
      call check_ierr(ierr, RPN_COMM_OK, 'send')
    else if (me == 1) then
      call RPN_COMM_recv(got, 6, RPN_COMM_INTEGER, 0, 10, RPN_COMM_GRID, st, ierr)
      call check(ierr == RPN_COMM_OK .and. all(got == reshape([1, 2, 3, 4, 5, 6], [2, 3])), 'send, recv')
    endif
  end subroutine point_to_point

end program test_interfaces_4612
