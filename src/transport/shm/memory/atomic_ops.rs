//! Element-wise atomic read-modify-write on window memory: native instructions where the
//! hardware has them (integer add/and/or/xor/min/max, swap), a compare-and-swap loop
//! over the core's element arithmetic otherwise (products, logicals, every real operator).

use std::sync::atomic::{AtomicI32, AtomicI64, AtomicU32, AtomicU64, Ordering::AcqRel, Ordering::Acquire, Ordering::Release};

use crate::core::{ElementType, Operator};

/// Applies `*ptr = *ptr OP operand` atomically on a 4-byte element; returns the old bits.
///
/// # Safety
/// `ptr` must be valid for reads and writes of 4 bytes, 4-byte aligned, and only ever
/// accessed atomically by concurrent users of the same element.
pub unsafe fn fetch_op32(ptr: *mut u32, operand: u32, op: Operator, dtype: ElementType) -> u32 {
    // SAFETY: guaranteed by the caller (valid, aligned, atomically accessed).
    let a = unsafe { AtomicU32::from_ptr(ptr) };
    let int = dtype.is_integer();
    match op {
        Operator::Sum if int => a.fetch_add(operand, AcqRel),
        Operator::Band => a.fetch_and(operand, AcqRel),
        Operator::Bor => a.fetch_or(operand, AcqRel),
        Operator::Bxor => a.fetch_xor(operand, AcqRel),
        // SAFETY: same element, viewed as signed.
        Operator::Min if int => unsafe { AtomicI32::from_ptr(ptr as *mut i32) }.fetch_min(operand as i32, AcqRel) as u32,
        // SAFETY: same element, viewed as signed.
        Operator::Max if int => unsafe { AtomicI32::from_ptr(ptr as *mut i32) }.fetch_max(operand as i32, AcqRel) as u32,
        Operator::Replace => a.swap(operand, AcqRel),
        Operator::NoOp => a.load(Acquire),
        _ => a.fetch_update(AcqRel, Acquire, |old| Some(op.apply32(dtype, old, operand))).unwrap_or_else(|v| v),
    }
}

/// 8-byte version of [`fetch_op32`].
///
/// # Safety
/// As [`fetch_op32`], for 8 bytes with 8-byte alignment.
pub unsafe fn fetch_op64(ptr: *mut u64, operand: u64, op: Operator, dtype: ElementType) -> u64 {
    // SAFETY: guaranteed by the caller.
    let a = unsafe { AtomicU64::from_ptr(ptr) };
    let int = dtype.is_integer();
    match op {
        Operator::Sum if int => a.fetch_add(operand, AcqRel),
        Operator::Band => a.fetch_and(operand, AcqRel),
        Operator::Bor => a.fetch_or(operand, AcqRel),
        Operator::Bxor => a.fetch_xor(operand, AcqRel),
        // SAFETY: same element, viewed as signed.
        Operator::Min if int => unsafe { AtomicI64::from_ptr(ptr as *mut i64) }.fetch_min(operand as i64, AcqRel) as u64,
        // SAFETY: same element, viewed as signed.
        Operator::Max if int => unsafe { AtomicI64::from_ptr(ptr as *mut i64) }.fetch_max(operand as i64, AcqRel) as u64,
        Operator::Replace => a.swap(operand, AcqRel),
        Operator::NoOp => a.load(Acquire),
        _ => a.fetch_update(AcqRel, Acquire, |old| Some(op.apply64(dtype, old, operand))).unwrap_or_else(|v| v),
    }
}

/// Compare-and-swap of one 4- or 8-byte element: `*ptr` becomes `new` if it holds
/// `compare` (bit for bit); returns the bits it held before. Atomic with respect to
/// [`fetch_op32`] and [`fetch_op64`] on the same element.
///
/// # Safety
/// `ptr` valid for reads and writes of `elem_size` (4 or 8) bytes, aligned on it, and only
/// accessed atomically by concurrent users of the element.
pub unsafe fn compare_swap(ptr: *mut u8, compare: u64, new: u64, elem_size: usize) -> u64 {
    if elem_size == 4 {
        // SAFETY: guaranteed by the caller (valid, 4-byte aligned, atomically accessed).
        let a = unsafe { AtomicU32::from_ptr(ptr as *mut u32) };
        a.compare_exchange(compare as u32, new as u32, AcqRel, Acquire).unwrap_or_else(|v| v) as u64
    } else {
        // SAFETY: guaranteed by the caller (valid, 8-byte aligned, atomically accessed).
        let a = unsafe { AtomicU64::from_ptr(ptr as *mut u64) };
        a.compare_exchange(compare, new, AcqRel, Acquire).unwrap_or_else(|v| v)
    }
}

/// Atomic store of one element (passive single-element put).
///
/// # Safety
/// `dst` valid and aligned for one element of `elem_size` (4 or 8) bytes; `src` readable for
/// `elem_size` bytes (any alignment).
pub unsafe fn store_element(dst: *mut u8, src: *const u8, elem_size: usize) {
    // SAFETY: caller guarantees validity and alignment of dst, readability of src.
    unsafe {
        if elem_size == 4 {
            AtomicU32::from_ptr(dst as *mut u32).store((src as *const u32).read_unaligned(), Release);
        } else {
            AtomicU64::from_ptr(dst as *mut u64).store((src as *const u64).read_unaligned(), Release);
        }
    }
}

/// Atomic load of one element (passive single-element get).
///
/// # Safety
/// `src` valid and aligned for one element; `dst` writable for `elem_size` bytes.
pub unsafe fn load_element(dst: *mut u8, src: *const u8, elem_size: usize) {
    // SAFETY: caller guarantees validity and alignment of src, writability of dst.
    unsafe {
        if elem_size == 4 {
            (dst as *mut u32).write_unaligned(AtomicU32::from_ptr(src as *mut u32).load(Acquire));
        } else {
            (dst as *mut u64).write_unaligned(AtomicU64::from_ptr(src as *mut u64).load(Acquire));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_and_real_fetch_ops() {
        let mut x: u32 = 5;
        // SAFETY: local aligned variable, single thread.
        let old = unsafe { fetch_op32(&mut x, 3, Operator::Sum, ElementType::Int32) };
        assert_eq!((old, x), (5, 8));
        // SAFETY: as above.
        unsafe { fetch_op32(&mut x, (-2i32) as u32, Operator::Min, ElementType::Int32) };
        assert_eq!(x as i32, -2);
        let mut r: u64 = 1.5f64.to_bits();
        // SAFETY: as above.
        let old = unsafe { fetch_op64(&mut r, 2.0f64.to_bits(), Operator::Prod, ElementType::Real64) };
        assert_eq!((f64::from_bits(old), f64::from_bits(r)), (1.5, 3.0));
        let mut l: u64 = 7;
        // SAFETY: as above.
        unsafe { fetch_op64(&mut l, 0, Operator::Lor, ElementType::Int64) };
        assert_eq!(l, 1);
    }

    #[test]
    fn compare_swap_swaps_only_on_equal_bits() {
        let mut x: u32 = (-5i32) as u32;
        // SAFETY: local aligned variable, single thread.
        let old = unsafe { compare_swap(&mut x as *mut u32 as *mut u8, 7, 9, 4) };
        assert_eq!((old as u32 as i32, x as i32), (-5, -5), "no swap when different");
        // SAFETY: as above.
        let old = unsafe { compare_swap(&mut x as *mut u32 as *mut u8, (-5i32) as u32 as u64, 9, 4) };
        assert_eq!((old as u32 as i32, x), (-5, 9));
        let mut y: u64 = 1 << 40;
        // SAFETY: as above.
        let old = unsafe { compare_swap(&mut y as *mut u64 as *mut u8, 1 << 40, u64::MAX, 8) };
        assert_eq!((old, y), (1 << 40, u64::MAX));
    }

    /// Threads increment one counter through CAS loops while others add with fetch_op:
    /// neither loses an update of the other.
    #[test]
    fn compare_swap_loops_and_fetch_ops_lose_nothing() {
        let cell = std::sync::Arc::new(AtomicU64::new(0));
        let threads: Vec<_> = (0..4)
            .map(|t| {
                let c = std::sync::Arc::clone(&cell);
                std::thread::spawn(move || {
                    for _ in 0..5_000 {
                        let p = c.as_ptr();
                        if t % 2 == 0 {
                            let mut seen = c.load(Acquire);
                            loop {
                                // SAFETY: the AtomicU64 is aligned, alive, and only accessed atomically.
                                let old = unsafe { compare_swap(p as *mut u8, seen, seen + 1, 8) };
                                if old == seen {
                                    break;
                                }
                                seen = old;
                            }
                        } else {
                            // SAFETY: as above.
                            unsafe { fetch_op64(p, 1, Operator::Sum, ElementType::Int64) };
                        }
                    }
                })
            })
            .collect();
        threads.into_iter().for_each(|t| t.join().unwrap());
        assert_eq!(cell.load(Acquire), 20_000);
    }

    #[test]
    fn concurrent_sums_lose_nothing() {
        let cell = std::sync::Arc::new(AtomicU32::new(0));
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let c = std::sync::Arc::clone(&cell);
                std::thread::spawn(move || {
                    for _ in 0..10_000 {
                        // SAFETY: the AtomicU32 is aligned, alive, and only accessed atomically.
                        unsafe { fetch_op32(c.as_ptr(), 1.0f32.to_bits(), Operator::Sum, ElementType::Real32) };
                    }
                })
            })
            .collect();
        threads.into_iter().for_each(|t| t.join().unwrap());
        assert_eq!(f32::from_bits(cell.load(Acquire)), 40_000.0);
    }
}
