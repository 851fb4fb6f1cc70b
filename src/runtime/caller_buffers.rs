//! Copies of the caller's buffers, which arrive as addresses. A buffer of no bytes may be null
//! (the API allows it for a count of 0), which `slice::from_raw_parts` and `ptr::copy` do not.

/// A copy of the `len` bytes the caller's buffer at `addr` holds.
///
/// # Safety
/// When `len > 0`, `addr` is readable for `len` bytes.
pub(super) unsafe fn read_caller_bytes(addr: usize, len: usize) -> Vec<u8> {
    if len == 0 {
        return Vec::new();
    }
    // SAFETY: len > 0, so by the caller's contract addr is readable for len bytes.
    unsafe { std::slice::from_raw_parts(addr as *const u8, len) }.to_vec()
}

/// The `len` bytes the caller's buffer at `addr` holds, borrowed (no copy: the collectives'
/// exchanges copy them anyway).
///
/// # Safety
/// When `len > 0`, `addr` is readable for `len` bytes, which nothing writes while the slice lives.
pub(super) unsafe fn caller_bytes<'a>(addr: usize, len: usize) -> &'a [u8] {
    if len == 0 {
        return &[];
    }
    // SAFETY: len > 0, so by the caller's contract addr is readable for len bytes, unchanged
    // while the slice lives.
    unsafe { std::slice::from_raw_parts(addr as *const u8, len) }
}

/// The caller's buffer of `len` bytes at `addr`, to write into.
///
/// # Safety
/// When `len > 0`, `addr` is writable for `len` bytes, which nothing else reads or writes while
/// the slice lives.
pub(super) unsafe fn caller_bytes_mut<'a>(addr: usize, len: usize) -> &'a mut [u8] {
    if len == 0 {
        return &mut [];
    }
    // SAFETY: len > 0, so by the caller's contract addr is writable for len bytes, used through
    // this slice only while it lives.
    unsafe { std::slice::from_raw_parts_mut(addr as *mut u8, len) }
}

/// Copies `bytes` into the caller's buffer at `addr` (which may be null when `bytes` is empty).
///
/// # Safety
/// When `bytes` is not empty, `addr` is writable for `bytes.len()` bytes.
pub(super) unsafe fn write_caller_bytes(bytes: &[u8], addr: usize) {
    if !bytes.is_empty() {
        // SAFETY: writable per the caller's contract; `copy` tolerates overlap with the source.
        unsafe { std::ptr::copy(bytes.as_ptr(), addr as *mut u8, bytes.len()) };
    }
}

/// Copies `nelem` elements of `elem` bytes between the caller's buffer at `larray` and this
/// PE's part of a window at `window` (into the window when `into_window`).
///
/// # Safety
/// When `nelem > 0`, `window` and `larray` are valid for `nelem * elem` bytes (readable as the
/// source, writable as the destination).
pub(super) unsafe fn copy_local(window: *mut u8, larray: usize, nelem: usize, elem: usize, into_window: bool) {
    if nelem == 0 {
        // `larray` may be null then, which `copy` does not allow even for 0 bytes.
        return;
    }
    let (src, dst) = if into_window { (larray as *const u8, window) } else { (window as *const u8, larray as *mut u8) };
    // SAFETY: both valid for nelem * elem bytes per the caller's contract; `copy` allows overlap.
    unsafe { std::ptr::copy(src, dst, nelem * elem) };
}
