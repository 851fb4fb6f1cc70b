! adj_halo_side_by_side.F90 -- RPN_COMM_adj_halo8 and RPN_COMM_adj_halo4 as MIDAS calls them, built
! against the original RPN_COMM and against this library by side_by_side.sh, which compares what they
! print. No include: the routines are called through implicit interfaces, as in the original (it
! declares none for them). Each PE prints every point of its array after each call, halos and
! padding included, as the bits of the value: values are not integers, so that any other order of
! the sums, or a halo point changed otherwise, shows. Cases: periodic in neither, one or both
! directions, halos 1 x 1 and 2 x 1 (real*8), 1 x 2 (real*4); parts of 5 x 4 and 4 x 4 points
! (uneven: the first column of PEs is one wider).
program adj_halo_side_by_side
  implicit none
  integer :: me, npes, pex, pey, mex, mey, status, ierr, p
  integer, external :: RPN_COMM_mype
  external :: RPN_COMM_init, RPN_COMM_finalize, adj_side_grid

  pex = 0
  pey = 0
  call RPN_COMM_init(adj_side_grid, me, npes, pex, pey)
  status = RPN_COMM_mype(me, mex, mey)
  do p = 0, 3
    call case8(1, 1, btest(p, 0), btest(p, 1), p)
    call case8(2, 1, btest(p, 0), btest(p, 1), 10 + p)
    call case4(1, 2, btest(p, 0), btest(p, 1), 20 + p)
  enddo
  call RPN_COMM_finalize(ierr)
contains
  real(8) function initial(i, j, k)
    integer, intent(IN) :: i, j, k
    initial = (me * 1009 + (i + 3) * 7.31d0 + (j + 3) * 0.137d0 + k) / 3.0d0
  end function initial

  subroutine case8(hx, hy, px, py, tag)
    integer, intent(IN) :: hx, hy, tag
    logical, intent(IN) :: px, py
    real(8), allocatable :: g(:,:,:)
    integer :: ni, nj, i, j, k
    ni = 4 + merge(1, 0, mex == 0)
    nj = 4
    allocate(g(-hx:ni + hx + 1, -hy:nj + hy + 1, 2))
    do k = 1, 2
      do j = -hy, nj + hy + 1
        do i = -hx, ni + hx + 1
          g(i, j, k) = initial(i, j, k)
        enddo
      enddo
    enddo
    call RPN_COMM_adj_halo8(g, -hx, ni + hx + 1, -hy, nj + hy + 1, ni, nj, 2, hx, hy, px, py, ni, 0)
    do k = 1, 2
      do j = -hy, nj + hy + 1
        do i = -hx, ni + hx + 1
          write(*, '(A,I0,A,I0,3(A,I0),A,Z16.16)') 'pe ', me, ' case ', tag, ' ', i, ' ', j, ' ', k, ' ', g(i, j, k)
        enddo
      enddo
    enddo
  end subroutine case8

  subroutine case4(hx, hy, px, py, tag)
    integer, intent(IN) :: hx, hy, tag
    logical, intent(IN) :: px, py
    real(4), allocatable :: g(:,:,:)
    integer :: ni, nj, i, j, k
    ni = 4 + merge(1, 0, mex == 0)
    nj = 4
    allocate(g(-hx:ni + hx + 1, -hy:nj + hy + 1, 2))
    do k = 1, 2
      do j = -hy, nj + hy + 1
        do i = -hx, ni + hx + 1
          g(i, j, k) = real(initial(i, j, k), 4)
        enddo
      enddo
    enddo
    call RPN_COMM_adj_halo4(g, -hx, ni + hx + 1, -hy, nj + hy + 1, ni, nj, 2, hx, hy, px, py, ni, 0)
    do k = 1, 2
      do j = -hy, nj + hy + 1
        do i = -hx, ni + hx + 1
          write(*, '(A,I0,A,I0,3(A,I0),A,Z8.8)') 'pe ', me, ' case ', tag, ' ', i, ' ', j, ' ', k, ' ', g(i, j, k)
        enddo
      enddo
    enddo
  end subroutine case4
end program adj_halo_side_by_side

! 2 PEs: 2 x 1, 4: 2 x 2, 6: 3 x 2
subroutine adj_side_grid(px, py)
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
end subroutine adj_side_grid
