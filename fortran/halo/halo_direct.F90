! halo_direct.F90 -- the routines of the halo exchanges and lists of halo fields whose body is one C
! call
!
! GENERATED from fortran/routines.toml by fortran/gen/gen_interfaces.py: do not edit.
!
! External procedures with the original RPN_COMM's names and dummy arguments (their rows say
! body = "direct"): each passes its arguments to one C function of the Rust core, which checks
! them and reports errors, and returns its status (fortran/gen/gen_interfaces.py, direct_call,
! has the conversions). The other routines of the concern are written by hand beside this file.

! Adds the field g(minx:maxx, miny:maxy, nk) of elements of n 4-byte words (1: integer, real; 2:
! real*8) to the list. Local. The array must not move while the list is exchanged with it.
subroutine RPN_COMM_xch_halo_list_add(list, g, nk, n, ierr)
  use ISO_C_BINDING, only: C_INT
  use rpn_comm_halo_binding, only: rpncomm_xch_halo_list_add
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: g
  integer, intent(IN) :: list
  type(*), dimension(*), intent(INOUT) :: g
  integer, intent(IN) :: nk, n
  integer, intent(OUT) :: ierr
  ierr = rpncomm_xch_halo_list_add(int(list, C_INT), g, int(nk, C_INT), int(n, C_INT))
end subroutine RPN_COMM_xch_halo_list_add

! Exchanges the halos of every field of the list: one message per neighbour for all of them.
! Collective over the grid (neighbours only).
subroutine RPN_COMM_xch_halo_list(list, ierr)
  use ISO_C_BINDING, only: C_INT
  use rpn_comm_halo_binding, only: rpncomm_xch_halo_list
  implicit none
  integer, intent(IN) :: list
  integer, intent(OUT) :: ierr
  ierr = rpncomm_xch_halo_list(int(list, C_INT))
end subroutine RPN_COMM_xch_halo_list

! Starts the exchange of the list's halos and returns: until RPN_COMM_xch_halo_finish, the caller
! may compute on the interior but neither write the points next to the edges nor touch the halos.
subroutine RPN_COMM_xch_halo_start(list, ierr)
  use ISO_C_BINDING, only: C_INT
  use rpn_comm_halo_binding, only: rpncomm_xch_halo_start
  implicit none
  integer, intent(IN) :: list
  integer, intent(OUT) :: ierr
  ierr = rpncomm_xch_halo_start(int(list, C_INT))
end subroutine RPN_COMM_xch_halo_start

! Waits for the neighbours' part of the list's exchange and fills its halos.
subroutine RPN_COMM_xch_halo_finish(list, ierr)
  use ISO_C_BINDING, only: C_INT
  use rpn_comm_halo_binding, only: rpncomm_xch_halo_finish
  implicit none
  integer, intent(IN) :: list
  integer, intent(OUT) :: ierr
  ierr = rpncomm_xch_halo_finish(int(list, C_INT))
end subroutine RPN_COMM_xch_halo_finish

! Forgets the list (an exchange of it still in flight is finished first).
subroutine RPN_COMM_xch_halo_list_free(list, ierr)
  use ISO_C_BINDING, only: C_INT
  use rpn_comm_halo_binding, only: rpncomm_xch_halo_list_free
  implicit none
  integer, intent(IN) :: list
  integer, intent(OUT) :: ierr
  ierr = rpncomm_xch_halo_list_free(int(list, C_INT))
end subroutine RPN_COMM_xch_halo_list_free
