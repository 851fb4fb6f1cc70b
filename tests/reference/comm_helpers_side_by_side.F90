! comm_helpers_side_by_side.F90 -- the original's helpers around handles, datatypes and
! communicators, built against the original RPN_COMM and against this library by side_by_side.sh,
! which compares what they print. On 4 and 6 PEs the job is cut in two halves by MPI_Comm_split
! and each half is given to RPN_COMM_world_set before RPN_COMM_init (two jobs of their own, one of
! 2 multigrids, the other of 2 grids on 4 PEs); on 1 and 2 PEs MPI_COMM_WORLD itself. Printed, on
! each PE (by its rank in MPI_COMM_WORLD): RPN_COMM_world_get, RPN_COMM_split for several tiles,
! grank, group (its size and rank), ngrank and i_group of the communicator names, colors,
! datyp_indx of every name of the table, i_valid_datyp, defo, custom_comm (set, get, delete),
! split_by_node (twice: the same communicators), infotyp, status_size and i_user_datyp.
program comm_helpers_side_by_side
  use ISO_C_BINDING
  use mpi
  implicit none
  include 'RPN_COMM.inc'
  integer, parameter :: NNAMES = 7, NTYPES = 27
  character(len=16), dimension(NNAMES) :: names = [character(len=16) :: 'GRID', 'WORLD', 'EW', 'NS', &
                                                   'ALLGRIDS', 'MULTIGRID', 'GRIDPEERS']
  character(len=24), dimension(NTYPES) :: types = [character(len=24) :: 'MPI_BYTE', 'MPI_PACKED', 'MPI_UB', &
      'MPI_LB', 'MPI_CHARACTER', 'MPI_LOGICAL', 'MPI_INTEGER', 'MPI_INTEGER1', 'MPI_INTEGER2', 'MPI_INTEGER4', &
      'MPI_INTEGER8', 'MPI_DATATYPE_NULL', 'MPI_REAL', 'MPI_REAL4', 'MPI_REAL8', 'MPI_REAL16', &
      'MPI_DOUBLE_PRECISION', 'MPI_COMPLEX', 'MPI_COMPLEX8', 'MPI_COMPLEX16', 'MPI_COMPLEX32', &
      'MPI_DOUBLE_COMPLEX', 'MPI_2REAL', 'MPI_2DOUBLE_PRECISION', 'MPI_2INTEGER', 'mpi_integer', 'MPI_DOUBLE']
  character(len=16) :: cname
  integer :: wme, wnpes, ierr, half, world, got, me, npes, pex, pey, mg, g, grid, i, n
  integer :: nx, mex, nxg, halox, minx, maxx, nxl, nxlmax, nx0, st, f
  integer :: grp, gsize, grank, dup, c, node, peer, noderank, peerrank, isiz, err, node2, peer2
  integer :: t3
  logical :: fill
  type(rpncomm_group) :: rg
  type(rpncomm_datatype) :: dt
  external :: comm_helpers_grid

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, wme, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, wnpes, ierr)
  world = MPI_COMM_WORLD
  half = 0
  if (wnpes >= 4) then
    half = wme / (wnpes / 2)
    call MPI_Comm_split(MPI_COMM_WORLD, half, wme, world, ierr)
  endif
  call RPN_COMM_world_set(world)
  call RPN_COMM_world_get(got)
  write(*, '(A,I0,A,L1)') 'pe ', wme, ' world_get is the world set ', got == world
  call MPI_Comm_size(world, n, ierr)
  ! the layouts: 2 multigrids (first half of 4), 2 grids (second half of 4, and 2 PEs), one grid
  mg = 1
  g = 1
  if (n == 2 .and. half == 0 .and. wnpes == 4) mg = 2
  if (n == 2 .and. .not. (half == 0 .and. wnpes == 4)) g = 2
  pex = n / (mg * g)
  pey = 1
  grid = RPN_COMM_init_multi_level(comm_helpers_grid, me, npes, pex, pey, mg, g)
  write(*, '(A,I0,A,I0,A,I0,A,I0)') 'pe ', wme, ' init ', grid, ' me ', me, ' npes ', npes

  ! RPN_COMM_split: every tile of 10 and 11 points over 1 to 4 PEs, halos 0 and 2, fill or not
  do nx = 1, 4
    do mex = 0, nx - 1
      do nxg = 10, 11
        do halox = 0, 2, 2
          do i = 0, 1
            fill = i == 1
            minx = -99; maxx = -99; nxl = -99; nxlmax = -99; nx0 = -99
            st = RPN_COMM_split(mex, nx, nxg, minx, maxx, nxl, nxlmax, halox, nx0, fill)
            write(*, '(A,I0,A,5(I0,1X),L1,A,I0,5(1X,I0))') 'pe ', wme, ' split ', mex, nx, nxg, halox, i, fill, &
                ' -> ', st, minx, maxx, nxl, nxlmax, nx0
          enddo
        enddo
      enddo
    enddo
  enddo

  ! membership, groups and colors of the communicator names
  do i = 1, NNAMES
    grp = RPN_COMM_group(names(i))
    call MPI_Group_size(grp, gsize, ierr)
    call MPI_Group_rank(grp, grank, ierr)
    write(*, '(A,I0,A,A,A,L1,A,I0,A,I0,A,L1)') 'pe ', wme, ' name ', trim(names(i)), ' grank ', &
        RPN_COMM_grank(names(i)), ' group size ', gsize, ' rank ', grank, ' ngrank ', RPN_COMM_ngrank(grp)
    call RPN_COMM_i_group(names(i), rg)
    call MPI_Group_compare(rg%t2, grp, c, ierr)
    write(*, '(A,I0,A,A,A,L1,L1,L1)') 'pe ', wme, ' i_group ', trim(names(i)), ' ', c == MPI_IDENT, &
        rg%t1 == ieor(rg%t2, RPN_COMM_MAGIC), c_associated(rg%p)
  enddo
  do i = 1, 5
    cname = 'GRID'
    if (i == 2) cname = 'WORLD'
    if (i == 3) cname = 'ALLGRIDS'
    if (i == 4) cname = 'MULTIGRID'
    if (i == 5) cname = 'EW'
    write(*, '(A,I0,A,A,A,I0)') 'pe ', wme, ' colors ', trim(cname), ' ', RPN_COMM_colors(cname)
  enddo

  ! datatypes
  do i = 1, NTYPES
    write(*, '(A,I0,A,A,A,I0)') 'pe ', wme, ' datyp_indx ', trim(types(i)), ' ', RPN_COMM_datyp_indx(types(i))
  enddo
  do i = 1, NTYPES
    if (i == 3 .or. i == 4 .or. i == NTYPES) cycle   ! no handle of MPI_UB, MPI_LB or unknown names
    call RPN_COMM_i_datyp(types(i), dt)
    write(*, '(A,I0,A,A,A,L1)') 'pe ', wme, ' i_valid_datyp ', trim(types(i)), ' ', RPN_COMM_i_valid_datyp(dt)
  enddo
  write(*, '(A,I0,A,L1)') 'pe ', wme, ' i_valid_datyp null ', RPN_COMM_i_valid_datyp(NULL_rpncomm_datatype)
  call MPI_Type_contiguous(3, MPI_REAL, t3, ierr)
  call MPI_Type_commit(t3, ierr)
  call RPN_COMM_i_user_datyp(t3, dt)
  write(*, '(A,I0,A,L1)') 'pe ', wme, ' i_user_datyp valid ', RPN_COMM_i_valid_datyp(dt)

  ! the default communicator
  call RPN_COMM_defo('EW')
  f = RPN_COMM_comm('DEFO')
  call MPI_Comm_size(f, n, ierr)
  write(*, '(A,I0,A,L1,A,I0)') 'pe ', wme, ' defo EW ', f == RPN_COMM_comm('EW'), ' size ', n
  call RPN_COMM_defo('GRID')
  write(*, '(A,I0,A,L1)') 'pe ', wme, ' defo GRID ', RPN_COMM_comm('DEFO') == RPN_COMM_comm('GRID')

  ! communicators named by the program
  call MPI_Comm_dup(world, dup, ierr)
  c = RPN_COMM_custom_comm(dup, 'MyComm', RPN_COMM_SET)
  write(*, '(A,I0,A,L1)') 'pe ', wme, ' custom set ', c == dup
  c = RPN_COMM_custom_comm(0, 'MYCOMM', RPN_COMM_GET)
  write(*, '(A,I0,A,L1,L1)') 'pe ', wme, ' custom get ', c == dup, RPN_COMM_comm('mycomm') == dup
  c = RPN_COMM_custom_comm(0, 'GRID', RPN_COMM_GET)
  write(*, '(A,I0,A,L1)') 'pe ', wme, ' custom get GRID ', c == RPN_COMM_comm('GRID')
  c = RPN_COMM_custom_comm(0, 'MYCOMM', RPN_COMM_DEL)
  write(*, '(A,I0,A,L1)') 'pe ', wme, ' custom del ', c == MPI_COMM_NULL
  c = RPN_COMM_custom_comm(0, 'MYCOMM', RPN_COMM_GET)
  write(*, '(A,I0,A,L1)') 'pe ', wme, ' custom get after del ', c == MPI_COMM_NULL

  ! split by node, twice
  call RPN_COMM_split_by_node(world, node, peer, noderank, peerrank, isiz, err)
  write(*, '(A,I0,A,5(1X,I0))') 'pe ', wme, ' split_by_node', noderank, peerrank, isiz, err
  call RPN_COMM_split_by_node(world, node2, peer2, noderank, peerrank, isiz, err)
  write(*, '(A,I0,A,L1,L1,4(1X,I0))') 'pe ', wme, ' split_by_node again ', node == node2, peer == peer2, &
      noderank, peerrank, isiz, err
  call MPI_Comm_size(peer, n, ierr)
  write(*, '(A,I0,A,I0)') 'pe ', wme, ' split_by_node peers ', n

  ! MPI constants
  write(*, '(A,I0,A,L1)') 'pe ', wme, ' infotyp ', RPN_COMM_infotyp('MPI_INFO_NULL') == MPI_INFO_NULL
  call RPN_COMM_status_size(n)
  write(*, '(A,I0,A,L1)') 'pe ', wme, ' status_size ', n == MPI_STATUS_SIZE

  call RPN_COMM_finalize(ierr)
end program comm_helpers_side_by_side

subroutine comm_helpers_grid(px, py)
  implicit none
  integer, intent(INOUT) :: px, py
  py = 1
end subroutine comm_helpers_grid
