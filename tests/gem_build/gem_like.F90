! The RPN_COMM calls GEM makes of the routines the library provides, written as GEM writes them
! (tests/gem_build/CMakeLists.txt builds it with GEM's flags): include 'rpn_comm.inc' in each
! program unit under implicit none, scalars and expressions as buffers, names in quotes, the
! halo exchange with logical periodicity. Prints "gem_like: OK on N PEs" when every result is right.
subroutine gem_pe_topo(npex, npey)
  implicit none
  integer, intent(inout) :: npex, npey
  npex = npex * npey
  npey = 1
end subroutine gem_pe_topo

subroutine gem_step(me, npes, nerr)
  use iso_c_binding
  implicit none
  include 'rpn_comm.inc'
  integer, intent(in) :: me, npes
  integer, intent(inout) :: nerr
  integer, parameter :: l_ni = 4, l_nj = 3, G_nk = 2, G_halox = 1, G_haloy = 1
  integer, parameter :: l_minx = 1 - G_halox, l_maxx = l_ni + G_halox
  integer, parameter :: l_miny = 1 - G_haloy, l_maxy = l_nj + G_haloy
  real :: fld(l_minx:l_maxx, l_miny:l_maxy, G_nk)
  real(kind=8) :: local_dot, dotprod
  integer :: err, il, il_, il_cor, counts(3), g_counts(3), all_pes(npes), n, i, j, left, mex, mey
  logical :: periodx

  il = me + 2
  il_ = 1
  call RPN_COMM_allreduce (il - il_, il_cor, 1, "MPI_INTEGER", "MPI_MAX", "GRID", err)
  if (err /= RPN_COMM_OK .or. il_cor /= npes) nerr = nerr + 1
  counts = [1, me, 2]
  call rpn_comm_Allreduce (counts, g_counts, 3, "MPI_INTEGER", "MPI_SUM", RPN_COMM_GRID, err)
  if (err /= 0 .or. any(g_counts /= [npes, npes * (npes - 1) / 2, 2 * npes])) nerr = nerr + 1
  local_dot = 0.5d0
  call RPN_COMM_allreduce (local_dot, dotprod, 1, "MPI_DOUBLE_PRECISION", "MPI_SUM", "GRID", err)
  if (err /= 0 .or. dotprod /= 0.5d0 * npes) nerr = nerr + 1
  n = 0
  if (me == 0) n = 42
  call RPN_COMM_bcast (n, 1, "MPI_INTEGER", 0, "GRID", err)
  if (err /= 0 .or. n /= 42) nerr = nerr + 1
  call RPN_COMM_allgather (me, 1, "MPI_INTEGER", all_pes, 1, "MPI_INTEGER", "GRID", err)
  if (err /= 0 .or. any(all_pes /= [(i, i = 0, npes - 1)])) nerr = nerr + 1
  call rpn_comm_size ("GRID", n, err)
  if (err /= 0 .or. n /= npes) nerr = nerr + 1
  call rpn_comm_barrier ("GRID", err)
  if (err /= 0) nerr = nerr + 1

  ! a halo exchange along the row, x periodic (GEM's logical arguments)
  err = RPN_COMM_mype (i, mex, mey)
  fld = -1.0
  do j = 1, l_nj
    fld(1:l_ni, j, :) = real(100 * me + j)
  enddo
  periodx = .true.
  call rpn_comm_xch_halo (fld, l_minx, l_maxx, l_miny, l_maxy, l_ni, l_nj, G_nk, G_halox, G_haloy, &
                          periodx, .false., l_ni * npes, 0)
  left = mod(me - 1 + npes, npes)
  if (any(fld(0, 1:l_nj, :) /= reshape([(real(100 * left + j), j = 1, l_nj), (real(100 * left + j), j = 1, l_nj)], &
                                        [l_nj, G_nk]))) nerr = nerr + 1
end subroutine gem_step

program gem_like
  use iso_c_binding
  implicit none
  include 'rpn_comm.inc'
  external gem_pe_topo
  integer :: me, npes, npex, npey, nerr, total, err

  npex = 0
  npey = 0
  nerr = 0
  call RPN_COMM_init (gem_pe_topo, me, npes, npex, npey)
  call gem_step (me, npes, nerr)
  call RPN_COMM_allreduce (nerr, total, 1, "MPI_INTEGER", "MPI_SUM", "GRID", err)
  call RPN_COMM_finalize (err)
  if (total /= 0 .or. err /= 0) then
    if (me == 0) print '(A,I0,A)', 'gem_like: FAILED (', total, ' wrong results)'
    error stop 1
  endif
  if (me == 0) print '(A,I0,A)', 'gem_like: OK on ', npes, ' PEs'
end program gem_like
