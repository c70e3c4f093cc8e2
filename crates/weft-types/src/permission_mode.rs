//! Permission modes: how much a session runs without asking a person.
//!
//! The modes are ordered from the narrowest to the widest, so "never widen" is a `min`:
//! a subagent runs in `min(parent, its agent's permissionMode)`.
//!
//! ```
//! use weft_types::PermissionMode;
//!
//! let mode: PermissionMode = "acceptEdits".parse().unwrap(); // Claude Code's spelling
//! assert_eq!(mode, PermissionMode::AcceptEdits);
//! assert_eq!(mode.to_string(), "accept-edits");
//! assert_eq!(PermissionMode::Bypass.narrow(PermissionMode::Plan), PermissionMode::Plan);
//! assert_eq!(PermissionMode::Ask.narrow(PermissionMode::Auto), PermissionMode::Ask);
//! assert!("yolo".parse::<PermissionMode>().is_err());
//! ```

use std::fmt;
use std::str::FromStr;

/// How much a session runs without asking (narrowest first).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PermissionMode {
    /// Only read-only tools are offered and run; nothing that may change something runs.
    Plan,
    /// Like [`Ask`](Self::Ask), but no one is ever asked: what would ask is refused (Claude
    /// Code's `dontAsk`).
    DontAsk,
    /// Read-only tools and pre-approved calls run; anything else asks a person (or is refused
    /// where no one can be asked). The default.
    #[default]
    Ask,
    /// Like [`Ask`](Self::Ask), and file edits inside the project run without asking.
    AcceptEdits,
    /// Everything the gate allows runs without asking; `exec_shell` runs in the OS sandbox.
    Auto,
    /// No prompts and no sandbox. Only from the command line or the user's configuration.
    Bypass,
}

impl PermissionMode {
    /// Every mode, narrowest first.
    pub const ALL: [PermissionMode; 6] = [
        PermissionMode::Plan,
        PermissionMode::DontAsk,
        PermissionMode::Ask,
        PermissionMode::AcceptEdits,
        PermissionMode::Auto,
        PermissionMode::Bypass,
    ];

    /// weft's spelling (`accept-edits`), as the command line and the configuration write it.
    pub fn as_str(self) -> &'static str {
        match self {
            PermissionMode::Plan => "plan",
            PermissionMode::DontAsk => "dont-ask",
            PermissionMode::Ask => "ask",
            PermissionMode::AcceptEdits => "accept-edits",
            PermissionMode::Auto => "auto",
            PermissionMode::Bypass => "bypass",
        }
    }

    /// The narrower of two modes: a subagent or an agent file can only take freedom away.
    #[must_use]
    pub fn narrow(self, other: PermissionMode) -> PermissionMode {
        self.min(other)
    }

    /// Claude Code's name for this mode (`default`, `acceptEdits`, `plan`, `auto`, `dontAsk`,
    /// `bypassPermissions`): what hooks are told in `permission_mode`.
    pub fn claude_name(self) -> &'static str {
        self.aliases().first().copied().unwrap_or(self.as_str())
    }

    /// The spellings accepted for this mode besides [`as_str`](Self::as_str): Claude Code's
    /// (`default` and `manual` are `ask`, `acceptEdits`, `dontAsk`, `bypassPermissions`).
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            PermissionMode::Plan | PermissionMode::Auto => &[],
            PermissionMode::DontAsk => &["dontAsk"],
            PermissionMode::Ask => &["default", "manual"],
            PermissionMode::AcceptEdits => &["acceptEdits"],
            PermissionMode::Bypass => &["bypassPermissions"],
        }
    }
}

impl fmt::Display for PermissionMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A mode name that is none of weft's or Claude Code's spellings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownPermissionMode(pub String);

impl fmt::Display for UnknownPermissionMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown permission mode `{}`; expected one of ask, accept-edits, plan, auto, bypass, dont-ask (or Claude Code's default, acceptEdits, bypassPermissions, dontAsk)",
            self.0
        )
    }
}

impl std::error::Error for UnknownPermissionMode {}

impl FromStr for PermissionMode {
    type Err = UnknownPermissionMode;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        PermissionMode::ALL
            .into_iter()
            .find(|m| m.as_str() == text || m.aliases().contains(&text))
            .ok_or_else(|| UnknownPermissionMode(text.to_owned()))
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for PermissionMode {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// Read by [`FromStr`]: every spelling the command line takes, and the same message for one
/// that is no mode.
#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for PermissionMode {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// A `permissionMode` as an agent file writes it: a mode, or the spelling that is none (kept,
/// so that a session refuses the agent rather than run it wider than its author meant).
pub type WrittenPermissionMode = Result<PermissionMode, UnknownPermissionMode>;

/// serde for an optional [`WrittenPermissionMode`]: the mode's name, or the text as written.
#[cfg(feature = "serde")]
pub mod as_written {
    use serde::{Deserialize, Deserializer, Serializer};

    use super::WrittenPermissionMode;

    /// Writes the mode's name, or the unknown text as it was written.
    pub fn serialize<S: Serializer>(
        mode: &Option<WrittenPermissionMode>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match mode {
            None => serializer.serialize_none(),
            Some(Ok(mode)) => serializer.serialize_some(mode.as_str()),
            Some(Err(unknown)) => serializer.serialize_some(&unknown.0),
        }
    }

    /// Reads a string and parses it (an unknown one is kept as the error).
    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<WrittenPermissionMode>, D::Error> {
        Ok(Option::<String>::deserialize(deserializer)?.map(|text| text.parse()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_parses_and_round_trips() {
        for mode in PermissionMode::ALL {
            assert_eq!(mode.as_str().parse::<PermissionMode>(), Ok(mode));
            for alias in mode.aliases() {
                assert_eq!(alias.parse::<PermissionMode>(), Ok(mode), "{alias}");
            }
        }
        assert_eq!("default".parse(), Ok(PermissionMode::Ask));
        assert_eq!("bypassPermissions".parse(), Ok(PermissionMode::Bypass));
        assert_eq!(" plan ".parse(), Ok(PermissionMode::Plan));
        assert!("Plan".parse::<PermissionMode>().is_err());
        assert!("".parse::<PermissionMode>().is_err());
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serde_reads_every_spelling_and_writes_weft_s() {
        let mode: PermissionMode = serde_json::from_str(r#""bypassPermissions""#).unwrap();
        assert_eq!(mode, PermissionMode::Bypass);
        assert_eq!(serde_json::to_string(&mode).unwrap(), r#""bypass""#);
        let err = serde_json::from_str::<PermissionMode>(r#""yolo""#).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("unknown permission mode `yolo`; expected one of"),
            "{err}"
        );
    }

    #[test]
    fn the_order_is_narrowest_first() {
        let mut sorted = PermissionMode::ALL;
        sorted.sort();
        assert_eq!(sorted, PermissionMode::ALL);
        for a in PermissionMode::ALL {
            for b in PermissionMode::ALL {
                let n = a.narrow(b);
                assert!(n <= a && n <= b);
                assert!(n == a || n == b);
            }
        }
    }
}
