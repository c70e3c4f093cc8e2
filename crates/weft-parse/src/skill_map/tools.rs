//! The skill's tool lists (`allowed-tools`, `forbidden-tools` and their spellings), with the
//! check of each tool name against the family's tools. Separate because the tool lists decide
//! what a skill may do and whether the skill can be trusted at all.

use weft_types::ToolPolicy;
use weft_types::suggest::{closest_names, did_you_mean};

use crate::fields::{self, Field, Fields};
use crate::name::shorten;
use crate::node::NodeKind;
use crate::report::Report;
use crate::rules::Rule;

/// Reads `allowed-tools` and `forbidden-tools`. False when a list cannot be trusted.
pub(super) fn read_tools(
    f: &mut Fields<'_>,
    tools: &mut ToolPolicy,
    check_names: bool,
    report: &mut Report<'_>,
) -> bool {
    let mut ok = true;
    if let Some(field) = f.take(report, &["allowed-tools", "allowed_tools"]) {
        match fields::tool_list(report, &field) {
            Ok(list) => {
                if list.is_empty() {
                    let key = field.key;
                    report.emit(Rule::EmptyToolList, field.pos(), || {
                        format!("`{key}` is empty: this skill grants no tools (leave it out to restrict nothing)")
                    });
                }
                if check_names {
                    check_tool_names(&field, &list, report);
                }
                if matches!(field.value.kind, NodeKind::Seq(_)) {
                    report.emit(Rule::ToolListNotString, field.pos(), || {
                        "allowed-tools should be a space-separated string under the spec, found a list".to_owned()
                    });
                }
                tools.allow = Some(list);
            }
            Err(()) => ok = false,
        }
    }
    if let Some(field) = f.take(
        report,
        &[
            "forbidden-tools",
            "forbidden_tools",
            "disallowed-tools",
            "disallowed_tools",
        ],
    ) {
        match fields::tool_list(report, &field) {
            Ok(list) => {
                if check_names {
                    check_tool_names(&field, &list, report);
                }
                tools.deny = list;
            }
            Err(()) => ok = false,
        }
    }
    if let Some(allow) = &tools.allow {
        let both: Vec<&str> = allow
            .iter()
            .filter(|t| tools.deny.contains(t))
            .map(String::as_str)
            .collect();
        if !both.is_empty() {
            report.emit(Rule::ToolAllowedAndForbidden, None, || {
                format!(
                    "allowed and forbidden at once (forbidden wins): {}",
                    both.join(", ")
                )
            });
        }
    }
    ok
}

/// Reports each pattern whose tool name no runtime of the family knows, with the closest
/// known names (`W135`), and each naming a tool of Claude Code, OpenClaw or Codex that weft
/// does not have (`W136`): either grants nothing here, so it is said, never dropped in silence.
/// Skills and agents share it.
pub(crate) fn check_tool_names(field: &Field<'_>, list: &[String], report: &mut Report<'_>) {
    use weft_types::tool_names::{is_known_tool, known_tool_names};
    let key = field.key;
    for pattern in list {
        let tool = tool_of(pattern);
        if tool.is_empty() || names_weft_tool(pattern) {
            continue;
        }
        if is_known_tool(tool) {
            report.emit(Rule::UnsupportedTool, field.pos(), || {
                format!(
                    "`{key}` names `{}`, a tool of Claude Code, OpenClaw or Codex that weft does not have; it grants nothing here",
                    shorten(tool)
                )
            });
            continue;
        }
        report.emit(Rule::UnknownTool, field.pos(), || {
            // The tools weft has first: suggesting a tool it lacks would not help.
            let mut close = closest_names(tool, weft_tool_names());
            if close.is_empty() {
                close = closest_names(tool, known_tool_names());
            }
            let hint = did_you_mean(&close);
            format!(
                "`{key}` names `{}`, which is not a known tool (a built-in, a Claude Code tool or an MCP tool `server__tool`){hint}",
                shorten(tool)
            )
        });
    }
}

/// The tool name of a pattern: the part before any `(`.
fn tool_of(pattern: &str) -> &str {
    pattern.split('(').next().unwrap_or(pattern).trim()
}

/// True when the pattern `entry` of a tool list can name a tool weft has: a built-in or its
/// Claude Code alias, an MCP tool (`server__tool`, `mcp__server__tool`), or a glob.
pub(crate) fn names_weft_tool(entry: &str) -> bool {
    let tool = tool_of(entry);
    weft_types::tool_names::static_name(tool).is_some()
        || tool.contains(weft_types::tool_names::MCP_SEPARATOR)
        || tool.contains(['*', '?', '['])
}

/// The names of the tools weft has: its built-ins and their Claude Code aliases.
fn weft_tool_names() -> impl Iterator<Item = &'static str> {
    weft_types::tool_names::BUILTIN_TOOLS.into_iter().chain(
        weft_types::tool_names::ALIASES
            .into_iter()
            .map(|(alias, _)| alias),
    )
}
