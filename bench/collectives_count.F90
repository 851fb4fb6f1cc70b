! collectives_count.F90 -- the MPI calls behind one RPN_COMM_allreduce of one real*8 (MPI_MAX over
! GRID, as gem_collectives' allreduce1), for bench/collectives.sh (COLLECTIVES_PMPI=1). Linked with
! bench/collectives_pmpi.c, which counts the MPI calls each PE makes between its two markers and
! prints them per allreduce from PE 0 ("COUNT ..." lines). Legacy interface only (`include
! 'RPN_COMM.inc'`), so that it builds against this library and against the original RPN_COMM.
! 10 allreduces first (what a library sets up on its first calls is not counted), then NOPS between
! the markers, every result checked. Argument 1: NOPS (default 100); argument 2: the operator,
! MPI_MAX (default) or MPI_SUM (a sum of reals over 3 PEs or more of one node is MPI's own call
! in this library, for MPI's grouping of the operands).
program collectives_count
  use iso_c_binding
  implicit none
  include 'RPN_COMM.inc'
  interface
    subroutine collectives_count_start() bind(C, name='collectives_count_start')
    end subroutine collectives_count_start
    subroutine collectives_count_stop(nops) bind(C, name='collectives_count_stop')
      integer, intent(IN) :: nops
    end subroutine collectives_count_stop
  end interface
  integer :: me, npes, pex, pey, ierr, i, nops
  real(kind=8) :: x, y
  logical :: bad
  character(len=16) :: arg, op
  external :: one_row

  pex = 0
  pey = 0
  call RPN_COMM_init(one_row, me, npes, pex, pey)
  nops = 100
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read(arg, *) nops
  endif
  op = 'MPI_MAX'
  if (command_argument_count() >= 2) call get_command_argument(2, op)
  if (op /= 'MPI_MAX' .and. op /= 'MPI_SUM') then
    write(*, '(A)') 'collectives_count: operator ' // trim(op) // ': MPI_MAX or MPI_SUM'
    stop 2
  endif
  bad = .false.
  do i = 1, 10
    x = me + i
    call RPN_COMM_allreduce(x, y, 1, 'MPI_DOUBLE_PRECISION', trim(op), 'GRID', ierr)
    bad = bad .or. y /= expected(i)
  enddo
  call RPN_COMM_barrier('GRID', ierr)
  call collectives_count_start()
  do i = 1, nops
    x = me + i
    call RPN_COMM_allreduce(x, y, 1, 'MPI_DOUBLE_PRECISION', trim(op), 'GRID', ierr)
    bad = bad .or. y /= expected(i)
  enddo
  call collectives_count_stop(nops)
  call RPN_COMM_barrier('GRID', ierr)
  if (bad) then
    write(*, '(A,I0)') 'collectives_count: wrong result of RPN_COMM_allreduce on PE ', me
    call RPN_COMM_finalize(ierr)
    stop 1
  endif
  call RPN_COMM_finalize(ierr)

contains

  ! the result of call i: the largest PE's value, or the sum of all (small integers: exact)
  real(kind=8) function expected(i)
    integer, intent(IN) :: i
    if (op == 'MPI_MAX') then
      expected = npes - 1 + i
    else
      expected = npes * (npes - 1) / 2 + npes * i
    endif
  end function expected
end program collectives_count

! every PE on one row
subroutine one_row(px, py)
  integer, intent(INOUT) :: px, py
  px = px * py
  py = 1
end subroutine one_row
