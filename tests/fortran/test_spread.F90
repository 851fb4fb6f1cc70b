! PES: 1 2 4 6
! TIMEOUT: 60
! ENV: RPNCOMM_CHECK_COLLECTIVES=each
! OUTPUT_HAS@2: RPN_COMM_spread: PE 0: collective call inconsistent across PEs: PE 1 is in RPN_COMM_barrier while PE 0 is in RPN_COMM_spread
! OUTPUT_HAS@2: RPN_COMM_barrier: PE 1: collective call inconsistent across PEs: PE 0 is in RPN_COMM_spread while PE 1 is in RPN_COMM_barrier
!
! RPN_COMM_spread_context and RPN_COMM_spread (include 'RPN_COMM.inc', called as GEM-MACH's
! chemistry calls them: the PEs other than the root pass a 1-element pe and a 1 x 1 source) against
! their definition: every point i of the root's table source(npts, ndata) with pe(i) >= 0 reaches
! PE pe(i), the points of a PE in their order in the table, as dest(ndata, npoints); points with
! pe(i) < 0 reach nobody; the result is the number of points received. Checked:
! - a context from root 0 and one from the last PE, tables of 3 and 2 values per point spread with
!   the same context, dest allocated by the call (not associated) or given (associated, right
!   shape); a PE that receives no point gets dest(ndata, 1) and result 0;
! - refusals, on every PE together (result -1, one line each): a destination past the last PE
!   (the context is then null), a dest of the wrong shape on one PE, npts other than the
!   context's on the root, the last PE in RPN_COMM_barrier while the others spread (the line names
!   both routines); the context works afterwards.
program test_spread
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, nerr
  integer, parameter :: NPTS = 23
  type(rpncomm_context) :: first, last
  integer :: st

  call start('test_spread')
  first = NULL_rpncomm_context
  last = NULL_rpncomm_context
  call section('contexts')
  call make(first, 0, st)
  call check(st == 0 .and. .not. RPN_COMM_is_null(first), 'context from root 0')
  call make(last, npes - 1, st)
  call check(st == 0 .and. .not. RPN_COMM_is_null(last), 'context from the last PE')
  call section('spreads')
  call spread(first, 0, 3, .false.)
  call spread(first, 0, 2, .true.)
  call spread(last, npes - 1, 3, .false.)
  call section('refusals')
  call refusals()
  call finish('test_spread')
contains
  ! the destination of point i
  integer function dest_of(i)
    integer, intent(IN) :: i
    dest_of = mod(i * 7, npes + 1) - 1
  end function dest_of

  real function value_of(i, j)
    integer, intent(IN) :: i, j
    value_of = real(1000 * i + j)
  end function value_of

  subroutine make(contxt, root, st)
    type(rpncomm_context), intent(OUT) :: contxt
    integer, intent(IN) :: root
    integer, intent(OUT) :: st
    integer, allocatable :: pe(:)
    integer :: i
    if (me == root) then
      allocate(pe(NPTS))
      do i = 1, NPTS
        pe(i) = dest_of(i)
      enddo
      st = RPN_COMM_spread_context(contxt, 'GRID', root, pe, NPTS)
    else
      allocate(pe(1))
      pe = 99
      st = RPN_COMM_spread_context(contxt, 'GRID', root, pe, 0)
    endif
  end subroutine make

  subroutine spread(contxt, root, ndata, given)
    type(rpncomm_context), intent(IN) :: contxt
    integer, intent(IN) :: root, ndata
    logical, intent(IN) :: given
    real, allocatable :: source(:,:)
    real, dimension(:,:), pointer :: dest
    integer :: i, j, n, expected, got
    character(len=64) :: tag
    write(tag, '(A,I0,A,I0,A,L1)') 'root ', root, ', ndata ', ndata, ', dest given ', given
    expected = count([(dest_of(i) == me, i = 1, NPTS)])
    nullify(dest)
    if (given) allocate(dest(ndata, max(1, expected)))
    if (me == root) then
      allocate(source(NPTS, ndata))
      do j = 1, ndata
        do i = 1, NPTS
          source(i, j) = value_of(i, j)
        enddo
      enddo
      got = RPN_COMM_spread(contxt, source, NPTS, ndata, dest)
    else
      allocate(source(1, 1))
      source = -1.0
      got = RPN_COMM_spread(contxt, source, 0, ndata, dest)
    endif
    call check(got == expected, trim(tag)//': '//str(got)//' points, expected '//str(expected))
    call check(associated(dest), trim(tag)//': dest associated')
    if (.not. associated(dest)) return
    call check(size(dest, 1) == ndata .and. size(dest, 2) == max(1, expected), trim(tag)//': dest''s shape')
    n = 0
    do i = 1, NPTS
      if (dest_of(i) /= me) cycle
      n = n + 1
      if (n > size(dest, 2)) exit
      do j = 1, ndata
        call check(dest(j, n) == value_of(i, j), trim(tag)//': point '//str(n)//' value '//str(j)// &
                   ' is '//strd(real(dest(j, n), 8))//', expected '//strd(real(value_of(i, j), 8)))
      enddo
    enddo
    deallocate(dest)
  end subroutine spread

  subroutine refusals()
    type(rpncomm_context) :: bad
    integer, dimension(3) :: pe
    real, dimension(NPTS, 2) :: source
    real, dimension(:,:), pointer :: dest
    integer :: st, npts_here, expected, i
    source = 1.0
    pe = [0, npes, -1]
    bad = NULL_rpncomm_context
    st = RPN_COMM_spread_context(bad, 'GRID', 0, pe, merge(3, 0, me == 0))
    call check(st == -1 .and. RPN_COMM_is_null(bad), 'a destination past the last PE: refused, null context')
    ! dest of the wrong shape on the last PE only: every PE refuses
    expected = count([(dest_of(i) == me, i = 1, NPTS)])
    allocate(dest(2, max(1, expected) + merge(1, 0, me == npes - 1)))
    npts_here = merge(NPTS, 0, me == 0)
    st = RPN_COMM_spread(first, source, npts_here, 2, dest)
    call check(st == -1, 'dest of the wrong shape on PE '//str(npes - 1)//': refused everywhere, got '//str(st))
    deallocate(dest)
    ! npts not the context's on the root
    nullify(dest)
    npts_here = merge(NPTS - 1, 0, me == 0)
    st = RPN_COMM_spread(first, source, npts_here, 2, dest)
    call check(st == -1, 'npts other than the context''s on the root: refused everywhere, got '//str(st))
    if (associated(dest)) deallocate(dest)
    ! the last PE in another collective
    if (npes > 1) then
      nullify(dest)
      if (me == npes - 1) then
        call RPN_COMM_barrier(RPN_COMM_GRID, st)
        call check(st == RPN_COMM_ERROR, 'RPN_COMM_barrier against the others'' spread: refused, got '//str(st))
      else
        npts_here = merge(NPTS, 0, me == 0)
        st = RPN_COMM_spread(first, source, npts_here, 2, dest)
        call check(st == -1, 'spread against the last PE''s barrier: refused, got '//str(st))
      endif
      if (associated(dest)) deallocate(dest)
    endif
    ! the context still works after the refusals
    call spread(first, 0, 2, .false.)
  end subroutine refusals

  include 'tutil.inc'
end program test_spread
