! PES: 1 2 4
! TIMEOUT: 60
! NODES: one
! OUTPUT_HAS@1: NO unbinding will be done
! ENV: RPNCOMM_TEST_VAR=abc NODE_CPU_CONFIG=64,2,4,2,1 RPN_COMM_DEBUG=IVAL=12:RVAL=1.5:LVAL=T:SVAL=hello:BAD=x
!
! The original's utilities (include 'RPN_COMM.inc'): RPN_COMM_env_var and the C rpn_comm_getenv,
! RPN_COMM_chdir and f_rpn_comm_chdir, RPN_COMM_hostid, RPN_COMM_set_timeout_alarm,
! get/set/init/print_logical_cpu_configuration (NODE_CPU_CONFIG), RPN_COMM_debug_str/_i/_r/_l/_s
! (RPN_COMM_DEBUG), f_omp_set_num_threads/f_omp_get_max_threads, rpn_comm_unbind_process, the descriptor calls
! f_RPN_COMM_open/_read/_write/_close/_unlink/_copy/_wait, RPN_COMM_file_copy_start, and
! RPN_COMM_file_bcst: refused on shared memory (no MPI communicator exists there); over MPI, each
! PE in a directory of its own (RPN_COMM_chdir) and two PEs per pretend node, the file of rank 0
! reaches the first PE of every other node only.
program test_utils
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, nerr
  integer :: status, lcpus, nsockets, nnuma, ht, map, ival, id, fd, com, job, ierr, u, k
  real(kind=4) :: rval
  logical :: lval, there
  character(len=64) :: value, sval
  character(len=4096) :: home
  character(len=16) :: line
  integer(C_INT), target :: nthreads
  character(kind=C_CHAR), dimension(8), target :: bytes
  integer, external :: rpn_comm_getenv, f_rpn_comm_chdir, f_omp_get_max_threads
  ! as with the original, whose includes do not declare them
  integer, external :: RPN_COMM_debug_str, RPN_COMM_debug_i, RPN_COMM_debug_r, RPN_COMM_debug_l, RPN_COMM_debug_s
  integer, external :: RPN_COMM_file_copy_start, RPN_COMM_file_bcst
  interface
    function c_gethostid() result(id) bind(C, name='gethostid')
      import :: C_LONG
      integer(C_LONG) :: id
    end function c_gethostid
    function c_getcwd(buf, size) result(p) bind(C, name='getcwd')
      import :: C_CHAR, C_SIZE_T, C_PTR
      character(kind=C_CHAR), dimension(*) :: buf
      integer(C_SIZE_T), value :: size
      type(C_PTR) :: p
    end function c_getcwd
    function c_getpid() result(pid) bind(C, name='getpid')
      import :: C_INT
      integer(C_INT) :: pid
    end function c_getpid
    function setenv(name, value, overwrite) result(rc) bind(C, name='setenv')
      import :: C_INT, C_CHAR
      character(kind=C_CHAR), dimension(*) :: name, value
      integer(C_INT), value :: overwrite
      integer(C_INT) :: rc
    end function setenv
  end interface
  include 'c_io_interfaces.inc'

  call start('test_utils')

  call section('environment')
  value = 'x'
  call RPN_COMM_env_var('RPNCOMM_TEST_VAR', value)
  call check(value == 'abc', 'RPN_COMM_env_var: '//trim(value))
  call RPN_COMM_env_var('RPNCOMM_TEST_UNSET_VAR', value)
  call check(value == ' ', 'RPN_COMM_env_var of an unset variable gives blanks')
  value = 'x'
  status = rpn_comm_getenv('RPNCOMM_TEST_VAR'//achar(0), value, len(value))
  call check(status == 0 .and. value == 'abc', 'rpn_comm_getenv: '//trim(value))
  value = 'kept'
  status = rpn_comm_getenv('RPNCOMM_TEST_UNSET_VAR'//achar(0), value, len(value))
  call check(status == -1 .and. value == 'kept', 'rpn_comm_getenv of an unset variable leaves the value')
  call check(RPN_COMM_hostid() == int(c_gethostid()), 'RPN_COMM_hostid is gethostid')
  call check(RPN_COMM_set_timeout_alarm(100) == 0, 'no alarm before')
  status = RPN_COMM_set_timeout_alarm(0)
  call check(status >= 99 .and. status <= 100, 'the alarm set before is returned: '//str(status))

  call section('directories')
  home = cwd()
  call check(RPN_COMM_chdir('/no/such/directory/here') == -1, 'RPN_COMM_chdir to a missing directory')
  call check(RPN_COMM_chdir('/   ') == 0, 'RPN_COMM_chdir /')
  call check(f_rpn_comm_chdir(trim(home)//achar(0)) == 0, 'f_rpn_comm_chdir back')
  call check(cwd() == home, 'back home: '//trim(cwd()))

  call section('cpu configuration')
  call get_logical_cpu_configuration(lcpus, nsockets, nnuma, ht, map)
  call check(all([lcpus, nsockets, nnuma, ht, map] == [64, 2, 4, 2, 1]), 'NODE_CPU_CONFIG read')
  call set_logical_cpu_configuration(8, 1, 1, 1, 0)
  call get_logical_cpu_configuration(lcpus, nsockets, nnuma, ht, map)
  call check(all([lcpus, nsockets, nnuma, ht, map] == [8, 1, 1, 1, 0]), 'set_logical_cpu_configuration')
  call init_logical_cpu_configuration()
  call get_logical_cpu_configuration(lcpus, nsockets, nnuma, ht, map)
  call check(all([lcpus, nsockets, nnuma, ht, map] == [64, 2, 4, 2, 1]), 'init_logical_cpu_configuration')
  if (me == 0) call print_logical_cpu_configuration()

  call section('debug flags')
  call check(RPN_COMM_debug_i('IVAL', ival) == 0 .and. ival == 12, 'RPN_COMM_debug_i')
  call check(RPN_COMM_debug_r('RVAL', rval) == 0 .and. rval == 1.5, 'RPN_COMM_debug_r')
  call check(RPN_COMM_debug_l('LVAL', lval) == 0 .and. lval, 'RPN_COMM_debug_l')
  call check(RPN_COMM_debug_s('SVAL', sval) == 0 .and. sval == 'hello', 'RPN_COMM_debug_s')
  call check(RPN_COMM_debug_str('SVAL', line) == 0 .and. line == 'hello', 'RPN_COMM_debug_str')
  call check(RPN_COMM_debug_str('NONE', line) == -1 .and. line == ' ', 'RPN_COMM_debug_str of a missing field')
  call check(RPN_COMM_debug_i('NONE', ival) == -1 .and. ival == 0, 'RPN_COMM_debug_i of a missing field')
  call check(RPN_COMM_debug_i('BAD', ival) == -1 .and. ival == 0, 'RPN_COMM_debug_i of a field not a number')

  call section('OpenMP threads')
  nthreads = 3
  call f_omp_set_num_threads(nthreads)
  call check(f_omp_get_max_threads() == 3, 'f_omp_set_num_threads then f_omp_get_max_threads')

  call section('unbinding')
  ! one thread asked (OMP_NUM_THREADS unset), FULL_UNBIND unset: nothing to unbind
  call rpn_comm_unbind_process()

  call section('files')
  write(value, '(A,I0,A,I0)') 'rpncomm_test_utils_', me, '_', c_getpid()
  fd = f_open(trim(value)//'.a'//achar(0), 1)
  call check(fd >= 0, 'f_RPN_COMM_open for writing')
  bytes = transfer('abcdefgh', bytes)
  call check(f_write(fd, c_loc(bytes), 8_C_LONG_LONG) == 8, 'f_RPN_COMM_write')
  call check(f_close(fd) == 0, 'f_RPN_COMM_close')
  fd = f_open(trim(value)//'.a'//achar(0), 0)
  bytes = ' '
  call check(f_read(fd, c_loc(bytes), 8_C_LONG_LONG) == 8 .and. transfer(bytes, 'abcdefgh') == 'abcdefgh', 'f_RPN_COMM_read')
  call check(f_read(fd, c_loc(bytes), 8_C_LONG_LONG) == 0, 'f_RPN_COMM_read at the end')
  call check(f_close(fd) == 0, 'f_RPN_COMM_close after reading')
  call check(f_open('/no/such/directory/file'//achar(0), 0) == -1, 'f_RPN_COMM_open of a missing file')
  call check(f_copy(f_open(trim(value)//'.a'//achar(0), 0), f_open(trim(value)//'.b'//achar(0), 1), 0) == 0, &
             'f_RPN_COMM_copy now')
  id = RPN_COMM_file_copy_start(trim(value)//'.a', trim(value)//'.c')
  call check(id == 1, 'RPN_COMM_file_copy_start: '//str(id))
  call check(f_wait(id) == 0, 'f_RPN_COMM_wait')
  call check(f_wait(id) == -1, 'f_RPN_COMM_wait with nothing to wait for')
  call check(RPN_COMM_file_copy_start('/no/such/file', trim(value)//'.d') == -1, 'a copy of a missing file')
  do k = 1, 2
    open(newunit=u, file=trim(value)//merge('.b', '.c', k == 1), access='stream', status='old', iostat=ierr)
    line = ' '
    if (ierr == 0) read(u, iostat=ierr) line(1:8)
    if (ierr == 0) close(u)
    call check(ierr == 0 .and. line == 'abcdefgh', 'the copy holds the file: '//line)
  enddo
  call check(f_unlink(trim(value)//'.a'//achar(0)) == 0, 'f_RPN_COMM_unlink')
  call check(f_unlink(trim(value)//'.a'//achar(0)) == -1, 'f_RPN_COMM_unlink of a missing file')
  status = f_unlink(trim(value)//'.b'//achar(0)) + f_unlink(trim(value)//'.c'//achar(0))

  call section('file replication')
  com = RPN_COMM_comm('WORLD')
  if (com == -1) then
    ! shared memory: there is no MPI communicator to replicate over
    call check(RPN_COMM_file_bcst('whatever', com) == -1, 'RPN_COMM_file_bcst refused on shared memory')
  else
    job = 0
    if (me == 0) job = c_getpid()
    call RPN_COMM_bcast(job, 1, 'MPI_INTEGER', 0, 'GRID', ierr)
    write(value, '(A,I0,A,I0)') '/tmp/rpncomm_test_utils_', job, '/pe', me
    call execute_command_line('mkdir -p '//trim(value))
    call check(RPN_COMM_chdir(value) == 0, 'RPN_COMM_chdir '//trim(value))
    if (me == 0) then
      open(newunit=u, file='replicated', access='stream', status='replace')
      write(u) 'abcdefgh'
      close(u)
    endif
    ! pretend nodes of 2 consecutive PEs, which is why the test runs on one node only (NODES:
    ! one): across real nodes the PEs of a node are not consecutive
    status = setenv('RPNCOMM_NODE_SPLIT'//achar(0), '2'//achar(0), 1_C_INT)
    status = RPN_COMM_file_bcst('replicated', com)
    call check(status == 0, 'RPN_COMM_file_bcst: '//str(status))
    inquire(file='replicated', exist=there)
    call check(there .eqv. (mod(me, 2) == 0), 'the file is on the first PE of every node only')
    call check(RPN_COMM_file_bcst('missing', com) == 1, 'RPN_COMM_file_bcst of a missing file: 1 PE failed')
    call RPN_COMM_barrier('GRID', ierr)
    call check(RPN_COMM_chdir(home) == 0, 'back home')
    call RPN_COMM_barrier('GRID', ierr)
    if (me == 0) then
      write(value, '(A,I0)') '/tmp/rpncomm_test_utils_', job
      call execute_command_line('rm -rf '//trim(value))
    endif
  endif

  call finish('test_utils')

contains

  ! the working directory, blank-filled
  function cwd() result(dir)
    character(len=4096) :: dir
    character(kind=C_CHAR), dimension(4096) :: buf
    integer :: i
    dir = ' '
    if (.not. c_associated(c_getcwd(buf, 4096_C_SIZE_T))) return
    do i = 1, 4096
      if (buf(i) == c_null_char) exit
      dir(i:i) = buf(i)
    enddo
  end function cwd

  include 'tutil.inc'

end program test_utils
