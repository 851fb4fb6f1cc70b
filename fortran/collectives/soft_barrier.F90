! soft_barrier.F90 -- RPN_COMM_barrier_data (the barrier's timings) and the original's soft
! barrier as Fortran callers link with it (the names with one underscore; the C names are the Rust
! core's, src/ffi/collectives/soft_barrier.rs): a communicator registered once
! (rpn_comm_softbarrier_init, or the job's with _init_all), then barriers over it
! (rpn_comm_softbarrier). Their signatures are rows of fortran/routines.toml.

integer function rpn_comm_softbarrier_init(ftn_comm)
  use rpn_comm_collectives_binding
  implicit none
  integer, intent(IN) :: ftn_comm
  integer(C_INT) :: out
  out = -1
  if (rpncomm_softbarrier_init(int(ftn_comm, C_INT), out) /= 0) out = -1
  rpn_comm_softbarrier_init = out
end function rpn_comm_softbarrier_init

integer function rpn_comm_softbarrier_init_all()
  use rpn_comm_collectives_binding
  implicit none
  integer(C_INT) :: out
  out = -1
  if (rpncomm_softbarrier_init_all(out) /= 0) out = -1
  rpn_comm_softbarrier_init_all = out
end function rpn_comm_softbarrier_init_all

! 0, or -1 for a communicator never registered
integer function rpn_comm_softbarrier(ftn_comm)
  use rpn_comm_collectives_binding
  implicit none
  integer, intent(IN) :: ftn_comm
  rpn_comm_softbarrier = 0
  if (rpncomm_softbarrier(int(ftn_comm, C_INT)) /= 0) rpn_comm_softbarrier = -1
end function rpn_comm_softbarrier

! RPN_COMM_barrier's timings: level >= 0 sets the detail (0 none, 1 the longest wait, 2 every PE's);
! below 0 reads them once on the communicator's rank 0 (their number, -1 when there are none).
integer function RPN_COMM_barrier_data(level, values, nvalues)
  use rpn_comm_collectives_binding
  implicit none
  integer, intent(IN) :: level
  integer, intent(IN) :: nvalues
  real(kind=kind(1.d0)), dimension(nvalues), intent(OUT) :: values
  real(C_DOUBLE), dimension(max(nvalues, 1)) :: v
  integer(C_INT) :: n
  n = -1
  if (rpncomm_barrier_data(int(level, C_INT), v, int(nvalues, C_INT), n) /= 0) n = -1
  if (n > 0) values(1:n) = v(1:n)
  RPN_COMM_barrier_data = n
end function RPN_COMM_barrier_data
