! bench/requests.F90 -- request-based operations (issue 20): 64 one-element rput_r and one flush
! against 64 one-element (blocking) put_r, in the same run, passive mode, every PE putting into
! its right neighbour. Three forms are timed, alternating within each trial:
!   blocking      64 x RPN_COMM_i_win_put_r
!   rput+flush    64 x RPN_COMM_i_win_rput_r, RPN_COMM_i_win_flush(right) (the 64 requests are
!                 waited for after the clock stops: the issue's measure)
!   rput+flush+wait  the same with the 64 RPN_COMM_i_win_wait inside the clock (the whole cycle)
! Prints, per form, the median over the trials of the microseconds per batch of 64:
!   REQUESTS <form> <us per 64>
! Argument: reps=N batches per trial (default 2000; over MPI between nodes, a few).
! Run by bench/requests.sh under rpnrun.
program bench_requests
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer, parameter :: NB = 64, TRIALS = 11, NFORMS = 3
  integer :: me, npes, pex, pey, ierr, trial, right, form, reps
  character(len=32) :: arg
  type(rpncomm_window) :: win
  type(rpncomm_datatype) :: dtype
  type(rpncomm_communicator) :: com
  integer, dimension(NB), target :: src
  type(rpncomm_request), dimension(NB) :: reqs
  real(kind=8), dimension(TRIALS, NFORMS) :: us
  character(len=16), dimension(NFORMS), parameter :: names = ['blocking        ', 'rput+flush      ', 'rput+flush+wait ']

  reps = 2000
  call get_command_argument(1, arg)
  if (arg(1:5) == 'reps=') read(arg(6:), *) reps
  pex = 0
  pey = 0
  call RPN_COMM_init(userinit, me, npes, pex, pey)
  call RPN_COMM_i_comm(RPN_COMM_GRID, com)
  call RPN_COMM_i_datyp(RPN_COMM_INTEGER, dtype)
  call RPN_COMM_i_win_create(win, dtype, 1024, com, C_NULL_PTR, ierr)
  right = mod(me + 1, npes)
  src = me
  call RPN_COMM_i_win_open(win, .false., ierr)
  do form = 1, NFORMS      ! warm-up
    us(1, form) = one_trial(form)
  enddo
  do trial = 1, TRIALS
    do form = 1, NFORMS    ! alternate, so that every form sees the same machine
      us(trial, form) = one_trial(form)
    enddo
  enddo
  call RPN_COMM_i_win_close(win, ierr)
  call RPN_COMM_i_win_free(win, ierr)
  do form = 1, NFORMS
    call sort(us(:, form))
    if (me == 0) write(*, '(A,1X,A,1X,F12.4)') 'REQUESTS', trim(names(form)), us((TRIALS + 1)/2, form)
  enddo
  call RPN_COMM_finalize(ierr)

contains

  subroutine userinit(px, py)
    integer, intent(INOUT) :: px, py
    integer :: ier
    call RPN_COMM_size(RPN_COMM_WORLD, px, ier)
    py = 1
  end subroutine userinit

  ! Microseconds per batch of NB one-element puts in form `form`.
  function one_trial(form) result(t)
    integer, intent(IN) :: form
    real(kind=8) :: t, waits
    integer(kind=8) :: c0, c1, c2, c3, rate
    integer :: i, r, ierr, errs
    errs = 0
    waits = 0
    call system_clock(c0, rate)
    do r = 1, reps
      select case (form)
      case (1)
        do i = 1, NB
          call RPN_COMM_i_win_put_r(win, C_LOC(src(i)), right, i - 1, 1, ierr)
          if (ierr /= RPN_COMM_OK) errs = errs + 1
        enddo
      case default
        do i = 1, NB
          call RPN_COMM_i_win_rput_r(win, C_LOC(src(i)), right, i - 1, 1, reqs(i), ierr)
          if (ierr /= RPN_COMM_OK) errs = errs + 1
        enddo
        call RPN_COMM_i_win_flush(win, right, ierr)
        if (ierr /= RPN_COMM_OK) errs = errs + 1
        if (form == 2) call system_clock(c2)
        do i = 1, NB
          call RPN_COMM_i_win_wait(reqs(i), ierr)
          if (ierr /= RPN_COMM_OK) errs = errs + 1
        enddo
        if (form == 2) then
          call system_clock(c3)
          waits = waits + real(c3 - c2, 8)
        endif
      end select
    enddo
    call system_clock(c1)
    if (errs > 0) error stop 'bench_requests: an operation failed'
    t = (real(c1 - c0, 8) - waits) / real(rate, 8) * 1.0e6_8 / reps
  end function one_trial

  subroutine sort(a)
    real(kind=8), dimension(:), intent(INOUT) :: a
    integer :: i, j
    real(kind=8) :: x
    do i = 2, size(a)
      x = a(i)
      j = i - 1
      do while (j >= 1)
        if (a(j) <= x) exit
        a(j + 1) = a(j)
        j = j - 1
      enddo
      a(j + 1) = x
    enddo
  end subroutine sort
end program bench_requests
