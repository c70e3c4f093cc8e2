//! Why a call the gate let through did not run, and what the user could do about it: the text
//! of the error result the model reads, built only when the tool message is.

use weft_types::PermissionMode;

/// A call the permission mode, the lack of an approver, or a person kept from running.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(super) enum Refusal {
    /// The mode refuses it (`plan`, `dont-ask`, or a rule that only a person could lift).
    #[error("permission denied: {reason}. The tool did not run.")]
    Mode {
        /// Why, e.g. "plan mode: only read-only tools run, ...".
        reason: String,
    },
    /// It needed approval and no one could be asked.
    #[error(
        "approval needed: {reason}. The tool did not run: no one can approve calls in this session (it is not interactive). Do not retry it; {advice}."
    )]
    Unasked {
        /// Why it needed approval.
        reason: String,
        /// What could let it run.
        advice: Advice,
    },
    /// The person asked said no.
    #[error("{}", denied_text(.message.as_deref()))]
    Denied {
        /// What they said, if anything.
        message: Option<String>,
    },
}

/// The model's text for a call the person denied.
fn denied_text(message: Option<&str>) -> String {
    match message.map(str::trim) {
        Some(m) if !m.is_empty() => {
            format!("the user denied this call and said: {m}. The tool did not run.")
        }
        _ => "the user denied this call. The tool did not run; do not retry it, ask the user what to do instead.".to_owned(),
    }
}

/// What could let a refused call run, and only what would: a permission mode that runs it
/// without asking, `permissions.allow` patterns checked to pre-approve it, else a person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Advice {
    /// The mode that would run it; `None` when none would.
    pub(super) mode: Option<PermissionMode>,
    /// Patterns that pre-approve it (checked against the call).
    pub(super) patterns: Vec<String>,
    /// Why no mode would, when none would: said when nothing but a person can help.
    pub(super) no_mode: Option<String>,
}

impl std::fmt::Display for Advice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let patterns = match self.patterns.as_slice() {
            [] => None,
            [one] => Some(format!("the `permissions.allow` pattern `{one}`")),
            many => Some(format!(
                "the `permissions.allow` patterns {}",
                many.iter()
                    .map(|p| format!("`{p}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        };
        match (self.mode, patterns) {
            (Some(mode), None) => write!(
                f,
                "the user can allow such calls with the permission mode `{mode}` (`--permission-mode {mode}`)"
            ),
            (Some(mode), Some(patterns)) => write!(
                f,
                "the user can allow such calls with the permission mode `{mode}` (`--permission-mode {mode}`) or {patterns}"
            ),
            (None, Some(patterns)) => {
                write!(f, "the user can allow such calls with {patterns}")?;
                match &self.no_mode {
                    Some(why) => write!(f, " (no permission mode would: {why})"),
                    None => Ok(()),
                }
            }
            (None, None) => {
                f.write_str("no permission mode or `permissions.allow` pattern lets it run without a person")?;
                if let Some(why) = &self.no_mode {
                    write!(f, " ({why})")?;
                }
                f.write_str(": only a person can approve it, in an interactive session")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unasked(mode: Option<PermissionMode>, patterns: &[&str], no_mode: Option<&str>) -> String {
        Refusal::Unasked {
            reason: "`exec_shell` may change something".to_owned(),
            advice: Advice {
                mode,
                patterns: patterns.iter().map(|p| (*p).to_owned()).collect(),
                no_mode: no_mode.map(str::to_owned),
            },
        }
        .to_string()
    }

    #[test]
    fn the_advice_names_only_what_would_help() {
        let texts = [
            unasked(Some(PermissionMode::Auto), &["Bash(touch:*)"], None),
            unasked(Some(PermissionMode::AcceptEdits), &[], None),
            unasked(
                None,
                &["Bash(touch:*)", "Bash(rm:*)"],
                Some("agent `careful` limits the permission mode to `ask`"),
            ),
            unasked(
                None,
                &[],
                Some("the tool rules themselves ask for it, whatever the mode"),
            ),
            Refusal::Mode {
                reason: "plan mode: only read-only tools run".into(),
            }
            .to_string(),
            Refusal::Denied {
                message: Some(" use cargo check ".into()),
            }
            .to_string(),
            Refusal::Denied { message: None }.to_string(),
        ];
        insta::assert_snapshot!(texts.join("\n\n"));
    }
}
