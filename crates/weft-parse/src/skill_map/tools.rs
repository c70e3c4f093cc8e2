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
/// known names.
fn check_tool_names(field: &Field<'_>, list: &[String], report: &mut Report<'_>) {
    if !report.enabled(Rule::UnknownTool) {
        return;
    }
    let key = field.key;
    for pattern in list {
        let tool = pattern.split('(').next().unwrap_or(pattern).trim();
        if tool.is_empty() || weft_types::tool_names::is_known_tool(tool) {
            continue;
        }
        report.emit(Rule::UnknownTool, field.pos(), || {
            let hint = did_you_mean(&closest_names(
                tool,
                weft_types::tool_names::known_tool_names(),
            ));
            format!(
                "`{key}` names `{}`, which is not a known tool (a built-in, a Claude Code tool or an MCP tool `server__tool`){hint}",
                shorten(tool)
            )
        });
    }
}
