! is_null.F90 -- whether a handle is null, for each handle type of RPN_COMM_types.inc: the specific
! functions of the generic RPN_COMM_is_null (RPN_COMM_is_null.inc, generated from their rows of
! fortran/routines.toml), with the original RPN_COMM's names and arguments (4.6.3). A handle is
! null when its p is C_NULL_PTR (a NULL_rpncomm_* handle, or one a routine returned on failure); a
! freed handle is not null (the routines refuse it).

function RPN_COMM_null_context(what) result(status)
  use rpn_comm_windows_types
  implicit none
  type(rpncomm_context), intent(IN) :: what
  logical :: status
  status = .not. c_associated(what%p)
end function RPN_COMM_null_context

function RPN_COMM_null_window(what) result(status)
  use rpn_comm_windows_types
  implicit none
  type(rpncomm_window), intent(IN) :: what
  logical :: status
  status = .not. c_associated(what%p)
end function RPN_COMM_null_window

function RPN_COMM_null_communicator(what) result(status)
  use rpn_comm_windows_types
  implicit none
  type(rpncomm_communicator), intent(IN) :: what
  logical :: status
  status = .not. c_associated(what%p)
end function RPN_COMM_null_communicator

function RPN_COMM_null_info(what) result(status)
  use rpn_comm_windows_types
  implicit none
  type(rpncomm_info), intent(IN) :: what
  logical :: status
  status = .not. c_associated(what%p)
end function RPN_COMM_null_info

function RPN_COMM_null_file(what) result(status)
  use rpn_comm_windows_types
  implicit none
  type(rpncomm_file), intent(IN) :: what
  logical :: status
  status = .not. c_associated(what%p)
end function RPN_COMM_null_file

function RPN_COMM_null_request(what) result(status)
  use rpn_comm_windows_types
  implicit none
  type(rpncomm_request), intent(IN) :: what
  logical :: status
  status = .not. c_associated(what%p)
end function RPN_COMM_null_request

function RPN_COMM_null_datatype(what) result(status)
  use rpn_comm_windows_types
  implicit none
  type(rpncomm_datatype), intent(IN) :: what
  logical :: status
  status = .not. c_associated(what%p)
end function RPN_COMM_null_datatype

function RPN_COMM_null_operator(what) result(status)
  use rpn_comm_windows_types
  implicit none
  type(rpncomm_operator), intent(IN) :: what
  logical :: status
  status = .not. c_associated(what%p)
end function RPN_COMM_null_operator

function RPN_COMM_null_group(what) result(status)
  use rpn_comm_windows_types
  implicit none
  type(rpncomm_group), intent(IN) :: what
  logical :: status
  status = .not. c_associated(what%p)
end function RPN_COMM_null_group

function RPN_COMM_null_ptr(what) result(status)
  use rpn_comm_windows_types
  implicit none
  type(rpncomm_ptr), intent(IN) :: what
  logical :: status
  status = .not. c_associated(what%p)
end function RPN_COMM_null_ptr

function RPN_COMM_null_pattern(what) result(status)
  use rpn_comm_windows_types
  implicit none
  type(rpncomm_pattern), intent(IN) :: what
  logical :: status
  status = .not. c_associated(what%p)
end function RPN_COMM_null_pattern

function RPN_COMM_null_array(what) result(status)
  use rpn_comm_windows_types
  implicit none
  type(rpncomm_array), intent(IN) :: what
  logical :: status
  status = .not. c_associated(what%p)
end function RPN_COMM_null_array
