! rpncomm_bench.F90 -- performance of the RPN_COMM windows API, written as users call it
!
!   rpnrun -n N build/bench/rpncomm_bench [section ...] [trials=11] [ms=5] [pairs]
!
! Sections (default: lat bw req):
!   lat           passive put_r / get_r / getacc_r (plain and with fetch) / cas_r / fetchop_r of one
!                 element (and the "hot" atomics of `atomics`), fence empty
!                 epoch, fence epoch with one put_r, group-mode epoch with one put_r; on a window over
!                 the caller's array of 1024 integers ("user") and on an internal one ("internal")
!   bw            fence epoch with one put_r of 8 KiB, 1 MiB and 16 MiB, on 16 MiB windows (user, internal)
!   req           request/reply round (every PE posts to every other, then serves), fresh and kept slots
!   scale         the epochs (fence and group, empty and with one put_r) and the request/reply rounds
!                 on user windows only (for the PE scaling table)
!   atomics       passive getacc_r SUM + fetch, cas_r and fetchop_r SUM of one element of the right
!                 neighbour (its line stays with the origin: the cost of the call), and fetchop_r SUM and
!                 a cas_r +1 loop by every PE on element 0 of PE 0 ("hot": the line moves between the
!                 PEs' cores); all of them are in `lat` too
!   size          the one-element operations and epochs of `lat` on an internal window of 16 MiB
!                 ("big"), to compare with the 4 KiB one: no cost may depend on the window's size
!   mem_internal  memory used by 100 internal windows of 1 MiB (shared segment per window, peak RSS)
!   mem_user      the same with 100 windows over caller's arrays of 1 MiB (100 separate allocations)
!   mem_user_packed  the same with the 100 arrays as the columns of one array (neighbouring windows
!                 then share the page at each boundary)
!
! Method (the definitions of /work/shared/ANCHORS.md): all PEs work at once, each on its right
! neighbour (`pairs`, an even number of PEs: on its partner me ^ 1, left and right); one trial =
! niter operations (or epochs, or rounds), timed on every PE; the trial's value
! is the slowest PE's (allreduce MAX); the result is the median over `trials` trials, with min and max.
! niter is calibrated by a first (warm-up) trial so that a trial lasts about `ms` milliseconds.
! Tails (epochs and request/reply rounds): every epoch (round) of the timed trials is also timed on
! its own; each PE takes the 99th percentile and the maximum of its own, and the slowest PE's are given.
! Every trial verifies the data it moved (values checked after the operations, errors counted);
! any error is reported on stdout and stderr and makes the program end with a non-zero status.
!
! Output (PE 0, one line per measurement, read by bench/report.py):
!   RESULT <key> <npes> <median> <min> <max> <unit> <niter> <errors> [<p99_us> <max_us>]
!   (the last two, single-epoch tails in microseconds, for epochs and request/reply rounds only)
!   MEM <key> <npes> <value> <unit>
program rpncomm_bench
  use ISO_C_BINDING
  use ISO_FORTRAN_ENV, only: ERROR_UNIT, OUTPUT_UNIT, INT64
  use rpn_comm_windows
  implicit none

  integer, parameter :: NLAT = 1024              ! latency / epoch / request windows (integers)
  integer, parameter :: NBW  = 4 * 1024 * 1024   ! bandwidth windows: 16 MiB of integers
  integer, parameter :: NMAX_ITER = 500000       ! < 2**20 (see val)
  integer, parameter :: T_PUT = 1, T_GET = 2, T_ACC = 3, T_FETCH = 4, T_FEMPTY = 5, T_FPUT = 6, &
                        T_GPUT = 7, T_BW = 8, T_REQK = 9, T_REQF = 10, T_GEMPTY = 11, &
                        T_CAS = 12, T_FOP = 13, T_HOTFOP = 14, T_HOTCAS = 15
  integer, parameter :: K_USER = 1, K_INTERNAL = 2, K_PACKED = 3
  character(len=11), dimension(3), parameter :: kname = [character(len=11) :: 'user', 'internal', 'user_packed']
  type :: array_t
    integer, dimension(:), pointer :: a => null()
  end type array_t

  integer :: me, npes, left, right, ierr, pex, pey, i, nargs, kind
  integer :: trials = 11
  real(kind=8) :: target_s = 0.005d0
  integer :: total_errors = 0          ! over all PEs and measurements (same on every PE)
  integer :: errs = 0                  ! this PE, current measurement
  integer :: seed_counter = 0, round_counter = 0
  type(rpncomm_datatype) :: dt_int
  type(rpncomm_communicator) :: com
  type(rpncomm_operator) :: op_sum
  ! the current window
  type(rpncomm_window) :: win
  integer, dimension(:), pointer :: wp => null()       ! this PE's window elements
  integer, dimension(:), pointer :: ua => null()       ! the caller's array (user windows)
  integer, dimension(:,:), pointer :: recs => null()   ! secondary window records (5, npes)
  character(len=64) :: arg
  ! single-epoch times of the timed trials (tails), when `sampling`
  real(kind=8), dimension(:), allocatable :: samp
  integer :: nsamp = 0
  logical :: sampling = .false.
  logical :: do_lat, do_bw, do_req, do_scale, do_size, do_mem_int, do_mem_user, do_mem_packed, any_section
  logical :: do_atomics
  logical :: pairs = .false.

  pex = 0
  pey = 0
  call RPN_COMM_init(userinit, me, npes, pex, pey)
  right = mod(me + 1, npes)
  left  = mod(me - 1 + npes, npes)
  call RPN_COMM_i_comm(RPN_COMM_GRID, com)
  call RPN_COMM_i_datyp(RPN_COMM_INTEGER, dt_int)
  call RPN_COMM_i_oper(RPN_COMM_SUM, op_sum)

  do_lat = .false.; do_bw = .false.; do_req = .false.; do_scale = .false.; do_size = .false.
  do_mem_int = .false.; do_mem_user = .false.; do_mem_packed = .false.; any_section = .false.
  do_atomics = .false.
  nargs = command_argument_count()
  do i = 1, nargs
    call get_command_argument(i, arg)
    select case (trim(arg))
    case ('lat');          do_lat = .true.;      any_section = .true.
    case ('bw');           do_bw = .true.;       any_section = .true.
    case ('req');          do_req = .true.;      any_section = .true.
    case ('scale');        do_scale = .true.;    any_section = .true.
    case ('size');         do_size = .true.;     any_section = .true.
    case ('atomics');      do_atomics = .true.;  any_section = .true.
    case ('mem_internal'); do_mem_int = .true.;  any_section = .true.
    case ('mem_user');     do_mem_user = .true.; any_section = .true.
    case ('mem_user_packed'); do_mem_packed = .true.; any_section = .true.
    case ('pairs');        pairs = .true.
    case default
      if (arg(1:7) == 'trials=') then
        read(arg(8:), *) trials
        trials = max(1, min(trials, 101))
      else if (arg(1:3) == 'ms=') then
        read(arg(4:), *) target_s
        target_s = target_s * 1d-3
      else
        if (me == 0) write(ERROR_UNIT, '(A,A)') 'rpncomm_bench: unknown argument ', trim(arg)
        error stop 2
      endif
    end select
  enddo
  if (.not. any_section) then
    do_lat = .true.; do_bw = .true.; do_req = .true.
  endif
  if (pairs .and. mod(npes, 2) == 0) then
    right = ieor(me, 1)
    left = right
  endif
  if (me == 0) write(*, '(A,I0,A,I0,A,F6.2,A)') '# rpncomm_bench: ', npes, ' PEs, ', trials, &
                                               ' trials of ~', target_s * 1d3, ' ms'

  if (do_lat) then
    do kind = K_USER, K_INTERNAL
      call new_window(NLAT, kind, 0)
      call measure('passive_put.'//trim(kname(kind)),   T_PUT,    1, 'us', 200)
      call measure('passive_get.'//trim(kname(kind)),   T_GET,    1, 'us', 200)
      call measure('passive_acc.'//trim(kname(kind)),   T_ACC,    1, 'us', 200)
      call measure('passive_fetch.'//trim(kname(kind)), T_FETCH,  1, 'us', 200)
      call measure('passive_cas.'//trim(kname(kind)),   T_CAS,    1, 'us', 200)
      call measure('passive_fop.'//trim(kname(kind)),   T_FOP,    1, 'us', 200)
      call measure('hot_fop.'//trim(kname(kind)),       T_HOTFOP, 1, 'us', 200)
      call measure('hot_cas.'//trim(kname(kind)),       T_HOTCAS, 1, 'us', 200)
      call measure('fence_empty.'//trim(kname(kind)),   T_FEMPTY, 0, 'us', 50)
      call measure('fence_put.'//trim(kname(kind)),     T_FPUT,   1, 'us', 50)
      if (npes > 1) call measure('group_empty.'//trim(kname(kind)), T_GEMPTY, 0, 'us', 50)
      if (npes > 1) call measure('group_put.'//trim(kname(kind)), T_GPUT, 1, 'us', 50)
      call free_window()
    enddo
  endif

  if (do_bw) then
    do kind = K_USER, K_INTERNAL
      call new_window(NBW, kind, 0)
      call measure('bw_8k.'//trim(kname(kind)),  T_BW, 2048,    'MB/s', 100)
      call measure('bw_1m.'//trim(kname(kind)),  T_BW, 262144,  'MB/s', 10)
      call measure('bw_16m.'//trim(kname(kind)), T_BW, NBW,     'MB/s', 2)
      call free_window()
    enddo
  endif

  if (do_req) then
    do kind = K_USER, K_INTERNAL
      call new_window(NLAT, kind, npes)
      call measure('req_fresh.'//trim(kname(kind)), T_REQF, 0, 'us', 10)
      call measure('req_kept.'//trim(kname(kind)),  T_REQK, 0, 'us', 10)
      call free_window()
    enddo
  endif

  if (do_scale) then
    call new_window(NLAT, K_USER, 0)
    call measure('fence_empty.user', T_FEMPTY, 0, 'us', 20)
    call measure('fence_put.user',   T_FPUT,   1, 'us', 20)
    if (npes > 1) call measure('group_empty.user', T_GEMPTY, 0, 'us', 20)
    if (npes > 1) call measure('group_put.user',   T_GPUT,   1, 'us', 20)
    call free_window()
    call new_window(NLAT, K_USER, npes)
    call measure('req_fresh.user', T_REQF, 0, 'us', 5)
    call measure('req_kept.user',  T_REQK, 0, 'us', 5)
    call free_window()
  endif

  if (do_size) then
    call new_window(NBW, K_INTERNAL, 0)
    call measure('passive_put.big',   T_PUT,    1, 'us', 200)
    call measure('passive_acc.big',   T_ACC,    1, 'us', 200)
    call measure('fence_empty.big',   T_FEMPTY, 0, 'us', 50)
    call measure('fence_put.big',     T_FPUT,   1, 'us', 50)
    if (npes > 1) call measure('group_empty.big', T_GEMPTY, 0, 'us', 50)
    if (npes > 1) call measure('group_put.big', T_GPUT, 1, 'us', 50)
    call free_window()
  endif

  if (do_atomics) then         ! the one-element atomics of `lat` alone (bench/atomics.sh)
    do kind = K_USER, K_INTERNAL
      call new_window(NLAT, kind, 0)
      call measure('passive_fetch.'//trim(kname(kind)), T_FETCH,  1, 'us', 200)
      call measure('passive_cas.'//trim(kname(kind)),   T_CAS,    1, 'us', 200)
      call measure('passive_fop.'//trim(kname(kind)),   T_FOP,    1, 'us', 200)
      call measure('hot_fop.'//trim(kname(kind)),       T_HOTFOP, 1, 'us', 200)
      call measure('hot_cas.'//trim(kname(kind)),       T_HOTCAS, 1, 'us', 200)
      call free_window()
    enddo
  endif

  if (do_mem_int)  call mem_test(K_INTERNAL)
  if (do_mem_user) call mem_test(K_USER)
  if (do_mem_packed) call mem_test(K_PACKED)

  call RPN_COMM_finalize(ierr)
  if (total_errors > 0) then
    if (me == 0) write(ERROR_UNIT, '(A,I0,A)') 'rpncomm_bench: FAILED: ', total_errors, &
                                               ' data/status errors (see BENCH ERROR lines)'
    error stop 1
  endif
  if (ierr /= RPN_COMM_OK) error stop 1
  if (me == 0) write(*, '(A)') '# rpncomm_bench: all data verified'

contains

  subroutine userinit(px, py)
    integer, intent(INOUT) :: px, py
    integer :: ier
    call RPN_COMM_size(RPN_COMM_WORLD, px, ier)
    py = 1
  end subroutine userinit

  ! value written by PE p, trial seed s, item i (distinct for distinct (p, s mod 64, i < 2**20))
  pure integer function val(p, s, i)
    integer, intent(IN) :: p, s, i
    val = p * 67108864 + mod(s, 64) * 1048576 + mod(i, 1048576)
  end function val

  ! increment added by PE p at its i-th accumulate
  pure integer function inc(p, i)
    integer, intent(IN) :: p, i
    inc = mod(i + p, 7) + 1
  end function inc

  subroutine bad(what, count)
    character(len=*), intent(IN) :: what
    integer, intent(IN) :: count
    if (count <= 0) return
    if (errs < 20) write(ERROR_UNIT, '(A,I0,A,A,A,I0)') 'BENCH ERROR on PE ', me, ': ', what, ': ', count
    errs = errs + count
  end subroutine bad

  subroutine st(ier, what)       ! status of a call
    integer, intent(IN) :: ier
    character(len=*), intent(IN) :: what
    if (ier /= RPN_COMM_OK) call bad(what//' returned an error', 1)
  end subroutine st

  ! ------------------------------------------------------------------------ windows
  subroutine new_window(n, kind, slots)
    integer, intent(IN) :: n, kind, slots
    type(C_PTR) :: p
    integer :: ier, before
    before = errs
    if (kind == K_USER) then
      allocate(ua(n))
      ua = 0
      call RPN_COMM_i_win_create(win, dt_int, n, com, C_LOC(ua(1)), ier)
      call st(ier, 'RPN_COMM_i_win_create(user)')
      wp => ua
    else
      call RPN_COMM_i_win_create(win, dt_int, n, com, C_NULL_PTR, ier)
      call st(ier, 'RPN_COMM_i_win_create(internal)')
      p = RPN_COMM_i_win_get_ptr(win, 1, ier)
      call st(ier, 'RPN_COMM_i_win_get_ptr(1)')
      call c_f_pointer(p, wp, [n])
      wp = 0
    endif
    if (slots > 0) then
      call RPN_COMM_i_win_create_secondary(win, slots, ier)
      call st(ier, 'RPN_COMM_i_win_create_secondary')
      p = RPN_COMM_i_win_get_ptr(win, 2, ier)
      call st(ier, 'RPN_COMM_i_win_get_ptr(2)')
      call c_f_pointer(p, recs, [5, slots])
    endif
    if (errs > before) then
      write(ERROR_UNIT, '(A)') 'rpncomm_bench: cannot create a window, giving up'
      error stop 1
    endif
  end subroutine new_window

  subroutine free_window()
    integer :: ier
    call RPN_COMM_i_win_free(win, ier)
    call st(ier, 'RPN_COMM_i_win_free')
    if (associated(ua)) deallocate(ua)
    nullify(ua, wp, recs)
  end subroutine free_window

  ! ------------------------------------------------------------------ collectives
  real(kind=8) function max_all(x)
    real(kind=8), intent(IN) :: x
    real(kind=8) :: s(1), r(1)
    integer :: ier
    s(1) = x
    call RPN_COMM_allreduce(s, r, 1, RPN_COMM_REAL8, 'MPI_MAX', RPN_COMM_GRID, ier)
    call st(ier, 'RPN_COMM_allreduce')
    max_all = r(1)
  end function max_all

  integer function isum_all(x)
    integer, intent(IN) :: x
    integer :: s(1), r(1), ier
    s(1) = x
    call RPN_COMM_allreduce(s, r, 1, RPN_COMM_INTEGER, RPN_COMM_SUM, RPN_COMM_GRID, ier)
    if (ier /= RPN_COMM_OK) r(1) = r(1) + 1
    isum_all = r(1)
  end function isum_all

  integer function imax_all(x)
    integer, intent(IN) :: x
    integer :: s(1), r(1), ier
    s(1) = x
    call RPN_COMM_allreduce(s, r, 1, RPN_COMM_INTEGER, 'MPI_MAX', RPN_COMM_GRID, ier)
    call st(ier, 'RPN_COMM_allreduce')
    imax_all = r(1)
  end function imax_all

  ! ------------------------------------------------------------------ measurement
  subroutine measure(key, test, nelem, unit, n0)
    character(len=*), intent(IN) :: key, unit
    integer, intent(IN) :: test, nelem, n0
    real(kind=8), dimension(trials) :: v
    real(kind=8) :: t, tmax, x, tbest, p99, pmax
    integer :: niter, k, j, etot, ier
    logical :: tails

    errs = 0
    ! warm-up and calibration: up to 3 trials, niter from the best time per operation seen so far,
    ! so that one trial lasts about target_s (niter is the same on every PE: all use the same tmax)
    niter = n0
    tbest = huge(1d0)
    do k = 1, 3
      call RPN_COMM_barrier(RPN_COMM_GRID, ier)
      t = trial(test, niter, nelem)
      tmax = max_all(t)
      tbest = min(tbest, max(tmax, 1d-9) / niter)
      niter = int(min(dble(NMAX_ITER), target_s / tbest))
      niter = imax_all(max(3, niter))
      if (tmax > 0.3d0 * target_s .and. k >= 2) exit
    enddo
    tails = any(test == [T_FEMPTY, T_FPUT, T_GEMPTY, T_GPUT, T_REQK, T_REQF])
    if (tails) then
      allocate(samp(trials * niter))
      nsamp = 0
      sampling = .true.
    endif
    do k = 1, trials
      call RPN_COMM_barrier(RPN_COMM_GRID, ier)
      t = trial(test, niter, nelem)
      tmax = max_all(t)
      if (unit == 'us') then
        v(k) = tmax / niter * 1d6
      else
        v(k) = dble(nelem) * 4d0 / (tmax / niter) / 1d6
      endif
    enddo
    do k = 2, trials                    ! sort (insertion)
      x = v(k)
      j = k - 1
      do while (j >= 1)
        if (v(j) <= x) exit
        v(j + 1) = v(j)
        j = j - 1
      enddo
      v(j + 1) = x
    enddo
    if (tails) then                     ! this PE's p99 and max, then the slowest PE's
      sampling = .false.
      p99 = max_all(kth_smallest(samp, nsamp, max(1, int(0.99d0 * nsamp)))) * 1d6
      pmax = max_all(maxval(samp(1:nsamp))) * 1d6
      deallocate(samp)
    endif
    etot = isum_all(errs)
    if (me == 0) then
      if (tails) then
        write(*, '(A,1X,A,1X,I0,3(1X,ES12.5),1X,A,1X,I0,1X,I0,2(1X,ES12.5))') 'RESULT', key, npes, &
              v((trials + 1) / 2), v(1), v(trials), unit, niter, etot, p99, pmax
      else
        write(*, '(A,1X,A,1X,I0,3(1X,ES12.5),1X,A,1X,I0,1X,I0)') 'RESULT', key, npes, &
              v((trials + 1) / 2), v(1), v(trials), unit, niter, etot
      endif
      flush(OUTPUT_UNIT)
    endif
    if (etot > 0) then
      if (me == 0) then
        write(*, '(A,A,A,I0,A)') 'BENCH ERROR: ', key, ': ', etot, ' data/status errors'
        write(ERROR_UNIT, '(A,A,A,I0,A,I0,A)') 'BENCH ERROR: ', key, ': ', etot, &
                                               ' data/status errors over all PEs (npes = ', npes, ')'
      endif
      total_errors = total_errors + etot
    endif
  end subroutine measure

  ! Records the time since the previous call (or since tprev was set), for the tails.
  subroutine sample(tprev)
    real(kind=8), intent(INOUT) :: tprev
    real(kind=8) :: now
    if (.not. sampling) return
    now = RPN_COMM_wtime()
    if (nsamp < size(samp)) then
      nsamp = nsamp + 1
      samp(nsamp) = now - tprev
    endif
    tprev = now
  end subroutine sample

  ! The k-th smallest of a(1:n) (quickselect; reorders a).
  real(kind=8) function kth_smallest(a, n, k) result(x)
    real(kind=8), dimension(:), intent(INOUT) :: a
    integer, intent(IN) :: n, k
    integer :: lo, hi, i, j
    real(kind=8) :: pivot, tmp
    lo = 1
    hi = n
    do while (lo < hi)
      pivot = a((lo + hi) / 2)
      i = lo
      j = hi
      do while (i <= j)
        do while (a(i) < pivot)
          i = i + 1
        enddo
        do while (a(j) > pivot)
          j = j - 1
        enddo
        if (i <= j) then
          tmp = a(i); a(i) = a(j); a(j) = tmp
          i = i + 1
          j = j - 1
        endif
      enddo
      if (k <= j) then
        hi = j
      else if (k >= i) then
        lo = i
      else
        exit
      endif
    enddo
    x = a(k)
  end function kth_smallest

  ! One trial of `niter` operations of kind `test` on the current window; returns this PE's time
  ! of the timed part, in seconds; counts verification errors in errs.
  real(kind=8) function trial(test, niter, nelem) result(t)
    integer, intent(IN) :: test, niter, nelem
    integer, dimension(:), allocatable, target :: src, dst, ex
    integer :: s, i, k, il, nb, ier, nreq, r, j, nrec, from, a, b, reinit
    integer, dimension(max(1, npes - 1)) :: pe, offi, nin, offo, nout
    integer, dimension(1) :: ri_off, ri_n, ri_z
    integer, dimension(2), target :: rq
    integer, dimension(3), target :: rp
    real(kind=8) :: t0, tprev

    seed_counter = seed_counter + 1
    s = mod(seed_counter, 63) + 1
    nb = 0
    t = 0d0
    select case (test)

    case (T_PUT)         ! passive put_r of one element, offsets cycling over the window
      allocate(src(niter))
      do i = 1, niter
        src(i) = val(me, s, i)
      enddo
      wp = -1
      call RPN_COMM_i_win_open(win, .false., ier); call st(ier, 'open(passive)')
      t0 = RPN_COMM_wtime()
      do i = 1, niter
        call RPN_COMM_i_win_put_r(win, C_LOC(src(i)), right, mod(i - 1, NLAT), 1, ier)
        if (ier /= RPN_COMM_OK) nb = nb + 1
      enddo
      t = RPN_COMM_wtime() - t0
      call RPN_COMM_i_win_close(win, ier); call st(ier, 'close(passive)')
      call bad('put_r status', nb)
      nb = 0
      do k = 0, NLAT - 1              ! last value put by the left neighbour at offset k
        if (k + 1 > niter) then
          if (wp(k + 1) /= -1) nb = nb + 1
        else
          il = k + 1 + ((niter - (k + 1)) / NLAT) * NLAT
          if (wp(k + 1) /= val(left, s, il)) nb = nb + 1
        endif
      enddo
      call bad('passive put_r: wrong values in window', nb)

    case (T_GET)         ! passive get_r of one element
      allocate(dst(niter))
      dst = -1
      do k = 1, NLAT
        wp(k) = val(me, s, k)
      enddo
      call RPN_COMM_i_win_open(win, .false., ier); call st(ier, 'open(passive)')
      t0 = RPN_COMM_wtime()
      do i = 1, niter
        call RPN_COMM_i_win_get_r(win, C_LOC(dst(i)), right, mod(i - 1, NLAT), 1, ier)
        if (ier /= RPN_COMM_OK) nb = nb + 1
      enddo
      t = RPN_COMM_wtime() - t0
      call RPN_COMM_i_win_close(win, ier); call st(ier, 'close(passive)')
      call bad('get_r status', nb)
      nb = 0
      do i = 1, niter
        if (dst(i) /= val(right, s, mod(i - 1, NLAT) + 1)) nb = nb + 1
      enddo
      call bad('passive get_r: wrong values fetched', nb)

    case (T_ACC, T_FETCH)   ! passive getacc_r SUM of one element, without / with fetch (before)
      allocate(src(niter), dst(niter), ex(NLAT))
      do i = 1, niter
        src(i) = inc(me, i)
      enddo
      dst = -1
      wp = 1000 * s
      call RPN_COMM_i_win_open(win, .false., ier); call st(ier, 'open(passive)')
      if (test == T_ACC) then
        t0 = RPN_COMM_wtime()
        do i = 1, niter
          call RPN_COMM_i_win_getacc_r(win, C_LOC(src(i)), C_NULL_PTR, .true., right, &
                                       mod(i - 1, NLAT), 1, op_sum, ier)
          if (ier /= RPN_COMM_OK) nb = nb + 1
        enddo
        t = RPN_COMM_wtime() - t0
      else
        t0 = RPN_COMM_wtime()
        do i = 1, niter
          call RPN_COMM_i_win_getacc_r(win, C_LOC(src(i)), C_LOC(dst(i)), .true., right, &
                                       mod(i - 1, NLAT), 1, op_sum, ier)
          if (ier /= RPN_COMM_OK) nb = nb + 1
        enddo
        t = RPN_COMM_wtime() - t0
      endif
      call RPN_COMM_i_win_close(win, ier); call st(ier, 'close(passive)')
      call bad('getacc_r status', nb)
      nb = 0
      ex = 1000 * s                   ! my window: the left neighbour's increments
      do i = 1, niter
        k = mod(i - 1, NLAT) + 1
        ex(k) = ex(k) + inc(left, i)
      enddo
      do k = 1, NLAT
        if (wp(k) /= ex(k)) nb = nb + 1
      enddo
      call bad('passive getacc_r: wrong sums in window', nb)
      if (test == T_FETCH) then       ! fetched: the right neighbour's window before each of my adds
        nb = 0
        ex = 1000 * s
        do i = 1, niter
          k = mod(i - 1, NLAT) + 1
          if (dst(i) /= ex(k)) nb = nb + 1
          ex(k) = ex(k) + inc(me, i)
        enddo
        call bad('passive getacc_r: wrong values fetched', nb)
      endif

    case (T_CAS, T_FOP)   ! passive cas_r / fetchop_r SUM of one element of the right neighbour
      ! (cas_r: compare = the element's value, known here as this PE is its only writer, so every
      ! swap succeeds); the fetched values and both windows are checked
      allocate(src(niter), dst(niter), ex(NLAT))
      do i = 1, niter
        src(i) = inc(me, i)
      enddo
      dst = -1
      wp = 1000 * s
      ex = 1000 * s                   ! the right neighbour's window, as this PE changes it
      call RPN_COMM_i_win_open(win, .false., ier); call st(ier, 'open(passive)')
      if (test == T_CAS) then
        t0 = RPN_COMM_wtime()
        do i = 1, niter
          k = mod(i - 1, NLAT) + 1
          rq(1) = ex(k)
          rp(1) = ex(k) + src(i)
          call RPN_COMM_i_win_cas_r(win, C_LOC(rq), C_LOC(rp), C_LOC(dst(i)), right, k - 1, ier)
          if (ier /= RPN_COMM_OK) nb = nb + 1
          ex(k) = rp(1)
        enddo
        t = RPN_COMM_wtime() - t0
      else
        t0 = RPN_COMM_wtime()
        do i = 1, niter
          call RPN_COMM_i_win_fetchop_r(win, C_LOC(src(i)), C_LOC(dst(i)), right, mod(i - 1, NLAT), op_sum, ier)
          if (ier /= RPN_COMM_OK) nb = nb + 1
        enddo
        t = RPN_COMM_wtime() - t0
      endif
      call RPN_COMM_i_win_close(win, ier); call st(ier, 'close(passive)')
      call bad('cas_r/fetchop_r status', nb)
      nb = 0
      ex = 1000 * s                   ! my window: the left neighbour's increments
      do i = 1, niter
        k = mod(i - 1, NLAT) + 1
        ex(k) = ex(k) + inc(left, i)
      enddo
      do k = 1, NLAT
        if (wp(k) /= ex(k)) nb = nb + 1
      enddo
      call bad('passive cas_r/fetchop_r: wrong values in window', nb)
      nb = 0
      ex = 1000 * s                   ! fetched: the right neighbour's element before each of mine
      do i = 1, niter
        k = mod(i - 1, NLAT) + 1
        if (dst(i) /= ex(k)) nb = nb + 1
        ex(k) = ex(k) + inc(me, i)
      enddo
      call bad('passive cas_r/fetchop_r: wrong values fetched', nb)

    case (T_HOTFOP, T_HOTCAS)   ! every PE adds 1 to element 0 of PE 0 (fetchop_r SUM, or a cas_r
      ! loop: one increment per successful swap); with 2 PEs or more the element's cache line moves
      ! between the PEs' cores at (nearly) every operation
      allocate(dst(niter), src(1))
      src(1) = 1
      dst = -1
      wp = 1000 * s
      call RPN_COMM_i_win_open(win, .false., ier); call st(ier, 'open(passive)')
      if (test == T_HOTFOP) then
        t0 = RPN_COMM_wtime()
        do i = 1, niter
          call RPN_COMM_i_win_fetchop_r(win, C_LOC(src), C_LOC(dst(i)), 0, 0, op_sum, ier)
          if (ier /= RPN_COMM_OK) nb = nb + 1
        enddo
        t = RPN_COMM_wtime() - t0
      else
        rq(1) = 1000 * s
        t0 = RPN_COMM_wtime()
        do i = 1, niter
          do
            rp(1) = rq(1) + 1
            call RPN_COMM_i_win_cas_r(win, C_LOC(rq), C_LOC(rp), C_LOC(dst(i)), 0, 0, ier)
            if (ier /= RPN_COMM_OK) then
              nb = nb + 1
              exit
            endif
            if (dst(i) == rq(1)) exit
            rq(1) = dst(i)
          enddo
          rq(1) = rp(1)
        enddo
        t = RPN_COMM_wtime() - t0
      endif
      call RPN_COMM_i_win_close(win, ier); call st(ier, 'close(passive)')
      call bad('hot cas_r/fetchop_r status', nb)
      nb = 0
      do i = 2, niter               ! each PE's increments land in order
        if (dst(i) <= dst(i - 1)) nb = nb + 1
      enddo
      if (dst(1) < 1000 * s) nb = nb + 1
      if (me == 0 .and. wp(1) /= 1000 * s + npes * niter) nb = nb + 1
      call bad('hot cas_r/fetchop_r: lost or misordered increments', nb)

    case (T_FEMPTY, T_GEMPTY)   ! empty epochs (fence, or group {right} / {left}); the window must come out unchanged
      do k = 1, NLAT
        wp(k) = val(me, s, k)
      enddo
      if (test == T_GEMPTY) then
        call RPN_COMM_i_win_group(win, [right], [left], ier); call st(ier, 'RPN_COMM_i_win_group')
      endif
      call RPN_COMM_barrier(RPN_COMM_GRID, ier)
      t0 = RPN_COMM_wtime()
      tprev = t0
      do i = 1, niter
        call RPN_COMM_i_win_open(win, .true., ier)
        if (ier /= RPN_COMM_OK) nb = nb + 1
        call RPN_COMM_i_win_close(win, ier)
        if (ier /= RPN_COMM_OK) nb = nb + 1
        call sample(tprev)
      enddo
      t = RPN_COMM_wtime() - t0
      if (test == T_GEMPTY) then
        call RPN_COMM_i_win_group(win, [-1], [-1], ier); call st(ier, 'RPN_COMM_i_win_group(-1)')
      endif
      call bad('fence/group open/close status', nb)
      nb = 0
      do k = 1, NLAT
        if (wp(k) /= val(me, s, k)) nb = nb + 1
      enddo
      call bad('empty epoch: window changed', nb)

    case (T_FPUT, T_GPUT)   ! epochs with one put_r each (fence, or group {right} / {left})
      allocate(src(niter))
      do i = 1, niter
        src(i) = val(me, s, i)
      enddo
      if (test == T_GPUT) then
        call RPN_COMM_i_win_group(win, [right], [left], ier); call st(ier, 'RPN_COMM_i_win_group')
      endif
      call RPN_COMM_barrier(RPN_COMM_GRID, ier)
      t0 = RPN_COMM_wtime()
      tprev = t0
      do i = 1, niter
        k = mod(i - 1, NLAT)
        call RPN_COMM_i_win_open(win, .true., ier)
        if (ier /= RPN_COMM_OK) nb = nb + 1
        call RPN_COMM_i_win_put_r(win, C_LOC(src(i)), right, k, 1, ier)
        if (ier /= RPN_COMM_OK) nb = nb + 1
        call RPN_COMM_i_win_close(win, ier)
        if (ier /= RPN_COMM_OK) nb = nb + 1
        if (wp(k + 1) /= val(left, s, i)) nb = nb + 1     ! landed at close
        call sample(tprev)
      enddo
      t = RPN_COMM_wtime() - t0
      if (test == T_GPUT) then
        call RPN_COMM_i_win_group(win, [-1], [-1], ier); call st(ier, 'RPN_COMM_i_win_group(-1)')
      endif
      call bad('epoch with one put_r: status or value', nb)

    case (T_BW)          ! fence epochs with one put_r of nelem integers at offset 0
      allocate(src(nelem))
      do k = 1, nelem
        src(k) = val(me, s, k)
      enddo
      call RPN_COMM_barrier(RPN_COMM_GRID, ier)
      t0 = RPN_COMM_wtime()
      do i = 1, niter
        call RPN_COMM_i_win_open(win, .true., ier)
        if (ier /= RPN_COMM_OK) nb = nb + 1
        call RPN_COMM_i_win_put_r(win, C_LOC(src(1)), right, 0, nelem, ier)
        if (ier /= RPN_COMM_OK) nb = nb + 1
        call RPN_COMM_i_win_close(win, ier)
        if (ier /= RPN_COMM_OK) nb = nb + 1
      enddo
      t = RPN_COMM_wtime() - t0
      call bad('bandwidth epochs status', nb)
      nb = 0
      do k = 1, nelem
        if (wp(k) /= val(left, s, k)) nb = nb + 1
      enddo
      call bad('bandwidth put_r: wrong values in window', nb)

    case (T_REQK, T_REQF)   ! request/reply rounds (the RPN_COMM demo, timed), kept or fresh slots
      reinit = merge(-1, -2, test == T_REQK)
      nreq = 0
      do r = 0, npes - 1
        if (r == me) cycle
        nreq = nreq + 1
        pe(nreq) = r
        offi(nreq) = (nreq - 1) * 2
        nin(nreq) = 2
        offo(nreq) = npes * 2 + (nreq - 1) * 3
        nout(nreq) = 3
      enddo
      ri_off = -1
      ri_n = reinit
      ri_z = 0
      call RPN_COMM_barrier(RPN_COMM_GRID, ier)
      t0 = RPN_COMM_wtime()
      tprev = t0
      do i = 1, niter
        round_counter = round_counter + 1
        do r = 1, nreq                                   ! my requests, reply areas cleared
          wp(offi(r) + 1) = mod(round_counter * 13 + me * 7 + r, 1000) + 1
          wp(offi(r) + 2) = mod(round_counter * 17 + me * 3 + 2 * r, 1000) + 1
          wp(offo(r) + 1 : offo(r) + 3) = -1
        enddo
        call RPN_COMM_i_win_open(win, .false., ier)
        if (ier /= RPN_COMM_OK) nb = nb + 1
        call RPN_COMM_i_win_post(win, pe, offi, nin, offo, nout, nreq, ier)
        if (ier /= RPN_COMM_OK) nb = nb + 1
        call RPN_COMM_i_win_close(win, ier)
        if (ier /= RPN_COMM_OK) nb = nb + 1
        nrec = recs(1, 1)
        if (nrec - 1 /= nreq) nb = nb + 1
        call RPN_COMM_i_win_open(win, .false., ier)
        if (ier /= RPN_COMM_OK) nb = nb + 1
        do j = 2, min(nrec, npes)                        ! serve: get request, put reply
          from = recs(1, j)
          if (from < 0 .or. from >= npes .or. from == me .or. recs(3, j) /= 2 .or. recs(5, j) /= 3) then
            nb = nb + 1
            cycle
          endif
          call RPN_COMM_i_win_get_r(win, C_LOC(rq), from, recs(2, j), 2, ier)
          if (ier /= RPN_COMM_OK) nb = nb + 1
          rp(1) = rq(1) + rq(2)
          rp(2) = rq(1) * rq(2)
          rp(3) = rq(1) * rq(1) + rq(2) * rq(2)
          call RPN_COMM_i_win_put_r(win, C_LOC(rp), from, recs(4, j), 3, ier)
          if (ier /= RPN_COMM_OK) nb = nb + 1
        enddo
        call RPN_COMM_i_win_close(win, ier)
        if (ier /= RPN_COMM_OK) nb = nb + 1
        do r = 1, nreq                                   ! check the replies I got
          a = wp(offi(r) + 1)
          b = wp(offi(r) + 2)
          if (wp(offo(r) + 1) /= a + b) nb = nb + 1
          if (wp(offo(r) + 2) /= a * b) nb = nb + 1
          if (wp(offo(r) + 3) /= a * a + b * b) nb = nb + 1
        enddo
        call RPN_COMM_i_win_post(win, pe, ri_off, ri_n, ri_z, ri_z, 1, ier)   ! reinit -1 / -2
        if (ier /= RPN_COMM_OK) nb = nb + 1
        call sample(tprev)
      enddo
      t = RPN_COMM_wtime() - t0
      call bad('request/reply rounds: status, request records or replies', nb)

    end select
  end function trial

  ! ------------------------------------------------------------------------- memory
  ! kB value of field `name` in /proc/self/status (-1 if absent)
  integer(kind=INT64) function status_kb(name)
    character(len=*), intent(IN) :: name
    character(len=256) :: line
    integer :: u, ios
    status_kb = -1
    open(newunit=u, file='/proc/self/status', action='read', status='old', iostat=ios)
    if (ios /= 0) return
    do
      read(u, '(A)', iostat=ios) line
      if (ios /= 0) exit
      if (line(1:len(name) + 1) == name//':') then
        read(line(len(name) + 2:), *, iostat=ios) status_kb
        exit
      endif
    enddo
    close(u)
  end function status_kb

  ! kB value of field `name` in /proc/self/smaps_rollup (Pss: this process's share of the pages it
  ! maps; a page mapped twice, as a caller's array remapped onto a region is, counts once)
  integer(kind=INT64) function rollup_kb(name)
    character(len=*), intent(IN) :: name
    character(len=256) :: line
    integer :: u, ios
    rollup_kb = -1
    open(newunit=u, file='/proc/self/smaps_rollup', action='read', status='old', iostat=ios)
    if (ios /= 0) return
    do
      read(u, '(A)', iostat=ios) line
      if (ios /= 0) exit
      if (line(1:len(name) + 1) == name//':') then
        read(line(len(name) + 2:), *, iostat=ios) rollup_kb
        exit
      endif
    enddo
    close(u)
  end function rollup_kb

  ! Size of the /dev/shm/rpncomm* files this process maps (the window regions), from /proc/self/maps:
  ! per file (inode), the largest offset + length of its mappings (a region is mapped whole, and
  ! again in part over a caller's array); and the number of mappings.
  subroutine shm_mapped(bytes, nmaps)
    integer(kind=INT64), intent(OUT) :: bytes
    integer, intent(OUT) :: nmaps
    integer, parameter :: MAXF = 8192
    integer(kind=INT64), dimension(MAXF) :: inodes, extent
    character(len=1024) :: line
    character(len=64) :: range, perms, offhex, dev
    character(len=16) :: fmt
    integer :: u, ios, dash, nf, j
    integer(kind=INT64) :: a, b, off, inode
    bytes = 0
    nmaps = 0
    nf = 0
    open(newunit=u, file='/proc/self/maps', action='read', status='old', iostat=ios)
    if (ios /= 0) return
    do
      read(u, '(A)', iostat=ios) line
      if (ios /= 0) exit
      if (index(line, '/dev/shm/rpncomm') == 0) cycle
      read(line, *, iostat=ios) range, perms, offhex, dev, inode
      if (ios /= 0) cycle
      dash = index(range, '-')
      write(fmt, '(A,I0,A)') '(Z', dash - 1, ')'
      read(range(1:dash - 1), fmt) a
      write(fmt, '(A,I0,A)') '(Z', len_trim(range) - dash, ')'
      read(range(dash + 1:len_trim(range)), fmt) b
      write(fmt, '(A,I0,A)') '(Z', len_trim(offhex), ')'
      read(offhex(1:len_trim(offhex)), fmt) off
      nmaps = nmaps + 1
      do j = 1, nf
        if (inodes(j) == inode) exit
      enddo
      if (j > nf) then
        if (nf == MAXF) cycle
        nf = nf + 1
        inodes(nf) = inode
        extent(nf) = 0
        j = nf
      endif
      extent(j) = max(extent(j), off + (b - a))
    enddo
    close(u)
    bytes = sum(extent(1:nf))
  end subroutine shm_mapped

  subroutine mem_test(kind)
    integer, intent(IN) :: kind
    integer, parameter :: NW = 100, NE = 262144          ! 100 windows of 1 MiB (integers)
    type(rpncomm_window), dimension(NW) :: wins
    integer, dimension(:,:), pointer :: uarr => null()
    type(array_t), dimension(NW) :: sep
    integer, dimension(:), pointer :: w1
    integer, dimension(1), target :: one
    integer(kind=INT64) :: shm0, shm1, hwm0, hwm1, rss1, dshm, rssmax, hwmmax, pss1, pssmax
    integer :: n0, n1, w, k, ier, nb, etot
    type(C_PTR) :: p
    character(len=:), allocatable :: tag
    real(kind=8) :: x

    errs = 0
    nb = 0
    tag = 'mem_'//trim(kname(kind))
    call shm_mapped(shm0, n0)
    hwm0 = status_kb('VmHWM')
    if (kind == K_PACKED) then
      allocate(uarr(NE, NW))
      uarr = 0
    else if (kind == K_USER) then
      do w = 1, NW
        allocate(sep(w)%a(NE))
        sep(w)%a = 0
      enddo
    endif
    do w = 1, NW
      if (kind == K_PACKED) then
        call RPN_COMM_i_win_create(wins(w), dt_int, NE, com, C_LOC(uarr(1, w)), ier)
      else if (kind == K_USER) then
        call RPN_COMM_i_win_create(wins(w), dt_int, NE, com, C_LOC(sep(w)%a(1)), ier)
      else
        call RPN_COMM_i_win_create(wins(w), dt_int, NE, com, C_NULL_PTR, ier)
      endif
      call st(ier, 'RPN_COMM_i_win_create')
    enddo
    call shm_mapped(shm1, n1)
    ! use every window: fill it, one fence epoch with a put_r of one element to the right neighbour
    do w = 1, NW
      if (kind == K_PACKED) then
        w1 => uarr(:, w)
      else if (kind == K_USER) then
        w1 => sep(w)%a
      else
        p = RPN_COMM_i_win_get_ptr(wins(w), 1, ier)
        call st(ier, 'RPN_COMM_i_win_get_ptr')
        call c_f_pointer(p, w1, [NE])
      endif
      do k = 1, NE
        w1(k) = val(me, w, k)
      enddo
      one(1) = val(me, w, 0)
      call RPN_COMM_i_win_open(wins(w), .true., ier); call st(ier, 'open(fence)')
      call RPN_COMM_i_win_put_r(wins(w), C_LOC(one), right, w - 1, 1, ier); call st(ier, 'put_r')
      call RPN_COMM_i_win_close(wins(w), ier); call st(ier, 'close(fence)')
      do k = 1, NE
        if (k == w) then
          if (w1(k) /= val(left, w, 0)) nb = nb + 1
        else
          if (w1(k) /= val(me, w, k)) nb = nb + 1
        endif
      enddo
    enddo
    call bad(tag//': wrong values in windows', nb)
    hwm1 = status_kb('VmHWM')
    rss1 = status_kb('VmRSS')
    pss1 = rollup_kb('Pss')
    call RPN_COMM_barrier(RPN_COMM_GRID, ier)
    do w = 1, NW
      call RPN_COMM_i_win_free(wins(w), ier); call st(ier, 'RPN_COMM_i_win_free')
    enddo
    if (associated(uarr)) deallocate(uarr)
    do w = 1, NW
      if (associated(sep(w)%a)) deallocate(sep(w)%a)
    enddo
    etot = isum_all(errs)
    total_errors = total_errors + etot
    dshm = shm1 - shm0
    x = max_all(dble(hwm1));  hwmmax = int(x, INT64)
    x = max_all(dble(rss1));  rssmax = int(x, INT64)
    x = max_all(dble(pss1));  pssmax = int(x, INT64)
    x = max_all(dble(hwm0))
    if (me == 0) then
      write(*, '(A,1X,A,1X,I0,1X,I0,1X,A)') 'MEM', tag//'.windows', npes, NW, 'count'
      write(*, '(A,1X,A,1X,I0,1X,I0,1X,A)') 'MEM', tag//'.data_per_window', npes, &
                                            int(NE, INT64) * 4 * npes, 'bytes'
      write(*, '(A,1X,A,1X,I0,1X,I0,1X,A)') 'MEM', tag//'.shm_per_window', npes, dshm / NW, 'bytes'
      write(*, '(A,1X,A,1X,I0,1X,I0,1X,A)') 'MEM', tag//'.shm_mappings', npes, n1 - n0, 'count'
      write(*, '(A,1X,A,1X,I0,1X,I0,1X,A)') 'MEM', tag//'.overhead_per_window', npes, &
                                            dshm / NW - int(NE, INT64) * 4 * npes, 'bytes'
      write(*, '(A,1X,A,1X,I0,1X,I0,1X,A)') 'MEM', tag//'.hwm_before', npes, int(x, INT64), 'kB'
      write(*, '(A,1X,A,1X,I0,1X,I0,1X,A)') 'MEM', tag//'.peak_rss', npes, hwmmax, 'kB'
      write(*, '(A,1X,A,1X,I0,1X,I0,1X,A)') 'MEM', tag//'.rss_after', npes, rssmax, 'kB'
      write(*, '(A,1X,A,1X,I0,1X,I0,1X,A)') 'MEM', tag//'.pss_after', npes, pssmax, 'kB'
      write(*, '(A,1X,A,1X,I0,1X,I0,1X,A)') 'MEM', tag//'.errors', npes, etot, 'count'
      if (etot > 0) write(ERROR_UNIT, '(A,A,A,I0)') 'BENCH ERROR: ', tag, ': data/status errors ', etot
    endif
  end subroutine mem_test

end program rpncomm_bench
