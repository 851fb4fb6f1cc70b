! PES: 1 4 6
! TIMEOUT: 120
!
! The heat-diffusion demo (demo/heat_diffusion.F90) on 1 x 1, 2 x 2 and 3 x 2 grids: PE 0
! compares the checksum of the distributed plate with the plate computed alone and stops with
! an error when they differ, so every PE count must print the same checksum.
include '../../demo/heat_diffusion.F90'
