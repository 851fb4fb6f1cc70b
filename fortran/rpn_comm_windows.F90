! rpn_comm_windows.F90 -- modern entry point of rpncomm-windows
!
!     use rpn_comm_windows
!
! gives the handle types and NULL_ handles, the RPN_COMM_* constants and the
! explicit interfaces of every routine (the same ones as include 'RPN_COMM.inc'),
! except that RPN_COMM_xch_halo is generic: it knows the kind of the array it is
! given (integer or real, 4 or 8 bytes, rank 1 to 4), and anything else does not
! compile. The legacy include cannot know it: its g is untyped (type(*)), so that
! code written for the original compiles unchanged, and a real*8 field passed
! there is exchanged as 4-byte words (RPN_COMM_xch_halon with n = 2 is right).
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
  implicit none
  public
  private :: INT32, INT64, REAL32, REAL64
  private :: rpn_comm_xch_halo_words

  ! RPN_COMM_xch_halo(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody,
  ! gni, npol_row) with g an integer or real array of 4 or 8 bytes and rank 1 to 4 (a 3-D field,
  ! a section of a 4-D one such as tr(:,:,:,n)): 8-byte elements are exchanged as
  ! RPN_COMM_xch_halon with n = 2 exchanges them. Another type, or an element passed for the
  ! array (tr(minx,miny,1,n)), does not compile: pass the section, or use the legacy include.
  private :: xch_halo_i4_1, xch_halo_i4_2, xch_halo_i4_3, xch_halo_i4_4, &
             xch_halo_r4_1, xch_halo_r4_2, xch_halo_r4_3, xch_halo_r4_4, &
             xch_halo_i8_1, xch_halo_i8_2, xch_halo_i8_3, xch_halo_i8_4, &
             xch_halo_r8_1, xch_halo_r8_2, xch_halo_r8_3, xch_halo_r8_4
  interface RPN_COMM_xch_halo
    module procedure xch_halo_i4_1, xch_halo_i4_2, xch_halo_i4_3, xch_halo_i4_4
    module procedure xch_halo_r4_1, xch_halo_r4_2, xch_halo_r4_3, xch_halo_r4_4
    module procedure xch_halo_i8_1, xch_halo_i8_2, xch_halo_i8_3, xch_halo_i8_4
    module procedure xch_halo_r8_1, xch_halo_r8_2, xch_halo_r8_3, xch_halo_r8_4
  end interface RPN_COMM_xch_halo

contains

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
