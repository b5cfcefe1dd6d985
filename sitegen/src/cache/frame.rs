//! How a memo is kept on disk: a magic line, the BLAKE3 hash of the value, then the value.
//!
//! A stored file is named by the hash of its bytes, so its damage shows when it is published
//! ([`super::Store::expected`]); a memo is named by the hash of its inputs, which says nothing
//! of the bytes read back. Its own hash, checked each time it is read, finds a memo torn by a
//! crash or rotted on the disk before anything is made from it: it is then a miss, made again.
//! A file without the magic line is a memo of an older sitegen (or one whose very first bytes
//! rotted): a miss too, but no news worth a warning.

/// The first bytes of every memo on disk; a new format takes a new number.
const MAGIC: &[u8] = b"sitegen memo 1\n";

/// Bytes of the BLAKE3 hash after [`MAGIC`].
const HASH_BYTES: usize = blake3::OUT_LEN;

/// `value` as it is written to disk.
pub(super) fn frame(value: &[u8]) -> Vec<u8> {
    let mut framed = Vec::with_capacity(MAGIC.len() + HASH_BYTES + value.len());
    framed.extend_from_slice(MAGIC);
    framed.extend_from_slice(blake3::hash(value).as_bytes());
    framed.extend_from_slice(value);
    framed
}

/// What a memo file read back holds.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Unframed {
    /// Its value, whole.
    Value(Vec<u8>),
    /// No memo of this format.
    Foreign,
    /// A memo of this format whose value no longer matches its hash: damaged.
    Damaged,
}

/// The value of the memo file `bytes`, once its hash matched.
pub(super) fn unframe(mut bytes: Vec<u8>) -> Unframed {
    if !bytes.starts_with(MAGIC) {
        return Unframed::Foreign;
    }
    let Some(hash) = bytes.get(MAGIC.len()..MAGIC.len() + HASH_BYTES) else {
        return Unframed::Damaged;
    };
    let Ok(hash) = <[u8; HASH_BYTES]>::try_from(hash) else {
        return Unframed::Damaged;
    };
    let value = &bytes[MAGIC.len() + HASH_BYTES..];
    // Constant time is not needed: nobody is guessing, the disk is rotting.
    if blake3::hash(value).as_bytes() != &hash {
        return Unframed::Damaged;
    }
    bytes.drain(..MAGIC.len() + HASH_BYTES);
    Unframed::Value(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_comes_back_whole_and_any_flipped_bit_or_cut_is_found() {
        let value = b"what a step produced".to_vec();
        let framed = frame(&value);
        assert_eq!(unframe(framed.clone()), Unframed::Value(value));
        for bit in MAGIC.len() * 8..framed.len() * 8 {
            let mut rotten = framed.clone();
            rotten[bit / 8] ^= 1 << (bit % 8);
            assert_eq!(unframe(rotten), Unframed::Damaged, "bit {bit}");
        }
        for len in MAGIC.len()..framed.len() {
            assert_eq!(
                unframe(framed[..len].to_vec()),
                Unframed::Damaged,
                "cut at {len}"
            );
        }
        assert_eq!(unframe(b"an older memo".to_vec()), Unframed::Foreign);
        assert_eq!(unframe(frame(b"")), Unframed::Value(Vec::new()));
    }
}
