! halo_flip_test.F90 -- RPN_COMM_xch_halo_flip_test, the original's self-test driver of the
! exchange with the pole flip (npol_row < -pe_ny), on this library's RPN_COMM_xch_halo. Its
! signature is a row of fortran/routines.toml.

! params: gni, gnj, nk, halox, haloy, periodx, periody (non-zero: .true.). Every PE cuts the grid
! with RPN_COMM_limit, fills two arrays with the longitude and latitude (degrees, truncated) of
! their points, halos 2222, prints the first level of both (the original's lines: the row number,
! the first array's row, -999, the second's, '(40I5)'), exchanges both with npol_row = -999999
! and prints them again. Returns 0, or -1 with fewer than 7 parameters.
function RPN_COMM_xch_halo_flip_test(nparams, params) result(status)
  use ISO_FORTRAN_ENV, only: output_unit, error_unit
  implicit none
  integer, intent(IN) :: nparams
  integer, intent(IN), dimension(nparams) :: params
  integer :: status
  integer, external :: RPN_COMM_limit, RPN_COMM_mype
  external :: RPN_COMM_xch_halo, RPN_COMM_allreduce
  integer :: gni, gnj, nk, halox, haloy, me, mex, mey, pex, pey, ierr, i, j, k
  integer :: lminx, lmaxx, lminy, lmaxy, lni, lnj, minx, maxx, miny, maxy, here(2), dims(2)
  integer, allocatable :: countx(:), offsetx(:), county(:), offsety(:), lon(:,:,:), lat(:,:,:)
  logical :: periodx, periody
  status = -1
  if (nparams < 7) then
    write(error_unit, '(A,I0,A)') 'RPN_COMM_xch_halo_flip_test: ', nparams, &
      ' parameters, 7 needed (gni, gnj, nk, halox, haloy, periodx, periody)'
    return
  endif
  gni = params(1)
  gnj = params(2)
  nk = params(3)
  halox = params(4)
  haloy = params(5)
  periodx = params(6) /= 0
  periody = params(7) /= 0
  ierr = RPN_COMM_mype(me, mex, mey)
  here = [mex + 1, mey + 1]
  call RPN_COMM_allreduce(here, dims, 2, 'MPI_INTEGER', 'MPI_MAX', 'GRID', ierr)
  pex = dims(1)
  pey = dims(2)
  allocate(countx(pex), offsetx(pex), county(pey), offsety(pey))
  ierr = RPN_COMM_limit(mex, pex, 1, gni, lminx, lmaxx, countx, offsetx)
  ierr = RPN_COMM_limit(mey, pey, 1, gnj, lminy, lmaxy, county, offsety)
  lni = countx(mex + 1)
  lnj = county(mey + 1)
  minx = lminx - halox
  maxx = lmaxx + halox
  miny = lminy - haloy
  maxy = lmaxy + haloy
  allocate(lon(minx:maxx, miny:maxy, nk), lat(minx:maxx, miny:maxy, nk))
  ! the original leaves the second array's halos undefined (it sets the first one's twice)
  lon = 2222
  lat = 2222
  do k = 1, nk
    do j = lminy, lmaxy
      do i = lminx, lmaxx
        lon(i, j, k) = int((i - 1) * (360.0 / gni))
        lat(i, j, k) = int(-90 + (j - .5) * (180.0 / gnj))
      enddo
    enddo
  enddo
  do j = maxy, miny, -1
    write(output_unit, '(40I5)') j, lon(minx:maxx, j, 1), -999, lat(minx:maxx, j, 1)
  enddo
  call RPN_COMM_xch_halo(lon, 1 - halox, lni + halox, 1 - haloy, lnj + haloy, lni, lnj, nk, halox, haloy, &
                         periodx, periody, gni, -999999)
  call RPN_COMM_xch_halo(lat, 1 - halox, lni + halox, 1 - haloy, lnj + haloy, lni, lnj, nk, halox, haloy, &
                         periodx, periody, gni, -999999)
  do j = maxy, miny, -1
    write(output_unit, '(40I5)') j, lon(minx:maxx, j, 1), -999, lat(minx:maxx, j, 1)
  enddo
  status = 0
end function RPN_COMM_xch_halo_flip_test

! The original's self-test of RPN_COMM_haloflip, with its arguments and lines: every PE of the
! job taken as one row of PEs (the grid set so where RPN_COMM_init has not set one; a grid of
! several rows is refused), a grid of gni = ni x PEs points (made even) by nj by nk cut along x by
! RPN_COMM_limit, its points 10000 * i + 100 * j + k (global i), halos 0, arrays
! (-halox:ni+halox+1, -haloy:nj+haloy+1, nk). The north halo is flipped, then the south one; with
! gni <= 25 every PE prints its array (level nk first, row maxy first, '(A,(20I7.6))'), in rank
! order. Every halo point across a pole is checked: a PE prints its first wrong point of each pole
! and its counts, PE 0 the job's counts ('total erors (south,north) =', the original's words). A
! refused grid or flip ends the PE with status 1 after the library's line, as RPN_COMM_haloflip.
! The original's own RPN_COMM_haloflip adds trace lines of its ring ('low=', 'TIMES=') that are
! not the self-test's and are not printed here.
subroutine RPN_COMM_haloflip_test(halox, haloy, ni, nj, nk)
  use ISO_C_BINDING, only: C_INT
  use rpn_comm_halo_binding, only: rpncomm_haloflip_row
  use rpn_comm_output_flush, only: rpn_comm_stop_refused
  implicit none
  integer, intent(IN) :: halox, haloy, ni, nj, nk
  integer, external :: RPN_COMM_limit
  external :: RPN_COMM_allreduce, RPN_COMM_barrier
  integer, parameter :: NO_FLIP = 0, NORTH = 1, SOUTH = 2
  integer :: minx, maxx, miny, maxy, gni, gmin, gmax, ierr, i, j, k, ipe, pole
  integer :: errors(2), total(2), iexpect, jrow, wanted
  integer(C_INT) :: npes, mex
  integer, allocatable :: g(:,:,:), count(:), depl(:)

  print *, 'argument count =', command_argument_count()
  minx = 1 - halox - 1
  maxx = ni + halox + 1
  miny = 1 - haloy - 1
  maxy = nj + haloy + 1
  allocate(g(minx:maxx, miny:maxy, nk))
  if (rpncomm_haloflip_row(g, 0_C_INT, 0_C_INT, 0_C_INT, 0_C_INT, 0_C_INT, 0_C_INT, 0_C_INT, 0_C_INT, 0_C_INT, &
                           0_C_INT, int(NO_FLIP, C_INT), npes, mex) /= 0) call rpn_comm_stop_refused()
  allocate(count(0:npes - 1), depl(0:npes - 1))
  gni = ni * npes
  gni = gni - mod(gni, 2)
  ierr = RPN_COMM_limit(int(mex), int(npes), 1, gni, gmin, gmax, count, depl)
  if (mex == 0) then
    write(6, *) 'gni=', gni, ' nj=', nj, ' nk=', nk
    write(6, 1) 'count =', count
    write(6, 1) 'depl  =', depl
    flush(6)
  endif
  g = 0
  do k = 1, nk
    do j = 1, nj
      do i = 1, count(mex)
        g(i, j, k) = 10000 * (i + gmin - 1) + 100 * j + k
      enddo
    enddo
  enddo
  do pole = NORTH, SOUTH
    if (rpncomm_haloflip_row(g, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                             int(count(mex), C_INT), int(nj, C_INT), int(nk, C_INT), int(halox, C_INT), &
                             int(haloy, C_INT), int(gni, C_INT), int(pole, C_INT), npes, mex) /= 0) &
      call rpn_comm_stop_refused()
  enddo
  if (gni <= 25) then
    do ipe = 0, npes - 1
      if (ipe == mex) then
        write(6, *) '============', mex, '============'
        do k = nk, 1, -1
          do j = maxy, miny, -1
            write(6, 1) '', g(:, j, k)
          enddo
        enddo
      endif
      flush(6)
      call RPN_COMM_barrier('GRID', ierr)
    enddo
  endif
  errors = 0
  do k = 1, nk
    do j = 1, haloy
      do i = minx, maxx
        iexpect = gmin - 1 + i + gni / 2
        if (iexpect > gni) iexpect = iexpect - gni
        ! the north halo (row nj + j, from row nj + 1 - j), then the south one (1 - j, from j)
        do pole = NORTH, SOUTH
          jrow = merge(nj + j, 1 - j, pole == NORTH)
          wanted = iexpect * 10000 + merge(nj + 1 - j, j, pole == NORTH) * 100 + k
          if (g(i, jrow, k) == wanted) cycle
          errors(pole) = errors(pole) + 1
          ! the pole's first wrong point
          if (errors(pole) == 1) write(6, *) 'expected', wanted, ' got', g(i, jrow, k), i, jrow, k
        enddo
      enddo
    enddo
  enddo
  if (sum(errors) > 0) write(6, *) 'errors=', errors(SOUTH), ' errorn=', errors(NORTH)
  call RPN_COMM_allreduce(errors, total, 2, 'MPI_INTEGER', 'MPI_SUM', 'GRID', ierr)
  if (mex == 0) write(6, *) 'total erors (south,north) =', total(SOUTH), total(NORTH)
1 format(A, (20I7.6))
end subroutine RPN_COMM_haloflip_test
