! omp_threads.F90 -- f_omp_get_max_threads and f_omp_set_num_threads: the OpenMP thread counts
! under names C can call, with no, one and two trailing underscores, bind(C) procedures as the
! original's. The core asks the program's OpenMP runtime, when it has one (the library itself is
! built without OpenMP).

function f_omp_get_max_threads() result(r) bind(C, name='f_omp_get_max_threads')
  use rpn_comm_utils_binding
  implicit none
  integer(C_INT) :: r
  r = rpncomm_omp_get_max_threads()
end function f_omp_get_max_threads

function f_omp_get_max_threads_() result(r) bind(C, name='f_omp_get_max_threads_')
  use rpn_comm_utils_binding
  implicit none
  integer(C_INT) :: r
  r = rpncomm_omp_get_max_threads()
end function f_omp_get_max_threads_

function f_omp_get_max_threads__() result(r) bind(C, name='f_omp_get_max_threads__')
  use rpn_comm_utils_binding
  implicit none
  integer(C_INT) :: r
  r = rpncomm_omp_get_max_threads()
end function f_omp_get_max_threads__

subroutine f_omp_set_num_threads(nthreads) bind(C, name='f_omp_set_num_threads')
  use rpn_comm_utils_binding
  implicit none
  integer(C_INT), intent(IN) :: nthreads
  call rpncomm_omp_set_num_threads(nthreads)
end subroutine f_omp_set_num_threads

subroutine f_omp_set_num_threads_(nthreads) bind(C, name='f_omp_set_num_threads_')
  use rpn_comm_utils_binding
  implicit none
  integer(C_INT), intent(IN) :: nthreads
  call rpncomm_omp_set_num_threads(nthreads)
end subroutine f_omp_set_num_threads_

subroutine f_omp_set_num_threads__(nthreads) bind(C, name='f_omp_set_num_threads__')
  use rpn_comm_utils_binding
  implicit none
  integer(C_INT), intent(IN) :: nthreads
  call rpncomm_omp_set_num_threads(nthreads)
end subroutine f_omp_set_num_threads__
