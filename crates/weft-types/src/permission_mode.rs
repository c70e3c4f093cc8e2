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
