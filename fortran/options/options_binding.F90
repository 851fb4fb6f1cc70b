! options_binding.F90 -- bind(C) interfaces of the options (RPN_COMM_option and its kin), the size
! of an MPI status, the case conversions
!
! GENERATED from fortran/routines.toml by fortran/gen/gen_interfaces.py: do not edit.
!
! The C functions of the Rust core's C ABI (include/rpncomm_windows.h, cbindgen from src/ffi) that
! the routines of fortran/options/ call; fortran/gen/check_c_binding.py (make check) checks
! every interface against that header. Conventions: status 0 = RPN_COMM_OK, -1 = RPN_COMM_ERROR;
! strings are (pointer, length) without NUL; logicals are int 0/1; handles by reference.

module rpn_comm_options_binding
  use ISO_C_BINDING
  implicit none

  interface

    function rpncomm_option(name, name_len, value) result(status) bind(C, name='rpncomm_option')
      import :: C_CHAR, C_SIZE_T, C_INT
      implicit none
      character(kind=C_CHAR), dimension(*), intent(IN) :: name
      integer(C_SIZE_T), intent(IN), value :: name_len
      integer(C_INT), intent(IN), value :: value
      integer(C_INT) :: status
    end function rpncomm_option

    function rpncomm_option_l(name, name_len, value) result(status) &
                              bind(C, name='rpncomm_option_l')
      import :: C_CHAR, C_SIZE_T, C_INT
      implicit none
      character(kind=C_CHAR), dimension(*), intent(IN) :: name
      integer(C_SIZE_T), intent(IN), value :: name_len
      integer(C_INT), intent(IN), value :: value
      integer(C_INT) :: status
    end function rpncomm_option_l

    function rpncomm_optn(op_type, op_type_len, ival, rval, cval, cval_len) result(status) &
                          bind(C, name='rpncomm_optn')
      import :: C_CHAR, C_SIZE_T, C_INT, C_FLOAT
      implicit none
      character(kind=C_CHAR), dimension(*), intent(IN) :: op_type
      integer(C_SIZE_T), intent(IN), value :: op_type_len
      integer(C_INT), intent(IN), value :: ival
      real(C_FLOAT), intent(IN), value :: rval
      character(kind=C_CHAR), dimension(*), intent(IN) :: cval
      integer(C_SIZE_T), intent(IN), value :: cval_len
      integer(C_INT) :: status
    end function rpncomm_optn

    function rpncomm_unit(unit) result(status) bind(C, name='rpncomm_unit')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: unit
      integer(C_INT) :: status
    end function rpncomm_unit

    function rpncomm_convert_case(src, src_len, dst, dst_len, upper) result(status) &
                                  bind(C, name='rpncomm_convert_case')
      import :: C_CHAR, C_SIZE_T, C_INT
      implicit none
      character(kind=C_CHAR), dimension(*), intent(IN) :: src
      integer(C_SIZE_T), intent(IN), value :: src_len
      character(kind=C_CHAR), dimension(*), intent(OUT) :: dst
      integer(C_SIZE_T), intent(IN), value :: dst_len
      integer(C_INT), intent(IN), value :: upper
      integer(C_INT) :: status
    end function rpncomm_convert_case

    function rpncomm_bcst_world(start, end, mode) result(status) &
                                bind(C, name='rpncomm_bcst_world')
      import :: C_INT
      implicit none
      type(*), dimension(*), intent(INOUT) :: start
      type(*), dimension(*), intent(IN) :: end
      integer(C_INT), intent(IN), value :: mode
      integer(C_INT) :: status
    end function rpncomm_bcst_world

  end interface

end module rpn_comm_options_binding
