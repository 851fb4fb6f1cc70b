//! The committed C header (`include/rpncomm_windows.h`, what C programs and the Fortran
//! bindings are checked against) is what cbindgen generates from the C ABI in this build: a
//! change of an exported function that is not carried into the header fails here.

#[test]
fn committed_header_is_the_generated_one() {
    let generated = include_str!(concat!(env!("OUT_DIR"), "/rpncomm_windows.h"));
    let committed = include_str!("../include/rpncomm_windows.h");
    assert!(generated.contains("int rpncomm_win_create("), "generated header lacks the ABI:\n{generated}");
    if generated != committed {
        let line = generated.lines().zip(committed.lines()).position(|(g, c)| g != c).map_or(0, |i| i + 1);
        panic!(
            "include/rpncomm_windows.h differs from the generated header (first at line {line}); \
             copy {}/rpncomm_windows.h over it",
            env!("OUT_DIR")
        );
    }
}
