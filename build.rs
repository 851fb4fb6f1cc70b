//! Generates the C header `include/rpncomm_windows.h` from the C ABI in `src/ffi`.

fn main() {
    println!("cargo:rerun-if-changed=src/ffi");
    println!("cargo:rerun-if-changed=src/core/handle.rs");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    let crate_dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let config = cbindgen::Config::from_file(format!("{crate_dir}/cbindgen.toml")).expect("cbindgen.toml is valid");
    match cbindgen::Builder::new().with_crate(&crate_dir).with_config(config).generate() {
        Ok(bindings) => {
            bindings.write_to_file(format!("{crate_dir}/include/rpncomm_windows.h"));
        }
        // A header that cannot be generated must not stop a build of the library itself.
        Err(e) => println!("cargo:warning=cbindgen could not generate the C header: {e}"),
    }
}
