! rpn_comm_gem.F90 -- the routines GEM calls beyond the windows, as external procedures
!
! Names and dummy arguments are the original RPN_COMM's (4.6.3); each routine only converts its
! arguments for the C ABI of the Rust core (src/ffi/gem.rs), which checks them and reports errors.
! MPI handles (RPN_COMM_comm, RPN_COMM_datyp, requests) are the Fortran MPI integers, for the
! caller's own MPI calls; they exist in the MPI build only (the shared-memory build refuses those
! routines with one line). The include file RPN_COMM_gem.inc declares the routines the original's
! include declares, with the same interfaces.

module rpn_comm_gem_binding
  use ISO_C_BINDING
  implicit none
  interface
    function rpncomm_comm_fortran(name, name_len, fcomm) result(status) bind(C, name='rpncomm_comm_fortran')
      import :: C_INT, C_CHAR, C_SIZE_T
      character(kind=C_CHAR), dimension(*), intent(IN) :: name
      integer(C_SIZE_T), intent(IN), value :: name_len
      integer(C_INT), intent(INOUT) :: fcomm
      integer(C_INT) :: status
    end function rpncomm_comm_fortran

    function rpncomm_datyp_fortran(name, name_len, ftype) result(status) bind(C, name='rpncomm_datyp_fortran')
      import :: C_INT, C_CHAR, C_SIZE_T
      character(kind=C_CHAR), dimension(*), intent(IN) :: name
      integer(C_SIZE_T), intent(IN), value :: name_len
      integer(C_INT), intent(INOUT) :: ftype
      integer(C_INT) :: status
    end function rpncomm_datyp_fortran

    function rpncomm_rank(name, name_len, rank) result(status) bind(C, name='rpncomm_rank')
      import :: C_INT, C_CHAR, C_SIZE_T
      character(kind=C_CHAR), dimension(*), intent(IN) :: name
      integer(C_SIZE_T), intent(IN), value :: name_len
      integer(C_INT), intent(INOUT) :: rank
      integer(C_INT) :: status
    end function rpncomm_rank

    function rpncomm_carac(values) result(status) bind(C, name='rpncomm_carac')
      import :: C_INT
      integer(C_INT), dimension(14), intent(OUT) :: values
      integer(C_INT) :: status
    end function rpncomm_carac

    function rpncomm_bloctopo(values) result(status) bind(C, name='rpncomm_bloctopo')
      import :: C_INT
      integer(C_INT), dimension(5), intent(OUT) :: values
      integer(C_INT) :: status
    end function rpncomm_bloctopo

    function rpncomm_limit_2(my_id, npe, gmin, gmax, lmini, lmaxi, count, offset, relax) result(status) &
             bind(C, name='rpncomm_limit_2')
      import :: C_INT
      integer(C_INT), intent(IN), value :: my_id, npe, gmin, gmax, relax
      integer(C_INT), intent(OUT) :: lmini, lmaxi
      integer(C_INT), dimension(*), intent(OUT) :: count, offset
      integer(C_INT) :: status
    end function rpncomm_limit_2

    function rpncomm_topo_2(nxg, minx, maxx, nxl, nxlmax, halo, nx0, alongx, fill, relax) result(status) &
             bind(C, name='rpncomm_topo_2')
      import :: C_INT
      integer(C_INT), intent(IN), value :: nxg, halo, alongx, fill, relax
      integer(C_INT), intent(OUT) :: minx, maxx, nxl, nxlmax, nx0
      integer(C_INT) :: status
    end function rpncomm_topo_2

    function rpncomm_set_petopo(sizx, sizy) result(status) bind(C, name='rpncomm_set_petopo')
      import :: C_INT
      integer(C_INT), intent(IN), value :: sizx, sizy
      integer(C_INT) :: status
    end function rpncomm_set_petopo

    function rpncomm_reduce(sendbuf, recvbuf, count, dtype, dtype_len, op, op_len, root, com, com_len) &
             result(status) bind(C, name='rpncomm_reduce')
      import :: C_INT, C_CHAR, C_SIZE_T
      type(*), dimension(*), intent(IN)    :: sendbuf
      type(*), dimension(*), intent(INOUT) :: recvbuf
      integer(C_INT), intent(IN), value :: count, root
      character(kind=C_CHAR), dimension(*), intent(IN) :: dtype, op, com
      integer(C_SIZE_T), intent(IN), value :: dtype_len, op_len, com_len
      integer(C_INT) :: status
    end function rpncomm_reduce

    function rpncomm_gather(sendbuf, sendcount, sendtype, sendtype_len, recvbuf, reccount, rectype, rectype_len, &
                            root, com, com_len) result(status) bind(C, name='rpncomm_gather')
      import :: C_INT, C_CHAR, C_SIZE_T
      type(*), dimension(*), intent(IN)    :: sendbuf
      type(*), dimension(*), intent(INOUT) :: recvbuf
      integer(C_INT), intent(IN), value :: sendcount, reccount, root
      character(kind=C_CHAR), dimension(*), intent(IN) :: sendtype, rectype, com
      integer(C_SIZE_T), intent(IN), value :: sendtype_len, rectype_len, com_len
      integer(C_INT) :: status
    end function rpncomm_gather

    function rpncomm_send(buf, count, dtype, dtype_len, dest, tag, com, com_len) result(status) &
             bind(C, name='rpncomm_send')
      import :: C_INT, C_CHAR, C_SIZE_T
      type(*), dimension(*), intent(IN) :: buf
      integer(C_INT), intent(IN), value :: count, dest, tag
      character(kind=C_CHAR), dimension(*), intent(IN) :: dtype, com
      integer(C_SIZE_T), intent(IN), value :: dtype_len, com_len
      integer(C_INT) :: status
    end function rpncomm_send

    function rpncomm_recv(buf, count, dtype, dtype_len, source, tag, com, com_len, received) result(status) &
             bind(C, name='rpncomm_recv')
      import :: C_INT, C_CHAR, C_SIZE_T
      type(*), dimension(*), intent(INOUT) :: buf
      integer(C_INT), intent(IN), value :: count, source, tag
      character(kind=C_CHAR), dimension(*), intent(IN) :: dtype, com
      integer(C_SIZE_T), intent(IN), value :: dtype_len, com_len
      integer(C_INT), intent(INOUT) :: received
      integer(C_INT) :: status
    end function rpncomm_recv

    function rpncomm_isend(buf, count, dtype, dtype_len, dest, tag, com, com_len, request) result(status) &
             bind(C, name='rpncomm_isend')
      import :: C_INT, C_CHAR, C_SIZE_T
      type(*), dimension(*), intent(IN) :: buf
      integer(C_INT), intent(IN), value :: count, dest, tag
      character(kind=C_CHAR), dimension(*), intent(IN) :: dtype, com
      integer(C_SIZE_T), intent(IN), value :: dtype_len, com_len
      integer(C_INT), intent(INOUT) :: request
      integer(C_INT) :: status
    end function rpncomm_isend

    function rpncomm_irecv(buf, count, dtype, dtype_len, source, tag, com, com_len, request) result(status) &
             bind(C, name='rpncomm_irecv')
      import :: C_INT, C_CHAR, C_SIZE_T
      type(*), dimension(*), intent(INOUT) :: buf
      integer(C_INT), intent(IN), value :: count, source, tag
      character(kind=C_CHAR), dimension(*), intent(IN) :: dtype, com
      integer(C_SIZE_T), intent(IN), value :: dtype_len, com_len
      integer(C_INT), intent(INOUT) :: request
      integer(C_INT) :: status
    end function rpncomm_irecv

    function rpncomm_waitall_nostat(nreq, requests) result(status) bind(C, name='rpncomm_waitall_nostat')
      import :: C_INT
      integer(C_INT), intent(IN), value :: nreq
      integer(C_INT), dimension(*), intent(INOUT) :: requests
      integer(C_INT) :: status
    end function rpncomm_waitall_nostat

    function rpncomm_create_io_set(npes, method, setno) result(status) bind(C, name='rpncomm_create_io_set')
      import :: C_INT
      integer(C_INT), intent(IN), value :: npes, method
      integer(C_INT), intent(OUT) :: setno
      integer(C_INT) :: status
    end function rpncomm_create_io_set

    function rpncomm_free_io_set(setno, freed) result(status) bind(C, name='rpncomm_free_io_set')
      import :: C_INT
      integer(C_INT), intent(IN), value :: setno
      integer(C_INT), intent(OUT) :: freed
      integer(C_INT) :: status
    end function rpncomm_free_io_set

    function rpncomm_is_io_pe(setno, ordinal) result(status) bind(C, name='rpncomm_is_io_pe')
      import :: C_INT
      integer(C_INT), intent(IN), value :: setno
      integer(C_INT), intent(OUT) :: ordinal
      integer(C_INT) :: status
    end function rpncomm_is_io_pe

    function rpncomm_io_pe_gridid(setno, n, ordinal) result(status) bind(C, name='rpncomm_io_pe_gridid')
      import :: C_INT
      integer(C_INT), intent(IN), value :: setno, n
      integer(C_INT), intent(OUT) :: ordinal
      integer(C_INT) :: status
    end function rpncomm_io_pe_gridid

    function rpncomm_io_pe_size(setno, population) result(status) bind(C, name='rpncomm_io_pe_size')
      import :: C_INT
      integer(C_INT), intent(IN), value :: setno
      integer(C_INT), intent(OUT) :: population
      integer(C_INT) :: status
    end function rpncomm_io_pe_size

    function rpncomm_io_pe_comm(setno, fcomm) result(status) bind(C, name='rpncomm_io_pe_comm')
      import :: C_INT
      integer(C_INT), intent(IN), value :: setno
      integer(C_INT), intent(INOUT) :: fcomm
      integer(C_INT) :: status
    end function rpncomm_io_pe_comm

    function rpncomm_io_pe_valid_set(x, y, npes, penx, peny, diag, method) result(status) &
             bind(C, name='rpncomm_io_pe_valid_set')
      import :: C_INT
      integer(C_INT), dimension(*), intent(OUT) :: x, y
      integer(C_INT), intent(IN), value :: npes, penx, peny, diag, method
      integer(C_INT) :: status
    end function rpncomm_io_pe_valid_set

    function rpncomm_mydomain(ndomains, offset, err, domain) result(status) bind(C, name='rpncomm_mydomain')
      import :: C_INT
      integer(C_INT), intent(IN), value :: ndomains, offset, err
      integer(C_INT), intent(OUT) :: domain
      integer(C_INT) :: status
    end function rpncomm_mydomain

    function rpncomm_transpose(za, min1, max1, n1g, n2, min3, max3, n3g, zb, kind, size) &
             result(status) bind(C, name='rpncomm_transpose')
      import :: C_INT
      type(*), dimension(*), intent(INOUT) :: za, zb
      integer(C_INT), intent(IN), value :: min1, max1, n1g, n2, min3, max3, n3g, kind, size
      integer(C_INT) :: status
    end function rpncomm_transpose
    function rpncomm_gridinit_check(multigrids, grids, place) result(status) bind(C, name='rpncomm_gridinit_check')
      import :: C_INT
      integer(C_INT), intent(IN), value :: multigrids, grids
      integer(C_INT), dimension(3), intent(OUT) :: place
      integer(C_INT) :: status
    end function rpncomm_gridinit_check
    function rpncomm_grid_place(place) result(status) bind(C, name='rpncomm_grid_place')
      import :: C_INT
      integer(C_INT), dimension(3), intent(OUT) :: place
      integer(C_INT) :: status
    end function rpncomm_grid_place
    function rpncomm_create_2dgrid(gni, gnj, mini, maxi, minj, maxj, grid_id) result(status) &
        bind(C, name='rpncomm_create_2dgrid')
      import :: C_INT
      integer(C_INT), intent(IN), value :: gni, gnj, mini, maxi, minj, maxj
      integer(C_INT), intent(OUT) :: grid_id
      integer(C_INT) :: status
    end function rpncomm_create_2dgrid
    function rpncomm_get_2dgrid(grid_id, dim_i, dim_j, dims, starti, counti, startj, countj) result(status) &
        bind(C, name='rpncomm_get_2dgrid')
      import :: C_INT
      integer(C_INT), intent(IN), value :: grid_id, dim_i, dim_j
      integer(C_INT), intent(OUT) :: dims(*), starti(*), counti(*), startj(*), countj(*)
      integer(C_INT) :: status
    end function rpncomm_get_2dgrid
    function rpncomm_split_by_socket(origcomm, values) result(status) bind(C, name='rpncomm_split_by_socket')
      import :: C_INT
      integer(C_INT), intent(IN), value :: origcomm
      integer(C_INT), intent(OUT) :: values(7)
      integer(C_INT) :: status
    end function rpncomm_split_by_socket
  end interface
contains
  ! the Userinit of the gridinit forms without one: keeps the grid RPN_COMM_init presets (npes x 1)
  subroutine rpncomm_keep_grid(pex, pey)
    integer, intent(INOUT) :: pex, pey
    pex = pex
    pey = pey
  end subroutine rpncomm_keep_grid
end module rpn_comm_gem_binding

! ================================================================= MPI handles and ranks

integer function RPN_COMM_comm(com)
  use rpn_comm_gem_binding
  implicit none
  character(len=*), intent(IN) :: com
  integer(C_INT) :: f, status
  f = -1      ! stays so where there is no MPI handle (the shared-memory build: refused)
  status = rpncomm_comm_fortran(com, len(com, kind=C_SIZE_T), f)
  RPN_COMM_comm = f
end function RPN_COMM_comm

integer function RPN_COMM_datyp(data_int)
  use rpn_comm_gem_binding
  implicit none
  character(len=*), intent(IN) :: data_int
  integer(C_INT) :: f, status
  f = -1
  status = rpncomm_datyp_fortran(data_int, len(data_int, kind=C_SIZE_T), f)
  RPN_COMM_datyp = f
end function RPN_COMM_datyp

subroutine RPN_COMM_rank(com, rank, ierr)
  use rpn_comm_gem_binding
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

! ======================================================================= grid topology

subroutine RPN_COMM_carac(npex, npey, me, medomm, mex, mey, sizex, sizey, &
                          ismaster, mymaster, mybloc, myblocx, myblocy, blocme, domname)
  use rpn_comm_gem_binding
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
  use rpn_comm_gem_binding
  implicit none
  integer, intent(OUT) :: blocme, blocmex, blocmey
  integer, intent(OUT) :: blocsizex, blocsizey
  integer(C_INT), dimension(5) :: v
  v = -1
  if (rpncomm_bloctopo(v) /= 0) v = -1
  blocme = v(1); blocmex = v(2); blocmey = v(3); blocsizex = v(4); blocsizey = v(5)
end subroutine RPN_COMM_bloctopo

integer function RPN_COMM_limit_2(my_id, npe, gmin, gmax, lmini, lmaxi, count, offset, relax)
  use rpn_comm_gem_binding
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
  use rpn_comm_gem_binding
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

subroutine RPN_COMM_set_petopo(sizx, sizy)
  use rpn_comm_gem_binding
  implicit none
  integer, intent(IN) :: sizx, sizy
  integer(C_INT) :: status
  status = rpncomm_set_petopo(int(sizx, C_INT), int(sizy, C_INT))
end subroutine RPN_COMM_set_petopo

! ================================================================ rooted collectives

subroutine RPN_COMM_reduce(sendbuf, recbuf, count, datatype, op, root, com, ierr)
  use rpn_comm_gem_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf, recbuf
  type(*), dimension(*), intent(IN)    :: sendbuf
  type(*), dimension(*), intent(INOUT) :: recbuf
  integer, intent(IN) :: count, root
  character(len=*), intent(IN) :: datatype, op, com
  integer, intent(OUT) :: ierr
  ierr = rpncomm_reduce(sendbuf, recbuf, int(count, C_INT), datatype, len(datatype, kind=C_SIZE_T), &
                        op, len(op, kind=C_SIZE_T), int(root, C_INT), com, len(com, kind=C_SIZE_T))
end subroutine RPN_COMM_reduce

subroutine RPN_COMM_gather(sendbuf, sendcount, sendtype, recbuf, reccount, rectype, root, com, ierr)
  use rpn_comm_gem_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf, recbuf
  type(*), dimension(*), intent(IN)    :: sendbuf
  type(*), dimension(*), intent(INOUT) :: recbuf
  integer, intent(IN) :: sendcount, reccount, root
  character(len=*), intent(IN) :: sendtype, rectype, com
  integer, intent(OUT) :: ierr
  ierr = rpncomm_gather(sendbuf, int(sendcount, C_INT), sendtype, len(sendtype, kind=C_SIZE_T), &
                        recbuf, int(reccount, C_INT), rectype, len(rectype, kind=C_SIZE_T),    &
                        int(root, C_INT), com, len(com, kind=C_SIZE_T))
end subroutine RPN_COMM_gather

! ============================================================= point to point (MPI build)

subroutine RPN_COMM_send(buffer, count, datatype, dest, tag, com, ierr)
  use rpn_comm_gem_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: buffer
  type(*), dimension(*), intent(IN) :: buffer
  integer, intent(IN) :: count, dest, tag
  character(len=*), intent(IN) :: datatype, com
  integer, intent(OUT) :: ierr
  ierr = rpncomm_send(buffer, int(count, C_INT), datatype, len(datatype, kind=C_SIZE_T), &
                      int(dest, C_INT), int(tag, C_INT), com, len(com, kind=C_SIZE_T))
end subroutine RPN_COMM_send

subroutine RPN_COMM_recv(buffer, count, datatype, source, tag, com, status, ierr)
  use rpn_comm_gem_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: buffer
  type(*), dimension(*), intent(INOUT) :: buffer
  integer, intent(IN) :: count, source, tag
  character(len=*), intent(IN) :: datatype, com
  integer, intent(OUT) :: status     ! as the original: the number of elements received
  integer, intent(OUT) :: ierr
  integer(C_INT) :: n
  n = 0
  ierr = rpncomm_recv(buffer, int(count, C_INT), datatype, len(datatype, kind=C_SIZE_T), &
                      int(source, C_INT), int(tag, C_INT), com, len(com, kind=C_SIZE_T), n)
  status = n
end subroutine RPN_COMM_recv

subroutine RPN_COMM_isend(buffer, count, datatype, dest, tag, com, request, ierr)
  use rpn_comm_gem_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: buffer
  type(*), dimension(*), intent(IN) :: buffer
  integer, intent(IN) :: count, dest, tag
  character(len=*), intent(IN) :: datatype, com
  integer, intent(INOUT) :: request
  integer, intent(OUT) :: ierr
  integer(C_INT) :: r
  r = request
  ierr = rpncomm_isend(buffer, int(count, C_INT), datatype, len(datatype, kind=C_SIZE_T), &
                       int(dest, C_INT), int(tag, C_INT), com, len(com, kind=C_SIZE_T), r)
  request = r
end subroutine RPN_COMM_isend

subroutine RPN_COMM_irecv(buffer, count, datatype, source, tag, com, request, ierr)
  use rpn_comm_gem_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: buffer
  type(*), dimension(*), intent(INOUT) :: buffer
  integer, intent(IN) :: count, source, tag
  character(len=*), intent(IN) :: datatype, com
  integer, intent(INOUT) :: request
  integer, intent(OUT) :: ierr
  integer(C_INT) :: r
  r = request
  ierr = rpncomm_irecv(buffer, int(count, C_INT), datatype, len(datatype, kind=C_SIZE_T), &
                       int(source, C_INT), int(tag, C_INT), com, len(com, kind=C_SIZE_T), r)
  request = r
end subroutine RPN_COMM_irecv

subroutine RPN_COMM_waitall_nostat(nreq, req, ierr)
  use rpn_comm_gem_binding
  implicit none
  integer, intent(IN) :: nreq
  integer, dimension(nreq), intent(INOUT) :: req
  integer, intent(OUT) :: ierr
  integer(C_INT), dimension(max(nreq, 1)) :: r
  if (nreq > 0) r(1:nreq) = req(1:nreq)
  ierr = rpncomm_waitall_nostat(int(nreq, C_INT), r)
  if (nreq > 0) req(1:nreq) = r(1:nreq)
end subroutine RPN_COMM_waitall_nostat

! ==================================================================== I/O PE sets

function RPN_COMM_create_io_set(npes, method) result(setno)
  use rpn_comm_gem_binding
  implicit none
  integer, intent(IN) :: npes
  integer, intent(IN) :: method
  integer :: setno
  integer(C_INT) :: n
  n = -1
  if (rpncomm_create_io_set(int(npes, C_INT), int(method, C_INT), n) /= 0) n = -1
  setno = n
end function RPN_COMM_create_io_set

function RPN_COMM_free_io_set(setno) result(freed)
  use rpn_comm_gem_binding
  implicit none
  integer, intent(IN) :: setno
  integer :: freed
  integer(C_INT) :: n
  n = -1
  if (rpncomm_free_io_set(int(setno, C_INT), n) /= 0) n = -1
  freed = n
end function RPN_COMM_free_io_set

function RPN_COMM_is_io_pe(setno) result(ordinal)
  use rpn_comm_gem_binding
  implicit none
  integer, intent(IN) :: setno
  integer :: ordinal
  integer(C_INT) :: n
  n = -1
  if (rpncomm_is_io_pe(int(setno, C_INT), n) /= 0) n = -1
  ordinal = n
end function RPN_COMM_is_io_pe

function RPN_COMM_io_pe_gridid(setno, n) result(ordinal)
  use rpn_comm_gem_binding
  implicit none
  integer, intent(IN) :: setno
  integer, intent(IN) :: n
  integer :: ordinal
  integer(C_INT) :: r
  r = -1
  if (rpncomm_io_pe_gridid(int(setno, C_INT), int(n, C_INT), r) /= 0) r = -1
  ordinal = r
end function RPN_COMM_io_pe_gridid

function RPN_COMM_io_pe_size(setno) result(population)
  use rpn_comm_gem_binding
  implicit none
  integer, intent(IN) :: setno
  integer :: population
  integer(C_INT) :: n
  n = -1
  if (rpncomm_io_pe_size(int(setno, C_INT), n) /= 0) n = -1
  population = n
end function RPN_COMM_io_pe_size

function RPN_COMM_io_pe_comm(setno) result(communicator)
  use rpn_comm_gem_binding
  implicit none
  integer, intent(IN) :: setno
  integer :: communicator
  integer(C_INT) :: f, status
  f = -1      ! stays so where there is no MPI handle (the shared-memory build: refused)
  status = rpncomm_io_pe_comm(int(setno, C_INT), f)
  communicator = f
end function RPN_COMM_io_pe_comm

function RPN_COMM_io_pe_valid_set(x, y, npes, penx, peny, diag, method) result(status)
  use rpn_comm_gem_binding
  implicit none
  integer, intent(IN) :: npes
  integer, dimension(npes), intent(OUT) :: x
  integer, dimension(npes), intent(OUT) :: y
  integer, intent(IN) :: penx, peny
  integer, intent(IN) :: method
  logical, intent(IN) :: diag
  integer :: status
  integer(C_INT), dimension(max(npes, 1)) :: cx, cy
  integer(C_INT) :: d
  d = 0
  if (diag) d = 1
  cx = -1
  cy = -1
  status = rpncomm_io_pe_valid_set(cx, cy, int(npes, C_INT), int(penx, C_INT), int(peny, C_INT), d, int(method, C_INT))
  if (npes > 0) then
    x(1:npes) = cx(1:npes)
    y(1:npes) = cy(1:npes)
  endif
end function RPN_COMM_io_pe_valid_set

! ======================================================================== domains

subroutine RPN_COMM_mydomain(call_back, mydomain)
  use rpn_comm_gem_binding
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
  use rpn_comm_gem_binding
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

! ================================================================ distribution

! The limited-area FFT solver's distributed transpose (za(size,min1:max1,n2,n3g) <->
! zb(size,n2,min3:max3,n1g), type +-1 along x, +-2 along y; docs/gem.md). No status, as the
! original: a refusal is the library's one line, the arrays untouched.
subroutine RPN_COMM_transpose(za, min1, max1, n1g, n2, min3, max3, n3g, zb, type, size)
  use rpn_comm_gem_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: za, zb
  type(*), dimension(*), intent(INOUT) :: za, zb
  integer, intent(IN) :: min1, max1, n1g, n2, min3, max3, n3g, type, size
  integer(C_INT) :: status
  status = rpncomm_transpose(za, int(min1, C_INT), int(max1, C_INT), int(n1g, C_INT), int(n2, C_INT), &
                             int(min3, C_INT), int(max3, C_INT), int(n3g, C_INT), zb, int(type, C_INT), &
                             int(size, C_INT))
end subroutine RPN_COMM_transpose

! ====================================================== grid setup (RPN_COMM_gridinit and friends)

! RPN_COMM_init with counts of grids, as the original: the job (one domain) is cut into MultiGrids
! multigrids of Grids grids each, consecutive ranks; in every grid its PE 0 calls Userinit (when Pex
! or Pey is 0) and its choice becomes the grid's. Pelocal and Petotal are this PE's rank in its grid
! and the grid's size; the value is the grid's number in its multigrid when Grids > 1, else the
! multigrid's number. Counts that do not cut the job into equal grids are refused on every PE and,
! as the original, end the job. A second call keeps the grids (the library says so).
integer function RPN_COMM_init_multi_level(Userinit, Pelocal, Petotal, Pex, Pey, MultiGrids, Grids)
  use rpn_comm_gem_binding
  use rpn_comm_c_binding, only: rpncomm_init, rpncomm_init_first, rpncomm_flush_at_stop, rpncomm_set_grid
  use rpn_comm_output_flush, only: rpn_comm_flush_units
  implicit none
  external :: Userinit
  integer, intent(OUT)   :: Pelocal, Petotal
  integer, intent(INOUT) :: Pex, Pey
  integer, intent(IN)    :: MultiGrids
  integer, intent(IN)    :: Grids
  integer :: ierr
  integer(C_INT) :: rank, npes, px, py
  integer(C_INT), dimension(3) :: place
  RPN_COMM_init_multi_level = -1
  if (rpncomm_init(rank, npes) /= 0) error stop 1
  px = 0
  py = 0
  if (rpncomm_init_first(px, py) /= 0) then
    ! a second call: the grids stay, Userinit is not called again
    Pex = px
    Pey = py
    place = -1
    if (rpncomm_grid_place(place) /= 0) error stop 1
    Pelocal = place(1)
    Petotal = place(2)
    RPN_COMM_init_multi_level = place(3)
    return
  endif
  if (rpncomm_gridinit_check(int(MultiGrids, C_INT), int(Grids, C_INT), place) /= 0) then
    call RPN_COMM_finalize(ierr)   ! the library has said why, on every PE
    error stop 1
  endif
  if (rpncomm_flush_at_stop(transfer(c_funloc(rpn_comm_flush_units), C_NULL_PTR)) /= 0) error stop 1
  px = Pex
  py = Pey
  if (place(1) == 0 .and. (Pex == 0 .or. Pey == 0)) then
    px = place(2)     ! preset to npes x 1 of the grid, as the original
    py = 1
    call Userinit(px, py)
  endif
  if (rpncomm_set_grid(px, py) /= 0) error stop 1   ! the library has said why, on every PE
  Pex = px
  Pey = py
  Pelocal = place(1)
  Petotal = place(2)
  RPN_COMM_init_multi_level = place(3)
end function RPN_COMM_init_multi_level

integer function RPN_COMM_init_multigrid(Userinit, Pelocal, Petotal, Pex, Pey, MultiGrids)
  implicit none
  external :: Userinit
  integer, intent(OUT)   :: Pelocal, Petotal
  integer, intent(INOUT) :: Pex, Pey
  integer, intent(IN)    :: MultiGrids
  integer, external :: RPN_COMM_init_multi_level
  RPN_COMM_init_multigrid = RPN_COMM_init_multi_level(Userinit, Pelocal, Petotal, Pex, Pey, MultiGrids, 1)
end function RPN_COMM_init_multigrid

! the specifics of the generic RPN_COMM_gridinit (RPN_COMM_gem.inc), as the original's: without
! Userinit the grid is Pex x Pey, or npes x 1 when Pex or Pey is 0; without Pex, Pey, Userinit chooses

function RPN_COMM_init1(Userinit, Pelocal, Petotal) result(grid)
  implicit none
  external :: Userinit
  integer, intent(OUT) :: Pelocal, Petotal
  integer :: grid
  integer, external :: RPN_COMM_init_multi_level
  integer :: pex, pey
  pex = 0
  pey = 0
  grid = RPN_COMM_init_multi_level(Userinit, Pelocal, Petotal, pex, pey, 1, 1)
end function RPN_COMM_init1

function RPN_COMM_init2(Pelocal, Petotal, Pex, Pey) result(grid)
  use rpn_comm_gem_binding, only: rpncomm_keep_grid
  implicit none
  integer, intent(OUT)   :: Pelocal, Petotal
  integer, intent(INOUT) :: Pex, Pey
  integer :: grid
  integer, external :: RPN_COMM_init_multi_level
  grid = RPN_COMM_init_multi_level(rpncomm_keep_grid, Pelocal, Petotal, Pex, Pey, 1, 1)
end function RPN_COMM_init2

function RPN_COMM_init_multigrid1(Userinit, Pelocal, Petotal, MultiGrids) result(grid)
  implicit none
  external :: Userinit
  integer, intent(OUT) :: Pelocal, Petotal
  integer, intent(IN)  :: MultiGrids
  integer :: grid
  integer, external :: RPN_COMM_init_multi_level
  integer :: pex, pey
  pex = 0
  pey = 0
  grid = RPN_COMM_init_multi_level(Userinit, Pelocal, Petotal, pex, pey, MultiGrids, 1)
end function RPN_COMM_init_multigrid1

function RPN_COMM_init_multigrid2(Pelocal, Petotal, Pex, Pey, MultiGrids) result(grid)
  use rpn_comm_gem_binding, only: rpncomm_keep_grid
  implicit none
  integer, intent(OUT)   :: Pelocal, Petotal
  integer, intent(INOUT) :: Pex, Pey
  integer, intent(IN)    :: MultiGrids
  integer :: grid
  integer, external :: RPN_COMM_init_multi_level
  grid = RPN_COMM_init_multi_level(rpncomm_keep_grid, Pelocal, Petotal, Pex, Pey, MultiGrids, 1)
end function RPN_COMM_init_multigrid2

function RPN_COMM_init_multi_level1(Userinit, Pelocal, Petotal, MultiGrids, Grids) result(grid)
  implicit none
  external :: Userinit
  integer, intent(OUT) :: Pelocal, Petotal
  integer, intent(IN)  :: MultiGrids
  integer, intent(IN)  :: Grids
  integer :: grid
  integer, external :: RPN_COMM_init_multi_level
  integer :: pex, pey
  pex = 0
  pey = 0
  grid = RPN_COMM_init_multi_level(Userinit, Pelocal, Petotal, pex, pey, MultiGrids, Grids)
end function RPN_COMM_init_multi_level1

function RPN_COMM_init_multi_level2(Pelocal, Petotal, Pex, Pey, MultiGrids, Grids) result(grid)
  use rpn_comm_gem_binding, only: rpncomm_keep_grid
  implicit none
  integer, intent(OUT)   :: Pelocal, Petotal
  integer, intent(INOUT) :: Pex, Pey
  integer, intent(IN)    :: MultiGrids
  integer, intent(IN)    :: Grids
  integer :: grid
  integer, external :: RPN_COMM_init_multi_level
  grid = RPN_COMM_init_multi_level(rpncomm_keep_grid, Pelocal, Petotal, Pex, Pey, MultiGrids, Grids)
end function RPN_COMM_init_multi_level2

! ================================================================ 2D grid descriptors

function rpn_comm_create_2dgrid(gni, gnj, mini, maxi, minj, maxj) result(grid_id)
  use rpn_comm_gem_binding
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
  use rpn_comm_gem_binding
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

! ================================================================ node and socket communicators

! MPI build only: the caller's communicator origcomm (a Fortran MPI handle) split by node, each node
! cut into the original's "sockets", and the peers of equal rank in their socket; the new
! communicators are the caller's. On failure err = RPN_COMM_ERROR, the ranks -1 and isiz 0.
subroutine RPN_COMM_split_by_socket(origcomm, nodecomm, sockcomm, peercomm, noderank, sockrank, peerrank, isiz, err)
  use rpn_comm_gem_binding
  implicit none
  integer, intent(IN)  :: origcomm
  integer, intent(OUT) :: nodecomm
  integer, intent(OUT) :: sockcomm
  integer, intent(OUT) :: peercomm
  integer, intent(OUT) :: noderank
  integer, intent(OUT) :: sockrank
  integer, intent(OUT) :: peerrank
  integer, intent(OUT) :: isiz
  integer, intent(OUT) :: err
  integer(C_INT) :: v(7)
  v = [-1, -1, -1, -1, -1, -1, 0]
  err = 0
  if (rpncomm_split_by_socket(int(origcomm, C_INT), v) /= 0) then
    v = [-1, -1, -1, -1, -1, -1, 0]
    err = -1
  endif
  nodecomm = v(1); sockcomm = v(2); peercomm = v(3)
  noderank = v(4); sockrank = v(5); peerrank = v(6); isiz = v(7)
end subroutine RPN_COMM_split_by_socket
