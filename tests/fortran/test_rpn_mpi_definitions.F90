! PES: 1 2 4 6
! TIMEOUT: 60
! OUTPUT_LACKS: Backtrace
!
! RPN_MPI_get_mpi_definitions(_raw) and RPN_MPI_get_mpi_layout(_raw), through RPN_MPI.hf, on one
! grid (1 PE), 2 grids (2 and 6 PEs) or 2 multigrids of 2 PEs (4 PEs) of RPN_COMM_init_multi_level:
! - every layout form (the older and newer, wrapped and raw, through the generics) holds the same
!   ranks and sizes, those of RPN_COMM_rank / _size on 'WORLD', 'ALLGRIDS', 'MULTIGRID', 'GRID',
!   'EW', 'NS' and 'GRIDPEERS', the communicators of RPN_COMM_comm (-1 without MPI), no row or
!   column in the supergrid (-1);
! - a caller's type of another version: refused, ierr = the error status, %version = -1;
! - the definitions: refused without MPI (ierr nonzero, nothing written); in the MPI build their
!   MPI_INTEGER and MPI_SUM are RPN_COMM_datyp's and MPI_COMM_NULL is the layout's null communicator
!   (tests/reference/rpn_mpi_definitions_side_by_side.F90 checks every constant against mpif.h).
program test_rpn_mpi_definitions
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, nerr
  integer :: pex, pey, mg, g, grid, wnpes, ierr, k
  character(len=12), dimension(7) :: names = [character(len=12) :: 'WORLD', 'ALLGRIDS', 'MULTIGRID', &
      'GRID', 'EW', 'NS', 'GRIDPEERS']
  integer, dimension(7) :: comms, ranks, sizes
  external :: defs_grid, rpn_mpi_part

  nerr = 0
  me = 0
  call RPN_COMM_size(RPN_COMM_WORLD, wnpes, ierr)
  mg = 1
  g = 1
  if (wnpes == 4) mg = 2
  if (wnpes == 2 .or. wnpes == 6) g = 2
  pex = wnpes / (mg * g)
  pey = 1
  grid = RPN_COMM_init_multi_level(defs_grid, me, npes, pex, pey, mg, g)
  do k = 1, size(names)
    comms(k) = RPN_COMM_comm(trim(names(k)))
    call RPN_COMM_rank(trim(names(k)), ranks(k), ierr)
    call RPN_COMM_size(trim(names(k)), sizes(k), ierr)
  end do
  call rpn_mpi_part(me, comms, ranks, sizes, RPN_COMM_datyp('MPI_INTEGER'), RPN_COMM_oper('MPI_SUM'), nerr)
  call finish('test_rpn_mpi_definitions')
contains
  include 'tutil.inc'
end program test_rpn_mpi_definitions

subroutine defs_grid(px, py)
  implicit none
  integer, intent(INOUT) :: px, py
  py = 1
end subroutine defs_grid

! In a unit of its own: RPN_MPI.hf and RPN_COMM.inc both declare RPN_COMM_comm.
subroutine rpn_mpi_part(me, comms, ranks, sizes, mpi_integer_handle, mpi_sum_handle, nerr)
  use ISO_C_BINDING
  implicit none
#include <RPN_MPI.hf>
  integer, intent(IN) :: me, mpi_integer_handle, mpi_sum_handle
  integer, dimension(7), intent(IN) :: comms, ranks, sizes
  integer, intent(INOUT) :: nerr
  type(mpi_layout_f) :: lf
  type(mpi_layout_r) :: lr
  type(mpi_layout) :: lo
  type(mpi_layout_internal) :: li
  type(RPN_MPI_mpi_definitions) :: dw
  type(RPN_MPI_mpi_definitions_raw) :: dr
  type(RPN_MPI_csr), dimension(7) :: want
  type(RPN_MPI_csr) :: none
  integer :: ierr, null, k
  logical :: mpi

  mpi = mpi_integer_handle /= -1
  do k = 1, 7
    want(k) = RPN_MPI_csr(comms(k), sizes(k), ranks(k))
  end do

  call RPN_MPI_get_mpi_layout(lf, ierr)
  call ok(ierr == 0 .and. lf%version == layout_version, 'RPN_MPI_get_mpi_layout (newer form) succeeds')
  call RPN_MPI_get_mpi_layout_raw(lr, ierr)
  call ok(ierr == 0, 'RPN_MPI_get_mpi_layout_raw (newer form) succeeds')
  call ok(all(transfer(lf, [0]) == transfer(lr, [0])), 'the wrapped and raw newer forms are the same')
  null = lr%sgrd%row%comm
  none = RPN_MPI_csr(null, -1, -1)
  call ok(same(lr%wrld%all, want(1)), 'wrld%all is WORLD')
  call ok(same(lr%appl%all, want(2)), 'appl%all is ALLGRIDS')
  call ok(same(lr%sgrd%all, want(3)) .and. same(lr%sgrd%compute, want(3)), 'sgrd%all and %compute are MULTIGRID')
  call ok(same(lr%grid%all, want(4)) .and. same(lr%grid%compute, want(4)), 'grid%all and %compute are GRID')
  call ok(same(lr%grid%row, want(5)), 'grid%row is EW')
  call ok(same(lr%grid%column, want(6)), 'grid%column is NS')
  call ok(same(lr%grid%grid_peer, want(7)), 'grid%grid_peer is GRIDPEERS')
  call ok(same(lr%sgrd%row, none) .and. same(lr%sgrd%column, none) .and. same(lr%grid%service, none), &
      'no supergrid row or column, no service PEs')
  call ok(lr%grid%all%rank == me, 'grid rank is RPN_COMM_init''s')

  call RPN_MPI_get_mpi_layout(lo, ierr)
  call ok(ierr == 0 .and. lo%version == layout_version, 'RPN_MPI_get_mpi_layout (older form) succeeds')
  call RPN_MPI_get_mpi_layout_raw(li, ierr)
  call ok(ierr == 0, 'RPN_MPI_get_mpi_layout_raw (older form) succeeds')
  call ok(all(transfer(lo, [0]) == transfer(li, [0])), 'the wrapped and raw older forms are the same')
  call ok(li%comm%grid%row == comms(5) .and. li%rank%grid%row == ranks(5) .and. li%size%grid%row == sizes(5), &
      'older form: grid row is EW')
  call ok(li%comm%wrld%all == comms(1) .and. li%rank%wrld%all == ranks(1) .and. li%size%wrld%all == sizes(1), &
      'older form: wrld%all is WORLD')
  call ok(li%size%sgrd%column == -1 .and. li%rank%sgrd%row == -1, 'older form: no supergrid row or column')
  call ok(all(li%colors == lr%colors) .and. li%host == lr%host, 'both forms: the same colors and host')

  lr%version = layout_version + 1
  call RPN_MPI_get_mpi_layout_raw(lr, ierr)
  call ok(ierr /= 0 .and. lr%version == -1, 'another layout version refused, %version -1')
  lo%version = 7
  call RPN_MPI_get_mpi_layout(lo, ierr)
  call ok(ierr /= 0 .and. lo%version == -1, 'another layout version refused (older form)')

  dr%MPI_INTEGER = -7
  call RPN_MPI_get_mpi_definitions_raw(dr, ierr)
  call RPN_MPI_get_mpi_definitions(dw, ierr)
  if (mpi) then
    call ok(ierr == 0 .and. dw%version == mpi_symbols_version, 'RPN_MPI_get_mpi_definitions succeeds with MPI')
    call ok(all(transfer(dw, [0]) == transfer(dr, [0])), 'wrapped and raw definitions are the same')
    call ok(dr%MPI_INTEGER == mpi_integer_handle .and. dr%MPI_SUM == mpi_sum_handle, &
        'MPI_INTEGER and MPI_SUM are RPN_COMM_datyp''s and _oper''s')
    call ok(dr%MPI_COMM_NULL == null .and. dr%MPI_SUCCESS == 0, 'MPI_COMM_NULL is the layout''s null, MPI_SUCCESS 0')
  else
    call ok(ierr /= 0 .and. dr%MPI_INTEGER == -7, 'RPN_MPI_get_mpi_definitions(_raw) refused without MPI')
  end if
  dw%version = 1
  call RPN_MPI_get_mpi_definitions(dw, ierr)
  call ok(ierr /= 0 .and. dw%version == -1, 'another definitions version refused, %version -1')

contains
  logical function same(a, b)
    type(RPN_MPI_csr), intent(IN) :: a, b
    same = a%comm == b%comm .and. a%size == b%size .and. a%rank == b%rank
  end function same
  subroutine ok(cond, what)
    logical, intent(IN) :: cond
    character(len=*), intent(IN) :: what
    if (.not. cond) then
      nerr = nerr + 1
      write(0, '(A,I0,A,A)') 'CHECK FAILED on PE ', me, ': ', what
    end if
  end subroutine ok
end subroutine rpn_mpi_part
