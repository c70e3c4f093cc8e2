//! What one description costs in the rendered catalog under each per-description limit,
//! measured once from its characters and the extra characters its escapes take. Separate
//! from the fitting because it is measurement (a character counter with escapes and the
//! [`DESCRIPTION_CAP`] cut), which the renderers run and the fitting only reads.

use super::fit::DESCRIPTION_CAP;

/// The rendered length of one description as a function of the per-description limit.
///
/// Built from the description's characters *as the renderer sees them* (whitespace collapsed
/// for the weft format, verbatim for XML) and the number of extra characters each one costs
/// when escaped (`&` → `&amp;` costs 4 extra). The [`DESCRIPTION_CAP`] cut is already applied.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DescriptionCost {
    /// Characters after the cap cut (`min(original, DESCRIPTION_CAP)`).
    chars: usize,
    /// Whether the original was longer than [`DESCRIPTION_CAP`].
    capped: bool,
    /// Escaped characters that survive the cap cut: (char index, extra characters of all
    /// escaped characters up to and including this one), ascending by index.
    escapes: Vec<(usize, usize)>,
}

impl DescriptionCost {
    /// A description of `chars` characters, none of them escaped (`chars` above the cap is
    /// treated as cut by the cap).
    pub fn plain(chars: usize) -> Self {
        Self {
            chars: chars.min(DESCRIPTION_CAP),
            capped: chars > DESCRIPTION_CAP,
            escapes: Vec::new(),
        }
    }

    /// Measures a description given as its characters; `extra(c)` is how many characters
    /// more than one `c` takes once rendered (0 when it is not escaped). Reads at most
    /// `DESCRIPTION_CAP + 1` characters.
    pub fn measure(text: impl Iterator<Item = char>, extra: impl Fn(char) -> usize) -> Self {
        let mut chars = 0;
        let mut escapes = Vec::new();
        let mut total = 0;
        for c in text.take(DESCRIPTION_CAP + 1) {
            let e = extra(c);
            if e > 0 {
                total += e;
                escapes.push((chars, total));
            }
            chars += 1;
        }
        Self::capped(chars, escapes)
    }

    /// Like [`measure`](Self::measure) for a whole string whose escaped characters are all
    /// ASCII: `extra` is asked about ASCII bytes only (every other character costs 1).
    /// Counts over bytes (characters are the bytes that are not UTF-8 continuation bytes)
    /// in blocks of 32: a block without an escaped character is counted branch-free (the
    /// compiler vectorises it), the others byte by byte.
    pub fn measure_str(text: &str, extra: impl Fn(u8) -> usize) -> Self {
        const BLOCK: usize = 32;
        let starts = |b: u8| usize::from(b & 0xC0 != 0x80);
        // Branch-free as well: `extra` only ever sees ASCII bytes.
        let escaped = |b: u8| b.is_ascii() & (extra(b & 0x7F) > 0);
        let mut chars = 0;
        let mut escapes = Vec::new();
        let mut total = 0;
        for block in text.as_bytes().chunks(BLOCK) {
            if block.iter().fold(false, |any, &b| any | escaped(b)) {
                for &b in block {
                    if escaped(b) {
                        total += extra(b);
                        escapes.push((chars, total));
                    }
                    chars += starts(b);
                }
            } else {
                chars += block.iter().map(|&b| starts(b)).sum::<usize>();
            }
            if chars > DESCRIPTION_CAP {
                break;
            }
        }
        Self::capped(chars, escapes)
    }

    /// Applies the cap to `chars` characters (at most `DESCRIPTION_CAP + 1` counted) and the
    /// escapes found among them.
    fn capped(mut chars: usize, mut escapes: Vec<(usize, usize)>) -> Self {
        let capped = chars > DESCRIPTION_CAP;
        if capped {
            // The cap keeps `DESCRIPTION_CAP - 1` characters and adds the (unescaped) `…`.
            chars = DESCRIPTION_CAP;
            escapes.retain(|&(i, _)| i < DESCRIPTION_CAP - 1);
        }
        Self {
            chars,
            capped,
            escapes,
        }
    }

    /// Characters after the cap cut (what a limit is compared with).
    pub fn chars(&self) -> usize {
        self.chars
    }

    /// Whether the original was longer than [`DESCRIPTION_CAP`].
    pub fn is_capped(&self) -> bool {
        self.capped
    }

    /// Whether the description is cut under `limit` (`None`: the cap only).
    pub fn is_cut(&self, limit: Option<usize>) -> bool {
        self.capped || limit.is_some_and(|l| self.chars > l)
    }

    /// Extra characters of the escaped characters among the first `k`.
    fn extra_before(&self, k: usize) -> usize {
        let p = self.escapes.partition_point(|&(i, _)| i < k);
        if p == 0 { 0 } else { self.escapes[p - 1].1 }
    }

    /// Rendered characters under `limit` (`None`: in full, after the cap). A description
    /// longer than the limit keeps `limit - 1` characters plus `…`; a limit of 0 is treated
    /// as 1.
    pub fn rendered_len(&self, limit: Option<usize>) -> usize {
        match limit {
            Some(l) if self.chars > l => {
                let keep = l.max(1) - 1;
                keep + self.extra_before(keep) + 1
            }
            _ => self.chars + self.extra_before(usize::MAX),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn description_cost_plain() {
        let d = DescriptionCost::plain(100);
        assert_eq!(d.rendered_len(None), 100);
        assert_eq!(d.rendered_len(Some(100)), 100);
        assert_eq!(d.rendered_len(Some(40)), 40);
        assert_eq!(d.rendered_len(Some(1)), 1);
        assert_eq!(d.rendered_len(Some(0)), 1);
        assert!(!d.is_cut(None));
        assert!(d.is_cut(Some(99)));
        let long = DescriptionCost::plain(5000);
        assert_eq!(long.chars(), DESCRIPTION_CAP);
        assert!(long.is_capped());
        assert!(long.is_cut(None));
        assert_eq!(long.rendered_len(None), DESCRIPTION_CAP);
    }

    #[test]
    fn description_cost_with_escapes() {
        // `a&b<c`: `&` +4 at index 1, `<` +3 at index 3.
        let extra = |c| match c {
            '&' => 4,
            '<' => 3,
            _ => 0,
        };
        let d = DescriptionCost::measure("a&b<c".chars(), extra);
        assert_eq!(d.chars(), 5);
        assert_eq!(d.rendered_len(None), 12); // a&amp;b&lt;c
        assert_eq!(d.rendered_len(Some(5)), 12); // not cut
        assert_eq!(d.rendered_len(Some(4)), 8); // a&amp;b…
        assert_eq!(d.rendered_len(Some(3)), 7); // a&amp;…
        assert_eq!(d.rendered_len(Some(2)), 2); // a…
    }

    #[test]
    fn description_cost_cap_drops_escapes_past_the_cut() {
        let text: String = "x".repeat(DESCRIPTION_CAP - 1) + "&&&";
        let d = DescriptionCost::measure(text.chars(), |c| if c == '&' { 4 } else { 0 });
        assert!(d.is_capped());
        assert_eq!(d.chars(), DESCRIPTION_CAP);
        // 1023 `x` and `…`: the `&`s are past the cut.
        assert_eq!(d.rendered_len(None), DESCRIPTION_CAP);
        let exact: String = "&".repeat(DESCRIPTION_CAP);
        let d = DescriptionCost::measure(exact.chars(), |c| if c == '&' { 4 } else { 0 });
        assert!(!d.is_capped());
        assert_eq!(d.rendered_len(None), 5 * DESCRIPTION_CAP);
    }

    #[test]
    fn measure_str_agrees_with_measure() {
        let extra = |c: char| match c {
            '&' => 4,
            '<' | '>' => 3,
            '"' | '\'' => 5,
            _ => 0,
        };
        let texts = [
            String::new(),
            "a&b<c".to_owned(),
            "café ☕ <&> 日本語 🚀 \"'".to_owned(),
            "é".repeat(DESCRIPTION_CAP + 5),
            "&".repeat(DESCRIPTION_CAP + 1),
            format!("{}<é&", "x".repeat(DESCRIPTION_CAP - 2)),
            format!("{}é&", "x".repeat(DESCRIPTION_CAP - 1)),
            format!("{}&", "x".repeat(DESCRIPTION_CAP)),
            format!("{}&", "x".repeat(DESCRIPTION_CAP + 1)),
            format!("{}&x", "é".repeat(4 * DESCRIPTION_CAP)),
            format!("{}<b>", "ab".repeat(2 * DESCRIPTION_CAP)),
            format!("{}<b>", "a".repeat(DESCRIPTION_CAP / 2)),
        ];
        for text in &texts {
            let by_char = DescriptionCost::measure(text.chars(), extra);
            let by_byte = DescriptionCost::measure_str(text, |b| extra(char::from(b)));
            assert_eq!(by_char, by_byte, "{text}");
        }
    }
}
