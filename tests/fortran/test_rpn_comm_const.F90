! PES: 1 2 3 4
! TIMEOUT: 60
! OUTPUT_HAS@3: constnt tables have been distributed
!
! RPN_COMM_const with stand-ins of librmn's CONSTNT and CONSTNT_X defined here (the library's
! object of RPN_COMM_const calls librmn's, which a program links itself): CONSTNT is called on the
! grid's first PE only, with the name 'DUMMY' and mode 0, before CONSTNT_X; CONSTNT_X gets 'DUMMY',
! mode 4, root 0, the grid's communicator (pe_defcomm) and the integer datatype, and broadcasts
! its table with the routine it is given, as librmn's does: every PE ends with PE 0's table, and
! RPN_COMM_const's IER is the broadcast's status.
module constnt_stand_in
  implicit none
  integer, parameter :: ntable = 37
  integer :: table(ntable) = 0
  integer :: primed = 0, distributed = 0
  integer :: got_mode = -1, got_root = -1, got_comm = -2, got_datatype = -2
  character(len=8) :: got_name = ' '
end module constnt_stand_in

program test_rpn_comm_const
  use ISO_C_BINDING
  use constnt_stand_in
  use rpn_comm_globals, only: pe_defcomm
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, nerr
  integer :: pex, pey, ier, k
  external :: const_grid

  nerr = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(const_grid, me, npes, pex, pey)
  ier = -99
  call RPN_COMM_const(ier)
  call check(ier == RPN_COMM_OK, 'IER is the broadcast''s status, got '//str(ier))
  if (me == 0) then
    call check(primed == 1, 'CONSTNT called once on PE 0, got '//str(primed))
  else
    call check(primed == 0, 'CONSTNT not called on other PEs, got '//str(primed))
  end if
  call check(distributed == 1, 'CONSTNT_X called once on every PE, got '//str(distributed))
  call check(got_name == 'DUMMY' .and. got_mode == 4 .and. got_root == 0, &
      'CONSTNT_X gets DUMMY, mode 4, root 0: '//trim(got_name)//' '//str(got_mode)//' '//str(got_root))
  call check(got_comm == pe_defcomm .and. got_comm == RPN_COMM_comm('GRID'), &
      'CONSTNT_X gets the grid''s communicator, got '//str(got_comm))
  call check(got_datatype == RPN_COMM_datyp('MPI_INTEGER'), 'CONSTNT_X gets the integer datatype, got '//str(got_datatype))
  call check(all(table == [(1000 + 3 * k, k = 1, ntable)]), 'every PE holds PE 0''s table')
  call finish('test_rpn_comm_const')
contains
  include 'tutil.inc'
end program test_rpn_comm_const

subroutine const_grid(px, py)
  use ISO_C_BINDING
  implicit none
  integer, intent(INOUT) :: px, py
  integer :: ierr
  include 'RPN_COMM.inc'
  call RPN_COMM_size(RPN_COMM_WORLD, px, ierr)
  py = 1
end subroutine const_grid

! librmn's first call loads its tables; this one fills a table only PE 0 has
subroutine CONSTNT(valeur, flag, nom, mode)
  use constnt_stand_in
  implicit none
  real, intent(INOUT) :: valeur
  integer, intent(INOUT) :: flag
  character(len=*), intent(IN) :: nom
  integer, intent(IN) :: mode
  integer :: k
  if (nom /= 'DUMMY' .or. mode /= 0 .or. distributed /= 0) error stop 'CONSTNT called other than to prime'
  primed = primed + 1
  table = [(1000 + 3 * k, k = 1, ntable)]
  valeur = 0.0
  flag = 0
end subroutine CONSTNT

! mode 4: the table from `root` to every PE of `comm`, through `bcast` (MPI_BCAST's form)
subroutine CONSTNT_X(valeur, flag, nom, mode, bcast, datatype, root, comm, ierr)
  use constnt_stand_in
  implicit none
  real, intent(INOUT) :: valeur
  integer, intent(INOUT) :: flag
  character(len=*), intent(IN) :: nom
  integer, intent(IN) :: mode, datatype, root, comm
  integer, intent(OUT) :: ierr
  external :: bcast
  integer :: n(1)
  distributed = distributed + 1
  got_name = nom
  got_mode = mode
  got_root = root
  got_comm = comm
  got_datatype = datatype
  n(1) = ntable
  call bcast(n, 1, datatype, root, comm, ierr)
  if (ierr /= 0 .or. n(1) /= ntable) return
  call bcast(table, n(1), datatype, root, comm, ierr)
  valeur = 0.0
  flag = 0
end subroutine CONSTNT_X
