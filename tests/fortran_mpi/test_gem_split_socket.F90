! PES: 1 2 4 6
! TIMEOUT: 120
!
! MPI transport only. RPN_COMM_split_by_socket of the grid's communicator (RPN_COMM_comm('GRID')),
! before and after NODE_CPU_CONFIG is taken into account (the test sets none: the original's
! default of 2 sockets of 1 NUMA space each). Checked against MPI itself and the definition:
! - nodecomm holds the PEs of MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) (same size, same rank);
! - the node is cut into 2 parts of ceiling(node size / 2) consecutive node ranks: sockcomm's
!   size isiz and sockrank follow from noderank;
! - peercomm holds the PEs of equal sockrank, in grid-rank order (from an MPI_Allgather of every
!   PE's sockrank); MPI_Allreduce over each communicator counts its members.
program test_gem_split_socket
  use ISO_C_BINDING
  use mpi
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, nerr
  integer :: pex, pey, ierr, grid, node, nodesize, noderank, per, part, i, n, below, total
  integer :: nodecomm, sockcomm, peercomm, nrank, srank, prank, isiz, err
  integer, allocatable :: sranks(:)
  nerr = 0
  pex = 0
  pey = 0
  i = RPN_COMM_gridinit(me, npes, pex, pey, 1, 1)
  grid = RPN_COMM_comm('GRID')
  call RPN_COMM_split_by_socket(grid, nodecomm, sockcomm, peercomm, nrank, srank, prank, isiz, err)
  call check(err == RPN_COMM_OK, 'RPN_COMM_split_by_socket succeeds')
  ! the reference node communicator, from MPI
  call MPI_Comm_split_type(grid, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, node, ierr)
  call MPI_Comm_size(node, nodesize, ierr)
  call MPI_Comm_rank(node, noderank, ierr)
  call check(nrank == noderank, 'noderank = '//str(nrank)//', MPI says '//str(noderank))
  call MPI_Comm_size(nodecomm, n, ierr)
  call check(n == nodesize, 'nodecomm has '//str(n)//' PEs, the node '//str(nodesize))
  ! the node cut into 2 parts of ceiling(nodesize / 2)
  per = (nodesize + 1) / 2
  part = noderank / per
  call check(srank == noderank - part * per, 'sockrank = '//str(srank))
  call check(isiz == min(per, nodesize - part * per), 'isiz = '//str(isiz))
  call MPI_Allreduce(1, total, 1, MPI_INTEGER, MPI_SUM, sockcomm, ierr)
  call check(total == isiz, 'sockcomm has isiz members')
  ! peers: the PEs of equal sockrank, in grid order
  allocate(sranks(0:npes - 1))
  call MPI_Allgather(srank, 1, MPI_INTEGER, sranks, 1, MPI_INTEGER, grid, ierr)
  below = count(sranks(0:me - 1) == srank)
  call check(prank == below, 'peerrank = '//str(prank)//', expected '//str(below))
  call MPI_Allreduce(1, total, 1, MPI_INTEGER, MPI_SUM, peercomm, ierr)
  call check(total == count(sranks == srank), 'peercomm holds the PEs of equal sockrank')
  call MPI_Comm_free(node, ierr)
  call MPI_Comm_free(nodecomm, ierr)
  call MPI_Comm_free(sockcomm, ierr)
  call MPI_Comm_free(peercomm, ierr)
  ! a communicator that is none: refused
  call RPN_COMM_split_by_socket(MPI_COMM_NULL, nodecomm, sockcomm, peercomm, nrank, srank, prank, isiz, err)
  call check(err == RPN_COMM_ERROR .and. nrank == -1 .and. isiz == 0, 'MPI_COMM_NULL refused')
  call finish('test_gem_split_socket')
contains
  include 'tutil.inc'
end program test_gem_split_socket
