! PES: 1 2 4
! TIMEOUT: 60
!
! The routines part of the statistics (RPNCOMM_STATS=json:FILE, which the program sets through C's
! setenv before RPN_COMM_init: each PE names a file of its own, PE 0's is written): a program that
! makes no window, as GEM, and calls RPN_COMM_xch_halo 7 times, RPN_COMM_allreduce 5 times and
! RPN_COMM_bcast 3 times. After RPN_COMM_finalize, PE 0 reads the JSON: each routine's calls on every
! PE, RPN_COMM_init once, RPN_COMM_finalize not listed, no window, and each PE's share of its wall
! time spent inside the routines above 0 and at most 100%.
program test_stats_routines
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  interface
    integer(C_INT) function c_setenv(name, value, overwrite) bind(C, name='setenv')
      import :: C_INT, C_CHAR
      character(kind=C_CHAR), dimension(*), intent(IN) :: name, value
      integer(C_INT), value :: overwrite
    end function c_setenv
    integer(C_INT) function c_getpid() bind(C, name='getpid')
      import :: C_INT
    end function c_getpid
  end interface
  integer, parameter :: NI = 8, NJ = 6, NK = 3, H = 2, HALOS = 7, REDUCES = 5, BCASTS = 3
  integer :: me, npes, nerr, pex, pey, ierr, i, send, total, value
  integer :: g(1-H:NI+H, 1-H:NJ+H, NK)
  character(len=512) :: tmpdir, file

  nerr = 0
  call get_environment_variable('TMPDIR', tmpdir, status=ierr)
  if (ierr /= 0 .or. len_trim(tmpdir) == 0) tmpdir = '/tmp'
  write(file, '(A,A,I0,A)') trim(tmpdir), '/rpncomm-test-stats-routines-', c_getpid(), '.json'
  if (c_setenv('RPNCOMM_STATS'//C_NULL_CHAR, 'json:'//trim(file)//C_NULL_CHAR, 1_C_INT) /= 0) error stop 2

  pex = 0
  pey = 0
  call RPN_COMM_init(no_choice, me, npes, pex, pey)     ! npes x 1
  g = me
  do i = 1, HALOS
    call RPN_COMM_xch_halo(g, 1-H, NI+H, 1-H, NJ+H, NI, NJ, NK, H, H, .true., .false., NI*npes, 0)
  enddo
  do i = 1, REDUCES
    send = me + i
    call RPN_COMM_allreduce(send, total, 1, 'MPI_INTEGER', 'MPI_SUM', 'GRID', ierr)
    call check(ierr == RPN_COMM_OK .and. total == npes * (npes - 1) / 2 + npes * i, 'allreduce')
  enddo
  do i = 1, BCASTS
    value = me + 10 * i
    call RPN_COMM_bcast(value, 1, 'MPI_INTEGER', 0, 'GRID', ierr)
    call check(ierr == RPN_COMM_OK .and. value == 10 * i, 'bcast')
  enddo
  call check(g(1-H, 1, 1) == modulo(me - 1, npes), 'the halo came from the west neighbour')
  call RPN_COMM_finalize(ierr)
  call check(ierr == RPN_COMM_OK, 'finalize')
  if (me == 0) call check_report()
  if (nerr > 0) then
    write(*, '(A,I0,A)') 'test_stats_routines: FAILED on PE ', me, ' (see above)'
    error stop 1
  endif
  if (me == 0) write(*, '(A,I0,A)') 'test_stats_routines: npes = ', npes, ': OK'
contains
  subroutine no_choice(px, py)
    integer, intent(INOUT) :: px, py
    px = px
    py = py
  end subroutine no_choice

  subroutine check(cond, what)
    use ISO_FORTRAN_ENV, only: ERROR_UNIT
    logical, intent(IN) :: cond
    character(len=*), intent(IN) :: what
    if (.not. cond) then
      nerr = nerr + 1
      write(ERROR_UNIT, '(A,I0,A,A)') 'CHECK FAILED on PE ', me, ': ', what
    endif
  end subroutine check

  ! The number after `"key": ` in line (up to the next ',', '}' or ']'); -1 when absent.
  real(kind=8) function after(line, key) result(x)
    character(len=*), intent(IN) :: line, key
    integer :: i, j, ios
    x = -1
    i = index(line, '"'//key//'": ')
    if (i == 0) return
    i = i + len(key) + 4
    j = scan(line(i:), ',}]')
    if (j == 0) return
    read(line(i:i+j-2), *, iostat=ios) x
    if (ios /= 0) x = -1
  end function after

  subroutine check_report()
    character(len=4096) :: line
    integer :: u, ios, pes_seen
    logical :: in_windows, windows_empty, seen_halo, seen_reduce, seen_bcast, seen_init, seen_finalize
    real(kind=8) :: p
    pes_seen = 0
    in_windows = .false.
    windows_empty = .false.
    seen_halo = .false.
    seen_reduce = .false.
    seen_bcast = .false.
    seen_init = .false.
    seen_finalize = .false.
    open(newunit=u, file=trim(file), status='old', action='read', iostat=ios)
    call check(ios == 0, 'the statistics file '//trim(file)//' was written')
    if (ios /= 0) return
    do
      read(u, '(A)', iostat=ios) line
      if (ios /= 0) exit
      if (index(line, '"windows": [') > 0) then
        in_windows = .true.
        cycle
      endif
      if (in_windows) windows_empty = adjustl(line) == '],'
      in_windows = .false.
      if (index(line, '"pe": ') > 0 .and. index(line, '"percent": ') > 0) then
        pes_seen = pes_seen + 1
        p = after(line, 'percent')
        call check(p > 0 .and. p <= 100, 'share inside the routines in (0, 100]: '//trim(line))
        call check(after(line, 'inside_s') <= after(line, 'wall_s'), 'time inside <= wall time: '//trim(line))
      endif
      call routine(line, 'RPN_COMM_xch_halo', HALOS, seen_halo)
      call routine(line, 'RPN_COMM_allreduce', REDUCES, seen_reduce)
      call routine(line, 'RPN_COMM_bcast', BCASTS, seen_bcast)
      call routine(line, 'RPN_COMM_init', 1, seen_init)
      if (index(line, '"RPN_COMM_finalize"') > 0) seen_finalize = .true.
    enddo
    close(u, status='delete')
    call check(windows_empty, 'no window is reported')
    call check(pes_seen == npes, 'a share for every PE')
    call check(seen_halo .and. seen_reduce .and. seen_bcast .and. seen_init, 'every routine called is listed')
    call check(.not. seen_finalize, 'RPN_COMM_finalize is not timed')
  end subroutine check_report

  ! a routine's line: its calls on every PE, and a time
  subroutine routine(line, name, per_pe, seen)
    character(len=*), intent(IN) :: line, name
    integer, intent(IN) :: per_pe
    logical, intent(INOUT) :: seen
    if (index(line, '"routine": "'//name//'"') == 0) return
    seen = .true.
    call check(nint(after(line, 'min_calls')) == per_pe .and. nint(after(line, 'max_calls')) == per_pe &
               .and. nint(after(line, 'calls')) == per_pe * npes, name//': calls per PE: '//trim(line))
    call check(after(line, 'max_s') > 0, name//': a time')
  end subroutine routine
end program test_stats_routines
