# shellcheck shell=bash
# The system libraries that a program linked with librpncomm_windows.a needs (the Rust runtime's).
#
# The list is written once, as NATIVE_LIBS in the Makefile: make passes it to the scripts it runs
# in the environment, and writes it into the pkg-config file of each build tree
# (<build>/lib/pkgconfig/rpncomm-windows.pc), where a script started by hand finds it.
#
#   load_native_libs BUILD_DIR   sets the array native_libs; returns 1 (saying why) if it cannot

load_native_libs() {
    local pc="$1/lib/pkgconfig/rpncomm-windows.pc" list
    if [[ -n "${NATIVE_LIBS:-}" ]]; then
        list=$NATIVE_LIBS
    elif [[ -r "$pc" ]]; then
        list=$(sed -n 's/^Libs:.*-lrpncomm_windows[[:space:]]*//p' "$pc")
    else
        echo "load_native_libs: NATIVE_LIBS is not set and $pc is missing: run make first" >&2
        return 1
    fi
    read -r -a native_libs <<< "$list"
}
