! The input tests/midas/run_midas.sh --run gives MIDAS's ensPostProcess instead of ECCC's data: an
! ensemble of ocean trials in RPN standard files, ensemble_trial/2020010100_006_NNNN for members 1
! to nmembers, on a global Gaussian grid ('G', ni x nj), valid 6 h after 2020-01-01 00 UTC: sea
! temperature (TM) and salinity (SALW) on ndepths depth levels (ip1 of kind 0, metres), and the sea
! surface height (SSH, ip1 0 m). Ocean fields because MIDAS sets its vertical coordinate up from
! them alone (no '!!' record) and ensPostProcess's statistics accept them. The values are analytic
! (smooth in latitude, longitude and depth, different for each member), so every run writes the
! same files.
program fabricate_ensemble
  implicit none
  integer, parameter :: ni = 64, nj = 32, nmembers = 8, ndepths = 3
  integer, parameter :: deet = 900, npas = 24      ! 6 h after the origin
  integer, parameter :: dp = kind(1.0d0)
  real(dp), parameter :: pi = 3.14159265358979_dp
  real, parameter :: depths(ndepths) = [0.5, 10.0, 50.0]
  integer, external :: fnom, fstouv, fstecr, fstfrm, fclos, newdate
  real :: field(ni, nj)
  integer :: work(1)
  integer :: member, k, iun, ierr, dateo, ip1
  real(dp) :: amp
  character(len=40) :: name
  character(len=15) :: level

  ierr = newdate(dateo, 20200101, 0, 3)
  if (ierr /= 0) error stop 'fabricate_ensemble: newdate failed'
  call execute_command_line('mkdir -p ensemble_trial', exitstat=ierr)
  if (ierr /= 0) error stop 'fabricate_ensemble: cannot make ensemble_trial'
  do member = 1, nmembers
    amp = (real(member, dp) - 0.5_dp * real(nmembers + 1, dp)) / real(nmembers, dp)
    write(name, '(a, i4.4)') 'ensemble_trial/2020010100_006_', member
    iun = 0
    ierr = fnom(iun, trim(name), 'STD+RND', 0)
    if (ierr /= 0) error stop 'fabricate_ensemble: fnom failed'
    ierr = fstouv(iun, 'RND')
    if (ierr < 0) error stop 'fabricate_ensemble: fstouv failed'
    do k = 1, ndepths
      call convip_plus(ip1, depths(k), 0, 2, level, .false.)
      call fill(field, 'TM', real(depths(k), dp), amp, member)
      call write_record('TM')
      call fill(field, 'SALW', real(depths(k), dp), amp, member)
      call write_record('SALW')
    end do
    call convip_plus(ip1, 0.0, 0, 2, level, .false.)
    call fill(field, 'SSH', 0.0_dp, amp, member)
    call write_record('SSH')
    ierr = fstfrm(iun)
    ierr = fclos(iun)
    write(*, '(2a)') 'fabricate_ensemble: wrote ', trim(name)
  end do

contains

  subroutine write_record(nomvar)
    character(len=*), intent(in) :: nomvar
    ierr = fstecr(field, work, -32, iun, dateo, deet, npas, ni, nj, 1, ip1, 6, 0, 'P', nomvar, &
                  'FABRICATED', 'G', 0, 0, 0, 0, 5, .false.)
    if (ierr < 0) error stop 'fabricate_ensemble: fstecr failed'
  end subroutine write_record

  subroutine fill(values, nomvar, depth, amp, member)
    real, intent(out) :: values(ni, nj)
    character(len=*), intent(in) :: nomvar
    real(dp), intent(in) :: depth, amp
    integer, intent(in) :: member
    integer :: i, j
    real(dp) :: lat, lon, wave
    do j = 1, nj
      lat = (-90.0_dp + 180.0_dp * (real(j, dp) - 0.5_dp) / real(nj, dp)) * pi / 180.0_dp
      do i = 1, ni
        lon = 2.0_dp * pi * real(i - 1, dp) / real(ni, dp)
        wave = amp * sin(2.0_dp * lon + real(member, dp)) * cos(lat)
        select case (nomvar)
        case ('TM')
          values(i, j) = real(273.15_dp + 25.0_dp * cos(lat)**2 * exp(-depth / 100.0_dp) + 2.0_dp * wave)
        case ('SALW')
          values(i, j) = real(35.0_dp - 2.0_dp * sin(lat) + depth / 100.0_dp + 0.5_dp * wave)
        case default
          values(i, j) = real(0.3_dp * cos(3.0_dp * lat) + 0.1_dp * wave)
        end select
      end do
    end do
  end subroutine fill
end program fabricate_ensemble
