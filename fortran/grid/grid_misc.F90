! grid_misc.F90 -- the original's smaller routines of the PE grid: RPN_COMM_qadl (a PE's block of
! an array cut evenly over the grid), RPN_COMM_petopo (the grid made again, another shape) and
! rpn_comm_dummy_init (the Userinit that keeps the grid it is given).
!
! External procedures with the original's names and dummy arguments, converting their arguments
! for the C ABI of the Rust core; their signatures are rows of fortran/routines.toml.

subroutine RPN_COMM_qadl(ipe, ni, nj, i0, in, j0, jn)
  use rpn_comm_grid_binding
  implicit none
  integer, intent(OUT) :: i0, in, j0, jn
  integer, intent(IN) :: ipe, ni, nj
  integer(C_INT), dimension(4) :: b
  b = [1, 0, 1, 0]
  if (rpncomm_qadl(int(ipe, C_INT), int(ni, C_INT), int(nj, C_INT), b) /= 0) b = [1, 0, 1, 0]
  i0 = b(1)
  in = b(2)
  j0 = b(3)
  jn = b(4)
end subroutine RPN_COMM_qadl

! Collective over the job; the module's grid variables (pe_nx, pe_mex, pe_id, ...) follow.
integer function RPN_COMM_petopo(pex, pey)
  use rpn_comm_grid_binding
  use rpn_comm_globals, only: fill_grid_globals
  implicit none
  integer, intent(IN) :: pex, pey
  RPN_COMM_petopo = -1
  if (rpncomm_petopo(int(pex, C_INT), int(pey, C_INT)) /= 0) return
  call fill_grid_globals()
  RPN_COMM_petopo = 0
end function RPN_COMM_petopo

subroutine rpn_comm_dummy_init(Pex, Pey)
  implicit none
  integer, intent(INOUT) :: Pex, Pey
  Pex = Pex
  Pey = Pey
end subroutine rpn_comm_dummy_init

! ================================================================= the original's self-test drivers

! RPN_COMM_limit_2 over npe PEs printed for the original's cases: 13 points from PE 0 with relax
! 0, 1 and 2, from every PE with relax 3, from the last PE with relax 1 (13 points) then 1, 2, 3
! (5 points) and 3 (8 points); then PE 69 of 70 with relax 4 for 209, 199 and 59 points.
subroutine RPN_COMM_test_limit(npe)
  implicit none
  integer, intent(IN) :: npe
  integer, external :: RPN_COMM_limit_2
  integer, dimension(npe) :: count, offset
  integer, dimension(70) :: cnt, off
  integer, dimension(3, 8) :: cases   ! (my_id, gmax, relax); my_id -1: every PE, -2: the last
  integer :: k, id, first, last, lmini, lmaxi, status
  integer, dimension(3), parameter :: big = [209, 199, 59]
  character(len=*), parameter :: f101 = '(A,10I6)', f102 = '(A,10A6)'
  cases = reshape([0, 13, 0, 0, 13, 1, 0, 13, 2, -1, 13, 3, -2, 13, 1, -2, 5, 1, -2, 5, 2, -2, 5, 3], [3, 8])
  do k = 1, 8
    first = cases(1, k)
    last = first
    if (first == -1) then
      first = 0
      last = npe - 1
    else if (first == -2) then
      first = npe - 1
      last = npe - 1
    endif
    if (k <= 4) then
      print f101, 'NPE, gmin, gmax :', npe, 1, cases(2, k)
      print f101, 'relax =', cases(3, k)
    endif
    do id = first, last
      status = RPN_COMM_limit_2(id, npe, 1, cases(2, k), lmini, lmaxi, count, offset, cases(3, k))
      if (k <= 4) then
        print f102, '      ', '   ID', ' mini', ' maxi', ' gmin', ' gmax', ' stat'
        print f101, 'pe_me=', id, lmini, lmaxi, 1, cases(2, k), status
      else
        print f102, '      ', '   ID', ' mini', ' maxi', ' gmin', ' gmax', 'relax', ' stat'
        print f101, 'pe_me=', id, lmini, lmaxi, 1, cases(2, k), cases(3, k), status
      endif
      print f101, 'count=', count
      print f101, 'offst=', offset
      if (k == 4) print *, ''
    enddo
    print *, '---------------------------'
  enddo
  status = RPN_COMM_limit_2(npe - 1, npe, 1, 8, lmini, lmaxi, count, offset, 3)
  print f102, '      ', '   ID', ' mini', ' maxi', ' gmin', ' gmax', 'relax', ' stat'
  print f101, 'pe_me=', npe - 1, lmini, lmaxi, 1, 8, 3, status
  print f101, 'count=', count
  print f101, 'offst=', offset
  print *, '---------------------------'
  do k = 1, 3
    status = RPN_COMM_limit_2(69, 70, 1, big(k), lmini, lmaxi, cnt, off, 4)
    print f102, '      ', '   ID', ' mini', ' maxi', ' gmin', ' gmax', 'relax', ' stat'
    print f101, 'pe_me=', npe - 1, lmini, lmaxi, 1, big(k), 3, status
    print '(A,100I2)', 'count=', cnt
    print f101, 'offst=', off(70)
    print *, '---------------------------'
  enddo
end subroutine RPN_COMM_test_limit

! rpn_comm_create_2dgrid and rpn_comm_get_2dgrid printed on grid PE 0 for 5 grids of growing size
! (ids as made), then for the ids 1 to 5, which are none (refused).
function rpn_comm_2dgrid_test(nparams, params) result(status)
  use rpn_comm_globals, only: pe_nx, pe_ny, pe_me
  implicit none
  integer :: status
  integer, intent(IN) :: nparams
  integer, intent(IN), dimension(nparams) :: params
  integer, external :: rpn_comm_create_2dgrid, rpn_comm_get_2dgrid
  integer, parameter :: lni = 11, lnj = 7, MAGIC = int(Z'13579BDF')
  integer :: gni, gnj, i, st, gni2, gnj2, mini2, maxi2, minj2, maxj2
  integer, dimension(10) :: gid
  integer, dimension(pe_nx + 2) :: starti, counti
  integer, dimension(pe_ny + 2) :: startj, countj
  gni = pe_nx * lni - 7
  gnj = pe_ny * lnj - 5
  do i = 1, 5
    gid(i) = rpn_comm_create_2dgrid(gni, gnj, -1, lni + 3, -2, lnj + 4)
    if (pe_me == 0) print '(A,1x,Z8.8,i8)', 'grid id =', gid(i), ieor(gid(i), MAGIC)
    gni = gni + 1
    gnj = gnj + 1
  enddo
  gid(6:10) = [1, 2, 3, 4, 5]
  do i = 10, 1, -1
    st = rpn_comm_get_2dgrid(gid(i), pe_nx + 2, pe_ny + 2, gni2, gnj2, mini2, maxi2, minj2, maxj2, &
                             starti, counti, startj, countj)
    if (pe_me /= 0) cycle
    if (st == 0) then
      print '(A,1x,20i4)', 'i,gni2,gnj2,mini2,maxi2,minj2,maxj2', i, gni2, gnj2, mini2, maxi2, minj2, maxj2
      print '(A,1x,20i4)', '                              starti', starti(1:pe_nx)
      print '(A,1x,20i4)', '                              counti', counti(1:pe_nx)
      print '(A,1x,20i4)', '                              startj', startj(1:pe_ny)
      print '(A,1x,20i4)', '                              countj', countj(1:pe_ny)
      print '(A,1x,Z8.8,i8)', 'SUCCESS: id =', gid(i), ieor(gid(i), MAGIC)
    else
      print '(A,1x,Z8.8,i8)', 'ERROR: id, status =', gid(i), st
    endif
    print *, ''
  enddo
  status = 0 * sum(params(1:min(nparams, 0)))
end function rpn_comm_2dgrid_test
