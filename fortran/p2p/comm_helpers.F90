! comm_helpers.F90 -- the original's helpers around handles, datatypes and communicators
!
! External procedures with the original RPN_COMM's names and dummy arguments; each only converts
! its arguments for the C ABI of the Rust core (src/ffi/p2p/comm_helpers.rs), which checks them
! and reports errors. Their signatures are rows of fortran/routines.toml. The routines that hand
! out or take MPI handles (world_set/get, split_by_node, group, ngrank, i_group, custom_comm,
! infotyp, status_size, i_user_datyp) work in the MPI build only: the shared-memory build refuses
! them with one line and leaves the values written here for a refused call.

integer function RPN_COMM_split(mex, nx, nxg, minx, maxx, nxl, nxlmax, halox, nx0, fill)
  use rpn_comm_p2p_binding
  implicit none
  integer, intent(IN) :: nx, mex, nxg, halox
  integer, intent(OUT) :: minx, maxx, nxl, nxlmax, nx0
  logical, intent(IN) :: fill
  integer(C_INT) :: v(5), f
  f = 0
  if (fill) f = 1
  v = 0
  RPN_COMM_split = -1
  if (rpncomm_split(int(mex, C_INT), int(nx, C_INT), int(nxg, C_INT), int(halox, C_INT), f, v) /= 0) return
  minx = v(1); maxx = v(2); nxl = v(3); nxlmax = v(4); nx0 = v(5)
  RPN_COMM_split = 0
end function RPN_COMM_split

logical function RPN_COMM_grank(com)
  use rpn_comm_p2p_binding
  implicit none
  character(len=*), intent(IN) :: com
  integer(C_INT) :: member, status
  member = 0      ! stays so for an unknown name (refused)
  status = rpncomm_grank(com, len(com, kind=C_SIZE_T), member)
  RPN_COMM_grank = member /= 0
end function RPN_COMM_grank

logical function RPN_COMM_ngrank(group)
  use rpn_comm_p2p_binding
  implicit none
  integer, intent(IN) :: group
  integer(C_INT) :: member, status
  member = 0
  status = rpncomm_ngrank(int(group, C_INT), member)
  RPN_COMM_ngrank = member /= 0
end function RPN_COMM_ngrank

integer function RPN_COMM_group(com)
  use rpn_comm_p2p_binding
  implicit none
  character(len=*), intent(IN) :: com
  integer(C_INT) :: g, status
  g = rpncomm_group_null()      ! stays so when refused
  status = rpncomm_group_fortran(com, len(com, kind=C_SIZE_T), g)
  RPN_COMM_group = g
end function RPN_COMM_group

subroutine RPN_COMM_i_group(com, rgroup, rcom)
  use rpn_comm_windows_types
  use rpn_comm_p2p_binding
  implicit none
  character(len=*), intent(IN) :: com
  type(rpncomm_group), intent(OUT) :: rgroup
  type(rpncomm_communicator), optional, intent(IN) :: rcom
  integer, parameter :: MAGIC = int(Z'13579BDF')
  integer, save, target :: signature = 0
  integer(C_INT) :: g, status
  g = rpncomm_group_null()
  if (present(rcom)) then
    status = rpncomm_group_of_comm(rcom, g)
  else
    status = rpncomm_group_fortran(com, len(com, kind=C_SIZE_T), g)
  endif
  ! the original's layout: t2 the MPI group, t1 its check, p set only for a group
  rgroup%t2 = g
  if (status == 0) then
    rgroup%p = C_LOC(signature)
    rgroup%t1 = ieor(g, MAGIC)
  else
    rgroup%p = C_NULL_PTR
    rgroup%t1 = g
  endif
end subroutine RPN_COMM_i_group

integer function RPN_COMM_colors(comm)
  use rpn_comm_p2p_binding
  implicit none
  character(len=*), intent(IN) :: comm
  integer(C_INT) :: c, status
  c = -1
  status = rpncomm_colors(comm, len(comm, kind=C_SIZE_T), c)
  RPN_COMM_colors = c
end function RPN_COMM_colors

integer function RPN_COMM_datyp_indx(data_int)
  use rpn_comm_p2p_binding
  implicit none
  character(len=*), intent(IN) :: data_int
  integer(C_INT) :: i, status
  i = -1
  status = rpncomm_datyp_indx(data_int, len(data_int, kind=C_SIZE_T), i)
  RPN_COMM_datyp_indx = i
end function RPN_COMM_datyp_indx

function RPN_COMM_i_valid_datyp(dtyp) result(valid)
  use rpn_comm_windows_types
  use rpn_comm_p2p_binding
  implicit none
  type(rpncomm_datatype), intent(IN) :: dtyp
  logical :: valid
  integer(C_INT) :: v, status
  v = 0
  status = rpncomm_valid_datyp(dtyp, v)
  valid = v /= 0
end function RPN_COMM_i_valid_datyp

function RPN_COMM_i_datyp_extent(dtyp) result(extent)
  use rpn_comm_windows_types
  use rpn_comm_p2p_binding
  implicit none
  type(rpncomm_datatype), intent(IN) :: dtyp
  integer :: extent
  integer(C_INT) :: e, status
  e = -1      ! as the original documents for a datatype of no extent
  status = rpncomm_datyp_extent(dtyp, e)
  extent = e
end function RPN_COMM_i_datyp_extent

subroutine RPN_COMM_i_user_datyp(dtyp_m, dtyp)
  use rpn_comm_windows_types
  use rpn_comm_p2p_binding
  implicit none
  type(rpncomm_datatype), intent(OUT) :: dtyp
  integer, intent(IN) :: dtyp_m
  integer(C_INT) :: status
  status = rpncomm_user_datyp(int(dtyp_m, C_INT), dtyp)
end subroutine RPN_COMM_i_user_datyp

subroutine RPN_COMM_defo(com)
  use rpn_comm_p2p_binding
  implicit none
  character(len=*), intent(IN) :: com
  integer(C_INT) :: status
  status = rpncomm_defo(com, len(com, kind=C_SIZE_T))
end subroutine RPN_COMM_defo

integer function RPN_COMM_custom_comm(mpicom, name, mode)
  use rpn_comm_p2p_binding
  implicit none
  character(len=*), intent(IN) :: name
  integer, intent(IN) :: mpicom
  integer, intent(IN) :: mode
  integer(C_INT) :: f, status
  f = -1      ! stays so where there is no MPI handle (the shared-memory build: refused)
  status = rpncomm_custom_comm(int(mpicom, C_INT), name, len(name, kind=C_SIZE_T), int(mode, C_INT), f)
  RPN_COMM_custom_comm = f
end function RPN_COMM_custom_comm

subroutine RPN_COMM_world_set(world_comm)
  use rpn_comm_p2p_binding
  implicit none
  integer, intent(IN) :: world_comm
  integer(C_INT) :: status
  status = rpncomm_world_set(int(world_comm, C_INT))
end subroutine RPN_COMM_world_set

subroutine RPN_COMM_world_get(world_comm)
  use rpn_comm_p2p_binding
  implicit none
  integer, intent(OUT) :: world_comm
  integer(C_INT) :: f, status
  f = -1
  status = rpncomm_world_get(f)
  world_comm = f
end subroutine RPN_COMM_world_get

subroutine RPN_COMM_split_by_node(origcomm, nodecomm, peercomm, noderank, peerrank, isiz, err)
  use rpn_comm_p2p_binding
  implicit none
  integer, intent(IN)  :: origcomm
  integer, intent(OUT) :: nodecomm
  integer, intent(OUT) :: peercomm
  integer, intent(OUT) :: noderank
  integer, intent(OUT) :: peerrank
  integer, intent(OUT) :: isiz
  integer, intent(OUT) :: err
  integer(C_INT) :: v(5)
  v = [-1, -1, -1, -1, 0]
  err = 0
  if (rpncomm_split_by_node(int(origcomm, C_INT), v) /= 0) then
    v = [-1, -1, -1, -1, 0]
    err = -1
  endif
  nodecomm = v(1); peercomm = v(2); noderank = v(3); peerrank = v(4); isiz = v(5)
end subroutine RPN_COMM_split_by_node

integer function RPN_COMM_infotyp(info)
  use rpn_comm_p2p_binding
  implicit none
  character(len=*), intent(IN) :: info
  integer(C_INT) :: f, status
  f = -1
  status = rpncomm_infotyp(info, len(info, kind=C_SIZE_T), f)
  RPN_COMM_infotyp = f
end function RPN_COMM_infotyp

subroutine RPN_COMM_status_size(status_size)
  use rpn_comm_p2p_binding
  implicit none
  integer, intent(OUT) :: status_size
  integer(C_INT) :: s, status
  s = -1   ! what the shared-memory build, which has no MPI status, leaves after its refusal
  status = rpncomm_status_size(s)
  status_size = s
end subroutine RPN_COMM_status_size
