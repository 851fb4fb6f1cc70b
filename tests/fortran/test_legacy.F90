! PES: 1 2 3 4 8
! TIMEOUT: 60
!
! Link compatibility with code written for the original RPN_COMM: this program does NOT use the
! module nor RPN_COMM_interfaces.inc. It includes only RPN_COMM_types.inc and RPN_COMM_constants.inc,
! carries its own copy of the original interface blocks for the window routines (get_ptr's in the
! windows specification's form, the library's link symbol), and calls the
! environment routines as plain external procedures without any interface (implicit interface,
! as old Fortran code does). Data is checked in fence, group and passive mode on a REAL window.
program test_legacy
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM_types.inc'
  include 'RPN_COMM_constants.inc'

  ! ---- the program's own copy of the original interfaces
  interface
    subroutine RPN_COMM_i_comm(name, com, mcom)
      import :: rpncomm_communicator
      character(len=*), intent(IN) :: name
      type(rpncomm_communicator), intent(OUT) :: com
      integer, intent(IN), optional :: mcom
    end subroutine RPN_COMM_i_comm
    subroutine RPN_COMM_i_datyp(name, dtype)
      import :: rpncomm_datatype
      character(len=*), intent(IN) :: name
      type(rpncomm_datatype), intent(OUT) :: dtype
    end subroutine RPN_COMM_i_datyp
    subroutine RPN_COMM_i_oper(name, oper)
      import :: rpncomm_operator
      character(len=*), intent(IN) :: name
      type(rpncomm_operator), intent(OUT) :: oper
    end subroutine RPN_COMM_i_oper
    subroutine RPN_COMM_i_win_create(window, dtype, siz, com, array, ierr)
      import :: rpncomm_window, rpncomm_datatype, rpncomm_communicator, C_PTR
      integer, intent(OUT) :: ierr
      type(rpncomm_window), intent(OUT) :: window
      type(rpncomm_datatype), intent(IN) :: dtype
      integer, intent(IN) :: siz
      type(rpncomm_communicator), intent(IN) :: com
      type(C_PTR), intent(IN), value :: array
    end subroutine RPN_COMM_i_win_create
    subroutine RPN_COMM_i_win_free(window, ierr)
      import :: rpncomm_window
      integer, intent(OUT) :: ierr
      type(rpncomm_window), intent(INOUT) :: window
    end subroutine RPN_COMM_i_win_free
    function RPN_COMM_i_valid_win(window, ierr) result(is_valid)
      import :: rpncomm_window
      integer, intent(OUT) :: ierr
      type(rpncomm_window), intent(IN) :: window
      logical :: is_valid
    end function RPN_COMM_i_valid_win
    function RPN_COMM_i_win_check(window, ierr) result(is_open)
      import :: rpncomm_window
      integer, intent(OUT) :: ierr
      type(rpncomm_window), intent(IN) :: window
      logical :: is_open
    end function RPN_COMM_i_win_check
    ! the windows specification's form, which the link symbol takes: the one deliberate
    ! difference from RPN_COMM 4.6.3's externals, whose (window, ierr) no public code calls
    ! (docs/contract.md rule 10)
    function RPN_COMM_i_win_get_ptr(window, np, ierr) result(ptr)
      import :: rpncomm_window, C_PTR
      integer, intent(IN) :: np
      integer, intent(OUT) :: ierr
      type(rpncomm_window), intent(IN) :: window
      type(C_PTR) :: ptr
    end function RPN_COMM_i_win_get_ptr
    function RPN_COMM_i_win_get_size(window, ierr) result(siz)
      import :: rpncomm_window
      integer, intent(OUT) :: ierr
      type(rpncomm_window), intent(IN) :: window
      integer :: siz
    end function RPN_COMM_i_win_get_size
    subroutine RPN_COMM_i_win_open(window, active, ierr)
      import :: rpncomm_window
      integer, intent(OUT) :: ierr
      type(rpncomm_window), intent(IN) :: window
      logical, intent(IN) :: active
    end subroutine RPN_COMM_i_win_open
    subroutine RPN_COMM_i_win_close(window, ierr)
      import :: rpncomm_window
      integer, intent(OUT) :: ierr
      type(rpncomm_window), intent(IN) :: window
    end subroutine RPN_COMM_i_win_close
    subroutine RPN_COMM_i_win_get_r(window, larray, target, offset, nelem, ierr)
      import :: rpncomm_window, C_PTR
      integer, intent(OUT) :: ierr
      type(rpncomm_window), intent(IN) :: window
      type(C_PTR), intent(IN), value :: larray
      integer, intent(IN) :: target
      integer, intent(IN) :: offset
      integer, intent(IN) :: nelem
    end subroutine RPN_COMM_i_win_get_r
    subroutine RPN_COMM_i_win_put_r(window, larray, targetpe, offset, nelem, ierr)
      import :: rpncomm_window, C_PTR
      integer, intent(OUT) :: ierr
      type(rpncomm_window), intent(IN) :: window
      type(C_PTR), intent(IN), value :: larray
      integer, intent(IN) :: targetpe
      integer, intent(IN) :: offset
      integer, intent(IN) :: nelem
    end subroutine RPN_COMM_i_win_put_r
    subroutine RPN_COMM_i_win_get_l(window, larray, offset, nelem, ierr)
      import :: rpncomm_window, C_PTR
      integer, intent(OUT) :: ierr
      type(rpncomm_window), intent(IN) :: window
      type(C_PTR), intent(IN), value :: larray
      integer, intent(IN) :: offset
      integer, intent(IN) :: nelem
    end subroutine RPN_COMM_i_win_get_l
    subroutine RPN_COMM_i_win_put_l(window, larray, offset, nelem, ierr)
      import :: rpncomm_window, C_PTR
      integer, intent(OUT) :: ierr
      type(rpncomm_window), intent(IN) :: window
      type(C_PTR), intent(IN), value :: larray
      integer, intent(IN) :: offset
      integer, intent(IN) :: nelem
    end subroutine RPN_COMM_i_win_put_l
    subroutine RPN_COMM_i_win_getacc_r(window, larray, garray, before, targetpe, offset, nelem, oper, ierr)
      import :: rpncomm_window, rpncomm_operator, C_PTR
      integer, intent(OUT) :: ierr
      type(rpncomm_window), intent(IN) :: window
      type(rpncomm_operator), intent(IN) :: oper
      type(C_PTR), intent(IN), value :: larray
      type(C_PTR), intent(IN), value :: garray
      logical, intent(IN) :: before
      integer, intent(IN) :: targetpe
      integer, intent(IN) :: offset
      integer, intent(IN) :: nelem
    end subroutine RPN_COMM_i_win_getacc_r
    subroutine RPN_COMM_i_win_group(window, pes_to, pes_from, ierr)
      import :: rpncomm_window
      type(rpncomm_window), intent(IN) :: window
      integer, dimension(:), intent(IN) :: pes_to
      integer, dimension(:), intent(IN) :: pes_from
      integer, intent(OUT) :: ierr
    end subroutine RPN_COMM_i_win_group
    subroutine RPN_COMM_i_win_oper(window, oper, ierr)
      import :: rpncomm_window, rpncomm_operator
      type(rpncomm_window), intent(IN) :: window
      type(rpncomm_operator), intent(IN) :: oper
      integer, intent(OUT) :: ierr
    end subroutine RPN_COMM_i_win_oper
  end interface

  ! ---- environment routines called the old way: no interface at all
  external :: RPN_COMM_init, RPN_COMM_finalize, RPN_COMM_size, RPN_COMM_barrier, RPN_COMM_allreduce
  external :: legacy_userinit
  integer, external :: RPN_COMM_mype
  real(kind=8), external :: RPN_COMM_wtime

  integer, parameter :: N = 12
  integer :: me, npes, pex, pey, ierr, status, me_x, me_y, nerr, tot, i, left, right, mode
  type(rpncomm_window) :: win
  type(rpncomm_datatype) :: dtype
  type(rpncomm_communicator) :: com
  type(rpncomm_operator) :: opmax
  real(kind=4), dimension(N), target :: warr, lbuf
  real(kind=4), dimension(4), target :: src
  real(kind=4), dimension(1), target :: one
  real(kind=4), dimension(:), pointer :: view
  real(kind=8) :: t0
  integer, dimension(1) :: e1, e2

  nerr = 0
  mode = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(legacy_userinit, me, npes, pex, pey)
  status = RPN_COMM_mype(me, me_x, me_y)
  if (status /= RPN_COMM_OK .or. me_x /= me .or. me_y /= 0) call fail('RPN_COMM_mype')
  call RPN_COMM_size(RPN_COMM_GRID, tot, ierr)
  if (ierr /= RPN_COMM_OK .or. tot /= npes) call fail('RPN_COMM_size')
  t0 = RPN_COMM_wtime()
  if (me == 0) print '(A,I0,A)', 'test_legacy: ', npes, ' PEs, own interface blocks, implicit externals'
  left  = mod(me - 1 + npes, npes)
  right = mod(me + 1, npes)

  call RPN_COMM_i_comm(RPN_COMM_GRID, com)
  call RPN_COMM_i_datyp(RPN_COMM_REAL, dtype)
  call RPN_COMM_i_oper(RPN_COMM_MAX, opmax)
  warr = 0.0
  call RPN_COMM_i_win_create(win, dtype, N, com, c_loc(warr), ierr)
  if (ierr /= RPN_COMM_OK) call fail('create')
  if (.not. RPN_COMM_i_valid_win(win, ierr)) call fail('valid_win')
  if (RPN_COMM_i_win_get_size(win, ierr) /= N) call fail('get_size')
  call c_f_pointer(RPN_COMM_i_win_get_ptr(win, 1, ierr), view, [N])
  if (.not. associated(view, warr)) call fail('get_ptr is the user array')

  do mode = 1, 3                     ! fence, group (ring), passive
    if (me == 0) print '(A,I0)', '-- legacy mode ', mode
    lbuf = [(real(me*100 + i, 4), i = 1, N)]
    call RPN_COMM_i_win_put_l(win, c_loc(lbuf), 0, N, ierr)
    if (ierr /= RPN_COMM_OK .or. any(warr /= lbuf)) call fail('put_l')
    if (mode == 2) then
      if (left == right) then
        call RPN_COMM_i_win_group(win, [left], [left], ierr)
      else
        call RPN_COMM_i_win_group(win, [left, right], [left, right], ierr)
      endif
      if (ierr /= RPN_COMM_OK) call fail('win_group')
    endif
    if (mode == 3) then
      call RPN_COMM_i_win_oper(win, opmax, ierr)          ! default operator MAX from now on
      if (ierr /= RPN_COMM_OK) call fail('win_oper')
    endif
    src = [(real(1000*mode + 10*me + i, 4), i = 1, 4)]
    one = real(500 + me, 4)
    lbuf = -1.0
    call RPN_COMM_i_win_open(win, mode /= 3, ierr)
    if (ierr /= RPN_COMM_OK) call fail('open')
    if (.not. RPN_COMM_i_win_check(win, ierr)) call fail('win_check after open')
    call RPN_COMM_i_win_put_r(win, c_loc(src), right, 0, 4, ierr)          ! elements 0..3 of right
    if (ierr /= RPN_COMM_OK) call fail('put_r')
    call RPN_COMM_i_win_get_r(win, c_loc(lbuf), right, 6, 4, ierr)        ! elements 6..9 of right
    if (ierr /= RPN_COMM_OK) call fail('get_r')
    call RPN_COMM_i_win_getacc_r(win, c_loc(one), C_NULL_PTR, .false., right, 11, 1, &
                                 NULL_rpncomm_operator, ierr)              ! default operator
    if (ierr /= RPN_COMM_OK) call fail('getacc_r')
    call RPN_COMM_i_win_close(win, ierr)
    if (ierr /= RPN_COMM_OK) call fail('close')
    if (RPN_COMM_i_win_check(win, ierr)) call fail('win_check after close')

    if (any(warr(1:4) /= [(real(1000*mode + 10*left + i, 4), i = 1, 4)])) call fail('put_r data')
    if (any(lbuf(1:4) /= [(real(right*100 + i, 4), i = 7, 10)])) call fail('get_r data')
    if (mode == 3) then                                  ! MAX(me*100+12, 500+left)
      if (warr(12) /= max(real(me*100 + 12, 4), real(500 + left, 4))) call fail('getacc_r MAX data')
    else                                                 ! SUM
      if (warr(12) /= real(me*100 + 12 + 500 + left, 4)) call fail('getacc_r SUM data')
    endif
    call RPN_COMM_i_win_get_l(win, c_loc(lbuf), 0, N, ierr)
    if (ierr /= RPN_COMM_OK .or. any(lbuf /= warr)) call fail('get_l')
    if (mode == 2) then
      call RPN_COMM_i_win_group(win, [-1], [-1], ierr)
      if (ierr /= RPN_COMM_OK) call fail('win_group reset')
    endif
    call RPN_COMM_barrier(RPN_COMM_GRID, ierr)
  enddo

  call RPN_COMM_i_win_free(win, ierr)
  if (ierr /= RPN_COMM_OK) call fail('free')
  if (RPN_COMM_i_valid_win(win, ierr)) call fail('valid_win after free')
  if (RPN_COMM_wtime() < t0) call fail('wtime')

  e1(1) = nerr
  call RPN_COMM_allreduce(e1, e2, 1, RPN_COMM_INTEGER, RPN_COMM_SUM, RPN_COMM_GRID, ierr)
  if (ierr /= RPN_COMM_OK) e2(1) = e2(1) + 1
  if (me == 0) print '(A,I0)', 'test_legacy: failed checks (all PEs) = ', e2(1)
  call RPN_COMM_finalize(ierr)
  if (e2(1) > 0 .or. nerr > 0) error stop 1
  if (me == 0) print '(A)', 'test_legacy: OK'

contains

  subroutine fail(what)
    character(len=*), intent(IN) :: what
    nerr = nerr + 1
    write(*, '(A,I0,A,A,A,I0)') 'CHECK FAILED on PE ', me, ': ', what, ', mode ', mode
  end subroutine fail

end program test_legacy

! the old-style Userinit: an external subroutine
subroutine legacy_userinit(px, py)
  implicit none
  integer, intent(INOUT) :: px, py
  external :: RPN_COMM_size
  integer :: ierr
  call RPN_COMM_size('WORLD', px, ierr)
  py = 1
end subroutine legacy_userinit
