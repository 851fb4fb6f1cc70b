! utils_binding.F90 -- bind(C) interfaces of the original's utilities: environment, files, the
! node's CPUs, the debug flags
!
! GENERATED from fortran/routines.toml by fortran/gen/gen_interfaces.py: do not edit.
!
! The C functions of the Rust core's C ABI (include/rpncomm_windows.h, cbindgen from src/ffi) that
! the routines of fortran/utils/ call; fortran/gen/check_c_binding.py (make check) checks
! every interface against that header. Conventions: status 0 = RPN_COMM_OK, -1 = RPN_COMM_ERROR;
! strings are (pointer, length) without NUL; logicals are int 0/1; handles by reference.

module rpn_comm_utils_binding
  use ISO_C_BINDING
  implicit none

  interface

    function rpncomm_env_var(name, name_len, value, value_len) result(status) &
                             bind(C, name='rpncomm_env_var')
      import :: C_CHAR, C_SIZE_T, C_INT
      implicit none
      character(kind=C_CHAR), dimension(*), intent(IN) :: name
      integer(C_SIZE_T), intent(IN), value :: name_len
      character(kind=C_CHAR), dimension(*), intent(INOUT) :: value
      integer(C_SIZE_T), intent(IN), value :: value_len
      integer(C_INT) :: status
    end function rpncomm_env_var

    function rpncomm_chdir(path, path_len) result(status) bind(C, name='rpncomm_chdir')
      import :: C_CHAR, C_SIZE_T, C_INT
      implicit none
      character(kind=C_CHAR), dimension(*), intent(IN) :: path
      integer(C_SIZE_T), intent(IN), value :: path_len
      integer(C_INT) :: status
    end function rpncomm_chdir

    function rpncomm_hostid() result(id) bind(C, name='rpncomm_hostid')
      import :: C_INT
      implicit none
      integer(C_INT) :: id
    end function rpncomm_hostid

    function rpncomm_set_timeout_alarm(seconds) result(left) &
                                       bind(C, name='rpncomm_set_timeout_alarm')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: seconds
      integer(C_INT) :: left
    end function rpncomm_set_timeout_alarm

    function rpncomm_file_copy_start(from, from_len, to, to_len) result(id) &
                                     bind(C, name='rpncomm_file_copy_start')
      import :: C_CHAR, C_SIZE_T, C_INT
      implicit none
      character(kind=C_CHAR), dimension(*), intent(IN) :: from
      integer(C_SIZE_T), intent(IN), value :: from_len
      character(kind=C_CHAR), dimension(*), intent(IN) :: to
      integer(C_SIZE_T), intent(IN), value :: to_len
      integer(C_INT) :: id
    end function rpncomm_file_copy_start

    function rpncomm_file_bcst(name, name_len, fcomm) result(status) &
                               bind(C, name='rpncomm_file_bcst')
      import :: C_CHAR, C_SIZE_T, C_INT
      implicit none
      character(kind=C_CHAR), dimension(*), intent(IN) :: name
      integer(C_SIZE_T), intent(IN), value :: name_len
      integer(C_INT), intent(IN), value :: fcomm
      integer(C_INT) :: status
    end function rpncomm_file_bcst

    subroutine rpncomm_get_cpu_configuration(values) bind(C, name='rpncomm_get_cpu_configuration')
      import :: C_INT
      implicit none
      integer(C_INT), dimension(*), intent(OUT) :: values
    end subroutine rpncomm_get_cpu_configuration

    subroutine rpncomm_set_cpu_configuration(values) bind(C, name='rpncomm_set_cpu_configuration')
      import :: C_INT
      implicit none
      integer(C_INT), dimension(*), intent(IN) :: values
    end subroutine rpncomm_set_cpu_configuration

    subroutine rpncomm_init_cpu_configuration() bind(C, name='rpncomm_init_cpu_configuration')
      implicit none
    end subroutine rpncomm_init_cpu_configuration

    function rpncomm_cpu_configuration_text(line, line_len) result(n) &
                                            bind(C, name='rpncomm_cpu_configuration_text')
      import :: C_CHAR, C_SIZE_T, C_INT
      implicit none
      character(kind=C_CHAR), dimension(*), intent(INOUT) :: line
      integer(C_SIZE_T), intent(IN), value :: line_len
      integer(C_INT) :: n
    end function rpncomm_cpu_configuration_text

    function rpncomm_debug_str(name, name_len, value, value_len) result(status) &
                               bind(C, name='rpncomm_debug_str')
      import :: C_CHAR, C_SIZE_T, C_INT
      implicit none
      character(kind=C_CHAR), dimension(*), intent(IN) :: name
      integer(C_SIZE_T), intent(IN), value :: name_len
      character(kind=C_CHAR), dimension(*), intent(INOUT) :: value
      integer(C_SIZE_T), intent(IN), value :: value_len
      integer(C_INT) :: status
    end function rpncomm_debug_str

  end interface

end module rpn_comm_utils_binding
