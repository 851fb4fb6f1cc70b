//! Bulk copies of window data. A copy much larger than the last-level cache gains nothing
//! from going through it: the destination lines are read for ownership, then evicted, and
//! they push out the source. Such copies use non-temporal stores instead (measured with two
//! processes copying 16 MiB each at once into each other's shared pages, on a 32 MiB L3:
//! 28 GB/s against 19-23 GB/s for memcpy; at 8 MiB and below memcpy is faster).

use std::sync::OnceLock;

/// Copies below this size go through the caches: half the last-level cache.
fn streaming_threshold() -> usize {
    static THRESHOLD: OnceLock<usize> = OnceLock::new();
    *THRESHOLD.get_or_init(|| {
        let llc = last_level_cache("/sys/devices/system/cpu/cpu0/cache").or_else(|| {
            // SAFETY: sysconf has no preconditions.
            let l3 = unsafe { libc::sysconf(libc::_SC_LEVEL3_CACHE_SIZE) };
            (l3 > 0).then_some(l3 as usize)
        });
        (llc.unwrap_or(32 << 20) / 2).max(4 << 20)
    })
}

/// Bytes of the highest-level data cache described under `dir` (sysfs's cache/indexN of a CPU).
/// The kernel's figure comes first: glibc's sysconf can be far off (on an AMD EPYC VM whose L3 is
/// 32 MiB it says 384 MiB, which left 16 MiB copies on the cached path, 20% slower).
fn last_level_cache(dir: &str) -> Option<usize> {
    let read = |index: &std::path::Path, what: &str| std::fs::read_to_string(index.join(what)).ok();
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(|entry| {
            let index = entry.ok()?.path();
            if read(&index, "type")?.trim() == "Instruction" {
                return None;
            }
            let level: u32 = read(&index, "level")?.trim().parse().ok()?;
            Some((level, cache_size(read(&index, "size")?.trim())?))
        })
        .max()
        .map(|(_, bytes)| bytes)
}

/// "32768K", "32M" or "512" (sysfs's notation) in bytes.
fn cache_size(text: &str) -> Option<usize> {
    let (digits, unit) = match text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((at, _)) => text.split_at(at),
        None => (text, ""),
    };
    let shift = match unit {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        _ => return None,
    };
    digits.parse::<usize>().ok()?.checked_mul(1 << shift)
}

/// Copies `len` bytes from `src` to `dst` (the ranges may overlap).
///
/// # Safety
/// `src` is readable and `dst` writable for `len` bytes.
pub unsafe fn copy_bytes(src: *const u8, dst: *mut u8, len: usize) {
    let overlap = (src as usize) < (dst as usize).wrapping_add(len) && (dst as usize) < (src as usize).wrapping_add(len);
    if len >= streaming_threshold() && !overlap {
        // SAFETY: as required of the caller; the ranges do not overlap.
        unsafe { copy_streaming(src, dst, len) }
    } else {
        // SAFETY: as required of the caller; `copy` allows overlap.
        unsafe { std::ptr::copy(src, dst, len) }
    }
}

/// Non-temporal copy (x86_64: SSE2, part of the base instruction set).
///
/// # Safety
/// `src` readable and `dst` writable for `len` bytes; the ranges do not overlap.
#[cfg(target_arch = "x86_64")]
unsafe fn copy_streaming(src: *const u8, dst: *mut u8, len: usize) {
    use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_sfence, _mm_stream_si128};
    // Bytes up to the first 16-byte boundary of the destination go the ordinary way.
    let head = dst.align_offset(16).min(len);
    // SAFETY: head <= len bytes of both ranges (caller), no overlap.
    unsafe { std::ptr::copy_nonoverlapping(src, dst, head) };
    let mut i = head;
    while i + 64 <= len {
        // SAFETY: i + 64 <= len, so the 64 bytes at i lie in both ranges; dst + i is 16-byte
        // aligned (head aligned it and i advances by 64); loads may be unaligned.
        unsafe {
            let s = src.add(i) as *const __m128i;
            let d = dst.add(i) as *mut __m128i;
            let (a, b, c, e) = (_mm_loadu_si128(s), _mm_loadu_si128(s.add(1)), _mm_loadu_si128(s.add(2)), _mm_loadu_si128(s.add(3)));
            _mm_stream_si128(d, a);
            _mm_stream_si128(d.add(1), b);
            _mm_stream_si128(d.add(2), c);
            _mm_stream_si128(d.add(3), e);
        }
        i += 64;
    }
    // Streaming stores are weakly ordered: fence them before anything that publishes the data.
    // SAFETY: sfence has no preconditions (SSE, base of x86_64).
    unsafe { _mm_sfence() };
    // SAFETY: the tail i..len lies in both ranges.
    unsafe { std::ptr::copy_nonoverlapping(src.add(i), dst.add(i), len - i) };
}

/// # Safety
/// As for the x86_64 version.
#[cfg(not(target_arch = "x86_64"))]
unsafe fn copy_streaming(src: *const u8, dst: *mut u8, len: usize) {
    // SAFETY: as required of the caller.
    unsafe { std::ptr::copy_nonoverlapping(src, dst, len) }
}

/// Copies one run of a box: the short runs of a strided box (a face of 4 elements: 16 bytes)
/// as one unaligned load and store, where a call to `copy_bytes` (and memmove) per run would
/// cost more than the bytes; longer runs through `copy_bytes`. Reads before it writes, so
/// `src` and `dst` may overlap like for `copy_bytes`.
///
/// # Safety
/// `src` readable and `dst` writable for `len` bytes.
#[inline]
pub unsafe fn copy_run(src: *const u8, dst: *mut u8, len: usize) {
    // SAFETY: each arm reads and writes exactly `len` bytes (the caller's contract).
    unsafe {
        match len {
            4 => (dst as *mut u32).write_unaligned((src as *const u32).read_unaligned()),
            8 => (dst as *mut u64).write_unaligned((src as *const u64).read_unaligned()),
            16 => (dst as *mut u128).write_unaligned((src as *const u128).read_unaligned()),
            32 => (dst as *mut [u128; 2]).write_unaligned((src as *const [u128; 2]).read_unaligned()),
            _ => copy_bytes(src, dst, len),
        }
    }
}

/// Copies a grid of `count[0] x count[1]` runs of `len` bytes: run (j, k) from
/// `src + j * src_step[0] + k * src_step[1]` to the same place from `dst` (steps in bytes).
/// The common short runs get loops of their own (a halo face is thousands of 16-byte runs).
///
/// # Safety
/// Every run is readable at its source and writable at its destination; a run's source and
/// destination may overlap (as for [`copy_run`]).
pub unsafe fn copy_grid(src: *const u8, dst: *mut u8, len: usize, count: [usize; 2], src_step: [usize; 2], dst_step: [usize; 2]) {
    // SAFETY: the caller's contract, passed on; each arm is the same loop with the length known.
    unsafe {
        match len {
            4 => grid_loop(src, dst, 4, count, src_step, dst_step),
            8 => grid_loop(src, dst, 8, count, src_step, dst_step),
            16 => grid_loop(src, dst, 16, count, src_step, dst_step),
            32 => grid_loop(src, dst, 32, count, src_step, dst_step),
            _ => grid_loop(src, dst, len, count, src_step, dst_step),
        }
    }
}

/// The loop of [`copy_grid`], inlined into each of its arms.
///
/// # Safety
/// As [`copy_grid`].
#[inline(always)]
unsafe fn grid_loop(src: *const u8, dst: *mut u8, len: usize, count: [usize; 2], src_step: [usize; 2], dst_step: [usize; 2]) {
    for k in 0..count[1] {
        // SAFETY: the runs of plane k lie where the caller says they are readable/writable.
        unsafe {
            let (mut s, mut d) = (src.add(k * src_step[1]), dst.add(k * dst_step[1]));
            for _ in 0..count[0] {
                copy_run(s, d, len);
                s = s.wrapping_add(src_step[0]);
                d = d.wrapping_add(dst_step[0]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i * 7 + i / 251) as u8).collect()
    }

    #[test]
    fn streaming_copy_is_exact_at_any_alignment_and_length() {
        let src = pattern(70_000);
        for (s_off, d_off, len) in [(0, 0, 65_536), (3, 5, 65_000), (1, 0, 63), (0, 9, 64), (7, 7, 129), (0, 0, 0)] {
            let mut dst = vec![0xAAu8; 70_016];
            // SAFETY: both ranges are inside their vectors and distinct.
            unsafe { copy_streaming(src.as_ptr().add(s_off), dst.as_mut_ptr().add(d_off), len) };
            assert_eq!(&dst[d_off..d_off + len], &src[s_off..s_off + len]);
            assert!(dst[..d_off].iter().chain(&dst[d_off + len..]).all(|&b| b == 0xAA), "wrote outside");
        }
    }

    #[test]
    fn overlapping_copies_take_the_ordinary_way() {
        let len = streaming_threshold() + 100;
        let mut buf = pattern(len + 4096);
        let expected = buf[..len].to_vec();
        // SAFETY: both ranges lie inside buf; copy_bytes allows overlap.
        unsafe { copy_bytes(buf.as_ptr(), buf.as_mut_ptr().add(4096), len) };
        assert_eq!(&buf[4096..4096 + len], &expected[..]);
    }

    #[test]
    fn large_copy_goes_through_the_streaming_path() {
        let len = streaming_threshold() + 12_345;
        let src = pattern(len);
        let mut dst = vec![0u8; len];
        // SAFETY: distinct vectors of len bytes.
        unsafe { copy_bytes(src.as_ptr(), dst.as_mut_ptr(), len) };
        assert!(src == dst);
    }

    #[test]
    fn cache_sizes_in_sysfs_notation() {
        assert_eq!(cache_size("32768K"), Some(32 << 20));
        assert_eq!(cache_size("32M"), Some(32 << 20));
        assert_eq!(cache_size("512"), Some(512));
        assert_eq!(cache_size("1G"), Some(1 << 30));
        assert_eq!(cache_size(""), None);
        assert_eq!(cache_size("12Q"), None);
        assert_eq!(cache_size("K"), None);
    }

    #[test]
    fn last_level_cache_is_the_highest_data_or_unified_level() {
        let dir = std::env::temp_dir().join(format!("rpncomm-cache-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for (i, level, kind, size) in
            [(0, "1", "Data", "48K"), (1, "1", "Instruction", "32K"), (2, "2", "Unified", "1024K"), (3, "3", "Unified", "32768K")]
        {
            let index = dir.join(format!("index{i}"));
            std::fs::create_dir_all(&index).unwrap();
            for (file, text) in [("level", level), ("type", kind), ("size", size)] {
                std::fs::write(index.join(file), format!("{text}\n")).unwrap();
            }
        }
        std::fs::create_dir_all(dir.join("power")).unwrap(); // not a cache: no level file
        assert_eq!(last_level_cache(dir.to_str().unwrap()), Some(32 << 20));
        std::fs::remove_dir_all(dir.join("index3")).unwrap();
        assert_eq!(last_level_cache(dir.to_str().unwrap()), Some(1 << 20));
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(last_level_cache("/nonexistent/cache"), None);
    }

    #[test]
    fn copy_run_copies_every_length_and_tolerates_overlap() {
        for len in [1usize, 4, 8, 12, 16, 24, 32, 40] {
            let src: Vec<u8> = (0..64u8).collect();
            let mut dst = vec![0xEEu8; 64];
            // SAFETY: both buffers hold 64 bytes; 3 + len <= 64.
            unsafe { super::copy_run(src.as_ptr().add(3), dst.as_mut_ptr().add(5), len) };
            assert_eq!(&dst[5..5 + len], &src[3..3 + len], "len {len}");
            assert!(dst[..5].iter().chain(&dst[5 + len..]).all(|&b| b == 0xEE), "len {len}: outside the run");
            // overlapping: shift by 2 within one buffer
            let mut buf: Vec<u8> = (0..64u8).collect();
            let p = buf.as_mut_ptr();
            // SAFETY: 2 + len <= 64 inside one buffer.
            unsafe { super::copy_run(p, p.add(2), len) };
            assert_eq!(&buf[2..2 + len], &(0..len as u8).collect::<Vec<_>>()[..], "len {len}: overlap");
        }
    }

    #[test]
    fn grid_copy_moves_every_run_and_nothing_else() {
        for len in [4usize, 8, 12, 16, 32, 40] {
            let src: Vec<u8> = (0..4096).map(|i| (i % 251) as u8).collect();
            let mut dst = vec![0xEEu8; 4096];
            let (count, src_step, dst_step) = ([3, 2], [48, 300], [64, 500]);
            // SAFETY: the last run ends at 2 * 300 + 2 * 48 + 40 < 4096 in src and at
            // 2 * 500 + 2 * 64 + 40 < 4096 in dst.
            unsafe { super::copy_grid(src.as_ptr(), dst.as_mut_ptr(), len, count, src_step, dst_step) };
            let mut expected = vec![0xEEu8; 4096];
            for k in 0..2 {
                for j in 0..3 {
                    let (s, d) = (j * 48 + k * 300, j * 64 + k * 500);
                    expected[d..d + len].copy_from_slice(&src[s..s + len]);
                }
            }
            assert_eq!(dst, expected, "len {len}");
        }
    }
}
