! PES: 1 2 4 6
! TIMEOUT: 90
!
! The original's remaining one-sided routines, C handle conversions and C clocks, through the
! legacy include, on both transports:
! - the clocks: Rpn_comm_wtime on the dummy clock (1 ns a reading), on rpn_comm_timeofday after
!   rpn_comm_wtime_set (it follows the time of day), and on the dummy clock again after
!   rpn_comm_wtime_set(rpn_comm_wtime_set); rpn_comm_tsc measures what rpn_comm_timeofday does;
! - save_openmp_state (one thread) and restore_openmp_state (the count before);
! - in the MPI build: RPN_COMM_comm_f2c / _c2f, _type_, _op_ and the generic RPN_COMM_f2c / _c2f
!   give back the Fortran handle (t2 set by f2c), the library's communicator handle gives
!   RPN_COMM_comm's, a C handle f2c never gave is refused (-1, no crash); easy windows: sizes per
!   PE, the local part through RPN_COMM_ezwin_ptr, get from the right neighbour, put to the left
!   one, fetch_add from every PE to PE 0 (no update lost, every fetched value distinct), bounds
!   refused, RPN_COMM_i_win_get_size on the same handle; RPNCOMM_Numa_split by node (as
!   RPN_COMM_split_by_node; the same communicator twice); RPN_COMM_win_allocate_shared (both
!   forms) over the node's PEs: every PE sees and writes the node's rank 0's area (over PEs of
!   several nodes: refused); RPNCOMM_Shmget likewise; RPNCOMM_Numa_split by socket;
! - on shared memory the MPI-only ones are refused with their values (NULL, -1, null handle).
program test_onesided
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  include '../reference/c_functions_interfaces.inc'
  real(kind=8), external :: rpn_comm_timeofday, rpn_comm_tsc
  external :: rpn_comm_wtime_set, save_openmp_state, restore_openmp_state
  integer, external :: f_omp_get_max_threads
  external :: f_omp_set_num_threads
  integer :: me, npes, nerr
  integer :: pex, pey, ierr, i, fcomm, f, n0, right, left, fetch, sz, id, wnull, nc, nr, nc2, nr2, ns
  integer :: nodecomm, peercomm, noderank, peerrank, nodesize
  integer(C_INTPTR_T) :: msize2
  logical :: mpi
  real(kind=8) :: a, b, t0, t1, s0, s1, x
  type(rpncomm_communicator) :: hc, com
  type(rpncomm_datatype) :: ht
  type(rpncomm_operator) :: ho
  type(rpncomm_window) :: win, bad
  type(C_PTR) :: c, p
  integer, dimension(:), pointer :: local, shared
  integer, dimension(8), target :: buf
  integer, dimension(:), allocatable :: fetches
  external :: onesided_grid

  nerr = 0
  me = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(onesided_grid, me, npes, pex, pey)
  mpi = RPN_COMM_datyp('MPI_INTEGER') /= -1       ! the shared-memory build has no MPI handles
  right = mod(me + 1, npes)
  left = mod(me + npes - 1, npes)

  call section('clocks')
  a = wtime_c()
  b = wtime_c()
  call check(abs(b - a - 1.0d-9) < 1.0d-15, 'the dummy clock advances 1 ns a reading: '//strd(b - a))
  call rpn_comm_wtime_set(rpn_comm_timeofday)
  s0 = rpn_comm_timeofday()
  t0 = wtime_c()
  x = 0
  do i = 1, 2000000
    x = x + sqrt(real(i, 8))
  enddo
  t1 = wtime_c()
  s1 = rpn_comm_timeofday()
  call check(t0 >= 0 .and. t0 < 1.0 .and. t1 > t0, 'Rpn_comm_wtime counts from the selection')
  ! the readings of Rpn_comm_wtime lie between those of the time of day (a PE may lose its core
  ! between two calls: only the enclosure is certain)
  call check(t1 - t0 > 1.0d-6 .and. t1 - t0 <= s1 - s0 + 2.0d-6, 'Rpn_comm_wtime follows rpn_comm_timeofday')
  call rpn_comm_wtime_set(rpn_comm_wtime_set)
  a = wtime_c()
  b = wtime_c()
  call check(abs(b - a - 1.0d-9) < 1.0d-15 .and. a < 1.0d-6, 'rpn_comm_wtime_set(itself): the dummy clock')
  s0 = rpn_comm_timeofday()
  t0 = rpn_comm_tsc()
  do i = 1, 2000000
    x = x + sqrt(real(i, 8))
  enddo
  t1 = rpn_comm_tsc()
  s1 = rpn_comm_timeofday()
  call check(t1 - t0 > 1.0d-6 .and. t1 - t0 <= s1 - s0 + 1.0d-4 .and. x > 0, 'rpn_comm_tsc measures seconds')
  call check(s1 > 1.6d9, 'rpn_comm_timeofday: seconds since 1970')

  call section('save_openmp_state, restore_openmp_state')
  call f_omp_set_num_threads(3)
  n0 = f_omp_get_max_threads()
  call save_openmp_state()
  call check(f_omp_get_max_threads() == 1, 'save_openmp_state: one thread')
  call restore_openmp_state()
  call check(f_omp_get_max_threads() == n0, 'restore_openmp_state: the count before')

  call section('conversions of MPI handles')
  call RPN_COMM_i_comm(RPN_COMM_GRID, com)
  hc = NULL_rpncomm_communicator
  if (.not. mpi) then
    c = c_comm_f2c(hc, 0)
    call check(.not. c_associated(c) .and. hc%t2 == 0, 'RPN_COMM_comm_f2c refused')
    call check(c_comm_c2f(com) == -1 .and. c_any_c2f(com, 7) == -1, 'RPN_COMM_comm_c2f refused')
    call check(.not. c_associated(c_any_f2c(0, 0)), 'RPN_COMM_f2c refused')
  else
    fcomm = RPN_COMM_comm('GRID')
    hc%p = c_comm_f2c(hc, fcomm)
    call check(hc%t2 == fcomm .and. c_comm_c2f(hc) == fcomm, 'RPN_COMM_comm_f2c then _c2f: GRID')
    call check(c_any_c2f(hc, 7) == fcomm, 'RPN_COMM_c2f(7): GRID')
    hc%p = c_any_f2c(fcomm, 7)
    call check(c_comm_c2f(hc) == fcomm, 'RPN_COMM_f2c(7) then RPN_COMM_comm_c2f: GRID')
    call check(c_comm_c2f(com) == fcomm, 'RPN_COMM_comm_c2f of the library handle of GRID')
    f = RPN_COMM_datyp('MPI_REAL8')
    ht%p = c_type_f2c(ht, f)
    call check(ht%t2 == f .and. c_type_c2f(ht) == f, 'RPN_COMM_type_f2c then _c2f: MPI_REAL8')
    f = RPN_COMM_oper('MPI_MAX')
    ho%p = c_op_f2c(ho, f)
    call check(ho%t2 == f .and. c_op_c2f(ho) == f, 'RPN_COMM_op_f2c then _c2f: MPI_MAX')
    hc%p = c_loc(buf)
    call check(c_comm_c2f(hc) == -1, 'a C handle f2c never gave: refused')
    call check(c_any_c2f(hc, 8) == -1 .and. .not. c_associated(c_any_f2c(fcomm, -1)), 'an unknown kind: refused')
  endif

  call section('easy windows')
  bad = NULL_rpncomm_window
  call check(RPN_COMM_ezwin_size(bad) == -1 .and. .not. c_associated(RPN_COMM_ezwin_ptr(bad)), &
             'RPN_COMM_ezwin_size and _ptr of no window')
  if (.not. mpi) then
    call RPN_COMM_ezwin_create(10, 0, win, ierr)
    call check(ierr == RPN_COMM_ERROR .and. .not. c_associated(win%p), 'RPN_COMM_ezwin_create refused')
    call check(RPN_COMM_ezwin_id(win) == -1, 'RPN_COMM_ezwin_id refused')
    call check(.not. c_associated(rpn_comm_shmget(0, 400)), 'RPNCOMM_Shmget refused')
    ns = rpn_comm_numasplit(0, 0, nc, nr)
    call check(ns == -1 .and. nc == -1 .and. nr == -1, 'RPNCOMM_Numa_split refused')
    call RPN_COMM_win_allocate_shared(0, 100, id, p, ierr)
    call check(ierr == RPN_COMM_ERROR .and. .not. c_associated(p) .and. id == -1, 'RPN_COMM_win_allocate_shared refused')
  else
    fcomm = RPN_COMM_comm('GRID')
    call RPN_COMM_ezwin_create(10 + me, fcomm, win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'RPN_COMM_ezwin_create')
    sz = RPN_COMM_ezwin_size(win)
    call check(sz == 10 + me .and. RPN_COMM_i_win_get_size(win, ierr) == sz, 'RPN_COMM_ezwin_size: '//str(sz))
    wnull = RPN_COMM_ezwin_id(win)
    call check(RPN_COMM_ezwin_id(bad) == wnull, 'RPN_COMM_ezwin_id: MPI_WIN_NULL')
    call c_f_pointer(RPN_COMM_ezwin_ptr(win), local, [sz])
    do i = 1, sz
      local(i) = 1000 * me + i
    enddo
    call RPN_COMM_barrier('GRID', ierr)
    buf = -1
    call RPN_COMM_ezwin_get(win, c_loc(buf), 3, right, 2, ierr)
    call check(ierr == 0 .and. all(buf(1:3) == 1000 * right + [3, 4, 5]) .and. buf(4) == -1, 'RPN_COMM_ezwin_get')
    call RPN_COMM_barrier('GRID', ierr)
    buf(1:2) = [-me, -2 * me]
    call RPN_COMM_ezwin_put(win, c_loc(buf), 2, left, 7, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'RPN_COMM_ezwin_put')
    call RPN_COMM_ezwin_fetch_add(win, me + 1, fetch, 0, 0, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'RPN_COMM_ezwin_fetch_add')
    call RPN_COMM_barrier('GRID', ierr)
    call check(local(8) == -right .and. local(9) == -2 * right .and. local(7) == 1000 * me + 7 .and. &
               local(10) == 1000 * me + 10, 'RPN_COMM_ezwin_put from the right neighbour')
    if (me == 0) call check(local(1) == 1 + npes * (npes + 1) / 2, 'fetch_add: no update lost: '//str(local(1)))
    allocate(fetches(npes))
    call RPN_COMM_allgather(fetch, 1, 'MPI_INTEGER', fetches, 1, 'MPI_INTEGER', 'GRID', ierr)
    do i = 1, npes
      call check(count(fetches == fetches(i)) == 1 .and. fetches(i) >= 1, 'fetch_add: distinct values fetched')
    enddo
    call RPN_COMM_ezwin_get(win, c_loc(buf), 2, right, 9 + right, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'RPN_COMM_ezwin_get past the end of the target')
    call RPN_COMM_ezwin_get(win, c_loc(buf), 1, right, 9 + right, ierr)
    call check_ierr(ierr, RPN_COMM_OK, 'RPN_COMM_ezwin_get of the last element')
    call RPN_COMM_ezwin_put(win, c_loc(buf), 1, right, -1, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'RPN_COMM_ezwin_put at a negative offset')
    call RPN_COMM_ezwin_fetch_add(win, 1, fetch, npes, 0, ierr)
    call check_ierr(ierr, RPN_COMM_ERROR, 'RPN_COMM_ezwin_fetch_add to no PE')

    ! the node's PEs (several nodes, or pretend ones: RPNCOMM_NODE_SPLIT), by two routines that agree
    call section('RPNCOMM_Numa_split')
    ns = rpn_comm_numasplit(fcomm, 0, nc, nr)
    call RPN_COMM_split_by_node(fcomm, nodecomm, peercomm, noderank, peerrank, nodesize, ierr)
    call check(ierr == RPN_COMM_OK .and. ns == nodesize .and. nr == noderank .and. ns >= 1 .and. nr < ns, &
               'RPNCOMM_Numa_split by node: this node, '//str(ns)//' PEs, as RPN_COMM_split_by_node')
    call check(rpn_comm_numasplit(fcomm, 0, nc2, nr2) == ns .and. nc2 == nc .and. nr2 == nr, &
               'RPNCOMM_Numa_split by node again: the same communicator')

    call section('RPN_COMM_win_allocate_shared')
    if (ns < npes) then
      ! over PEs of several nodes: no memory they all address
      call RPN_COMM_win_allocate_shared(fcomm, 50, id, p, ierr)
      call check(ierr == RPN_COMM_ERROR .and. .not. c_associated(p), 'RPN_COMM_win_allocate_shared over nodes refused')
    endif
    call RPN_COMM_win_allocate_shared(nc, 50, id, p, ierr)
    call check(ierr == RPN_COMM_OK .and. c_associated(p) .and. id == wnull, 'RPN_COMM_win_allocate_shared (1)')
    msize2 = 60
    call RPN_COMM_win_allocate_shared(nc, msize2, id, c, ierr)
    call check(ierr == RPN_COMM_OK .and. c_associated(c) .and. .not. c_associated(c, p), &
               'RPN_COMM_win_allocate_shared (2)')
    if (c_associated(p) .and. c_associated(c)) then
      call c_f_pointer(p, shared, [50])
      if (nr == 0) shared = 0
      call RPN_COMM_barrier('GRID', ierr)
      shared(1 + nr) = 100 + nr
      call RPN_COMM_barrier('GRID', ierr)
      call check(all(shared(1:ns) == [(100 + i, i = 0, ns - 1)]), 'every PE sees and writes its node''s rank 0''s area')
      call c_f_pointer(c, shared, [60])
      if (nr == ns - 1) shared(60) = 77
      call RPN_COMM_barrier('GRID', ierr)
      call check(shared(60) == 77, 'the second area')
    endif

    call section('RPNCOMM_Shmget')
    p = rpn_comm_shmget(nc, 401)
    call check(c_associated(p), 'RPNCOMM_Shmget')
    if (c_associated(p)) then
      call c_f_pointer(p, shared, [101])
      if (nr == 0) shared = 5
      call RPN_COMM_barrier('GRID', ierr)
      call check(all(shared == 5), 'RPNCOMM_Shmget: every PE sees its node''s rank 0''s 401 bytes')
    endif
    call RPN_COMM_barrier('GRID', ierr)
    ns = rpn_comm_numasplit(fcomm, 1, nc, nr)
    call check(ns >= 1 .and. ns <= npes .and. nr >= 0 .and. nr < ns .and. nc /= nc2, 'RPNCOMM_Numa_split by socket')
    call RPN_COMM_barrier('GRID', ierr)
  endif

  call finish('test_onesided')
contains
  include 'tutil.inc'
end program test_onesided

! RPN_COMM_init presets the grid to (number of PEs) x 1: kept
subroutine onesided_grid(px, py)
  implicit none
  integer, intent(INOUT) :: px, py
  py = 1
end subroutine onesided_grid
