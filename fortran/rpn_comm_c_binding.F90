! rpn_comm_c_binding.F90 -- lowest Fortran layer of rpncomm-windows
!
!   module rpn_comm_windows_types : handle types (C layout) and constants
!   module rpn_comm_c_binding     : bind(C) interfaces to the C ABI of the Rust
!                                   core, whose prototypes are in include/rpncomm_windows.h
!                                   (cbindgen, from src/ffi); internal, used only by the
!                                   external wrappers in rpn_comm_externals.F90.
!                                   fortran/gen/check_c_binding.py (make check) checks
!                                   every interface here against that header.
!
! Conventions of the C ABI: status 0 = RPN_COMM_OK, -1 = RPN_COMM_ERROR;
! strings are (pointer, length) without NUL; logicals are int 0/1;
! handles are passed by reference.

module rpn_comm_windows_types
  use ISO_C_BINDING
  implicit none
  public
  include 'RPN_COMM_types.inc'
  include 'RPN_COMM_constants.inc'
end module rpn_comm_windows_types

module rpn_comm_c_binding
  use ISO_C_BINDING
  use rpn_comm_windows_types, only: rpncomm_window, rpncomm_datatype, &
                                    rpncomm_operator, rpncomm_communicator
  use rpn_comm_windows_types, only: rpncomm_request
  implicit none
  private :: rpncomm_window, rpncomm_datatype, rpncomm_operator, rpncomm_communicator
  private :: rpncomm_request

  interface

  ! ------------------------------------------------------------ environment
    function rpncomm_init(rank, npes) result(status) bind(C, name='rpncomm_init')
      import :: C_INT
      integer(C_INT), intent(OUT) :: rank, npes
      integer(C_INT) :: status
    end function rpncomm_init

    function rpncomm_set_grid(pex, pey) result(status) bind(C, name='rpncomm_set_grid')
      import :: C_INT
      integer(C_INT), intent(INOUT) :: pex, pey
      integer(C_INT) :: status
    end function rpncomm_set_grid

    ! batch jobs (issue 19): a second RPN_COMM_init keeps the grid; a stopped PE flushes
    function rpncomm_init_first(pex, pey) result(status) bind(C, name='rpncomm_init_first')
      import :: C_INT
      integer(C_INT), intent(INOUT) :: pex, pey
      integer(C_INT) :: status
    end function rpncomm_init_first

    function rpncomm_flush_at_stop(hook) result(status) bind(C, name='rpncomm_flush_at_stop')
      import :: C_INT, C_PTR
      type(C_PTR), intent(IN), value :: hook
      integer(C_INT) :: status
    end function rpncomm_flush_at_stop

    function rpncomm_bloc(nblocx, nblocy) result(status) bind(C, name='rpncomm_bloc')
      import :: C_INT
      integer(C_INT), intent(IN), value :: nblocx, nblocy
      integer(C_INT) :: status
    end function rpncomm_bloc

    function rpncomm_finalize() result(status) bind(C, name='rpncomm_finalize')
      import :: C_INT
      integer(C_INT) :: status
    end function rpncomm_finalize

    function rpncomm_mype(me, me_x, me_y) result(status) bind(C, name='rpncomm_mype')
      import :: C_INT
      integer(C_INT), intent(OUT) :: me, me_x, me_y
      integer(C_INT) :: status
    end function rpncomm_mype

    function rpncomm_wtime() result(t) bind(C, name='rpncomm_wtime')
      import :: C_DOUBLE
      real(C_DOUBLE) :: t
    end function rpncomm_wtime

    function rpncomm_comm(name, name_len, com) result(status) bind(C, name='rpncomm_comm')
      import :: C_INT, C_CHAR, C_SIZE_T, rpncomm_communicator
      character(kind=C_CHAR), dimension(*), intent(IN) :: name
      integer(C_SIZE_T), intent(IN), value :: name_len
      type(rpncomm_communicator), intent(OUT) :: com
      integer(C_INT) :: status
    end function rpncomm_comm

    function rpncomm_comm_mpi(mcom, com) result(status) bind(C, name='rpncomm_comm_mpi')
      import :: C_INT, rpncomm_communicator
      integer(C_INT), intent(IN), value :: mcom
      type(rpncomm_communicator), intent(OUT) :: com
      integer(C_INT) :: status
    end function rpncomm_comm_mpi

    function rpncomm_comm_size(name, name_len, siz) result(status) bind(C, name='rpncomm_comm_size')
      import :: C_INT, C_CHAR, C_SIZE_T
      character(kind=C_CHAR), dimension(*), intent(IN) :: name
      integer(C_SIZE_T), intent(IN), value :: name_len
      integer(C_INT), intent(INOUT) :: siz   ! left alone off the communicator
      integer(C_INT) :: status
    end function rpncomm_comm_size

    function rpncomm_barrier(name, name_len) result(status) bind(C, name='rpncomm_barrier')
      import :: C_INT, C_CHAR, C_SIZE_T
      character(kind=C_CHAR), dimension(*), intent(IN) :: name
      integer(C_SIZE_T), intent(IN), value :: name_len
      integer(C_INT) :: status
    end function rpncomm_barrier

    function rpncomm_datyp(name, name_len, dtype) result(status) bind(C, name='rpncomm_datyp')
      import :: C_INT, C_CHAR, C_SIZE_T, rpncomm_datatype
      character(kind=C_CHAR), dimension(*), intent(IN) :: name
      integer(C_SIZE_T), intent(IN), value :: name_len
      type(rpncomm_datatype), intent(OUT) :: dtype
      integer(C_INT) :: status
    end function rpncomm_datyp

    function rpncomm_oper(name, name_len, oper) result(status) bind(C, name='rpncomm_oper')
      import :: C_INT, C_CHAR, C_SIZE_T, rpncomm_operator
      character(kind=C_CHAR), dimension(*), intent(IN) :: name
      integer(C_SIZE_T), intent(IN), value :: name_len
      type(rpncomm_operator), intent(OUT) :: oper
      integer(C_INT) :: status
    end function rpncomm_oper

    function rpncomm_valid_oper(oper) result(is_valid) bind(C, name='rpncomm_valid_oper')
      import :: C_INT, rpncomm_operator
      type(rpncomm_operator), intent(IN) :: oper
      integer(C_INT) :: is_valid
    end function rpncomm_valid_oper

    function rpncomm_allreduce(sendbuf, recvbuf, count, dtype, dtype_len, op, op_len, com, com_len) &
             result(status) bind(C, name='rpncomm_allreduce')
      import :: C_INT, C_CHAR, C_SIZE_T
      type(*), dimension(*), intent(IN)    :: sendbuf
      type(*), dimension(*), intent(INOUT) :: recvbuf
      integer(C_INT), intent(IN), value :: count
      character(kind=C_CHAR), dimension(*), intent(IN) :: dtype, op, com
      integer(C_SIZE_T), intent(IN), value :: dtype_len, op_len, com_len
      integer(C_INT) :: status
    end function rpncomm_allreduce

    function rpncomm_bcast(buffer, count, dtype, dtype_len, root, com, com_len) &
             result(status) bind(C, name='rpncomm_bcast')
      import :: C_INT, C_CHAR, C_SIZE_T
      type(*), dimension(*), intent(INOUT) :: buffer
      integer(C_INT), intent(IN), value :: count
      character(kind=C_CHAR), dimension(*), intent(IN) :: dtype
      integer(C_SIZE_T), intent(IN), value :: dtype_len
      integer(C_INT), intent(IN), value :: root
      character(kind=C_CHAR), dimension(*), intent(IN) :: com
      integer(C_SIZE_T), intent(IN), value :: com_len
      integer(C_INT) :: status
    end function rpncomm_bcast

    function rpncomm_allgather(sendbuf, sendcount, sendtype, sendtype_len, &
                               recvbuf, recvcount, recvtype, recvtype_len, com, com_len) &
             result(status) bind(C, name='rpncomm_allgather')
      import :: C_INT, C_CHAR, C_SIZE_T
      type(*), dimension(*), intent(IN)    :: sendbuf
      integer(C_INT), intent(IN), value :: sendcount
      character(kind=C_CHAR), dimension(*), intent(IN) :: sendtype
      integer(C_SIZE_T), intent(IN), value :: sendtype_len
      type(*), dimension(*), intent(INOUT) :: recvbuf
      integer(C_INT), intent(IN), value :: recvcount
      character(kind=C_CHAR), dimension(*), intent(IN) :: recvtype
      integer(C_SIZE_T), intent(IN), value :: recvtype_len
      character(kind=C_CHAR), dimension(*), intent(IN) :: com
      integer(C_SIZE_T), intent(IN), value :: com_len
      integer(C_INT) :: status
    end function rpncomm_allgather

  ! ---------------------------------------------------------------- windows
    function rpncomm_win_create(win, dtype, siz, com, array) result(status) &
             bind(C, name='rpncomm_win_create')
      import :: C_INT, C_PTR, rpncomm_window, rpncomm_datatype, rpncomm_communicator
      type(rpncomm_window), intent(OUT) :: win
      type(rpncomm_datatype), intent(IN) :: dtype
      integer(C_INT), intent(IN), value :: siz
      type(rpncomm_communicator), intent(IN) :: com
      type(C_PTR), intent(IN), value :: array
      integer(C_INT) :: status
    end function rpncomm_win_create

    function rpncomm_win_create_secondary(win, slots) result(status) &
             bind(C, name='rpncomm_win_create_secondary')
      import :: C_INT, rpncomm_window
      type(rpncomm_window), intent(IN) :: win
      integer(C_INT), intent(IN), value :: slots
      integer(C_INT) :: status
    end function rpncomm_win_create_secondary

    function rpncomm_win_free(win) result(status) bind(C, name='rpncomm_win_free')
      import :: C_INT, rpncomm_window
      type(rpncomm_window), intent(INOUT) :: win
      integer(C_INT) :: status
    end function rpncomm_win_free

    function rpncomm_win_valid(win, is_valid) result(status) bind(C, name='rpncomm_win_valid')
      import :: C_INT, rpncomm_window
      type(rpncomm_window), intent(IN) :: win
      integer(C_INT), intent(OUT) :: is_valid
      integer(C_INT) :: status
    end function rpncomm_win_valid

    function rpncomm_win_check(win, is_open) result(status) bind(C, name='rpncomm_win_check')
      import :: C_INT, rpncomm_window
      type(rpncomm_window), intent(IN) :: win
      integer(C_INT), intent(OUT) :: is_open
      integer(C_INT) :: status
    end function rpncomm_win_check

    function rpncomm_win_get_ptr(win, np, ptr) result(status) bind(C, name='rpncomm_win_get_ptr')
      import :: C_INT, C_PTR, rpncomm_window
      type(rpncomm_window), intent(IN) :: win
      integer(C_INT), intent(IN), value :: np
      type(C_PTR), intent(OUT) :: ptr
      integer(C_INT) :: status
    end function rpncomm_win_get_ptr

    function rpncomm_win_get_size(win, siz) result(status) bind(C, name='rpncomm_win_get_size')
      import :: C_INT, rpncomm_window
      type(rpncomm_window), intent(IN) :: win
      integer(C_INT), intent(OUT) :: siz
      integer(C_INT) :: status
    end function rpncomm_win_get_size

    function rpncomm_win_get_size2(win, siz) result(status) bind(C, name='rpncomm_win_get_size2')
      import :: C_INT, rpncomm_window
      type(rpncomm_window), intent(IN) :: win
      integer(C_INT), intent(OUT) :: siz
      integer(C_INT) :: status
    end function rpncomm_win_get_size2

    function rpncomm_win_open(win, active) result(status) bind(C, name='rpncomm_win_open')
      import :: C_INT, rpncomm_window
      type(rpncomm_window), intent(IN) :: win
      integer(C_INT), intent(IN), value :: active
      integer(C_INT) :: status
    end function rpncomm_win_open

    function rpncomm_win_close(win) result(status) bind(C, name='rpncomm_win_close')
      import :: C_INT, rpncomm_window
      type(rpncomm_window), intent(IN) :: win
      integer(C_INT) :: status
    end function rpncomm_win_close

    function rpncomm_win_get_r(win, larray, target, offset, nelem) result(status) &
             bind(C, name='rpncomm_win_get_r')
      import :: C_INT, C_PTR, rpncomm_window
      type(rpncomm_window), intent(IN) :: win
      type(C_PTR), intent(IN), value :: larray
      integer(C_INT), intent(IN), value :: target, offset, nelem
      integer(C_INT) :: status
    end function rpncomm_win_get_r

    function rpncomm_win_get_l(win, larray, offset, nelem) result(status) &
             bind(C, name='rpncomm_win_get_l')
      import :: C_INT, C_PTR, rpncomm_window
      type(rpncomm_window), intent(IN) :: win
      type(C_PTR), intent(IN), value :: larray
      integer(C_INT), intent(IN), value :: offset, nelem
      integer(C_INT) :: status
    end function rpncomm_win_get_l

    function rpncomm_win_put_r(win, larray, target, offset, nelem) result(status) &
             bind(C, name='rpncomm_win_put_r')
      import :: C_INT, C_PTR, rpncomm_window
      type(rpncomm_window), intent(IN) :: win
      type(C_PTR), intent(IN), value :: larray
      integer(C_INT), intent(IN), value :: target, offset, nelem
      integer(C_INT) :: status
    end function rpncomm_win_put_r

    function rpncomm_win_put_l(win, larray, offset, nelem) result(status) &
             bind(C, name='rpncomm_win_put_l')
      import :: C_INT, C_PTR, rpncomm_window
      type(rpncomm_window), intent(IN) :: win
      type(C_PTR), intent(IN), value :: larray
      integer(C_INT), intent(IN), value :: offset, nelem
      integer(C_INT) :: status
    end function rpncomm_win_put_l

    function rpncomm_win_getacc_r(win, larray, garray, before, target, offset, nelem, oper) &
             result(status) bind(C, name='rpncomm_win_getacc_r')
      import :: C_INT, C_PTR, rpncomm_window, rpncomm_operator
      type(rpncomm_window), intent(IN) :: win
      type(C_PTR), intent(IN), value :: larray, garray
      integer(C_INT), intent(IN), value :: before, target, offset, nelem
      type(rpncomm_operator), intent(IN) :: oper
      integer(C_INT) :: status
    end function rpncomm_win_getacc_r

    function rpncomm_win_cas_r(win, compare, newval, oldval, target, offset) &
             result(status) bind(C, name='rpncomm_win_cas_r')
      import :: C_INT, C_PTR, rpncomm_window
      type(rpncomm_window), intent(IN) :: win
      type(C_PTR), intent(IN), value :: compare, newval, oldval
      integer(C_INT), intent(IN), value :: target, offset
      integer(C_INT) :: status
    end function rpncomm_win_cas_r

    function rpncomm_win_fetchop_r(win, operand, oldval, target, offset, oper) &
             result(status) bind(C, name='rpncomm_win_fetchop_r')
      import :: C_INT, C_PTR, rpncomm_window, rpncomm_operator
      type(rpncomm_window), intent(IN) :: win
      type(C_PTR), intent(IN), value :: operand, oldval
      integer(C_INT), intent(IN), value :: target, offset
      type(rpncomm_operator), intent(IN) :: oper
      integer(C_INT) :: status
    end function rpncomm_win_fetchop_r

    function rpncomm_win_group(win, pes_to, n_to, pes_from, n_from) result(status) &
             bind(C, name='rpncomm_win_group')
      import :: C_INT, rpncomm_window
      type(rpncomm_window), intent(IN) :: win
      integer(C_INT), dimension(*), intent(IN) :: pes_to
      integer(C_INT), intent(IN), value :: n_to
      integer(C_INT), dimension(*), intent(IN) :: pes_from
      integer(C_INT), intent(IN), value :: n_from
      integer(C_INT) :: status
    end function rpncomm_win_group

    function rpncomm_win_oper(win, oper) result(status) bind(C, name='rpncomm_win_oper')
      import :: C_INT, rpncomm_window, rpncomm_operator
      type(rpncomm_window), intent(IN) :: win
      type(rpncomm_operator), intent(IN) :: oper
      integer(C_INT) :: status
    end function rpncomm_win_oper

    function rpncomm_win_post(win, pe, offseti, nelemi, offseto, nelemo, nreq) result(status) &
             bind(C, name='rpncomm_win_post')
      import :: C_INT, rpncomm_window
      type(rpncomm_window), intent(IN) :: win
      integer(C_INT), dimension(*), intent(IN) :: pe, offseti, nelemi, offseto, nelemo
      integer(C_INT), intent(IN), value :: nreq
      integer(C_INT) :: status
    end function rpncomm_win_post

    ! request-based operations (issue 20): start, then complete with wait/test/flush/close
    function rpncomm_win_rput_r(win, larray, target, offset, nelem, req) result(status) &
             bind(C, name='rpncomm_win_rput_r')
      import :: C_INT, C_PTR, rpncomm_window, rpncomm_request
      type(rpncomm_window), intent(IN) :: win
      type(C_PTR), intent(IN), value :: larray
      integer(C_INT), intent(IN), value :: target, offset, nelem
      type(rpncomm_request), intent(OUT) :: req
      integer(C_INT) :: status
    end function rpncomm_win_rput_r

    function rpncomm_win_rget_r(win, larray, target, offset, nelem, req) result(status) &
             bind(C, name='rpncomm_win_rget_r')
      import :: C_INT, C_PTR, rpncomm_window, rpncomm_request
      type(rpncomm_window), intent(IN) :: win
      type(C_PTR), intent(IN), value :: larray
      integer(C_INT), intent(IN), value :: target, offset, nelem
      type(rpncomm_request), intent(OUT) :: req
      integer(C_INT) :: status
    end function rpncomm_win_rget_r

    function rpncomm_win_rgetacc_r(win, larray, garray, before, target, offset, nelem, oper, req) &
             result(status) bind(C, name='rpncomm_win_rgetacc_r')
      import :: C_INT, C_PTR, rpncomm_window, rpncomm_operator, rpncomm_request
      type(rpncomm_window), intent(IN) :: win
      type(C_PTR), intent(IN), value :: larray, garray
      integer(C_INT), intent(IN), value :: before, target, offset, nelem
      type(rpncomm_operator), intent(IN) :: oper
      type(rpncomm_request), intent(OUT) :: req
      integer(C_INT) :: status
    end function rpncomm_win_rgetacc_r

    function rpncomm_win_wait(req) result(status) bind(C, name='rpncomm_win_wait')
      import :: C_INT, rpncomm_request
      type(rpncomm_request), intent(INOUT) :: req
      integer(C_INT) :: status
    end function rpncomm_win_wait

    function rpncomm_win_test(req, flag) result(status) bind(C, name='rpncomm_win_test')
      import :: C_INT, rpncomm_request
      type(rpncomm_request), intent(INOUT) :: req
      integer(C_INT), intent(OUT) :: flag
      integer(C_INT) :: status
    end function rpncomm_win_test

    function rpncomm_win_flush(win, target) result(status) bind(C, name='rpncomm_win_flush')
      import :: C_INT, rpncomm_window
      type(rpncomm_window), intent(IN) :: win
      integer(C_INT), intent(IN), value :: target
      integer(C_INT) :: status
    end function rpncomm_win_flush

    function rpncomm_win_flush_all(win) result(status) bind(C, name='rpncomm_win_flush_all')
      import :: C_INT, rpncomm_window
      type(rpncomm_window), intent(IN) :: win
      integer(C_INT) :: status
    end function rpncomm_win_flush_all

    ! ---- halo exchange (RPN_COMM_xch_halo, RPN_COMM_xch_halon, RPN_COMM_limit)
    function rpncomm_xch_halo(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, &
                              periodx, periody, gni, npol_row, n) result(status) &
             bind(C, name='rpncomm_xch_halo')
      import :: C_INT
!GCC$ ATTRIBUTES NO_ARG_CHECK :: g
      type(*), dimension(*), intent(INOUT) :: g
      integer(C_INT), intent(IN), value :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
      integer(C_INT), intent(IN), value :: periodx, periody, gni, npol_row, n
      integer(C_INT) :: status
    end function rpncomm_xch_halo

    ! ---- lists of halo fields (RPN_COMM_xch_halo_list_new/_add/_free, RPN_COMM_xch_halo_list,
    !      RPN_COMM_xch_halo_start, RPN_COMM_xch_halo_finish)
    function rpncomm_xch_halo_list_new(minx, maxx, miny, maxy, ni, nj, halox, haloy, &
                                       periodx, periody, gni, npol_row, list) result(status) &
             bind(C, name='rpncomm_xch_halo_list_new')
      import :: C_INT
      integer(C_INT), intent(IN), value :: minx, maxx, miny, maxy, ni, nj, halox, haloy
      integer(C_INT), intent(IN), value :: periodx, periody, gni, npol_row
      integer(C_INT), intent(OUT) :: list
      integer(C_INT) :: status
    end function rpncomm_xch_halo_list_new

    function rpncomm_xch_halo_list_add(list, g, nk, n) result(status) bind(C, name='rpncomm_xch_halo_list_add')
      import :: C_INT
      integer(C_INT), intent(IN), value :: list
!GCC$ ATTRIBUTES NO_ARG_CHECK :: g
      type(*), dimension(*), intent(INOUT) :: g
      integer(C_INT), intent(IN), value :: nk, n
      integer(C_INT) :: status
    end function rpncomm_xch_halo_list_add

    function rpncomm_xch_halo_list(list) result(status) bind(C, name='rpncomm_xch_halo_list')
      import :: C_INT
      integer(C_INT), intent(IN), value :: list
      integer(C_INT) :: status
    end function rpncomm_xch_halo_list

    function rpncomm_xch_halo_start(list) result(status) bind(C, name='rpncomm_xch_halo_start')
      import :: C_INT
      integer(C_INT), intent(IN), value :: list
      integer(C_INT) :: status
    end function rpncomm_xch_halo_start

    function rpncomm_xch_halo_finish(list) result(status) bind(C, name='rpncomm_xch_halo_finish')
      import :: C_INT
      integer(C_INT), intent(IN), value :: list
      integer(C_INT) :: status
    end function rpncomm_xch_halo_finish

    function rpncomm_xch_halo_list_free(list) result(status) bind(C, name='rpncomm_xch_halo_list_free')
      import :: C_INT
      integer(C_INT), intent(IN), value :: list
      integer(C_INT) :: status
    end function rpncomm_xch_halo_list_free

    function rpncomm_limit(my_id, npe, gmin, gmax, lmini, lmaxi, count, offset) result(status) &
             bind(C, name='rpncomm_limit')
      import :: C_INT
      integer(C_INT), intent(IN), value :: my_id, npe, gmin, gmax
      integer(C_INT), intent(OUT) :: lmini, lmaxi
      integer(C_INT), dimension(*), intent(OUT) :: count, offset
      integer(C_INT) :: status
    end function rpncomm_limit

    ! Sub-array (3-D box) transfers: shapes, starts and extents are 3 ints each, starts 0-based.
    function rpncomm_win_put_r_box(win, larray, lshape, lstart, count, target, tshape, tstart) &
             result(status) bind(C, name='rpncomm_win_put_r_box')
      import :: C_INT, C_PTR, rpncomm_window
      type(rpncomm_window), intent(IN) :: win
      type(C_PTR), intent(IN), value :: larray
      integer(C_INT), dimension(3), intent(IN) :: lshape, lstart, count
      integer(C_INT), intent(IN), value :: target
      integer(C_INT), dimension(3), intent(IN) :: tshape, tstart
      integer(C_INT) :: status
    end function rpncomm_win_put_r_box

    function rpncomm_win_get_r_box(win, larray, lshape, lstart, count, target, tshape, tstart) &
             result(status) bind(C, name='rpncomm_win_get_r_box')
      import :: C_INT, C_PTR, rpncomm_window
      type(rpncomm_window), intent(IN) :: win
      type(C_PTR), intent(IN), value :: larray
      integer(C_INT), dimension(3), intent(IN) :: lshape, lstart, count
      integer(C_INT), intent(IN), value :: target
      integer(C_INT), dimension(3), intent(IN) :: tshape, tstart
      integer(C_INT) :: status
    end function rpncomm_win_get_r_box

    function rpncomm_win_getacc_r_box(win, larray, garray, before, lshape, lstart, count, target, &
                                      tshape, tstart, oper) &
             result(status) bind(C, name='rpncomm_win_getacc_r_box')
      import :: C_INT, C_PTR, rpncomm_window, rpncomm_operator
      type(rpncomm_window), intent(IN) :: win
      type(C_PTR), intent(IN), value :: larray, garray
      integer(C_INT), intent(IN), value :: before
      integer(C_INT), dimension(3), intent(IN) :: lshape, lstart, count
      integer(C_INT), intent(IN), value :: target
      integer(C_INT), dimension(3), intent(IN) :: tshape, tstart
      type(rpncomm_operator), intent(IN) :: oper
      integer(C_INT) :: status
    end function rpncomm_win_getacc_r_box

    ! ---- the rest of the halo family (RPN_COMM_xch_halo_8, RPN_COMM_xch_halox,
    !      RPN_COMM_propagate_pilot_circular) and the quiet end of a PE after a refusal
    function rpncomm_xch_halo_8(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, &
                                periodx, periody, gni, npol_row) result(status) &
             bind(C, name='rpncomm_xch_halo_8')
      import :: C_INT
!GCC$ ATTRIBUTES NO_ARG_CHECK :: g
      type(*), dimension(*), intent(INOUT) :: g
      integer(C_INT), intent(IN), value :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
      integer(C_INT), intent(IN), value :: periodx, periody, gni, npol_row
      integer(C_INT) :: status
    end function rpncomm_xch_halo_8

    function rpncomm_xch_halox(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, &
                               g2, minx2, maxx2, miny2, maxy2, gni, npol_row, n) result(status) &
             bind(C, name='rpncomm_xch_halox')
      import :: C_INT
!GCC$ ATTRIBUTES NO_ARG_CHECK :: g, g2
      type(*), dimension(*), intent(IN) :: g
      integer(C_INT), intent(IN), value :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
      integer(C_INT), intent(IN), value :: periodx, periody
      type(*), dimension(*), intent(INOUT) :: g2
      integer(C_INT), intent(IN), value :: minx2, maxx2, miny2, maxy2, gni, npol_row, n
      integer(C_INT) :: status
    end function rpncomm_xch_halox

    function rpncomm_propagate_pilot_circular(f, minx, maxx, miny, maxy, lni, lnj, nk, pilx, pily, hx, hy) &
             result(status) bind(C, name='rpncomm_propagate_pilot_circular')
      import :: C_INT
!GCC$ ATTRIBUTES NO_ARG_CHECK :: f
      type(*), dimension(*), intent(INOUT) :: f
      integer(C_INT), intent(IN), value :: minx, maxx, miny, maxy, lni, lnj, nk, pilx, pily, hx, hy
      integer(C_INT) :: status
    end function rpncomm_propagate_pilot_circular

    ! never returns: flushes, then ends this PE with status (no ERROR STOP, no MPI_Abort)
    subroutine rpncomm_stop_refused(status) bind(C, name='rpncomm_stop_refused')
      import :: C_INT
      integer(C_INT), intent(IN), value :: status
    end subroutine rpncomm_stop_refused

  end interface

end module rpn_comm_c_binding
