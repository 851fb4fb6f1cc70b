! local_dist.F90 -- the original's local distribution tables: patterns of exchanges between a
! root PE and its client PEs (RPN_COMM_add_dist_entry), their sizes, offsets and descriptions,
! and the exchange itself (RPN_COMM_do_dist).
!
! External procedures with the original's names and dummy arguments; each converts its arguments
! for the C ABI of the Rust core (src/ffi/p2p/local_dist.rs), which keeps the tables, checks the
! arguments and reports errors. Their signatures are rows of fortran/routines.toml.

integer function RPN_COMM_alloc_dist_table(nentries)
  use rpn_comm_p2p_binding
  implicit none
  integer, intent(IN) :: nentries
  integer(C_INT) :: made
  made = -1
  if (rpncomm_alloc_dist_table(int(nentries, C_INT), made) /= 0) made = -1
  RPN_COMM_alloc_dist_table = made
end function RPN_COMM_alloc_dist_table

function RPN_COMM_dist_offsets(pattern, offsets, noffsets)
  use rpn_comm_p2p_binding
  implicit none
  integer :: RPN_COMM_dist_offsets
  integer, intent(IN) :: pattern, noffsets
  integer, dimension(noffsets), intent(OUT) :: offsets
  integer(C_INT), dimension(max(noffsets, 1)) :: c
  integer(C_INT) :: n
  n = -1
  if (rpncomm_dist_offsets(int(pattern, C_INT), c, int(noffsets, C_INT), n) /= 0) n = -1
  if (n > 0) offsets(1:n) = c(1:n)
  RPN_COMM_dist_offsets = n
end function RPN_COMM_dist_offsets

integer function RPN_COMM_dist_pattern(pattern)
  use rpn_comm_p2p_binding
  implicit none
  integer, intent(IN) :: pattern
  integer(C_INT) :: valid
  valid = -1
  if (rpncomm_dist_pattern(int(pattern, C_INT), valid) /= 0) valid = -1
  RPN_COMM_dist_pattern = valid
end function RPN_COMM_dist_pattern

integer function RPN_COMM_get_dist_meta(pattern, metadata, nmeta)
  use rpn_comm_p2p_binding
  implicit none
  integer, intent(IN) :: pattern, nmeta
  integer, intent(OUT), dimension(4,nmeta) :: metadata
  integer(C_INT), dimension(4, max(nmeta, 1)) :: c
  integer(C_INT) :: status
  status = -1
  if (rpncomm_get_dist_meta(int(pattern, C_INT), c, int(nmeta, C_INT), status) /= 0) status = -1
  if (status == 0 .and. nmeta > 0) metadata(:, 1:nmeta) = c(:, 1:nmeta)
  RPN_COMM_get_dist_meta = status
end function RPN_COMM_get_dist_meta

subroutine RPN_COMM_get_dist_dims(pattern, ndata, nmeta)
  use rpn_comm_p2p_binding
  implicit none
  integer, intent(IN) :: pattern
  integer, intent(OUT) :: ndata, nmeta
  integer(C_INT) :: d, m
  if (rpncomm_get_dist_dims(int(pattern, C_INT), d, m) /= 0) then
    d = -1
    m = -1
  endif
  ndata = d
  nmeta = m
end subroutine RPN_COMM_get_dist_dims

! table(-2, :) receives each row's offset (999999999 everywhere when the pattern is refused, as
! the original leaves it when its table is full).
integer function RPN_COMM_add_dist_entry(table, max_clients, nrows, communicator, ndata, nmeta)
  use rpn_comm_p2p_binding
  implicit none
  integer, intent(IN) :: max_clients, nrows
  integer, dimension(-2:max_clients,nrows), intent(INOUT) :: table
  character(len=*), intent(IN) :: communicator
  integer, intent(OUT) :: ndata, nmeta
  integer(C_INT), dimension(:,:), allocatable :: c
  integer(C_INT) :: d, m, p
  if (nrows > 0) table(-2, :) = 999999999
  ndata = 0
  nmeta = 0
  allocate(c(-2:max(max_clients, -2), max(nrows, 1)))
  c = -1
  if (nrows > 0 .and. max_clients >= -2) c(:, 1:nrows) = table(:, 1:nrows)
  p = -1
  if (rpncomm_add_dist_entry(c, int(max_clients, C_INT), int(nrows, C_INT), communicator, &
                             len(communicator, C_SIZE_T), d, m, p) /= 0) p = -1
  if (p > 0) then
    table(-2, 1:nrows) = c(-2, 1:nrows)
    ndata = d
    nmeta = m
  endif
  RPN_COMM_add_dist_entry = p
end function RPN_COMM_add_dist_entry

! Not collective: each PE exchanges with the PEs its part of the pattern names.
function RPN_COMM_do_dist(pattern, from_root, values, nvalues)
  use rpn_comm_p2p_binding
  implicit none
  integer :: RPN_COMM_do_dist
  integer, intent(IN) :: pattern, nvalues
  logical, intent(IN) :: from_root
  integer, dimension(nvalues), intent(INOUT) :: values
  integer(C_INT) :: f
  f = 0
  if (from_root) f = 1
  RPN_COMM_do_dist = 0
  if (rpncomm_do_dist(int(pattern, C_INT), f, values, int(nvalues, C_INT)) /= 0) RPN_COMM_do_dist = -1
end function RPN_COMM_do_dist
