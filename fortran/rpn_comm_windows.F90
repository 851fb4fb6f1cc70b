! rpn_comm_windows.F90 -- modern entry point of rpncomm-windows
!
!     use rpn_comm_windows
!
! gives the handle types and NULL_ handles, the RPN_COMM_* constants and the
! explicit interfaces of every routine (the same ones as include 'RPN_COMM.inc'),
! except that RPN_COMM_xch_halo is generic: it knows the kind of the array it is
! given (integer or real, 4 or 8 bytes, rank 1 to 4 or an element that starts the
! field), and anything else does not compile. The legacy include cannot know it:
! its g is untyped (type(*)), so that code written for the original compiles
! unchanged, and a real*8 field passed there is exchanged as 4-byte words
! (RPN_COMM_xch_halon with n = 2 is right).
! The routines themselves are external procedures (rpn_comm_externals.F90), so
! their link names are the plain Fortran ones and legacy code links unchanged.

! The explicit interfaces of the external procedures, as the include gives them.
module rpn_comm_windows_interfaces
  use ISO_C_BINDING
  use rpn_comm_windows_types
  implicit none
  public
  include 'RPN_COMM_interfaces.inc'
end module rpn_comm_windows_interfaces

module rpn_comm_windows
  use ISO_C_BINDING
  use, intrinsic :: ISO_FORTRAN_ENV, only: INT32, INT64, REAL32, REAL64
  use rpn_comm_windows_types
  use rpn_comm_windows_interfaces, rpn_comm_xch_halo_words => RPN_COMM_xch_halo
  use rpn_comm_c_binding, only: rpncomm_stop_refused
  implicit none
  public
  private :: INT32, INT64, REAL32, REAL64
  private :: rpn_comm_xch_halo_words, rpncomm_stop_refused, xch_halo_at, stop_refused

  ! RPN_COMM_xch_halo(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody,
  ! gni, npol_row) with g an integer or real array of 4 or 8 bytes and rank 1 to 4 (a 3-D field,
  ! a section of a 4-D one such as tr(:,:,:,n)), or an element of one that starts the field
  ! (tr(minx,miny,1,n), as the original's callers pass it): 8-byte elements are exchanged as
  ! RPN_COMM_xch_halon with n = 2 exchanges them. Another type does not compile.
  private :: xch_halo_i4_0, xch_halo_i4_1, xch_halo_i4_2, xch_halo_i4_3, xch_halo_i4_4, &
             xch_halo_r4_0, xch_halo_r4_1, xch_halo_r4_2, xch_halo_r4_3, xch_halo_r4_4, &
             xch_halo_i8_0, xch_halo_i8_1, xch_halo_i8_2, xch_halo_i8_3, xch_halo_i8_4, &
             xch_halo_r8_0, xch_halo_r8_1, xch_halo_r8_2, xch_halo_r8_3, xch_halo_r8_4
  interface RPN_COMM_xch_halo
    module procedure xch_halo_i4_0, xch_halo_i4_1, xch_halo_i4_2, xch_halo_i4_3, xch_halo_i4_4
    module procedure xch_halo_r4_0, xch_halo_r4_1, xch_halo_r4_2, xch_halo_r4_3, xch_halo_r4_4
    module procedure xch_halo_i8_0, xch_halo_i8_1, xch_halo_i8_2, xch_halo_i8_3, xch_halo_i8_4
    module procedure xch_halo_r8_0, xch_halo_r8_1, xch_halo_r8_2, xch_halo_r8_3, xch_halo_r8_4
  end interface RPN_COMM_xch_halo

  ! The C entry of the exchange, for an element that starts the field: a scalar passed by
  ! address (the same C function as rpn_comm_c_binding's rpncomm_xch_halo, which takes arrays).
  interface
    function xch_halo_at(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, &
                         periodx, periody, gni, npol_row, n) result(status) bind(C, name='rpncomm_xch_halo')
      import :: C_INT
      type(*), intent(INOUT) :: g
      integer(C_INT), intent(IN), value :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
      integer(C_INT), intent(IN), value :: periodx, periody, gni, npol_row, n
      integer(C_INT) :: status
    end function xch_halo_at
  end interface

contains

  ! After a refused exchange (the library printed why): as the external routines do.
  subroutine stop_refused()
    use, intrinsic :: ISO_FORTRAN_ENV, only: OUTPUT_UNIT, ERROR_UNIT
    integer :: ios
    flush(OUTPUT_UNIT, iostat=ios)
    flush(ERROR_UNIT, iostat=ios)
    call rpncomm_stop_refused(1_C_INT)
  end subroutine stop_refused

  subroutine xch_halo_i4_0(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    integer(INT32), intent(INOUT) :: g
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    if (xch_halo_at(g, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                    int(ni, C_INT), int(nj, C_INT), int(nk, C_INT), int(halox, C_INT), int(haloy, C_INT), &
                    merge(1_C_INT, 0_C_INT, periodx), merge(1_C_INT, 0_C_INT, periody), &
                    int(gni, C_INT), int(npol_row, C_INT), 1_C_INT) /= RPN_COMM_OK) call stop_refused()
  end subroutine xch_halo_i4_0

  subroutine xch_halo_i4_1(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    integer(INT32), intent(INOUT) :: g(*)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call rpn_comm_xch_halo_words(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
  end subroutine xch_halo_i4_1

  subroutine xch_halo_i4_2(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    integer(INT32), intent(INOUT) :: g(minx:maxx, *)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call rpn_comm_xch_halo_words(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
  end subroutine xch_halo_i4_2

  subroutine xch_halo_i4_3(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    integer(INT32), intent(INOUT) :: g(minx:maxx, miny:maxy, *)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call rpn_comm_xch_halo_words(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
  end subroutine xch_halo_i4_3

  subroutine xch_halo_i4_4(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    integer(INT32), intent(INOUT) :: g(minx:maxx, miny:maxy, nk, *)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call rpn_comm_xch_halo_words(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
  end subroutine xch_halo_i4_4

  subroutine xch_halo_r4_0(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    real(REAL32), intent(INOUT) :: g
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    if (xch_halo_at(g, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                    int(ni, C_INT), int(nj, C_INT), int(nk, C_INT), int(halox, C_INT), int(haloy, C_INT), &
                    merge(1_C_INT, 0_C_INT, periodx), merge(1_C_INT, 0_C_INT, periody), &
                    int(gni, C_INT), int(npol_row, C_INT), 1_C_INT) /= RPN_COMM_OK) call stop_refused()
  end subroutine xch_halo_r4_0

  subroutine xch_halo_r4_1(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    real(REAL32), intent(INOUT) :: g(*)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call rpn_comm_xch_halo_words(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
  end subroutine xch_halo_r4_1

  subroutine xch_halo_r4_2(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    real(REAL32), intent(INOUT) :: g(minx:maxx, *)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call rpn_comm_xch_halo_words(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
  end subroutine xch_halo_r4_2

  subroutine xch_halo_r4_3(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    real(REAL32), intent(INOUT) :: g(minx:maxx, miny:maxy, *)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call rpn_comm_xch_halo_words(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
  end subroutine xch_halo_r4_3

  subroutine xch_halo_r4_4(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    real(REAL32), intent(INOUT) :: g(minx:maxx, miny:maxy, nk, *)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call rpn_comm_xch_halo_words(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
  end subroutine xch_halo_r4_4

  subroutine xch_halo_i8_0(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    integer(INT64), intent(INOUT) :: g
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    if (xch_halo_at(g, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                    int(ni, C_INT), int(nj, C_INT), int(nk, C_INT), int(halox, C_INT), int(haloy, C_INT), &
                    merge(1_C_INT, 0_C_INT, periodx), merge(1_C_INT, 0_C_INT, periody), &
                    int(gni, C_INT), int(npol_row, C_INT), 2_C_INT) /= RPN_COMM_OK) call stop_refused()
  end subroutine xch_halo_i8_0

  subroutine xch_halo_i8_1(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    integer(INT64), intent(INOUT) :: g(*)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call RPN_COMM_xch_halon(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, 2)
  end subroutine xch_halo_i8_1

  subroutine xch_halo_i8_2(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    integer(INT64), intent(INOUT) :: g(minx:maxx, *)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call RPN_COMM_xch_halon(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, 2)
  end subroutine xch_halo_i8_2

  subroutine xch_halo_i8_3(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    integer(INT64), intent(INOUT) :: g(minx:maxx, miny:maxy, *)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call RPN_COMM_xch_halon(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, 2)
  end subroutine xch_halo_i8_3

  subroutine xch_halo_i8_4(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    integer(INT64), intent(INOUT) :: g(minx:maxx, miny:maxy, nk, *)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call RPN_COMM_xch_halon(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, 2)
  end subroutine xch_halo_i8_4

  subroutine xch_halo_r8_0(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    real(REAL64), intent(INOUT) :: g
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    if (xch_halo_at(g, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                    int(ni, C_INT), int(nj, C_INT), int(nk, C_INT), int(halox, C_INT), int(haloy, C_INT), &
                    merge(1_C_INT, 0_C_INT, periodx), merge(1_C_INT, 0_C_INT, periody), &
                    int(gni, C_INT), int(npol_row, C_INT), 2_C_INT) /= RPN_COMM_OK) call stop_refused()
  end subroutine xch_halo_r8_0

  subroutine xch_halo_r8_1(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    real(REAL64), intent(INOUT) :: g(*)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call RPN_COMM_xch_halon(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, 2)
  end subroutine xch_halo_r8_1

  subroutine xch_halo_r8_2(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    real(REAL64), intent(INOUT) :: g(minx:maxx, *)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call RPN_COMM_xch_halon(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, 2)
  end subroutine xch_halo_r8_2

  subroutine xch_halo_r8_3(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    real(REAL64), intent(INOUT) :: g(minx:maxx, miny:maxy, *)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call RPN_COMM_xch_halon(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, 2)
  end subroutine xch_halo_r8_3

  subroutine xch_halo_r8_4(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
    integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
    real(REAL64), intent(INOUT) :: g(minx:maxx, miny:maxy, nk, *)
    logical, intent(IN) :: periodx, periody
    integer, intent(IN) :: gni, npol_row
    call RPN_COMM_xch_halon(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, 2)
  end subroutine xch_halo_r8_4
end module rpn_comm_windows
