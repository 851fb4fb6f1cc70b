! utils_routines.F90 -- the original's utilities: the environment, the files, the node's CPUs and
! the debug flags
!
! External procedures with the original RPN_COMM's names and dummy arguments; each only converts
! its arguments for the C ABI of the Rust core (character(len=*) -> pointer + length), which does
! the work. Their signatures are rows of fortran/routines.toml; fortran/gen/check_routines.py
! checks each routine here against its row. The typed debug flags (RPN_COMM_debug_i, _r, _l) read
! their field's text with a list-directed READ, as the original: Fortran's own reading of a number
! or a logical is the behaviour to keep, so it stays here rather than in the core.

! ============================================================================== utils

subroutine RPN_COMM_env_var(varname, value)
  use rpn_comm_utils_binding
  implicit none
  character(len=*), intent(IN) :: varname
  character(len=*), intent(OUT) :: value
  integer(C_INT) :: status
  status = rpncomm_env_var(varname, len(varname, kind=C_SIZE_T), value, len(value, kind=C_SIZE_T))
end subroutine RPN_COMM_env_var

function RPN_COMM_chdir(string)
  use rpn_comm_utils_binding
  implicit none
  integer :: RPN_COMM_chdir
  character(len=*) :: string
  RPN_COMM_chdir = rpncomm_chdir(string, len(string, kind=C_SIZE_T))
end function RPN_COMM_chdir

function RPN_COMM_hostid()
  use rpn_comm_utils_binding
  implicit none
  integer :: RPN_COMM_hostid
  RPN_COMM_hostid = rpncomm_hostid()
end function RPN_COMM_hostid

function RPN_COMM_set_timeout_alarm(seconds) result(seconds_since)
  use rpn_comm_utils_binding
  implicit none
  integer, intent(IN) :: seconds
  integer :: seconds_since
  seconds_since = rpncomm_set_timeout_alarm(int(seconds, C_INT))
end function RPN_COMM_set_timeout_alarm

function RPN_COMM_file_copy_start(name1, name2)
  use rpn_comm_utils_binding
  implicit none
  integer :: RPN_COMM_file_copy_start
  character(len=*), intent(IN) :: name1, name2
  RPN_COMM_file_copy_start = rpncomm_file_copy_start(name1, len(name1, kind=C_SIZE_T), name2, len(name2, kind=C_SIZE_T))
end function RPN_COMM_file_copy_start

function RPN_COMM_file_bcst(name, com)
  use rpn_comm_utils_binding
  implicit none
  integer :: RPN_COMM_file_bcst
  character(len=*), intent(IN) :: name
  integer, intent(IN) :: com
  RPN_COMM_file_bcst = rpncomm_file_bcst(name, len(name, kind=C_SIZE_T), int(com, C_INT))
end function RPN_COMM_file_bcst

subroutine get_logical_cpu_configuration(lcpus, nsockets, nnuma, ht, map)
  use rpn_comm_utils_binding
  implicit none
  integer, intent(OUT) :: lcpus, nsockets, nnuma, ht, map
  integer(C_INT), dimension(5) :: values
  call rpncomm_get_cpu_configuration(values)
  lcpus = values(1)
  nsockets = values(2)
  nnuma = values(3)
  ht = values(4)
  map = values(5)
end subroutine get_logical_cpu_configuration

subroutine set_logical_cpu_configuration(lcpus, nsockets, nnuma, ht, map)
  use rpn_comm_utils_binding
  implicit none
  integer, intent(IN) :: lcpus, nsockets, nnuma, ht, map
  call rpncomm_set_cpu_configuration(int([lcpus, nsockets, nnuma, ht, map], C_INT))
end subroutine set_logical_cpu_configuration

subroutine init_logical_cpu_configuration()
  use rpn_comm_utils_binding
  implicit none
  call rpncomm_init_cpu_configuration()
end subroutine init_logical_cpu_configuration

subroutine print_logical_cpu_configuration()
  use rpn_comm_utils_binding
  implicit none
  character(len=128) :: line
  integer(C_INT) :: n
  ! the line goes through Fortran's own output, in order with the program's
  n = rpncomm_cpu_configuration_text(line, len(line, kind=C_SIZE_T))
  print '(A)', line(1:n)
end subroutine print_logical_cpu_configuration

function RPN_COMM_debug_str(name, string) result(status)
  use rpn_comm_utils_binding
  implicit none
  character(len=*), intent(IN) :: name
  character(len=*), intent(OUT) :: string
  integer :: status
  status = rpncomm_debug_str(name, len(name, kind=C_SIZE_T), string, len(string, kind=C_SIZE_T))
end function RPN_COMM_debug_str

! The typed flags read at most 32 characters of their field, as the original. A field that does
! not read as the type (the original stops the program there) gives status -1 and the default.

function RPN_COMM_debug_i(name, flag) result(status)
  use rpn_comm_utils_binding
  implicit none
  character(len=*), intent(IN) :: name
  integer, intent(OUT) :: flag
  integer :: status
  character(len=32) :: string
  integer :: io
  flag = 0
  status = rpncomm_debug_str(name, len(name, kind=C_SIZE_T), string, len(string, kind=C_SIZE_T))
  if (status /= 0) return
  read(string, *, iostat=io) flag
  if (io /= 0) then
    flag = 0
    status = -1
  end if
end function RPN_COMM_debug_i

function RPN_COMM_debug_r(name, flag) result(status)
  use rpn_comm_utils_binding
  implicit none
  character(len=*), intent(IN) :: name
  real(kind=4), intent(OUT) :: flag
  integer :: status
  character(len=32) :: string
  integer :: io
  flag = 0.0
  status = rpncomm_debug_str(name, len(name, kind=C_SIZE_T), string, len(string, kind=C_SIZE_T))
  if (status /= 0) return
  read(string, *, iostat=io) flag
  if (io /= 0) then
    flag = 0.0
    status = -1
  end if
end function RPN_COMM_debug_r

function RPN_COMM_debug_l(name, flag) result(status)
  use rpn_comm_utils_binding
  implicit none
  character(len=*), intent(IN) :: name
  logical, intent(OUT) :: flag
  integer :: status
  character(len=32) :: string
  integer :: io
  flag = .false.
  status = rpncomm_debug_str(name, len(name, kind=C_SIZE_T), string, len(string, kind=C_SIZE_T))
  if (status /= 0) return
  read(string, *, iostat=io) flag
  if (io /= 0) then
    flag = .false.
    status = -1
  end if
end function RPN_COMM_debug_l

function RPN_COMM_debug_s(name, flag) result(status)
  use rpn_comm_utils_binding
  implicit none
  character(len=*), intent(IN) :: name
  character(len=*), intent(OUT) :: flag
  integer :: status
  character(len=32) :: string
  status = rpncomm_debug_str(name, len(name, kind=C_SIZE_T), string, len(string, kind=C_SIZE_T))
  flag = trim(string)
end function RPN_COMM_debug_s

! the Fortran name of the original's C rpn_comm_unbind_process (its one-underscore link name)
subroutine rpn_comm_unbind_process()
  use rpn_comm_utils_binding
  implicit none
  call rpncomm_unbind_process()
end subroutine rpn_comm_unbind_process

! The original's self-test of RPN_COMM_debug_i, _r, _l and _s: prints each one's status and value
! for the fields IVAL, RVAL, LVAL and SVAL of RPN_COMM_DEBUG.
subroutine RPN_COMM_debug_test()
  implicit none
  integer, external :: RPN_COMM_debug_i, RPN_COMM_debug_r, RPN_COMM_debug_l, RPN_COMM_debug_s
  integer :: ival, status
  real(kind=4) :: rval
  logical :: lval
  character(len=16) :: sval
  status = RPN_COMM_debug_i('IVAL', ival)
  print *, 'status (i) , value =', status, ival
  status = RPN_COMM_debug_r('RVAL', rval)
  print *, 'status (i) , value =', status, rval
  status = RPN_COMM_debug_l('LVAL', lval)
  print *, 'status (i) , value =', status, lval
  status = RPN_COMM_debug_s('SVAL', sval)
  print *, 'status (i) , value =', status, '"'//trim(sval)//'"'
end subroutine RPN_COMM_debug_test
