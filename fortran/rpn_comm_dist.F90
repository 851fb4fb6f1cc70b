! rpn_comm_dist.F90 -- the distribution routines GEM calls beside RPN_COMM_transpose, as external
! procedures: RPN_COMM_dist, RPN_COMM_coll, RPN_COMM_shuf_ezdist, RPN_COMM_shuf_ezcoll and the
! RPN_MPI layer's RPN_MPI_transpose_setup and RPN_MPI_ez_transpose_xz.
!
! Names and dummy arguments are the original RPN_COMM's (4.6.3); each routine only converts its
! arguments for the C ABI of the Rust core (src/ffi/dist.rs), which checks them, moves the data and
! reports errors (docs/gem.md has the rules). Arrays are passed as addresses of 4-byte words, of any
! type, as the original's implicit interfaces allow.

module rpn_comm_dist_binding
  use ISO_C_BINDING
  implicit none
  ! The RPN_MPI layer's wrapped address (RPN_MPI.hf declares the same type for callers).
  type, bind(C) :: RPN_MPI_Loc
    type(C_PTR) :: p
  end type RPN_MPI_Loc
  interface
    function rpncomm_dist(garr, gmini, gmaxi, gminj, gmaxj, nig, njg, nk, ghalox, ghaloy, size, &
                          larr, mini, maxi, minj, maxj, halox, haloy, periodx, periody) &
                          result(status) bind(C, name='rpncomm_dist')
      import :: C_INT
      type(*), dimension(*), intent(IN) :: garr
      type(*), dimension(*), intent(INOUT) :: larr
      integer(C_INT), intent(IN), value :: gmini, gmaxi, gminj, gmaxj, nig, njg, nk, ghalox, ghaloy, size
      integer(C_INT), intent(IN), value :: mini, maxi, minj, maxj, halox, haloy, periodx, periody
      integer(C_INT) :: status
    end function rpncomm_dist

    function rpncomm_coll(garr, gmini, gmaxi, gminj, gmaxj, nig, njg, nk, ghalox, ghaloy, size, &
                          larr, mini, maxi, minj, maxj, halox, haloy) result(status) bind(C, name='rpncomm_coll')
      import :: C_INT
      type(*), dimension(*), intent(INOUT) :: garr
      type(*), dimension(*), intent(IN) :: larr
      integer(C_INT), intent(IN), value :: gmini, gmaxi, gminj, gmaxj, nig, njg, nk, ghalox, ghaloy, size
      integer(C_INT), intent(IN), value :: mini, maxi, minj, maxj, halox, haloy
      integer(C_INT) :: status
    end function rpncomm_coll

    function rpncomm_shuf_ezdist(setno, grid_id, global, dnk, local, lnk, liste_i, liste_o) result(status) &
             bind(C, name='rpncomm_shuf_ezdist')
      import :: C_INT
      integer(C_INT), intent(IN), value :: setno, grid_id, dnk, lnk
      type(*), dimension(*), intent(IN) :: global
      type(*), dimension(*), intent(INOUT) :: local
      integer(C_INT), dimension(*), intent(IN) :: liste_i
      integer(C_INT), dimension(*), intent(INOUT) :: liste_o
      integer(C_INT) :: status
    end function rpncomm_shuf_ezdist

    function rpncomm_shuf_ezcoll(setno, grid_id, global, dnk, local, lnk, liste_o) result(status) &
             bind(C, name='rpncomm_shuf_ezcoll')
      import :: C_INT
      integer(C_INT), intent(IN), value :: setno, grid_id, dnk, lnk
      type(*), dimension(*), intent(INOUT) :: global
      type(*), dimension(*), intent(IN) :: local
      integer(C_INT), dimension(*), intent(INOUT) :: liste_o
      integer(C_INT) :: status
    end function rpncomm_shuf_ezcoll

    function rpncomm_mpi_transpose_setup(gnk, lnkx, row_comm, col_comm) result(status) &
             bind(C, name='rpncomm_mpi_transpose_setup')
      import :: C_INT
      integer(C_INT), intent(IN), value :: gnk, lnkx, row_comm, col_comm
      integer(C_INT) :: status
    end function rpncomm_mpi_transpose_setup

    function rpncomm_mpi_ez_transpose_xz(z, zt, forward, lnix, lnjy, lnkx) result(status) &
             bind(C, name='rpncomm_mpi_ez_transpose_xz')
      import :: C_INT, C_PTR
      type(C_PTR), intent(IN), value :: z, zt
      integer(C_INT), intent(IN), value :: forward, lnix, lnjy, lnkx
      integer(C_INT) :: status
    end function rpncomm_mpi_ez_transpose_xz
  end interface
end module rpn_comm_dist_binding

! Grid PE 0's garr(size, gmini:gmaxi, gminj:gmaxj, nk), an nig x njg field, cut into every PE's
! larr(size, mini:maxi, minj:maxj, nk) with halos halox, haloy (periodic or not); status 0 or -1.
subroutine RPN_COMM_dist(garr, gmini, gmaxi, gminj, gmaxj, nig, njg, nk, ghalox, ghaloy, size, &
                         larr, mini, maxi, minj, maxj, halox, haloy, periodx, periody, status)
  use rpn_comm_dist_binding
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
  use rpn_comm_dist_binding
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
  use rpn_comm_dist_binding
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
  use rpn_comm_dist_binding
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

! The stacked x-z transpose's setup: gnk levels, lnkx on this PE, over the row communicator
! row_comm (a Fortran MPI handle, as RPN_COMM_comm('EW') gives); ierr 0 or -1. MPI build.
subroutine RPN_MPI_transpose_setup(gnk, lnkx, row_comm, col_comm, ierr)
  use rpn_comm_dist_binding
  implicit none
  integer, intent(IN) :: row_comm, col_comm
  integer, intent(IN) :: gnk, lnkx
  integer, intent(OUT) :: ierr
  ierr = rpncomm_mpi_transpose_setup(int(gnk, C_INT), int(lnkx, C_INT), int(row_comm, C_INT), int(col_comm, C_INT))
end subroutine RPN_MPI_transpose_setup

! z(lnix, lnjy, gnk) <-> zt(lnix, lnjy, lnkx, npex) (lnix 4-byte words) over the row of the setup;
! ierr 0 or -1.
subroutine RPN_MPI_ez_transpose_xz(z, zt, forward, lnix, lnjy, lnkx, ierr)
  use rpn_comm_dist_binding
  implicit none
  type(RPN_MPI_Loc), intent(IN), value :: z, zt
  logical, intent(IN) :: forward
  integer, intent(IN) :: lnix, lnjy, lnkx
  integer, intent(OUT) :: ierr
  ierr = rpncomm_mpi_ez_transpose_xz(z%p, zt%p, merge(1_C_INT, 0_C_INT, forward), int(lnix, C_INT), &
                                     int(lnjy, C_INT), int(lnkx, C_INT))
end subroutine RPN_MPI_ez_transpose_xz
