! Across nodes (tests/multinode/check.sh): 4 PEs on 2 nodes of 2 (a row, periodic: PEs 0-1 and
! 2-3 are on-node neighbours, whose halo messages take the shared-memory channels; 1-2 and 3-0
! cross nodes through MPI). After 10 exchanges the PEs go on with deeper fields (messages larger than
! the regions made so far: new ones), and PE 3 ends the job mid-exchange:
!   mn_halo_kill kill    PE 3 kills itself (SIGKILL, no clean-up of any kind) instead of calling;
!   mn_halo_kill abort   PE 3 calls with another nk: the exchange is refused, the job ends in error.
! Either way the job must end non-zero and mnrun.sh must find no /dev/shm file on any node (the
! on-node channels name nothing there: the regions PE 2 made for PE 3, which PE 3 never mapped,
! included). Reaching the end of the program is itself a failure.
program mn_halo_kill
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  interface
    integer(C_INT) function c_raise(sig) bind(C, name='raise')
      import :: C_INT
      integer(C_INT), value :: sig
    end function c_raise
  end interface
  integer :: me, npes, nerr, ierr, it, nk
  integer, parameter :: ni = 8, nj = 6, h = 2, deep = 200
  real, allocatable :: g(:, :, :)
  character(len=16) :: how
  real(kind=8) :: t0

  call get_command_argument(1, how)
  call start('mn_halo_kill')
  allocate(g(1 - h:ni + h, 1 - h:nj + h, deep))
  g = real(me)
  do it = 1, 10
    call RPN_COMM_xch_halo(g, 1 - h, ni + h, 1 - h, nj + h, ni, nj, 2, h, h, .true., .false., ni * npes, 0)
  enddo
  call check(abs(g(1 - h, 1, 1) - real(mod(me + npes - 1, npes))) < 0.5, 'west halo after 10 exchanges')
  nk = deep
  if (me == npes - 1) then
    t0 = RPN_COMM_wtime()
    do while (RPN_COMM_wtime() - t0 < 0.3_8)     ! let the others post their deeper faces
    enddo
    if (trim(how) == 'kill') then
      write(*, '(A,I0,A)') 'mn_halo_kill: PE ', me, ' kills itself (SIGKILL) now, mid-exchange'
      flush(6)
      ierr = c_raise(9_C_INT)
    endif
    nk = 3
    write(*, '(A,I0,A)') 'mn_halo_kill: PE ', me, ' calls with nk = 3 (the others 200): refused'
    flush(6)
  endif
  call RPN_COMM_xch_halo(g, 1 - h, ni + h, 1 - h, nj + h, ni, nj, nk, h, h, .true., .false., ni * npes, 0)
  call RPN_COMM_barrier(RPN_COMM_GRID, ierr)     ! (PE 1, no neighbour of PE 3, waits here)
  write(*, '(A,I0,A,I0)') 'mn_halo_kill: PE ', me, ' went past the exchange, errors so far ', nerr
  error stop 1
contains
  include 'tutil.inc'
end program mn_halo_kill
