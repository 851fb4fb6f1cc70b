//! Conversions of raw C arguments, the only place the ABI dereferences caller pointers
//! other than data buffers (which the transport copies under the API contract).

use std::borrow::Cow;
use std::ffi::c_char;

use crate::core::{Handle, HandleKind};
use crate::error::{Error, Result};

/// Reads a handle the caller passed by reference.
///
/// # Safety
/// `p` is null or points to a readable `Handle` (the Fortran derived type or the C struct).
pub unsafe fn handle(p: *const Handle, kind: HandleKind) -> Result<Handle> {
    if p.is_null() {
        return Err(Error::InvalidHandle { what: kind.name() });
    }
    // SAFETY: non-null and readable per the caller's contract; read_unaligned tolerates any
    // alignment the caller's storage may have.
    Ok(unsafe { p.read_unaligned() })
}

/// A Fortran string: `len` bytes, not NUL-terminated; borrowed from the caller when it is UTF-8
/// (every name the library knows: no copy on the collectives' path).
///
/// # Safety
/// `p` is null (then `len` must be 0) or readable for `len` bytes, which stay unchanged for `'a`
/// (the call).
#[inline]
pub unsafe fn name<'a>(p: *const c_char, len: usize) -> Result<Cow<'a, str>> {
    if p.is_null() {
        return if len == 0 { Ok(Cow::Borrowed("")) } else { Err(Error::BadArgument("null name".into())) };
    }
    // SAFETY: readable for len bytes, unchanged during the call, per the caller's contract.
    let bytes = unsafe { std::slice::from_raw_parts(p as *const u8, len) };
    // (names are ASCII: checked a word at a time, cheaper than a UTF-8 decoding)
    Ok(match is_ascii(bytes) {
        // SAFETY: ASCII bytes are UTF-8.
        true => Cow::Borrowed(unsafe { std::str::from_utf8_unchecked(bytes) }),
        false => String::from_utf8_lossy(bytes),
    })
}

/// `bytes.is_ascii()`, with two overlapping word loads for a name of 4 to 16 bytes (the usual
/// ones: the library's own loop costs a few dozen instructions at every collective call).
fn is_ascii(bytes: &[u8]) -> bool {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let n = bytes.len();
    let word = |at: usize| u64::from_ne_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    let half = |at: usize| u32::from_ne_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    match n {
        8..=16 => (word(0) | word(n - 8)) & HIGH == 0,
        4..=7 => (half(0) | half(n - 4)) & HIGH as u32 == 0,
        _ => bytes.is_ascii(),
    }
}

/// An integer array of `n` elements (may be null when `n` is 0).
///
/// # Safety
/// `p` is readable for `n` ints when `n > 0`.
pub unsafe fn ints<'a>(p: *const i32, n: i32, what: &'static str) -> Result<&'a [i32]> {
    let n = usize::try_from(n).map_err(|_| Error::Negative { what, value: n as i64 })?;
    if n == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(Error::NullBuffer { what, nelem: n as i64 });
    }
    // SAFETY: non-null and readable for n ints per the caller's contract.
    Ok(unsafe { std::slice::from_raw_parts(p, n) })
}

/// Stores an output value when the caller gave somewhere to put it.
///
/// # Safety
/// `p` is null or writable for one `T`.
pub unsafe fn put<T>(p: *mut T, value: T) {
    if !p.is_null() {
        // SAFETY: non-null and writable per the caller's contract.
        unsafe { p.write_unaligned(value) };
    }
}

#[cfg(test)]
mod tests {
    use super::is_ascii;

    #[test]
    fn is_ascii_is_the_standard_librarys_at_every_length_and_place() {
        for n in 0..=24usize {
            let name = vec![b'A'; n];
            assert!(is_ascii(&name), "length {n}");
            for i in 0..n {
                let mut high = name.clone();
                high[i] = 0xc3;
                assert!(!is_ascii(&high), "length {n}, byte {i}");
            }
        }
    }
}
