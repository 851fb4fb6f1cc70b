! PES: 1 2 4 6
! TIMEOUT: 120
!
! RPN_COMM_xch_halo as a model's time loop calls it: the same arrays exchanged step after step
! with new values each time (the exchange keeps a window over each array between calls and must
! never serve stale values), two fields taken in turn, an array deallocated and allocated again
! (at the same address or not, large enough for the C library to map it on its own), and an
! array on the stack (a fixed-size local of a recursive procedure), which cannot be shared.
! Every point is compared with a reference computed from global indices and the step.
program test_halo_reuse
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer, parameter :: nk = 3, h = 2, nper = 120
  integer :: me, npes, nerr, pex, pey, mex, mey, status
  integer :: gni, gnj, ni, nj, i0, j0, lmax, step
  integer, allocatable :: u(:,:,:), v(:,:,:), cx(:), ox(:), cy(:), oy(:)
  interface
    ! glibc: a fixed threshold from which allocations are mappings of their own (M_MMAP_THRESHOLD)
    integer(C_INT) function mallopt(param, value) bind(C, name='mallopt')
      import :: C_INT
      integer(C_INT), value :: param, value
    end function mallopt
  end interface

  nerr = 0
  pex = 0
  pey = 0
  ! every array below is then mapped on its own, and one freed and allocated again usually
  ! comes back at the same address on new pages: the case a kept window must notice
  status = mallopt(-3_C_INT, 65536_C_INT)
  call RPN_COMM_init(grid_shape, me, npes, pex, pey)
  status = RPN_COMM_mype(me, mex, mey)
  allocate(cx(pex), ox(pex), cy(pey), oy(pey))
  gni = nper * pex - 1
  gnj = nper * pey - 3
  status = RPN_COMM_limit(mex, pex, 1, gni, i0, lmax, cx, ox)
  ni = cx(mex + 1)
  status = RPN_COMM_limit(mey, pey, 1, gnj, j0, lmax, cy, oy)
  nj = cy(mey + 1)

  call section('the same two arrays, new values every step')
  allocate(u(1 - h:ni + h, 1 - h:nj + h, nk), v(1 - h:ni + h, 1 - h:nj + h, nk))
  do step = 1, 6
    call exchange_and_check(u, step, 'u')
    call exchange_and_check(v, 100 + step, 'v')
    call exchange_and_check(u, 200 + step, 'u again')
  enddo
  call section('an array deallocated and allocated again between steps')
  do step = 1, 6
    deallocate(u)
    allocate(u(1 - h:ni + h, 1 - h:nj + h, nk))
    call exchange_and_check(u, 300 + step, 'u reallocated')
    call exchange_and_check(v, 400 + step, 'v')
  enddo
  call section('an array on the stack, then the heap arrays again')
  do step = 1, 3
    call on_stack(500 + step)
    call exchange_and_check(u, 600 + step, 'u after the stack array')
  enddo
  deallocate(u, v)
  call finish('test_halo_reuse')
contains
  subroutine grid_shape(px, py)
    integer, intent(INOUT) :: px, py
    integer :: n
    n = px * py
    px = n
    if (n >= 4 .and. mod(n, 2) == 0) px = n / 2
    py = n / px
  end subroutine grid_shape

  ! a fixed-size local of a recursive procedure lives on the stack (bounds wider than the halo)
  recursive subroutine on_stack(s)
    integer, intent(IN) :: s
    integer :: g(1 - h:nper + h, 1 - h:nper + h, nk)
    call exchange_and_check(g, s, 'stack array')
  end subroutine on_stack

  include 'halo_step_check.inc'
  include 'tutil.inc'
end program test_halo_reuse
