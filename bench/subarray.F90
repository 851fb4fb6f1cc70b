! bench/subarray.F90 -- one sub-array put of a 4 x 64 x 80 face of a 4-byte field (the first 4
! elements of dimension 1 of a 10 x 64 x 80 array in the target's window: runs of 4 elements,
! 16 bytes) against a contiguous put of the same bytes, in the same run (issue 18). Passive mode
! (each put complete at its return), every PE putting into its right neighbour. Prints
!   SUBARRAY <box|contiguous> <microseconds per put, median of the trials>
! Run by bench/subarray.sh under rpnrun.
program bench_subarray
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer, parameter :: NI = 10, NJ = 64, NK = 80, FACE = 4, REPS = 200, TRIALS = 9
  integer :: me, npes, pex, pey, ierr, trial, right, which
  type(rpncomm_window) :: win
  type(rpncomm_datatype) :: dtype
  type(rpncomm_communicator) :: com
  real(kind=4), dimension(FACE, NJ, NK), target :: face_buf
  real(kind=8), dimension(TRIALS, 2) :: us
  character(len=10), dimension(2), parameter :: names = ['box       ', 'contiguous']

  pex = 0
  pey = 0
  call RPN_COMM_init(userinit, me, npes, pex, pey)
  call RPN_COMM_i_comm(RPN_COMM_GRID, com)
  call RPN_COMM_i_datyp(RPN_COMM_REAL, dtype)
  call RPN_COMM_i_win_create(win, dtype, NI*NJ*NK, com, C_NULL_PTR, ierr)
  right = mod(me + 1, npes)
  face_buf = real(me, 4)
  call RPN_COMM_i_win_open(win, .false., ierr)
  do trial = 1, TRIALS
    do which = 1, 2          ! alternate, so that both see the same machine
      us(trial, which) = one_trial(which)
    enddo
  enddo
  call RPN_COMM_i_win_close(win, ierr)
  call RPN_COMM_i_win_free(win, ierr)
  do which = 1, 2
    call sort(us(:, which))
    if (me == 0) write(*, '(A,1X,A,1X,F12.3)') 'SUBARRAY', trim(names(which)), us((TRIALS + 1)/2, which)
  enddo
  call RPN_COMM_finalize(ierr)

contains

  subroutine userinit(px, py)
    integer, intent(INOUT) :: px, py
    integer :: ier
    call RPN_COMM_size(RPN_COMM_WORLD, px, ier)
    py = 1
  end subroutine userinit

  ! Microseconds per put of the face, as a box (1) or as FACE*NJ*NK contiguous elements (2).
  function one_trial(which) result(t)
    integer, intent(IN) :: which
    real(kind=8) :: t
    integer(kind=8) :: c0, c1, rate
    integer :: i, ierr, errs
    errs = 0
    call system_clock(c0, rate)
    do i = 1, REPS
      if (which == 1) then
        call RPN_COMM_i_win_put_r_box(win, c_loc(face_buf), [FACE, NJ, NK], [0, 0, 0], [FACE, NJ, NK], right, &
                                      [NI, NJ, NK], [NI - FACE, 0, 0], ierr)
      else
        call RPN_COMM_i_win_put_r(win, c_loc(face_buf), right, 0, FACE*NJ*NK, ierr)
      endif
      if (ierr /= RPN_COMM_OK) errs = errs + 1
    enddo
    call system_clock(c1)
    if (errs > 0) error stop 'bench_subarray: a put failed'
    t = real(c1 - c0, 8) / real(rate, 8) * 1.0e6_8 / REPS
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
end program bench_subarray
