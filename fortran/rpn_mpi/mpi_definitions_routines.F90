! mpi_definitions_routines.F90 -- RPN_MPI_get_mpi_definitions(_raw) and RPN_MPI_get_mpi_layout*
! (the generics RPN_MPI_get_mpi_layout and RPN_MPI_get_mpi_layout_raw of RPN_MPI.hf): copies of
! rpn_mpi_definitions_store's tables into the caller's, after checking the caller was compiled
! with the same table (its %version, set by the type's default). A mismatch is refused as the
! original refuses it: a line naming the routine, what%version = -1, ierr = MPI_ERROR.

subroutine RPN_MPI_get_mpi_definitions_raw(what, ierr)
  use ISO_C_BINDING
  use rpn_mpi_definitions_store, only: definitions_raw, status_success, status_error, version_matches
  implicit none
#include "RPN_MPI_mpi_definitions.hf"
  type(RPN_MPI_mpi_definitions_raw), intent(INOUT) :: what
  integer, intent(OUT) :: ierr
  type(RPN_MPI_mpi_definitions_raw) :: d
  ierr = status_error()
  if (.not. version_matches(what%version, mpi_symbols_version, 'RPN_MPI_get_mpi_definitions_raw')) return
  if (.not. definitions_raw(d)) then
    write(0, '(A)') 'ERROR: (RPN_MPI_get_mpi_definitions_raw) MPI''s constants exist only in an MPI build with MPI''s Fortran'
    return
  end if
  what = d
  ierr = status_success()
end subroutine RPN_MPI_get_mpi_definitions_raw

subroutine RPN_MPI_get_mpi_definitions(what, ierr)
  use ISO_C_BINDING
  use rpn_mpi_definitions_store, only: definitions_raw, status_success, status_error, version_matches
  implicit none
#include "RPN_MPI_mpi_definitions.hf"
  type(RPN_MPI_mpi_definitions), intent(INOUT) :: what
  integer, intent(OUT) :: ierr
  type(RPN_MPI_mpi_definitions_raw) :: d
  ierr = status_error()
  if (.not. version_matches(what%version, mpi_symbols_version, 'RPN_MPI_get_mpi_definitions')) return
  if (.not. definitions_raw(d)) then
    write(0, '(A)') 'ERROR: (RPN_MPI_get_mpi_definitions) MPI''s constants exist only in an MPI build with MPI''s Fortran'
    return
  end if
  what = transfer(d, what)         ! the same integers, wrapped
  ierr = status_success()
end subroutine RPN_MPI_get_mpi_definitions

! The older layout (comm, rank, size hierarchies), communicators plain or wrapped.
subroutine RPN_MPI_get_mpi_layout_raw1(what, ierr)
  use ISO_C_BINDING
  use rpn_mpi_definitions_store, only: layout_internal_now, status_success, status_error, version_matches
  implicit none
#include "RPN_MPI_mpi_definitions.hf"
  type(mpi_layout_internal), intent(INOUT) :: what
  integer(C_INT), intent(OUT) :: ierr
  ierr = status_error()
  if (.not. version_matches(what%version, layout_version, 'RPN_MPI_get_mpi_layout')) return
  what = transfer(layout_internal_now(), what)
  ierr = status_success()
end subroutine RPN_MPI_get_mpi_layout_raw1

subroutine RPN_MPI_get_mpi_layout1(what, ierr)
  use ISO_C_BINDING
  use rpn_mpi_definitions_store, only: layout_internal_now, status_success, status_error, version_matches
  implicit none
#include "RPN_MPI_mpi_definitions.hf"
  type(mpi_layout), intent(INOUT) :: what
  integer(C_INT), intent(OUT) :: ierr
  ierr = status_error()
  if (.not. version_matches(what%version, layout_version, 'RPN_MPI_get_mpi_layout')) return
  what = transfer(layout_internal_now(), what)
  ierr = status_success()
end subroutine RPN_MPI_get_mpi_layout1

! The newer layout (trios as leaves), communicators plain or wrapped.
subroutine RPN_MPI_get_mpi_layout_raw2(what, ierr)
  use ISO_C_BINDING
  use rpn_mpi_definitions_store, only: layout_now, status_success, status_error, version_matches
  implicit none
#include "RPN_MPI_mpi_definitions.hf"
  type(mpi_layout_r), intent(INOUT) :: what
  integer(C_INT), intent(OUT) :: ierr
  ierr = status_error()
  if (.not. version_matches(what%version, layout_version, 'RPN_MPI_get_mpi_layout')) return
  what = transfer(layout_now(), what)
  ierr = status_success()
end subroutine RPN_MPI_get_mpi_layout_raw2

subroutine RPN_MPI_get_mpi_layout2(what, ierr)
  use ISO_C_BINDING
  use rpn_mpi_definitions_store, only: layout_now, status_success, status_error, version_matches
  implicit none
#include "RPN_MPI_mpi_definitions.hf"
  type(mpi_layout_f), intent(INOUT) :: what
  integer(C_INT), intent(OUT) :: ierr
  ierr = status_error()
  if (.not. version_matches(what%version, layout_version, 'RPN_MPI_get_mpi_layout')) return
  what = transfer(layout_now(), what)
  ierr = status_success()
end subroutine RPN_MPI_get_mpi_layout2
