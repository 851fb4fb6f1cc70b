! fabricate_inputs PROGRAM: the input tests/midas/run_midas.sh --run gives one of MIDAS's programs
! instead of ECCC's data, written in the current directory as RPN standard files on a global
! Gaussian grid ('G', ni x nj) with analytic values (smooth in latitude, longitude and depth), so
! that every run writes the same files. Ocean fields (TM, sea temperature; SALW, salinity; SSH,
! sea surface height; depths as ip1 of kind 0, metres), because MIDAS sets its vertical coordinate
! up from them alone (no '!!' record).
!   ensPostProcess: an ensemble of trials, ensemble_trial/2020010100_006_NNNN for members 1 to
!     nmembers, valid 6 h after 2020-01-01 00 UTC: TM and SALW on ndepths levels and SSH, each
!     member with another perturbation.
!   sstTrial: ./analysis (TM at 0 m, typvar A, etiket 3D-Var, 2020-01-10 00 UTC), ./climatology
!     (12 monthly TM records, on the 15th of each month of 2020) and the namelist block
!     namSSTtrial with those records' date stamps, appended to ./flnml.
!   randomPert, diagBmatrix: ./analysisgrid, the grid of the B matrix (TM at 0 m, etiket ANALYSIS).
program fabricate_inputs
  implicit none
  integer, parameter :: ni = 64, nj = 32, nmembers = 8, ndepths = 3
  integer, parameter :: dp = kind(1.0d0)
  real(dp), parameter :: pi = 3.14159265358979_dp
  real, parameter :: depths(ndepths) = [0.5, 10.0, 50.0]
  integer, external :: fnom, fstouv, fstecr, fstfrm, fclos, newdate
  real :: field(ni, nj)
  integer :: work(1)
  integer :: iun, ierr, dateo, ip1
  character(len=32) :: which

  call get_command_argument(1, which)
  select case (which)
  case ('ensPostProcess')
    call ensemble_trials()
  case ('sstTrial')
    call sst_inputs()
  case ('randomPert', 'diagBmatrix')
    ip1 = depth_ip1(0.0)
    ierr = newdate(dateo, 20200110, 0, 3)
    if (ierr /= 0) error stop 'fabricate_inputs: newdate failed'
    call open_file('analysisgrid')
    call fill('TM', 0.0_dp, 0.0_dp, 1)
    call write_record('TM', 0, 0, 0, 'A', 'ANALYSIS')
    call close_file('analysisgrid')
  case default
    write(*, '(a)') 'usage: fabricate_inputs ensPostProcess|sstTrial|randomPert|diagBmatrix'
    error stop 2
  end select

contains

  subroutine ensemble_trials()
    integer :: member, k
    real(dp) :: amp
    character(len=40) :: name
    ierr = newdate(dateo, 20200101, 0, 3)
    if (ierr /= 0) error stop 'fabricate_inputs: newdate failed'
    call execute_command_line('mkdir -p ensemble_trial', exitstat=ierr)
    if (ierr /= 0) error stop 'fabricate_inputs: cannot make ensemble_trial'
    do member = 1, nmembers
      amp = (real(member, dp) - 0.5_dp * real(nmembers + 1, dp)) / real(nmembers, dp)
      write(name, '(a, i4.4)') 'ensemble_trial/2020010100_006_', member
      call open_file(name)
      do k = 1, ndepths
        ip1 = depth_ip1(depths(k))
        call fill('TM', real(depths(k), dp), amp, member)
        call write_record('TM', 900, 24, 6, 'P', 'FABRICATED')
        call fill('SALW', real(depths(k), dp), amp, member)
        call write_record('SALW', 900, 24, 6, 'P', 'FABRICATED')
      end do
      ip1 = depth_ip1(0.0)
      call fill('SSH', 0.0_dp, amp, member)
      call write_record('SSH', 900, 24, 6, 'P', 'FABRICATED')
      call close_file(name)
    end do
  end subroutine ensemble_trials

  subroutine sst_inputs()
    integer :: month, stamps(12), unit
    ip1 = depth_ip1(0.0)
    ierr = newdate(dateo, 20200110, 0, 3)
    if (ierr /= 0) error stop 'fabricate_inputs: newdate failed'
    call open_file('analysis')
    call fill('TM', 0.0_dp, 0.25_dp, 1)
    call write_record('TM', 0, 0, 0, 'A', '3D-Var')
    call close_file('analysis')
    call open_file('climatology')
    do month = 1, 12
      ierr = newdate(stamps(month), 20200015 + 100 * month, 0, 3)
      if (ierr /= 0) error stop 'fabricate_inputs: newdate failed'
      dateo = stamps(month)
      call fill('TM', 0.0_dp, 0.5_dp * cos(2.0_dp * pi * real(month, dp) / 12.0_dp), month)
      call write_record('TM', 0, 0, 0, 'C', 'CLIMATOLOGY')
    end do
    call close_file('climatology')
    open(newunit=unit, file='flnml', position='append', action='write')
    write(unit, '(a)') ' &namSSTtrial', "   etiketAnalysis = '3D-Var'"
    do month = 1, 12
      write(unit, '(a, i0, a, i0)') '   datestampClim(', month, ') = ', stamps(month)
    end do
    write(unit, '(a)') '   alphaClim = 0.983', '/'
    close(unit)
  end subroutine sst_inputs

  integer function depth_ip1(depth)
    real, intent(in) :: depth
    character(len=15) :: level
    call convip_plus(depth_ip1, depth, 0, 2, level, .false.)
  end function depth_ip1

  subroutine open_file(name)
    character(len=*), intent(in) :: name
    iun = 0
    ierr = fnom(iun, trim(name), 'STD+RND', 0)
    if (ierr /= 0) error stop 'fabricate_inputs: fnom failed'
    ierr = fstouv(iun, 'RND')
    if (ierr < 0) error stop 'fabricate_inputs: fstouv failed'
  end subroutine open_file

  subroutine close_file(name)
    character(len=*), intent(in) :: name
    ierr = fstfrm(iun)
    ierr = fclos(iun)
    write(*, '(2a)') 'fabricate_inputs: wrote ', trim(name)
  end subroutine close_file

  subroutine write_record(nomvar, deet, npas, ip2, typvar, etiket)
    character(len=*), intent(in) :: nomvar, typvar, etiket
    integer, intent(in) :: deet, npas, ip2
    ierr = fstecr(field, work, -32, iun, dateo, deet, npas, ni, nj, 1, ip1, ip2, 0, typvar, nomvar, &
                  etiket, 'G', 0, 0, 0, 0, 5, .false.)
    if (ierr < 0) error stop 'fabricate_inputs: fstecr failed'
  end subroutine write_record

  subroutine fill(nomvar, depth, amp, member)
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
          field(i, j) = real(273.15_dp + 25.0_dp * cos(lat)**2 * exp(-depth / 100.0_dp) + 2.0_dp * wave)
        case ('SALW')
          field(i, j) = real(35.0_dp - 2.0_dp * sin(lat) + depth / 100.0_dp + 0.5_dp * wave)
        case default
          field(i, j) = real(0.3_dp * cos(3.0_dp * lat) + 0.1_dp * wave)
        end select
      end do
    end do
  end subroutine fill
end program fabricate_inputs
