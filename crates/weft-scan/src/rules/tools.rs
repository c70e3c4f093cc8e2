//! `allowed-tools` broader than the skill needs.
//!
//! The question is put to the real gate (weft-permissions), so every spelling counts the
//! same: `Bash`, `exec_shell`, `Bash(*)`, `*`. A grant is broad when the gate would let the
//! skill run an arbitrary shell command, or call any tool at all.

use std::sync::LazyLock;

use regex::Regex;
use serde_json::json;
use weft_permissions::{Decision, Origin, PatternContext, Policy, ToolGate};
use weft_types::tool_names;

use crate::finding::{Finding, Rule, Severity};
use crate::package::{Package, SkillFacts};
use crate::text::{LineIndex, is_script};

/// A plain command of a program no skill scopes its shell to: only an unrestricted shell
/// grant lets it through.
const PROBE_COMMAND: &str = "weft-scan-probe --version";
/// A tool name no real skill declares (not an MCP name: a glob never reaches MCP tools).
const PROBE_TOOL: &str = "weft_scan_probe_tool";

static ALLOWED_TOOLS_KEY: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(?m)^[ \t]*['\x22]?allowed[-_]tools['\x22]?[ \t]*:").ok());

static SHELL_BLOCK: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"(?mi)^[ \t]*(?:```|~~~)[ \t]*(?:bash|sh|shell|zsh|console|terminal|fish)\b|^[ \t]*\$ \S",
    )
    .ok()
});

/// What the gate says about the skill's declared tools.
enum Breadth {
    Everything,
    AnyShellCommand,
    Narrow,
}

fn breadth(facts: &SkillFacts) -> Breadth {
    let Some(allow) = &facts.allowed_tools else {
        return Breadth::Narrow;
    };
    let policy = Policy::from_lists(
        Some(allow.as_slice()),
        &facts.forbidden_tools,
        Origin::Skill(facts.name.clone()),
        &PatternContext::new(),
    );
    let Ok(policy) = policy else {
        // A list that does not compile grants nothing (the loader reports it).
        return Breadth::Narrow;
    };
    let gate = ToolGate::new([policy]);
    // "Not denied" rather than "allowed": a gate that would ask first still grants the tool.
    let granted = |tool: &str, input: serde_json::Value| {
        !matches!(gate.check(tool, &input), Decision::Denied { .. })
    };
    if granted(PROBE_TOOL, json!({})) {
        Breadth::Everything
    } else if granted(tool_names::EXEC_SHELL, json!({ "command": PROBE_COMMAND })) {
        Breadth::AnyShellCommand
    } else {
        Breadth::Narrow
    }
}

/// True when the skill shows shell commands (a shell code block, a `$ ` prompt) or ships
/// scripts.
fn shows_commands(package: &Package, skill_text: &str) -> bool {
    let block = SHELL_BLOCK
        .as_ref()
        .is_some_and(|re| re.is_match(skill_text));
    block
        || package
            .files()
            .iter()
            .any(|f| f.bytes().is_some_and(|b| is_script(&f.path, b)))
}

/// Reports a broad `allowed-tools` at the line of the key in the skill file.
pub(crate) fn scan(
    package: &Package,
    facts: &SkillFacts,
    skill_path: &str,
    skill_text: &str,
    out: &mut Vec<Finding>,
) {
    let (severity, message) = match breadth(facts) {
        Breadth::Narrow => return,
        Breadth::Everything => (
            Severity::Medium,
            "`allowed-tools` lets the skill call every tool; list the tools it needs".to_owned(),
        ),
        Breadth::AnyShellCommand if shows_commands(package, skill_text) => (
            Severity::Low,
            "`allowed-tools` allows any shell command; scope it to the commands the skill runs, e.g. `Bash(git:*)`".to_owned(),
        ),
        Breadth::AnyShellCommand => (
            Severity::Medium,
            "`allowed-tools` allows any shell command, but the skill shows no command to run; scope it (`Bash(git:*)`) or drop it".to_owned(),
        ),
    };
    let mut finding = Finding::in_file(Rule::BroadTools, severity, skill_path, message);
    if let Some(m) = ALLOWED_TOOLS_KEY
        .as_ref()
        .and_then(|re| re.find(skill_text))
    {
        let bytes = skill_text.as_bytes();
        let (line, column) = LineIndex::new(bytes).position(bytes, m.start());
        finding.line = Some(line);
        finding.column = Some(column);
        let line_text = skill_text[m.start()..].lines().next().unwrap_or("");
        finding.excerpt = Some(crate::text::excerpt(line_text, 100));
    }
    out.push(finding);
}
