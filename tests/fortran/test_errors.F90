! PES: 1 2 3 4 8
! TIMEOUT: 90
!
! Bad input to data movement and exposure control. Every refused call must return RPN_COMM_ERROR,
! move no data (local buffers keep their sentinel, every window keeps its contents) and leave the
! window usable (a correct operation afterwards works and its data is checked):
!   - remote get/put/getacc on a window that is not exposed; local get/put on an exposed one
!   - open twice, close when not open, free and group change while exposed
!   - negative offset / nelem, offset+nelem past the end (also integer overflow), target rank -1
!     and npes, null local buffer with nelem > 0 (nelem = 0 with a null buffer is fine)
!   - per-PE window sizes (0 on PE 0): bounds are those of the TARGET
!   - group lists with duplicates or bad ranks; a remote op to a PE outside pes_to
!   - unknown datatype / operator / communicator names and what is built from them
! Expected error lines on stderr are normal.
program test_errors
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr
  integer, parameter :: N = 16, SENT = -777
  type(rpncomm_window) :: w
  type(rpncomm_datatype) :: dtype
  type(rpncomm_communicator) :: com
  type(rpncomm_operator) :: opsum
  integer, dimension(N), target :: warr
  integer, dimension(N), target :: lbuf, gbuf, src
  integer :: ierr, left, right, i

  call start('test_errors')
  left  = mod(me - 1 + npes, npes)
  right = mod(me + 1, npes)
  call RPN_COMM_i_comm(RPN_COMM_GRID, com)
  call RPN_COMM_i_datyp(RPN_COMM_INTEGER, dtype)
  call RPN_COMM_i_oper(RPN_COMM_SUM, opsum)
  src = [(1000 + me*10 + i, i = 1, N)]

  warr = 0
  call RPN_COMM_i_win_create(w, dtype, N, com, c_loc(warr), ierr)
  call check_ierr(ierr, RPN_COMM_OK, 'create')
  call reset_contents()

  call closed_window_errors()
  call exposed_window_errors(.true.)
  call exposed_window_errors(.false.)
  call group_errors()
  call per_pe_sizes()
  call bad_names()

  call RPN_COMM_i_win_free(w, ierr)
  call check_ierr(ierr, RPN_COMM_OK, 'free')
  call finish('test_errors')

contains

  include 'tutil.inc'

  integer function content(pe, i)        ! window element i (origin 0) of PE pe
    integer, intent(IN) :: pe, i
    content = pe*100 + i
  end function content

  subroutine reset_contents()
    integer :: i
    lbuf = [(content(me, i), i = 0, N-1)]
    call RPN_COMM_i_win_put_l(w, c_loc(lbuf), 0, N, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'put_l reset')
    lbuf = SENT
    gbuf = SENT
  end subroutine reset_contents

  ! own window must hold content(me, :) except the listed changes
  subroutine check_contents(what, i0, vals)
    character(len=*), intent(IN) :: what
    integer, intent(IN), optional :: i0
    integer, dimension(:), intent(IN), optional :: vals
    integer, dimension(N) :: expect
    integer :: i
    expect = [(content(me, i), i = 0, N-1)]
    if (present(i0)) expect(i0+1:i0+size(vals)) = vals
    call check(all(warr == expect), what//': window contents changed')
    call check(all(lbuf == SENT) .and. all(gbuf == SENT), what//': local buffers changed')
  end subroutine check_contents

  ! ------------------------------------------------------------------------------------------
  subroutine closed_window_errors()
    integer, dimension(1), target :: v1
    call section('remote operations on a window that is not exposed, local argument errors')
    call RPN_COMM_i_win_put_r(w, c_loc(src), right, 0, 1, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'put_r while closed')
    call RPN_COMM_i_win_get_r(w, c_loc(lbuf), right, 0, 1, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'get_r while closed')
    call RPN_COMM_i_win_getacc_r(w, c_loc(src), C_NULL_PTR, .false., right, 0, 1, opsum, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'getacc_r while closed')
    call RPN_COMM_i_win_getacc_r(w, c_loc(src), c_loc(gbuf), .true., right, 0, 1, opsum, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'getacc_r with garray while closed')
    v1 = 0
    call RPN_COMM_i_win_post(w, [right], [0], [1], [1], [1], 1, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'post while closed (and no secondary window)')
    call RPN_COMM_i_win_close(w, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'close of a window that is not open')
    call check(.not. RPN_COMM_i_win_check(w, ierr), 'still closed after a refused close')

    call RPN_COMM_i_win_put_l(w, c_loc(src), -1, 1, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'put_l offset -1')
    call RPN_COMM_i_win_put_l(w, c_loc(src), 0, -1, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'put_l nelem -1')
    call RPN_COMM_i_win_put_l(w, c_loc(src), N-1, 2, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'put_l past the end')
    call RPN_COMM_i_win_put_l(w, c_loc(src), N+1, 0, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'put_l offset past the end, nelem 0')
    call RPN_COMM_i_win_put_l(w, c_loc(src), huge(0) - 1, 4, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'put_l offset+nelem overflowing')
    call RPN_COMM_i_win_put_l(w, C_NULL_PTR, 0, 1, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'put_l null buffer, nelem 1')
    call RPN_COMM_i_win_put_l(w, C_NULL_PTR, 0, 0, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'put_l null buffer, nelem 0')
    call RPN_COMM_i_win_get_l(w, c_loc(lbuf), -1, 1, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'get_l offset -1')
    call RPN_COMM_i_win_get_l(w, c_loc(lbuf), 0, -5, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'get_l nelem -5')
    call RPN_COMM_i_win_get_l(w, c_loc(lbuf), 1, N, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'get_l past the end')
    call RPN_COMM_i_win_get_l(w, c_loc(lbuf), 2, huge(0), ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'get_l nelem huge')
    call RPN_COMM_i_win_get_l(w, C_NULL_PTR, 0, 3, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'get_l null buffer, nelem 3')
    call check_contents('after refused operations on a closed window')

    ! the window still works: a local put and get
    call RPN_COMM_i_win_put_l(w, c_loc(src), 3, 2, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'put_l after refused calls')
    call check_contents('put_l after refused calls', 3, src(1:2))
    call RPN_COMM_i_win_get_l(w, c_loc(v1), 4, 1, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'get_l after refused calls')
    call check(v1(1) == src(2), 'get_l after refused calls: value')
    call barrier()
    call reset_contents()
  end subroutine closed_window_errors

  ! ------------------------------------------------------------------------------------------
  subroutine exposed_window_errors(active)
    logical, intent(IN) :: active
    character(len=:), allocatable :: m
    integer, dimension(1), target :: marker
    type(rpncomm_window) :: wcopy

    m = trim(merge('fence  ', 'passive', active))
    call section('argument errors on an exposed window, '//m)
    call RPN_COMM_i_win_open(w, active, ierr)
    call check_ierr(ierr, RPN_COMM_OK, m//' open')
    call RPN_COMM_i_win_open(w, active, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, m//' second open')
    call RPN_COMM_i_win_open(w, .not. active, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, m//' second open, other mode')
    call check(RPN_COMM_i_win_check(w, ierr), m//' still open after refused open')

    call RPN_COMM_i_win_put_l(w, c_loc(src), 0, 1, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, m//' put_l while exposed')
    call RPN_COMM_i_win_get_l(w, c_loc(lbuf), 0, 1, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, m//' get_l while exposed')
    call RPN_COMM_i_win_group(w, [me], [me], ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, m//' win_group while exposed')
    wcopy = w
    call RPN_COMM_i_win_free(wcopy, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, m//' free while exposed')
    call check(RPN_COMM_i_valid_win(w, ierr), m//' window still valid after refused free')
    call RPN_COMM_i_win_post(w, [right], [0], [1], [1], [1], 1, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, m//' post without secondary window')

    call remote_errors(m, 'put_r')
    call remote_errors(m, 'get_r')
    call remote_errors(m, 'getacc_r')
    call remote_errors(m, 'getacc_r+g')

    ! a correct operation still works: element 5 of the right neighbour
    marker = 90000 + me
    call RPN_COMM_i_win_put_r(w, c_loc(marker), right, 5, 1, ierr)
    call check_ierr(ierr, RPN_COMM_OK, m//' put_r after refused calls')
    call RPN_COMM_i_win_close(w, ierr)
    call check_ierr(ierr, RPN_COMM_OK, m//' close')
    call RPN_COMM_i_win_close(w, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, m//' second close')
    call check_contents(m//' after refused remote operations', 5, [90000 + left])
    call barrier()
    call reset_contents()
  end subroutine exposed_window_errors

  ! every way to get the addressing wrong, for one kind of remote operation
  subroutine remote_errors(m, op)
    character(len=*), intent(IN) :: m, op
    call remote(op, right, -1, 1, .false., ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, m//' '//op//' offset -1')
    call remote(op, right, 0, -1, .false., ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, m//' '//op//' nelem -1')
    call remote(op, right, N-2, 3, .false., ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, m//' '//op//' offset+nelem past the end')
    call remote(op, right, 0, N+1, .false., ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, m//' '//op//' nelem = size+1')
    call remote(op, right, huge(0) - 2, 5, .false., ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, m//' '//op//' offset+nelem overflowing')
    call remote(op, right, 1, huge(0), .false., ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, m//' '//op//' nelem huge')
    call remote(op, -1, 0, 1, .false., ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, m//' '//op//' target -1')
    call remote(op, npes, 0, 1, .false., ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, m//' '//op//' target npes')
    call remote(op, -huge(0), 0, 1, .false., ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, m//' '//op//' target -huge')
    call remote(op, right, 0, 2, .true., ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, m//' '//op//' null local buffer, nelem 2')
    call check(all(lbuf == SENT) .and. all(gbuf == SENT), m//' '//op//': local buffers changed')
  end subroutine remote_errors

  subroutine remote(op, target, offset, nelem, nullbuf, ierr)
    character(len=*), intent(IN) :: op
    integer, intent(IN) :: target, offset, nelem
    logical, intent(IN) :: nullbuf
    integer, intent(OUT) :: ierr
    type(C_PTR) :: ps, pl
    ps = c_loc(src)
    pl = c_loc(lbuf)
    if (nullbuf) then
      ps = C_NULL_PTR
      pl = C_NULL_PTR
    endif
    select case (op)
    case ('put_r')
      call RPN_COMM_i_win_put_r(w, ps, target, offset, nelem, ierr)
    case ('get_r')
      call RPN_COMM_i_win_get_r(w, pl, target, offset, nelem, ierr)
    case ('getacc_r')
      call RPN_COMM_i_win_getacc_r(w, ps, C_NULL_PTR, .false., target, offset, nelem, opsum, ierr)
    case default
      call RPN_COMM_i_win_getacc_r(w, ps, c_loc(gbuf), .true., target, offset, nelem, opsum, ierr)
    end select
  end subroutine remote

  ! ------------------------------------------------------------------------------------------
  subroutine group_errors()
    integer, dimension(1), target :: marker
    call section('group lists with duplicates or bad ranks, op outside pes_to')
    call RPN_COMM_i_win_group(w, [me, me], [me], ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'win_group pes_to with a duplicate')
    call RPN_COMM_i_win_group(w, [me], [right, me, right], ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'win_group pes_from with a duplicate')
    call RPN_COMM_i_win_group(w, [npes], [me], ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'win_group pes_to rank npes')
    call RPN_COMM_i_win_group(w, [me], [-2], ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'win_group pes_from rank -2')
    call RPN_COMM_i_win_group(w, [-1, me], [me], ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'win_group -1 inside a list')
    call RPN_COMM_i_win_group(w, [me], [-1], ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'win_group [me], [-1]')

    ! still fence mode: a put to the right neighbour works
    marker = 80000 + me
    call RPN_COMM_i_win_open(w, .true., ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'open after refused win_group')
    call RPN_COMM_i_win_put_r(w, c_loc(marker), right, 7, 1, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'put_r (fence) after refused win_group')
    call RPN_COMM_i_win_close(w, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'close after refused win_group')
    call check_contents('fence epoch after refused win_group', 7, [80000 + left])
    call barrier()
    call reset_contents()

    ! group of this PE alone: operations to anyone else are refused
    call RPN_COMM_i_win_group(w, [me], [me], ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'win_group [me], [me]')
    marker = 70000 + me
    call RPN_COMM_i_win_open(w, .true., ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'open in group mode')
    call RPN_COMM_i_win_put_r(w, c_loc(marker), me, 2, 1, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'put_r to self in group [me]')
    if (npes > 1) then
      call RPN_COMM_i_win_put_r(w, c_loc(marker), right, 3, 1, ierr)
      call check_ierr(ierr, RPN_COMM_ERROR, 'put_r to a PE outside pes_to')
      call RPN_COMM_i_win_get_r(w, c_loc(lbuf), right, 3, 1, ierr)
      call check_ierr(ierr, RPN_COMM_ERROR, 'get_r from a PE outside pes_to')
      call RPN_COMM_i_win_getacc_r(w, c_loc(marker), c_loc(gbuf), .false., right, 3, 1, opsum, ierr)
      call check_ierr(ierr, RPN_COMM_ERROR, 'getacc_r to a PE outside pes_to')
    endif
    call RPN_COMM_i_win_close(w, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'close in group mode')
    call check_contents('group [me] epoch', 2, [70000 + me])
    call RPN_COMM_i_win_group(w, [-1], [-1], ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'win_group back to fence')
    call barrier()
    call reset_contents()
  end subroutine group_errors

  ! ------------------------------------------------------------------------------------------
  ! window sizes 2*rank: PE 0 has none; bounds are checked against the target's size
  subroutine per_pe_sizes()
    type(rpncomm_window) :: v
    integer, dimension(:), allocatable, target :: buf, got
    integer, dimension(:), pointer :: vmem
    type(C_PTR) :: p
    integer :: t, szt, szr, i
    call section('per-PE window sizes (2*rank), bounds of the target')
    call RPN_COMM_i_win_create(v, dtype, 2*me, com, C_NULL_PTR, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'create with size 2*rank')
    call check(RPN_COMM_i_win_get_size(v, ierr) == 2*me, 'get_size = 2*rank')
    allocate(buf(2*npes + 2), got(2*npes + 2))
    buf = [(5000 + 100*me + i, i = 1, size(buf))]
    got = SENT
    if (me > 0) then
      p = RPN_COMM_i_win_get_ptr(v, 1, ierr)
      call check_ierr(ierr, RPN_COMM_OK, 'get_ptr of a sized window')
      call c_f_pointer(p, vmem, [2*me])
      vmem = -1
    else
      call RPN_COMM_i_win_put_l(v, c_loc(buf), 0, 1, ierr)
      call check_ierr(ierr, RPN_COMM_ERROR, 'put_l into a window of size 0')
    endif
    call RPN_COMM_i_win_open(v, .true., ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'open sized window')
    do t = 0, npes-1
      szt = 2*t
      call RPN_COMM_i_win_put_r(v, c_loc(buf), t, szt, 1, ierr)
      call check_ierr(ierr, RPN_COMM_ERROR, 'put_r at offset size(target) to PE '//str(t))
      call RPN_COMM_i_win_put_r(v, c_loc(buf), t, max(szt - 1, 0), 2, ierr)
      call check_ierr(ierr, RPN_COMM_ERROR, 'put_r crossing the end of PE '//str(t))
      call RPN_COMM_i_win_get_r(v, c_loc(got), t, 0, szt + 1, ierr)
      call check_ierr(ierr, RPN_COMM_ERROR, 'get_r of size(target)+1 from PE '//str(t))
      call RPN_COMM_i_win_getacc_r(v, c_loc(buf), C_NULL_PTR, .false., t, 0, szt + 1, opsum, ierr)
      call check_ierr(ierr, RPN_COMM_ERROR, 'getacc_r of size(target)+1 to PE '//str(t))
      call RPN_COMM_i_win_put_r(v, c_loc(buf), t, szt, 0, ierr)
      call check_ierr(ierr, RPN_COMM_OK, 'put_r of 0 elements at offset size(target) of PE '//str(t))
    enddo
    call check(all(got == SENT), 'get_r buffer untouched by refused gets')
    ! the whole window of the right neighbour, whatever its size (only this PE writes there)
    szr = 2*right
    call RPN_COMM_i_win_put_r(v, c_loc(buf), right, 0, szr, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'put_r of the whole window of the right neighbour')
    call RPN_COMM_i_win_close(v, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'close sized window')
    if (me > 0) call check(all(vmem == [(5000 + 100*left + i, i = 1, 2*me)]), &
                           'sized window holds what the left neighbour put')
    call RPN_COMM_i_win_free(v, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'free sized window')
  end subroutine per_pe_sizes

  ! ------------------------------------------------------------------------------------------
  subroutine bad_names()
    type(rpncomm_datatype) :: baddt, dt2
    type(rpncomm_communicator) :: badcom
    type(rpncomm_operator) :: badop
    type(rpncomm_window) :: v
    integer :: n
    integer, dimension(2), target :: a, b
    integer, dimension(1), target :: x

    call section('unknown datatype, operator and communicator names')
    call RPN_COMM_i_datyp('MPI_COMPLEX_NOT_HERE', baddt)
    call RPN_COMM_i_win_create(v, baddt, 4, com, C_NULL_PTR, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'create with an unknown datatype')
    call check(.not. RPN_COMM_i_valid_win(v, ierr), 'window from an unknown datatype is not valid')
    call RPN_COMM_i_win_create(v, rpncomm_datatype(C_NULL_PTR, 31, 9), 4, com, C_NULL_PTR, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'create with a garbage datatype handle')
    call RPN_COMM_i_win_create(v, NULL_rpncomm_datatype, 4, com, C_NULL_PTR, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'create with the NULL datatype handle')

    call RPN_COMM_i_comm('NO_SUCH_COMM', badcom)
    call RPN_COMM_i_win_create(v, dtype, 4, badcom, C_NULL_PTR, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'create with an unknown communicator')
    call RPN_COMM_i_win_create(v, dtype, 4, rpncomm_communicator(C_NULL_PTR, 5, 5), C_NULL_PTR, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'create with a garbage communicator handle')
    call RPN_COMM_i_win_create(v, dtype, -3, com, C_NULL_PTR, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'create with a negative size')

    call RPN_COMM_size('NO_SUCH_COMM', n, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'RPN_COMM_size of an unknown communicator')
    call RPN_COMM_barrier('NO_SUCH_COMM', ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'RPN_COMM_barrier of an unknown communicator')
    a = [1, 2]
    b = SENT
    call RPN_COMM_allreduce(a, b, 2, 'MPI_NOTYPE', RPN_COMM_SUM, RPN_COMM_GRID, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'allreduce with an unknown datatype')
    call RPN_COMM_allreduce(a, b, 2, RPN_COMM_INTEGER, 'MPI_NOOP_X', RPN_COMM_GRID, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'allreduce with an unknown operator')
    call RPN_COMM_allreduce(a, b, 2, RPN_COMM_INTEGER, RPN_COMM_SUM, 'NO_SUCH_COMM', ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'allreduce with an unknown communicator')
    call check(all(b == SENT), 'allreduce refused: receive buffer untouched')

    call RPN_COMM_i_oper('MPI_FROBNICATE', badop)
    call check(.not. RPN_COMM_i_valid_oper(badop), 'valid_oper of an unknown operator name')
    call check(.not. RPN_COMM_i_valid_oper(rpncomm_operator(C_NULL_PTR, 3, 3)), &
               'valid_oper of a garbage operator handle')
    call RPN_COMM_i_win_oper(w, badop, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'win_oper with an unknown operator')
    x = 1
    call RPN_COMM_i_win_open(w, .false., ierr)
    call RPN_COMM_i_win_getacc_r(w, c_loc(x), c_loc(gbuf), .true., right, 0, 1, badop, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'getacc_r with an unknown operator')
    ! the default operator (SUM) still applies: element 9 of the right neighbour + 1
    call RPN_COMM_i_win_getacc_r(w, c_loc(x), C_NULL_PTR, .false., right, 9, 1, NULL_rpncomm_operator, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'getacc_r with the default operator after refused win_oper')
    call RPN_COMM_i_win_close(w, ierr)
    call check_contents('after getacc_r with an unknown operator', 9, [content(me, 9) + 1])
    call barrier()
    call reset_contents()

    ! names are case-insensitive and trailing blanks are ignored
    call RPN_COMM_i_datyp('mpi_integer   ', dt2)
    call RPN_COMM_i_win_create(v, dt2, 3, com, C_NULL_PTR, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'create with datatype name "mpi_integer   "')
    call RPN_COMM_i_win_free(v, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'free of that window')
    call RPN_COMM_size('grid ', n, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'RPN_COMM_size("grid ")')
    call check(n == npes, 'RPN_COMM_size("grid ") = npes')
  end subroutine bad_names

  subroutine barrier()
    call RPN_COMM_barrier(RPN_COMM_GRID, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'barrier')
  end subroutine barrier

end program test_errors
