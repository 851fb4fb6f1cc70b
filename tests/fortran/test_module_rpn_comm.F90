! PES: 1 2 3 4 6
! TIMEOUT: 60
!
! A program written for the original RPN_COMM 4.6.10 to 4.6.12: `use rpn_comm` gives the PE
! grid's variables (module rpn_comm_globals), the constants and the explicit interfaces of
! RPN_COMM_interfaces.hf, and no MPI name. Checks every variable after RPN_COMM_init against the
! library's calls (module_globals.inc), then calls through the module's interfaces, a buffer of
! another type and rank included. The communicator variables are RPN_COMM_comm's handles with MPI,
! -1 without.
program test_module_rpn_comm
  use rpn_comm
  implicit none
  integer :: me, npes, nerr
  integer :: ierr
  real(kind=8) :: v(2, 2), s(2, 2)

  nerr = 0
  call globals_start_and_check()
  if (RPN_COMM_comm('GRID') /= -1) then
    call globals_check('pe_indomm is GRID', pe_indomm == RPN_COMM_comm('GRID') .and. pe_grid == pe_indomm &
                       .and. pe_defcomm == pe_indomm .and. pe_wcomm == pe_indomm)
    call globals_check('pe_myrow is EW, pe_mycol NS', pe_myrow == RPN_COMM_comm('EW') .and. pe_mycol == RPN_COMM_comm('NS'))
    call globals_check('WORLD_COMM_MPI is WORLD', WORLD_COMM_MPI == RPN_COMM_comm('WORLD') .and. pe_all_domains == WORLD_COMM_MPI)
    call globals_check('pe_multi_grid, pe_a_domain, pe_grid_peers', pe_multi_grid == RPN_COMM_comm('MULTIGRID') &
                       .and. pe_a_domain == RPN_COMM_comm('ALLGRIDS') .and. pe_grid_peers == RPN_COMM_comm('GRIDPEERS'))
  else
    call globals_check('no MPI communicators without MPI', pe_indomm == -1 .and. pe_myrow == -1 .and. WORLD_COMM_MPI == -1)
  endif

  v = pe_me
  call RPN_COMM_allreduce(v, s, 4, RPN_COMM_REAL8, RPN_COMM_SUM, RPN_COMM_GRID, ierr)
  call globals_check('allreduce through the interface', ierr == RPN_COMM_OK .and. all(s == npes * (npes - 1) / 2))

  call globals_finish('test_module_rpn_comm')

contains

  include 'module_globals.inc'

end program test_module_rpn_comm
