! PES: 1 2 3 4 8
! TIMEOUT: 180
!
! MPI transport only: one hot element hammered from every PE of every node. The job's nodes are
! counted as the transport sees them (MPI_Comm_split_type(SHARED), cut by RPNCOMM_NODE_SPLIT=k
! into pretend nodes of k ranks when that testing knob is set): windows over the whole job then
! go through MPI RMA when the job spans nodes, windows over one node's communicator through
! shared memory. On both (user array and internal window, integer*4 and integer*8; the user array
! starts r mod 3 elements into a local array, so its alignment differs from PE to PE):
!   - passive: every PE takes NT tickets with getacc_r SUM 1 (garray before) from element 0 of the
!     LAST PE (on the last node) and adds me+1 to its element 1 after each ticket; the tickets of
!     all PEs are exactly 0..NT*npes-1 (a permutation), the totals exact (no lost update)
!   - fence: the same NT accumulates in one epoch; exact total
!   - LXOR 1 on one element, NT per PE, garray before, passive and fence: the values seen alternate
!     0, 1, 0, ... if every read-modify-write is atomic (Open MPI's are done by the transport, see
!     src/transport/mpi/windows/logical.rs): exactly NT*n/2 zeros and as many ones, final value 0
program test_hot_element
  use ISO_C_BINDING
  use mpi
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr
  integer, parameter :: NT = 40
  integer :: node, whole, nrank, nsize, split, mierr, nodes, leader, wkind, dk
  character(len=16) :: env

  call start('test_hot_element')
  ! the transport's view of the nodes (node.rs): split_type, then the testing knob
  call MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, node, mierr)
  call get_environment_variable('RPNCOMM_NODE_SPLIT', env)
  split = 0
  if (len_trim(env) > 0) read(env, *) split
  if (split > 0) then
    call MPI_Comm_rank(node, nrank, mierr)
    whole = node
    call MPI_Comm_split(whole, nrank / split, nrank, node, mierr)
    call MPI_Comm_free(whole, mierr)
  endif
  call MPI_Comm_rank(node, nrank, mierr)
  call MPI_Comm_size(node, nsize, mierr)
  leader = merge(1, 0, nrank == 0)
  call MPI_Allreduce(leader, nodes, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, mierr)
  if (me == 0) write(*, '(A,I0,A,I0,A)') 'test_hot_element: ', npes, ' PEs on ', nodes, ' node(s)'
  if (split > 0) call check(nodes == (npes + split - 1) / split, 'nodes = '//str(nodes)//' with split '//str(split))

  do dk = 1, 3, 2                       ! integer*4, integer*8
    do wkind = 1, 2                     ! user array, internal
      call hot(MPI_COMM_WORLD, npes, me, dk, wkind, 'job')
      call hot(node, nsize, nrank, dk, wkind, 'node')
    enddo
  enddo
  call MPI_Comm_free(node, mierr)
  call finish('test_hot_element')

contains

  include 'tutil.inc'

  ! the hot-element tests on a window over communicator mcom (rank r of n)
  subroutine hot(mcom, n, r, k, wkind, where)
    integer, intent(IN) :: mcom, n, r, k, wkind
    character(len=*), intent(IN) :: where
    type(rpncomm_window) :: win
    type(rpncomm_datatype) :: dtype
    type(rpncomm_communicator) :: com
    type(rpncomm_operator) :: opsum, oplxor
    integer(kind=8), dimension(6), target :: warr
    integer(kind=8), dimension(4), target :: zero
    integer(kind=8), dimension(1), target :: one, mine1
    integer(kind=8), dimension(NT), target :: tick
    type(C_PTR) :: wmem
    real(kind=8), dimension(NT) :: tv
    real(kind=8), dimension(2) :: v
    integer, dimension(NT) :: got
    integer, dimension(:), allocatable :: allt, seen
    integer :: ierr, i, last, sync, zeros, allzeros
    character(len=:), allocatable :: tag

    tag = where//'/'//trim(merge('user    ', 'internal', wkind == 1))//'/'//dtname(k)
    call section('hot element, '//tag)
    last = n - 1
    call RPN_COMM_i_comm(RPN_COMM_GRID, com, mcom)
    call RPN_COMM_i_datyp(dtname(k), dtype)
    call RPN_COMM_i_oper(RPN_COMM_SUM, opsum)
    call RPN_COMM_i_oper(RPN_COMM_LXOR, oplxor)
    warr = 0
    zero = 0
    if (wkind == 1) then
      wmem = tloc(k, c_loc(warr), mod(r, 3))
      call RPN_COMM_i_win_create(win, dtype, 4, com, wmem, ierr)
    else
      call RPN_COMM_i_win_create(win, dtype, 4, com, C_NULL_PTR, ierr)
      wmem = RPN_COMM_i_win_get_ptr(win, 1, ierr)
    endif
    call check_ierr(ierr, RPN_COMM_OK, tag//' create')
    call RPN_COMM_i_win_put_l(win, c_loc(zero), 0, 4, ierr)
    call tset(k, c_loc(one), 0, [1.0_8])
    call tset(k, c_loc(mine1), 0, [real(r + 1, 8)])
    call tset(k, c_loc(tick), 0, [(-5.0_8, i = 1, NT)])

    ! passive: tickets and sums, interleaved
    call RPN_COMM_i_win_open(win, .false., ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' open passive')
    do i = 1, NT
      call RPN_COMM_i_win_getacc_r(win, c_loc(one), tloc(k, c_loc(tick), i-1), .true., last, 0, 1, opsum, ierr)
      if (ierr /= RPN_COMM_OK) call check_ierr(ierr, RPN_COMM_OK, tag//' getacc_r ticket')
      call RPN_COMM_i_win_getacc_r(win, c_loc(mine1), C_NULL_PTR, .true., last, 1, 1, opsum, ierr)
      if (ierr /= RPN_COMM_OK) call check_ierr(ierr, RPN_COMM_OK, tag//' getacc_r sum')
    enddo
    call RPN_COMM_i_win_close(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' close passive')
    call tget(k, c_loc(tick), 0, tv)
    got = nint(tv)
    allocate(allt(NT*n), seen(NT*n))
    call MPI_Allgather(got, NT, MPI_INTEGER, allt, NT, MPI_INTEGER, mcom, mierr)
    seen = 0
    do i = 1, NT*n
      if (allt(i) >= 0 .and. allt(i) < NT*n) seen(allt(i) + 1) = seen(allt(i) + 1) + 1
    enddo
    call check(all(seen == 1), tag//': tickets are not a permutation of 0..'//str(NT*n-1)//', '// &
               str(count(seen /= 1))//' wrong')
    if (r == last) then
      call tget(k, wmem, 0, v)
      call check(v(1) == real(NT*n, 8), tag//': ticket counter = '//strd(v(1)))
      call check(v(2) == real(NT, 8)*n*(n + 1)/2, tag//': passive total = '//strd(v(2)))
    endif

    ! fence: NT accumulates each in one epoch
    call RPN_COMM_i_win_put_l(win, c_loc(zero), 0, 4, ierr)
    call RPN_COMM_i_win_open(win, .true., ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' open fence')
    do i = 1, NT
      call RPN_COMM_i_win_getacc_r(win, c_loc(mine1), C_NULL_PTR, .true., last, 2, 1, opsum, ierr)
      if (ierr /= RPN_COMM_OK) call check_ierr(ierr, RPN_COMM_OK, tag//' fence getacc_r')
    enddo
    call RPN_COMM_i_win_close(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' close fence')
    if (r == last) then
      call tget(k, wmem, 2, v(1:1))
      call check(v(1) == real(NT, 8)*n*(n + 1)/2, tag//': fence total = '//strd(v(1)))
    endif

    ! LXOR: atomic read-modify-write from every PE, passive then fence
    do sync = 1, 2
      call RPN_COMM_i_win_put_l(win, c_loc(zero), 0, 4, ierr)
      call tset(k, c_loc(tick), 0, [(-5.0_8, i = 1, NT)])
      call RPN_COMM_i_win_open(win, sync == 2, ierr)
      do i = 1, NT
        call RPN_COMM_i_win_getacc_r(win, c_loc(one), tloc(k, c_loc(tick), i-1), .true., last, 3, 1, oplxor, ierr)
        if (ierr /= RPN_COMM_OK) call check_ierr(ierr, RPN_COMM_OK, tag//' getacc_r LXOR')
      enddo
      call RPN_COMM_i_win_close(win, ierr)
      call check_ierr(ierr, RPN_COMM_OK, tag//' close after LXOR')
      call tget(k, c_loc(tick), 0, tv)
      got = nint(tv)
      call check(all(got == 0 .or. got == 1), tag//' LXOR: values seen not 0 or 1')
      zeros = count(got == 0)
      call MPI_Allreduce(zeros, allzeros, 1, MPI_INTEGER, MPI_SUM, mcom, mierr)
      call check(allzeros == NT*n/2, tag//' LXOR '//trim(merge('passive', 'fence  ', sync == 1))//': '// &
                 str(allzeros)//' zeros seen of '//str(NT*n)//' (not atomic)')
      if (r == last) then
        call tget(k, wmem, 3, v(1:1))
        call check(v(1) == 0.0_8, tag//' LXOR final value = '//strd(v(1)))
      endif
    enddo
    call RPN_COMM_i_win_free(win, ierr)
    call check_ierr(ierr, RPN_COMM_OK, tag//' free')
  end subroutine hot

end program test_hot_element
