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

! The original's self-test of the tables (a driver inside its library), over 'GRID' of npetot PEs:
! one row per PE, 2 integers each, the middle PE the root, PEs mod(i, npetot) and mod(i + 1,
! npetot) its clients; prints the root's clients (RPN_COMM_get_dist_meta) or a client's roots
! and offsets, the root's data, then what each client received and its difference from what was
! sent (zeros). Returns 0.
integer function RPN_COMM_dist_test(npetot)
  implicit none
  integer, intent(IN) :: npetot
  integer, parameter :: MAX_CLIENTS = 3
  integer, external :: RPN_COMM_alloc_dist_table, RPN_COMM_add_dist_entry, RPN_COMM_do_dist, RPN_COMM_get_dist_meta
  integer, dimension(-2:MAX_CLIENTS, npetot) :: my_table
  integer, dimension(:,:), allocatable :: meta
  integer, dimension(:), allocatable :: values
  integer :: root, mype, ierr, pattern, ndata, nmeta, i, low, up

  RPN_COMM_dist_test = -1
  call RPN_COMM_rank('GRID', mype, ierr)
  ierr = RPN_COMM_alloc_dist_table(10)
  root = (npetot - 1) / 2
  my_table = -1
  do i = 1, npetot
    my_table(-1, i) = 2
    my_table(0, i) = root
    if (mod(i, npetot) /= root) my_table(1, i) = mod(i, npetot)
    if (mod(i + 1, npetot) /= root) my_table(2, i) = mod(i + 1, npetot)
  enddo
  if (mype == 0) print *, 'ROOT PE will be PE no', root
  pattern = RPN_COMM_add_dist_entry(my_table, MAX_CLIENTS, npetot, 'GRID', ndata, nmeta)
  if (pattern < 0) return
  allocate(meta(4, max(nmeta, 1)), values(max(ndata, 1)))
  if (RPN_COMM_get_dist_meta(pattern, meta, nmeta) /= 0) return
  if (mype == root) then
    print '(I3,A,20I4)', mype, ': CLIENTS', meta(4, 1:nmeta)
    print '(I3,A,20I4)', mype, ': EXCHNG ', meta(3, 1:nmeta)
    print '(I3,A,20I4)', mype, ': LENGTH ', meta(2, 1:nmeta)
    print '(I3,A,20I4)', mype, ': OFFSET ', meta(1, 1:nmeta)
  else
    print '(I3,A,20I4)', mype, ': ROOTPE ', my_table(0, :)
    print '(I3,A,20I4)', mype, ': OFFSETS', my_table(-2, :)
  endif
  values = -1
  do i = 1, npetot
    if (my_table(-2, i) /= 0 .and. my_table(0, i) == mype) then
      low = abs(my_table(-2, i))
      up = low + my_table(-1, i) - 1
      values(low:up) = mype + 100 * i
      print '(A,I2,A,20I4)', '<=', mype, ' =>', low, up, values(low:up)
    endif
  enddo
  ierr = RPN_COMM_do_dist(pattern, .true., values, ndata)
  do i = 1, npetot
    if (my_table(-2, i) /= 0 .and. my_table(0, i) /= mype) then
      low = abs(my_table(-2, i))
      up = low + my_table(-1, i) - 1
      print '(A,I2,A,20I4)', '==', mype, ' ==', low, up, values(low:up), values(low:up) - (root + 100 * i)
    endif
  enddo
  RPN_COMM_dist_test = 0
end function RPN_COMM_dist_test
