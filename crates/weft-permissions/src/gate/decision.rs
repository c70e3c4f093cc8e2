//! What the gate says about a call: [`Decision`], and the [`Reason`] of an ask or a denial.
//!
//! The reason keeps its kind and its text apart: the text is what the rule found (``the
//! `write` tool is forbidden by skill 'x'``), and only its display adds the `ask: ` or
//! `denied: ` in front, so no caller has to strip a prefix to reuse the text.

use std::fmt;

/// Whether a reason asks for approval or refuses the call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReasonKind {
    /// Someone must approve the call.
    Ask,
    /// The call must not run.
    Denied,
}

impl fmt::Display for ReasonKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ReasonKind::Ask => "ask",
            ReasonKind::Denied => "denied",
        })
    }
}

/// Why a call needs approval or must not run: its kind and the text, without a prefix.
///
/// ```
/// use weft_permissions::{Reason, ReasonKind};
///
/// let reason = Reason::denied("`write` is forbidden by skill 'x'");
/// assert_eq!(reason.kind(), ReasonKind::Denied);
/// assert_eq!(reason.text(), "`write` is forbidden by skill 'x'");
/// assert_eq!(reason.to_string(), "denied: `write` is forbidden by skill 'x'");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reason {
    kind: ReasonKind,
    text: String,
}

impl Reason {
    /// A reason to ask: `text` says what needs approval.
    pub fn ask(text: impl Into<String>) -> Self {
        Self {
            kind: ReasonKind::Ask,
            text: text.into(),
        }
    }

    /// A reason to refuse: `text` names the rule and where it came from.
    pub fn denied(text: impl Into<String>) -> Self {
        Self {
            kind: ReasonKind::Denied,
            text: text.into(),
        }
    }

    /// Ask or denied.
    pub fn kind(&self) -> ReasonKind {
        self.kind
    }

    /// The text without the `ask: ` / `denied: ` prefix.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text without the prefix, owned.
    pub fn into_text(self) -> String {
        self.text
    }

    /// The same reason with `context` put before the text (`context: text`).
    pub(crate) fn within(self, context: &str) -> Self {
        Self {
            kind: self.kind,
            text: format!("{context}: {}", self.text),
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.text)
    }
}

/// The outcome of a gate check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// The call may run.
    Allowed,
    /// The call may run only if someone approves it: the patterns cannot pre-approve it (a
    /// part of the command cannot be analysed, or it uses an option that runs other programs
    /// or writes outside the project).
    Ask {
        /// Of kind [`ReasonKind::Ask`] (build it with [`Decision::ask`]), e.g. ``ask: `git
        /// -c` can run other programs, in `git -c x=y log` ``.
        reason: Reason,
    },
    /// The call must not run; `reason` names the rule and where it came from.
    Denied {
        /// Of kind [`ReasonKind::Denied`] (build it with [`Decision::denied`]), e.g.
        /// ``denied: `write` is forbidden by skill 'opencode-implementer'``.
        reason: Reason,
    },
}

impl Decision {
    /// An ask whose reason says `text`.
    pub fn ask(text: impl Into<String>) -> Self {
        Decision::Ask {
            reason: Reason::ask(text),
        }
    }

    /// A denial whose reason says `text`.
    pub fn denied(text: impl Into<String>) -> Self {
        Decision::Denied {
            reason: Reason::denied(text),
        }
    }

    /// True for [`Decision::Allowed`].
    pub fn is_allowed(&self) -> bool {
        matches!(self, Decision::Allowed)
    }

    /// True for [`Decision::Ask`].
    pub fn is_ask(&self) -> bool {
        matches!(self, Decision::Ask { .. })
    }

    /// True for [`Decision::Denied`].
    pub fn is_denied(&self) -> bool {
        matches!(self, Decision::Denied { .. })
    }

    /// The reason, unless allowed (displayed as `ask: ...` or `denied: ...`).
    pub fn reason(&self) -> Option<&Reason> {
        match self {
            Decision::Allowed => None,
            Decision::Ask { reason } | Decision::Denied { reason } => Some(reason),
        }
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.reason() {
            None => f.write_str("allowed"),
            Some(reason) => reason.fmt(f),
        }
    }
}
