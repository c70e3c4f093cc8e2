//! The term dictionary's map and hash: terms come from local skill files and the user's own
//! text, so a fast non-randomised hash serves better than SipHash. Separate because it is a
//! hashing detail, not matching.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The term dictionary. Terms come from local skill files and the user's own text, so a fast
/// non-randomised hash (FxHash's) serves better than SipHash here.
pub(super) type TermMap = HashMap<String, u32, BuildHasherDefault<FxHasher>>;

/// The multiply-rotate hash of rustc's `FxHasher`.
#[derive(Default, Clone, Copy)]
pub(super) struct FxHasher(u64);

impl FxHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, byte: u8) {
        self.add(u64::from(byte));
    }

    fn finish(&self) -> u64 {
        self.0
    }
}
