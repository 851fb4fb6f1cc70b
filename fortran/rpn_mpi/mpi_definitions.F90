! mpi_definitions.F90 -- the RPN_MPI layer's copies of MPI's constants and of this PE's layout
! (communicators, ranks, sizes), for codes calling MPI without including MPI's own files.
!
! The constants come from MPI's mpif.h, so this source is compiled with RPNCOMM_MPI_BUILD in the
! MPI builds that have MPI's Fortran; elsewhere (shared memory, an MPI without Fortran) they do
! not exist and RPN_MPI_get_mpi_definitions* refuse with one line. The layout is the grid
! RPN_COMM_init made (rpn_comm_globals), on both transports.

module rpn_mpi_definitions_store
  use ISO_C_BINDING
  implicit none
  private
#include "RPN_MPI_mpi_definitions.hf"
  public :: mpi_symbols_version, layout_version, RPN_MPI_mpi_definitions_raw, mpi_layout_r, &
            mpi_layout_internal, RPN_MPI_csr, definitions_raw, layout_now, layout_internal_now, &
            status_success, status_error, version_matches
#ifdef RPNCOMM_MPI_BUILD
  include 'mpif.h'
#endif

contains

  ! what ierr says: MPI's MPI_SUCCESS and MPI_ERROR (the original's values), 0 and -1 without MPI
  integer function status_success()
#ifdef RPNCOMM_MPI_BUILD
    status_success = MPI_SUCCESS
#else
    status_success = 0
#endif
  end function status_success

  integer function status_error()
#ifdef RPNCOMM_MPI_BUILD
    status_error = MPI_ERROR
#else
    status_error = -1
#endif
  end function status_error

  ! .true. when the caller's table has this build's version (`expected`); else the original's
  ! refusal: a line naming the routine, and version = -1
  logical function version_matches(version, expected, routine)
    integer, intent(INOUT) :: version
    integer, intent(IN) :: expected
    character(len=*), intent(IN) :: routine
    version_matches = version == expected
    if (version_matches) return
    write(0, '(A,I0,A,I0)') 'ERROR: (' // routine // ') version mismatch, expected ', expected, ', got ', version
    version = -1
  end function version_matches

  ! MPI's constants in the table's order; .false. where this build has no MPI Fortran
  logical function definitions_raw(d)
    type(RPN_MPI_mpi_definitions_raw), intent(OUT) :: d
    d%version = mpi_symbols_version
#ifdef RPNCOMM_MPI_BUILD
    d%MPI_GROUP_NULL = MPI_GROUP_NULL
    d%MPI_REQUEST_NULL = MPI_REQUEST_NULL
    d%MPI_ERRHANDLER_NULL = MPI_ERRHANDLER_NULL
    d%MPI_INFO_NULL = MPI_INFO_NULL
    d%MPI_WIN_NULL = MPI_WIN_NULL
    d%MPI_STATUS_SIZE = MPI_STATUS_SIZE
    d%MPI_ANY_SOURCE = MPI_ANY_SOURCE
    d%MPI_ANY_TAG = MPI_ANY_TAG
    d%MPI_SUCCESS = MPI_SUCCESS
    d%MPI_ERROR = MPI_ERROR
    d%MPI_ERRORS_ARE_FATAL = MPI_ERRORS_ARE_FATAL
    d%MPI_ERRORS_RETURN = MPI_ERRORS_RETURN
    d%MPI_COMM_NULL = MPI_COMM_NULL
    d%MPI_COMM_WORLD = MPI_COMM_WORLD
    d%MPI_COMM_SELF = MPI_COMM_SELF
    d%MPI_GROUP_EMPTY = MPI_GROUP_EMPTY
    d%MPI_COMM_TYPE_SHARED = MPI_COMM_TYPE_SHARED
    d%MPI_DATATYPE_NULL = MPI_DATATYPE_NULL
    d%MPI_BYTE = MPI_BYTE
    d%MPI_PACKED = MPI_PACKED
    d%MPI_UB = MPI_UB
    d%MPI_LB = MPI_LB
    d%MPI_CHARACTER = MPI_CHARACTER
    d%MPI_LOGICAL = MPI_LOGICAL
    d%MPI_INTEGER = MPI_INTEGER
    d%MPI_INTEGER1 = MPI_INTEGER1
    d%MPI_INTEGER2 = MPI_INTEGER2
    d%MPI_INTEGER4 = MPI_INTEGER4
    d%MPI_INTEGER8 = MPI_INTEGER8
    d%MPI_INTEGER16 = MPI_INTEGER16
    d%MPI_REAL = MPI_REAL
    d%MPI_REAL4 = MPI_REAL4
    d%MPI_REAL8 = MPI_REAL8
    d%MPI_REAL16 = MPI_REAL16
    d%MPI_DOUBLE_PRECISION = MPI_DOUBLE_PRECISION
    d%MPI_COMPLEX = MPI_COMPLEX
    d%MPI_COMPLEX8 = MPI_COMPLEX8
    d%MPI_COMPLEX16 = MPI_COMPLEX16
    d%MPI_COMPLEX32 = MPI_COMPLEX32
    d%MPI_DOUBLE_COMPLEX = MPI_DOUBLE_COMPLEX
    d%MPI_2REAL = MPI_2REAL
    d%MPI_2DOUBLE_PRECISION = MPI_2DOUBLE_PRECISION
    d%MPI_2INTEGER = MPI_2INTEGER
    d%MPI_OP_NULL = MPI_OP_NULL
    d%MPI_MAX = MPI_MAX
    d%MPI_MIN = MPI_MIN
    d%MPI_SUM = MPI_SUM
    d%MPI_PROD = MPI_PROD
    d%MPI_LAND = MPI_LAND
    d%MPI_BAND = MPI_BAND
    d%MPI_LOR = MPI_LOR
    d%MPI_BOR = MPI_BOR
    d%MPI_LXOR = MPI_LXOR
    d%MPI_BXOR = MPI_BXOR
    d%MPI_MAXLOC = MPI_MAXLOC
    d%MPI_MINLOC = MPI_MINLOC
    d%MPI_REPLACE = MPI_REPLACE
    d%MPI_THREAD_SINGLE = MPI_THREAD_SINGLE
    d%MPI_THREAD_FUNNELED = MPI_THREAD_FUNNELED
    d%MPI_THREAD_SERIALIZED = MPI_THREAD_SERIALIZED
    d%MPI_THREAD_MULTIPLE = MPI_THREAD_MULTIPLE
    definitions_raw = .true.
#else
    definitions_raw = .false.
#endif
  end function definitions_raw

  ! one trio; no communicator where the build has no MPI handles (RPN_COMM_comm's -1)
  function trio(comm, size, rank) result(t)
    integer, intent(IN) :: comm, size, rank
    type(RPN_MPI_csr) :: t
    t = RPN_MPI_csr(comm, size, rank)
  end function trio

  ! The layout after RPN_COMM_init, from its grid: the job (wrld), the domain of all grids (appl),
  ! the multigrid (sgrd), the grid and its row and column. The library makes no service (I/O)
  ! PEs, so compute is all; the node and NUMA splits, the peers across multigrids and the blocks
  ! are not made by RPN_COMM_init: null communicator, size and rank -1, as before RPN_COMM_init.
  function layout_now() result(l)
    use rpn_comm_globals
    type(mpi_layout_r) :: l
    integer, external :: RPN_COMM_hostid
    integer :: null
    type(RPN_MPI_csr) :: none
    null = -1
#ifdef RPNCOMM_MPI_BUILD
    null = MPI_COMM_NULL
#endif
    none = RPN_MPI_csr(null, -1, -1)
    l%version = layout_version
    l%host = RPN_COMM_hostid()
    l%numa = -1
    l%colors = -1
    l%wrld%all = none
    l%wrld%same_node = none
    l%wrld%same_numa = none
    l%appl = l%wrld
    l%sgrd%all = none
    l%sgrd%compute = none
    l%sgrd%service = none
    l%sgrd%same_node = none
    l%sgrd%same_numa = none
    l%sgrd%node_peer = none
    l%sgrd%numa_peer = none
    l%sgrd%grid_peer = none
    l%sgrd%row = none
    l%sgrd%column = none
    l%grid = l%sgrd
    l%blck%all = none
    l%blck%row = none
    l%blck%column = none
    if (.not. RPM_COMM_IS_INITIALIZED) return
    l%colors = my_colors
    l%wrld%all = trio(comm_or(pe_all_domains, null), pe_tot_all_domains, pe_me_all_domains)
    l%appl%all = trio(comm_or(pe_a_domain, null), pe_tot_a_domain, pe_me_a_domain)
    l%sgrd%all = trio(comm_or(pe_multi_grid, null), pe_tot_multi_grid, pe_me_multi_grid)
    l%sgrd%compute = l%sgrd%all
    l%grid%all = trio(comm_or(pe_grid, null), pe_tot_grid, pe_me_grid)
    l%grid%compute = l%grid%all
    l%grid%grid_peer = trio(comm_or(pe_grid_peers, null), pe_tot_peer, pe_me_peer)
    l%grid%row = trio(comm_or(pe_myrow, null), pe_nx, pe_mex)
    l%grid%column = trio(comm_or(pe_mycol, null), pe_ny, pe_mey)
  end function layout_now

  ! a module variable's communicator, or the null one where the build has none (-1)
  integer function comm_or(comm, null)
    integer, intent(IN) :: comm, null
    comm_or = comm
    if (comm == -1) comm_or = null
  end function comm_or

  ! the same, communicators first (the older layout)
  function layout_internal_now() result(m)
    type(mpi_layout_internal) :: m
    type(mpi_layout_r) :: l
    l = layout_now()
    m%version = l%version
    m%host = l%host
    m%numa = l%numa
    m%colors = l%colors
    call copy_trio(l%wrld%all, m%comm%wrld%all, m%rank%wrld%all, m%size%wrld%all)
    call copy_trio(l%wrld%same_node, m%comm%wrld%same_node, m%rank%wrld%same_node, m%size%wrld%same_node)
    call copy_trio(l%wrld%same_numa, m%comm%wrld%same_numa, m%rank%wrld%same_numa, m%size%wrld%same_numa)
    call copy_trio(l%appl%all, m%comm%appl%all, m%rank%appl%all, m%size%appl%all)
    call copy_trio(l%appl%same_node, m%comm%appl%same_node, m%rank%appl%same_node, m%size%appl%same_node)
    call copy_trio(l%appl%same_numa, m%comm%appl%same_numa, m%rank%appl%same_numa, m%size%appl%same_numa)
    call copy_grid(l%sgrd, m%comm%sgrd, m%rank%sgrd, m%size%sgrd)
    call copy_grid(l%grid, m%comm%grid, m%rank%grid, m%size%grid)
    call copy_trio(l%blck%all, m%comm%blck%all, m%rank%blck%all, m%size%blck%all)
    call copy_trio(l%blck%row, m%comm%blck%row, m%rank%blck%row, m%size%blck%row)
    call copy_trio(l%blck%column, m%comm%blck%column, m%rank%blck%column, m%size%blck%column)
  end function layout_internal_now

  ! one trio into the three hierarchies of the older layout
  subroutine copy_trio(t, c, r, s)
    type(RPN_MPI_csr), intent(IN) :: t
    integer(C_INT), intent(OUT) :: c, r, s
    c = t%comm
    r = t%rank
    s = t%size
  end subroutine copy_trio
  subroutine copy_grid(g, c, r, s)
    type(mpigrid_r), intent(IN) :: g
    type(mpigrid), intent(OUT) :: c, r, s
    call copy_trio(g%all, c%all, r%all, s%all)
    call copy_trio(g%compute, c%compute, r%compute, s%compute)
    call copy_trio(g%service, c%service, r%service, s%service)
    call copy_trio(g%same_node, c%same_node, r%same_node, s%same_node)
    call copy_trio(g%same_numa, c%same_numa, r%same_numa, s%same_numa)
    call copy_trio(g%node_peer, c%node_peer, r%node_peer, s%node_peer)
    call copy_trio(g%numa_peer, c%numa_peer, r%numa_peer, s%numa_peer)
    call copy_trio(g%grid_peer, c%grid_peer, r%grid_peer, s%grid_peer)
    call copy_trio(g%row, c%row, r%row, s%row)
    call copy_trio(g%column, c%column, r%column, s%column)
  end subroutine copy_grid

end module rpn_mpi_definitions_store
