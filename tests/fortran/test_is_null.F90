! PES: 1 2 4 6
! TIMEOUT: 60
!
! The generic RPN_COMM_is_null (include 'RPN_COMM.inc', as GEM-MACH uses it) on a null and a
! non-null handle of each of the twelve handle types of RPN_COMM_types.inc: the NULL_rpncomm_*
! constants are null; handles the library made (window, datatype, operator, communicator, spread
! context, request) are not; for the types no routine of the library makes (info, file, group,
! ptr, pattern, array), a handle whose p is set is not. A context refused by
! RPN_COMM_spread_context is null, as the original returns it. The specific functions are called
! by their own names too.
program test_is_null
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, nerr, ierr, st
  integer, target :: mark
  integer, dimension(4), target :: warr, buf
  integer, dimension(1) :: pe
  type(rpncomm_window) :: w
  type(rpncomm_datatype) :: d
  type(rpncomm_operator) :: o
  type(rpncomm_communicator) :: c
  type(rpncomm_context) :: x
  type(rpncomm_request) :: r
  type(rpncomm_info) :: info
  type(rpncomm_file) :: file
  type(rpncomm_group) :: group
  type(rpncomm_ptr) :: ptr
  type(rpncomm_pattern) :: pattern
  type(rpncomm_array) :: array

  call start('test_is_null')
  call check(RPN_COMM_is_null(NULL_rpncomm_window), 'NULL window')
  call check(RPN_COMM_is_null(NULL_rpncomm_datatype), 'NULL datatype')
  call check(RPN_COMM_is_null(NULL_rpncomm_operator), 'NULL operator')
  call check(RPN_COMM_is_null(NULL_rpncomm_communicator), 'NULL communicator')
  call check(RPN_COMM_is_null(NULL_rpncomm_context), 'NULL context')
  call check(RPN_COMM_is_null(NULL_rpncomm_request), 'NULL request')
  call check(RPN_COMM_is_null(NULL_rpncomm_info), 'NULL info')
  call check(RPN_COMM_is_null(NULL_rpncomm_file), 'NULL file')
  call check(RPN_COMM_is_null(NULL_rpncomm_group), 'NULL group')
  call check(RPN_COMM_is_null(NULL_rpncomm_ptr), 'NULL ptr')
  call check(RPN_COMM_is_null(NULL_rpncomm_pattern), 'NULL pattern')
  call check(RPN_COMM_is_null(NULL_rpncomm_array), 'NULL array')

  call RPN_COMM_i_comm(RPN_COMM_GRID, c)
  call check(.not. RPN_COMM_is_null(c), 'communicator of GRID')
  call RPN_COMM_i_datyp(RPN_COMM_INTEGER, d)
  call check(.not. RPN_COMM_is_null(d), 'datatype of MPI_INTEGER')
  call RPN_COMM_i_oper(RPN_COMM_SUM, o)
  call check(.not. RPN_COMM_is_null(o), 'operator of MPI_SUM')
  call RPN_COMM_i_win_create(w, d, size(warr), c, c_loc(warr), ierr)
  call check(ierr == RPN_COMM_OK .and. .not. RPN_COMM_is_null(w), 'a window')
  call RPN_COMM_i_win_open(w, .false., ierr)
  call RPN_COMM_i_win_rget_r(w, c_loc(buf), me, 0, 2, r, ierr)
  call check(ierr == RPN_COMM_OK .and. .not. RPN_COMM_is_null(r), 'a request')
  call RPN_COMM_i_win_wait(r, ierr)
  call RPN_COMM_i_win_close(w, ierr)
  call RPN_COMM_i_win_free(w, ierr)
  pe(1) = 0
  x = NULL_rpncomm_context
  st = RPN_COMM_spread_context(x, 'GRID', 0, pe, merge(1, 0, me == 0))
  call check(st == 0 .and. .not. RPN_COMM_is_null(x), 'a spread context')
  call check(.not. RPN_COMM_null_context(x), 'RPN_COMM_null_context of a context')
  pe(1) = npes
  st = RPN_COMM_spread_context(x, 'GRID', 0, pe, merge(1, 0, me == 0))
  call check(st == -1 .and. RPN_COMM_is_null(x), 'a refused spread context is null')

  info%p = c_loc(mark)
  file%p = c_loc(mark)
  group%p = c_loc(mark)
  ptr%p = c_loc(mark)
  pattern%p = c_loc(mark)
  array%p = c_loc(mark)
  call check(.not. RPN_COMM_is_null(info), 'an info with p set')
  call check(.not. RPN_COMM_is_null(file), 'a file with p set')
  call check(.not. RPN_COMM_is_null(group), 'a group with p set')
  call check(.not. RPN_COMM_is_null(ptr), 'a ptr with p set')
  call check(.not. RPN_COMM_is_null(pattern), 'a pattern with p set')
  call check(.not. RPN_COMM_is_null(array), 'an array with p set')
  call check(.not. RPN_COMM_null_array(array) .and. RPN_COMM_null_pattern(NULL_rpncomm_pattern), &
             'the specifics by their own names')
  call finish('test_is_null')
contains
  include 'tutil.inc'
end program test_is_null
