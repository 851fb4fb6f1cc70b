! halo_scale.F90 -- the halo exchange at scale, counted (bench/halo_scale.sh): on the most square
! Pex x Pey grid of the job, periodic in x and y, a field of N x N x NK per PE with halo H exchanged
! NX times alone (RPN_COMM_xch_halo) and NX times in a list of three fields (RPN_COMM_xch_halo_list),
! new values each time, every point of every field compared with the value computed from its
! global indices. The MPI calls the library makes during those exchanges are counted
! (bench/halo_mpi_count.c, linked in): prints per exchange the messages each PE sent (most, least),
! its probes and receives, and the collectives (barrier, allgather, allreduce, bcast, window
! creation, fence, PSCW) any PE made, which must be 0; then the wrong points (must be 0).
program halo_scale
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer, parameter :: N = 12, NK = 4, H = 2, NX = 20
  integer :: me, npes, pex, pey, mex, mey, ierr, x, list, f, bad, badall
  integer :: g(1 - H:N + H, 1 - H:N + H, NK), a(1 - H:N + H, 1 - H:N + H, NK, 3)
  integer(C_LONG_LONG) :: c(6)
  integer(kind=8) :: mine(7), most(7), least(7)
  interface
    subroutine rpn_count_start() bind(C, name='rpn_count_start')
    end subroutine rpn_count_start
    subroutine rpn_count_stop() bind(C, name='rpn_count_stop')
    end subroutine rpn_count_stop
    subroutine rpn_count_get(out) bind(C, name='rpn_count_get')
      import :: C_LONG_LONG
      integer(C_LONG_LONG), intent(OUT) :: out(6)
    end subroutine rpn_count_get
  end interface

  pex = 0
  pey = 0
  call RPN_COMM_init(grid_shape, me, npes, pex, pey)
  ierr = RPN_COMM_mype(me, mex, mey)
  call RPN_COMM_xch_halo_list_new(list, 1 - H, N + H, 1 - H, N + H, N, N, H, H, .true., .true., N * pex, 0, ierr)
  do f = 1, 3
    call RPN_COMM_xch_halo_list_add(list, a(1 - H, 1 - H, 1, f), NK, 1, ierr)
  enddo
  bad = 0
  ! once before counting: channels are made on first use
  call fill(g, 0)
  call RPN_COMM_xch_halo(g, 1 - H, N + H, 1 - H, N + H, N, N, NK, H, H, .true., .true., N * pex, 0)
  call RPN_COMM_xch_halo_list(list, ierr)
  call RPN_COMM_barrier(RPN_COMM_GRID, ierr)
  call rpn_count_start()
  do x = 1, NX
    call fill(g, x)
    call RPN_COMM_xch_halo(g, 1 - H, N + H, 1 - H, N + H, N, N, NK, H, H, .true., .true., N * pex, 0)
    bad = bad + wrong(g, x)
  enddo
  do x = 1, NX
    do f = 1, 3
      call fill(a(:, :, :, f), 100 * f + x)
    enddo
    call RPN_COMM_xch_halo_list(list, ierr)
    if (ierr /= RPN_COMM_OK) bad = bad + 1
    do f = 1, 3
      bad = bad + wrong(a(:, :, :, f), 100 * f + x)
    enddo
  enddo
  call rpn_count_stop()
  call rpn_count_get(c)
  mine(1:6) = c
  mine(7) = bad
  call RPN_COMM_allreduce(mine, most, 7, RPN_COMM_INTEGER8, RPN_COMM_MAX, RPN_COMM_GRID, ierr)
  call RPN_COMM_allreduce(mine, least, 7, RPN_COMM_INTEGER8, RPN_COMM_MIN, RPN_COMM_GRID, ierr)
  call RPN_COMM_allreduce(bad, badall, 1, RPN_COMM_INTEGER, RPN_COMM_SUM, RPN_COMM_GRID, ierr)
  if (me == 0) then
    write(*, '(A,I0,A,I0,A,I0,A,I0,A,I0,A)') 'halo_scale: ', npes, ' PEs (', pex, ' x ', pey, '), ', &
        2 * NX, ' exchanges (', NX, ' of 1 field, then of a list of 3)'
    write(*, '(A,F0.2,A,F0.2)') '  messages sent per PE per exchange: most ', most(1) / (2.0 * NX), ', least ', &
        least(1) / (2.0 * NX)
    write(*, '(A,F0.1)') '  bytes sent per PE per exchange (most): ', most(6) / (2.0 * NX)
    write(*, '(A,F0.2,A,F0.2)') '  receives per PE per exchange: ', most(2) / (2.0 * NX), ', probes (most) ', &
        most(3) / (2.0 * NX)
    write(*, '(A,I0)') '  collectives (barrier, allgather, allreduce, bcast, window, fence, PSCW) on any PE: ', most(5)
    write(*, '(A,I0)') '  wrong points (all PEs): ', badall
    if (badall /= 0 .or. most(5) /= 0) write(*, '(A)') 'halo_scale: FAILED'
  endif
  call RPN_COMM_finalize(ierr)
contains
  integer function val(gi, gj, k, tag)
    integer, intent(IN) :: gi, gj, k, tag
    val = ((tag * 1000 + gi) * 1000 + gj) * 10 + k
  end function val

  subroutine fill(u, tag)
    integer, intent(OUT) :: u(1 - H:N + H, 1 - H:N + H, NK)
    integer, intent(IN) :: tag
    integer :: i, j, k
    u = -1
    do k = 1, NK
      do j = 1, N
        do i = 1, N
          u(i, j, k) = val(mex * N + i, mey * N + j, k, tag)
        enddo
      enddo
    enddo
  end subroutine fill

  integer function wrong(u, tag)
    integer, intent(IN) :: u(1 - H:N + H, 1 - H:N + H, NK)
    integer, intent(IN) :: tag
    integer :: i, j, k, gi, gj
    wrong = 0
    do k = 1, NK
      do j = 1 - H, N + H
        do i = 1 - H, N + H
          gi = modulo(mex * N + i - 1, N * pex) + 1
          gj = modulo(mey * N + j - 1, N * pey) + 1
          if (u(i, j, k) /= val(gi, gj, k, tag)) wrong = wrong + 1
        enddo
      enddo
    enddo
  end function wrong

  subroutine grid_shape(px, py)
    integer, intent(INOUT) :: px, py
    integer :: np
    np = px * py
    py = int(sqrt(real(np)))
    do while (mod(np, py) /= 0)
      py = py - 1
    enddo
    px = np / py
  end subroutine grid_shape
end program halo_scale
