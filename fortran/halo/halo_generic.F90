! halo_generic.F90 -- the generic RPN_COMM_xch_halo of the module rpn_comm_windows
!
! RPN_COMM_xch_halo(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni,
! npol_row) with g an integer or real array of 4 or 8 bytes and rank 1 to 4 (a 3-D field, a section
! of a 4-D one such as tr(:,:,:,n)), or an element of one that starts the field (tr(minx,miny,1,n),
! as the original's callers pass it): 8-byte elements are exchanged as RPN_COMM_xch_halon with
! n = 2 exchanges them. Another type does not compile. The legacy include cannot know the kind:
! its g is untyped (type(*)), so that code written for the original compiles unchanged.
! The specifics of arrays call the bind(C) interface of the exchange (halo_binding.F90); those of
! an element call the same C function through a scalar view of its first argument (below), since
! Fortran lets a scalar reach an assumed-size dummy only as an array element, and taking its
! address with c_loc would need TARGET of every caller's array.

module rpn_comm_halo_generic
  use ISO_C_BINDING
  use, intrinsic :: ISO_FORTRAN_ENV, only: INT32, INT64, REAL32, REAL64
  use rpn_comm_windows_types, only: RPN_COMM_OK
  use rpn_comm_halo_binding, only: rpncomm_xch_halo
  use rpn_comm_output_flush, only: rpn_comm_stop_refused
  implicit none
  private
  public :: RPN_COMM_xch_halo

  interface RPN_COMM_xch_halo
    module procedure xch_halo_i4_0, xch_halo_i4_1, xch_halo_i4_2, xch_halo_i4_3, xch_halo_i4_4
    module procedure xch_halo_r4_0, xch_halo_r4_1, xch_halo_r4_2, xch_halo_r4_3, xch_halo_r4_4
    module procedure xch_halo_i8_0, xch_halo_i8_1, xch_halo_i8_2, xch_halo_i8_3, xch_halo_i8_4
    module procedure xch_halo_r8_0, xch_halo_r8_1, xch_halo_r8_2, xch_halo_r8_3, xch_halo_r8_4
  end interface RPN_COMM_xch_halo

  ! rpncomm_xch_halo of halo_binding.F90 with g seen as one element: the start of the field.
  interface
    function xch_halo_from(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, &
                           periody, gni, npol_row, n) result(status) bind(C, name='rpncomm_xch_halo')
      import :: C_INT
      implicit none
      type(*), intent(INOUT) :: g
      integer(C_INT), intent(IN), value :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
      integer(C_INT), intent(IN), value :: periodx, periody, gni, npol_row, n
      integer(C_INT) :: status
    end function xch_halo_from
  end interface

contains

  ! The exchange of the field that starts at the element g, of n 4-byte words per element.
  subroutine exchange_from(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, n)
    type(*), intent(INOUT) :: g
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row, n
    if (xch_halo_from(g, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                      int(ni, C_INT), int(nj, C_INT), int(nk, C_INT), int(halox, C_INT), int(haloy, C_INT), &
                      merge(1_C_INT, 0_C_INT, periodx), merge(1_C_INT, 0_C_INT, periody), &
                      int(gni, C_INT), int(npol_row, C_INT), int(n, C_INT)) /= RPN_COMM_OK) call rpn_comm_stop_refused()
  end subroutine exchange_from

  ! The exchange of the field that starts at g, of elements of n 4-byte words; a refused call
  ! (the library printed why) ends this PE as the external routines do.
  subroutine exchange(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, n)
    type(*), intent(INOUT) :: g(*)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row, n
    if (rpncomm_xch_halo(g, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                         int(ni, C_INT), int(nj, C_INT), int(nk, C_INT), int(halox, C_INT), int(haloy, C_INT), &
                         merge(1_C_INT, 0_C_INT, periodx), merge(1_C_INT, 0_C_INT, periody), &
                         int(gni, C_INT), int(npol_row, C_INT), int(n, C_INT)) /= RPN_COMM_OK) call rpn_comm_stop_refused()
  end subroutine exchange

  subroutine xch_halo_i4_0(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    integer(INT32), intent(INOUT) :: g
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call exchange_from(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, 1)
  end subroutine xch_halo_i4_0

  subroutine xch_halo_i4_1(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    integer(INT32), intent(INOUT) :: g(*)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call exchange(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, 1)
  end subroutine xch_halo_i4_1

  subroutine xch_halo_i4_2(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    integer(INT32), intent(INOUT) :: g(minx:maxx, *)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call exchange(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, 1)
  end subroutine xch_halo_i4_2

  subroutine xch_halo_i4_3(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    integer(INT32), intent(INOUT) :: g(minx:maxx, miny:maxy, *)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call exchange(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, 1)
  end subroutine xch_halo_i4_3

  subroutine xch_halo_i4_4(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    integer(INT32), intent(INOUT) :: g(minx:maxx, miny:maxy, nk, *)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call exchange(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, 1)
  end subroutine xch_halo_i4_4

  subroutine xch_halo_r4_0(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    real(REAL32), intent(INOUT) :: g
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call exchange_from(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, 1)
  end subroutine xch_halo_r4_0

  subroutine xch_halo_r4_1(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    real(REAL32), intent(INOUT) :: g(*)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call exchange(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, 1)
  end subroutine xch_halo_r4_1

  subroutine xch_halo_r4_2(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    real(REAL32), intent(INOUT) :: g(minx:maxx, *)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call exchange(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, 1)
  end subroutine xch_halo_r4_2

  subroutine xch_halo_r4_3(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    real(REAL32), intent(INOUT) :: g(minx:maxx, miny:maxy, *)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call exchange(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, 1)
  end subroutine xch_halo_r4_3

  subroutine xch_halo_r4_4(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    real(REAL32), intent(INOUT) :: g(minx:maxx, miny:maxy, nk, *)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call exchange(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, 1)
  end subroutine xch_halo_r4_4

  subroutine xch_halo_i8_0(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    integer(INT64), intent(INOUT) :: g
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call exchange_from(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, 2)
  end subroutine xch_halo_i8_0

  subroutine xch_halo_i8_1(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    integer(INT64), intent(INOUT) :: g(*)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call exchange(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, 2)
  end subroutine xch_halo_i8_1

  subroutine xch_halo_i8_2(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    integer(INT64), intent(INOUT) :: g(minx:maxx, *)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call exchange(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, 2)
  end subroutine xch_halo_i8_2

  subroutine xch_halo_i8_3(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    integer(INT64), intent(INOUT) :: g(minx:maxx, miny:maxy, *)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call exchange(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, 2)
  end subroutine xch_halo_i8_3

  subroutine xch_halo_i8_4(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    integer(INT64), intent(INOUT) :: g(minx:maxx, miny:maxy, nk, *)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call exchange(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, 2)
  end subroutine xch_halo_i8_4

  subroutine xch_halo_r8_0(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    real(REAL64), intent(INOUT) :: g
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call exchange_from(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, 2)
  end subroutine xch_halo_r8_0

  subroutine xch_halo_r8_1(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    real(REAL64), intent(INOUT) :: g(*)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call exchange(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, 2)
  end subroutine xch_halo_r8_1

  subroutine xch_halo_r8_2(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    real(REAL64), intent(INOUT) :: g(minx:maxx, *)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call exchange(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, 2)
  end subroutine xch_halo_r8_2

  subroutine xch_halo_r8_3(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    real(REAL64), intent(INOUT) :: g(minx:maxx, miny:maxy, *)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call exchange(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, 2)
  end subroutine xch_halo_r8_3

  subroutine xch_halo_r8_4(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    real(REAL64), intent(INOUT) :: g(minx:maxx, miny:maxy, nk, *)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call exchange(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, 2)
  end subroutine xch_halo_r8_4

end module rpn_comm_halo_generic
