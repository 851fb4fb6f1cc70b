! win_test_driver.F90 -- RPN_COMM_i_win_test, the original's self-test of the windows package,
! as a driver of this library's window routines: over the grid, with an integer window on the
! caller's array and one of twice its size in memory the library allocates, it puts into, gets
! from, puts and gets at once with, and accumulates into its right neighbour's window in each mode
! (active fence, active group with pes_to = right and pes_from = left, passive), and prints the
! original's verdict lines ('TEST INFO: ... test start', '... unexpected values found from PUT',
! '... test end', 'TEST ERROR: ...'); a mode with errors ends the test, as the original's does.
! nparams and params are not read (the original reads them neither).

subroutine RPN_COMM_i_win_test(nparams, params)
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer, intent(IN) :: nparams
  integer, dimension(nparams), intent(IN) :: params
  integer, parameter :: DATA_SIZE = 1024, NVAL = 5, OFFSET = 10
  type(rpncomm_window) :: window, window2
  type(rpncomm_datatype) :: dtype
  type(rpncomm_communicator) :: com
  type(rpncomm_operator) :: oper
  integer, dimension(DATA_SIZE), target :: my_data
  integer, dimension(NVAL), target :: local, fetched
  integer, dimension(:), allocatable :: errors
  integer, dimension(:), pointer :: fptr
  integer :: me, me_x, me_y, npes, ierr, i, wsiz, target_pe, from_pe, mode, kind, nerrors, st
  character(len=12), dimension(3), parameter :: modes = ['active fence', 'active group', 'passive     ']
  character(len=8), dimension(4), parameter :: kinds = ['PUT     ', 'GET     ', 'GET/PUT ', 'ACC     ']

  st = RPN_COMM_mype(me, me_x, me_y)
  call RPN_COMM_size(RPN_COMM_GRID, npes, ierr)
  print *, 'TEST INFO: this is PE', me + 1, ' of', npes
  allocate(errors(npes))
  call RPN_COMM_i_comm(RPN_COMM_GRID, com)
  call RPN_COMM_i_datyp(RPN_COMM_INTEGER, dtype)
  call RPN_COMM_i_oper(RPN_COMM_SUM, oper)
  my_data = [(-i, i = 1, DATA_SIZE)]
  call RPN_COMM_i_win_create(window, dtype, DATA_SIZE, com, C_LOC(my_data), ierr)
  if (ierr /= RPN_COMM_OK) then
    print *, 'TEST ERROR: cannot create window, PE=', me
    return
  endif
  print *, 'TEST INFO: created window, PE=', me
  call RPN_COMM_i_win_create(window2, dtype, 2 * DATA_SIZE, com, C_NULL_PTR, ierr)
  if (ierr /= RPN_COMM_OK) then
    print *, 'TEST ERROR: cannot create window2, PE=', me
    return
  endif
  print *, 'TEST INFO: created window2, PE=', me
  wsiz = RPN_COMM_i_win_get_size(window, ierr)
  if (me == 0) print *, 'TEST INFO: size associated to window =', wsiz
  call c_f_pointer(RPN_COMM_i_win_get_ptr(window, 1, ierr), fptr, [wsiz])
  nerrors = count(fptr /= my_data)
  print *, 'TEST INFO: nerrors for window =', nerrors
  if (nerrors > 0) return
  wsiz = RPN_COMM_i_win_get_size(window2, ierr)
  if (me == 0) print *, 'TEST INFO: size associated to window2 =', wsiz
  target_pe = mod(me + 1, npes)
  from_pe = mod(me + npes - 1, npes)
  print *, 'TEST INFO: target PE is', target_pe, ' accessing PE is', from_pe
  call RPN_COMM_i_win_oper(window, oper, ierr)
  if (ierr /= RPN_COMM_OK) then
    print *, 'TEST ERROR: cannot associate operator to window, PE=', me
    goto 777
  endif
  print *, 'TEST INFO: associated operator to window, PE=', me

  do kind = 1, 4
    do mode = 1, 3
      if (kind == 4 .and. mode == 2) cycle              ! the original accumulates in fence and passive modes
      my_data = [(-i - 100 * me, i = 1, DATA_SIZE)]
      local = [(2 * i, i = 1, NVAL)] + 100 * me
      fetched = 0
      print *, '=============================================================================='
      print *, 'TEST INFO: ', trim(kinds(kind)), ' ', trim(modes(mode)), ' mode test start'
      if (mode == 2) then
        call RPN_COMM_i_win_group(window, [target_pe], [from_pe], ierr)
        if (ierr /= RPN_COMM_OK) then
          print *, 'TEST ERROR: group creation failure'
        else
          print *, 'TEST INFO: group creation OK'
        endif
      endif
      call RPN_COMM_i_win_open(window, mode /= 3, ierr)
      if (ierr /= RPN_COMM_OK) then
        print *, 'TEST ERROR: cannot access/expose window, PE=', me
        goto 777
      endif
      print *, 'TEST INFO: accessing/exposing window, PE=', me
      if (kind == 2 .or. kind == 3) call RPN_COMM_i_win_get_r(window, C_LOC(fetched), target_pe, OFFSET, NVAL, ierr)
      if (kind == 1 .or. kind == 3) then
        ! the original puts after the get in one epoch only where they touch other elements
        if (kind == 3) then
          call RPN_COMM_i_win_put_r(window, C_LOC(local), target_pe, OFFSET + NVAL, NVAL, ierr)
        else
          call RPN_COMM_i_win_put_r(window, C_LOC(local), target_pe, OFFSET, NVAL, ierr)
        endif
      endif
      if (kind == 4) call RPN_COMM_i_win_acc_r(window, C_LOC(local), target_pe, OFFSET, NVAL, NULL_rpncomm_operator, ierr)
      call RPN_COMM_i_win_close(window, ierr)
      if (ierr /= RPN_COMM_OK) then
        print *, 'TEST ERROR: cannot end access/exposure to window, PE=', me
        goto 777
      endif
      print *, 'TEST INFO: ending access/exposure to window, PE=', me
      call RPN_COMM_barrier(RPN_COMM_GRID, ierr)
      nerrors = 0
      ! what the left neighbour left here, what was read from the right one
      do i = 1, NVAL
        select case (kind)
        case (1)
          if (my_data(OFFSET + i) /= 2 * i + 100 * from_pe) nerrors = nerrors + 1
        case (2)
          if (fetched(i) /= -(OFFSET + i) - 100 * target_pe) nerrors = nerrors + 1
        case (3)
          if (fetched(i) /= -(OFFSET + i) - 100 * target_pe) nerrors = nerrors + 1
          if (my_data(OFFSET + NVAL + i) /= 2 * i + 100 * from_pe) nerrors = nerrors + 1
        case (4)
          if (my_data(OFFSET + i) /= -(OFFSET + i) - 100 * me + 2 * i + 100 * from_pe) nerrors = nerrors + 1
        end select
      enddo
      errors = 0
      call RPN_COMM_allgather(nerrors, 1, RPN_COMM_INTEGER, errors, 1, RPN_COMM_INTEGER, RPN_COMM_GRID, ierr)
      print *, 'TEST INFO:', sum(errors), ' unexpected values found from ', trim(kinds(kind)), errors
      if (mode == 2) then
        call RPN_COMM_i_win_group(window, [-1], [-1], ierr)
        if (ierr /= RPN_COMM_OK) then
          print *, 'TEST ERROR: window group deletion failure'
        else
          print *, 'TEST INFO: window group deletion OK'
        endif
      endif
      if (sum(errors) > 0) goto 777
      print *, 'TEST INFO: ', trim(kinds(kind)), ' ', trim(modes(mode)), ' mode test end'
    enddo
  enddo

777 continue
  call RPN_COMM_i_win_free(window, ierr)
  if (ierr == RPN_COMM_OK) then
    print *, 'TEST INFO: freed window, PE=', me
  else
    print *, 'TEST ERROR: cannot free window, PE=', me
  endif
  call RPN_COMM_i_win_free(window2, ierr)
  if (ierr == RPN_COMM_OK) then
    print *, 'TEST INFO: freed window2, PE=', me
  else
    print *, 'TEST ERROR: cannot free window2, PE=', me
  endif
  if (nparams < 0) print *, params   ! (neither is read)
end subroutine RPN_COMM_i_win_test
