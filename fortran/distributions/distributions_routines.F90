! distributions_routines.F90 -- the original RPN_COMM's older distribution routines
!
! External procedures with the original's names and dummy arguments, declared through implicit
! interfaces as the original's were (RPN_COMM_fast_dist has its interface in RPN_COMM.inc). Their
! signatures are rows of fortran/routines.toml (fortran/gen/check_routines.py checks them):
! - RPN_COMM_dist2 / RPN_COMM_coll2: RPN_COMM_dist and RPN_COMM_coll with the sizes of the
!   original's temporary (dt1, dt2: grid PE 0's larr extents), which the library does not need;
! - RPN_COMM_fast_dist: RPN_COMM_dist's cut, periodic halos read from garr's own halo;
! - RPN_COMM_move: a buffer to the grid neighbour in one direction, one from the opposite one;
! - RPN_COMM_io_dist_coll_check: whether a field can be cut for the I/O distributions;
! - RPN_COMM_gather_e1y3, _e1x3, _e2y3, _e2x3: the outer edges of three arrays gathered over
!   the PE's column (y3) or row (x3), the first and last columns (e1) or rows (e2);
! - RPN_COMM_shuf_dist, _shuf_coll, _shuf_ezdist_h: RPN_COMM_shuf_ezdist's and _ezcoll's
!   distributions of levels from and to an I/O PE set, on the caller's tables of tiles, or from
!   a global array with the local halo;
! - RPN_COMM_grid_redist, _grid_redist_n: a window of levels, in pieces on the grid's PEs,
!   reassembled on output PEs.

! The edges' packing, shared by the four gathers.
module rpn_comm_edge_gathers
  implicit none
  private
  public :: gather_edges
contains
  ! Edges 1..6 of block dest(size, m, 6): srca's, srcc's, srcr's first (1, 2, 3) and last (4, 5,
  ! 6) column (across = 1: i = 1 and n1, along j) or row (across = 2: j = 1 and n2, along i),
  ! level k of point p at position (p-1)*n3 + k; m is the original's odd length
  ! 2*((n*n3)/2)+1, the rest zero. The blocks of all the PEs of the column ('NS') or row ('EW')
  ! are gathered, in rank order, into dest.
  subroutine gather_edges(srca, srcc, srcr, min1, max1, min2, max2, n1, n2, n3, dest, size, across, com)
    integer, intent(IN) :: min1, max1, min2, max2, n1, n2, n3, size, across
    real, intent(IN) :: srca(size, min1:max1, min2:max2, n3), srcc(size, min1:max1, min2:max2, n3)
    real, intent(IN) :: srcr(size, min1:max1, min2:max2, n3)
    real, intent(INOUT) :: dest(*)
    character(len=*), intent(IN) :: com
    real, dimension(:, :, :), allocatable :: block
    integer :: n, m, p, k, ierr
    external :: RPN_COMM_allgather
    n = merge(n2, n1, across == 1)
    m = 2 * ((n * n3) / 2) + 1
    allocate(block(size, m, 6))
    block = 0.0
    do p = 1, n
      do k = 1, n3
        if (across == 1) then
          block(:, (p - 1) * n3 + k, 1) = srca(:, 1, p, k)
          block(:, (p - 1) * n3 + k, 4) = srca(:, n1, p, k)
          block(:, (p - 1) * n3 + k, 2) = srcc(:, 1, p, k)
          block(:, (p - 1) * n3 + k, 5) = srcc(:, n1, p, k)
          block(:, (p - 1) * n3 + k, 3) = srcr(:, 1, p, k)
          block(:, (p - 1) * n3 + k, 6) = srcr(:, n1, p, k)
        else
          block(:, (p - 1) * n3 + k, 1) = srca(:, p, 1, k)
          block(:, (p - 1) * n3 + k, 4) = srca(:, p, n2, k)
          block(:, (p - 1) * n3 + k, 2) = srcc(:, p, 1, k)
          block(:, (p - 1) * n3 + k, 5) = srcc(:, p, n2, k)
          block(:, (p - 1) * n3 + k, 3) = srcr(:, p, 1, k)
          block(:, (p - 1) * n3 + k, 6) = srcr(:, p, n2, k)
        end if
      end do
    end do
    call RPN_COMM_allgather(block, size * m * 6, 'MPI_REAL', dest, size * m * 6, 'MPI_REAL', com, ierr)
    deallocate(block)
  end subroutine gather_edges
end module rpn_comm_edge_gathers

! RPN_COMM_dist with dt1, dt2 (the original sizes its temporary with them; here they are unused).
subroutine RPN_COMM_dist2(garr, gmini, gmaxi, gminj, gmaxj, nig, njg, nk, ghalox, ghaloy, size, &
                          larr, mini, maxi, minj, maxj, halox, haloy, periodx, periody, status, dt1, dt2)
  use rpn_comm_collectives_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: garr, larr
  type(*), dimension(*), intent(IN) :: garr
  type(*), dimension(*), intent(INOUT) :: larr
  integer, intent(IN) :: gmini, gmaxi, gminj, gmaxj, nig, njg, nk, ghalox, ghaloy, size
  integer, intent(IN) :: mini, maxi, minj, maxj, halox, haloy
  logical, intent(IN) :: periodx, periody
  integer, intent(OUT) :: status
  integer, intent(IN) :: dt1, dt2
  integer(C_INT) :: px, py
  px = merge(1_C_INT, 0_C_INT, periodx)
  py = merge(1_C_INT, 0_C_INT, periody)
  status = rpncomm_dist(garr, int(gmini, C_INT), int(gmaxi, C_INT), int(gminj, C_INT), int(gmaxj, C_INT), &
                        int(nig, C_INT), int(njg, C_INT), int(nk, C_INT), int(ghalox, C_INT), int(ghaloy, C_INT), &
                        int(size, C_INT), larr, int(mini, C_INT), int(maxi, C_INT), int(minj, C_INT), &
                        int(maxj, C_INT), int(halox, C_INT), int(haloy, C_INT), px, py)
end subroutine RPN_COMM_dist2

! RPN_COMM_coll with dt1, dt2 (unused, as in RPN_COMM_dist2).
subroutine RPN_COMM_coll2(garr, gmini, gmaxi, gminj, gmaxj, nig, njg, nk, ghalox, ghaloy, size, &
                          larr, mini, maxi, minj, maxj, halox, haloy, status, dt1, dt2)
  use rpn_comm_collectives_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: garr, larr
  type(*), dimension(*), intent(INOUT) :: garr
  type(*), dimension(*), intent(IN) :: larr
  integer, intent(IN) :: gmini, gmaxi, gminj, gmaxj, nig, njg, nk, ghalox, ghaloy, size
  integer, intent(IN) :: mini, maxi, minj, maxj, halox, haloy
  integer, intent(OUT) :: status
  integer, intent(IN) :: dt1, dt2
  status = rpncomm_coll(garr, int(gmini, C_INT), int(gmaxi, C_INT), int(gminj, C_INT), int(gmaxj, C_INT), &
                        int(nig, C_INT), int(njg, C_INT), int(nk, C_INT), int(ghalox, C_INT), int(ghaloy, C_INT), &
                        int(size, C_INT), larr, int(mini, C_INT), int(maxi, C_INT), int(minj, C_INT), &
                        int(maxj, C_INT), int(halox, C_INT), int(haloy, C_INT))
end subroutine RPN_COMM_coll2

! Grid PE 0's garr(size, gmini:gmaxi, gminj:gmaxj, nk) cut into every PE's
! larr(size, mini:maxi, minj:maxj, nk): each PE's tile with halos halox, haloy, none beyond a
! non-periodic edge; along a periodic axis the halo comes from garr's (ghalo >= halo); status 0
! or -1.
subroutine RPN_COMM_fast_dist(garr, gmini, gmaxi, gminj, gmaxj, nig, njg, nk, ghalox, ghaloy, size, &
                              larr, mini, maxi, minj, maxj, halox, haloy, periodx, periody, status)
  use rpn_comm_distributions_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: garr, larr
  type(*), dimension(*), intent(IN) :: garr
  type(*), dimension(*), intent(INOUT) :: larr
  integer, intent(IN) :: gmini, gmaxi, gminj, gmaxj, nig, njg, nk, ghalox, ghaloy, size
  integer, intent(IN) :: mini, maxi, minj, maxj, halox, haloy
  logical, intent(IN) :: periodx, periody
  integer, intent(OUT) :: status
  integer(C_INT) :: px, py
  px = merge(1_C_INT, 0_C_INT, periodx)
  py = merge(1_C_INT, 0_C_INT, periody)
  status = rpncomm_fast_dist(garr, int(gmini, C_INT), int(gmaxi, C_INT), int(gminj, C_INT), int(gmaxj, C_INT), &
                             int(nig, C_INT), int(njg, C_INT), int(nk, C_INT), int(ghalox, C_INT), &
                             int(ghaloy, C_INT), int(size, C_INT), larr, int(mini, C_INT), int(maxi, C_INT), &
                             int(minj, C_INT), int(maxj, C_INT), int(halox, C_INT), int(haloy, C_INT), px, py)
end subroutine RPN_COMM_fast_dist

! sendcount elements of type mtyp to the grid neighbour in direction dest ('N', 'S', 'E', 'W'),
! recvcount from the opposite neighbour; the grid wraps around when periodicity is .true.
! (else the edge PEs skip the missing side); ierr 0 or -1.
subroutine RPN_COMM_move(sendbuf, sendcount, mtyp, dest, recvbuf, recvcount, periodicity, ierr)
  use rpn_comm_distributions_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf, recvbuf
  type(*), dimension(*), intent(IN) :: sendbuf
  type(*), dimension(*), intent(INOUT) :: recvbuf
  integer, intent(IN) :: sendcount, recvcount
  character(len=*), intent(IN) :: mtyp, dest
  logical, intent(IN) :: periodicity
  integer, intent(OUT) :: ierr
  ierr = rpncomm_move(sendbuf, int(sendcount, C_INT), mtyp, int(len(mtyp), C_SIZE_T), dest, &
                      int(len(dest), C_SIZE_T), recvbuf, int(recvcount, C_INT), &
                      merge(1_C_INT, 0_C_INT, periodicity))
end subroutine RPN_COMM_move

! .true. when a gni x gnj field with halos halo_x, halo_y can be cut over the PE grid for the
! I/O distributions (the last tile along each axis holds at least max(1, halo) points); else
! .false. after the original's "CFG: ERROR" lines.
function RPN_COMM_io_dist_coll_check(gni, gnj, halo_x, halo_y) result(status)
  use rpn_comm_distributions_binding
  use rpn_comm_output_flush, only: rpn_comm_flush_units
  implicit none
  logical :: status
  integer, intent(IN) :: gni, gnj, halo_x, halo_y
  call rpn_comm_flush_units()
  status = rpncomm_io_dist_coll_check(int(gni, C_INT), int(gnj, C_INT), int(halo_x, C_INT), int(halo_y, C_INT)) == 1
end function RPN_COMM_io_dist_coll_check

! First and last columns (i = 1, n1) of srca, srcc, srcr, gathered over the PE's column.
subroutine RPN_COMM_gather_e1y3(srca, srcc, srcr, min1, max1, min2, max2, n1, n2, n3, dest, size)
  use rpn_comm_edge_gathers, only: gather_edges
  implicit none
  integer, intent(IN) :: min1, max1, min2, max2, n1, n2, n3, size
  real, intent(IN) :: srca(size, min1:max1, min2:max2, n3), srcc(size, min1:max1, min2:max2, n3)
  real, intent(IN) :: srcr(size, min1:max1, min2:max2, n3)
  real, intent(INOUT) :: dest(*)
  call gather_edges(srca, srcc, srcr, min1, max1, min2, max2, n1, n2, n3, dest, size, 1, 'NS')
end subroutine RPN_COMM_gather_e1y3

! First and last columns (i = 1, n1) of srca, srcc, srcr, gathered over the PE's row.
subroutine RPN_COMM_gather_e1x3(srca, srcc, srcr, min1, max1, min2, max2, n1, n2, n3, dest, size)
  use rpn_comm_edge_gathers, only: gather_edges
  implicit none
  integer, intent(IN) :: min1, max1, min2, max2, n1, n2, n3, size
  real, intent(IN) :: srca(size, min1:max1, min2:max2, n3), srcc(size, min1:max1, min2:max2, n3)
  real, intent(IN) :: srcr(size, min1:max1, min2:max2, n3)
  real, intent(INOUT) :: dest(*)
  call gather_edges(srca, srcc, srcr, min1, max1, min2, max2, n1, n2, n3, dest, size, 1, 'EW')
end subroutine RPN_COMM_gather_e1x3

! First and last rows (j = 1, n2) of srca, srcc, srcr, gathered over the PE's column.
subroutine RPN_COMM_gather_e2y3(srca, srcc, srcr, min1, max1, min2, max2, n1, n2, n3, dest, size)
  use rpn_comm_edge_gathers, only: gather_edges
  implicit none
  integer, intent(IN) :: min1, max1, min2, max2, n1, n2, n3, size
  real, intent(IN) :: srca(size, min1:max1, min2:max2, n3), srcc(size, min1:max1, min2:max2, n3)
  real, intent(IN) :: srcr(size, min1:max1, min2:max2, n3)
  real, intent(INOUT) :: dest(*)
  call gather_edges(srca, srcc, srcr, min1, max1, min2, max2, n1, n2, n3, dest, size, 2, 'NS')
end subroutine RPN_COMM_gather_e2y3

! First and last rows (j = 1, n2) of srca, srcc, srcr, gathered over the PE's row.
subroutine RPN_COMM_gather_e2x3(srca, srcc, srcr, min1, max1, min2, max2, n1, n2, n3, dest, size)
  use rpn_comm_edge_gathers, only: gather_edges
  implicit none
  integer, intent(IN) :: min1, max1, min2, max2, n1, n2, n3, size
  real, intent(IN) :: srca(size, min1:max1, min2:max2, n3), srcc(size, min1:max1, min2:max2, n3)
  real, intent(IN) :: srcr(size, min1:max1, min2:max2, n3)
  real, intent(INOUT) :: dest(*)
  call gather_edges(srca, srcc, srcr, min1, max1, min2, max2, n1, n2, n3, dest, size, 2, 'EW')
end subroutine RPN_COMM_gather_e2x3

! Levels liste_i(1:dnk) of each I/O PE's global(gni, gnj, dnk) into every PE's
! local(mini:maxi, minj:maxj, lnk), the tiles as start_x, count_x (each column of PEs) and
! start_y, count_y (each row) say; gni, gnj the field's, or with a halo as wide on each side;
! liste_o(l) becomes .true. where level l came; periodic distributions refused; status 0 or -1.
subroutine RPN_COMM_shuf_dist(setno, global, gni, gnj, dnk, local, mini, maxi, minj, maxj, lnk, liste_i, liste_o, &
                              start_x, count_x, nx, start_y, count_y, ny, periodx, periody, status)
  use rpn_comm_distributions_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: global, local
  integer, intent(IN) :: setno, gni, gnj, dnk, mini, maxi, minj, maxj, lnk, nx, ny
  type(*), dimension(*), intent(IN) :: global
  type(*), dimension(*), intent(INOUT) :: local
  integer, intent(IN), dimension(nx) :: start_x, count_x
  integer, intent(IN), dimension(ny) :: start_y, count_y
  integer, intent(IN), dimension(dnk) :: liste_i
  logical, intent(INOUT), dimension(lnk) :: liste_o
  logical, intent(IN) :: periodx, periody
  integer, intent(OUT) :: status
  integer(C_INT), dimension(max(dnk, 0)) :: li
  integer(C_INT), dimension(max(lnk, 0)) :: lo
  integer(C_INT), dimension(max(nx, 0)) :: sx, cx
  integer(C_INT), dimension(max(ny, 0)) :: sy, cy
  li = int(liste_i, C_INT)
  lo = merge(1_C_INT, 0_C_INT, liste_o)
  sx = int(start_x, C_INT)
  cx = int(count_x, C_INT)
  sy = int(start_y, C_INT)
  cy = int(count_y, C_INT)
  status = rpncomm_shuf_dist(int(setno, C_INT), global, int(gni, C_INT), int(gnj, C_INT), int(dnk, C_INT), local, &
                             int(mini, C_INT), int(maxi, C_INT), int(minj, C_INT), int(maxj, C_INT), int(lnk, C_INT), &
                             li, lo, sx, cx, int(nx, C_INT), sy, cy, int(ny, C_INT), &
                             merge(1_C_INT, 0_C_INT, periodx), merge(1_C_INT, 0_C_INT, periody))
  liste_o = lo /= 0
end subroutine RPN_COMM_shuf_dist

! Every PE's local(mini:maxi, minj:maxj, nk) levels gathered on the I/O PEs of set setno (level k
! on member mod(k-1, npe), in its global(:, :, (k-1)/npe + 1), the field at global's origin), the
! tiles as the tables say; on the members liste_o(i) is the level in global(:, :, i), 0 for none;
! status 0 or -1.
subroutine RPN_COMM_shuf_coll(setno, global, gni, gnj, dnk, local, mini, maxi, minj, maxj, nk, liste_o, &
                              start_x, count_x, nx, start_y, count_y, ny, status)
  use rpn_comm_distributions_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: global, local
  integer, intent(IN) :: setno, gni, gnj, dnk, mini, maxi, minj, maxj, nk, nx, ny
  type(*), dimension(*), intent(INOUT) :: global
  type(*), dimension(*), intent(IN) :: local
  integer, intent(IN), dimension(nx) :: start_x, count_x
  integer, intent(IN), dimension(ny) :: start_y, count_y
  integer, intent(INOUT), dimension(dnk) :: liste_o
  integer, intent(OUT) :: status
  integer(C_INT), dimension(max(dnk, 0)) :: lo
  integer(C_INT), dimension(max(nx, 0)) :: sx, cx
  integer(C_INT), dimension(max(ny, 0)) :: sy, cy
  lo = int(liste_o, C_INT)
  sx = int(start_x, C_INT)
  cx = int(count_x, C_INT)
  sy = int(start_y, C_INT)
  cy = int(count_y, C_INT)
  status = rpncomm_shuf_coll(int(setno, C_INT), global, int(gni, C_INT), int(gnj, C_INT), int(dnk, C_INT), local, &
                             int(mini, C_INT), int(maxi, C_INT), int(minj, C_INT), int(maxj, C_INT), int(nk, C_INT), &
                             lo, sx, cx, int(nx, C_INT), sy, cy, int(ny, C_INT))
  liste_o = lo
end subroutine RPN_COMM_shuf_coll

! RPN_COMM_shuf_ezdist from a global array that has the local halo (1 - mini, 1 - minj of the grid
! descriptor) on each side: the tiles at the field's edges receive their outer halo from it too.
function RPN_COMM_shuf_ezdist_h(setno, grid_id, global, dnk, local, lnk, liste_i, liste_o) result(status)
  use rpn_comm_distributions_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: global, local
  integer, intent(IN) :: setno, grid_id, dnk, lnk
  type(*), dimension(*), intent(IN) :: global
  type(*), dimension(*), intent(INOUT) :: local
  integer, intent(IN), dimension(dnk) :: liste_i
  logical, intent(INOUT), dimension(lnk) :: liste_o
  integer :: status
  integer(C_INT), dimension(max(dnk, 0)) :: li
  integer(C_INT), dimension(max(lnk, 0)) :: lo
  li = int(liste_i, C_INT)
  lo = merge(1_C_INT, 0_C_INT, liste_o)
  status = rpncomm_shuf_ezdist_h(int(setno, C_INT), int(grid_id, C_INT), global, int(dnk, C_INT), local, &
                                 int(lnk, C_INT), li, lo)
  liste_o = lo /= 0
end function RPN_COMM_shuf_ezdist_h

! Every PE's part zin(i0:in, j0:jn, 1:nk) of the window ix0:ixn x jy0:jyn of a gni x gnj field
! (its tile's part, ltok 4-byte words per point already counted in the x dimensions) reassembled
! in zout(ix0:ixn, jy0:jyn, nz) of the output PEs (columns outpe_x, rows outpe_y of the grid): the
! levels dealt to the columns in turn (a block of consecutive levels each), a column's k-th to its
! row 1 + mod(k-1, noutpe_y), plane 1 + (k-1)/noutpe_y; zlist(plane) the level there, -1 elsewhere;
! 1 on success, -1 on an error.
function RPN_COMM_grid_redist(zin, mini, maxi, i0, in, minj, maxj, j0, jn, nk, zout, ix0, ixn, jy0, jyn, nz, zlist, &
                              gni, gnj, outpe_x, noutpe_x, outpe_y, noutpe_y, ltok)
  use rpn_comm_distributions_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: zin, zout
  integer :: RPN_COMM_grid_redist
  integer, intent(IN) :: mini, maxi, i0, in, minj, maxj, j0, jn, nk, ix0, ixn, jy0, jyn, nz
  integer, intent(IN) :: gni, gnj, noutpe_x, noutpe_y, ltok
  type(*), dimension(*), intent(IN) :: zin
  type(*), dimension(*), intent(INOUT) :: zout
  integer, intent(OUT), dimension(nz) :: zlist
  integer, intent(IN), dimension(noutpe_x) :: outpe_x
  integer, intent(IN), dimension(noutpe_y) :: outpe_y
  integer(C_INT), dimension(max(nz, 0)) :: zl
  integer(C_INT), dimension(max(noutpe_x, 0)) :: ox
  integer(C_INT), dimension(max(noutpe_y, 0)) :: oy
  integer(C_INT) :: status
  zl = -1
  ox = int(outpe_x, C_INT)
  oy = int(outpe_y, C_INT)
  status = rpncomm_grid_redist(zin, int(mini, C_INT), int(maxi, C_INT), int(i0, C_INT), int(in, C_INT), &
                               int(minj, C_INT), int(maxj, C_INT), int(j0, C_INT), int(jn, C_INT), int(nk, C_INT), &
                               zout, int(ix0, C_INT), int(ixn, C_INT), int(jy0, C_INT), int(jyn, C_INT), &
                               int(nz, C_INT), zl, int(gni, C_INT), int(gnj, C_INT), ox, int(noutpe_x, C_INT), &
                               oy, int(noutpe_y, C_INT), int(ltok, C_INT), 0_C_INT)
  zlist = zl
  RPN_COMM_grid_redist = merge(1, -1, status == 0)
end function RPN_COMM_grid_redist

! RPN_COMM_grid_redist of zin(ltok, mini:maxi, minj:maxj, nk) into zout(ltok, ix0:ixn, jy0:jyn, nz):
! points of ltok 4-byte words, x counted in points (the field cut by points over the grid).
function RPN_COMM_grid_redist_n(zin, mini, maxi, i0, in, minj, maxj, j0, jn, nk, zout, ix0, ixn, jy0, jyn, nz, &
                                zlist, gni, gnj, outpe_x, noutpe_x, outpe_y, noutpe_y, ltok)
  use rpn_comm_distributions_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: zin, zout
  integer :: RPN_COMM_grid_redist_n
  integer, intent(IN) :: mini, maxi, i0, in, minj, maxj, j0, jn, nk, ix0, ixn, jy0, jyn, nz
  integer, intent(IN) :: gni, gnj, noutpe_x, noutpe_y, ltok
  type(*), dimension(*), intent(IN) :: zin
  type(*), dimension(*), intent(INOUT) :: zout
  integer, intent(OUT), dimension(nz) :: zlist
  integer, intent(IN), dimension(noutpe_x) :: outpe_x
  integer, intent(IN), dimension(noutpe_y) :: outpe_y
  integer(C_INT), dimension(max(nz, 0)) :: zl
  integer(C_INT), dimension(max(noutpe_x, 0)) :: ox
  integer(C_INT), dimension(max(noutpe_y, 0)) :: oy
  integer(C_INT) :: status
  zl = -1
  ox = int(outpe_x, C_INT)
  oy = int(outpe_y, C_INT)
  status = rpncomm_grid_redist(zin, int(mini, C_INT), int(maxi, C_INT), int(i0, C_INT), int(in, C_INT), &
                               int(minj, C_INT), int(maxj, C_INT), int(j0, C_INT), int(jn, C_INT), int(nk, C_INT), &
                               zout, int(ix0, C_INT), int(ixn, C_INT), int(jy0, C_INT), int(jyn, C_INT), &
                               int(nz, C_INT), zl, int(gni, C_INT), int(gnj, C_INT), ox, int(noutpe_x, C_INT), &
                               oy, int(noutpe_y, C_INT), int(ltok, C_INT), 1_C_INT)
  zlist = zl
  RPN_COMM_grid_redist_n = merge(1, -1, status == 0)
end function RPN_COMM_grid_redist_n

! The original's self-test of RPN_COMM_fast_dist (params unused, as in the original): a 120 x 60
! field with halos of 1 from grid PE 0 to every PE, each PE counting the points of its larr
! inside the field and those that differ from the field's value, printed as the original prints
! them ("INFO: npts, nerrors = ", then larr's rows where there are errors).
subroutine RPN_COMM_fast_dist_test(nparams, params)
  use rpn_comm_distributions_binding
  use rpn_comm_grid_binding, only: rpncomm_grid_map
  implicit none
  integer, intent(IN) :: nparams
  integer, intent(IN), dimension(nparams) :: params
  integer, parameter :: nig = 120, njg = 60, halo = 1
  integer, dimension(:,:,:,:), allocatable :: garr, larr
  integer :: me, mex, mey, pex, pey, ierr, status, i, j, ii, jj, npts, nerrors, expected
  integer :: lmini, lmaxi, lminj, lmaxj, mini, maxi, minj, maxj
  integer(C_INT), dimension(:), allocatable :: xtab, ytab
  integer, dimension(:), allocatable :: count_x, depl_x, count_y, depl_y
  integer, external :: RPN_COMM_mype, RPN_COMM_limit
  external :: RPN_COMM_size
  status = RPN_COMM_mype(me, mex, mey)
  call RPN_COMM_size('GRID', pex, ierr)
  allocate(xtab(pex), ytab(pex))
  status = rpncomm_grid_map(xtab, ytab, int(pex, C_INT))
  pey = maxval(ytab) + 1
  pex = maxval(xtab) + 1
  allocate(count_x(pex), depl_x(pex), count_y(pey), depl_y(pey))
  if (me == 0) then
    allocate(garr(1, 1-halo:nig+halo, 1-halo:njg+halo, 1))
    garr = 99099099
    do j = 1, njg
      do i = 1, nig
        garr(1, i, j, 1) = i * 1000000 + j * 1000 + 1
      enddo
    enddo
  else
    allocate(garr(1, 1, 1, 1))
    garr = 88088088
  endif
  ierr = RPN_COMM_limit(mex, pex, 1, nig, lmini, lmaxi, count_x, depl_x)
  mini = 1 - halo
  maxi = (lmaxi - lmini + 1) + halo
  ierr = RPN_COMM_limit(mey, pey, 1, njg, lminj, lmaxj, count_y, depl_y)
  minj = 1 - halo
  maxj = (lmaxj - lminj + 1) + halo
  allocate(larr(1, mini:maxi, minj:maxj, 1))
  larr = 77077077
  status = rpncomm_fast_dist(garr, 1_C_INT-halo, nig+halo, 1_C_INT-halo, njg+halo, nig, njg, 1_C_INT, halo, halo, &
                             1_C_INT, larr, mini, maxi, minj, maxj, halo, halo, 0_C_INT, 0_C_INT)
  npts = 0
  nerrors = 0
  do j = minj, maxj
    jj = j + lminj - 1
    if (jj < 1 .or. jj > njg) cycle
    do i = mini, maxi
      ii = i + lmini - 1
      if (ii < 1 .or. ii > nig) cycle
      npts = npts + 1
      expected = ii * 1000000 + jj * 1000 + 1
      if (expected /= larr(1, i, j, 1)) nerrors = nerrors + 1
    enddo
  enddo
  if (me == 0) print *, 'INFO: global ni,nj = ', nig, njg
  print *, 'INFO: local ni,nj = ', count_x(mex + 1), count_y(mey + 1)
  print *, 'INFO: npts, nerrors = ', npts, nerrors
  if (nerrors > 0) then
    print *, 'Local array'
    do j = maxj, minj, -1
      print '(I3,15I9)', j, larr(1, mini:maxi, j, 1)
    enddo
  endif
end subroutine RPN_COMM_fast_dist_test
