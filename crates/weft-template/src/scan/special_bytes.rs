//! Finding the next byte the scanner has to look at (`$`, `\`, `` ` ``, `{`, a newline),
//! a word (8 bytes) at a time. Separate because it is a byte-level search with its own test
//! against the table, independent of what the bytes mean.

/// Bytes at which the scanner has to look closer; everything else is plain text.
const SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    t[b'$' as usize] = true;
    t[b'\\' as usize] = true;
    t[b'`' as usize] = true;
    t[b'{' as usize] = true;
    t[b'\n' as usize] = true;
    t
};

/// `b` in every byte of a word.
const fn splat(b: u8) -> u64 {
    u64::from_ne_bytes([b; 8])
}

/// The high bit of each zero byte of `x` is set (plus, possibly, bits above the lowest zero
/// byte: only the lowest flagged byte is exact, which is all [`find_special`] uses).
const fn zero_bytes(x: u64) -> u64 {
    x.wrapping_sub(splat(0x01)) & !x & splat(0x80)
}

/// Index of the first [`SPECIAL`] byte at or after `from`, or the length of `bytes`.
///
/// Plain text is most of a template, so this skips it a word (8 bytes) at a time.
pub(super) fn find_special(bytes: &[u8], from: usize) -> usize {
    let Some(rest) = bytes.get(from..) else {
        return bytes.len();
    };
    let (words, tail) = rest.as_chunks::<8>();
    let mut at = from;
    for word in words {
        let x = u64::from_le_bytes(*word);
        let hits = zero_bytes(x ^ splat(b'$'))
            | zero_bytes(x ^ splat(b'\\'))
            | zero_bytes(x ^ splat(b'`'))
            | zero_bytes(x ^ splat(b'{'))
            | zero_bytes(x ^ splat(b'\n'));
        if hits != 0 {
            // Little-endian: the lowest set bit belongs to the first matching byte.
            return at + (hits.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    tail.iter()
        .position(|&b| SPECIAL[usize::from(b)])
        .map_or(bytes.len(), |i| at + i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_special_agrees_with_table() {
        let text = "plain text, then $ and more\\ é `code` {x}\nnext line ~~ end";
        let bytes = text.as_bytes();
        for from in 0..=bytes.len() + 1 {
            let expected = (from..bytes.len())
                .find(|&i| SPECIAL[usize::from(bytes[i])])
                .unwrap_or(bytes.len());
            assert_eq!(find_special(bytes, from), expected, "from {from}");
        }
        for b in 0..=255u8 {
            let mut buf = [b'a'; 20];
            buf[13] = b;
            let expected = if SPECIAL[usize::from(b)] { 13 } else { 20 };
            assert_eq!(find_special(&buf, 0), expected, "byte {b}");
            assert_eq!(find_special(&buf, 5), expected, "byte {b}");
        }
    }
}
