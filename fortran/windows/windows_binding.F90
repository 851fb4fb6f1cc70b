! windows_binding.F90 -- bind(C) interfaces of the windows, their boxes and requests
!
! GENERATED from fortran/routines.toml by fortran/gen/gen_interfaces.py: do not edit.
!
! The C functions of the Rust core's C ABI (include/rpncomm_windows.h, cbindgen from src/ffi) that
! the routines of fortran/windows/ call; fortran/gen/check_c_binding.py (make check) checks
! every interface against that header. Conventions: status 0 = RPN_COMM_OK, -1 = RPN_COMM_ERROR;
! strings are (pointer, length) without NUL; logicals are int 0/1; handles by reference.

module rpn_comm_windows_binding
  use ISO_C_BINDING
  use rpn_comm_windows_types, only: rpncomm_window, rpncomm_datatype, rpncomm_communicator, &
      rpncomm_operator, rpncomm_request
  implicit none
  private :: rpncomm_window, rpncomm_datatype, rpncomm_communicator, rpncomm_operator, &
      rpncomm_request

  interface

    function rpncomm_win_create(win, dtype, siz, com, array) result(status) &
                                bind(C, name='rpncomm_win_create')
      import :: C_INT, C_PTR, rpncomm_window, rpncomm_datatype, rpncomm_communicator
      implicit none
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
      implicit none
      type(rpncomm_window), intent(IN) :: win
      integer(C_INT), intent(IN), value :: slots
      integer(C_INT) :: status
    end function rpncomm_win_create_secondary

    function rpncomm_win_free(win) result(status) bind(C, name='rpncomm_win_free')
      import :: C_INT, rpncomm_window
      implicit none
      type(rpncomm_window), intent(INOUT) :: win
      integer(C_INT) :: status
    end function rpncomm_win_free

    function rpncomm_win_valid(win, is_valid) result(status) bind(C, name='rpncomm_win_valid')
      import :: C_INT, rpncomm_window
      implicit none
      type(rpncomm_window), intent(IN) :: win
      integer(C_INT), intent(OUT) :: is_valid
      integer(C_INT) :: status
    end function rpncomm_win_valid

    function rpncomm_win_check(win, is_open) result(status) bind(C, name='rpncomm_win_check')
      import :: C_INT, rpncomm_window
      implicit none
      type(rpncomm_window), intent(IN) :: win
      integer(C_INT), intent(OUT) :: is_open
      integer(C_INT) :: status
    end function rpncomm_win_check

    function rpncomm_win_get_ptr(win, np, ptr) result(status) bind(C, name='rpncomm_win_get_ptr')
      import :: C_INT, C_PTR, rpncomm_window
      implicit none
      type(rpncomm_window), intent(IN) :: win
      integer(C_INT), intent(IN), value :: np
      type(C_PTR), intent(OUT) :: ptr
      integer(C_INT) :: status
    end function rpncomm_win_get_ptr

    function rpncomm_win_get_size(win, siz) result(status) bind(C, name='rpncomm_win_get_size')
      import :: C_INT, rpncomm_window
      implicit none
      type(rpncomm_window), intent(IN) :: win
      integer(C_INT), intent(OUT) :: siz
      integer(C_INT) :: status
    end function rpncomm_win_get_size

    function rpncomm_win_get_size2(win, siz) result(status) bind(C, name='rpncomm_win_get_size2')
      import :: C_INT, rpncomm_window
      implicit none
      type(rpncomm_window), intent(IN) :: win
      integer(C_INT), intent(OUT) :: siz
      integer(C_INT) :: status
    end function rpncomm_win_get_size2

    function rpncomm_win_open(win, active) result(status) bind(C, name='rpncomm_win_open')
      import :: C_INT, rpncomm_window
      implicit none
      type(rpncomm_window), intent(IN) :: win
      integer(C_INT), intent(IN), value :: active
      integer(C_INT) :: status
    end function rpncomm_win_open

    function rpncomm_win_close(win) result(status) bind(C, name='rpncomm_win_close')
      import :: C_INT, rpncomm_window
      implicit none
      type(rpncomm_window), intent(IN) :: win
      integer(C_INT) :: status
    end function rpncomm_win_close

    function rpncomm_win_get_r(win, larray, target, offset, nelem) result(status) &
                               bind(C, name='rpncomm_win_get_r')
      import :: C_PTR, C_INT, rpncomm_window
      implicit none
      type(rpncomm_window), intent(IN) :: win
      type(C_PTR), intent(IN), value :: larray
      integer(C_INT), intent(IN), value :: target, offset, nelem
      integer(C_INT) :: status
    end function rpncomm_win_get_r

    function rpncomm_win_get_l(win, larray, offset, nelem) result(status) &
                               bind(C, name='rpncomm_win_get_l')
      import :: C_PTR, C_INT, rpncomm_window
      implicit none
      type(rpncomm_window), intent(IN) :: win
      type(C_PTR), intent(IN), value :: larray
      integer(C_INT), intent(IN), value :: offset, nelem
      integer(C_INT) :: status
    end function rpncomm_win_get_l

    function rpncomm_win_put_r(win, larray, target, offset, nelem) result(status) &
                               bind(C, name='rpncomm_win_put_r')
      import :: C_PTR, C_INT, rpncomm_window
      implicit none
      type(rpncomm_window), intent(IN) :: win
      type(C_PTR), intent(IN), value :: larray
      integer(C_INT), intent(IN), value :: target, offset, nelem
      integer(C_INT) :: status
    end function rpncomm_win_put_r

    function rpncomm_win_put_l(win, larray, offset, nelem) result(status) &
                               bind(C, name='rpncomm_win_put_l')
      import :: C_PTR, C_INT, rpncomm_window
      implicit none
      type(rpncomm_window), intent(IN) :: win
      type(C_PTR), intent(IN), value :: larray
      integer(C_INT), intent(IN), value :: offset, nelem
      integer(C_INT) :: status
    end function rpncomm_win_put_l

    function rpncomm_win_getacc_r(win, larray, garray, before, target, offset, nelem, oper) &
                                  result(status) bind(C, name='rpncomm_win_getacc_r')
      import :: C_PTR, C_INT, rpncomm_window, rpncomm_operator
      implicit none
      type(rpncomm_window), intent(IN) :: win
      type(C_PTR), intent(IN), value :: larray, garray
      integer(C_INT), intent(IN), value :: before, target, offset, nelem
      type(rpncomm_operator), intent(IN) :: oper
      integer(C_INT) :: status
    end function rpncomm_win_getacc_r

    function rpncomm_win_acc_r(win, larray, target, offset, nelem, oper) result(status) &
                               bind(C, name='rpncomm_win_acc_r')
      import :: C_PTR, C_INT, rpncomm_window, rpncomm_operator
      implicit none
      type(rpncomm_window), intent(IN) :: win
      type(C_PTR), intent(IN), value :: larray
      integer(C_INT), intent(IN), value :: target, offset, nelem
      type(rpncomm_operator), intent(IN) :: oper
      integer(C_INT) :: status
    end function rpncomm_win_acc_r

    function rpncomm_win_cas_r(win, compare, newval, oldval, target, offset) result(status) &
                               bind(C, name='rpncomm_win_cas_r')
      import :: C_PTR, C_INT, rpncomm_window
      implicit none
      type(rpncomm_window), intent(IN) :: win
      type(C_PTR), intent(IN), value :: compare, newval, oldval
      integer(C_INT), intent(IN), value :: target, offset
      integer(C_INT) :: status
    end function rpncomm_win_cas_r

    function rpncomm_win_fetchop_r(win, operand, oldval, target, offset, oper) result(status) &
                                   bind(C, name='rpncomm_win_fetchop_r')
      import :: C_PTR, C_INT, rpncomm_window, rpncomm_operator
      implicit none
      type(rpncomm_window), intent(IN) :: win
      type(C_PTR), intent(IN), value :: operand, oldval
      integer(C_INT), intent(IN), value :: target, offset
      type(rpncomm_operator), intent(IN) :: oper
      integer(C_INT) :: status
    end function rpncomm_win_fetchop_r

    function rpncomm_win_group(win, pes_to, n_to, pes_from, n_from) result(status) &
                               bind(C, name='rpncomm_win_group')
      import :: C_INT, rpncomm_window
      implicit none
      type(rpncomm_window), intent(IN) :: win
      integer(C_INT), dimension(*), intent(IN) :: pes_to
      integer(C_INT), intent(IN), value :: n_to
      integer(C_INT), dimension(*), intent(IN) :: pes_from
      integer(C_INT), intent(IN), value :: n_from
      integer(C_INT) :: status
    end function rpncomm_win_group

    function rpncomm_win_oper(win, oper) result(status) bind(C, name='rpncomm_win_oper')
      import :: C_INT, rpncomm_window, rpncomm_operator
      implicit none
      type(rpncomm_window), intent(IN) :: win
      type(rpncomm_operator), intent(IN) :: oper
      integer(C_INT) :: status
    end function rpncomm_win_oper

    function rpncomm_win_post(win, pe, offseti, nelemi, offseto, nelemo, nreq) result(status) &
                              bind(C, name='rpncomm_win_post')
      import :: C_INT, rpncomm_window
      implicit none
      type(rpncomm_window), intent(IN) :: win
      integer(C_INT), dimension(*), intent(IN) :: pe, offseti, nelemi, offseto, nelemo
      integer(C_INT), intent(IN), value :: nreq
      integer(C_INT) :: status
    end function rpncomm_win_post

    ! request-based operations: start, then complete with wait/test/flush/close
    function rpncomm_win_rput_r(win, larray, target, offset, nelem, req) result(status) &
                                bind(C, name='rpncomm_win_rput_r')
      import :: C_PTR, C_INT, rpncomm_window, rpncomm_request
      implicit none
      type(rpncomm_window), intent(IN) :: win
      type(C_PTR), intent(IN), value :: larray
      integer(C_INT), intent(IN), value :: target, offset, nelem
      type(rpncomm_request), intent(OUT) :: req
      integer(C_INT) :: status
    end function rpncomm_win_rput_r

    function rpncomm_win_rget_r(win, larray, target, offset, nelem, req) result(status) &
                                bind(C, name='rpncomm_win_rget_r')
      import :: C_PTR, C_INT, rpncomm_window, rpncomm_request
      implicit none
      type(rpncomm_window), intent(IN) :: win
      type(C_PTR), intent(IN), value :: larray
      integer(C_INT), intent(IN), value :: target, offset, nelem
      type(rpncomm_request), intent(OUT) :: req
      integer(C_INT) :: status
    end function rpncomm_win_rget_r

    function rpncomm_win_rgetacc_r(win, larray, garray, before, target, offset, nelem, oper, req) &
                                   result(status) bind(C, name='rpncomm_win_rgetacc_r')
      import :: C_PTR, C_INT, rpncomm_window, rpncomm_operator, rpncomm_request
      implicit none
      type(rpncomm_window), intent(IN) :: win
      type(C_PTR), intent(IN), value :: larray, garray
      integer(C_INT), intent(IN), value :: before, target, offset, nelem
      type(rpncomm_operator), intent(IN) :: oper
      type(rpncomm_request), intent(OUT) :: req
      integer(C_INT) :: status
    end function rpncomm_win_rgetacc_r

    function rpncomm_win_wait(req) result(status) bind(C, name='rpncomm_win_wait')
      import :: C_INT, rpncomm_request
      implicit none
      type(rpncomm_request), intent(INOUT) :: req
      integer(C_INT) :: status
    end function rpncomm_win_wait

    function rpncomm_win_test(req, flag) result(status) bind(C, name='rpncomm_win_test')
      import :: C_INT, rpncomm_request
      implicit none
      type(rpncomm_request), intent(INOUT) :: req
      integer(C_INT), intent(OUT) :: flag
      integer(C_INT) :: status
    end function rpncomm_win_test

    function rpncomm_win_flush(win, target) result(status) bind(C, name='rpncomm_win_flush')
      import :: C_INT, rpncomm_window
      implicit none
      type(rpncomm_window), intent(IN) :: win
      integer(C_INT), intent(IN), value :: target
      integer(C_INT) :: status
    end function rpncomm_win_flush

    function rpncomm_win_flush_all(win) result(status) bind(C, name='rpncomm_win_flush_all')
      import :: C_INT, rpncomm_window
      implicit none
      type(rpncomm_window), intent(IN) :: win
      integer(C_INT) :: status
    end function rpncomm_win_flush_all

    ! Sub-array (3-D box) transfers: shapes, starts and extents are 3 ints each, starts 0-based.
    function rpncomm_win_put_r_box(win, larray, lshape, lstart, count, target, tshape, tstart) &
                                   result(status) bind(C, name='rpncomm_win_put_r_box')
      import :: C_PTR, C_INT, rpncomm_window
      implicit none
      type(rpncomm_window), intent(IN) :: win
      type(C_PTR), intent(IN), value :: larray
      integer(C_INT), dimension(3), intent(IN) :: lshape, lstart, count
      integer(C_INT), intent(IN), value :: target
      integer(C_INT), dimension(3), intent(IN) :: tshape, tstart
      integer(C_INT) :: status
    end function rpncomm_win_put_r_box

    function rpncomm_win_get_r_box(win, larray, lshape, lstart, count, target, tshape, tstart) &
                                   result(status) bind(C, name='rpncomm_win_get_r_box')
      import :: C_PTR, C_INT, rpncomm_window
      implicit none
      type(rpncomm_window), intent(IN) :: win
      type(C_PTR), intent(IN), value :: larray
      integer(C_INT), dimension(3), intent(IN) :: lshape, lstart, count
      integer(C_INT), intent(IN), value :: target
      integer(C_INT), dimension(3), intent(IN) :: tshape, tstart
      integer(C_INT) :: status
    end function rpncomm_win_get_r_box

    function rpncomm_win_getacc_r_box(win, larray, garray, before, lshape, lstart, count, target, &
                                      tshape, tstart, oper) result(status) &
                                      bind(C, name='rpncomm_win_getacc_r_box')
      import :: C_PTR, C_INT, rpncomm_window, rpncomm_operator
      implicit none
      type(rpncomm_window), intent(IN) :: win
      type(C_PTR), intent(IN), value :: larray, garray
      integer(C_INT), intent(IN), value :: before
      integer(C_INT), dimension(3), intent(IN) :: lshape, lstart, count
      integer(C_INT), intent(IN), value :: target
      integer(C_INT), dimension(3), intent(IN) :: tshape, tstart
      type(rpncomm_operator), intent(IN) :: oper
      integer(C_INT) :: status
    end function rpncomm_win_getacc_r_box

    function rpncomm_ezwin_create(sz, comm, win) result(status) &
                                  bind(C, name='rpncomm_ezwin_create')
      import :: C_INT, rpncomm_window
      implicit none
      integer(C_INT), intent(IN), value :: sz, comm
      type(rpncomm_window), intent(OUT) :: win
      integer(C_INT) :: status
    end function rpncomm_ezwin_create

    function rpncomm_ezwin_id(win, id) result(status) bind(C, name='rpncomm_ezwin_id')
      import :: C_INT, rpncomm_window
      implicit none
      type(rpncomm_window), intent(IN) :: win
      integer(C_INT), intent(OUT) :: id
      integer(C_INT) :: status
    end function rpncomm_ezwin_id

    function rpncomm_ezwin_ptr(win, ptr) result(status) bind(C, name='rpncomm_ezwin_ptr')
      import :: C_PTR, C_INT, rpncomm_window
      implicit none
      type(rpncomm_window), intent(IN) :: win
      type(C_PTR), intent(OUT) :: ptr
      integer(C_INT) :: status
    end function rpncomm_ezwin_ptr

    function rpncomm_ezwin_size(win, siz) result(status) bind(C, name='rpncomm_ezwin_size')
      import :: C_INT, rpncomm_window
      implicit none
      type(rpncomm_window), intent(IN) :: win
      integer(C_INT), intent(OUT) :: siz
      integer(C_INT) :: status
    end function rpncomm_ezwin_size

    function rpncomm_ezwin_fetch_add(win, add, fetch, rank, offset) result(status) &
                                     bind(C, name='rpncomm_ezwin_fetch_add')
      import :: C_INT, rpncomm_window
      implicit none
      type(rpncomm_window), intent(IN) :: win
      integer(C_INT), intent(IN), value :: add
      integer(C_INT), intent(OUT) :: fetch
      integer(C_INT), intent(IN), value :: rank, offset
      integer(C_INT) :: status
    end function rpncomm_ezwin_fetch_add

    function rpncomm_ezwin_get(win, pz, nw, rank, offset) result(status) &
                               bind(C, name='rpncomm_ezwin_get')
      import :: C_PTR, C_INT, rpncomm_window
      implicit none
      type(rpncomm_window), intent(IN) :: win
      type(C_PTR), intent(IN), value :: pz
      integer(C_INT), intent(IN), value :: nw, rank, offset
      integer(C_INT) :: status
    end function rpncomm_ezwin_get

    function rpncomm_ezwin_put(win, pz, nw, rank, offset) result(status) &
                               bind(C, name='rpncomm_ezwin_put')
      import :: C_PTR, C_INT, rpncomm_window
      implicit none
      type(rpncomm_window), intent(IN) :: win
      type(C_PTR), intent(IN), value :: pz
      integer(C_INT), intent(IN), value :: nw, rank, offset
      integer(C_INT) :: status
    end function rpncomm_ezwin_put

    function rpncomm_win_allocate_shared(comm, msize, win, baseptr) result(status) &
                                         bind(C, name='rpncomm_win_allocate_shared')
      import :: C_INT, C_INT64_T, C_PTR
      implicit none
      integer(C_INT), intent(IN), value :: comm
      integer(C_INT64_T), intent(IN), value :: msize
      integer(C_INT), intent(OUT) :: win
      type(C_PTR), intent(OUT) :: baseptr
      integer(C_INT) :: status
    end function rpncomm_win_allocate_shared

  end interface

end module rpn_comm_windows_binding
