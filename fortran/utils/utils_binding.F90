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

    ! the original's C chdir for Fortran: path NUL-terminated
    function f_rpn_comm_chdir(path) result(status) bind(C, name='f_rpn_comm_chdir')
      import :: C_PTR, C_INT
      implicit none
      type(C_PTR), intent(IN), value :: path
      integer(C_INT) :: status
    end function f_rpn_comm_chdir

    function f_rpn_comm_chdir_(path) result(status) bind(C, name='f_rpn_comm_chdir_')
      import :: C_PTR, C_INT
      implicit none
      type(C_PTR), intent(IN), value :: path
      integer(C_INT) :: status
    end function f_rpn_comm_chdir_

    function f_rpn_comm_chdir__(path) result(status) bind(C, name='f_rpn_comm_chdir__')
      import :: C_PTR, C_INT
      implicit none
      type(C_PTR), intent(IN), value :: path
      integer(C_INT) :: status
    end function f_rpn_comm_chdir__

    ! the original's C getenv for Fortran: name NUL-terminated, value blank-filled
    function rpn_comm_getenv(name, value, length) result(status) bind(C, name='rpn_comm_getenv')
      import :: C_PTR, C_INT
      implicit none
      type(C_PTR), intent(IN), value :: name, value
      integer(C_INT), intent(IN) :: length
      integer(C_INT) :: status
    end function rpn_comm_getenv

    function rpn_comm_getenv_(name, value, length) result(status) bind(C, name='rpn_comm_getenv_')
      import :: C_PTR, C_INT
      implicit none
      type(C_PTR), intent(IN), value :: name, value
      integer(C_INT), intent(IN) :: length
      integer(C_INT) :: status
    end function rpn_comm_getenv_

    function rpn_comm_getenv__(name, value, length) result(status) &
                               bind(C, name='rpn_comm_getenv__')
      import :: C_PTR, C_INT
      implicit none
      type(C_PTR), intent(IN), value :: name, value
      integer(C_INT), intent(IN) :: length
      integer(C_INT) :: status
    end function rpn_comm_getenv__

    ! the original's descriptor calls for Fortran: paths NUL-terminated
    function f_RPN_COMM_open(path, rwflag) result(fd) bind(C, name='f_RPN_COMM_open')
      import :: C_PTR, C_INT
      implicit none
      type(C_PTR), intent(IN), value :: path
      integer(C_INT), intent(IN), value :: rwflag
      integer(C_INT) :: fd
    end function f_RPN_COMM_open

    function f_RPN_COMM_read(fd, buf, count) result(n) bind(C, name='f_RPN_COMM_read')
      import :: C_INT, C_PTR, C_INT64_T
      implicit none
      integer(C_INT), intent(IN), value :: fd
      type(C_PTR), intent(IN), value :: buf
      integer(C_INT64_T), intent(IN), value :: count
      integer(C_INT64_T) :: n
    end function f_RPN_COMM_read

    function f_RPN_COMM_write(fd, buf, count) result(n) bind(C, name='f_RPN_COMM_write')
      import :: C_INT, C_PTR, C_INT64_T
      implicit none
      integer(C_INT), intent(IN), value :: fd
      type(C_PTR), intent(IN), value :: buf
      integer(C_INT64_T), intent(IN), value :: count
      integer(C_INT64_T) :: n
    end function f_RPN_COMM_write

    function f_RPN_COMM_close(fd) result(status) bind(C, name='f_RPN_COMM_close')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: fd
      integer(C_INT) :: status
    end function f_RPN_COMM_close

    function f_RPN_COMM_unlink(path) result(status) bind(C, name='f_RPN_COMM_unlink')
      import :: C_PTR, C_INT
      implicit none
      type(C_PTR), intent(IN), value :: path
      integer(C_INT) :: status
    end function f_RPN_COMM_unlink

    function f_RPN_COMM_copy(fd1, fd2, asynchronous) result(status) &
                             bind(C, name='f_RPN_COMM_copy')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: fd1, fd2, asynchronous
      integer(C_INT) :: status
    end function f_RPN_COMM_copy

    function f_RPN_COMM_wait(id) result(status) bind(C, name='f_RPN_COMM_wait')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: id
      integer(C_INT) :: status
    end function f_RPN_COMM_wait

    ! unbinds this process when FULL_UNBIND is set or OMP_NUM_THREADS exceeds its cores
    subroutine rpncomm_unbind_process() bind(C, name='rpncomm_unbind_process')
      implicit none
    end subroutine rpncomm_unbind_process

    subroutine rpn_comm_unbind_process__() bind(C, name='rpn_comm_unbind_process__')
      implicit none
    end subroutine rpn_comm_unbind_process__

    function rpncomm_omp_get_max_threads() result(n) bind(C, name='rpncomm_omp_get_max_threads')
      import :: C_INT
      implicit none
      integer(C_INT) :: n
    end function rpncomm_omp_get_max_threads

    subroutine rpncomm_omp_set_num_threads(nthreads) bind(C, name='rpncomm_omp_set_num_threads')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: nthreads
    end subroutine rpncomm_omp_set_num_threads

  end interface

end module rpn_comm_utils_binding
