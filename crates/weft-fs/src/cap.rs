//! How much of one kind of file weft is willing to read.

use std::fmt;

/// A size limit for one kind of file, with the name of that kind for error messages.
///
/// Each crate that owns a kind of file declares its cap as a constant next to the code that
/// reads it (for example the agent-file cap in `weft-agents`), so the limit and its reason
/// live together.
///
/// ```
/// use weft_fs::Cap;
///
/// const CONFIG: Cap = Cap::new(1024 * 1024, "config files");
/// assert_eq!(CONFIG.to_string(), "1 MiB limit for config files");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cap {
    bytes: u64,
    what: &'static str,
}

impl Cap {
    /// A cap of `bytes` for files described as `what` (plural: "skill files").
    pub const fn new(bytes: u64, what: &'static str) -> Self {
        Self { bytes, what }
    }

    /// A cap given in `usize` (limits in parse options are `usize`).
    pub const fn from_usize(bytes: usize, what: &'static str) -> Self {
        Self::new(bytes as u64, what)
    }

    /// The most bytes that may be read.
    pub const fn bytes(self) -> u64 {
        self.bytes
    }

    /// What kind of file the cap is for.
    pub const fn what(self) -> &'static str {
        self.what
    }

    /// The same cap for another kind of file.
    pub const fn for_kind(self, what: &'static str) -> Self {
        Self { what, ..self }
    }
}

impl fmt::Display for Cap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} limit for {}", human_size(self.bytes), self.what)
    }
}

/// `1 MiB`, `256 KiB`, `1000 bytes`: exact when the size is a whole number of units (as
/// limits are), else to a tenth of the largest unit it reaches (`12.3 KiB`); below 1 KiB in
/// bytes.
pub fn human_size(bytes: u64) -> String {
    const UNITS: [(u64, &str); 3] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    for (unit, name) in UNITS {
        if bytes >= unit && bytes.is_multiple_of(unit) {
            return format!("{} {name}", bytes / unit);
        }
    }
    for (unit, name) in UNITS {
        if bytes >= unit {
            // Tenths, rounded: exact integer arithmetic (a display value, never parsed).
            let tenths = (u128::from(bytes) * 10 + u128::from(unit) / 2) / u128::from(unit);
            return format!("{}.{} {name}", tenths / 10, tenths % 10);
        }
    }
    format!("{bytes} bytes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_naturally() {
        assert_eq!(human_size(256 * 1024), "256 KiB");
        assert_eq!(human_size(1 << 30), "1 GiB");
        assert_eq!(human_size(1000), "1000 bytes");
        assert_eq!(human_size(1500), "1.5 KiB");
        assert_eq!(human_size(12_595), "12.3 KiB");
        assert_eq!(human_size((4 << 20) + 1), "4.0 MiB");
        assert_eq!(human_size(0), "0 bytes");
        assert_eq!(
            Cap::new(4 << 20, "agent files").to_string(),
            "4 MiB limit for agent files"
        );
    }
}
