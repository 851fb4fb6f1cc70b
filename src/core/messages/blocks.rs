//! The root's blocks of a gather or scatter of varying counts (RPN_COMM_gatherv, scatterv): one
//! block per PE in the root's buffer, from its counts and displacements (elements of the root's
//! datatype, displacements from the buffer's start as MPI counts them), checked before any byte
//! moves: none negative, none too large, and, where the root receives, no two blocks overlapping.

use super::message_type::MessageType;
use crate::error::{Error, Result};

/// One PE's block in the root's buffer, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block {
    /// Its first byte's distance from the buffer's start.
    pub at: usize,
    /// Its length.
    pub len: usize,
}

/// How messages name the root's arrays: the counts' and the displacements' dummy arguments.
#[derive(Debug, Clone, Copy)]
pub struct Names {
    /// The counts (RPN_COMM_gatherv's `reccountv`).
    pub counts: &'static str,
    /// The displacements (`disp`).
    pub displs: &'static str,
}

/// The blocks of PEs 0, 1, ... from `counts[p]` elements of `dtype` at `displs[p]` elements;
/// `disjoint`: no two blocks may share a byte (a buffer the root receives into). Messages name
/// an element as the Fortran caller indexes it, from 1.
pub fn blocks(dtype: MessageType, counts: &[i32], displs: &[i32], disjoint: bool, names: Names) -> Result<Vec<Block>> {
    let mut out = Vec::with_capacity(counts.len());
    for (p, (&count, &displ)) in counts.iter().zip(displs).enumerate() {
        let element = |name: &str, v: i32| format!("{name}({}) = {v} (PE {p})", p + 1);
        if count < 0 {
            return Err(Error::BadArgument(format!("negative count {}", element(names.counts, count))));
        }
        if displ < 0 {
            return Err(Error::BadArgument(format!("negative displacement {}", element(names.displs, displ))));
        }
        let too_large =
            || Error::BadArgument(format!("{} and {} reach past any buffer", element(names.counts, count), element(names.displs, displ)));
        let len = dtype.message_size("count", count)?;
        let at = (displ as usize).checked_mul(dtype.size()).ok_or_else(too_large)?;
        at.checked_add(len).ok_or_else(too_large)?;
        out.push(Block { at, len });
    }
    if disjoint {
        let mut order: Vec<usize> = (0..out.len()).filter(|&p| out[p].len > 0).collect();
        order.sort_by_key(|&p| out[p].at);
        if let Some(w) = order.windows(2).find(|w| out[w[0]].at + out[w[0]].len > out[w[1]].at) {
            let (a, b) = (w[0].min(w[1]), w[0].max(w[1]));
            return Err(Error::BadArgument(format!(
                "the blocks of PE {a} and PE {b} overlap in the receive buffer ({}({}) = {}, {}({}) = {} elements from {}({}) = {}, {}({}) = {})",
                names.counts,
                a + 1,
                counts[a],
                names.counts,
                b + 1,
                counts[b],
                names.displs,
                a + 1,
                displs[a],
                names.displs,
                b + 1,
                displs[b]
            )));
        }
    }
    Ok(out)
}

/// The root's blocks against what each PE gives (`bytes[p]`, from the agreement): the first PE
/// whose block is not as long, named with both sizes (`verb`: what the PE does, "sends").
pub fn check_lengths(blocks: &[Block], bytes: &[usize], names: Names, verb: &str) -> Result<()> {
    match blocks.iter().zip(bytes).position(|(b, &n)| b.len != n) {
        Some(p) => Err(Error::BadArgument(format!(
            "{}({}) makes {} bytes for PE {p}, which {verb} {} bytes",
            names.counts,
            p + 1,
            blocks[p].len,
            bytes[p]
        ))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: Names = Names { counts: "reccountv", displs: "disp" };

    fn real8() -> MessageType {
        MessageType::from_name("MPI_REAL8").unwrap()
    }

    #[test]
    fn blocks_in_bytes_in_any_order() {
        let b = blocks(real8(), &[2, 0, 3], &[3, 9, 0], true, NAMES).unwrap();
        assert_eq!(b, vec![Block { at: 24, len: 16 }, Block { at: 72, len: 0 }, Block { at: 0, len: 24 }]);
    }

    #[test]
    fn negative_and_overlapping_refused_with_the_fortran_index() {
        let e = blocks(real8(), &[1, -2], &[0, 1], true, NAMES).unwrap_err().to_string();
        assert!(e.contains("negative count reccountv(2) = -2 (PE 1)"), "{e}");
        let e = blocks(real8(), &[1, 2], &[0, -1], true, NAMES).unwrap_err().to_string();
        assert!(e.contains("negative displacement disp(2) = -1 (PE 1)"), "{e}");
        let e = blocks(real8(), &[2, 2, 1], &[0, 4, 1], true, NAMES).unwrap_err().to_string();
        assert!(e.contains("the blocks of PE 0 and PE 2 overlap"), "{e}");
        // a scatter's blocks may overlap (the root only reads them), empty blocks never do
        assert!(blocks(real8(), &[2, 2, 1], &[0, 4, 1], false, NAMES).is_ok());
        assert!(blocks(real8(), &[2, 0], &[0, 1], true, NAMES).is_ok());
        assert!(blocks(MessageType::from_name("MPI_COMPLEX32").unwrap(), &[1], &[i32::MAX], true, NAMES).is_ok());
    }

    #[test]
    fn lengths_against_the_pes() {
        let b = blocks(real8(), &[2, 1], &[0, 2], true, NAMES).unwrap();
        assert!(check_lengths(&b, &[16, 8], NAMES, "sends").is_ok());
        let e = check_lengths(&b, &[16, 16], NAMES, "sends").unwrap_err().to_string();
        assert!(e.contains("reccountv(2) makes 8 bytes for PE 1, which sends 16 bytes"), "{e}");
    }
}
