//! The permission mode as the binary shows it: the warning banner of `bypass`, and the one-line
//! summary of the calls a non-interactive run refused because no one could approve them. Both
//! go to stderr through [`crate::output`], which neutralises what they quote.

use weft_agents::{RefusedCall, Session};
use weft_types::PermissionMode;

use crate::output::errln;

/// How many refused calls the summary names.
const NAMED: usize = 3;

/// The exit status of a one-shot run in which tool calls were refused because no one could
/// approve them (unless `--ignore-refusals`): distinct from success (0), failure (1), usage
/// (2) and `skills check-tool`'s ask (3), so a script or CI job sees that the task was not
/// done as asked without reading the output.
pub const REFUSED_EXIT: u8 = 4;

/// The warning printed on stderr when a run starts in `bypass` mode.
pub const BYPASS_BANNER: &str = "warning: permission mode bypass: every tool call the tool rules allow runs without asking, and exec_shell runs without the sandbox";

/// Prints the banner for `mode`, if it has one.
pub fn announce(mode: PermissionMode) {
    if mode == PermissionMode::Bypass {
        errln!("{BYPASS_BANNER}");
    }
}

/// The summary of the calls refused for want of approval (in the session and its
/// subagents), on one line; `None` when there were none.
pub fn refusal_summary(session: &Session) -> Option<String> {
    let refused = session.refused_calls();
    if refused.is_empty() {
        return None;
    }
    let named: Vec<String> = refused
        .iter()
        .take(NAMED)
        .map(|r| format!("`{}`", weft_term::cut(&r.summary, 60)))
        .collect();
    let mut line = format!(
        "weft: {} tool call(s) needed approval and were refused ({}",
        refused.len(),
        named.join(", ")
    );
    if refused.len() > NAMED {
        line.push_str(&format!(" and {} more", refused.len() - NAMED));
    }
    line.push(')');
    line.push_str(&remedies(&refused));
    Some(line)
}

/// What the summary says would allow the refused calls: only the modes and patterns that
/// would (each call's own advice), and for calls nothing but a person can approve, that.
fn remedies(refused: &[RefusedCall]) -> String {
    let modes: Vec<PermissionMode> = PermissionMode::ALL
        .into_iter()
        .filter(|m| refused.iter().any(|r| r.mode == Some(*m)))
        .collect();
    let mode = match modes.as_slice() {
        [] => None,
        [PermissionMode::AcceptEdits, PermissionMode::Auto] => {
            Some("--permission-mode auto (accept-edits for file edits)".to_owned())
        }
        [one] => Some(format!("--permission-mode {one}")),
        more => Some(format!(
            "--permission-mode {}",
            more.iter()
                .map(|m| m.as_str())
                .collect::<Vec<_>>()
                .join(" or ")
        )),
    };
    let mut patterns: Vec<&str> = Vec::new();
    for pattern in refused.iter().flat_map(|r| &r.suggestions) {
        if !patterns.contains(&pattern.as_str()) {
            patterns.push(pattern);
        }
    }
    let patterns = (!patterns.is_empty()).then(|| {
        let shown: Vec<String> = patterns
            .iter()
            .map(|p| format!("`{}`", weft_term::cut(p, 60)))
            .collect();
        format!("permissions.allow: {}", shown.join(", "))
    });
    let mut text = match (mode, patterns) {
        (Some(mode), Some(patterns)) => format!("; allow them with {mode}, or with {patterns}"),
        (Some(mode), None) => format!("; allow them with {mode}"),
        (None, Some(patterns)) => format!("; allow them with {patterns}"),
        (None, None) => String::new(),
    };
    let person_only = refused
        .iter()
        .filter(|r| r.mode.is_none() && r.suggestions.is_empty())
        .count();
    if person_only == refused.len() {
        text.push_str("; no permission mode or pattern lets them run without a person: approve them in an interactive session (weft on a terminal)");
    } else if person_only > 0 {
        text.push_str(&format!(
            "; {person_only} of them only a person can approve, in an interactive session (weft on a terminal)"
        ));
    }
    text
}
