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

function RPN_COMM_is_valid_io_setno(setno) result(valid)
  use rpn_comm_grid_binding
  implicit none
  integer, intent(IN) :: setno
  logical :: valid
  integer(C_INT) :: v
  v = 0
  if (rpncomm_is_valid_io_setno(int(setno, C_INT), v) /= 0) v = 0
  valid = v /= 0
end function RPN_COMM_is_valid_io_setno

function RPN_COMM_io_pe_groups(setno) result(ngroups)
  use rpn_comm_grid_binding
  implicit none
  integer, intent(IN) :: setno
  integer :: ngroups
  integer(C_INT) :: n
  n = -1
  if (rpncomm_io_pe_groups(int(setno, C_INT), n) /= 0) n = -1
  ngroups = n
end function RPN_COMM_io_pe_groups

! The list is the caller's to deallocate, as the original's; a null pointer for no such set.
function RPN_COMM_io_pe_idlist(setno) result(idlist)
  use rpn_comm_grid_binding
  implicit none
  integer, intent(IN) :: setno
  integer, dimension(:), pointer :: idlist
  character(len=*), parameter :: me = 'RPN_COMM_io_pe_idlist'
  integer(C_INT), dimension(:), allocatable :: cx, cy, cid
  integer(C_INT) :: n
  nullify(idlist)
  allocate(cx(1), cy(1), cid(1))
  if (rpncomm_io_pe_members(me, len(me, C_SIZE_T), int(setno, C_INT), 0_C_INT, cx, cy, cid, n) /= 0) return
  if (n <= 0) return
  deallocate(cx, cy, cid)
  allocate(cx(n), cy(n), cid(n))
  if (rpncomm_io_pe_members(me, len(me, C_SIZE_T), int(setno, C_INT), n, cx, cy, cid, n) /= 0) return
  allocate(idlist(n))
  idlist = cid
end function RPN_COMM_io_pe_idlist

! list(:,1) the x, list(:,2) the y grid coordinates of the set's PEs; the caller's to deallocate.
function RPN_COMM_io_pe_coord(setno) result(list)
  use rpn_comm_grid_binding
  implicit none
  integer, intent(IN) :: setno
  integer, dimension(:,:), pointer :: list
  character(len=*), parameter :: me = 'RPN_COMM_io_pe_coord'
  integer(C_INT), dimension(:), allocatable :: cx, cy, cid
  integer(C_INT) :: n
  nullify(list)
  allocate(cx(1), cy(1), cid(1))
  if (rpncomm_io_pe_members(me, len(me, C_SIZE_T), int(setno, C_INT), 0_C_INT, cx, cy, cid, n) /= 0) return
  if (n <= 0) return
  deallocate(cx, cy, cid)
  allocate(cx(n), cy(n), cid(n))
  if (rpncomm_io_pe_members(me, len(me, C_SIZE_T), int(setno, C_INT), n, cx, cy, cid, n) /= 0) return
  allocate(list(n, 2))
  list(:, 1) = cx
  list(:, 2) = cy
end function RPN_COMM_io_pe_coord

! On the set's members: callback(argv, setno, comm, ordinal, x, y, npe), its value returned
! (comm: the set's MPI communicator, -1 in the shared-memory build); 0 elsewhere, -1 for no set.
function RPN_COMM_io_pe_callback(setno, callback, argv) result(status)
  use rpn_comm_grid_binding
  implicit none
  integer, intent(IN) :: setno
  type(C_PTR) :: argv
  integer, external :: callback
  integer :: status
  character(len=*), parameter :: me = 'RPN_COMM_io_pe_callback'
  integer(C_INT), dimension(:), allocatable :: cx, cy, cid
  integer, dimension(:), allocatable :: x, y
  integer(C_INT) :: rank, fcomm, member, n
  status = -1
  if (rpncomm_io_pe_membership(int(setno, C_INT), rank, fcomm, member) /= 0) return
  if (member < 0) return
  status = 0
  if (member == 0) return
  allocate(cx(1), cy(1), cid(1))
  if (rpncomm_io_pe_members(me, len(me, C_SIZE_T), int(setno, C_INT), 0_C_INT, cx, cy, cid, n) /= 0) return
  deallocate(cx, cy, cid)
  allocate(cx(max(n, 1)), cy(max(n, 1)), cid(max(n, 1)))
  if (rpncomm_io_pe_members(me, len(me, C_SIZE_T), int(setno, C_INT), n, cx, cy, cid, n) /= 0) return
  allocate(x(n), y(n))
  x = cx(1:n)
  y = cy(1:n)
  status = callback(argv, setno, int(fcomm), int(rank), x, y, int(n))
end function RPN_COMM_io_pe_callback

! Broadcast among the members of the set (root: a rank in the set); a PE that is no member takes
! no part and gets ierr = RPN_COMM_ERROR, as in the original.
subroutine RPN_COMM_io_pe_bcast(buffer, count, datatype, root, setno, ierr)
  use rpn_comm_grid_binding
  implicit none
  integer, intent(IN) :: setno
  integer, intent(IN) :: count
!GCC$ ATTRIBUTES NO_ARG_CHECK :: buffer
  type(*), dimension(*), intent(INOUT) :: buffer
  character(len=*), intent(IN) :: datatype
  integer, intent(IN) :: root
  integer, intent(OUT) :: ierr
  integer(C_INT) :: member
  ierr = -1
  if (rpncomm_io_pe_bcast(buffer, int(count, C_INT), datatype, len(datatype, C_SIZE_T), int(root, C_INT), &
                          int(setno, C_INT), member) /= 0) return
  if (member /= 0) ierr = 0
end subroutine RPN_COMM_io_pe_bcast

subroutine RPN_COMM_make_io_pe_list(x, y, npes, pe_nx, pe_ny, method)
  use rpn_comm_grid_binding
  implicit none
  integer, intent(IN) :: npes
  integer, dimension(npes), intent(OUT) :: x
  integer, dimension(npes), intent(OUT) :: y
  integer, intent(IN) :: pe_nx, pe_ny
  integer, intent(IN) :: method
  integer(C_INT), dimension(max(npes, 1)) :: cx, cy
  integer(C_INT) :: status
  cx = -1
  cy = -1
  status = rpncomm_make_io_pe_list(cx, cy, int(npes, C_INT), int(pe_nx, C_INT), int(pe_ny, C_INT), int(method, C_INT))
  if (npes > 0) then
    x(1:npes) = cx(1:npes)
    y(1:npes) = cy(1:npes)
  endif
end subroutine RPN_COMM_make_io_pe_list

function RPN_COMM_check_ioset(newset, x, y, npes, pe_nx, pe_ny, pe_me, diag) result(status)
  use rpn_comm_grid_binding
  implicit none
  integer, intent(IN) :: newset, npes
  integer, intent(IN) :: pe_nx, pe_ny
  integer, intent(IN) :: pe_me
  logical, intent(IN) :: diag
  integer, intent(IN), dimension(npes) :: x
  integer, intent(IN), dimension(npes) :: y
  integer :: status
  integer(C_INT), dimension(max(npes, 1)) :: cx, cy
  integer(C_INT) :: d
  d = 0
  if (diag) d = 1
  cx = 0
  cy = 0
  if (npes > 0) then
    cx(1:npes) = x(1:npes)
    cy(1:npes) = y(1:npes)
  endif
  status = 0
  if (rpncomm_check_ioset(int(newset, C_INT), cx, cy, int(npes, C_INT), int(pe_nx, C_INT), int(pe_ny, C_INT), &
                          int(pe_me, C_INT), d) /= 0) status = -1
end function RPN_COMM_check_ioset

! ================================================================= the original's self-test driver

! Exercises the I/O PE set routines on the grid RPN_COMM_init made, printing what each answers:
! sets of min(pe_nx, pe_ny) + 2, min(pe_nx, pe_ny) (twice, the second after a set was freed) and
! min(pe_nx, pe_ny) - 1 PEs, the callback RPN_COMM_io_pe_test_callback on the last set, its
! members' coordinates, and a broadcast among its members from its last one.
subroutine RPN_COMM_io_pe_test()
  use rpn_comm_grid_binding
  use rpn_comm_globals, only: pe_nx, pe_ny, pe_me, pe_mex, pe_mey
  implicit none
  character(len=*), parameter :: me = 'RPN_COMM_io_pe_coord'
  integer, external :: RPN_COMM_io_pe_test_callback, RPN_COMM_create_io_set, RPN_COMM_free_io_set
  integer, external :: RPN_COMM_is_io_pe, RPN_COMM_io_pe_size, RPN_COMM_io_pe_callback
  integer :: setno, setno2, setno3, nio, status
  integer, dimension(1), target :: argv
  integer(C_INT), dimension(:), allocatable :: cx, cy, cid
  integer(C_INT) :: n
  integer(C_INT), dimension(1) :: tbcst
  integer(C_INT) :: member

  if (pe_me == 0) print *, 'DEBUG: pe_nx,pe_ny', pe_nx, pe_ny
  nio = min(pe_nx, pe_ny)
  print '(A,10I5)', 'RPN_COMM_io_pe test program, pe_nx,pe_ny,pe_me,pe_mex,pe_mey,nio=', pe_nx, pe_ny, pe_me, &
      pe_mex, pe_mey, nio
  setno = RPN_COMM_create_io_set(nio + 2, 0)
  if (RPN_COMM_is_io_pe(setno) /= -1) then
    print *, "I am a proud IO pe !"
  else
    print *, "I am a lazy  NON-IO pe !"
  endif
  print *, "set number, size of set='", setno, RPN_COMM_io_pe_size(setno)
  setno2 = RPN_COMM_create_io_set(nio, 0)
  print *, "set number, size of set='", setno2, RPN_COMM_io_pe_size(setno2)
  setno = RPN_COMM_free_io_set(setno)
  print *, 'DEBUG: freed IO set ', setno
  print *, "set number, size of set='", setno, RPN_COMM_io_pe_size(setno)
  setno = RPN_COMM_create_io_set(nio, 0)
  print *, "set number, size of set='", setno, RPN_COMM_io_pe_size(setno)
  setno3 = RPN_COMM_create_io_set(nio - 1, 0)
  print *, "set number, size of set='", setno3, RPN_COMM_io_pe_size(setno3)
  argv(1) = pe_me
  status = RPN_COMM_io_pe_callback(setno3, RPN_COMM_io_pe_test_callback, C_LOC(argv(1)))
  print *, "after callback, status,argv=", status, argv(1)
  ! (RPN_COMM_io_pe_coord's C call: its pointer result needs an interface here)
  allocate(cx(max(nio, 1)), cy(max(nio, 1)), cid(max(nio, 1)))
  if (rpncomm_io_pe_members(me, len(me, C_SIZE_T), int(setno3, C_INT), int(size(cx), C_INT), cx, cy, cid, n) == 0) then
    if (n > 0) then
      print *, "PE list x=", cx(1:n)
      print *, "PE list y=", cy(1:n)
    endif
  endif
  tbcst = pe_me
  if (RPN_COMM_is_io_pe(setno3) /= -1) then
    ! (RPN_COMM_io_pe_bcast's own C call: its buffer of any type needs an interface here)
    status = rpncomm_io_pe_bcast(tbcst, 1_C_INT, 'MPI_INTEGER', 11_C_SIZE_T, int(RPN_COMM_io_pe_size(setno3) - 1, C_INT), &
                                 int(setno3, C_INT), member)
    print *, 'tbcst after broadcast', tbcst
  endif
end subroutine RPN_COMM_io_pe_test

! The self-test's callback (called on the members of the set only): prints its arguments, turns
! the integer argv points to into -(100 + itself) and returns -123.
function RPN_COMM_io_pe_test_callback(argv, setno, comm, me, x, y, npe) result(status)
  use ISO_C_BINDING
  implicit none
  integer, intent(IN) :: setno, comm, me, npe
  integer, dimension(npe), intent(IN) :: x, y
  type(C_PTR), intent(IN) :: argv
  integer :: status
  integer, dimension(:), pointer :: arg
  call C_F_POINTER(argv, arg, [1])
  print *, "IO PE CALLBACK set, me, argument = ", setno, me, arg(1)
  print *, "CALLBACK x=", x
  print *, "CALLBACK y=", y
  arg(1) = -(100 + arg(1))
  status = -123 + 0 * comm
end function RPN_COMM_io_pe_test_callback
