//! The hooks listing, shared by `weft hooks list` and `/hooks` so the two cannot drift: one
//! row per handler (source, event, matcher, command, trusted), why none runs when they are
//! switched off, and the hooks that cannot run as written.

use std::path::Path;

use weft_hooks::HookEntry;
use weft_term::{fit_table, tilde};

/// The table's header.
pub const HOOKS_HEADER: [&str; 5] = ["SOURCE", "EVENT", "MATCHER", "COMMAND", "TRUSTED"];

/// The source column: `user settings (~/.claude/settings.json)`, `skill fmt`.
pub fn hook_source_label(entry: &HookEntry, home: Option<&Path>) -> String {
    match entry.source.path() {
        Some(path) if matches!(entry.source.kind(), "user" | "project" | "local") => {
            format!("{} ({})", entry.source, tilde(path, home))
        }
        _ => entry.source.to_string(),
    }
}

/// The matcher column: `*` for one that matches everything.
pub fn matcher_label(entry: &HookEntry) -> String {
    match entry.matcher_text.as_deref().map(str::trim) {
        None | Some("") => "*".to_owned(),
        Some(text) => text.to_owned(),
    }
}

/// The listing: a line when hooks are off (`disabled` says why), the table (fitted to
/// `width`), then a line per hook that cannot run as written and one about untrusted hooks.
pub fn hooks_listing(
    entries: &[HookEntry],
    disabled: Option<&str>,
    home: Option<&Path>,
    width: Option<usize>,
) -> String {
    if entries.is_empty() {
        return "no hooks are configured (`hooks` in ~/.claude/settings.json, .claude/settings.json, a skill's or an agent's frontmatter; see docs/HOOKS.md)\n".to_owned();
    }
    let mut out = String::new();
    if let Some(reason) = disabled {
        out.push_str(&format!("Hooks are off ({reason}): none of these runs.\n"));
    }
    let rows: Vec<Vec<String>> = entries
        .iter()
        .map(|e| {
            vec![
                hook_source_label(e, home),
                e.event.to_string(),
                matcher_label(e),
                e.command_line(),
                if e.trusted { "yes" } else { "no" }.to_owned(),
            ]
        })
        .collect();
    out.push_str(&fit_table(&HOOKS_HEADER, &rows, width));
    for entry in entries {
        if let Some(problem) = entry.problem() {
            out.push_str(&format!(
                "{}: {} hook `{}`: {problem}\n",
                entry.source,
                entry.event,
                entry.command_line()
            ));
        }
    }
    let untrusted = entries.iter().filter(|e| !e.trusted).count();
    if untrusted > 0 {
        out.push_str(&format!(
            "{untrusted} hook(s) of this project do not run: it is not trusted (--trust-project, or `projects` in ~/.clawft/config.json).\n"
        ));
    }
    if entries
        .iter()
        .any(|e| matches!(e.source.kind(), "skill" | "agent"))
    {
        out.push_str("A skill's or agent's hooks run only while that skill or agent is active.\n");
    }
    out
}
