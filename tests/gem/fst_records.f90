! fst_records A B: compares two RPN standard files record by record, bit for bit, through librmn
! (built by tests/gem/run_gem.sh against the rmn of GEM's own build). A record is its directory
! entry (fstprm's parameters) and its values as fstluk unpacks them. Prints one line per record
! and a last line "records: N, differ: D"; exits 1 when D > 0 or the files hold other records.
! (Two files can hold the same records bit for bit and still differ in bytes: see docs/gem.md.)
program fst_records
  implicit none
  integer, external :: fnom, fstouv, fstinl, fstluk, fstprm, fstfrm
  integer, parameter :: most = 100000
  integer :: units(2), found(2), ier, i, s, ndiff, nvalues, first
  integer, allocatable :: keys(:, :)
  integer :: p(24, 2), ni, nj, nk
  character(len=4) :: nomvar(2)
  character(len=2) :: typvar(2)
  character(len=12) :: etiket(2)
  character(len=1) :: grtyp(2)
  character(len=4096) :: names(2)
  integer, allocatable :: a(:), b(:)

  if (command_argument_count() /= 2) then
    write(*, '(A)') 'usage: fst_records FILE_A FILE_B'
    error stop 2
  end if
  allocate(keys(most, 2))
  do s = 1, 2
    call get_command_argument(s, names(s))
    units(s) = 0
    ier = fnom(units(s), trim(names(s)), 'STD+RND+OLD+R/O', 0)
    if (ier < 0) call fail('cannot open '//trim(names(s)))
    ier = fstouv(units(s), 'RND')
    ier = fstinl(units(s), ni, nj, nk, -1, ' ', -1, -1, -1, ' ', ' ', keys(:, s), found(s), most)
  end do
  if (found(1) /= found(2)) then
    write(*, '(A,I0,A,I0,A)') 'other record counts: ', found(1), ' and ', found(2), ' records'
    error stop 1
  end if
  ndiff = 0
  do i = 1, found(1)
    do s = 1, 2
      ier = fstprm(keys(i, s), p(1, s), p(2, s), p(3, s), p(4, s), p(5, s), p(6, s), p(7, s), p(8, s), &
                   p(9, s), p(10, s), p(11, s), typvar(s), nomvar(s), etiket(s), grtyp(s), p(12, s), p(13, s), &
                   p(14, s), p(15, s), p(16, s), p(17, s), p(18, s), p(19, s), p(20, s), p(21, s), p(22, s))
    end do
    if (any(p(1:15, 1) /= p(1:15, 2)) .or. nomvar(1) /= nomvar(2) .or. typvar(1) /= typvar(2) .or. &
        etiket(1) /= etiket(2) .or. grtyp(1) /= grtyp(2)) then
      write(*, '(I6,1X,A4,A)') i, nomvar(1), ' other directory entry'
      ndiff = ndiff + 1
      cycle
    end if
    ! p: dateo deet npas ni nj nk nbits datyp ip1 ip2 ip3 ig1..ig4 (compared above), then the
    ! record's place and length in the file (not compared). Values as 32-bit words (64-bit
    ! records: two each), compared as bits.
    nvalues = p(4, 1) * p(5, 1) * p(6, 1)
    if (p(7, 1) > 32) nvalues = 2 * nvalues
    allocate(a(nvalues + 2), b(nvalues + 2))
    a = 0
    b = 0
    ier = fstluk(a, keys(i, 1), ni, nj, nk)
    ier = fstluk(b, keys(i, 2), ni, nj, nk)
    first = findloc(a(1:nvalues) /= b(1:nvalues), .true., 1)
    if (first > 0) then
      ndiff = ndiff + 1
      write(*, '(I6,1X,A4,1X,A,I0,A,I0,A,I0)') i, nomvar(1), 'IP1 ', p(9, 1), ': ', &
        count(a(1:nvalues) /= b(1:nvalues)), ' words differ, the first at ', first
    else
      write(*, '(I6,1X,A4,1X,A,I0,A,I0,A)') i, nomvar(1), 'IP1 ', p(9, 1), ': ', nvalues, ' words identical'
    end if
    deallocate(a, b)
  end do
  do s = 1, 2
    ier = fstfrm(units(s))
  end do
  write(*, '(A,I0,A,I0)') 'records: ', found(1), ', differ: ', ndiff
  if (ndiff > 0) error stop 1
contains
  subroutine fail(why)
    character(len=*), intent(IN) :: why
    write(*, '(A)') 'fst_records: '//why
    error stop 2
  end subroutine fail
end program fst_records
