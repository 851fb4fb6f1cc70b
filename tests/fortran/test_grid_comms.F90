! PES: 1 2 4 6 8
! TIMEOUT: 90
!
! The PE grid and every communicator name of the original, on a grid of npes = 1 (1 x 1),
! 2 (2 x 1), 4 (2 x 2), 6 (3 x 2) and 8 (4 x 2) PEs chosen by Userinit:
! - RPN_COMM_init and RPN_COMM_mype: me_x = mod(me, Pex), me_y = me / Pex;
! - RPN_COMM_size of every name (whole job, 'EW' = a row, 'NS' = a column, 'GRIDPEERS' = the PE
!   alone, 'BLOC' = the grid, 'BLOCMASTER' = PE 0 only; non-members get no size, as in the
!   original), in any case and with trailing blanks; an unknown name refused;
! - RPN_COMM_barrier, RPN_COMM_allreduce, RPN_COMM_allgather and RPN_COMM_bcast over each, with
!   results computed from the grid;
! - windows over 'EW' and 'NS' (ranks in the row or column) with per-PE sizes: fence (put to the
!   right neighbour of the row, accumulates into the row's rank 0), group mode along the column,
!   passive accumulates over the row, post into the mailbox of the column's rank 0; ranks outside
!   the row and offsets past the target's size refused; the rows run different numbers of epochs
!   and row 0 alone makes an extra window (nobody outside waits for it);
! - RPN_COMM_bloc: blocks of the grid, 'BLOC' and 'BLOCMASTER' after it, a window over the
!   masters (refused on the other PEs, which never wait), a shape that does not divide the grid
!   refused on every PE.
program test_grid_comms
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr
  integer :: pex, pey, mex, mey, ierr, status, i_, j_
  type(rpncomm_datatype) :: dint
  type(rpncomm_operator) :: osum

  nerr = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(grid_shape, me, npes, pex, pey)
  if (me == 0) write(*, '(A,I0,A,I0,A,I0,A)') 'test_grid_comms: running on ', npes, ' PEs, a ', &
                                              pex, ' x ', pey, ' grid'
  call RPN_COMM_i_datyp(RPN_COMM_INTEGER, dint)
  call RPN_COMM_i_oper(RPN_COMM_SUM, osum)

  call section('the grid')
  call check(pex * pey == npes, 'Pex x Pey = '//str(pex)//' x '//str(pey)//' holds the PEs')
  call check(pex == expected_pex(npes), 'Pex = '//str(pex)//' as Userinit chose')
  status = RPN_COMM_mype(me, mex, mey)
  call check(status == RPN_COMM_OK .and. mex == mod(me, pex) .and. mey == me / pex, &
             'RPN_COMM_mype: me_x = '//str(mex)//', me_y = '//str(mey))

  call section('sizes of every name')
  call sizes()

  call section('collectives over every name')
  call collectives('GRID', [(i_, i_ = 0, npes - 1)])
  call collectives(RPN_COMM_WORLD, [(i_, i_ = 0, npes - 1)])
  call collectives('universe  ', [(i_, i_ = 0, npes - 1)])
  call collectives(RPN_COMM_EW, [(mey * pex + i_, i_ = 0, pex - 1)])
  call collectives('ew ', [(mey * pex + i_, i_ = 0, pex - 1)])
  call collectives(RPN_COMM_COLUMN, [(mex + pex * i_, i_ = 0, pey - 1)])
  call collectives(RPN_COMM_GRIDPEERS, [me])
  call collectives(RPN_COMM_BLOCK, [(i_, i_ = 0, npes - 1)])
  call collectives(RPN_COMM_BLOCMASTER, [0])

  call section('windows over EW: fence with per-PE sizes, bad ranks and offsets')
  call row_fence()
  call section('windows over NS: group mode along the column')
  call column_group()
  call section('windows over EW: passive accumulates')
  call row_passive()
  call section('windows over NS: post into the mailbox of the column''s rank 0')
  call column_post()
  call section('rows independent: different epoch counts, an extra window on row 0')
  call rows_independent()
  call section('RPN_COMM_bloc: blocks, BLOC and BLOCMASTER')
  call blocks()

  call finish('test_grid_comms')

contains

  integer function expected_pex(n)
    integer, intent(IN) :: n
    expected_pex = n
    if (n >= 4 .and. mod(n, 2) == 0) expected_pex = n / 2
  end function expected_pex

  ! Userinit: 2 rows when the PEs allow it (PE 0 calls it, with Pex, Pey preset to npes x 1)
  subroutine grid_shape(px, py)
    integer, intent(INOUT) :: px, py
    integer :: n
    n = px * py
    call check(py == 1, 'Userinit gets Pey preset to 1')
    px = expected_pex(n)
    py = n / px
  end subroutine grid_shape

  subroutine sizes()
    integer :: n, k
    character(len=12), dimension(9), parameter :: whole = [character(len=12) :: &
        'GRID', 'domm', 'WORLD', 'ALLDOMAINS', 'ALLGRIDS', 'ALL', 'MULTIGRID', 'DEFO', 'UNIVERSE']
    do k = 1, size(whole)
      n = -7
      call RPN_COMM_size(whole(k), n, ierr)   ! trailing blanks of the character(len=12)
      call check(ierr == RPN_COMM_OK .and. n == npes, 'size of '//trim(whole(k))//' = '//str(n))
    enddo
    call expect_size(RPN_COMM_EW, pex)
    call expect_size(RPN_COMM_ROW, pex)
    call expect_size('Ew', pex)
    call expect_size(RPN_COMM_NS, pey)
    call expect_size(RPN_COMM_COLUMN, pey)
    call expect_size(RPN_COMM_GRIDPEERS, 1)
    call expect_size(RPN_COMM_BLOCK, npes)
    if (me == 0) then
      call expect_size(RPN_COMM_BLOCMASTER, 1)
    else
      call expect_size(RPN_COMM_BLOCMASTER, -7)    ! not a member: no size, no error
    endif
    n = -7
    call RPN_COMM_size('EWX', n, ierr)
    call check(ierr == RPN_COMM_ERROR .and. n == -7, 'unknown name EWX refused')
  end subroutine sizes

  subroutine expect_size(com, expected)
    character(len=*), intent(IN) :: com
    integer, intent(IN) :: expected
    integer :: n
    n = -7
    call RPN_COMM_size(com, n, ierr)
    call check(ierr == RPN_COMM_OK .and. n == expected, 'size of '''//com//''' = '//str(n)// &
               ', expected '//str(expected))
  end subroutine expect_size

  ! members: job ranks of the communicator, in rank order; on a PE outside it ('BLOCMASTER'),
  ! every call returns at once and leaves the buffers alone
  subroutine collectives(com, members)
    character(len=*), intent(IN) :: com
    integer, dimension(:), intent(IN) :: members
    integer :: total, root, value, k
    integer, dimension(size(members)) :: gathered
    logical :: member
    member = any(members == me)
    call RPN_COMM_barrier(com, ierr)
    call check(ierr == RPN_COMM_OK, 'barrier over '//com)
    total = -1
    call RPN_COMM_allreduce(me, total, 1, RPN_COMM_INTEGER, RPN_COMM_SUM, com, ierr)
    if (member) then
      call check(ierr == RPN_COMM_OK .and. total == sum(members), 'allreduce SUM over '//com//' = '//str(total))
    else
      call check(ierr == RPN_COMM_OK .and. total == -1, 'allreduce over '//com//' on a non-member')
    endif
    gathered = -1
    call RPN_COMM_allgather(me, 1, RPN_COMM_INTEGER, gathered, 1, RPN_COMM_INTEGER, com, ierr)
    if (member) then
      call check(ierr == RPN_COMM_OK .and. all(gathered == members), 'allgather over '//com//' in rank order')
    endif
    ! from the last rank, then from rank 0
    do k = 1, 2
      root = size(members) - 1
      if (k == 2) root = 0
      value = -1
      if (me == members(root + 1)) value = 1000 + me
      call RPN_COMM_bcast(value, 1, RPN_COMM_INTEGER, root, com, ierr)
      if (member) then
        call check(ierr == RPN_COMM_OK .and. value == 1000 + members(root + 1), &
                   'bcast over '//com//' from rank '//str(root)//': '//str(value))
      else
        call check(ierr == RPN_COMM_OK .and. value == -1, 'bcast over '//com//' on a non-member')
      endif
    enddo
    if (member) then
      call RPN_COMM_bcast(value, 1, RPN_COMM_INTEGER, size(members), com, ierr)
      call check(ierr == RPN_COMM_ERROR, 'bcast over '//com//' from a root outside it refused')
    endif
  end subroutine collectives

  ! a window of mex + 2 integers per PE over the row
  subroutine row_fence()
    type(rpncomm_communicator) :: row
    type(rpncomm_window) :: w
    integer, dimension(:), allocatable, target :: a
    integer, target :: one, got
    integer :: right, left, e, ierr2
    call RPN_COMM_i_comm(RPN_COMM_EW, row)
    allocate(a(mex + 2))
    a = -1
    call create_in_turns(w, mex + 2, row, C_LOC(a), mey, pey)
    call check(ierr == RPN_COMM_OK, 'window over EW created')
    if (ierr /= RPN_COMM_OK) return
    call check(RPN_COMM_i_win_get_size(w, ierr) == mex + 2, 'own size in the row window')
    a(1) = 0
    a(2) = 0
    right = mod(mex + 1, pex)
    left = mod(mex - 1 + pex, pex)
    do e = 1, 3
      call RPN_COMM_i_win_open(w, .true., ierr)
      one = 100 * e + me
      call RPN_COMM_i_win_put_r(w, C_LOC(one), right, 0, 1, ierr)
      call check(ierr == RPN_COMM_OK, 'put_r to the right neighbour (rank '//str(right)//' of the row)')
      one = me + 1
      call RPN_COMM_i_win_getacc_r(w, C_LOC(one), C_NULL_PTR, .true., 0, 1, 1, osum, ierr)
      call check(ierr == RPN_COMM_OK, 'getacc_r into rank 0 of the row')
      ! the last element of the right neighbour's part, then one past it
      call RPN_COMM_i_win_get_r(w, C_LOC(got), right, right + 1, 1, ierr)
      call check(ierr == RPN_COMM_OK, 'get_r of the last element of rank '//str(right))
      call RPN_COMM_i_win_get_r(w, C_LOC(got), right, right + 2, 1, ierr2)
      call check(ierr2 == RPN_COMM_ERROR, 'get_r past the size of rank '//str(right)//' refused')
      call RPN_COMM_i_win_put_r(w, C_LOC(one), pex, 0, 1, ierr2)
      call check(ierr2 == RPN_COMM_ERROR, 'put_r to rank '//str(pex)//' (outside the row) refused')
      call RPN_COMM_i_win_put_r(w, C_LOC(one), -1, 0, 1, ierr2)
      call check(ierr2 == RPN_COMM_ERROR, 'put_r to rank -1 refused')
      call RPN_COMM_i_win_close(w, ierr)
      call check(ierr == RPN_COMM_OK, 'close of the row window')
      call check(a(1) == 100 * e + mey * pex + left, 'epoch '//str(e)//': put from the left neighbour: '//str(a(1)))
      if (mex == 0) then
        call check(a(2) == e * sum([(mey * pex + i_ + 1, i_ = 0, pex - 1)]), &
                   'epoch '//str(e)//': accumulates of the row on its rank 0: '//str(a(2)))
      endif
    enddo
    call RPN_COMM_i_win_free(w, ierr)
    call check(ierr == RPN_COMM_OK, 'row window freed')
  end subroutine row_fence

  ! each PE of a column writes into the next one down (group mode: pes_to, pes_from)
  subroutine column_group()
    type(rpncomm_communicator) :: col
    type(rpncomm_window) :: w
    integer, dimension(:), allocatable, target :: a
    integer, target :: v
    integer :: down, up, ierr2
    call RPN_COMM_i_comm(RPN_COMM_NS, col)
    allocate(a(mey + 1))
    a = -1
    call create_in_turns(w, mey + 1, col, C_LOC(a), mex, pex)
    call check(ierr == RPN_COMM_OK, 'window over NS created')
    if (ierr /= RPN_COMM_OK) return
    down = mod(mey + 1, pey)
    up = mod(mey - 1 + pey, pey)
    call RPN_COMM_i_win_group(w, [down], [up], ierr)
    call check(ierr == RPN_COMM_OK, 'group along the column')
    call RPN_COMM_i_win_open(w, .true., ierr)
    v = 500 + me
    call RPN_COMM_i_win_put_r(w, C_LOC(v), down, down, 1, ierr)
    call check(ierr == RPN_COMM_OK, 'put_r to the last element of the next PE of the column')
    if (pey > 2) then
      call RPN_COMM_i_win_put_r(w, C_LOC(v), up, 0, 1, ierr2)
      call check(ierr2 == RPN_COMM_ERROR, 'put_r to a PE outside pes_to refused')
    endif
    call RPN_COMM_i_win_put_r(w, C_LOC(v), pey, 0, 1, ierr2)
    call check(ierr2 == RPN_COMM_ERROR, 'put_r to rank '//str(pey)//' (outside the column) refused')
    call RPN_COMM_i_win_close(w, ierr)
    call check(ierr == RPN_COMM_OK .and. a(mey + 1) == 500 + mex + pex * up, &
               'group mode over NS: value from the PE above: '//str(a(mey + 1)))
    call RPN_COMM_i_win_free(w, ierr)
  end subroutine column_group

  subroutine row_passive()
    type(rpncomm_communicator) :: row
    type(rpncomm_window) :: w
    integer, dimension(:), allocatable, target :: a
    integer, target :: one, before
    integer :: k
    call RPN_COMM_i_comm(RPN_COMM_EW, row)
    allocate(a(2 * (mex + 1)))
    a = 0
    call create_in_turns(w, size(a), row, C_LOC(a), mey, pey)
    call check(ierr == RPN_COMM_OK, 'passive window over EW created')
    if (ierr /= RPN_COMM_OK) return
    call RPN_COMM_i_win_open(w, .false., ierr)
    one = 1
    do k = 0, pex - 1
      ! into the last element of every PE of the row, fetching the value before
      call RPN_COMM_i_win_getacc_r(w, C_LOC(one), C_LOC(before), .true., k, 2 * (k + 1) - 1, 1, osum, ierr)
      call check(ierr == RPN_COMM_OK .and. before >= 0 .and. before < pex, &
                 'passive getacc_r on rank '//str(k)//' of the row (before = '//str(before)//')')
    enddo
    call RPN_COMM_i_win_close(w, ierr)
    call check(ierr == RPN_COMM_OK .and. a(size(a)) == pex .and. all(a(1:size(a) - 1) == 0), &
               'passive accumulates of the whole row: '//str(a(size(a))))
    call RPN_COMM_i_win_free(w, ierr)
  end subroutine row_passive

  ! every PE of a column posts one request into the mailbox of the column's rank 0
  subroutine column_post()
    type(rpncomm_communicator) :: col
    type(rpncomm_window) :: w
    integer, dimension(:), pointer :: box
    integer :: k, last
    logical, dimension(0:pey - 1) :: seen
    call RPN_COMM_i_comm(RPN_COMM_COLUMN, col)
    call create_in_turns(w, 4, col, C_NULL_PTR, mex, pex)
    call check(ierr == RPN_COMM_OK, 'mailbox window over NS created')
    if (ierr /= RPN_COMM_OK) return
    do k = 0, pex - 1     ! in turns too: the mailbox is another window (see create_in_turns)
      if (k == mex) call RPN_COMM_i_win_create_secondary(w, pey + 1, ierr)
      call RPN_COMM_barrier(RPN_COMM_GRID, last)
    enddo
    call check(ierr == RPN_COMM_OK, 'secondary window over NS')
    call RPN_COMM_i_win_open(w, .false., ierr)
    call RPN_COMM_i_win_post(w, [0], [mey], [1], [0], [1], 1, ierr)
    call check(ierr == RPN_COMM_OK, 'post to rank 0 of the column')
    call RPN_COMM_i_win_post(w, [pey], [0], [1], [0], [1], 1, ierr)
    call check(ierr == RPN_COMM_ERROR, 'post to rank '//str(pey)//' (outside the column) refused')
    call RPN_COMM_i_win_close(w, ierr)
    if (mey == 0) then
      call c_f_pointer(RPN_COMM_i_win_get_ptr(w, 2, ierr), box, [5 * (pey + 1)])
      last = box(1)
      call check(last == pey + 1, 'mailbox of the column''s rank 0 holds '//str(last - 1)//' requests')
      seen = .false.
      do k = 2, min(last, pey + 1)
        if (box(5 * (k - 1) + 1) >= 0 .and. box(5 * (k - 1) + 1) < pey) seen(box(5 * (k - 1) + 1)) = .true.
        call check(box(5 * (k - 1) + 2) == box(5 * (k - 1) + 1), 'request of rank '//str(box(5 * (k - 1) + 1)))
      enddo
      call check(all(seen), 'a request from every rank of the column (ranks in the column)')
    endif
    call RPN_COMM_i_win_free(w, ierr)
  end subroutine column_post

  ! row y runs 2 * (y + 1) epochs; row 0 then makes one more window alone
  subroutine rows_independent()
    type(rpncomm_communicator) :: row
    type(rpncomm_window) :: w
    integer, target :: cell, v
    integer :: e
    call RPN_COMM_i_comm(RPN_COMM_EW, row)
    cell = 0
    call create_in_turns(w, 1, row, C_LOC(cell), mey, pey)
    if (ierr /= RPN_COMM_OK) then
      call check(.false., 'row window created')
      return
    endif
    do e = 1, 2 * (mey + 1)
      call RPN_COMM_i_win_open(w, .true., ierr)
      v = 1
      call RPN_COMM_i_win_getacc_r(w, C_LOC(v), C_NULL_PTR, .true., 0, 0, 1, osum, ierr)
      call RPN_COMM_i_win_close(w, ierr)
    enddo
    if (mex == 0) call check(cell == 2 * (mey + 1) * pex, 'row '//str(mey)//': '//str(cell)//' accumulates')
    call RPN_COMM_i_win_free(w, ierr)
    if (mey == 0) then
      call RPN_COMM_i_win_create(w, dint, 1, row, C_LOC(cell), ierr)
      call check(ierr == RPN_COMM_OK, 'extra window of row 0')
      call RPN_COMM_i_win_open(w, .true., ierr)
      call RPN_COMM_i_win_close(w, ierr)
      call RPN_COMM_i_win_free(w, ierr)
      call check(ierr == RPN_COMM_OK, 'extra window of row 0 freed')
    endif
  end subroutine rows_independent

  subroutine blocks()
    integer :: nbx, nby, lx, ly, bx, by, n, total, expected
    integer, target :: cell, got
    type(rpncomm_communicator) :: masters
    type(rpncomm_window) :: w
    logical :: master
    nbx = 1
    nby = 1
    if (mod(pex, 2) == 0) nbx = 2
    if (mod(pey, 2) == 0) nby = 2
    lx = pex / nbx
    ly = pey / nby
    status = RPN_COMM_bloc(nbx, nby)
    call check(status == RPN_COMM_OK, 'RPN_COMM_bloc('//str(nbx)//', '//str(nby)//')')
    bx = mex / lx
    by = mey / ly
    master = mod(mex, lx) == 0 .and. mod(mey, ly) == 0
    call expect_size(RPN_COMM_BLOCK, lx * ly)
    call RPN_COMM_allreduce(me, total, 1, RPN_COMM_INTEGER, RPN_COMM_SUM, RPN_COMM_BLOCK, ierr)
    expected = 0
    do j_ = 0, ly - 1
      expected = expected + sum([((by * ly + j_) * pex + bx * lx + i_, i_ = 0, lx - 1)])
    enddo
    call check(ierr == RPN_COMM_OK .and. total == expected, 'allreduce over the block: '//str(total))
    n = -7
    call RPN_COMM_size(RPN_COMM_BLOCMASTER, n, ierr)
    if (master) then
      call check(ierr == RPN_COMM_OK .and. n == nbx * nby, 'BLOCMASTER holds the '//str(nbx * nby)//' masters')
    else
      call check(ierr == RPN_COMM_OK .and. n == -7, 'no BLOCMASTER size off the masters')
    endif
    ! a window over the masters: refused elsewhere, without making anybody wait
    call RPN_COMM_i_comm(RPN_COMM_BLOCMASTER, masters)
    cell = me
    call RPN_COMM_i_win_create(w, dint, 1, masters, C_LOC(cell), ierr)
    if (master) then
      call check(ierr == RPN_COMM_OK, 'window over BLOCMASTER on a master')
      call RPN_COMM_i_win_open(w, .true., ierr)
      call RPN_COMM_i_win_get_r(w, C_LOC(got), nbx * nby - 1, 0, 1, ierr)
      call RPN_COMM_i_win_close(w, ierr)
      call check(ierr == RPN_COMM_OK .and. got == ((nby - 1) * ly) * pex + (nbx - 1) * lx, &
                 'the last master''s rank through the masters'' window: '//str(got))
      call RPN_COMM_i_win_free(w, ierr)
    else
      call check(ierr == RPN_COMM_ERROR, 'window over BLOCMASTER refused off the masters')
    endif
    ! the same shape again is the same blocks; one that does not divide the grid is refused
    status = RPN_COMM_bloc(nbx, nby)
    call check(status == RPN_COMM_OK, 'RPN_COMM_bloc with the same shape again')
    call expect_size(RPN_COMM_BLOCK, lx * ly)
    status = RPN_COMM_bloc(pex + 1, 1)
    call check(status == RPN_COMM_ERROR, 'RPN_COMM_bloc('//str(pex + 1)//', 1) refused')
    call expect_size(RPN_COMM_BLOCK, lx * ly)
  end subroutine blocks

  ! Collective over the grid: the parts of a split (rows or columns) create their windows over
  ! `com` one after the other. Open MPI 4.1's one-sided components name a window's shared memory
  ! after its communicator's context id, which the parts of one split share, so windows created
  ! at the same moment by two parts on one node may get the same memory (see docs/design.md, MPI
  ! transport). The windows are then used at the same time.
  subroutine create_in_turns(w, n, com, array, part, nparts)
    type(rpncomm_window), intent(OUT) :: w
    integer, intent(IN) :: n, part, nparts
    type(rpncomm_communicator), intent(IN) :: com
    type(C_PTR), intent(IN) :: array
    integer :: k, ierr2
    do k = 0, nparts - 1
      if (k == part) call RPN_COMM_i_win_create(w, dint, n, com, array, ierr)
      call RPN_COMM_barrier(RPN_COMM_GRID, ierr2)
    enddo
  end subroutine create_in_turns

  include 'tutil.inc'
end program test_grid_comms
