! grid_misc.F90 -- the original's smaller routines of the PE grid: RPN_COMM_qadl (a PE's block of
! an array cut evenly over the grid), RPN_COMM_petopo (the grid made again, another shape) and
! rpn_comm_dummy_init (the Userinit that keeps the grid it is given).
!
! External procedures with the original's names and dummy arguments, converting their arguments
! for the C ABI of the Rust core; their signatures are rows of fortran/routines.toml.

subroutine RPN_COMM_qadl(ipe, ni, nj, i0, in, j0, jn)
  use rpn_comm_grid_binding
  implicit none
  integer, intent(OUT) :: i0, in, j0, jn
  integer, intent(IN) :: ipe, ni, nj
  integer(C_INT), dimension(4) :: b
  b = [1, 0, 1, 0]
  if (rpncomm_qadl(int(ipe, C_INT), int(ni, C_INT), int(nj, C_INT), b) /= 0) b = [1, 0, 1, 0]
  i0 = b(1)
  in = b(2)
  j0 = b(3)
  jn = b(4)
end subroutine RPN_COMM_qadl

! Collective over the job; the module's grid variables (pe_nx, pe_mex, pe_id, ...) follow.
integer function RPN_COMM_petopo(pex, pey)
  use rpn_comm_grid_binding
  use rpn_comm_globals, only: fill_grid_globals
  implicit none
  integer, intent(IN) :: pex, pey
  RPN_COMM_petopo = -1
  if (rpncomm_petopo(int(pex, C_INT), int(pey, C_INT)) /= 0) return
  call fill_grid_globals()
  RPN_COMM_petopo = 0
end function RPN_COMM_petopo

subroutine rpn_comm_dummy_init(Pex, Pey)
  implicit none
  integer, intent(INOUT) :: Pex, Pey
  Pex = Pex
  Pey = Pey
end subroutine rpn_comm_dummy_init
