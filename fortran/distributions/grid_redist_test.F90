! grid_redist_test.F90 -- RPN_COMM_grid_redist_test, the original's self-test driver of the
! redistribution of a window of a distributed array onto output PEs, on this library's
! RPN_COMM_grid_redist_n. Its signature is a row of fortran/routines.toml.

! As the original (params are not read): a grid of 3 x 5 points per PE (gni = 3 * pe_nx,
! gnj = 5 * pe_ny), 7 levels of k + 10*j + 1000*i (global indices), the window 4..6 x 6..10 sent
! to the output PEs at columns 0 and pe_nx-1, rows 0 and pe_ny-1, 2 levels at most each. Prints
! the original's lines: the grid (PE 0), the output PEs' columns and rows, the last PE's part,
! status= (with the time, which differs from run to run), each PE's zlist (and the original's
! unused zlist2), then each output PE's errors per level and the window it got. Needs
! pe_nx >= 2 and pe_ny >= 2 (the window lies beyond the grid otherwise). Returns
! RPN_COMM_grid_redist_n's status.
integer function RPN_COMM_grid_redist_test(nparams, params)
  use ISO_FORTRAN_ENV, only: output_unit
  implicit none
  integer :: nparams
  integer, dimension(100) :: params
  integer, external :: RPN_COMM_grid_redist_n, RPN_COMM_limit, RPN_COMM_mype
  real(kind=kind(1.d0)), external :: RPN_COMM_wtime
  external :: RPN_COMM_allreduce, RPN_COMM_barrier
  integer, parameter :: LNI = 3, LNJ = 5, NK = 7, NOX = 2, NOY = 2
  integer, parameter :: IX0 = 4, IXN = 6, JY0 = 6, JYN = 10
  integer, parameter :: MAXZ = (NK + NOX + NOY - 1) / (NOX * NOY)
  integer, allocatable :: countx(:), offsetx(:), county(:), offsety(:), local(:,:,:), window(:,:,:)
  integer :: outpe_x(NOX), outpe_y(NOY), zlist(NK), zlist2(NK)
  integer :: me, mex, mey, pex, pey, ierr, status, gni, gnj, i, j, k, k0, p, jj, nerr
  integer :: lminx, lmaxx, lminy, lmaxy, i0, in, j0, jn, here(2), dims(2)
  real(kind=kind(1.d0)) :: t1, t2

  if (nparams < 0) status = params(1)
  ierr = RPN_COMM_mype(me, mex, mey)
  here = [mex + 1, mey + 1]
  call RPN_COMM_allreduce(here, dims, 2, 'MPI_INTEGER', 'MPI_MAX', 'GRID', ierr)
  pex = dims(1)
  pey = dims(2)
  gni = pex * LNI
  gnj = pey * LNJ
  if (me == 0) write(output_unit, *) 'grid redistribution test', pex * pey, pex, pey
  outpe_x = [0, pex - 1]
  outpe_y = [0, pey - 1]
  allocate(countx(pex), offsetx(pex), county(pey), offsety(pey))
  ierr = RPN_COMM_limit(mex, pex, 1, gni, lminx, lmaxx, countx, offsetx)
  ierr = RPN_COMM_limit(mey, pey, 1, gnj, lminy, lmaxy, county, offsety)
  allocate(local(lminx - 1:lmaxx + 2, lminy - 2:lmaxy + 1, NK))
  local = 0
  do k = 1, NK
    do j = lminy, lmaxy
      do i = lminx, lmaxx
        local(i, j, k) = k + 10 * j + 1000 * i
      enddo
    enddo
  enddo
  call RPN_COMM_barrier('GRID', ierr)
  if (me == 0) then
    write(output_unit, '(A,10I6)') 'outpe_x =', outpe_x
    write(output_unit, '(A,10I6)') 'outpe_y =', outpe_y
  endif
  call RPN_COMM_barrier('GRID', ierr)
  if (me == pex * pey - 1) write(output_unit, '(A,10I6)') 'local array allocated', mex, mey, &
    lminx, lmaxx, lminy, lmaxy, NK
  call RPN_COMM_barrier('GRID', ierr)
  ! the part of the window this PE holds, in its own indices
  i0 = 1
  if (IX0 > lminx) i0 = i0 + (IX0 - lminx)
  in = LNI
  if (lmaxx > IXN) in = in - (lmaxx - IXN)
  j0 = 1
  if (JY0 > lminy) j0 = j0 + (JY0 - lminy)
  jn = LNJ
  if (lmaxy > JYN) jn = jn - (lmaxy - JYN)
  if (any(outpe_x == mex) .and. any(outpe_y == mey)) then
    allocate(window(IX0:IXN, JY0:JYN, MAXZ))
  else
    allocate(window(1, 1, MAXZ))
  endif
  window = 0
  zlist = -999999
  zlist2 = -999999
  t1 = RPN_COMM_wtime()
  status = RPN_COMM_grid_redist_n(local, 1 - 1, LNI + 2, i0, in, 1 - 2, LNJ + 1, j0, jn, NK, &
                                  window, IX0, IXN, JY0, JYN, MAXZ, zlist, &
                                  gni, gnj, outpe_x, NOX, outpe_y, NOY, 1)
  t2 = RPN_COMM_wtime()
  RPN_COMM_grid_redist_test = status
  if (me == 0) write(output_unit, *) 'status=', status, ' time=', t2 - t1
  if (status == -1) return
  do p = 0, pex * pey - 1
    call RPN_COMM_barrier('GRID', ierr)
    if (me == p) then
      write(output_unit, *) 'pe=', mex, mey, ' zlist=', zlist
      write(output_unit, *) 'pe=', mex, mey, ' zlist2=', zlist2
      flush(output_unit)
    endif
    call RPN_COMM_barrier('GRID', ierr)
  enddo
  call RPN_COMM_barrier('GRID', ierr)
  do k0 = 1, MAXZ
    call RPN_COMM_barrier('GRID', ierr)
    if (zlist(k0) > 0) then
      k = zlist(k0)
      nerr = 0
      do j = JY0, JYN
        do i = IX0, IXN
          if (window(i, j, k0) /= k + 10 * j + 1000 * i) nerr = nerr + 1
        enddo
      enddo
      write(output_unit, '(A,2I3,A,I3,A,I3)') 'pe=', mex, mey, ',  level=', k, ',  errors=', nerr
    endif
    call RPN_COMM_barrier('GRID', ierr)
  enddo
  call RPN_COMM_barrier('GRID', ierr)
  do k = 1, NK
    call RPN_COMM_barrier('GRID', ierr)
    if (any(k == zlist)) then
      write(output_unit, '(A,20(1X,I5.5))') 'global array =', mex, mey, IX0, IXN, JY0, JYN
      do k0 = 1, 2
        if (zlist(k0) == k) then
          do jj = JYN, JY0, -1
            write(output_unit, '(A,20(1X,I5.5))') ' ', window(IX0:IXN, jj, k0)
          enddo
        endif
      enddo
      flush(output_unit)
    endif
  enddo
end function RPN_COMM_grid_redist_test
