! The block timers of ECCC's perftools library (tmg_init, tmg_start, tmg_stop, tmg_terminate),
! which MIDAS's programs call and which is not public: wall-clock totals per block, printed by
! tmg_terminate. Enough for tests/midas/run_midas.sh to link and run MIDAS's programs; the table
! it prints is this file's format, not perftools'.
module tmg_timers_table
  implicit none
  private
  integer, parameter, public :: tmg_max_blocks = 1000
  integer, parameter, public :: tmg_label_length = 40
  integer, parameter, public :: i8 = selected_int_kind(18)
  character(len=tmg_label_length), public :: tmg_labels(0:tmg_max_blocks) = ''
  integer(i8), public :: tmg_started(0:tmg_max_blocks) = -1
  integer(i8), public :: tmg_total(0:tmg_max_blocks) = 0
  integer, public :: tmg_calls(0:tmg_max_blocks) = 0
  integer(i8), public :: tmg_rate = 1
end module tmg_timers_table

subroutine tmg_init(myid, label)
  use tmg_timers_table
  implicit none
  integer, intent(in) :: myid
  character(len=*), intent(in) :: label
  integer(i8) :: now
  call system_clock(now, tmg_rate)
  tmg_labels = ''
  tmg_started = -1
  tmg_total = 0
  tmg_calls = 0
  if (myid == 0) write(*, '(3a)') 'tmg_init: block timers on (', trim(label), ')'
end subroutine tmg_init

subroutine tmg_start(block, label)
  use tmg_timers_table
  implicit none
  integer, intent(in) :: block
  character(len=*), intent(in) :: label
  integer(i8) :: now
  if (block < 0 .or. block > tmg_max_blocks) return
  call system_clock(now)
  tmg_labels(block) = label
  tmg_started(block) = now
  tmg_calls(block) = tmg_calls(block) + 1
end subroutine tmg_start

subroutine tmg_stop(block)
  use tmg_timers_table
  implicit none
  integer, intent(in) :: block
  integer(i8) :: now
  if (block < 0 .or. block > tmg_max_blocks) return
  if (tmg_started(block) < 0) return
  call system_clock(now)
  tmg_total(block) = tmg_total(block) + (now - tmg_started(block))
  tmg_started(block) = -1
end subroutine tmg_stop

subroutine tmg_terminate(myid, label)
  use tmg_timers_table
  implicit none
  integer, intent(in) :: myid
  character(len=*), intent(in) :: label
  integer :: block
  if (myid /= 0) return
  write(*, '(3a)') 'tmg_terminate: wall seconds per block (', trim(label), ')'
  do block = 0, tmg_max_blocks
    if (tmg_calls(block) == 0) cycle
    write(*, '(i5, 1x, a, f12.3, i9)') block, tmg_labels(block), &
      real(tmg_total(block), kind(1.0d0)) / real(tmg_rate, kind(1.0d0)), tmg_calls(block)
  end do
end subroutine tmg_terminate
