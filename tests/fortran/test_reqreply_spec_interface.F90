! PES: 2 3 4 6
! TIMEOUT: 60
! OUTPUT_HAS@2: number of requests received = 1
! OUTPUT_HAS@4: number of requests received = 3
! OUTPUT_HAS@2: local errors, total errors = 0 0
! OUTPUT_HAS@4: local errors, total errors = 0 0
! OUTPUT_HAS@6: number of requests received = 5
! OUTPUT_HAS@6: local errors, total errors = 0 0
! EACH_PE_WROTE: test_reqreply_spec_interface: OK on PE %P
!
! The windows specification's request/reply example (reqreply_spec_body.inc), in a program that
! declares RPN_COMM_i_win_get_ptr(window, np, ierr) itself, by an interface block as the
! specification gives it, and includes only the types and constants (no module, no interfaces of
! the library): cptr = RPN_COMM_i_win_get_ptr(window, 2, ierr) must give the secondary window's
! records and leave the literal 2 alone (the link symbol is the specification's form), and the
! example must print what it expects: npes - 1 requests received, no error on any PE.
program test_reqreply_spec_interface
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM_types.inc'
  include 'RPN_COMM_constants.inc'
  interface
    ! as the windows specification declares it
    function RPN_COMM_i_win_get_ptr(window, np, ierr) result(ptr)
      import :: rpncomm_window, C_PTR
      type(rpncomm_window), intent(IN) :: window
      integer, intent(IN) :: np
      integer, intent(OUT) :: ierr
      type(C_PTR) :: ptr
    end function RPN_COMM_i_win_get_ptr
    ! the routines taking C pointers by value or an optional argument need an explicit
    ! interface (the specification's, 4.6.3's)
    subroutine RPN_COMM_i_comm(ctyp_c, ctyp, mcom)
      import :: rpncomm_communicator
      character(len=*), intent(IN) :: ctyp_c
      type(rpncomm_communicator), intent(OUT) :: ctyp
      integer, optional, intent(IN) :: mcom
    end subroutine RPN_COMM_i_comm
    subroutine RPN_COMM_i_win_create(window, dtype, siz, com, array, ierr)
      import :: rpncomm_window, rpncomm_datatype, rpncomm_communicator, C_PTR
      type(rpncomm_window), intent(OUT) :: window
      type(rpncomm_datatype), intent(IN) :: dtype
      integer, intent(IN) :: siz
      type(rpncomm_communicator), intent(IN) :: com
      type(C_PTR), intent(IN), value :: array
      integer, intent(OUT) :: ierr
    end subroutine RPN_COMM_i_win_create
    subroutine RPN_COMM_i_win_get_r(window, larray, target, offset, nelem, ierr)
      import :: rpncomm_window, C_PTR
      type(rpncomm_window), intent(IN) :: window
      type(C_PTR), intent(IN), value :: larray
      integer, intent(IN) :: target, offset, nelem
      integer, intent(OUT) :: ierr
    end subroutine RPN_COMM_i_win_get_r
    subroutine RPN_COMM_i_win_put_r(window, larray, target, offset, nelem, ierr)
      import :: rpncomm_window, C_PTR
      type(rpncomm_window), intent(IN) :: window
      type(C_PTR), intent(IN), value :: larray
      integer, intent(IN) :: target, offset, nelem
      integer, intent(OUT) :: ierr
    end subroutine RPN_COMM_i_win_put_r
  end interface
  integer, external :: RPN_COMM_mype
  real(C_DOUBLE), external :: RPN_COMM_wtime
  external :: RPN_COMM_init, RPN_COMM_finalize, RPN_COMM_size, RPN_COMM_i_datyp
  external :: RPN_COMM_i_win_create_secondary, RPN_COMM_i_win_open, RPN_COMM_i_win_close
  external :: RPN_COMM_i_win_post, RPN_COMM_i_win_free, RPN_COMM_allreduce
  external :: reqreply_spec_grid
  integer :: me0, npes0, pex, pey, ierr0, bad

  pex = 0
  pey = 0
  bad = 0
  call RPN_COMM_init(reqreply_spec_grid, me0, npes0, pex, pey)
  call request_reply()
  call RPN_COMM_finalize(ierr0)
  if (bad /= 0) then
    write(*, '(A,I0,A,I0)') 'test_reqreply_spec_interface: FAILED on PE ', me0, ': ', bad
    error stop 1
  endif
  write(*, '(A,I0)') 'test_reqreply_spec_interface: OK on PE ', me0
contains
  subroutine request_reply()
    integer, parameter :: REQUEST_SIZE = 2
    real, dimension(REQUEST_SIZE), target :: request
    integer, parameter :: REPLY_SIZE = 3
    real, dimension(REPLY_SIZE), target :: reply
    real :: a, b
    integer :: status, me, me_x, me_y, npes, ierr, i, indx, nreq, nreq2, errors, toterrors
    type(rpncomm_window) :: window
    type(rpncomm_datatype) :: dtype
    type(rpncomm_communicator) :: com
    integer, dimension(:), pointer :: pe, offseti, n_in, offseto, n_out
    type(C_PTR) :: cptr
    real, dimension(:), pointer :: request_reply1, request_reply2
    integer, dimension(:,:), pointer :: requests
    integer :: pe_from, pe_offset, pe_nwds
    real(8) :: t1, t2

    include 'reqreply_spec_body.inc'
  end subroutine request_reply
end program test_reqreply_spec_interface

! every PE in one row of the grid
subroutine reqreply_spec_grid(px, py)
  implicit none
  integer, intent(INOUT) :: px, py
  px = px * py
  py = 1
end subroutine reqreply_spec_grid
