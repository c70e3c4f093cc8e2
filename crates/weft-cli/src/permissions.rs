//! The permission mode as the binary shows it: the warning banner of `bypass`, and the one-line
//! summary of the calls a non-interactive run refused because no one could approve them. Both
//! go to stderr through [`crate::output`], which neutralises what they quote.

use weft_agents::Session;
use weft_types::PermissionMode;

use crate::output::errln;

/// How many refused calls the summary names.
const NAMED: usize = 3;

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
    line.push_str("); allow them with --permission-mode auto (accept-edits for file edits)");
    let mut patterns: Vec<&str> = Vec::new();
    for pattern in refused.iter().flat_map(|r| &r.suggestions) {
        if !patterns.contains(&pattern.as_str()) {
            patterns.push(pattern);
        }
    }
    if !patterns.is_empty() {
        let shown: Vec<String> = patterns
            .iter()
            .map(|p| format!("`{}`", weft_term::cut(p, 60)))
            .collect();
        line.push_str(&format!(
            ", or with permissions.allow: {}",
            shown.join(", ")
        ));
    }
    Some(line)
}
