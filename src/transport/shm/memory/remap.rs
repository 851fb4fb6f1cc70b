//! Zero-copy windows on the caller's array: the pages holding the array are replaced by a
//! mapping of the window's shared region (with the same contents), so peers read and write
//! the caller's array directly and nothing is copied at open or close. At free the pages
//! become private memory again, with their contents.
//!
//! A process-wide registry keeps two windows from claiming the same page (two small arrays
//! sharing a page): the second one is staged instead. Consequence for the caller: until
//! the window is freed, the pages holding the array (including neighbouring data on the
//! first and last page) are shared memory, which also a `fork()`ed child would share.

use std::sync::Mutex;

const PAGE: usize = 4096;

/// Page ranges currently mapped from window regions: (start, end).
static REMAPPED: Mutex<Vec<(usize, usize)>> = Mutex::new(Vec::new());

/// The pages spanned by `len` bytes at `addr`.
pub fn page_span(addr: usize, len: usize) -> (usize, usize) {
    (addr / PAGE * PAGE, (addr + len).next_multiple_of(PAGE))
}

/// Whether zero-copy is allowed for windows on the caller's array (RPNCOMM_USER_ARRAYS=staged turns it off).
pub fn enabled() -> bool {
    std::env::var("RPNCOMM_USER_ARRAYS").map_or(true, |v| v != "staged")
}

/// The calling thread's stack (lowest address, highest address), if the C library tells.
fn current_stack() -> Option<(usize, usize)> {
    // SAFETY: pthread_attr_t is plain data, initialised by pthread_getattr_np before use and
    // destroyed after; the out-pointers are valid locals.
    unsafe {
        let mut attr: libc::pthread_attr_t = std::mem::zeroed();
        if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) != 0 {
            return None;
        }
        let mut base: *mut libc::c_void = std::ptr::null_mut();
        let mut size: libc::size_t = 0;
        let rc = libc::pthread_attr_getstack(&attr, &mut base, &mut size);
        libc::pthread_attr_destroy(&mut attr);
        (rc == 0).then_some((base as usize, base as usize + size))
    }
}

/// Reserves the pages of `len` bytes at `addr` for one window, if no other window holds any
/// of them. Arrays on the calling thread's stack are never remapped: the pages also hold
/// live stack frames, which change while the remapping is made.
pub fn reserve(addr: usize, len: usize) -> Option<(usize, usize)> {
    if len == 0 || !enabled() {
        return None;
    }
    let span = page_span(addr, len);
    // Unknown stack bounds: assume the worst.
    let (lo, hi) = current_stack()?;
    if span.0 < hi && lo < span.1 {
        return None;
    }
    let mut taken = REMAPPED.lock().unwrap_or_else(|p| p.into_inner());
    if taken.iter().any(|&(s, e)| s < span.1 && span.0 < e) {
        return None;
    }
    taken.push(span);
    Some(span)
}

/// Gives back pages reserved by `reserve`.
pub fn release(span: (usize, usize)) {
    let mut taken = REMAPPED.lock().unwrap_or_else(|p| p.into_inner());
    taken.retain(|&s| s != span);
}

/// Whether every page of `span` is still mapped from the file named `name` (the caller may
/// have deallocated the array meanwhile; then the pages are not ours to touch).
fn still_mapped_from(span: (usize, usize), name: &str) -> bool {
    let Ok(maps) = std::fs::read_to_string("/proc/self/maps") else { return false };
    let mut covered = span.0;
    for line in maps.lines() {
        let mut fields = line.split_whitespace();
        let Some((lo, hi)) = fields.next().and_then(|r| r.split_once('-')) else { continue };
        let (Ok(lo), Ok(hi)) = (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16)) else { continue };
        let ours = line.ends_with(&format!("/{name}")) || line.ends_with(&format!("/{name} (deleted)"));
        if lo <= covered && covered < hi && ours {
            covered = hi;
        }
    }
    covered >= span.1
}

/// Turns the pages of `span` back into private memory with the same contents, if they are
/// still the window's mapping; releases the reservation either way.
pub fn restore(span: (usize, usize), region_name: &str) {
    if still_mapped_from(span, region_name) {
        let len = span.1 - span.0;
        // Not on the heap: a heap buffer may lie inside the span being replaced.
        let Ok(mut saved) = memmap2::MmapMut::map_anon(len) else {
            release(span);
            return;
        };
        // Tell the interposers of the memory calls (MPI registration caches: Open MPI's
        // patcher, UCX's ucm) that these pages change, while they are still the shared
        // mapping: there MADV_DONTNEED loses nothing, and whatever their handlers write to
        // heap data on these pages is in the copy below. From the copy to the replacement, no
        // call goes through the C library (its interposers could write to the span meanwhile,
        // and the write would be lost): the mmap below is a raw system call.
        // SAFETY: the span is our shared mapping of the window (checked above).
        unsafe { libc::madvise(span.0 as *mut libc::c_void, len, libc::MADV_DONTNEED) };
        // SAFETY: the span is mapped (checked just above) and readable; `saved` is a distinct
        // fresh mapping of len bytes.
        unsafe { std::ptr::copy_nonoverlapping(span.0 as *const u8, saved.as_mut_ptr(), len) };
        // SAFETY: MAP_FIXED over our own window mapping (checked above), replaced by private
        // memory that receives the same bytes right after.
        let got = unsafe {
            libc::syscall(
                libc::SYS_mmap,
                span.0 as libc::c_long,
                len as libc::c_long,
                (libc::PROT_READ | libc::PROT_WRITE) as libc::c_long,
                (libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED) as libc::c_long,
                -1 as libc::c_long,
                0 as libc::c_long,
            )
        } as *mut libc::c_void;
        if got as usize == span.0 {
            // SAFETY: the new private mapping covers the span.
            unsafe { std::ptr::copy_nonoverlapping(saved.as_ptr(), span.0 as *mut u8, len) };
        }
    }
    release(span);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stack_arrays_are_not_remapped() {
        let local = [0u8; 64];
        assert!(reserve(local.as_ptr() as usize, local.len()).is_none());
    }

    #[test]
    fn overlapping_spans_are_refused() {
        let a = reserve(0x7000_0000_1010, 100).expect("free pages");
        assert_eq!(a, (0x7000_0000_1000, 0x7000_0000_2000));
        assert!(reserve(0x7000_0000_1800, 8).is_none(), "same page");
        let b = reserve(0x7000_0000_2000, 8).expect("next page is free");
        release(a);
        assert!(reserve(0x7000_0000_1800, 8).is_some());
        release(b);
        release(page_span(0x7000_0000_1800, 8));
        assert!(reserve(0x7000_0000_1800, 0).is_none(), "nothing to share");
    }
}
