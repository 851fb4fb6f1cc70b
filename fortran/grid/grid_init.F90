! grid_init.F90 -- the start of a job on its PE grid: RPN_COMM_init, the original's gridinit forms, blocks
!
! External procedures with the original RPN_COMM's names and dummy arguments (their link names
! are the plain Fortran ones, so code written for the original links unchanged); each only
! converts its arguments for the C ABI of the Rust core (logical <-> int, character(len=*) ->
! pointer + length, assumed-shape -> contiguous copy + count), which checks them and reports errors.
! Their signatures are rows of fortran/routines.toml, which generates their interfaces;
! fortran/gen/check_routines.py (make check) checks each routine here against its row.

! the Userinit of the gridinit forms without one: keeps the grid RPN_COMM_init presets (npes x 1)
module rpn_comm_grid_keep
  implicit none
  private
  public :: rpncomm_keep_grid
contains
  subroutine rpncomm_keep_grid(pex, pey)
    integer, intent(INOUT) :: pex, pey
    pex = pex
    pey = pey
  end subroutine rpncomm_keep_grid
end module rpn_comm_grid_keep

! ======================================================================== PE grid: init

subroutine RPN_COMM_init(Userinit, Pelocal, Petotal, Pex, Pey)
  use rpn_comm_windows_types
  use rpn_comm_globals, only: fill_grid_globals
  use rpn_comm_grid_binding
  use rpn_comm_process_binding
  use rpn_comm_output_flush, only: rpn_comm_flush_units
  implicit none
  external :: Userinit
  integer, intent(OUT)   :: Pelocal, Petotal
  integer, intent(INOUT) :: Pex, Pey
  integer(C_INT) :: rank, npes, px, py

  if (rpncomm_init(rank, npes) /= RPN_COMM_OK) error stop 1
  Pelocal = rank
  Petotal = npes
  ! A second call is refused (the library says so) and keeps the grid: Userinit is not called
  ! again, Pex and Pey return the grid in use.
  px = 0
  py = 0
  if (rpncomm_init_first(px, py) /= RPN_COMM_OK) then
    Pex = px
    Pey = py
    return
  endif
  ! buffered output survives when the job is ended because another PE failed
  ! (C_FUNPTR and C_PTR have the same size on every platform the library builds for)
  if (rpncomm_flush_at_stop(transfer(c_funloc(rpn_comm_flush_units), C_NULL_PTR)) /= RPN_COMM_OK) error stop 1
  px = Pex
  py = Pey
  ! As the original: PE 0 chooses the grid, presetting it to npes x 1 for its Userinit when
  ! Pex or Pey is 0; every PE gets PE 0's choice (a PE's own non-zero values must match it).
  if (rank == 0 .and. (Pex == 0 .or. Pey == 0)) then
    px = npes
    py = 1
    call Userinit(px, py)
  endif
  ! on failure the core has already printed the reason (on every PE)
  if (rpncomm_set_grid(px, py) /= RPN_COMM_OK) error stop 1
  call fill_grid_globals()
  Pex = px
  Pey = py
end subroutine RPN_COMM_init

! RPN_COMM_init with counts of grids, as the original: the job (one domain) is cut into MultiGrids
! multigrids of Grids grids each, consecutive ranks; in every grid its PE 0 calls Userinit (when Pex
! or Pey is 0) and its choice becomes the grid's. Pelocal and Petotal are this PE's rank in its grid
! and the grid's size; the value is the grid's number in its multigrid when Grids > 1, else the
! multigrid's number. Counts that do not cut the job into equal grids are refused on every PE and,
! as the original, end the job. A second call keeps the grids (the library says so).
integer function RPN_COMM_init_multi_level(Userinit, Pelocal, Petotal, Pex, Pey, MultiGrids, Grids)
  use rpn_comm_grid_binding
  use rpn_comm_globals, only: fill_grid_globals
  use rpn_comm_process_binding, only: rpncomm_flush_at_stop
  use rpn_comm_output_flush, only: rpn_comm_flush_units
  implicit none
  external :: Userinit
  integer, intent(OUT)   :: Pelocal, Petotal
  integer, intent(INOUT) :: Pex, Pey
  integer, intent(IN)    :: MultiGrids
  integer, intent(IN)    :: Grids
  integer :: ierr
  integer(C_INT) :: rank, npes, px, py
  integer(C_INT), dimension(3) :: place
  RPN_COMM_init_multi_level = -1
  if (rpncomm_init(rank, npes) /= 0) error stop 1
  px = 0
  py = 0
  if (rpncomm_init_first(px, py) /= 0) then
    ! a second call: the grids stay, Userinit is not called again
    Pex = px
    Pey = py
    place = -1
    if (rpncomm_grid_place(place) /= 0) error stop 1
    Pelocal = place(1)
    Petotal = place(2)
    RPN_COMM_init_multi_level = place(3)
    return
  endif
  if (rpncomm_gridinit_check(int(MultiGrids, C_INT), int(Grids, C_INT), place) /= 0) then
    call RPN_COMM_finalize(ierr)   ! the library has said why, on every PE
    error stop 1
  endif
  if (rpncomm_flush_at_stop(transfer(c_funloc(rpn_comm_flush_units), C_NULL_PTR)) /= 0) error stop 1
  px = Pex
  py = Pey
  if (place(1) == 0 .and. (Pex == 0 .or. Pey == 0)) then
    px = place(2)     ! preset to npes x 1 of the grid, as the original
    py = 1
    call Userinit(px, py)
  endif
  if (rpncomm_set_grid(px, py) /= 0) error stop 1   ! the library has said why, on every PE
  call fill_grid_globals()
  Pex = px
  Pey = py
  Pelocal = place(1)
  Petotal = place(2)
  RPN_COMM_init_multi_level = place(3)
end function RPN_COMM_init_multi_level

integer function RPN_COMM_init_multigrid(Userinit, Pelocal, Petotal, Pex, Pey, MultiGrids)
  implicit none
  external :: Userinit
  integer, intent(OUT)   :: Pelocal, Petotal
  integer, intent(INOUT) :: Pex, Pey
  integer, intent(IN)    :: MultiGrids
  integer, external :: RPN_COMM_init_multi_level
  RPN_COMM_init_multigrid = RPN_COMM_init_multi_level(Userinit, Pelocal, Petotal, Pex, Pey, MultiGrids, 1)
end function RPN_COMM_init_multigrid

! The specifics of the generic RPN_COMM_gridinit (RPN_COMM_include_interfaces.inc), as the
! original's: without Userinit the grid is Pex x Pey, or npes x 1 when Pex or Pey is 0; without
! Pex, Pey, Userinit chooses the grid.

function RPN_COMM_init1(Userinit, Pelocal, Petotal) result(grid)
  implicit none
  external :: Userinit
  integer, intent(OUT) :: Pelocal, Petotal
  integer :: grid
  integer, external :: RPN_COMM_init_multi_level
  integer :: pex, pey
  pex = 0
  pey = 0
  grid = RPN_COMM_init_multi_level(Userinit, Pelocal, Petotal, pex, pey, 1, 1)
end function RPN_COMM_init1

function RPN_COMM_init2(Pelocal, Petotal, Pex, Pey) result(grid)
  use rpn_comm_grid_keep, only: rpncomm_keep_grid
  implicit none
  integer, intent(OUT)   :: Pelocal, Petotal
  integer, intent(INOUT) :: Pex, Pey
  integer :: grid
  integer, external :: RPN_COMM_init_multi_level
  grid = RPN_COMM_init_multi_level(rpncomm_keep_grid, Pelocal, Petotal, Pex, Pey, 1, 1)
end function RPN_COMM_init2

function RPN_COMM_init_multigrid1(Userinit, Pelocal, Petotal, MultiGrids) result(grid)
  implicit none
  external :: Userinit
  integer, intent(OUT) :: Pelocal, Petotal
  integer, intent(IN)  :: MultiGrids
  integer :: grid
  integer, external :: RPN_COMM_init_multi_level
  integer :: pex, pey
  pex = 0
  pey = 0
  grid = RPN_COMM_init_multi_level(Userinit, Pelocal, Petotal, pex, pey, MultiGrids, 1)
end function RPN_COMM_init_multigrid1

function RPN_COMM_init_multigrid2(Pelocal, Petotal, Pex, Pey, MultiGrids) result(grid)
  use rpn_comm_grid_keep, only: rpncomm_keep_grid
  implicit none
  integer, intent(OUT)   :: Pelocal, Petotal
  integer, intent(INOUT) :: Pex, Pey
  integer, intent(IN)    :: MultiGrids
  integer :: grid
  integer, external :: RPN_COMM_init_multi_level
  grid = RPN_COMM_init_multi_level(rpncomm_keep_grid, Pelocal, Petotal, Pex, Pey, MultiGrids, 1)
end function RPN_COMM_init_multigrid2

function RPN_COMM_init_multi_level1(Userinit, Pelocal, Petotal, MultiGrids, Grids) result(grid)
  implicit none
  external :: Userinit
  integer, intent(OUT) :: Pelocal, Petotal
  integer, intent(IN)  :: MultiGrids
  integer, intent(IN)  :: Grids
  integer :: grid
  integer, external :: RPN_COMM_init_multi_level
  integer :: pex, pey
  pex = 0
  pey = 0
  grid = RPN_COMM_init_multi_level(Userinit, Pelocal, Petotal, pex, pey, MultiGrids, Grids)
end function RPN_COMM_init_multi_level1

function RPN_COMM_init_multi_level2(Pelocal, Petotal, Pex, Pey, MultiGrids, Grids) result(grid)
  use rpn_comm_grid_keep, only: rpncomm_keep_grid
  implicit none
  integer, intent(OUT)   :: Pelocal, Petotal
  integer, intent(INOUT) :: Pex, Pey
  integer, intent(IN)    :: MultiGrids
  integer, intent(IN)    :: Grids
  integer :: grid
  integer, external :: RPN_COMM_init_multi_level
  grid = RPN_COMM_init_multi_level(rpncomm_keep_grid, Pelocal, Petotal, Pex, Pey, MultiGrids, Grids)
end function RPN_COMM_init_multi_level2
