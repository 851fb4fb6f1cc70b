! utils_side_by_side.F90 -- the original's utilities, built against the original RPN_COMM 4.6.3
! and against this library (tests/reference/side_by_side.sh): every PE prints "pe ..."
! lines of their results, which must be the same. RPN_COMM_DEBUG, NODE_CPU_CONFIG and
! RPNCOMM_SBS_VAR come from the script. Only what the original does well-defined is asked
! (no empty copy, no unreadable debug field: the original's are undefined or stop the program).
program utils_side_by_side
  use ISO_C_BINDING
  implicit none
  include 'mpif.h'
  integer :: me, npes, ierr, status, lcpus, nsockets, nnuma, ht, map, ival, id, fd, u
  real(kind=4) :: rval
  logical :: lval
  character(len=64) :: value, sval
  character(len=4) :: short
  character(len=4096) :: home
  character(len=64) :: dir
  integer(C_INT), target :: nthreads
  character(kind=C_CHAR), dimension(8), target :: bytes
  integer, external :: RPN_COMM_chdir, RPN_COMM_hostid, RPN_COMM_set_timeout_alarm
  integer, external :: RPN_COMM_debug_str, RPN_COMM_debug_i, RPN_COMM_debug_r, RPN_COMM_debug_l, RPN_COMM_debug_s
  integer, external :: RPN_COMM_file_copy_start, RPN_COMM_file_bcst, f_omp_get_max_threads, f_rpn_comm_chdir
  include '../fortran/c_io_interfaces.inc'

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, npes, ierr)

  call RPN_COMM_env_var('RPNCOMM_SBS_VAR', value)
  print '(A,I0,A,A,A)', 'pe ', me, ' env_var "', trim(value), '"'
  value = 'x'
  call RPN_COMM_env_var('RPNCOMM_SBS_UNSET', value)
  print '(A,I0,A,A,A)', 'pe ', me, ' env_var unset "', trim(value), '"'
  value = 'kept'
  call rpn_comm_getenv('RPNCOMM_SBS_VAR'//achar(0), value, len(value))
  print '(A,I0,A,A,A)', 'pe ', me, ' rpn_comm_getenv "', trim(value), '"'
  print '(A,I0,A,Z8.8)', 'pe ', me, ' hostid ', RPN_COMM_hostid()
  status = RPN_COMM_set_timeout_alarm(100)
  print '(A,I0,A,I0,A,I0)', 'pe ', me, ' alarm ', status, ' then ', RPN_COMM_set_timeout_alarm(0)

  call getcwd(home)
  print '(A,I0,A,I0)', 'pe ', me, ' chdir missing ', RPN_COMM_chdir('/no/such/directory/here')
  print '(A,I0,A,I0)', 'pe ', me, ' chdir / ', RPN_COMM_chdir('/  ')
  call getcwd(value)
  print '(A,I0,A,A)', 'pe ', me, ' cwd ', trim(value)
  print '(A,I0,A,I0)', 'pe ', me, ' f_rpn_comm_chdir home ', f_rpn_comm_chdir(trim(home)//achar(0))
  call getcwd(value)
  print '(A,I0,A,L1)', 'pe ', me, ' back home ', trim(value) == trim(home) .or. len_trim(home) > len(value)

  call get_logical_cpu_configuration(lcpus, nsockets, nnuma, ht, map)
  print '(A,I0,A,5(1X,I0))', 'pe ', me, ' cpu configuration', lcpus, nsockets, nnuma, ht, map
  call set_logical_cpu_configuration(8, 1, 1, 1, 0)
  call get_logical_cpu_configuration(lcpus, nsockets, nnuma, ht, map)
  print '(A,I0,A,5(1X,I0))', 'pe ', me, ' cpu configuration set', lcpus, nsockets, nnuma, ht, map
  call init_logical_cpu_configuration()
  call get_logical_cpu_configuration(lcpus, nsockets, nnuma, ht, map)
  print '(A,I0,A,5(1X,I0))', 'pe ', me, ' cpu configuration init', lcpus, nsockets, nnuma, ht, map
  if (me == 0) call print_logical_cpu_configuration()

  status = RPN_COMM_debug_i('IVAL', ival)
  print '(A,I0,A,I0,1X,I0)', 'pe ', me, ' debug_i ', status, ival
  status = RPN_COMM_debug_r('RVAL', rval)
  print '(A,I0,A,I0,1X,F8.3)', 'pe ', me, ' debug_r ', status, rval
  status = RPN_COMM_debug_l('LVAL', lval)
  print '(A,I0,A,I0,1X,L1)', 'pe ', me, ' debug_l ', status, lval
  status = RPN_COMM_debug_s('SVAL', sval)
  print '(A,I0,A,I0,A,A,A)', 'pe ', me, ' debug_s ', status, ' "', trim(sval), '"'
  status = RPN_COMM_debug_s('LONG', sval)
  print '(A,I0,A,I0,A,A,A)', 'pe ', me, ' debug_s long ', status, ' "', trim(sval), '"'
  status = RPN_COMM_debug_str('QUOTED', value)
  print '(A,I0,A,I0,A,A,A)', 'pe ', me, ' debug_str quoted ', status, ' "', trim(value), '"'
  status = RPN_COMM_debug_str('SVAL', short)
  print '(A,I0,A,I0,A,A,A)', 'pe ', me, ' debug_str short ', status, ' "', short, '"'
  status = RPN_COMM_debug_str('NONE', value)
  print '(A,I0,A,I0,A,A,A)', 'pe ', me, ' debug_str none ', status, ' "', trim(value), '"'
  status = RPN_COMM_debug_i('NONE', ival)
  print '(A,I0,A,I0,1X,I0)', 'pe ', me, ' debug_i none ', status, ival
  status = RPN_COMM_debug_l('NONE', lval)
  print '(A,I0,A,I0,1X,L1)', 'pe ', me, ' debug_l none ', status, lval

  nthreads = 3
  call f_omp_set_num_threads(nthreads)
  print '(A,I0,A,I0)', 'pe ', me, ' omp max threads after set 3 ', f_omp_get_max_threads()

  ! files: each PE in a directory of its own
  write(dir, '(A,I0)') 'sbs_pe', me
  call execute_command_line('mkdir -p '//trim(dir))
  print '(A,I0,A,I0)', 'pe ', me, ' chdir own ', RPN_COMM_chdir(dir)
  fd = f_open('a'//achar(0), 1)
  print '(A,I0,A,L1)', 'pe ', me, ' open for writing ', fd >= 0
  bytes = transfer('abcdefgh', bytes)
  print '(A,I0,A,I0)', 'pe ', me, ' write ', f_write(fd, c_loc(bytes), 8_C_LONG_LONG)
  print '(A,I0,A,I0)', 'pe ', me, ' close ', f_close(fd)
  fd = f_open('a'//achar(0), 0)
  bytes = ' '
  print '(A,I0,A,I0)', 'pe ', me, ' read ', f_read(fd, c_loc(bytes), 8_C_LONG_LONG)
  print '(A,I0,A,8A)', 'pe ', me, ' read bytes ', bytes
  print '(A,I0,A,I0)', 'pe ', me, ' read at end ', f_read(fd, c_loc(bytes), 8_C_LONG_LONG)
  print '(A,I0,A,I0)', 'pe ', me, ' close ', f_close(fd)
  print '(A,I0,A,I0)', 'pe ', me, ' open missing ', f_open('/no/such/dir/file'//achar(0), 0)
  print '(A,I0,A,I0)', 'pe ', me, ' copy debug level ', f_copy(-1, -1, 0)
  print '(A,I0,A,I0)', 'pe ', me, ' copy now ', f_copy(f_open('a'//achar(0), 0), f_open('b'//achar(0), 1), 0)
  id = RPN_COMM_file_copy_start('a', 'c')
  print '(A,I0,A,I0)', 'pe ', me, ' copy start ', id
  print '(A,I0,A,I0)', 'pe ', me, ' wait ', f_wait(id)
  print '(A,I0,A,I0)', 'pe ', me, ' wait again ', f_wait(id)
  print '(A,I0,A,I0)', 'pe ', me, ' copy start missing ', RPN_COMM_file_copy_start('/no/such/file', 'd')
  print '(A,I0,A,I0)', 'pe ', me, ' wait other id ', f_wait(2)
  open(newunit=u, file='c', access='stream', status='old')
  value = ' '
  read(u) value(1:8)
  close(u)
  print '(A,I0,A,A)', 'pe ', me, ' copy holds ', trim(value)
  print '(A,I0,A,I0)', 'pe ', me, ' unlink ', f_unlink('a'//achar(0))
  print '(A,I0,A,I0)', 'pe ', me, ' unlink missing ', f_unlink('a'//achar(0))
  status = f_unlink('b'//achar(0)) + f_unlink('c'//achar(0))

  ! replication over MPI_COMM_WORLD (one host: no PE writes)
  if (me == 0) then
    open(newunit=u, file='replicated', access='stream', status='replace')
    write(u) 'abcdefgh'
    close(u)
  endif
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  ! (the result first: the original's RPN_COMM_file_bcst prints on failure, which inside an
  ! output statement would be recursive I/O)
  status = RPN_COMM_file_bcst('replicated', MPI_COMM_WORLD)
  print '(A,I0,A,I0)', 'pe ', me, ' file_bcst ', status
  status = RPN_COMM_file_bcst('missing', MPI_COMM_WORLD)
  print '(A,I0,A,I0)', 'pe ', me, ' file_bcst missing ', status
  status = f_unlink('replicated'//achar(0))
  status = RPN_COMM_chdir(home)

  call MPI_Finalize(ierr)
end program utils_side_by_side
