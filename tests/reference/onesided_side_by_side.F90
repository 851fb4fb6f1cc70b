! onesided_side_by_side.F90 -- the original's easy windows (RPN_COMM_ezwin_*), shared-memory
! windows (RPN_COMM_win_allocate_shared, both forms), C conversions of MPI handles, C clocks and
! OpenMP state, built against the original RPN_COMM and against this library by side_by_side.sh,
! which compares what they print. One grid of all PEs. Printed, on each PE: the window's size, what
! a get from the right neighbour, a put from the left one and fetch_adds from every PE to PE 0
! leave (PE 0's total, each PE's window), the status of each call as success or not (the
! original's error code is MPI_ERR_OTHER, ours RPN_COMM_ERROR), RPN_COMM_ezwin_id and _size of
! the null handle; both shared areas as every PE sees them after every PE wrote its element; the
! conversions f2c then c2f of GRID's communicator, of MPI_REAL8 and MPI_MAX (each gives the Fortran
! handle back, t2 set); the dummy clock's step, the time of day through Rpn_comm_wtime after
! rpn_comm_wtime_set, rpn_comm_tsc advancing; save_openmp_state and restore_openmp_state;
! RPNCOMM_Shmget's area after every PE wrote its element, RPNCOMM_Numa_split by node (the
! socket split of 4.6.3 depends on the CPU a PE runs on at the call: not compared).
! Accesses that 4.6.3 refuses although they fit (ending at the last element) are not made.
program onesided_side_by_side
  use ISO_C_BINDING
  use mpi
  implicit none
  include 'RPN_COMM.inc'
  include 'c_functions_interfaces.inc'
  real(kind=8), external :: rpn_comm_timeofday, rpn_comm_tsc
  external :: rpn_comm_wtime_set, save_openmp_state, restore_openmp_state
  integer, external :: f_omp_get_max_threads
  external :: f_omp_set_num_threads
  integer :: me, npes, pex, pey, ierr, i, fcomm, f, n0, n1, n2, right, left, fetch, sz, id1, id2
  integer :: e1, e2, e3, nc, nr, nc2, nr2, ns
  integer(C_INTPTR_T) :: msize2
  real(kind=8) :: a, b, t0, t1, s0, s1, x
  type(rpncomm_communicator) :: hc, hc2
  type(rpncomm_datatype) :: ht
  type(rpncomm_operator) :: ho
  type(rpncomm_window) :: win, bad
  type(C_PTR) :: p, c
  integer, dimension(:), pointer :: local, shared
  integer, dimension(8), target :: buf
  external :: onesided_grid

  me = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(onesided_grid, me, npes, pex, pey)
  right = mod(me + 1, npes)
  left = mod(me + npes - 1, npes)
  fcomm = RPN_COMM_comm('GRID')

  ! ---------------------------------------------------------------------------- easy windows
  call RPN_COMM_ezwin_create(10 + me, fcomm, win, ierr)
  sz = RPN_COMM_ezwin_size(win)
  print '(A,I0,A,L1,A,I0)', 'pe ', me, ' ezwin_create ok ', ierr == 0, ' size ', sz
  call c_f_pointer(RPN_COMM_ezwin_ptr(win), local, [sz])
  do i = 1, sz
    local(i) = 1000 * me + i
  enddo
  call RPN_COMM_barrier('GRID', ierr)
  buf = -1
  call RPN_COMM_ezwin_get(win, c_loc(buf), 3, right, 2, e1)
  call RPN_COMM_barrier('GRID', ierr)
  print '(A,I0,A,L1,A,8I6)', 'pe ', me, ' ezwin_get ok ', e1 == 0, ' got ', buf
  buf(1:2) = [-me, -2 * me]
  call RPN_COMM_ezwin_put(win, c_loc(buf), 2, left, 7, e2)
  call RPN_COMM_ezwin_fetch_add(win, me + 1, fetch, 0, 0, e3)
  call RPN_COMM_barrier('GRID', ierr)
  print '(A,I0,A,2L1,A,100I6)', 'pe ', me, ' ezwin_put, fetch_add ok ', e2 == 0, e3 == 0, ' window ', local
  call RPN_COMM_ezwin_get(win, c_loc(buf), 2, right, 30, e1)
  call RPN_COMM_ezwin_put(win, c_loc(buf), 30, right, 0, e2)
  call RPN_COMM_ezwin_fetch_add(win, 1, fetch, right, 40, e3)
  bad = NULL_rpncomm_window
  print '(A,I0,A,3L1,A,L1,A,I0,A,L1)', 'pe ', me, ' out of bounds refused ', e1 /= 0, e2 /= 0, e3 /= 0, &
      ' id of no window is MPI_WIN_NULL ', RPN_COMM_ezwin_id(bad) == MPI_WIN_NULL, ' size ', &
      RPN_COMM_ezwin_size(bad), ' ptr null ', .not. c_associated(RPN_COMM_ezwin_ptr(bad))
  call RPN_COMM_barrier('GRID', ierr)

  ! ------------------------------------------------------------------- shared-memory windows
  call RPN_COMM_win_allocate_shared(fcomm, 50, id1, p, e1)
  msize2 = 60
  call RPN_COMM_win_allocate_shared(fcomm, msize2, id2, c, e2)
  call c_f_pointer(p, shared, [50])
  if (me == 0) shared = 0
  call RPN_COMM_barrier('GRID', ierr)
  shared(1 + me) = 100 + me
  call RPN_COMM_barrier('GRID', ierr)
  print '(A,I0,A,2L1,A,50I5)', 'pe ', me, ' win_allocate_shared ok ', e1 == 0, e2 == 0, ' area ', shared
  call c_f_pointer(c, shared, [60])
  if (me == 0) shared = -1
  call RPN_COMM_barrier('GRID', ierr)
  shared(60 - me) = me
  call RPN_COMM_barrier('GRID', ierr)
  print '(A,I0,A,60I4)', 'pe ', me, ' second area ', shared
  call RPN_COMM_barrier('GRID', ierr)

  ! -------------------------------------------------------- RPNCOMM_Shmget, RPNCOMM_Numa_split
  p = rpn_comm_shmget(fcomm, 401)
  call c_f_pointer(p, shared, [101])
  if (me == 0) shared = 5
  call RPN_COMM_barrier('GRID', ierr)
  shared(2 + me) = 10 * me
  call RPN_COMM_barrier('GRID', ierr)
  print '(A,I0,A,L1,A,101I4)', 'pe ', me, ' shmget ', c_associated(p), ' area ', shared
  call RPN_COMM_barrier('GRID', ierr)
  ns = rpn_comm_numasplit(fcomm, 0, nc, nr)
  print '(A,I0,A,2I4,A,L1)', 'pe ', me, ' numa_split by node: size, rank ', ns, nr, ' again the same ', &
      rpn_comm_numasplit(fcomm, 0, nc2, nr2) == ns .and. nc2 == nc .and. nr2 == nr

  ! ---------------------------------------------------------------- conversions of MPI handles
  hc = NULL_rpncomm_communicator
  hc%p = c_comm_f2c(hc, fcomm)
  hc2 = NULL_rpncomm_communicator
  hc2%p = c_any_f2c(fcomm, 7)
  f = RPN_COMM_datyp('MPI_REAL8')
  ht = NULL_rpncomm_datatype
  ht%p = c_type_f2c(ht, f)
  n0 = RPN_COMM_oper('MPI_MAX')
  ho = NULL_rpncomm_operator
  ho%p = c_op_f2c(ho, n0)
  print '(A,I0,A,8L1)', 'pe ', me, ' conversions ', hc%t2 == fcomm, c_comm_c2f(hc) == fcomm, c_any_c2f(hc, 7) == fcomm, &
      c_comm_c2f(hc2) == fcomm, ht%t2 == f, c_type_c2f(ht) == f, ho%t2 == n0, c_op_c2f(ho) == n0

  ! ---------------------------------------------------------------------------------- clocks
  a = wtime_c()
  b = wtime_c()
  call rpn_comm_wtime_set(rpn_comm_timeofday)
  s0 = rpn_comm_timeofday()
  t0 = wtime_c()
  x = 0
  do i = 1, 2000000
    x = x + sqrt(real(i, 8))
  enddo
  t1 = wtime_c()
  s1 = rpn_comm_timeofday()
  print '(A,I0,A,L1,A,L1)', 'pe ', me, ' dummy clock step 1 ns ', abs(b - a - 1.0d-9) < 1.0d-15, &
      ' Rpn_comm_wtime on the time of day ', t0 >= 0 .and. t0 < 1 .and. t1 - t0 > 1.0d-6 .and. t1 - t0 <= s1 - s0 + 2.0d-6
  call rpn_comm_wtime_set(rpn_comm_wtime_set)
  a = wtime_c()
  b = wtime_c()
  t0 = rpn_comm_tsc()
  do i = 1, 2000000
    x = x + sqrt(real(i, 8))
  enddo
  t1 = rpn_comm_tsc()
  print '(A,I0,A,L1,A,L1,A,L1)', 'pe ', me, ' dummy clock again ', abs(b - a - 1.0d-9) < 1.0d-15, &
      ' tsc advances ', t1 > t0 .and. x > 0, ' time of day after 2020 ', s1 > 1.6d9

  ! ----------------------------------------------------------------------------- OpenMP state
  call f_omp_set_num_threads(3)
  n0 = f_omp_get_max_threads()
  call save_openmp_state()
  n1 = f_omp_get_max_threads()
  call restore_openmp_state()
  n2 = f_omp_get_max_threads()
  print '(A,I0,A,3I3)', 'pe ', me, ' openmp threads before, saved, restored ', n0, n1, n2

  call RPN_COMM_barrier('GRID', ierr)
  call RPN_COMM_finalize(ierr)
end program onesided_side_by_side

! RPN_COMM_init presets the grid to (number of PEs) x 1: kept
subroutine onesided_grid(px, py)
  implicit none
  integer, intent(INOUT) :: px, py
  py = 1
end subroutine onesided_grid
