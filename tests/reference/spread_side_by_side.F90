! spread_side_by_side.F90 -- RPN_COMM_spread_context, RPN_COMM_spread, RPN_COMM_is_null and
! RPN_COMM_topo as GEM-MACH and SPS call them, built against the original RPN_COMM and against this
! library by side_by_side.sh, which compares what they print: the statuses, the points each PE
! receives (as bits), the shape of dest, whether the contexts are null, and topo's bounds along
! both axes for a few sizes and halos.
program spread_side_by_side
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer, parameter :: NPTS = 29
  integer :: me, npes, pex, pey, mex, mey, status, ierr, i, j, n, ndata, st
  integer :: minx, maxx, nxl, nxlmax, nx0, halo, nxg
  integer, allocatable :: pe(:)
  real, allocatable :: source(:,:)
  real, dimension(:,:), pointer :: dest
  type(rpncomm_context) :: ctx
  external :: spread_side_grid

  pex = 0
  pey = 0
  call RPN_COMM_init(spread_side_grid, me, npes, pex, pey)
  status = RPN_COMM_mype(me, mex, mey)
  ctx = NULL_rpncomm_context
  write(*, '(A,I0,A,L1)') 'pe ', me, ' null before ', RPN_COMM_is_null(ctx)
  if (me == 0) then
    allocate(pe(NPTS))
    do i = 1, NPTS
      pe(i) = mod(i * 5 + i / 4, npes + 1) - 1
    enddo
    st = RPN_COMM_spread_context(ctx, 'GRID', 0, pe, NPTS)
  else
    allocate(pe(1))
    pe = 0
    st = RPN_COMM_spread_context(ctx, 'GRID', 0, pe, 0)
  endif
  write(*, '(A,I0,A,I0,A,L1)') 'pe ', me, ' context ', st, ' null after ', RPN_COMM_is_null(ctx)
  do ndata = 1, 3
    if (me == 0) then
      allocate(source(NPTS, ndata))
      do j = 1, ndata
        do i = 1, NPTS
          source(i, j) = real(i * 1000 + j) / 7.0
        enddo
      enddo
      n = NPTS
    else
      allocate(source(1, 1))
      source = 0
      n = 0
    endif
    nullify(dest)
    st = RPN_COMM_spread(ctx, source, n, ndata, dest)
    write(*, '(A,I0,A,I0,A,I0,A,I0,A,I0)') 'pe ', me, ' spread ndata ', ndata, ' status ', st, &
      ' shape ', size(dest, 1), ' ', size(dest, 2)
    do i = 1, st
      do j = 1, ndata
        write(*, '(A,I0,A,I0,A,I0,A,I0,A,Z8.8)') 'pe ', me, ' ndata ', ndata, ' point ', i, ' value ', j, ' ', dest(j, i)
      enddo
    enddo
    deallocate(source, dest)
  enddo
  do nxg = 7 * max(pex, pey) + 1, 7 * max(pex, pey) + 3
    do halo = 0, 2
      st = RPN_COMM_topo(nxg, minx, maxx, nxl, nxlmax, halo, nx0, .true., .true.)
      write(*, '(A,I0,A,7(1X,I0))') 'pe ', me, ' topo x', nxg, halo, st, minx, maxx, nxl, nxlmax
      st = RPN_COMM_topo(nxg, minx, maxx, nxl, nxlmax, halo, nx0, .false., .false.)
      write(*, '(A,I0,A,8(1X,I0))') 'pe ', me, ' topo y', nxg, halo, st, minx, maxx, nxl, nxlmax, nx0
    enddo
  enddo
  call RPN_COMM_finalize(ierr)
end program spread_side_by_side

! 2 PEs: 2 x 1, 4: 2 x 2, 6: 3 x 2
subroutine spread_side_grid(px, py)
  implicit none
  integer, intent(INOUT) :: px, py
  integer :: n
  n = px * py
  select case (n)
  case (4)
    px = 2
    py = 2
  case (6)
    px = 3
    py = 2
  case default
    px = n
    py = 1
  end select
end subroutine spread_side_grid
