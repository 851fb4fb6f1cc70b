! options_pointers.F90 -- RPN_COMM_ptr: the address of an array's first element in a
! type(rpncomm_ptr), for the original's interfaces that take one
!
! External procedures with the original RPN_COMM's names and dummy arguments (generic
! RPN_COMM_ptr in the includes); their signatures are rows of fortran/routines.toml. Fortran's
! C_LOC is the whole of the work: there is nothing for the Rust core to check.

subroutine RPN_COMM_ptr_i4_1d(what, ptr)
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM_types.inc'
  integer(KIND=4), dimension(1), intent(IN), target :: what
  type(rpncomm_ptr), intent(OUT) :: ptr
  ptr%p = c_loc(what)
  ptr%t1 = 0
  ptr%t2 = 0
end subroutine RPN_COMM_ptr_i4_1d

subroutine RPN_COMM_ptr_i4_2d(what, ptr)
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM_types.inc'
  integer(KIND=4), dimension(1,1), intent(IN), target :: what
  type(rpncomm_ptr), intent(OUT) :: ptr
  ptr%p = c_loc(what)
  ptr%t1 = 0
  ptr%t2 = 0
end subroutine RPN_COMM_ptr_i4_2d

subroutine RPN_COMM_ptr_i4_3d(what, ptr)
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM_types.inc'
  integer(KIND=4), dimension(1,1,1), intent(IN), target :: what
  type(rpncomm_ptr), intent(OUT) :: ptr
  ptr%p = c_loc(what)
  ptr%t1 = 0
  ptr%t2 = 0
end subroutine RPN_COMM_ptr_i4_3d

subroutine RPN_COMM_ptr_i4_4d(what, ptr)
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM_types.inc'
  integer(KIND=4), dimension(1,1,1,1), intent(IN), target :: what
  type(rpncomm_ptr), intent(OUT) :: ptr
  ptr%p = c_loc(what)
  ptr%t1 = 0
  ptr%t2 = 0
end subroutine RPN_COMM_ptr_i4_4d

subroutine RPN_COMM_ptr_i8_1d(what, ptr)
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM_types.inc'
  integer(KIND=8), dimension(1), intent(IN), target :: what
  type(rpncomm_ptr), intent(OUT) :: ptr
  ptr%p = c_loc(what)
  ptr%t1 = 0
  ptr%t2 = 0
end subroutine RPN_COMM_ptr_i8_1d

subroutine RPN_COMM_ptr_i8_2d(what, ptr)
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM_types.inc'
  integer(KIND=8), dimension(1,1), intent(IN), target :: what
  type(rpncomm_ptr), intent(OUT) :: ptr
  ptr%p = c_loc(what)
  ptr%t1 = 0
  ptr%t2 = 0
end subroutine RPN_COMM_ptr_i8_2d

subroutine RPN_COMM_ptr_i8_3d(what, ptr)
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM_types.inc'
  integer(KIND=8), dimension(1,1,1), intent(IN), target :: what
  type(rpncomm_ptr), intent(OUT) :: ptr
  ptr%p = c_loc(what)
  ptr%t1 = 0
  ptr%t2 = 0
end subroutine RPN_COMM_ptr_i8_3d

subroutine RPN_COMM_ptr_i8_4d(what, ptr)
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM_types.inc'
  integer(KIND=8), dimension(1,1,1,1), intent(IN), target :: what
  type(rpncomm_ptr), intent(OUT) :: ptr
  ptr%p = c_loc(what)
  ptr%t1 = 0
  ptr%t2 = 0
end subroutine RPN_COMM_ptr_i8_4d

subroutine RPN_COMM_ptr_r4_1d(what, ptr)
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM_types.inc'
  real(KIND=4), dimension(1), intent(IN), target :: what
  type(rpncomm_ptr), intent(OUT) :: ptr
  ptr%p = c_loc(what)
  ptr%t1 = 0
  ptr%t2 = 0
end subroutine RPN_COMM_ptr_r4_1d

subroutine RPN_COMM_ptr_r4_2d(what, ptr)
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM_types.inc'
  real(KIND=4), dimension(1,1), intent(IN), target :: what
  type(rpncomm_ptr), intent(OUT) :: ptr
  ptr%p = c_loc(what)
  ptr%t1 = 0
  ptr%t2 = 0
end subroutine RPN_COMM_ptr_r4_2d

subroutine RPN_COMM_ptr_r4_3d(what, ptr)
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM_types.inc'
  real(KIND=4), dimension(1,1,1), intent(IN), target :: what
  type(rpncomm_ptr), intent(OUT) :: ptr
  ptr%p = c_loc(what)
  ptr%t1 = 0
  ptr%t2 = 0
end subroutine RPN_COMM_ptr_r4_3d

subroutine RPN_COMM_ptr_r4_4d(what, ptr)
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM_types.inc'
  real(KIND=4), dimension(1,1,1,1), intent(IN), target :: what
  type(rpncomm_ptr), intent(OUT) :: ptr
  ptr%p = c_loc(what)
  ptr%t1 = 0
  ptr%t2 = 0
end subroutine RPN_COMM_ptr_r4_4d

subroutine RPN_COMM_ptr_r8_1d(what, ptr)
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM_types.inc'
  real(KIND=8), dimension(1), intent(IN), target :: what
  type(rpncomm_ptr), intent(OUT) :: ptr
  ptr%p = c_loc(what)
  ptr%t1 = 0
  ptr%t2 = 0
end subroutine RPN_COMM_ptr_r8_1d

subroutine RPN_COMM_ptr_r8_2d(what, ptr)
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM_types.inc'
  real(KIND=8), dimension(1,1), intent(IN), target :: what
  type(rpncomm_ptr), intent(OUT) :: ptr
  ptr%p = c_loc(what)
  ptr%t1 = 0
  ptr%t2 = 0
end subroutine RPN_COMM_ptr_r8_2d

subroutine RPN_COMM_ptr_r8_3d(what, ptr)
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM_types.inc'
  real(KIND=8), dimension(1,1,1), intent(IN), target :: what
  type(rpncomm_ptr), intent(OUT) :: ptr
  ptr%p = c_loc(what)
  ptr%t1 = 0
  ptr%t2 = 0
end subroutine RPN_COMM_ptr_r8_3d

subroutine RPN_COMM_ptr_r8_4d(what, ptr)
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM_types.inc'
  real(KIND=8), dimension(1,1,1,1), intent(IN), target :: what
  type(rpncomm_ptr), intent(OUT) :: ptr
  ptr%p = c_loc(what)
  ptr%t1 = 0
  ptr%t2 = 0
end subroutine RPN_COMM_ptr_r8_4d
