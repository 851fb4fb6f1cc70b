! diag.F90 -- RPN_COMM_diag: a diagnostic gathered by the caller's callback, first along each
! row of PEs (west to east), then along each column (north to south), on the library's own
! point-to-point messages and broadcasts over 'EW' and 'NS', so that it runs on both transports.
! Its signature is a row of fortran/routines.toml.
!
! The callback, Sub(Array, Minx, Maxx, Miny, Maxy, Ni, Nj, Nk, R_8, Nr, Tmp_8, pass, first), is
! called twice on every PE, in chain order:
! - pass 1 builds Tmp_8 (Miny:Maxy, Nk, Nr): the westmost PE of a row starts it (first =
!   .true.), every other PE gets the west neighbour's Tmp_8 and goes on (first = .false.); the
!   eastmost PE's Tmp_8 is then given to the whole row;
! - pass 2 builds R_8 (Nk, Nr) the same way from the northmost PE of a column down to the
!   southmost, whose R_8 is then given to the whole column.
! So every PE ends with the same R_8. Fast is not used (nor was it in the original). A failed
! message ends the PE with one line naming the routine.
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
  external :: RPN_COMM_send, RPN_COMM_recv, RPN_COMM_bcast, RPN_COMM_size
  ! one tag per pass: a PE's two passes never meet the other's messages
  integer, parameter :: ROW_TAG = 7101, COLUMN_TAG = 7102
  integer :: me, mex, mey, nx, ny, ierr, status, ntmp, nr8
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

  ! pass 1, west to east along the row, then from the eastmost PE to the row
  if (mex == 0) then
    call Sub(Array, Minx, Maxx, Miny, Maxy, Ni, Nj, Nk, R_8, Nr, Tmp_8, 1, .true.)
  else
    call RPN_COMM_recv(Tmp_8, ntmp, 'MPI_DOUBLE_PRECISION', mex - 1, ROW_TAG, 'EW', status, ierr)
    if (ierr /= 0) then
    step = 'the message from its west neighbour'
    goto 900
  endif
    call Sub(Array, Minx, Maxx, Miny, Maxy, Ni, Nj, Nk, R_8, Nr, Tmp_8, 1, .false.)
  endif
  if (mex < nx - 1) then
    call RPN_COMM_send(Tmp_8, ntmp, 'MPI_DOUBLE_PRECISION', mex + 1, ROW_TAG, 'EW', ierr)
    if (ierr /= 0) then
    step = 'the message to its east neighbour'
    goto 900
  endif
  endif
  call RPN_COMM_bcast(Tmp_8, ntmp, 'MPI_DOUBLE_PRECISION', nx - 1, 'EW', ierr)
  if (ierr /= 0) then
    step = 'the broadcast along its row'
    goto 900
  endif

  ! pass 2, north to south along the column, then from the southmost PE to the column
  if (mey == ny - 1) then
    call Sub(Array, Minx, Maxx, Miny, Maxy, Ni, Nj, Nk, R_8, Nr, Tmp_8, 2, .true.)
  else
    call RPN_COMM_recv(R_8, nr8, 'MPI_DOUBLE_PRECISION', mey + 1, COLUMN_TAG, 'NS', status, ierr)
    if (ierr /= 0) then
    step = 'the message from its north neighbour'
    goto 900
  endif
    call Sub(Array, Minx, Maxx, Miny, Maxy, Ni, Nj, Nk, R_8, Nr, Tmp_8, 2, .false.)
  endif
  if (mey > 0) then
    call RPN_COMM_send(R_8, nr8, 'MPI_DOUBLE_PRECISION', mey - 1, COLUMN_TAG, 'NS', ierr)
    if (ierr /= 0) then
    step = 'the message to its south neighbour'
    goto 900
  endif
  endif
  call RPN_COMM_bcast(R_8, nr8, 'MPI_DOUBLE_PRECISION', 0, 'NS', ierr)
  if (ierr /= 0) then
    step = 'the broadcast along its column'
    goto 900
  endif

  return

900 write(ERROR_UNIT, '(A,I0,A,A,A,I0)') 'RPN_COMM_diag on PE ', me, ': ', trim(step), ' failed, error ', ierr
  call rpn_comm_stop_refused()
end subroutine RPN_COMM_diag
