//! Which `permissions.allow` patterns would pre-approve a call: what a refusal tells the user
//! to add when no one could be asked.

use serde_json::Value;
use weft_types::tool_names;

use crate::name::canonical_tool_name;
use crate::spec::domain::host;
use weft_shell::{ShellContext, analyse_command};

/// Patterns that would pre-approve this call, in the spelling a user writes
/// (`Bash(cargo test:*)`, `Edit(src/lib.rs)`, `WebFetch(domain:docs.rs)`, `github__create_issue`).
/// Empty when no pattern can: a shell command with a part that cannot be analysed or a risky
/// option is never pre-approved, whatever the patterns say.
///
/// ```
/// use serde_json::json;
/// use weft_permissions::{ShellContext, suggest_allow};
///
/// let ctx = ShellContext::new();
/// let bash = |c: &str| json!({ "command": c });
/// assert_eq!(suggest_allow("Bash", &bash("cargo test --all 2>&1 | tail -5"), &ctx), ["Bash(cargo test:*)"]);
/// assert_eq!(suggest_allow("exec_shell", &bash("mkdir -p out && rm -rf out/x"), &ctx), ["Bash(mkdir:*)", "Bash(rm:*)"]);
/// assert_eq!(suggest_allow("Bash", &bash("touch notes"), &ctx), ["Bash(touch:*)"]);
/// assert!(suggest_allow("Bash", &bash("git -c core.pager=sh log"), &ctx).is_empty());
/// assert_eq!(suggest_allow("write_file", &json!({"path": "src/a.rs"}), &ctx), ["Write(src/a.rs)"]);
/// ```
pub fn suggest_allow(tool: &str, input: &Value, ctx: &ShellContext) -> Vec<String> {
    let text = |keys: &[&str]| {
        keys.iter()
            .find_map(|k| input.get(*k).and_then(Value::as_str))
            .map(str::to_owned)
    };
    match canonical_tool_name(tool) {
        tool_names::EXEC_SHELL => text(&["command", "cmd"])
            .map(|c| shell_patterns(&c, ctx))
            .unwrap_or_default(),
        tool_names::WRITE_FILE => path_pattern("Write", text(&["path", "file_path"])),
        tool_names::EDIT_FILE => path_pattern("Edit", text(&["path", "file_path"])),
        tool_names::WEB_FETCH => text(&["url"])
            .and_then(|u| host(&u))
            .map(|h| vec![format!("WebFetch(domain:{h})")])
            .unwrap_or_default(),
        name => vec![name.to_owned()],
    }
}

fn path_pattern(tool: &str, path: Option<String>) -> Vec<String> {
    path.filter(|p| !p.is_empty() && !p.contains(['(', ')', '*', '?', '[', '{']))
        .map(|p| vec![format!("{tool}({p})")])
        .unwrap_or_default()
}

/// `Bash(program subcommand:*)` for every simple command that is not a read-only helper.
fn shell_patterns(command: &str, ctx: &ShellContext) -> Vec<String> {
    let analysis = analyse_command(command, ctx);
    if !analysis.is_fully_analysed() || analysis.risks().iter().any(|r| r.needs_approval()) {
        return Vec::new();
    }
    let mut out: Vec<String> = Vec::new();
    for simple in analysis.commands() {
        if simple.runs_analysed_string()
            || simple.calls_defined_function()
            || simple.is_read_only_helper()
        {
            continue;
        }
        let program = simple.program_word();
        if !program.is_literal() || program.text().contains(['(', ')', '*']) {
            return Vec::new();
        }
        let mut pattern = format!("Bash({}", program.text());
        if let Some(sub) = simple
            .args()
            .first()
            .filter(|w| is_subcommand(simple.program(), w.text(), w.is_literal()))
        {
            pattern.push(' ');
            pattern.push_str(sub.text());
        }
        pattern.push_str(":*)");
        if !out.contains(&pattern) {
            out.push(pattern);
        }
    }
    out
}

/// Programs whose first argument is a subcommand (`cargo test`, `git status`): a pattern for
/// them names it; for others the program alone is suggested (`Bash(touch:*)`).
const SUBCOMMAND_PROGRAMS: [&str; 22] = [
    "apt", "apt-get", "brew", "bun", "bundle", "cargo", "deno", "docker", "dotnet", "gem", "git",
    "go", "gradle", "just", "kubectl", "make", "mvn", "npm", "pnpm", "poetry", "rustup", "yarn",
];

/// A word that reads as a subcommand (`test`, `run-script`) of a program that has them.
fn is_subcommand(program: &str, word: &str, literal: bool) -> bool {
    SUBCOMMAND_PROGRAMS.contains(&program)
        && literal
        && word.len() <= 32
        && word.starts_with(|c: char| c.is_ascii_lowercase())
        && word
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::{Origin, PatternContext, PreApproval};

    #[test]
    fn suggestions_pre_approve_the_call_they_were_made_for() {
        let ctx = ShellContext::new();
        let calls = [
            (
                "Bash",
                json!({"command": "cargo test --all 2>&1 | tail -5"}),
            ),
            ("Bash", json!({"command": "npm run build && git status"})),
            ("Bash", json!({"command": "touch made-by-model notes"})),
            ("Bash", json!({"command": "/usr/bin/make -j4"})),
            ("write_file", json!({"path": "notes/todo.md"})),
            ("Edit", json!({"file_path": "src/lib.rs"})),
            ("web_fetch", json!({"url": "https://docs.rs/serde"})),
            ("github__create_issue", json!({})),
        ];
        for (tool, input) in calls {
            let patterns = suggest_allow(tool, &input, &ctx);
            assert!(!patterns.is_empty(), "{tool} {input}");
            let approval =
                PreApproval::compile(&patterns, &Origin::Session, &PatternContext::new()).unwrap();
            assert!(
                approval.check(tool, &input).is_pre_approved(),
                "{tool} {input} {patterns:?}"
            );
        }
    }

    #[test]
    fn nothing_is_suggested_where_no_pattern_can_approve() {
        let ctx = ShellContext::new();
        for command in ["$CMD x", "git -c a=b log", "eval \"$x\"", "sed -i s/a/b/ f"] {
            assert_eq!(
                suggest_allow("Bash", &json!({"command": command}), &ctx),
                Vec::<String>::new(),
                "{command}"
            );
        }
        assert!(suggest_allow("Write", &json!({"path": "src/*.rs"}), &ctx).is_empty());
    }
}
