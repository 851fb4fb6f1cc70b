! rpn_comm_output_flush.F90 -- the flush of the Fortran units that a stopped PE runs
!
!   module rpn_comm_output_flush : rpn_comm_flush_units, which RPN_COMM_init registers with the
!                                  C ABI (rpncomm_flush_at_stop). When another PE fails and the
!                                  launcher (rpnrun, mpirun) ends the job with SIGTERM, or this
!                                  PE aborts, the library calls it from a thread of its own
!                                  before the PE dies, so that lines printed earlier and still
!                                  buffered (stdout redirected to a file or a pipe) are not lost.

module rpn_comm_output_flush
  use ISO_C_BINDING
  implicit none
  private
  public :: rpn_comm_flush_units

  ! Units inquired: the usual numbers and the negative ones of OPEN(NEWUNIT=) (gfortran from
  ! -10 down); 0.5 ms in all with gfortran.
  integer, parameter :: LOWEST_UNIT = -1000, HIGHEST_UNIT = 9999

contains

  ! Flushes standard output, standard error and every unit open for writing.
  subroutine rpn_comm_flush_units() bind(C)
    use ISO_FORTRAN_ENV, only: OUTPUT_UNIT, ERROR_UNIT
    integer :: u, ios
    logical :: opened
    character(len=16) :: action
    flush(OUTPUT_UNIT, iostat=ios)
    flush(ERROR_UNIT, iostat=ios)
    do u = LOWEST_UNIT, HIGHEST_UNIT
      inquire(unit=u, opened=opened, action=action, iostat=ios)
      if (ios /= 0 .or. .not. opened) cycle
      if (action /= 'READ') flush(u, iostat=ios)
    enddo
  end subroutine rpn_comm_flush_units

end module rpn_comm_output_flush
