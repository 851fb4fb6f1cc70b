! PES: 1 2 3 4 6
! TIMEOUT: 120
! ENV: RPNCOMM_CHECK_COLLECTIVES=each
! OUTPUT_HAS@1: test_gem_dist: all checks passed
! OUTPUT_HAS@4: test_gem_dist: all checks passed
! OUTPUT_HAS@6: test_gem_dist: all checks passed
! OUTPUT_HAS@2: PE 0 is in RPN_COMM_barrier while PE 1 is in RPN_COMM_coll
!
! The distribution routines GEM calls (RPN_COMM_dist, RPN_COMM_coll, RPN_COMM_shuf_ezdist,
! RPN_COMM_shuf_ezcoll) on both transports, against values computed from global indices alone, on a
! pex x pey grid (1x1, 2x1, 3x1, 2x2, 3x2) with fields that do not divide evenly:
! - dist: a field f(i, j, k) with a halo of 1 on PE 0, cut with local halos of 2 (non-periodic: the
!   local halo beyond the field's own stays untouched) and periodic along x (the halo wraps around),
!   integers and real*8 (size 2), GEM's way (glbdist: garr without halo, ghalo 0), and a field of
!   360 KB (more than a shared-memory mailbox holds);
! - coll: every PE's tile (and its halo) back into PE 0's field: the interior of every tile, the
!   halo at the field's edges where both arrays have one, the rest untouched; real*8 as glbsum8;
! - shuf_ezdist / shuf_ezcoll: the levels of an I/O PE set spread to every PE of a 2D grid descriptor
!   with halos (zero outside the tile and its inner halos), liste_o set for each level received,
!   and every PE's levels gathered back on the set's members, level k on member mod(k-1, npe);
! then a PE in RPN_COMM_barrier while the others collect fails them all, named (at 2 PEs), and
! RPN_MPI_transpose_setup is refused with one line where there is no MPI (shared memory).
program test_gem_dist
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, pex, pey, mex, mey, ierr, status, nerr
  ! The original's include leaves these undeclared (GEM calls them through implicit interfaces,
  ! with arrays of any type); declared here so that integer and real*8 calls compile in one file.
  interface
    subroutine RPN_COMM_dist(garr, gmini, gmaxi, gminj, gmaxj, nig, njg, nk, ghalox, ghaloy, size, &
                             larr, mini, maxi, minj, maxj, halox, haloy, periodx, periody, status)
!GCC$ ATTRIBUTES NO_ARG_CHECK :: garr, larr
      type(*), dimension(*), intent(IN) :: garr
      type(*), dimension(*), intent(INOUT) :: larr
      integer, intent(IN) :: gmini, gmaxi, gminj, gmaxj, nig, njg, nk, ghalox, ghaloy, size
      integer, intent(IN) :: mini, maxi, minj, maxj, halox, haloy
      logical, intent(IN) :: periodx, periody
      integer, intent(OUT) :: status
    end subroutine RPN_COMM_dist
    subroutine RPN_COMM_coll(garr, gmini, gmaxi, gminj, gmaxj, nig, njg, nk, ghalox, ghaloy, size, &
                             larr, mini, maxi, minj, maxj, halox, haloy, status)
!GCC$ ATTRIBUTES NO_ARG_CHECK :: garr, larr
      type(*), dimension(*), intent(INOUT) :: garr
      type(*), dimension(*), intent(IN) :: larr
      integer, intent(IN) :: gmini, gmaxi, gminj, gmaxj, nig, njg, nk, ghalox, ghaloy, size
      integer, intent(IN) :: mini, maxi, minj, maxj, halox, haloy
      integer, intent(OUT) :: status
    end subroutine RPN_COMM_coll
  end interface
  integer, parameter :: SENT = -77
  nerr = 0
  pex = 0
  pey = 0
#ifdef DIST_TWO_GRIDS
  ! two grids of 2 x (job / 4), their PEs placed column after column: grid rank r at
  ! x = r / pey, y = mod(r, pey) (the original's RPN_COMM_petopo)
  call job_size(npes)
  pey = 2
  pex = npes / 2 / pey
  call RPN_COMM_set_petopo(1, 999999)
  status = RPN_COMM_gridinit(me, npes, pex, pey, 1, 2)
  status = RPN_COMM_mype(me, mex, mey)
  call check(mex == me / pey .and. mey == mod(me, pey), 'the PE placed column after column')
#else
  call RPN_COMM_init(grid_shape, me, npes, pex, pey)
  status = RPN_COMM_mype(me, mex, mey)
#endif
  if (me == 0) write(*, '(A,I0,A,I0,A)') 'test_gem_dist: a ', pex, ' x ', pey, ' grid'

  call dist_case(11, 7, 2, 1, 2, .false.)
  call dist_case(11, 7, 2, 1, 2, .true.)
  call dist_case(9, 5, 1, 0, 0, .false.)
  ! larger than a shared-memory mailbox (64 KiB): the exchange goes through a scratch region
  call dist_case(300, 150, 2, 1, 2, .false.)
  call coll_case(300, 150, 2, 1, 2)
  call dist_gem_way_real8()
  call coll_case(11, 7, 2, 1, 2)
  call coll_case(10, 6, 1, 0, 0)
  call coll_real8()
  call shuf_case(11, 7, 1, 5, 3)
  call shuf_case(9, 8, 0, 3, 2)
  call refused()

  call RPN_COMM_allreduce(nerr, status, 1, 'MPI_INTEGER', 'MPI_SUM', 'GRID', ierr)
  if (me == 0) then
    if (status /= 0) then
      write(*, '(A,I0,A)') 'test_gem_dist: FAILED (', status, ' errors)'
    else
      write(*, '(A)') 'test_gem_dist: all checks passed'
    endif
  endif
  call RPN_COMM_finalize(ierr)
  if (status /= 0) stop 1
contains
#ifdef DIST_TWO_GRIDS
  ! the job's size from the launcher (rpnrun, Open MPI or MPICH), before RPN_COMM_gridinit
  subroutine job_size(n)
    integer, intent(OUT) :: n
    character(len=16) :: v
    integer :: l, i
    character(len=*), parameter :: names(3) = [character(len=20) :: 'RPNCOMM_NPES', 'OMPI_COMM_WORLD_SIZE', 'PMI_SIZE']
    n = 0
    do i = 1, 3
      call get_environment_variable(trim(names(i)), v, l)
      if (l > 0) then
        read(v, *) n
        return
      endif
    enddo
  end subroutine job_size
#endif
  subroutine grid_shape(px, py)
    integer, intent(INOUT) :: px, py
    integer :: n
    call RPN_COMM_size('GRID', n, ierr)
    px = n
    py = 1
    if (n == 4) px = 2
    if (n == 4) py = 2
    if (n == 6) px = 3
    if (n == 6) py = 2
  end subroutine grid_shape

  subroutine check(ok, what)
    logical, intent(IN) :: ok
    character(len=*), intent(IN) :: what
    if (.not. ok) then
      nerr = nerr + 1
      if (nerr < 20) write(*, '(A,I0,A,A)') 'test_gem_dist: PE ', me, ' FAILED ', what
    endif
  end subroutine check

  integer function f(i, j, k)
    integer, intent(IN) :: i, j, k
    f = (k * 1000 + j + 100) * 1000 + i + 100
  end function f

  ! tile p of n points over np PEs as the original's strict cut: ceiling-sized, a shorter last one
  integer function tile(n, np, p)
    integer, intent(IN) :: n, np, p
    tile = (n + np - 1) / np
    if (p == np - 1) tile = n - (np - 1) * tile
  end function tile

  ! global index of local index i on the tile of PE p (periodic: wrapped)
  integer function glob(n, np, p, i, period)
    integer, intent(IN) :: n, np, p, i
    logical, intent(IN) :: period
    glob = p * ((n + np - 1) / np) + i
    if (period .and. glob > n) glob = glob - n
    if (period .and. glob < 1) glob = glob + n
  end function glob

  subroutine dist_case(nig, njg, nk, gh, h, periodx)
    integer, intent(IN) :: nig, njg, nk, gh, h
    logical, intent(IN) :: periodx
    integer, allocatable :: garr(:,:,:), larr(:,:,:)
    integer :: ni, nj, i, j, k, gi, gj, lo, hi, bad
    logical :: inside
    ni = tile(nig, pex, mex)
    nj = tile(njg, pey, mey)
    if (me == 0) then
      allocate(garr(1-gh:nig+gh, 1-gh:njg+gh, nk))
      do k = 1, nk
        do j = 1-gh, njg+gh
          do i = 1-gh, nig+gh
            garr(i, j, k) = f(i, j, k)
          enddo
        enddo
      enddo
    else
      allocate(garr(1, 1, 1))
      garr = SENT
    endif
    allocate(larr(-h:(nig+pex-1)/pex+h+1, 1-h:nj+h, nk))
    larr = SENT
    call RPN_COMM_dist(garr, lbound(garr, 1), ubound(garr, 1), lbound(garr, 2), ubound(garr, 2), nig, njg, nk, &
                       gh, gh, 1, larr, lbound(larr, 1), ubound(larr, 1), 1-h, nj+h, h, h, periodx, .false., status)
    call check(status == 0, 'RPN_COMM_dist status')
    bad = 0
    do k = 1, nk
      do j = lbound(larr, 2), ubound(larr, 2)
        do i = lbound(larr, 1), ubound(larr, 1)
          ! what this PE gets: its tile with the halo h, narrowed to the field's halo gh at an edge
          ! that is not periodic
          lo = 1 - h
          hi = ni + h
          if (.not. periodx .and. mex == 0) lo = 1 - min(h, gh)
          if (.not. periodx .and. mex == pex - 1) hi = ni + min(h, gh)
          inside = i >= lo .and. i <= hi
          lo = 1 - h
          hi = nj + h
          if (mey == 0) lo = 1 - min(h, gh)
          if (mey == pey - 1) hi = nj + min(h, gh)
          inside = inside .and. j >= lo .and. j <= hi
          gi = glob(nig, pex, mex, i, periodx)
          gj = glob(njg, pey, mey, j, .false.)
          if (inside) then
            if (larr(i, j, k) /= f(gi, gj, k)) bad = bad + 1
          else
            if (larr(i, j, k) /= SENT) bad = bad + 1
          endif
        enddo
      enddo
    enddo
    call check(bad == 0, 'RPN_COMM_dist values')
  end subroutine dist_case

  ! as GEM's glbdist / grid_area_mask: garr(1:ni, 1:nj) of real*8 without halo, size 2
  subroutine dist_gem_way_real8()
    integer, parameter :: nig = 13, njg = 8, h = 2
    real(kind=8), allocatable :: garr(:,:), larr(:,:)
    integer :: ni, nj, i, j, bad
    ni = tile(nig, pex, mex)
    nj = tile(njg, pey, mey)
    if (me == 0) then
      allocate(garr(nig, njg))
      do j = 1, njg
        do i = 1, nig
          garr(i, j) = f(i, j, 1) + 0.25d0
        enddo
      enddo
    else
      allocate(garr(1, 1))
    endif
    allocate(larr(1-h:ni+h, 1-h:nj+h))
    larr = -1d0
    call RPN_COMM_dist(garr, 1, nig, 1, njg, nig, njg, 1, 0, 0, 2, larr, 1-h, ni+h, 1-h, nj+h, h, h, &
                       .false., .false., status)
    call check(status == 0, 'RPN_COMM_dist real*8 status')
    bad = 0
    do j = 1-h, nj+h
      do i = 1-h, ni+h
        if (mex == 0 .and. i < 1 .or. mex == pex-1 .and. i > ni .or. mey == 0 .and. j < 1 .or. &
            mey == pey-1 .and. j > nj) then
          if (larr(i, j) /= -1d0) bad = bad + 1
        else
          if (larr(i, j) /= f(glob(nig, pex, mex, i, .false.), glob(njg, pey, mey, j, .false.), 1) + 0.25d0) bad = bad + 1
        endif
      enddo
    enddo
    call check(bad == 0, 'RPN_COMM_dist real*8 values')
  end subroutine dist_gem_way_real8

  subroutine coll_case(nig, njg, nk, gh, h)
    integer, intent(IN) :: nig, njg, nk, gh, h
    integer, allocatable :: garr(:,:,:), larr(:,:,:)
    integer :: ni, nj, i, j, k, bad, e
    ni = tile(nig, pex, mex)
    nj = tile(njg, pey, mey)
    allocate(larr(1-h:ni+h+1, 1-h:nj+h, nk))
    do k = 1, nk
      do j = 1-h, nj+h
        do i = 1-h, ni+h+1
          larr(i, j, k) = f(glob(nig, pex, mex, i, .false.), glob(njg, pey, mey, j, .false.), k)
        enddo
      enddo
    enddo
    if (me == 0) then
      allocate(garr(1-gh-1:nig+gh+1, 1-gh:njg+gh, nk))
    else
      allocate(garr(1, 1, 1))
    endif
    garr = SENT
    call RPN_COMM_coll(garr, lbound(garr, 1), ubound(garr, 1), lbound(garr, 2), ubound(garr, 2), nig, njg, nk, &
                       gh, gh, 1, larr, 1-h, ni+h+1, 1-h, nj+h, h, h, status)
    call check(status == 0, 'RPN_COMM_coll status')
    bad = 0
    if (me == 0) then
      do k = 1, nk
        do j = lbound(garr, 2), ubound(garr, 2)
          do i = lbound(garr, 1), ubound(garr, 1)
            e = SENT
            ! the field and the halo both arrays have
            if (i >= 1 - min(h, gh) .and. i <= nig + min(h, gh) .and. j >= 1 - min(h, gh) .and. &
                j <= njg + min(h, gh)) e = f(i, j, k)
            if (garr(i, j, k) /= e) bad = bad + 1
          enddo
        enddo
      enddo
    else
      if (garr(1, 1, 1) /= SENT) bad = bad + 1
    endif
    call check(bad == 0, 'RPN_COMM_coll values')
  end subroutine coll_case

  ! as GEM's glbsum8: real*8 tiles with a halo into PE 0's wk1_8(G_ni, G_nj, nk), size 2
  subroutine coll_real8()
    integer, parameter :: nig = 10, njg = 9, nk = 3
    real(kind=8), allocatable :: garr(:,:,:), larr(:,:,:)
    integer :: ni, nj, i, j, k, bad
    ni = tile(nig, pex, mex)
    nj = tile(njg, pey, mey)
    allocate(larr(-1:ni+2, -1:nj+2, nk))
    larr = 9d9
    do k = 1, nk
      do j = 1, nj
        do i = 1, ni
          larr(i, j, k) = f(glob(nig, pex, mex, i, .false.), glob(njg, pey, mey, j, .false.), k) * 0.5d0
        enddo
      enddo
    enddo
    if (me == 0) then
      allocate(garr(nig, njg, nk))
    else
      allocate(garr(1, 1, 1))
    endif
    garr = -1d0
    call RPN_COMM_coll(garr, 1, nig, 1, njg, nig, njg, nk, 0, 0, 2, larr, -1, ni+2, -1, nj+2, 0, 0, status)
    call check(status == 0, 'RPN_COMM_coll real*8 status')
    bad = 0
    if (me == 0) then
      do k = 1, nk
        do j = 1, njg
          do i = 1, nig
            if (garr(i, j, k) /= f(i, j, k) * 0.5d0) bad = bad + 1
          enddo
        enddo
      enddo
    endif
    call check(bad == 0, 'RPN_COMM_coll real*8 values')
  end subroutine coll_real8

  ! shuf_ezdist then shuf_ezcoll on a gni x gnj grid descriptor with halo h, lnk local levels, dnk
  ! levels per I/O PE
  subroutine shuf_case(gni, gnj, h, lnk, dnk)
    integer, intent(IN) :: gni, gnj, h, lnk, dnk
    integer :: grid_id, setno, me_io, n_io, ni, nj, mini, maxi, minj, maxj, i, j, k, l, p, bad
    integer :: gi, gj, ilo, ihi, jlo, jhi, hy, e, kk, m, dnkc
    integer, allocatable :: global(:,:,:), local(:,:,:), liste_i(:), liste_c(:)
    logical, allocatable :: liste_o(:), expect_o(:)
    ni = (gni + pex - 1) / pex
    nj = (gnj + pey - 1) / pey
    mini = 1 - h
    maxi = ni + h
    minj = 1 - h
    maxj = nj + h
    grid_id = rpn_comm_create_2dgrid(gni, gnj, mini, maxi, minj, maxj)
    call check(grid_id /= -1, 'create_2dgrid')
    setno = RPN_COMM_create_io_set(min(pex, pey) + 1, 0)
    if (setno <= 0) setno = RPN_COMM_create_io_set(min(pex, pey), 0)
    call check(setno > 0, 'create_io_set')
    me_io = RPN_COMM_is_io_pe(setno)
    n_io = RPN_COMM_io_pe_size(setno)
    allocate(global(gni, gnj, dnk), local(mini:maxi, minj:maxj, lnk), liste_i(dnk), liste_o(lnk), expect_o(lnk))
    allocate(liste_c(dnk))
    ! level of plane k on member m (0-based), 0 past lnk: as GEM's readers number them
    liste_i = 0
    global = SENT
    if (me_io >= 0) then
      do k = 1, dnk
        liste_i(k) = 1 + me_io + (k - 1) * n_io
        if (liste_i(k) > lnk) liste_i(k) = 0
        do j = 1, gnj
          do i = 1, gni
            global(i, j, k) = f(i, j, liste_i(k))
          enddo
        enddo
      enddo
    endif
    local = SENT
    liste_o = .false.
    status = RPN_COMM_shuf_ezdist(setno, grid_id, global, dnk, local, lnk, liste_i, liste_o)
    call check(status == RPN_COMM_OK, 'RPN_COMM_shuf_ezdist status')
    ! the levels any member distributes
    expect_o = .false.
    do m = 0, n_io - 1
      do k = 1, dnk
        l = 1 + m + (k - 1) * n_io
        if (l <= lnk) expect_o(l) = .true.
      enddo
    enddo
    call check(all(liste_o .eqv. expect_o), 'RPN_COMM_shuf_ezdist liste_o')
    ! what a PE receives of a level: its tile, the inner halos, zero elsewhere
    ni = tile(gni, pex, mex)
    nj = tile(gnj, pey, mey)
    hy = h
    if (pey == 1) hy = 0
    ilo = mini
    ihi = maxi
    jlo = 1 - hy
    jhi = nj + hy
    if (mex == 0) ilo = 1
    if (mex == pex - 1) ihi = ni
    if (mey == 0) jlo = 1
    if (mey == pey - 1) jhi = nj
    bad = 0
    do l = 1, lnk
      do j = minj, maxj
        do i = mini, maxi
          gi = mex * ((gni + pex - 1) / pex) + i
          gj = mey * ((gnj + pey - 1) / pey) + j
          if (.not. expect_o(l)) then
            e = SENT
          else if (i >= ilo .and. i <= ihi .and. j >= jlo .and. j <= jhi) then
            e = f(gi, gj, l)
          else
            e = 0
          endif
          if (local(i, j, l) /= e) bad = bad + 1
        enddo
      enddo
    enddo
    call check(bad == 0, 'RPN_COMM_shuf_ezdist values')

    ! and back: every PE's levels 1..lnk (its tile) gathered on the members
    do l = 1, lnk
      do j = minj, maxj
        do i = mini, maxi
          local(i, j, l) = f(mex * ((gni + pex - 1) / pex) + i, mey * ((gnj + pey - 1) / pey) + j, l)
        enddo
      enddo
    enddo
    ! room for the levels each member collects
    dnkc = (lnk + n_io - 1) / n_io
    deallocate(global, liste_c)
    allocate(global(gni, gnj, dnkc), liste_c(dnkc))
    global = SENT
    liste_c = -5
    status = RPN_COMM_shuf_ezcoll(setno, grid_id, global, dnkc, local, lnk, liste_c)
    call check(status == RPN_COMM_OK, 'RPN_COMM_shuf_ezcoll status')
    bad = 0
    if (me_io >= 0) then
      do p = 1, dnkc
        kk = me_io + 1 + (p - 1) * n_io
        if (kk > lnk) kk = 0
        if (liste_c(p) /= kk) bad = bad + 1
        do j = 1, gnj
          do i = 1, gni
            e = SENT
            if (kk > 0) e = f(i, j, kk)
            if (global(i, j, p) /= e) bad = bad + 1
          enddo
        enddo
      enddo
    else
      if (any(liste_c /= -5) .or. any(global /= SENT)) bad = bad + 1
    endif
    call check(bad == 0, 'RPN_COMM_shuf_ezcoll values')
    status = RPN_COMM_free_io_set(setno)
  end subroutine shuf_case

  subroutine refused()
    integer :: garr(1, 1, 1), larr(4, 4, 1), row, col
    larr = 0
    garr = 0
    if (npes == 2) then
      ! PE 1 is elsewhere: both fail, named
      if (me == 0) then
        call RPN_COMM_barrier('GRID', ierr)
        call check(ierr /= RPN_COMM_OK, 'a barrier against a coll')
      else
        call RPN_COMM_coll(garr, 1, 1, 1, 1, 2, 1, 1, 0, 0, 1, larr, 1, 4, 1, 4, 0, 0, status)
        call check(status /= 0, 'a coll against a barrier')
      endif
    endif
    ! no MPI communicators in the shared-memory build (RPN_COMM_datyp gives -1 there): one line,
    ! ierr = -1 (tests/fortran_mpi/test_gem_xz.F90 runs it in the MPI build)
    if (RPN_COMM_datyp('MPI_INTEGER') == -1) then
      row = 0
      col = 0
      call RPN_MPI_transpose_setup(1, 1, row, col, ierr)
      call check(ierr == RPN_COMM_ERROR, 'RPN_MPI_transpose_setup refused without MPI')
    endif
  end subroutine refused
end program test_gem_dist
