! halo_variants_side_by_side.F90 -- the original's halo variants, built against the original
! RPN_COMM and against this library by side_by_side.sh, which compares what they print: the short
! entries xch_halo, adj_halo, adj_halo4, adj_halo8, then RPN_COMM_xch_haloew (some rows),
! RPN_COMM_xch_halons (the x halos travelling with the rows), RPN_COMM_haloflip (both poles),
! RPN_COMM_xch_haloxn (real*8), RPN_COMM_adj_halox, RPN_COMM_xch_halosl, RPN_COMM_propagate_boundary
! and _circular, RPN_COMM_swapns (not the table of
! valid halo widths, rpn_comm_get/set/inc_valid_halo: 4.6.3's reads one entry past the end of its
! table whenever it looks for an array it does not hold, and crashes there). Each PE prints every point of its arrays after
! each call, halos and padding included, as bits; periodic and not in each direction; uneven parts
! (the first column of PEs is one wider). No include: implicit interfaces, as the original's
! callers use them.
program halo_variants_side_by_side
  implicit none
  integer :: me, npes, pex, pey, mex, mey, status, ierr, p
  integer, external :: RPN_COMM_mype
  external :: RPN_COMM_init, RPN_COMM_finalize, variants_grid

  pex = 0
  pey = 0
  call RPN_COMM_init(variants_grid, me, npes, pex, pey)
  status = RPN_COMM_mype(me, mex, mey)
  do p = 0, 3
    call short_entries(btest(p, 0), btest(p, 1), 100 + p)
    call one_direction(btest(p, 0), btest(p, 1), 200 + p)
    call haloxn(btest(p, 0), btest(p, 1), 300 + p)
    call adj_halox(btest(p, 0), btest(p, 1), 400 + p)
  enddo
  call haloflip(1, 1, 500)
  call haloflip(2, 2, 501)
  call halosl(.true., 600)
  call halosl(.false., 601)
  call boundary(.false., 800)
  call boundary(.true., 801)
  call swapns(.false., 900)
  call swapns(.true., 901)
  call RPN_COMM_finalize(ierr)
contains
  integer function value4(i, j, k)
    integer, intent(IN) :: i, j, k
    value4 = me * 100000 + (i + 10) * 1000 + (j + 10) * 10 + k
  end function value4

  real(8) function initial(i, j, k)
    integer, intent(IN) :: i, j, k
    initial = (me * 1009 + (i + 3) * 7.31d0 + (j + 3) * 0.137d0 + k) / 3.0d0
  end function initial

  subroutine print4(g, tag)
    integer, intent(IN) :: g(:,:,:)
    integer, intent(IN) :: tag
    integer :: i, j, k
    do k = 1, size(g, 3)
      do j = 1, size(g, 2)
        do i = 1, size(g, 1)
          write(*, '(A,I0,A,I0,3(A,I0),A,Z8.8)') 'pe ', me, ' case ', tag, ' ', i, ' ', j, ' ', k, ' ', g(i, j, k)
        enddo
      enddo
    enddo
  end subroutine print4

  subroutine print8(g, tag)
    real(8), intent(IN) :: g(:,:,:)
    integer, intent(IN) :: tag
    integer :: i, j, k
    do k = 1, size(g, 3)
      do j = 1, size(g, 2)
        do i = 1, size(g, 1)
          write(*, '(A,I0,A,I0,3(A,I0),A,Z16.16)') 'pe ', me, ' case ', tag, ' ', i, ' ', j, ' ', k, ' ', g(i, j, k)
        enddo
      enddo
    enddo
  end subroutine print8

  ! xch_halo (integer), adj_halo and adj_halo4 (real*4), adj_halo8 (real*8): halos 2 x 1
  subroutine short_entries(px, py, tag)
    logical, intent(IN) :: px, py
    integer, intent(IN) :: tag
    integer, allocatable :: gi(:,:,:)
    real(4), allocatable :: g4(:,:,:), h4(:,:,:)
    real(8), allocatable :: g8(:,:,:)
    integer :: ni, nj, i, j, k
    integer, parameter :: hx = 2, hy = 1
    ni = 4 + merge(1, 0, mex == 0)
    nj = 3
    allocate(gi(-hx:ni + hx + 1, -hy:nj + hy + 1, 2), g4(-hx:ni + hx + 1, -hy:nj + hy + 1, 2))
    allocate(h4(-hx:ni + hx + 1, -hy:nj + hy + 1, 2), g8(-hx:ni + hx + 1, -hy:nj + hy + 1, 2))
    do k = 1, 2
      do j = -hy, nj + hy + 1
        do i = -hx, ni + hx + 1
          gi(i, j, k) = value4(i, j, k)
          g8(i, j, k) = initial(i, j, k)
          g4(i, j, k) = real(g8(i, j, k), 4)
          h4(i, j, k) = real(g8(i, j, k), 4)
        enddo
      enddo
    enddo
    ! 4.6.3's entry xch_halo reads npol_row, which it does not have, when periody: it crashes
    if (.not. py) call xch_halo(gi, -hx, ni + hx + 1, -hy, nj + hy + 1, ni, nj, 2, hx, hy, px, py)
    call adj_halo(g4, -hx, ni + hx + 1, -hy, nj + hy + 1, ni, nj, 2, hx, hy, px, py)
    call adj_halo4(h4, -hx, ni + hx + 1, -hy, nj + hy + 1, ni, nj, 2, hx, hy, px, py)
    call adj_halo8(g8, -hx, ni + hx + 1, -hy, nj + hy + 1, ni, nj, 2, hx, hy, px, py)
    ! the corners beyond a non-periodic x edge: 4.6.3 copies the neighbour's halo there, where
    ! the library leaves them (docs/halo.md, what an exchange writes)
    if (.not. px) then
      gi(-hx:0, -hy:0, :) = 0
      gi(-hx:0, nj + 1:nj + hy + 1, :) = 0
      gi(ni + 1:ni + hx + 1, -hy:0, :) = 0
      gi(ni + 1:ni + hx + 1, nj + 1:nj + hy + 1, :) = 0
    endif
    call print4(gi, tag)
    call print4(reshape(transfer(g4, [0], size(gi)), shape(gi)), tag + 10)
    call print4(reshape(transfer(h4, [0], size(gi)), shape(gi)), tag + 20)
    call print8(g8, tag + 30)
  end subroutine short_entries

  ! RPN_COMM_xch_haloew on rows 2..nj (halox 2), then RPN_COMM_xch_halons (haloy 2) on a fresh
  ! array whose x halos hold marks of their own
  subroutine one_direction(px, py, tag)
    logical, intent(IN) :: px, py
    integer, intent(IN) :: tag
    integer, allocatable :: g(:,:,:), f(:,:,:)
    integer :: ni, nj, i, j, k
    integer, parameter :: hx = 2, hy = 2
    ni = 4 + merge(1, 0, mex == 0)
    nj = 4
    allocate(g(-hx:ni + hx + 1, -hy:nj + hy + 1, 2), f(-hx:ni + hx + 1, -hy:nj + hy + 1, 2))
    do k = 1, 2
      do j = -hy, nj + hy + 1
        do i = -hx, ni + hx + 1
          g(i, j, k) = value4(i, j, k)
          f(i, j, k) = value4(i, j, k) + 7000000
        enddo
      enddo
    enddo
    call RPN_COMM_xch_haloew(g, -hx, ni + hx + 1, -hy, nj + hy + 1, ni, 2, nj, 2, hx, hy, px, py)
    call print4(g, tag)
    call RPN_COMM_xch_halons(f, -hx, ni + hx + 1, -hy, nj + hy + 1, ni, nj, 2, hx, hy, px, py)
    call print4(f, tag + 10)
  end subroutine one_direction

  ! RPN_COMM_xch_haloxn, n = 2 (real*8): the part into an array with halos 2 x 2
  subroutine haloxn(px, py, tag)
    logical, intent(IN) :: px, py
    integer, intent(IN) :: tag
    real(8), allocatable :: g(:,:,:), g2(:,:,:)
    integer :: ni, nj, i, j, k
    ni = 4 + merge(1, 0, mex == 0)
    nj = 3
    allocate(g(0:ni + 1, 0:nj + 1, 2), g2(-2:ni + 3, -2:nj + 2, 2))
    do k = 1, 2
      do j = 0, nj + 1
        do i = 0, ni + 1
          g(i, j, k) = initial(i, j, k)
        enddo
      enddo
      do j = -2, nj + 2
        do i = -2, ni + 3
          g2(i, j, k) = -initial(i, j, k)
        enddo
      enddo
    enddo
    call RPN_COMM_xch_haloxn(g, 0, ni + 1, 0, nj + 1, ni, nj, 2, 2, 2, px, py, &
                             g2, -2, ni + 3, -2, nj + 2, ni, 0, 2)
    ! the corners beyond a non-periodic x edge, as in short_entries
    if (.not. px) then
      g2(-2:0, -2:0, :) = 0
      g2(-2:0, nj + 1:nj + 2, :) = 0
      g2(ni + 1:ni + 3, -2:0, :) = 0
      g2(ni + 1:ni + 3, nj + 1:nj + 2, :) = 0
    endif
    call print8(g, tag)
    call print8(g2, tag + 10)
  end subroutine haloxn

  ! RPN_COMM_adj_halox: real*4, g2 with halos 1 x 2
  subroutine adj_halox(px, py, tag)
    logical, intent(IN) :: px, py
    integer, intent(IN) :: tag
    real(4), allocatable :: g(:,:,:), g2(:,:,:)
    integer, allocatable :: bits(:,:,:)
    integer :: ni, nj, i, j, k
    ni = 4 + merge(1, 0, mex == 0)
    nj = 3
    allocate(g(0:ni + 1, 0:nj + 1, 2), g2(-1:ni + 2, -2:nj + 2, 2))
    do k = 1, 2
      do j = 0, nj + 1
        do i = 0, ni + 1
          g(i, j, k) = real(initial(i, j, k) + 50, 4)
        enddo
      enddo
      do j = -2, nj + 2
        do i = -1, ni + 2
          g2(i, j, k) = real(initial(i, j, k), 4)
        enddo
      enddo
    enddo
    call RPN_COMM_adj_halox(g, 0, ni + 1, 0, nj + 1, ni, nj, 2, 1, 2, px, py, &
                            g2, -1, ni + 2, -2, nj + 2, ni, 0)
    allocate(bits(0:ni + 1, 0:nj + 1, 2))
    bits = reshape(transfer(g, [0], size(g)), shape(g))
    call print4(bits, tag)
    deallocate(bits)
    allocate(bits(-1:ni + 2, -2:nj + 2, 2))
    bits = reshape(transfer(g2, [0], size(g2)), shape(g2))
    call print4(bits, tag + 10)
  end subroutine adj_halox

  ! RPN_COMM_haloflip: parts of RPN_COMM_limit's decomposition of gni = 12, array as the
  ! original's own test makes it (one more point than the halo on each side). Even parts: 4.6.3
  ! passes each PE's whole rows round the pole row, its receive sized by the receiver's own
  ! width (uneven parts end in MPI_ERR_TRUNCATE)
  subroutine haloflip(hx, hy, tag)
    integer, intent(IN) :: hx, hy, tag
    integer, allocatable :: g(:,:,:)
    integer :: ni, nj, i, j, k, lmin, lmax
    integer :: count(pex), offset(pex)
    integer, external :: RPN_COMM_limit
    integer, parameter :: gni = 12
    status = RPN_COMM_limit(mex, pex, 1, gni, lmin, lmax, count, offset)
    ni = count(mex + 1)
    nj = 3
    allocate(g(-hx:ni + hx + 1, -hy:nj + hy + 1, 2))
    do k = 1, 2
      do j = -hy, nj + hy + 1
        do i = -hx, ni + hx + 1
          g(i, j, k) = value4(i + lmin - 1, j, k)
        enddo
      enddo
    enddo
    call RPN_COMM_haloflip(g, -hx, ni + hx + 1, -hy, nj + hy + 1, ni, nj, 2, hx, hy, gni)
    call print4(g, tag)
  end subroutine haloflip

  ! RPN_COMM_xch_halosl: each PE of a row gets the whole row (gni = 11, nimax from
  ! RPN_COMM_limit), then with periodx the halos beyond 1..gni wrap around
  subroutine halosl(px, tag)
    logical, intent(IN) :: px
    integer, intent(IN) :: tag
    integer, allocatable :: g(:,:,:)
    integer :: ni, nj, i, j, k, lmin, lmax, nimax
    integer :: count(pex), offset(pex)
    integer, external :: RPN_COMM_limit
    integer, parameter :: gni = 11, hx = 2, hy = 1
    status = RPN_COMM_limit(mex, pex, 1, gni, lmin, lmax, count, offset)
    ni = count(mex + 1)
    nimax = count(1)
    nj = 2
    allocate(g(1 - hx:gni + hx, 1 - hy:nj + hy, 2))
    do k = 1, 2
      do j = 1 - hy, nj + hy
        do i = 1 - hx, gni + hx
          g(i, j, k) = value4(i, j, k)
        enddo
      enddo
    enddo
    call RPN_COMM_xch_halosl(g, 1 - hx, gni + hx, 1 - hy, nj + hy, ni, nj, 2, hx, hy, px, .false., gni, 0, nimax)
    call print4(g, tag)
  end subroutine halosl

  ! RPN_COMM_propagate_boundary and _circular: halos 2 x 1, every point distinct
  subroutine boundary(circular, tag)
    logical, intent(IN) :: circular
    integer, intent(IN) :: tag
    integer, allocatable :: f(:,:,:)
    integer :: ni, nj, i, j, k
    integer, parameter :: hx = 2, hy = 1
    ni = 4 + merge(1, 0, mex == 0)
    nj = 3
    allocate(f(-hx:ni + hx + 1, -hy:nj + hy + 1, 2))
    do k = 1, 2
      do j = -hy, nj + hy + 1
        do i = -hx, ni + hx + 1
          f(i, j, k) = value4(i, j, k)
        enddo
      enddo
    enddo
    if (circular) then
      call RPN_COMM_propagate_boundary_circular(f, -hx, ni + hx + 1, -hy, nj + hy + 1, ni, nj, 2, hx, hy)
    else
      call RPN_COMM_propagate_boundary(f, -hx, ni + hx + 1, -hy, nj + hy + 1, ni, nj, 2, hx, hy)
    endif
    call print4(f, tag)
  end subroutine boundary
  ! RPN_COMM_swapns: a different number of words from each PE, each word naming its sender
  subroutine swapns(py, tag)
    logical, intent(IN) :: py
    integer, intent(IN) :: tag
    integer :: wden(8), wdes(8), wdin(10), wdis(10), nwen, nwes, nwrn, nwrs, st, i
    nwen = 2 + mod(me, 5)
    nwes = 7 - mod(me, 4)
    do i = 1, 8
      wden(i) = me * 1000 + 100 + i
      wdes(i) = me * 1000 + 500 + i
    enddo
    wdin = -1
    wdis = -1
    nwrn = 0
    nwrs = 0
    call RPN_COMM_swapns(nwen, wden, nwes, wdes, 10, nwrn, wdin, 10, nwrs, wdis, py, st)
    write(*, '(A,I0,A,I0,A,2(1X,I0),A,10(1X,I0),A,10(1X,I0))') 'pe ', me, ' case ', tag, ' counts', nwrn, nwrs, &
      ' from north', wdin, ' from south', wdis
  end subroutine swapns
end program halo_variants_side_by_side

! 2 PEs: 2 x 1, 4: 2 x 2, 6: 3 x 2
subroutine variants_grid(px, py)
  implicit none
  integer, intent(INOUT) :: px, py
  integer :: n
  n = px * py
  select case (n)
  case (4)
    px = 2
    py = 2
  case (6)
    px = 3
    py = 2
  case default
    px = n
    py = 1
  end select
end subroutine variants_grid
