! PES: 1 2 4
! FFLAGS: -fopenmp
! ENV: OMP_WAIT_POLICY=passive
! TIMEOUT: 180
!
! OpenMP threads in every PE, calling as GEM's solvers do (sol_fgmres.F90: after an
! `!$omp barrier`, an `!$omp single` makes the allreduce on 'MULTIGRID', so whichever thread
! arrives first makes it). Inside one `!$omp parallel` of 3 threads, step after step:
! - `!$omp single`: an allreduce SUM of 2 real*8 on 'MULTIGRID' and one MAX on 'GRID', a barrier,
!   a reduce of 3 real*8 to a root that changes with the step;
! - a thread chosen by the step (another each step, so that every thread calls), between two
!   barriers: a bcast of an integer from a root that changes with the step, a halo exchange, and
!   (MPI_INIT_FIRST: the MPI build) an irecv, isend and waitall_nostat around the ring of 'GRID';
! - `!$omp master`: an allreduce of 16 integers;
! - every thread at once, unguarded: RPN_COMM_comm('MULTIGRID') (GEM's psadj_hlt, mass_tr_hlt).
! Every result is checked; at the end, every thread of every PE must have made calls.
! docs/gem.md, "OpenMP threads in every PE", lists GEM's calls from threads that these follow.
! test_gem_threads_mpi_init (tests/fortran_mpi) includes this program with MPI_INIT_FIRST defined:
! the program then calls MPI_Init itself first, at MPI_THREAD_SINGLE, as GEM does.
program test_gem_threads
  use ISO_C_BINDING
  use rpn_comm_windows
  use omp_lib
#ifdef MPI_INIT_FIRST
  use mpi, only: MPI_Init
#endif
  implicit none
  integer, parameter :: NT = 3, STEPS = 24, nk = 2, h = 1, nper = 12
  integer :: me, npes, nerr, pex, pey, mex, mey, status
  integer :: gni, gnj, ni, nj, i0, j0, lmax
  integer :: calls_by(0:NT - 1), comm_of(0:NT - 1)
  integer, external :: RPN_COMM_comm
  integer, allocatable :: cx(:), ox(:), cy(:), oy(:), g(:,:,:)

  nerr = 0
  pex = 0
  pey = 0
#ifdef MPI_INIT_FIRST
  call MPI_Init(status)
#endif
  call RPN_COMM_init(grid_shape, me, npes, pex, pey)
  status = RPN_COMM_mype(me, mex, mey)
  allocate(cx(pex), ox(pex), cy(pey), oy(pey))
  gni = nper * pex
  gnj = nper * pey - 1
  status = RPN_COMM_limit(mex, pex, 1, gni, i0, lmax, cx, ox)
  ni = cx(mex + 1)
  status = RPN_COMM_limit(mey, pey, 1, gnj, j0, lmax, cy, oy)
  nj = cy(mey + 1)
  allocate(g(1 - h:ni + h, 1 - h:nj + h, nk))

  call section('serialised calls from the threads of every PE')
  calls_by = 0
  call threaded_steps()
  call check(all(comm_of == comm_of(0)), 'RPN_COMM_comm from every thread at once: '//str(comm_of(0))//' '// &
             str(comm_of(1))//' '//str(comm_of(2)))
  call check(all(calls_by > 0), &
             'every thread made calls: '//str(calls_by(0))//' '//str(calls_by(1))//' '//str(calls_by(2)))
  deallocate(g)
  call finish('test_gem_threads')

contains

  subroutine threaded_steps()
    integer :: step, t, ierr, root, ival, k
    real(kind=8) :: dots(2), sums(2), local_max(1), global_max(1), part(3), total(3)
    integer :: isend(16), irecv(16)

    !$omp parallel num_threads(NT) private(step, t, ierr, root, ival, k) &
    !$omp shared(dots, sums, local_max, global_max, isend, irecv, part, total)
    t = omp_get_thread_num()
    comm_of(t) = RPN_COMM_comm('MULTIGRID')
    if (omp_get_num_threads() /= NT) then
      !$omp single
      call check(.false., 'the parallel region has '//str(omp_get_num_threads())//' threads, not '//str(NT))
      !$omp end single
    endif
    do step = 1, STEPS
      ! GEM's pattern: the first thread to come makes the reductions
      !$omp barrier
      !$omp single
      dots = [real(me + step, 8), real(2 * me + 1, 8)]
      call RPN_COMM_allreduce(dots, sums, 2, 'MPI_DOUBLE_PRECISION', 'MPI_SUM', 'MULTIGRID', ierr)
      call check_ierr(ierr, RPN_COMM_OK, 'allreduce in single')
      call check(sums(1) == real(npes * step + npes * (npes - 1) / 2, 8) .and. sums(2) == real(npes * npes, 8), &
                 'allreduce SUM in single, step '//str(step))
      local_max = real(mod(me * 7 + step, npes + 3), 8)
      call RPN_COMM_allreduce(local_max, global_max, 1, 'MPI_REAL8', 'MPI_MAX', 'GRID', ierr)
      call check(ierr == RPN_COMM_OK .and. global_max(1) == real(max_over_pes(step), 8), &
                 'allreduce MAX in single, step '//str(step))
      call RPN_COMM_barrier('GRID', ierr)
      call check_ierr(ierr, RPN_COMM_OK, 'barrier in single')
      root = mod(step + 1, npes)
      part = [real(me, 8), real(step, 8), 1.0d0]
      total = -1
      call RPN_COMM_reduce(part, total, 3, 'MPI_REAL8', 'MPI_SUM', root, 'GRID', ierr)
      if (me == root) then
        call check(ierr == RPN_COMM_OK .and. all(total == [real(npes * (npes - 1) / 2, 8), real(npes * step, 8), &
                   real(npes, 8)]), 'reduce in single, step '//str(step))
      else
        call check(ierr == RPN_COMM_OK .and. all(total == -1), 'reduce in single off the root, step '//str(step))
      endif
      calls_by(t) = calls_by(t) + 1
      !$omp end single

      ! a thread chosen by the step: each thread in turn
      !$omp barrier
      if (t == mod(step, NT)) then
        root = mod(step, npes)
        ival = -1
        if (me == root) ival = 1000 + step
        call RPN_COMM_bcast(ival, 1, 'MPI_INTEGER', root, 'GRID', ierr)
        call check(ierr == RPN_COMM_OK .and. ival == 1000 + step, 'bcast from thread '//str(t)//', step '//str(step))
        call exchange_and_check(g, step, 'halo exchange')
#ifdef MPI_INIT_FIRST
        call ring(step)
#endif
        calls_by(t) = calls_by(t) + 1
      endif
      !$omp barrier

      !$omp master
      isend = [(me * 16 + k + step, k = 1, 16)]
      call RPN_COMM_allreduce(isend, irecv, 16, 'MPI_INTEGER', 'MPI_SUM', 'GRID', ierr)
      call check(ierr == RPN_COMM_OK .and. all(irecv == [(16 * npes * (npes - 1) / 2 + npes * (k + step), k = 1, 16)]), &
                 'allreduce in master, step '//str(step))
      calls_by(t) = calls_by(t) + 1
      !$omp end master
    enddo
    !$omp end parallel
  end subroutine threaded_steps

#ifdef MPI_INIT_FIRST
  ! an irecv from the left, an isend to the right around 'GRID', both completed by waitall_nostat
  subroutine ring(step)
    integer, intent(IN) :: step
    integer :: req(2), ierr, sbuf(2), rbuf(2), left, right
    left = mod(me + npes - 1, npes)
    right = mod(me + 1, npes)
    sbuf = [me, step]
    rbuf = -1
    call RPN_COMM_irecv(rbuf, 2, 'MPI_INTEGER', left, step, 'GRID', req(1), ierr)
    call RPN_COMM_isend(sbuf, 2, 'MPI_INTEGER', right, step, 'GRID', req(2), ierr)
    call RPN_COMM_waitall_nostat(2, req, ierr)
    call check(ierr == RPN_COMM_OK .and. all(rbuf == [left, step]), 'ring from a thread, step '//str(step))
  end subroutine ring
#endif

  integer function max_over_pes(step)
    integer, intent(IN) :: step
    integer :: p
    max_over_pes = 0
    do p = 0, npes - 1
      max_over_pes = max(max_over_pes, mod(p * 7 + step, npes + 3))
    enddo
  end function max_over_pes

  subroutine grid_shape(px, py)
    integer, intent(INOUT) :: px, py
    integer :: n
    n = px * py
    px = n
    if (n >= 4 .and. mod(n, 2) == 0) px = n / 2
    py = n / px
  end subroutine grid_shape

  include 'halo_step_check.inc'
  include 'tutil.inc'
end program test_gem_threads
