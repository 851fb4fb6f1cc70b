! grid_topology.F90 -- where this PE is on its grid and how a global dimension is split over it
!
! External procedures with the original RPN_COMM's names and dummy arguments (their link names
! are the plain Fortran ones, so code written for the original links unchanged); each only
! converts its arguments for the C ABI of the Rust core (logical <-> int, character(len=*) ->
! pointer + length, assumed-shape -> contiguous copy + count), which checks them and reports errors.
! Their signatures are rows of fortran/routines.toml, which generates their interfaces;
! fortran/gen/check_routines.py (make check) checks each routine here against its row.

! ==================================================================== PE grid: topology

function RPN_COMM_mype(Me, Me_x, Me_y) result(status)
  use rpn_comm_grid_binding
  implicit none
  integer, intent(OUT) :: Me, Me_x, Me_y
  integer :: status
  integer(C_INT) :: m, mx, my
  status = rpncomm_mype(m, mx, my)
  Me = m
  Me_x = mx
  Me_y = my
end function RPN_COMM_mype

subroutine RPN_COMM_size(com, size, ierr)
  use rpn_comm_grid_binding
  implicit none
  character(len=*), intent(IN) :: com
  integer, intent(INOUT) :: size    ! unchanged on a PE outside the communicator, as in the original
  integer, intent(OUT) :: ierr
  integer(C_INT) :: n
  n = size
  ierr = rpncomm_comm_size(com, len(com, kind=C_SIZE_T), n)
  size = n
end subroutine RPN_COMM_size

subroutine RPN_COMM_rank(com, rank, ierr)
  use rpn_comm_grid_binding
  implicit none
  character(len=*), intent(IN) :: com
  integer, intent(OUT) :: rank    ! left as it is on a PE outside com, as in the original
  integer, intent(OUT) :: ierr
  integer(C_INT), parameter :: UNSET = -huge(1_C_INT)
  integer(C_INT) :: r
  r = UNSET
  ierr = rpncomm_rank(com, len(com, kind=C_SIZE_T), r)
  if (r /= UNSET) rank = r
end subroutine RPN_COMM_rank

subroutine RPN_COMM_carac(npex, npey, me, medomm, mex, mey, sizex, sizey, &
                          ismaster, mymaster, mybloc, myblocx, myblocy, blocme, domname)
  use rpn_comm_grid_binding
  implicit none
  integer, intent(OUT) :: npex, npey, me, mex, mey, sizex, sizey, ismaster
  integer, intent(OUT) :: mymaster, mybloc, myblocx, myblocy, blocme
  integer, intent(OUT) :: medomm
  character(len=*), intent(OUT) :: domname
  integer(C_INT), dimension(14) :: v
  v = -1
  if (rpncomm_carac(v) /= 0) v = -1
  npex = v(1); npey = v(2); me = v(3); medomm = v(4); mex = v(5); mey = v(6)
  sizex = v(7); sizey = v(8); ismaster = v(9); mymaster = v(10); mybloc = v(11)
  myblocx = v(12); myblocy = v(13); blocme = v(14)
  domname = 'DOM1'     ! one domain, named as the original names it
end subroutine RPN_COMM_carac

subroutine RPN_COMM_bloctopo(blocme, blocmex, blocmey, blocsizex, blocsizey)
  use rpn_comm_grid_binding
  implicit none
  integer, intent(OUT) :: blocme, blocmex, blocmey
  integer, intent(OUT) :: blocsizex, blocsizey
  integer(C_INT), dimension(5) :: v
  v = -1
  if (rpncomm_bloctopo(v) /= 0) v = -1
  blocme = v(1); blocmex = v(2); blocmey = v(3); blocsizex = v(4); blocsizey = v(5)
end subroutine RPN_COMM_bloctopo

! The original's decomposition of gmin..gmax over npe PEs (strict mode): PE my_id gets
! lmini..lmaxi; count and offset (from gmin) of every PE. Returns 0, or -1 when it cannot be cut.
function RPN_COMM_limit(my_id, npe, gmin, gmax, lmini, lmaxi, count, offset) result(status)
  use rpn_comm_grid_binding
  implicit none
  integer, intent(IN) :: my_id, npe, gmin, gmax
  integer, intent(OUT) :: lmini, lmaxi
  integer, dimension(npe), intent(OUT) :: count, offset
  integer :: status
  integer(C_INT) :: lo, hi
  integer(C_INT), dimension(max(npe, 1)) :: c, o
  lo = -1
  hi = -1
  c = 0
  o = 0
  status = rpncomm_limit(int(my_id, C_INT), int(npe, C_INT), int(gmin, C_INT), int(gmax, C_INT), lo, hi, c, o)
  lmini = lo
  lmaxi = hi
  count = c(1:npe)
  offset = o(1:npe)
end function RPN_COMM_limit

integer function RPN_COMM_limit_2(my_id, npe, gmin, gmax, lmini, lmaxi, count, offset, relax)
  use rpn_comm_grid_binding
  implicit none
  integer, intent(IN) :: my_id, npe, gmin, gmax, relax
  integer, intent(OUT) :: lmini, lmaxi
  integer, intent(OUT) :: count(npe), offset(npe)
  integer(C_INT) :: lo, hi
  integer(C_INT), dimension(max(npe, 1)) :: c, o
  lo = -1
  hi = -1
  c = 0
  o = 0
  RPN_COMM_limit_2 = rpncomm_limit_2(int(my_id, C_INT), int(npe, C_INT), int(gmin, C_INT), int(gmax, C_INT), &
                                     lo, hi, c, o, int(relax, C_INT))
  lmini = lo
  lmaxi = hi
  if (npe > 0) then
    count(1:npe) = c(1:npe)
    offset(1:npe) = o(1:npe)
  endif
end function RPN_COMM_limit_2

integer function RPN_COMM_topo_2(nxg, minx, maxx, nxl, nxlmax, halo, nx0, alongx, fill, relax, abort)
  use rpn_comm_grid_binding
  implicit none
  integer, intent(IN) :: nxg, halo, relax
  logical, intent(IN) :: alongx, fill, abort
  integer, intent(OUT) :: minx, maxx, nxl, nxlmax, nx0
  integer(C_INT) :: mn, mx, nl, nlmax, n0, ax, fl
  integer :: ierr
  ax = 0
  fl = 0
  if (alongx) ax = 1
  if (fill) fl = 1
  RPN_COMM_topo_2 = rpncomm_topo_2(int(nxg, C_INT), mn, mx, nl, nlmax, int(halo, C_INT), n0, ax, fl, int(relax, C_INT))
  if (RPN_COMM_topo_2 /= 0) then
    ! the library has said why; as the original, abort = .true. ends the job
    if (abort) then
      call RPN_COMM_finalize(ierr)
      error stop 1
    endif
    return
  endif
  minx = mn
  maxx = mx
  nxl = nl
  nxlmax = nlmax
  nx0 = n0
end function RPN_COMM_topo_2

! The original's older form: RPN_COMM_topo_2 in the strict mode (relax 0), ending the job when the
! split fails.
integer function RPN_COMM_topo(nxg, minx, maxx, nxl, nxlmax, halo, nx0, alongx, fill)
  implicit none
  integer, intent(IN) :: nxg, halo
  logical, intent(IN) :: alongx, fill
  integer, intent(OUT) :: minx, maxx, nxl, nxlmax, nx0
  integer, external :: RPN_COMM_topo_2
  RPN_COMM_topo = RPN_COMM_topo_2(nxg, minx, maxx, nxl, nxlmax, halo, nx0, alongx, fill, 0, .true.)
end function RPN_COMM_topo

subroutine RPN_COMM_set_petopo(sizx, sizy)
  use rpn_comm_grid_binding
  implicit none
  integer, intent(IN) :: sizx, sizy
  integer(C_INT) :: status
  status = rpncomm_set_petopo(int(sizx, C_INT), int(sizy, C_INT))
end subroutine RPN_COMM_set_petopo

subroutine RPN_COMM_mydomain(call_back, mydomain)
  use rpn_comm_grid_binding
  implicit none
  external :: call_back
  integer, intent(OUT) :: mydomain
  integer :: ndomains, offset, err, ierr
  integer(C_INT) :: d
  ndomains = 1
  offset = 0
  err = 0
  call call_back(ndomains, offset, err)
  d = -1
  if (rpncomm_mydomain(int(ndomains, C_INT), int(offset, C_INT), int(err, C_INT), d) /= 0) then
    ! the library has said why (on every PE); as the original, the job ends
    call RPN_COMM_finalize(ierr)
    error stop 1
  endif
  mydomain = d
end subroutine RPN_COMM_mydomain

function RPN_COMM_get_my_domain_1(call_back) result(domain)
  implicit none
  external :: call_back
  integer :: domain
  integer :: d
  call RPN_COMM_mydomain(call_back, d)
  domain = d
end function RPN_COMM_get_my_domain_1

function RPN_COMM_get_my_domain_2(ndomains, offset) result(domain)
  use rpn_comm_grid_binding
  implicit none
  integer, intent(IN) :: ndomains, offset
  integer :: domain
  integer :: ierr
  integer(C_INT) :: d
  d = -1
  if (rpncomm_mydomain(int(ndomains, C_INT), int(offset, C_INT), 0_C_INT, d) /= 0) then
    call RPN_COMM_finalize(ierr)
    error stop 1
  endif
  domain = d
end function RPN_COMM_get_my_domain_2

function rpn_comm_create_2dgrid(gni, gnj, mini, maxi, minj, maxj) result(grid_id)
  use rpn_comm_grid_binding
  implicit none
  integer, intent(IN) :: gni, gnj, mini, maxi, minj, maxj
  integer :: grid_id
  integer(C_INT) :: id
  id = -1
  if (rpncomm_create_2dgrid(int(gni, C_INT), int(gnj, C_INT), int(mini, C_INT), int(maxi, C_INT), &
                            int(minj, C_INT), int(maxj, C_INT), id) /= 0) id = -1
  grid_id = id
end function rpn_comm_create_2dgrid

function rpn_comm_get_2dgrid(grid_id, dim_i, dim_j, gni, gnj, mini, maxi, minj, maxj, &
                             starti, counti, startj, countj) result(status)
  use rpn_comm_grid_binding
  implicit none
  integer, intent(IN) :: grid_id, dim_i, dim_j
  integer, intent(OUT) :: gni, gnj, mini, maxi, minj, maxj
  integer, intent(OUT), dimension(dim_i) :: starti, counti
  integer, intent(OUT), dimension(dim_j) :: startj, countj
  integer :: status
  integer(C_INT) :: dims(6)
  integer(C_INT), dimension(max(dim_i, 1)) :: si, ci
  integer(C_INT), dimension(max(dim_j, 1)) :: sj, cj
  integer(C_INT), dimension(14) :: v
  ! as the original: gni and gnj are -1 on failure, the rest is not touched
  gni = -1
  gnj = -1
  status = -1
  if (rpncomm_get_2dgrid(int(grid_id, C_INT), int(dim_i, C_INT), int(dim_j, C_INT), dims, si, ci, sj, cj) /= 0) return
  gni = dims(1); gnj = dims(2); mini = dims(3); maxi = dims(4); minj = dims(5); maxj = dims(6)
  ! as the original, only the first npex (npey) elements are written
  if (rpncomm_carac(v) /= 0) return
  starti(1:v(1)) = si(1:v(1))
  counti(1:v(1)) = ci(1:v(1))
  startj(1:v(2)) = sj(1:v(2))
  countj(1:v(2)) = cj(1:v(2))
  status = 0
end function rpn_comm_get_2dgrid

! The tile of an nig x njg field on this PE (every tile but the last of a row or column holds
! ceil(nig / Pex) x ceil(njg / Pey) points): 0, or RPN_COMM_ERROR where this PE's tile is empty.
! peri and perj (periodic axes) change nothing, as in the original.
integer function RPN_COMM_topo_xy(nig, njg, mini, maxi, minj, maxj, nil, njl, haloi, haloj, peri, perj)
  use rpn_comm_grid_binding
  implicit none
  integer, intent(IN) :: nig, njg, haloi, haloj
  integer, intent(OUT) :: nil, njl, mini, maxi, minj, maxj
  logical, intent(IN) :: peri, perj
  integer(C_INT) :: b(6), has_points
  has_points = 0
  RPN_COMM_topo_xy = rpncomm_topo_xy(int(nig, C_INT), int(njg, C_INT), int(haloi, C_INT), int(haloj, C_INT), b, has_points)
  if (RPN_COMM_topo_xy /= 0) return
  mini = b(1)
  maxi = b(2)
  minj = b(3)
  maxj = b(4)
  nil = b(5)
  njl = b(6)
  if (has_points == 0) RPN_COMM_topo_xy = -1
end function RPN_COMM_topo_xy

! The rank, in communicator 'GRID', 'MULTIGRID' or 'ALLGRIDS', of the PE at (x, y) of grid grd of
! multigrid sgrd (-1: this PE's); -1 where they are outside the job.
integer function RPN_COMM_get_pe(x, y, grd, sgrd, communicator)
  use rpn_comm_grid_binding
  implicit none
  integer, intent(IN) :: x, y, grd, sgrd
  character(len=*), intent(IN) :: communicator
  integer(C_INT) :: pe, status
  pe = -1
  status = rpncomm_get_pe(int(x, C_INT), int(y, C_INT), int(grd, C_INT), int(sgrd, C_INT), &
                          communicator, len(communicator, kind=C_SIZE_T), pe)
  RPN_COMM_get_pe = pe
end function RPN_COMM_get_pe

! The entry (from 1) of the table of block distributions (RPN_COMM_bloc, RPN_COMM_bloc_create)
! holding nblocx x nblocy blocks, -1 when none does; with set, those blocks are the ones 'BLOC'
! and 'BLOCMASTER' designate from now on. Not collective.
integer function RPN_COMM_bloc_find(nblocx, nblocy, set)
  use rpn_comm_grid_binding
  implicit none
  integer, intent(IN) :: nblocx, nblocy
  logical, intent(IN) :: set
  integer(C_INT) :: entry, status
  entry = -1
  status = rpncomm_bloc_find(int(nblocx, C_INT), int(nblocy, C_INT), merge(1_C_INT, 0_C_INT, set), entry)
  RPN_COMM_bloc_find = entry
end function RPN_COMM_bloc_find
