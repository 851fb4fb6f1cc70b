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
