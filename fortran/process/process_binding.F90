! process_binding.F90 -- bind(C) interfaces of the process: finalize, the clock, the flush at a
! stop, the exit after a refused call
!
! GENERATED from fortran/routines.toml by fortran/gen/gen_interfaces.py: do not edit.
!
! The C functions of the Rust core's C ABI (include/rpncomm_windows.h, cbindgen from src/ffi) that
! the routines of fortran/process/ call; fortran/gen/check_c_binding.py (make check) checks
! every interface against that header. Conventions: status 0 = RPN_COMM_OK, -1 = RPN_COMM_ERROR;
! strings are (pointer, length) without NUL; logicals are int 0/1; handles by reference.

module rpn_comm_process_binding
  use ISO_C_BINDING
  implicit none

  interface

    function rpncomm_flush_at_stop(hook) result(status) bind(C, name='rpncomm_flush_at_stop')
      import :: C_PTR, C_INT
      implicit none
      type(C_PTR), intent(IN), value :: hook
      integer(C_INT) :: status
    end function rpncomm_flush_at_stop

    function rpncomm_finalize() result(status) bind(C, name='rpncomm_finalize')
      import :: C_INT
      implicit none
      integer(C_INT) :: status
    end function rpncomm_finalize

    function rpncomm_wtime() result(t) bind(C, name='rpncomm_wtime')
      import :: C_DOUBLE
      implicit none
      real(C_DOUBLE) :: t
    end function rpncomm_wtime

    ! never returns: flushes, then ends this PE with status (no ERROR STOP, no MPI_Abort)
    subroutine rpncomm_stop_refused(status) bind(C, name='rpncomm_stop_refused')
      import :: C_INT
      implicit none
      integer(C_INT), intent(IN), value :: status
    end subroutine rpncomm_stop_refused

  end interface

end module rpn_comm_process_binding
