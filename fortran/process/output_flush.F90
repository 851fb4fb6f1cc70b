! output_flush.F90 -- the flush of the Fortran units that a stopped PE runs
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
  public :: rpn_comm_flush_units, rpn_comm_stop_refused

  ! Units inquired: the usual numbers only, 0.5 ms in all with gfortran. Not the negative ones
  ! (OPEN(NEWUNIT=)): gfortran 12 lists the unit of an earlier internal WRITE among them, opened,
  ! indistinguishable by INQUIRE from a file's, and FLUSH of it crashes the PE (at SIGTERM that
  ! lost every PE's buffered output). Units of NEWUNIT= are flushed by the Fortran runtime at a
  ! normal end only.
  integer, parameter :: LOWEST_UNIT = 0, HIGHEST_UNIT = 9999

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

  ! Ends this PE with status 1 after a refused call that the library reported (the halo routines,
  ! which have no status argument): standard output and error flushed here, the other units by
  ! the Fortran runtime at the exit (rpncomm_stop_refused: no ERROR STOP, no MPI_Abort banner).
  subroutine rpn_comm_stop_refused()
    use ISO_FORTRAN_ENV, only: OUTPUT_UNIT, ERROR_UNIT
    use rpn_comm_process_binding, only: rpncomm_stop_refused
    integer :: ios
    flush(OUTPUT_UNIT, iostat=ios)
    flush(ERROR_UNIT, iostat=ios)
    call rpncomm_stop_refused(1_C_INT)
  end subroutine rpn_comm_stop_refused

end module rpn_comm_output_flush
