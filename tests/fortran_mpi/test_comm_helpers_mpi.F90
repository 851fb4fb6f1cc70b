! PES: 1 2 4 6
! TIMEOUT: 120
!
! MPI transport only. The helpers that hand out or take MPI handles, checked against MPI itself:
! - RPN_COMM_world_set before RPN_COMM_init: on 4 and 6 PEs each half of MPI_COMM_WORLD (from
!   MPI_Comm_split) is a job of its own: RPN_COMM_world_get gives it back, 'WORLD' and 'GRID' hold
!   the half only (size, and a sum over 'WORLD'); after RPN_COMM_init RPN_COMM_world_set is refused
!   and world_get unchanged; on 1 and 2 PEs world_get is MPI_COMM_WORLD;
! - RPN_COMM_split_by_node of the job: the PEs of MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) (size,
!   rank; cut into RPNCOMM_NODE_SPLIT's pretend nodes where it is set), peers of equal node rank; a second call gives the same communicators;
! - RPN_COMM_group of 'GRID', 'EW' and 'NS': MPI_IDENT to MPI_Comm_group of RPN_COMM_comm's
!   communicator, RPN_COMM_ngrank .true.; RPN_COMM_i_group with a communicator handle of
!   RPN_COMM_i_comm; an unknown name refused (MPI_GROUP_NULL), ngrank of MPI_GROUP_NULL .false.;
! - RPN_COMM_custom_comm: a duplicate named, found by RPN_COMM_comm, forgotten; a bad mode refused;
! - RPN_COMM_infotyp: MPI_INFO_NULL; RPN_COMM_status_size: MPI_STATUS_SIZE;
! - RPN_COMM_i_user_datyp of 3 contiguous reals: valid, extent 12; of MPI_DATATYPE_NULL: refused.
program test_comm_helpers_mpi
  use ISO_C_BINDING
  use mpi
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, nerr
  integer :: wme, wnpes, ierr, half, hsize, world, got, pex, pey, n, s, i, c, t3, g, g2
  integer :: node, peer, nrank, prank, isiz, err, node2, peer2, mpinode, r, split, part
  character(len=16) :: split_text
  character(len=4), dimension(3) :: names = ['GRID', 'EW  ', 'NS  ']
  type(rpncomm_communicator) :: com
  type(rpncomm_group) :: rg
  type(rpncomm_datatype) :: dt
  external :: helpers_mpi_grid

  nerr = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, wme, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, wnpes, ierr)
  me = wme
  world = MPI_COMM_WORLD
  half = 0
  if (wnpes >= 4) then
    half = wme / (wnpes / 2)
    call MPI_Comm_split(MPI_COMM_WORLD, half, wme, world, ierr)
    call RPN_COMM_world_set(world)
  endif
  call MPI_Comm_size(world, hsize, ierr)
  call RPN_COMM_world_get(got)
  call check(got == world, 'RPN_COMM_world_get before RPN_COMM_init')
  pex = hsize
  pey = 1
  call RPN_COMM_init(helpers_mpi_grid, me, npes, pex, pey)
  call check(npes == hsize, 'the job is the half: '//str(npes)//' PEs')
  call RPN_COMM_size(RPN_COMM_WORLD, n, ierr)
  call check(n == hsize, 'WORLD is the half: '//str(n))
  call RPN_COMM_allreduce(1, s, 1, 'MPI_INTEGER', 'MPI_SUM', RPN_COMM_WORLD, ierr)
  call check(s == hsize, 'a sum over WORLD counts the half: '//str(s))
  call RPN_COMM_world_set(MPI_COMM_WORLD)
  call RPN_COMM_world_get(got)
  call check(got == world, 'RPN_COMM_world_set after RPN_COMM_init refused')

  ! split by node
  call RPN_COMM_split_by_node(world, node, peer, nrank, prank, isiz, err)
  call MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, mpinode, ierr)
  ! (pretend nodes of RPNCOMM_NODE_SPLIT ranks, as the library's windows see them, where it is set)
  call get_environment_variable('RPNCOMM_NODE_SPLIT', split_text, status=ierr)
  split = 0
  if (ierr == 0 .and. len_trim(split_text) > 0) read(split_text, *) split
  if (split > 0) then
    call MPI_Comm_rank(mpinode, r, ierr)
    call MPI_Comm_split(mpinode, r / split, r, part, ierr)
    mpinode = part
  endif
  call MPI_Comm_size(mpinode, n, ierr)
  call MPI_Comm_rank(mpinode, r, ierr)
  call check(err == RPN_COMM_OK .and. isiz == n .and. nrank == r, 'RPN_COMM_split_by_node: the node of MPI')
  call MPI_Comm_size(node, n, ierr)
  call check(n == isiz, 'nodecomm holds the node')
  call MPI_Allreduce(1, s, 1, MPI_INTEGER, MPI_SUM, peer, ierr)
  call MPI_Comm_rank(peer, r, ierr)
  call check(r == prank, 'peerrank is the rank in peercomm')
  call RPN_COMM_split_by_node(world, node2, peer2, nrank, prank, isiz, err)
  call check(node2 == node .and. peer2 == peer .and. err == RPN_COMM_OK, 'a second split: the same communicators')

  ! groups
  do i = 1, size(names)
    g = RPN_COMM_group(names(i))
    call MPI_Comm_group(RPN_COMM_comm(names(i)), g2, ierr)
    call MPI_Group_compare(g, g2, c, ierr)
    call check(c == MPI_IDENT .and. RPN_COMM_ngrank(g), 'RPN_COMM_group of '//trim(names(i)))
    call RPN_COMM_i_comm(names(i), com)
    call RPN_COMM_i_group('unused', rg, com)
    call MPI_Group_compare(rg%t2, g2, c, ierr)
    call check(c == MPI_IDENT .and. c_associated(rg%p), 'RPN_COMM_i_group of a handle of '//trim(names(i)))
  enddo
  call check(RPN_COMM_group('NOSUCH') == MPI_GROUP_NULL, 'RPN_COMM_group of an unknown name: MPI_GROUP_NULL')
  call check(.not. RPN_COMM_ngrank(MPI_GROUP_NULL), 'RPN_COMM_ngrank of MPI_GROUP_NULL')

  ! named communicators
  call MPI_Comm_dup(world, c, ierr)
  call check(RPN_COMM_custom_comm(c, 'Mine', RPN_COMM_SET) == c, 'RPN_COMM_custom_comm sets Mine')
  call check(RPN_COMM_comm('MINE') == c .and. RPN_COMM_custom_comm(0, 'mine', RPN_COMM_GET) == c, 'Mine found')
  call check(RPN_COMM_custom_comm(0, 'MINE', RPN_COMM_DEL) == MPI_COMM_NULL, 'Mine deleted')
  call check(RPN_COMM_custom_comm(0, 'MINE', RPN_COMM_GET) == MPI_COMM_NULL, 'Mine forgotten')
  call check(RPN_COMM_custom_comm(c, 'MINE', 7) == -1, 'a bad mode refused')

  ! MPI constants and user datatypes
  call check(RPN_COMM_infotyp('MPI_INFO_NULL') == MPI_INFO_NULL, 'RPN_COMM_infotyp')
  call RPN_COMM_status_size(n)
  call check(n == MPI_STATUS_SIZE, 'RPN_COMM_status_size: '//str(n))
  call MPI_Type_contiguous(3, MPI_REAL, t3, ierr)
  call MPI_Type_commit(t3, ierr)
  call RPN_COMM_i_user_datyp(t3, dt)
  call check(RPN_COMM_i_valid_datyp(dt) .and. RPN_COMM_i_datyp_extent(dt) == 12, 'a user datatype of 3 reals')
  call RPN_COMM_i_user_datyp(MPI_DATATYPE_NULL, dt)
  call check(.not. RPN_COMM_i_valid_datyp(dt), 'RPN_COMM_i_user_datyp of MPI_DATATYPE_NULL refused')

  call finish('test_comm_helpers_mpi')
contains
  include 'tutil.inc'
end program test_comm_helpers_mpi

subroutine helpers_mpi_grid(px, py)
  implicit none
  integer, intent(INOUT) :: px, py
  py = 1
end subroutine helpers_mpi_grid
