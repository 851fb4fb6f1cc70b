! PES: 1 3 4
! TIMEOUT: 120
!
! test_halo's exchanges (tests/fortran/halo_check.inc) on the packed path: with
! RPNCOMM_USER_ARRAYS=staged (set here before RPN_COMM_init) no window is the caller's array
! itself, so every exchange packs its faces into an internal window and the neighbours get them
! from there into their halos. Every point is compared with the independent reference.
program test_halo_packed
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr, pex, pey, mex, mey, status
  integer, allocatable :: module_array(:,:,:)
  interface
    integer(C_INT) function setenv(name, value, overwrite) bind(C, name='setenv')
      import :: C_CHAR, C_INT
      character(kind=C_CHAR), dimension(*), intent(IN) :: name, value
      integer(C_INT), value :: overwrite
    end function setenv
  end interface

  nerr = 0
  pex = 0
  pey = 0
  status = setenv('RPNCOMM_USER_ARRAYS'//C_NULL_CHAR, 'staged'//C_NULL_CHAR, 1_C_INT)
  call RPN_COMM_init(grid_shape, me, npes, pex, pey)
  status = RPN_COMM_mype(me, mex, mey)
  call section('every halo width and periodicity, packed')
  call all_exchanges()
  call section('real*8 through RPN_COMM_xch_halon, packed')
  call real8_exchange()
  call finish('test_halo_packed')
contains
  subroutine grid_shape(px, py)
    integer, intent(INOUT) :: px, py
    integer :: n
    n = px * py
    px = n
    if (n >= 4 .and. mod(n, 2) == 0) px = n / 2
    py = n / px
  end subroutine grid_shape

  include 'halo_check.inc'
  include 'tutil.inc'
end program test_halo_packed
