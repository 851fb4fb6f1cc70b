! diag.F90 -- RPN_COMM_diag: a diagnostic gathered by the caller's callback, first along each
! row of PEs (west to east), then along each column (north to south), on the library's own
! broadcasts over 'EW' and 'NS', so that it runs on both transports.
! Its signature is a row of fortran/routines.toml.
!
! The callback, Sub(Array, Minx, Maxx, Miny, Maxy, Ni, Nj, Nk, R_8, Nr, Tmp_8, pass, first), is
! called twice on every PE, in chain order:
! - pass 1 builds Tmp_8 (Miny:Maxy, Nk, Nr): the westmost PE of a row starts it (first =
!   .true.), every other PE gets the west neighbour's Tmp_8 and goes on (first = .false.); the
!   eastmost PE's Tmp_8 is then given to the whole row;
! - pass 2 builds R_8 (Nk, Nr) the same way from the northmost PE of a column down to the
!   southmost, whose R_8 is then given to the whole column.
! Every PE of a column ends with the same R_8. Fast is not used (nor was it in the original). A failed
! broadcast ends the PE with one line naming the routine.
subroutine RPN_COMM_diag(Sub, Array, Minx, Maxx, Miny, Maxy, Ni, Nj, Nk, R_8, Nr, Tmp_8, Fast)
  use ISO_FORTRAN_ENV, only: ERROR_UNIT
  use rpn_comm_output_flush, only: rpn_comm_stop_refused
  implicit none
  external :: Sub
  integer :: Minx, Maxx, Miny, Maxy, Ni, Nj, Nk, Nr
  logical :: Fast
  real :: Array(Minx:Maxx, Miny:Maxy, Nk)
  real(kind=kind(1.d0)) :: R_8(Nk, Nr), Tmp_8(Miny:Maxy, Nk, Nr)
  integer, external :: RPN_COMM_mype
  external :: RPN_COMM_bcast, RPN_COMM_size
  integer :: me, mex, mey, nx, ny, x, y, ierr, ntmp, nr8
  character(len=48) :: step

  if (.false.) then
    if (Fast) continue
  endif
  ierr = RPN_COMM_mype(me, mex, mey)
  call RPN_COMM_size('EW', nx, ierr)
  if (ierr /= 0) then
    step = 'the size of its row of PEs'
    goto 900
  endif
  call RPN_COMM_size('NS', ny, ierr)
  if (ierr /= 0) then
    step = 'the size of its column of PEs'
    goto 900
  endif
  ntmp = (Maxy - Miny + 1) * Nk * Nr
  nr8 = Nk * Nr

  ! pass 1, west to east: each PE of the row in turn calls Sub on what its west neighbour made,
  ! then gives the result to the row (a broadcast, not a message to the east PE alone: the
  ! shared-memory transport has broadcasts, not point-to-point messages); the eastmost PE's
  ! broadcast is the result of the row
  do x = 0, nx - 1
    if (x == mex) call Sub(Array, Minx, Maxx, Miny, Maxy, Ni, Nj, Nk, R_8, Nr, Tmp_8, 1, x == 0)
    call RPN_COMM_bcast(Tmp_8, ntmp, 'MPI_DOUBLE_PRECISION', x, 'EW', ierr)
    if (ierr /= 0) then
      step = 'the broadcast along its row'
      goto 900
    endif
  enddo

  ! pass 2, north to south along the column in the same way; the southmost PE's broadcast is
  ! the result
  do y = ny - 1, 0, -1
    if (y == mey) call Sub(Array, Minx, Maxx, Miny, Maxy, Ni, Nj, Nk, R_8, Nr, Tmp_8, 2, y == ny - 1)
    call RPN_COMM_bcast(R_8, nr8, 'MPI_DOUBLE_PRECISION', y, 'NS', ierr)
    if (ierr /= 0) then
      step = 'the broadcast along its column'
      goto 900
    endif
  enddo
  return

900 write(ERROR_UNIT, '(A,I0,A,A,A,I0)') 'RPN_COMM_diag on PE ', me, ': ', trim(step), ' failed, error ', ierr
  call rpn_comm_stop_refused()
end subroutine RPN_COMM_diag
