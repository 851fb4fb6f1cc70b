! io_dist_coll_test.F90 -- RPN_COMM_io_dist_coll_test, the original's self-test driver of the
! distribution of whole levels from an I/O PE set onto the grid, on this library's
! RPN_COMM_shuf_ezdist and RPN_COMM_shuf_ezdist_h. Its signature is a row of
! fortran/routines.toml.

! params (each optional, in the original's order): gni, gnj, dnk (with 3 or more), lnk, iope_extra,
! halo_x and halo_y (with 7), max_dist_k, nrep_test; defaults 10, 7, 2, 6, 3, 1, 1, lnk, 1. An I/O
! PE set of min(pe_nx, pe_ny) + iope_extra PEs each holds dnk global levels (1 + its ordinal,
! then every n_io) of i*10000 + j*100 + k (and a haloed copy), distributed to every PE's tile
! (levels above max_dist_k are not); every PE counts the wrong points of its levels; then every
! PE's levels are collected back onto the I/O PEs (RPN_COMM_shuf_ezcoll) and checked there. The
! original's lines (list-directed and its formats) but the addresses of nothing; the haloed copy
! is checked over the tile and its halos (4.6.3 swaps the two loops' bounds there).
subroutine RPN_COMM_io_dist_coll_test(nparams, params)
  implicit none
  integer, intent(IN) :: nparams
  integer, intent(IN), dimension(nparams) :: params
  integer, external :: RPN_COMM_mype, RPN_COMM_create_io_set, RPN_COMM_is_io_pe, RPN_COMM_io_pe_size
  integer, external :: rpn_comm_create_2dgrid, RPN_COMM_shuf_ezdist, RPN_COMM_shuf_ezdist_h, RPN_COMM_shuf_ezcoll
  logical, external :: RPN_COMM_io_dist_coll_check
  external :: RPN_COMM_allreduce
  integer, parameter :: MAX_PRINT = 80
  logical :: periodx, periody
  integer :: setno, me_io, n_io, i, j, k, irep, me, mex, mey, pex, pey, ierr, here(2), dims(2)
  integer :: gni, gnj, dnk, lnk, iope_extra, halo_x, halo_y, nrep_test, max_dist_k
  integer, allocatable :: liste_k(:), liste_k2(:), global(:,:,:), glob_l(:,:,:), local(:,:,:), loc_l2(:,:,:)
  integer, allocatable :: global2(:,:,:)
  integer, allocatable :: start_x(:), count_x(:), start_y(:), count_y(:)
  logical, allocatable :: liste_o(:), liste_o2(:)
  integer :: lni, lnj, mini, maxi, minj, maxj, status, grid_id
  integer :: i0, in, j0, jn, nerrors, nvalid, expected, nerrors2, nvalid2, effective_lnk

  gni = 10
  gnj = 7
  dnk = 2
  lnk = 6
  iope_extra = 3
  halo_x = 1
  halo_y = 1
  nrep_test = 1
  ierr = RPN_COMM_mype(me, mex, mey)
  here = [mex + 1, mey + 1]
  call RPN_COMM_allreduce(here, dims, 2, 'MPI_INTEGER', 'MPI_MAX', 'GRID', ierr)
  pex = dims(1)
  pey = dims(2)
  periodx = .false.
  periody = .false.
  if (me == 0 .and. nparams > 2) then
    print 101, "CFG: nparams", nparams
    print 101, "CFG: params", params
  endif
  if (nparams > 2) then
    gni = params(1)
    gnj = params(2)
    dnk = params(3)
  endif
  if (nparams > 3) lnk = params(4)
  max_dist_k = lnk
  if (nparams >= 5) iope_extra = params(5)
  if (nparams >= 7) then
    halo_x = params(6)
    halo_y = params(7)
  endif
  if (nparams >= 8) max_dist_k = params(8)
  if (nparams >= 9) nrep_test = params(9)
  if (me == 0) then
    print 101, "CFG: gni,gnj,dnk,halo_x,halo_y", gni, gnj, dnk, halo_x, halo_y
    print 101, "CFG: lnk,max_dist_k,pe_nx,pe_ny", lnk, max_dist_k, iope_extra, pex, pey
  endif
  if (.not. RPN_COMM_io_dist_coll_check(gni, gnj, halo_x, halo_y)) return
  allocate(global(gni, gnj, dnk), glob_l(1 - halo_x:gni + halo_x, 1 - halo_y:gnj + halo_y, dnk))
  allocate(liste_k(dnk), liste_k2(dnk), liste_o(lnk), liste_o2(lnk))
  allocate(start_x(pex), count_x(pex), start_y(pey), count_y(pey))
  liste_k = 0
  liste_k2 = 0
  liste_o = .false.
  liste_o(max_dist_k) = .true.
  liste_o2 = liste_o
  ! along x: equal tiles, the last one what is left
  lni = (gni + pex - 1) / pex
  mini = 1 - halo_x
  maxi = lni + halo_x
  count_x = lni
  start_x(1) = 1
  do i = 2, pex
    start_x(i) = start_x(i - 1) + count_x(i - 1)
  enddo
  count_x(pex) = gni + 1 - start_x(pex)
  lni = count_x(mex + 1)
  i0 = mini
  if (mex == 0 .and. (.not. periodx)) i0 = 1
  in = maxi
  if (mex == pex - 1 .and. (.not. periodx)) in = count_x(pex)
  if (me == 0) then
    print *, "start_x =", start_x
    print *, "count_x =", count_x
  endif
  ! along y
  lnj = (gnj + pey - 1) / pey
  minj = 1 - halo_y
  maxj = lnj + halo_y
  count_y = lnj
  start_y(1) = 1
  do j = 2, pey
    start_y(j) = start_y(j - 1) + count_y(j - 1)
  enddo
  count_y(pey) = gnj + 1 - start_y(pey)
  lnj = count_y(mey + 1)
  j0 = minj
  if (mey == 0 .and. (.not. periody)) j0 = 1
  jn = maxj
  if (mey == pey - 1 .and. (.not. periody)) jn = count_y(pey)
  if (me == 0) then
    print *, "start_y =", start_y
    print *, "count_y =", count_y
  endif
  grid_id = rpn_comm_create_2dgrid(gni, gnj, mini, maxi, minj, maxj)
  if (grid_id == -1) then
    if (me == 0) print 101, "ERROR: cannot create grid id, gni,gnj,mini,maxi,minj,maxj=", gni, gnj, mini, maxi, minj, maxj
    return
  endif
  allocate(local(mini:maxi, minj:maxj, lnk), loc_l2(mini:maxi, minj:maxj, lnk))
  local = 999999
  loc_l2 = 999999
  global = 888888
  glob_l = 777777
  if (me == 0) then
    print *, 'IO PE number of PEs =', min(min(pex, pey) + iope_extra, lnk)
    print *, 'pe_nx,pe_ny,iope_extra,lnk', pex, pey, iope_extra, lnk
  endif
  setno = RPN_COMM_create_io_set(min(pex, pey) + iope_extra, 0)
  if (setno <= 0) then
    print *, 'ERROR: IO PE set creation error, quitting', setno
    return
  else
    print *, 'INFO: IO PE set created :', setno
  endif
  me_io = RPN_COMM_is_io_pe(setno)
  n_io = RPN_COMM_io_pe_size(setno)
  do irep = 1, nrep_test
    liste_o = .false.
    liste_o(max_dist_k) = .true.
    liste_o2 = liste_o
    if (me_io /= -1) then
      print *, "I am a busy IO pe!", me_io + 1, ' of', n_io
      do k = 1, dnk
        liste_k(k) = 1 + me_io + (k - 1) * n_io
        if (liste_k(k) > max_dist_k) liste_k(k) = 0
        liste_k(k) = max(liste_k(k), 0)
        liste_k2 = liste_k
        do j = 1, gnj
          do i = 1, gni
            global(i, j, k) = liste_k(k) + j * 100 + i * 10000
          enddo
        enddo
        do j = 1 - halo_y, gnj + halo_y
          do i = 1 - halo_x, gni + halo_x
            glob_l(i, j, k) = liste_k(k) + (j + 100) * 100 + (i + 100) * 100000
          enddo
        enddo
      enddo
      print *, "level list =", liste_k
      do k = dnk, 1, -1
        if (liste_k(k) <= 0) cycle
        print *, "===== source level ==", liste_k(k), "  ====="
        do j = gnj, 1, -1
          if (gni * gnj < MAX_PRINT) print 100, j, global(:, j, k)
        enddo
      enddo
    else
      print *, "I am a relaxed  NON-IO pe !"
    endif
    print *, '=== RPN_COMM_shuf_ezdist ==='
    status = RPN_COMM_shuf_ezdist(setno, grid_id, global, dnk, local, lnk, liste_k, liste_o)
    status = RPN_COMM_shuf_ezdist_h(setno, grid_id, glob_l, dnk, loc_l2, lnk, liste_k, liste_o2)
    print *, 'liste_o, liste_o2 apres=', liste_o, liste_o2
    if (status /= 0) then
      print 101, "ERROR: RPN_COMM_shuf_dist failure, lnk,dnk,n_io ", lnk, dnk, n_io
      return
    endif
  enddo
  nerrors = 0
  nerrors2 = 0
  nvalid = 0
  nvalid2 = 0
  do k = lnk, 1, -1
    if (liste_o(k)) then
      do j = j0, jn
        do i = i0, in
          nvalid = nvalid + 1
          expected = k + (start_y(mey + 1) + j - 1) * 100 + (start_x(mex + 1) + i - 1) * 10000
          if (expected /= local(i, j, k)) nerrors = nerrors + 1
        enddo
      enddo
      do j = minj, maxj
        do i = mini, maxi
          nvalid2 = nvalid2 + 1
          expected = k + (start_y(mey + 1) + j - 1 + 100) * 100 + (start_x(mex + 1) + i - 1 + 100) * 100000
          if (expected /= loc_l2(i, j, k)) then
            if (nerrors2 < 1) print *, 'i,j,k,expected,local(i,j,k)', i, j, k, expected, loc_l2(i, j, k)
            nerrors2 = nerrors2 + 1
          endif
        enddo
      enddo
    else
      print *, 'no data at level', k
    endif
  enddo
  print 101, "nerrors,  nvalid,  npts =", nerrors, nvalid, lnk * (in - i0 + 1) * (jn - j0 + 1), (in - i0 + 1), &
    (jn - j0 + 1), lnk
  print 101, "nerrors2, nvalid2, npts =", nerrors2, nvalid2, lnk * (maxi - mini + 1) * (maxj - minj + 1), &
    (maxi - mini + 1), (maxj - minj + 1), lnk
  if (nerrors /= 0 .and. gni * gnj < MAX_PRINT) then
    do k = lnk, 1, -1
      if (liste_o(k)) then
        print *, "===== level", k, " local ====="
        do j = maxj, minj, -1
          print 100, j, local(:, j, k)
        enddo
      else
        print *, 'no data at level', k
      endif
    enddo
  endif
  ! then the collection: every PE's levels 1..effective_lnk back onto the I/O PEs
  allocate(global2(gni, gnj, dnk))
  do irep = 1, nrep_test
    global2 = 999999
    liste_k2 = -999999
    effective_lnk = 1
    do k = 1, lnk
      if (liste_o(k)) effective_lnk = k
    enddo
    local = 989898
    do k = 1, effective_lnk
      do j = 1, lnj
        do i = 1, lni
          local(i, j, k) = k + (j - 1 + start_y(mey + 1)) * 100 + (i - 1 + start_x(mex + 1)) * 10000
        enddo
      enddo
    enddo
    print *, "====== before  shuf_coll, max lnk ======", effective_lnk
    status = RPN_COMM_shuf_ezcoll(setno, grid_id, global2, dnk, local, effective_lnk, liste_k2)
    if (status /= 0) then
      print 101, "ERROR: RPN_COMM_shuf_coll failure, lnk,dnk,n_io ", effective_lnk, dnk, n_io
      return
    endif
  enddo
  if (me_io /= -1) then
    print *, "====== after shuf_coll ======"
    print *, "DEBUG: pe_me, liste_k2", me, liste_k2
    nerrors = 0
    nvalid = 0
    do k = 1, dnk
      if (liste_k2(k) <= 0) cycle
      do j = 1, gnj
        do i = 1, gni
          expected = liste_k2(k) + j * 100 + i * 10000
          nvalid = nvalid + 1
          if (expected /= global2(i, j, k)) nerrors = nerrors + 1
          if (nerrors == 1) print *, "ERROR: expected, got =", expected, global2(i, j, k)
        enddo
      enddo
    enddo
    print *, "nerrors, npoints =", nerrors, nvalid
    do k = 1, dnk
      if (liste_k2(k) > 0) then
        print *, "===== k, collected level", k, liste_k2(k), "  ====="
        do j = gnj, 1, -1
          if (gni * gnj < MAX_PRINT) print 100, j, global2(:, j, k)
        enddo
      endif
    enddo
  endif
100 format(I3,20I7.6)
101 format(A,20I5)
end subroutine RPN_COMM_io_dist_coll_test
