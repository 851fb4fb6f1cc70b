! distribution.F90 -- global arrays spread over the PEs and gathered back, and the transposes
!
! External procedures with the original RPN_COMM's names and dummy arguments (their link names
! are the plain Fortran ones, so code written for the original links unchanged); each only
! converts its arguments for the C ABI of the Rust core (logical <-> int, character(len=*) ->
! pointer + length, assumed-shape -> contiguous copy + count), which checks them and reports errors.
! Their signatures are rows of fortran/routines.toml, which generates their interfaces;
! fortran/gen/check_routines.py (make check) checks each routine here against its row.
! Arrays are passed as addresses of 4-byte words, of any type, as the original's implicit
! interfaces allow (docs/gem.md has the rules).

! ========================================================== distribution and transposes

! The limited-area FFT solver's distributed transpose (za(size,min1:max1,n2,n3g) <->
! zb(size,n2,min3:max3,n1g), type +-1 along x, +-2 along y; docs/gem.md). No status, as the
! original: a refusal is the library's one line, the arrays untouched.
subroutine RPN_COMM_transpose(za, min1, max1, n1g, n2, min3, max3, n3g, zb, type, size)
  use rpn_comm_collectives_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: za, zb
  type(*), dimension(*), intent(INOUT) :: za, zb
  integer, intent(IN) :: min1, max1, n1g, n2, min3, max3, n3g, type, size
  integer(C_INT) :: status
  status = rpncomm_transpose(za, int(min1, C_INT), int(max1, C_INT), int(n1g, C_INT), int(n2, C_INT), &
                             int(min3, C_INT), int(max3, C_INT), int(n3g, C_INT), zb, int(type, C_INT), &
                             int(size, C_INT))
end subroutine RPN_COMM_transpose

! Grid PE 0's garr(size, gmini:gmaxi, gminj:gmaxj, nk), an nig x njg field, cut into every PE's
! larr(size, mini:maxi, minj:maxj, nk) with halos halox, haloy (periodic or not); status 0 or -1.
subroutine RPN_COMM_dist(garr, gmini, gmaxi, gminj, gmaxj, nig, njg, nk, ghalox, ghaloy, size, &
                         larr, mini, maxi, minj, maxj, halox, haloy, periodx, periody, status)
  use rpn_comm_collectives_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: garr, larr
  type(*), dimension(*), intent(IN) :: garr
  type(*), dimension(*), intent(INOUT) :: larr
  integer, intent(IN) :: gmini, gmaxi, gminj, gmaxj, nig, njg, nk, ghalox, ghaloy, size
  integer, intent(IN) :: mini, maxi, minj, maxj, halox, haloy
  logical, intent(IN) :: periodx, periody
  integer, intent(OUT) :: status
  integer(C_INT) :: px, py
  px = merge(1_C_INT, 0_C_INT, periodx)
  py = merge(1_C_INT, 0_C_INT, periody)
  status = rpncomm_dist(garr, int(gmini, C_INT), int(gmaxi, C_INT), int(gminj, C_INT), int(gmaxj, C_INT), &
                        int(nig, C_INT), int(njg, C_INT), int(nk, C_INT), int(ghalox, C_INT), int(ghaloy, C_INT), &
                        int(size, C_INT), larr, int(mini, C_INT), int(maxi, C_INT), int(minj, C_INT), &
                        int(maxj, C_INT), int(halox, C_INT), int(haloy, C_INT), px, py)
end subroutine RPN_COMM_dist

! Every PE's larr collected into grid PE 0's garr (the interior of each tile, and the halo at the
! field's edges where both arrays have one); status 0 or -1.
subroutine RPN_COMM_coll(garr, gmini, gmaxi, gminj, gmaxj, nig, njg, nk, ghalox, ghaloy, size, &
                         larr, mini, maxi, minj, maxj, halox, haloy, status)
  use rpn_comm_collectives_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: garr, larr
  type(*), dimension(*), intent(INOUT) :: garr
  type(*), dimension(*), intent(IN) :: larr
  integer, intent(IN) :: gmini, gmaxi, gminj, gmaxj, nig, njg, nk, ghalox, ghaloy, size
  integer, intent(IN) :: mini, maxi, minj, maxj, halox, haloy
  integer, intent(OUT) :: status
  status = rpncomm_coll(garr, int(gmini, C_INT), int(gmaxi, C_INT), int(gminj, C_INT), int(gmaxj, C_INT), &
                        int(nig, C_INT), int(njg, C_INT), int(nk, C_INT), int(ghalox, C_INT), int(ghaloy, C_INT), &
                        int(size, C_INT), larr, int(mini, C_INT), int(maxi, C_INT), int(minj, C_INT), &
                        int(maxj, C_INT), int(halox, C_INT), int(haloy, C_INT))
end subroutine RPN_COMM_coll

! Levels liste_i(1:dnk) of each I/O PE's global(gni, gnj, dnk) into every PE's local (the shape
! of grid descriptor grid_id, lnk levels); liste_o(l) becomes .true. where level l came.
function RPN_COMM_shuf_ezdist(setno, grid_id, global, dnk, local, lnk, liste_i, liste_o) result(status)
  use rpn_comm_collectives_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: global, local
  integer, intent(IN) :: setno, grid_id, dnk, lnk
  type(*), dimension(*), intent(IN) :: global
  type(*), dimension(*), intent(INOUT) :: local
  integer, intent(IN), dimension(dnk) :: liste_i
  logical, intent(INOUT), dimension(lnk) :: liste_o
  integer :: status
  integer(C_INT), dimension(max(dnk, 0)) :: li
  integer(C_INT), dimension(max(lnk, 0)) :: lo
  li = int(liste_i, C_INT)
  lo = merge(1_C_INT, 0_C_INT, liste_o)
  status = rpncomm_shuf_ezdist(int(setno, C_INT), int(grid_id, C_INT), global, int(dnk, C_INT), local, &
                               int(lnk, C_INT), li, lo)
  liste_o = lo /= 0
end function RPN_COMM_shuf_ezdist

! Every PE's local levels 1:lnk gathered on the I/O PEs (level k on member mod(k-1, npe), in its
! global(:, :, (k-1)/npe + 1)); liste_o(i) is the level held in global(:, :, i) on the members.
function RPN_COMM_shuf_ezcoll(setno, grid_id, global, dnk, local, lnk, liste_o) result(status)
  use rpn_comm_collectives_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: global, local
  integer, intent(IN) :: setno, grid_id, dnk, lnk
  type(*), dimension(*), intent(INOUT) :: global
  type(*), dimension(*), intent(IN) :: local
  integer, intent(INOUT), dimension(dnk) :: liste_o
  integer :: status
  integer(C_INT), dimension(max(dnk, 0)) :: lo
  lo = int(liste_o, C_INT)
  status = rpncomm_shuf_ezcoll(int(setno, C_INT), int(grid_id, C_INT), global, int(dnk, C_INT), local, &
                               int(lnk, C_INT), lo)
  liste_o = lo
end function RPN_COMM_shuf_ezcoll

! z(lnix, lnjy, gnk) <-> zt(lnix, lnjy, lnkx, npex) (lnix 4-byte words) over the row of the setup;
! ierr 0 or -1.
subroutine RPN_MPI_ez_transpose_xz(z, zt, forward, lnix, lnjy, lnkx, ierr)
  use rpn_comm_collectives_binding
  implicit none
  type(RPN_MPI_Loc), intent(IN), value :: z, zt
  logical, intent(IN) :: forward
  integer, intent(IN) :: lnix, lnjy, lnkx
  integer, intent(OUT) :: ierr
  ierr = rpncomm_mpi_ez_transpose_xz(z%p, zt%p, merge(1_C_INT, 0_C_INT, forward), int(lnix, C_INT), &
                                     int(lnjy, C_INT), int(lnkx, C_INT))
end subroutine RPN_MPI_ez_transpose_xz
