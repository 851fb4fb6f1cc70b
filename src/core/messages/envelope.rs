//! The envelope of a point-to-point message sent through the transport's channels (shared
//! memory): which routine sent it, its tag, its datatype and its length, ahead of its bytes, so
//! that the receiver checks it before it copies anything. The channels carry messages of other
//! routines too (the halo exchanges'): a message whose first word is not `MAGIC` is not one of
//! these, and is left where it is.

use crate::error::{Error, Result};

/// First word of every envelope: "RPNp" in ASCII.
pub const MAGIC: u32 = 0x5250_4e70;
/// Bytes of an envelope ahead of the message's bytes.
pub const ENVELOPE_BYTES: usize = 24;

/// What a message says of itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Envelope {
    /// The sender's tag.
    pub tag: i32,
    /// The code of its datatype (`MessageType::code`).
    pub dtype: u32,
    /// Its bytes after the envelope.
    pub bytes: u64,
}

impl Envelope {
    /// The envelope's bytes (native byte order: the PEs of a node share it).
    pub fn encode(&self) -> [u8; ENVELOPE_BYTES] {
        let mut out = [0u8; ENVELOPE_BYTES];
        out[0..4].copy_from_slice(&MAGIC.to_ne_bytes());
        out[4..8].copy_from_slice(&self.tag.to_ne_bytes());
        out[8..12].copy_from_slice(&self.dtype.to_ne_bytes());
        out[16..24].copy_from_slice(&self.bytes.to_ne_bytes());
        out
    }

    /// The envelope at the start of `message` (None: not a message with an envelope).
    pub fn decode(message: &[u8]) -> Option<Self> {
        let w = |at: usize| u32::from_ne_bytes(message[at..at + 4].try_into().expect("4 bytes"));
        if message.len() < ENVELOPE_BYTES || w(0) != MAGIC {
            return None;
        }
        let bytes = u64::from_ne_bytes(message[16..24].try_into().expect("8 bytes"));
        (bytes == (message.len() - ENVELOPE_BYTES) as u64).then_some(Envelope { tag: w(4) as i32, dtype: w(8), bytes })
    }

    /// Whether a receive of `tag` with room for `room` bytes takes this message from `source`:
    /// the tags must be equal (messages are taken in the order they were sent) and the message
    /// must fit.
    pub fn accept(&self, source: usize, tag: i32, room: usize) -> Result<()> {
        if self.tag != tag {
            return Err(Error::BadArgument(format!(
                "the next message from PE {source} has tag {}, this PE receives tag {tag} (messages from a PE are received in the order it sent them)",
                self.tag
            )));
        }
        if self.bytes > room as u64 {
            return Err(Error::BadArgument(format!(
                "the message from PE {source} (tag {tag}) holds {} bytes, the receive room for {room}",
                self.bytes
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_foreign_messages() {
        let e = Envelope { tag: -7, dtype: 12, bytes: 3 };
        let mut m = e.encode().to_vec();
        m.extend_from_slice(&[1, 2, 3]);
        assert_eq!(Envelope::decode(&m), Some(e));
        assert_eq!(Envelope::decode(&m[..m.len() - 1]), None, "a length that disagrees");
        assert_eq!(Envelope::decode(&[0u8; 40]), None, "no magic word");
        assert_eq!(Envelope::decode(&m[..10]), None, "too short");
    }

    #[test]
    fn tags_and_room() {
        let e = Envelope { tag: 5, dtype: 4, bytes: 16 };
        assert!(e.accept(1, 5, 16).is_ok() && e.accept(1, 5, 40).is_ok());
        assert!(e.accept(1, 6, 16).unwrap_err().to_string().contains("has tag 5, this PE receives tag 6"));
        assert!(e.accept(1, 5, 8).unwrap_err().to_string().contains("holds 16 bytes"));
    }
}
