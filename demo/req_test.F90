! req_test.F90 -- request/reply demo for rpncomm-windows (legacy entry: include 'RPN_COMM.inc')
!
! Every PE (the client) asks every other PE (the server) to compute something on two numbers a, b:
!   1. each client writes its requests (a, b) into its own primary window and posts, for every
!      server, a record (client, offset of the request, 2, offset of the reply area, 3) into the
!      server's secondary window (RPN_COMM_i_win_post, passive mode)
!   2. each server reads its records, fetches every request from the client's window (get_r) and
!      puts the reply (a+b, a*b, a*a+b*b) into the client's reply area (put_r), passive mode
!   3. each client compares the replies with what it computed itself
! The secondary window is first created one slot too small on purpose, then reallocated
! (slots < 0) with one record per PE (record 1 is the counter).
!
! Run:  rpnrun -n 4 req_test       Exit status 0 when every reply is right and every call succeeded.
program req_test
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'

  integer, parameter :: NQ = 2           ! words per request (a, b)
  integer, parameter :: NR = 3           ! words per reply
  integer :: Me, Me_x, Me_y, npes, pex, pey, ierr, status, nbad, totbad
  integer :: i, k, nreq, nrecv, client, errors, toterrors
  integer, dimension(2) :: counts, totals
  type(rpncomm_window) :: window
  type(rpncomm_datatype) :: dtype
  type(rpncomm_communicator) :: com
  integer, dimension(:), allocatable :: pe, offseti, n_in, offseto, n_out
  real, dimension(:), allocatable, target :: buffer     ! the primary window (requests + replies)
  real, dimension(:), allocatable :: expected
  real, dimension(NQ), target :: request
  real, dimension(NR), target :: reply
  integer, dimension(:, :), pointer :: records
  real :: a, b
  real(kind=8) :: t_post, t_reply
  logical :: verbose
  external :: one_row                    ! the Userinit, below the program

  nbad = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(one_row, Me, npes, pex, pey)
  status = RPN_COMM_mype(Me, Me_x, Me_y)
  call RPN_COMM_size(RPN_COMM_GRID, npes, ierr)
  call ok(ierr, 'RPN_COMM_size')
  call RPN_COMM_i_comm(RPN_COMM_GRID, com)
  call RPN_COMM_i_datyp(RPN_COMM_INTEGER, dtype)      ! a "word": same size as a default real
  verbose = npes < 4

  ! ---- the requests of this PE: one per other PE
  allocate(pe(npes), offseti(npes), n_in(npes), offseto(npes), n_out(npes))
  allocate(buffer(npes*(NQ + NR)), expected(npes*(NQ + NR)))
  buffer = -1.0
  nreq = 0
  do i = 0, npes-1
    if (i == Me) cycle
    nreq = nreq + 1
    pe(nreq)      = i
    offseti(nreq) = (nreq - 1)*NQ
    n_in(nreq)    = NQ
    offseto(nreq) = npes*NQ + (nreq - 1)*NR
    n_out(nreq)   = NR
    buffer(offseti(nreq) + 1) = nreq + 5*Me              ! a
    buffer(offseti(nreq) + 2) = nreq + 1 + 5*Me          ! b
  enddo
  expected = buffer
  do k = 1, nreq
    a = buffer(offseti(k) + 1)
    b = buffer(offseti(k) + 2)
    expected(offseto(k) + 1 : offseto(k) + 3) = [a + b, a*b, a*a + b*b]
    if (verbose) write(*, '(A,I0,A,I0,A,2F8.1)') 'PE ', Me, ' asks PE ', pe(k), ': a, b =', a, b
  enddo

  ! ---- windows
  call RPN_COMM_i_win_create(window, dtype, size(buffer), com, c_loc(buffer), ierr)
  call ok(ierr, 'RPN_COMM_i_win_create')
  call RPN_COMM_i_win_create_secondary(window, npes - 1, ierr)     ! one slot too few, on purpose
  if (npes > 1) call ok(ierr, 'RPN_COMM_i_win_create_secondary(npes-1)')   ! (0 slots is refused)
  call RPN_COMM_i_win_create_secondary(window, -npes, ierr)        ! reallocate: npes records
  call ok(ierr, 'RPN_COMM_i_win_create_secondary(-npes)')
  call c_f_pointer(RPN_COMM_i_win_get_ptr(window, 2, ierr), records, [5, npes])
  call ok(ierr, 'RPN_COMM_i_win_get_ptr(2)')

  ! ---- post the requests
  t_post = RPN_COMM_wtime()
  call RPN_COMM_i_win_open(window, .false., ierr)
  call ok(ierr, 'RPN_COMM_i_win_open')
  call RPN_COMM_i_win_post(window, pe, offseti, n_in, offseto, n_out, nreq, ierr)
  call ok(ierr, 'RPN_COMM_i_win_post')
  call RPN_COMM_i_win_close(window, ierr)
  call ok(ierr, 'RPN_COMM_i_win_close')
  t_post = RPN_COMM_wtime() - t_post

  nrecv = records(1, 1) - 1
  write(*, '(A,I0,A,I0)') 'PE ', Me, ': number of requests received = ', nrecv
  if (verbose) then
    do i = 2, nrecv + 1
      write(*, '(A,I0,A,5I6)') 'PE ', Me, ' record:', records(:, i)
    enddo
  endif

  ! ---- serve them
  t_reply = RPN_COMM_wtime()
  call RPN_COMM_i_win_open(window, .false., ierr)
  call ok(ierr, 'RPN_COMM_i_win_open')
  do i = 2, nrecv + 1
    client = records(1, i)
    call RPN_COMM_i_win_get_r(window, c_loc(request), client, records(2, i), records(3, i), ierr)
    call ok(ierr, 'RPN_COMM_i_win_get_r')
    reply = [request(1) + request(2), request(1)*request(2), request(1)**2 + request(2)**2]
    call RPN_COMM_i_win_put_r(window, c_loc(reply), client, records(4, i), records(5, i), ierr)
    call ok(ierr, 'RPN_COMM_i_win_put_r')
  enddo
  call RPN_COMM_i_win_close(window, ierr)
  call ok(ierr, 'RPN_COMM_i_win_close')
  t_reply = RPN_COMM_wtime() - t_reply

  ! ---- check the replies (and that the requests are untouched)
  errors = count(buffer /= expected)
  if (nrecv /= npes - 1) errors = errors + 1
  counts = [errors, nbad]
  call RPN_COMM_allreduce(counts, totals, 2, RPN_COMM_INTEGER, RPN_COMM_SUM, RPN_COMM_GRID, ierr)
  call ok(ierr, 'RPN_COMM_allreduce')
  toterrors = totals(1)
  totbad = totals(2)
  write(*, '(A,I0,A,I0,A,I0)') 'PE ', Me, ': local errors, total errors = ', errors, ', ', toterrors
  write(*, '(A,I0,A,F9.6,A,F9.6)') 'PE ', Me, ': time to post requests = ', t_post, ' s, time to reply = ', t_reply
  if (verbose) then
    write(*, '(A,I0,A,15F8.1)') 'PE ', Me, ' got     :', buffer
    write(*, '(A,I0,A,15F8.1)') 'PE ', Me, ' expected:', expected
  endif

  call RPN_COMM_i_win_free(window, ierr)
  call ok(ierr, 'RPN_COMM_i_win_free')
  call RPN_COMM_finalize(ierr)
  if (toterrors > 0 .or. totbad > 0 .or. nbad > 0 .or. ierr /= RPN_COMM_OK) then
    if (Me == 0) write(*, '(A,I0,A,I0,A)') 'req_test: FAILED (', toterrors, ' wrong values, ', &
                                            max(totbad, nbad), ' failed calls)'
    error stop 1
  endif
  if (Me == 0) write(*, '(A,I0,A)') 'req_test: OK on ', npes, ' PEs'

contains

  subroutine ok(ierr, what)
    integer, intent(IN) :: ierr
    character(len=*), intent(IN) :: what
    if (ierr /= RPN_COMM_OK) then
      nbad = nbad + 1
      write(*, '(A,I0,A,A,A,I0)') 'PE ', Me, ': ', what, ' failed, ierr = ', ierr
    endif
  end subroutine ok

end program req_test

! Userinit: all PEs in one row. An external procedure, not an internal one of the program: an
! internal procedure passed as an argument needs a trampoline on the stack, for which the linker
! makes the stack executable (and warns).
subroutine one_row(px, py)
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer, intent(INOUT) :: px, py
  integer :: ierr
  call RPN_COMM_size(RPN_COMM_WORLD, px, ierr)
  py = 1
end subroutine one_row
