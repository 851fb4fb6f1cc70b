! constnt_tables.F90 -- RPN_COMM_const: librmn's table of physical constants (CONSTNT) read on the
! first PE and handed to every PE of the grid (CONSTNT_X, mode 4).
!
! CONSTNT and CONSTNT_X are librmn's, not this library's: this source is an object of its own in
! the archive, as in the original's, so that only a program calling RPN_COMM_const pulls it in
! (and must then link librmn, as it must with the original). CONSTNT_X broadcasts through the
! routine it is given, called as MPI_BCAST(buffer, count, datatype, root, comm, ierr); this file
! gives it constnt_bcast, which does that on the grid with RPN_COMM_bcast, so that the same object
! serves the shared-memory build (no MPI_BCAST there) and the MPI builds (whose Fortran may have
! no MPI module).

module rpn_comm_constnt_bcast
  implicit none
  private
  public :: constnt_bcast, constnt_datatype

contains

  ! The integer datatype RPN_COMM_const hands CONSTNT_X: MPI's MPI_INTEGER in the MPI build, -1
  ! on shared memory (no MPI handles there).
  integer function constnt_datatype()
    integer, external :: RPN_COMM_datyp
    constnt_datatype = RPN_COMM_datyp('MPI_INTEGER')
  end function constnt_datatype

  ! MPI_BCAST's form, for what CONSTNT_X broadcasts: `count` integers (its tables travel as
  ! integers, the datatype RPN_COMM_const gave it) from `root` of the grid, whose communicator
  ! (pe_defcomm) RPN_COMM_const gave it too; anything else is a caller's error.
  subroutine constnt_bcast(buffer, count, datatype, root, comm, ierr)
    use rpn_comm_globals, only: pe_defcomm
    integer, dimension(*), intent(INOUT) :: buffer
    integer, intent(IN) :: count, datatype, root, comm
    integer, intent(OUT) :: ierr
    external :: RPN_COMM_bcast
    if (datatype /= constnt_datatype() .or. comm /= pe_defcomm) then
      write(0, '(A)') 'ERROR: (RPN_COMM_const) CONSTNT_X broadcast with another datatype or ' // &
          'communicator than the grid''s integers'
      error stop 1
    end if
    call RPN_COMM_bcast(buffer, count, 'MPI_INTEGER', root, 'GRID', ierr)
  end subroutine constnt_bcast

end module rpn_comm_constnt_bcast

subroutine RPN_COMM_const(IER)
  use rpn_comm_globals, only: pe_me, pe_pe0, pe_defcomm
  use rpn_comm_constnt_bcast, only: constnt_bcast, constnt_datatype
  implicit none
  integer, intent(OUT) :: IER
  real :: valeur
  integer :: flag
  external :: CONSTNT, CONSTNT_X

  ! the first PE reads the tables (librmn's first call of CONSTNT loads them), then every PE of
  ! the grid takes them from it (CONSTNT_X, mode 4, with the name 'DUMMY' that no constant has)
  if (pe_me == pe_pe0) then
    call CONSTNT(valeur, flag, 'DUMMY', 0)
    print *, ' first call to constnt to prime tables'
  end if
  call CONSTNT_X(valeur, flag, 'DUMMY', 4, constnt_bcast, constnt_datatype(), 0, pe_defcomm, IER)
  if (pe_me == 0) print *, ' constnt tables have been distributed'
end subroutine RPN_COMM_const
