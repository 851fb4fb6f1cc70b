! module_side_by_side.F90 -- a program written for the original RPN_COMM 4.6.3's module rpn_comm
! (its variables and mpif.h, no interfaces), built against the original and against this library
! (its module of 4.6.3's form, include/rpn_comm-4.6.3), run by side_by_side.sh: prints the grid's
! variables after RPN_COMM_init (a grid of 2 x npes/2 when npes is even, npes x 1 else; with the
! argument `columns`, placed column after column by RPN_COMM_set_petopo(1, 999999); with `yinyang`,
! two grids of npes/2 by RPN_COMM_init_multi_level(..., 1, 2), GEM's Yin-Yang), and, for
! every communicator variable, its size, this PE's rank in it and whether it is the one
! RPN_COMM_comm names (handles differ between MPIs and libraries: they are not printed).
program module_side_by_side
  use rpn_comm
  implicit none
  integer, external :: RPN_COMM_comm, RPN_COMM_init_multi_level
  external :: grid_choice
  integer :: me, npes, pex, pey, i, j
  character(len=16) :: arg

  call get_command_argument(1, arg)
  if (arg == 'columns') call RPN_COMM_set_petopo(1, 999999)
  pex = 0
  pey = 0
  if (arg == 'yinyang') then
    i = RPN_COMM_init_multi_level(grid_choice, me, npes, pex, pey, 1, 2)
    write(*, '(A,I0,A,I0)') 'pe ', me, ' grid ', i
  else
    call RPN_COMM_init(grid_choice, me, npes, pex, pey)
  endif
  write(*, '(A,I0,A,L1)') 'pe ', me, ' initialized ', RPM_COMM_IS_INITIALIZED
  write(*, '(A,I0,A,9(1X,I0))') 'pe ', me, ' me mex mey nx ny tot medomm dommtot pe0', &
      pe_me, pe_mex, pe_mey, pe_nx, pe_ny, pe_tot, pe_medomm, pe_dommtot, pe_pe0
  write(*, '(A,I0,A,4(1X,L1))') 'pe ', me, ' bnd east west north south', bnd_east, bnd_west, bnd_north, bnd_south
  write(*, '(A,I0,A,10(1X,I0))') 'pe ', me, ' ranks and sizes grid multigrid domain all peer', &
      pe_me_grid, pe_tot_grid, pe_me_multi_grid, pe_tot_multi_grid, pe_me_a_domain, pe_tot_a_domain, &
      pe_me_all_domains, pe_tot_all_domains, pe_me_peer, pe_tot_peer
  write(*, '(A,I0,A,3(1X,I0))') 'pe ', me, ' my_colors', my_colors
  write(*, '(A,I0,A,4(1X,I0))') 'pe ', me, ' pe_id bounds', lbound(pe_id, 1), ubound(pe_id, 1), lbound(pe_id, 2), ubound(pe_id, 2)
  do j = ubound(pe_id, 2), lbound(pe_id, 2), -1
    write(*, '(A,I0,A,I0,A,100(1X,I0))') 'pe ', me, ' pe_id row ', j, ':', (pe_id(i, j), i = lbound(pe_id, 1), ubound(pe_id, 1))
  enddo
  write(*, '(A,I0,A,100(1X,I0))') 'pe ', me, ' pe_xtab', pe_xtab(0:npes - 1)
  write(*, '(A,I0,A,100(1X,I0))') 'pe ', me, ' pe_ytab', pe_ytab(0:npes - 1)
  call show('pe_indomm', pe_indomm, 'GRID')
  call show('pe_grid', pe_grid, 'GRID')
  call show('pe_defcomm', pe_defcomm, 'GRID')
  call show('pe_wcomm', pe_wcomm, 'GRID')
  call show('pe_myrow', pe_myrow, 'EW')
  call show('pe_mycol', pe_mycol, 'NS')
  call show('WORLD_COMM_MPI', WORLD_COMM_MPI, 'WORLD')
  call show('pe_all_domains', pe_all_domains, 'WORLD')
  call show('pe_a_domain', pe_a_domain, 'ALLGRIDS')
  call show('pe_multi_grid', pe_multi_grid, 'MULTIGRID')
  call show('pe_grid_peers', pe_grid_peers, 'GRIDPEERS')
  call RPN_COMM_finalize(i)

contains

  subroutine show(name, comm, named)
    character(len=*), intent(IN) :: name, named
    integer, intent(IN) :: comm
    integer :: n, r, ierr, same
    call MPI_Comm_size(comm, n, ierr)
    call MPI_Comm_rank(comm, r, ierr)
    call MPI_Comm_compare(comm, RPN_COMM_comm(named), same, ierr)
    write(*, '(A,I0,1X,A,A,I0,A,I0,A,L1)') 'pe ', me, name, ' size ', n, ' rank ', r, &
        ' same group as '//named//' ', same == MPI_IDENT .or. same == MPI_CONGRUENT
  end subroutine show

end program module_side_by_side

! 2 x npes/2 for an even npes (called with the preset npes x 1)
subroutine grid_choice(px, py)
  implicit none
  integer, intent(INOUT) :: px, py
  integer :: n
  n = px * py
  if (mod(n, 2) == 0) then
    px = 2
    py = n / 2
  endif
end subroutine grid_choice
