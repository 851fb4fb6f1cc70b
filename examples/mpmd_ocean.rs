//! The ocean half of a coupled (MPMD) job; see mpmd_model/mod.rs.

mod mpmd_model;

fn main() {
    mpmd_model::couple(2);
}
