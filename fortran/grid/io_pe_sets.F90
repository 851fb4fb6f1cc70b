! io_pe_sets.F90 -- sets of I/O PEs spread over the grid
!
! External procedures with the original RPN_COMM's names and dummy arguments (their link names
! are the plain Fortran ones, so code written for the original links unchanged); each only
! converts its arguments for the C ABI of the Rust core (logical <-> int, character(len=*) ->
! pointer + length, assumed-shape -> contiguous copy + count), which checks them and reports errors.
! Their signatures are rows of fortran/routines.toml, which generates their interfaces;
! fortran/gen/check_routines.py (make check) checks each routine here against its row.

! ================================================================= PE grid: I/O PE sets

function RPN_COMM_create_io_set(npes, method) result(setno)
  use rpn_comm_grid_binding
  implicit none
  integer, intent(IN) :: npes
  integer, intent(IN) :: method
  integer :: setno
  integer(C_INT) :: n
  n = -1
  if (rpncomm_create_io_set(int(npes, C_INT), int(method, C_INT), n) /= 0) n = -1
  setno = n
end function RPN_COMM_create_io_set

function RPN_COMM_free_io_set(setno) result(freed)
  use rpn_comm_grid_binding
  implicit none
  integer, intent(IN) :: setno
  integer :: freed
  integer(C_INT) :: n
  n = -1
  if (rpncomm_free_io_set(int(setno, C_INT), n) /= 0) n = -1
  freed = n
end function RPN_COMM_free_io_set

function RPN_COMM_is_io_pe(setno) result(ordinal)
  use rpn_comm_grid_binding
  implicit none
  integer, intent(IN) :: setno
  integer :: ordinal
  integer(C_INT) :: n
  n = -1
  if (rpncomm_is_io_pe(int(setno, C_INT), n) /= 0) n = -1
  ordinal = n
end function RPN_COMM_is_io_pe

function RPN_COMM_io_pe_gridid(setno, n) result(ordinal)
  use rpn_comm_grid_binding
  implicit none
  integer, intent(IN) :: setno
  integer, intent(IN) :: n
  integer :: ordinal
  integer(C_INT) :: r
  r = -1
  if (rpncomm_io_pe_gridid(int(setno, C_INT), int(n, C_INT), r) /= 0) r = -1
  ordinal = r
end function RPN_COMM_io_pe_gridid

function RPN_COMM_io_pe_size(setno) result(population)
  use rpn_comm_grid_binding
  implicit none
  integer, intent(IN) :: setno
  integer :: population
  integer(C_INT) :: n
  n = -1
  if (rpncomm_io_pe_size(int(setno, C_INT), n) /= 0) n = -1
  population = n
end function RPN_COMM_io_pe_size

function RPN_COMM_io_pe_comm(setno) result(communicator)
  use rpn_comm_grid_binding
  implicit none
  integer, intent(IN) :: setno
  integer :: communicator
  integer(C_INT) :: f, status
  f = -1      ! stays so where there is no MPI handle (the shared-memory build: refused)
  status = rpncomm_io_pe_comm(int(setno, C_INT), f)
  communicator = f
end function RPN_COMM_io_pe_comm

function RPN_COMM_io_pe_valid_set(x, y, npes, penx, peny, diag, method) result(status)
  use rpn_comm_grid_binding
  implicit none
  integer, intent(IN) :: npes
  integer, dimension(npes), intent(OUT) :: x
  integer, dimension(npes), intent(OUT) :: y
  integer, intent(IN) :: penx, peny
  integer, intent(IN) :: method
  logical, intent(IN) :: diag
  integer :: status
  integer(C_INT), dimension(max(npes, 1)) :: cx, cy
  integer(C_INT) :: d
  d = 0
  if (diag) d = 1
  cx = -1
  cy = -1
  status = rpncomm_io_pe_valid_set(cx, cy, int(npes, C_INT), int(penx, C_INT), int(peny, C_INT), d, int(method, C_INT))
  if (npes > 0) then
    x(1:npes) = cx(1:npes)
    y(1:npes) = cy(1:npes)
  endif
end function RPN_COMM_io_pe_valid_set
