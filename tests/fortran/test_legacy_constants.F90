! PES: 1 2 4
! TIMEOUT: 60
!
! Legacy code and the constants of the original RPN_COMM: this program includes RPN_COMM.inc (no
! module) and calls the routines as external procedures. It names every constant of the original's
! RPN_COMM_constants.inc, so a missing one fails compilation, and checks each one's value against
! the original's. It uses them the way legacy code does: communicator names in a select case,
! datatype and operator names of different lengths in one array constructor (they are all
! character(len=32), as in the original), RPN_COMM_MASTER as a rank. The constants of routines the
! library provides are used in calls: the whole-job communicators GRID, WORLD and ALLGRIDS with
! RPN_COMM_size, RPN_COMM_barrier, RPN_COMM_i_comm and a window, the five window datatypes with
! RPN_COMM_i_datyp, the operators with RPN_COMM_i_oper and RPN_COMM_allreduce.
program test_legacy_constants
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, nerr
  integer :: i

  ! the original's communicator names, in the order of its include file, and their values
  integer, parameter :: NCOMM = 17
  character(len=10), dimension(NCOMM), parameter :: comms = [character(len=10) :: &
      RPN_COMM_WORLD, RPN_COMM_ALLGRIDS, RPN_COMM_ALL, RPN_COMM_MULTIGRID, RPN_COMM_GRIDPEERS, &
      RPN_COMM_ALLDOMAINS, RPN_COMM_GRID, RPN_COMM_DOMM, RPN_COMM_DEFAULT, RPN_COMM_BLOCMASTER, &
      RPN_COMM_BLOCK, RPN_COMM_BLOC_COMM, RPN_COMM_EW, RPN_COMM_ROW, RPN_COMM_NS, RPN_COMM_COLUMN, &
      RPN_COMM_UNIVERSE]
  character(len=10), dimension(NCOMM), parameter :: comm_values = [character(len=10) :: &
      'WORLD', 'ALLGRIDS', 'ALL', 'MULTIGRID', 'GRIDPEERS', 'ALLDOMAINS', 'GRID', 'DOMM', 'DEFO', &
      'BLOCMASTER', 'BLOC', 'BLOC', 'EW', 'EW', 'NS', 'NS', 'UNIVERSE']
  integer, dimension(NCOMM), parameter :: comm_lens = [len(RPN_COMM_WORLD), len(RPN_COMM_ALLGRIDS), &
      len(RPN_COMM_ALL), len(RPN_COMM_MULTIGRID), len(RPN_COMM_GRIDPEERS), len(RPN_COMM_ALLDOMAINS), &
      len(RPN_COMM_GRID), len(RPN_COMM_DOMM), len(RPN_COMM_DEFAULT), len(RPN_COMM_BLOCMASTER), &
      len(RPN_COMM_BLOCK), len(RPN_COMM_BLOC_COMM), len(RPN_COMM_EW), len(RPN_COMM_ROW), &
      len(RPN_COMM_NS), len(RPN_COMM_COLUMN), len(RPN_COMM_UNIVERSE)]

  ! null names, datatypes and operators: no type-spec in the constructor, legal only because they
  ! all have the same length (32)
  integer, parameter :: NNAME = 49
  character(len=32), dimension(NNAME), parameter :: names = [ &
      RPN_COMM_ANY_SOURCE, RPN_COMM_ANY_TAG, RPN_COMM_DATATYPE_NULL, RPN_COMM_COMM_NULL, &
      RPN_COMM_GROUP_NULL, RPN_COMM_COMM_WORLD, RPN_COMM_SUCCESS, &
      RPN_COMM_BYTE, RPN_COMM_PACKED, RPN_COMM_UB, RPN_COMM_LB, RPN_COMM_CHARACTER, RPN_COMM_LOGICAL, &
      RPN_COMM_INTEGER, RPN_COMM_INTEGER1, RPN_COMM_INTEGER2, RPN_COMM_INTEGER4, RPN_COMM_INTEGER8, &
      RPN_COMM_INTEGER16, RPN_COMM_REAL, RPN_COMM_REAL4, RPN_COMM_REAL8, RPN_COMM_REAL16, &
      RPN_COMM_DOUBLE_PRECISION, RPN_COMM_COMPLEX, RPN_COMM_COMPLEX8, RPN_COMM_COMPLEX16, &
      RPN_COMM_COMPLEX32, RPN_COMM_DOUBLE_COMPLEX, RPN_COMM_2REAL, RPN_COMM_2DOUBLE_PRECISION, &
      RPN_COMM_2INTEGER, RPN_COMM_2COMPLEX, RPN_COMM_2DOUBLE_COMPLEX, &
      RPN_COMM_MAX, RPN_COMM_MIN, RPN_COMM_SUM, RPN_COMM_PROD, RPN_COMM_LAND, RPN_COMM_BAND, &
      RPN_COMM_LOR, RPN_COMM_BOR, RPN_COMM_LXOR, RPN_COMM_BXOR, RPN_COMM_MAXLOC, RPN_COMM_MINLOC, &
      RPN_COMM_REPLACE, RPN_COMM_OP_NULL, RPN_COMM_NO_OP]
  character(len=32), dimension(NNAME), parameter :: name_values = [character(len=32) :: &
      'MPI_ANY_SOURCE', 'MPI_ANY_TAG', 'MPI_DATATYPE_NULL', 'MPI_COMM_NULL', &
      'MPI_GROUP_NULL', 'MPI_COMM_WORLD', 'MPI_SUCCESS', &
      'MPI_BYTE', 'MPI_PACKED', 'MPI_UB', 'MPI_LB', 'MPI_CHARACTER', 'MPI_LOGICAL', &
      'MPI_INTEGER', 'MPI_INTEGER1', 'MPI_INTEGER2', 'MPI_INTEGER4', 'MPI_INTEGER8', &
      'MPI_INTEGER16', 'MPI_REAL', 'MPI_REAL4', 'MPI_REAL8', 'MPI_REAL16', &
      'MPI_DOUBLE_PRECISION', 'MPI_COMPLEX', 'MPI_COMPLEX8', 'MPI_COMPLEX16', &
      'MPI_COMPLEX32', 'MPI_DOUBLE_COMPLEX', 'MPI_2REAL', 'MPI_2DOUBLE_PRECISION', &
      'MPI_2INTEGER', 'MPI_2COMPLEX', 'MPI_2DOUBLE_COMPLEX', &
      'MPI_MAX', 'MPI_MIN', 'MPI_SUM', 'MPI_PROD', 'MPI_LAND', 'MPI_BAND', &
      'MPI_LOR', 'MPI_BOR', 'MPI_LXOR', 'MPI_BXOR', 'MPI_MAXLOC', 'MPI_MINLOC', &
      'MPI_REPLACE', 'MPI_OP_NULL', 'MPI_NO_OP']

  ! the names the library accepts today
  character(len=32), dimension(5), parameter :: window_types = [RPN_COMM_INTEGER, RPN_COMM_REAL, &
      RPN_COMM_INTEGER8, RPN_COMM_REAL8, RPN_COMM_DOUBLE_PRECISION]
  character(len=32), dimension(12), parameter :: operators = [RPN_COMM_SUM, RPN_COMM_PROD, &
      RPN_COMM_MIN, RPN_COMM_MAX, RPN_COMM_BAND, RPN_COMM_BOR, RPN_COMM_BXOR, RPN_COMM_LAND, &
      RPN_COMM_LOR, RPN_COMM_LXOR, RPN_COMM_REPLACE, RPN_COMM_NO_OP]
  character(len=8), dimension(3), parameter :: whole_job = [character(len=8) :: &
      RPN_COMM_GRID, RPN_COMM_WORLD, RPN_COMM_ALLGRIDS]

  call start('test_legacy_constants')

  call section('integer and logical constants')
  call check(RPN_COMM_OK == 0 .and. RPN_COMM_ERROR == -1, 'RPN_COMM_OK = 0, RPN_COMM_ERROR = -1')
  call check(RPN_COMM_MAGIC == 324508639, 'RPN_COMM_MAGIC = Z''13579BDF''')
  call check(RPN_COMM_MASTER == 0, 'RPN_COMM_MASTER = 0')
  call check(RPN_COMM_GET == 12345 .and. RPN_COMM_SET == 12346 .and. RPN_COMM_DEL == 12347, &
             'RPN_COMM_GET, SET, DEL = 12345, 12346, 12347')
  call check(RPN_COMM_FORWARD_X == 1 .and. RPN_COMM_BACKWARD_X == -1 .and. &
             RPN_COMM_FORWARD_Y == 2 .and. RPN_COMM_BACKWARD_Y == -2, 'RPN_COMM_FORWARD/BACKWARD_X/Y')
  call check(RPN_COMM_TOPO_X .and. .not. RPN_COMM_TOPO_Y .and. RPN_COMM_TOPO_FILL .and. &
             .not. RPN_COMM_TOPO_NOFILL, 'RPN_COMM_TOPO_X, Y, FILL, NOFILL')

  call section('communicator, datatype and operator names')
  do i = 1, NCOMM
    call check(comms(i) == comm_values(i) .and. comm_lens(i) == len_trim(comm_values(i)), &
               'communicator '//str(i)//' is '''//trim(comm_values(i))//'''')
  enddo
  do i = 1, NNAME
    call check(names(i) == name_values(i), 'name '//str(i)//' is '''//trim(name_values(i))//'''')
  enddo
  call check(len(RPN_COMM_INTEGER) == 32 .and. len(RPN_COMM_SUM) == 32 .and. len(RPN_COMM_SUCCESS) == 32, &
             'datatype, operator and null names have length 32')
  call check(kind_of(RPN_COMM_GRID) == 1 .and. kind_of(RPN_COMM_DOMM) == 1 .and. kind_of(RPN_COMM_EW) == 2 &
             .and. kind_of(RPN_COMM_COLUMN) == 3 .and. kind_of(RPN_COMM_BLOCK) == 4, 'select case on names')

  call section('whole-job communicators: RPN_COMM_size, RPN_COMM_barrier, a window')
  do i = 1, size(whole_job)
    call whole_job_calls(trim(whole_job(i)))
  enddo

  call section('datatypes and operators')
  call datatypes_and_operators()

  call finish('test_legacy_constants')

contains

  ! the class of a communicator name, as legacy code selects on it
  integer function kind_of(com)
    character(len=*), intent(IN) :: com
    select case (com)
    case (RPN_COMM_GRID, RPN_COMM_DOMM, RPN_COMM_WORLD, RPN_COMM_ALLGRIDS)
      kind_of = 1
    case (RPN_COMM_EW)
      kind_of = 2
    case (RPN_COMM_NS)
      kind_of = 3
    case (RPN_COMM_BLOC_COMM)
      kind_of = 4
    case default
      kind_of = 0
    end select
  end function kind_of

  ! size, barrier and a fence window over `com`: every PE reads RPN_COMM_MASTER's value
  subroutine whole_job_calls(com)
    character(len=*), intent(IN) :: com
    integer :: n, ierr, ierr2
    integer, dimension(1), target :: mine, got
    type(rpncomm_communicator) :: c
    type(rpncomm_datatype) :: dt
    type(rpncomm_window) :: w
    call RPN_COMM_size(com, n, ierr)
    call check(ierr == RPN_COMM_OK .and. n == npes, 'RPN_COMM_size('//com//') = npes')
    call RPN_COMM_barrier(com, ierr)
    call check(ierr == RPN_COMM_OK, 'RPN_COMM_barrier('//com//')')
    call RPN_COMM_i_comm(com, c)
    call RPN_COMM_i_datyp(RPN_COMM_INTEGER, dt)
    mine = RPN_COMM_MAGIC + me
    got = -1
    call RPN_COMM_i_win_create(w, dt, 1, c, C_LOC(mine), ierr)
    call check(ierr == RPN_COMM_OK, 'window over '//com)
    if (ierr /= RPN_COMM_OK) return
    call RPN_COMM_i_win_open(w, .true., ierr)
    call RPN_COMM_i_win_get_r(w, C_LOC(got), RPN_COMM_MASTER, 0, 1, ierr2)
    call check(ierr == RPN_COMM_OK .and. ierr2 == RPN_COMM_OK, 'get_r from RPN_COMM_MASTER over '//com)
    call RPN_COMM_i_win_close(w, ierr)
    call check(ierr == RPN_COMM_OK .and. got(1) == RPN_COMM_MAGIC, &
               'value of RPN_COMM_MASTER over '//com//': '//str(got(1)))
    call RPN_COMM_i_win_free(w, ierr)
    call check(ierr == RPN_COMM_OK, 'window over '//com//' freed')
  end subroutine whole_job_calls

  subroutine datatypes_and_operators()
    integer :: k, ierr, imax, isum
    type(rpncomm_datatype) :: dt
    type(rpncomm_operator) :: op
    type(rpncomm_communicator) :: c
    type(rpncomm_window) :: w
    call RPN_COMM_i_comm(RPN_COMM_GRID, c)
    do k = 1, size(window_types)
      call RPN_COMM_i_datyp(window_types(k), dt)
      call RPN_COMM_i_win_create(w, dt, 2, c, C_NULL_PTR, ierr)
      call check(ierr == RPN_COMM_OK, 'window of '//trim(window_types(k))//' (name of length 32)')
      if (ierr == RPN_COMM_OK) call RPN_COMM_i_win_free(w, ierr)
    enddo
    do k = 1, size(operators)
      call RPN_COMM_i_oper(operators(k), op)
      call check(RPN_COMM_i_valid_oper(op), 'operator '//trim(operators(k))//' (name of length 32)')
    enddo
    call RPN_COMM_allreduce(me, imax, 1, RPN_COMM_INTEGER, RPN_COMM_MAX, RPN_COMM_GRID, ierr)
    call check(ierr == RPN_COMM_OK .and. imax == npes - 1, 'allreduce INTEGER MAX over GRID')
    call RPN_COMM_allreduce(me + 1, isum, 1, RPN_COMM_INTEGER, RPN_COMM_SUM, RPN_COMM_WORLD, ierr)
    call check(ierr == RPN_COMM_OK .and. isum == npes * (npes + 1) / 2, 'allreduce INTEGER SUM over WORLD')
  end subroutine datatypes_and_operators

  include 'tutil.inc'
end program test_legacy_constants
