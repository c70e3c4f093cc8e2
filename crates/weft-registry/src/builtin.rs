//! Skills compiled into the binary (lowest precedence): seed 003's `specification-engine` and
//! `opencode-implementer`.
//!
//! The seed's definitions name tools weft does not have (`specKit`, `opencode-executor`),
//! which would leave both skills able to call nothing. The built-ins keep the seed's
//! protocol and composition rules and grant weft's own tools instead: the engine reads the
//! project (`read_file`, `grep`, `glob`, `list_directory`) and writes the specification in
//! its answer; the implementer also edits, writes and runs commands (`edit_file`,
//! `write_file`, `exec_shell`). The seed's originals stay in `fixtures/definitions/` for the
//! tests of the skill-injection API.

use std::fmt::Write as _;
use std::path::Path;

use weft_parse::{ParseOptions, parse_definition};
use weft_types::{CompatibilityKind, ComposabilityKind, Scope, Skill};

/// The definition files, as shipped.
const DEFINITIONS: [(&str, &str); 2] = [
    (
        "specification-engine.json",
        include_str!("../builtin/specification-engine.json"),
    ),
    (
        "opencode-implementer.json",
        include_str!("../builtin/opencode-implementer.json"),
    ),
];

/// The built-in skills with their bodies. A definition that does not parse is a bug in this
/// crate (a test checks they all do); it is logged and left out rather than panicking.
pub fn builtin_skills(options: &ParseOptions) -> Vec<(Skill, String)> {
    let options = options.with_scope(Scope::Builtin);
    DEFINITIONS
        .iter()
        .filter_map(|(file, text)| {
            let parsed = parse_definition(text.as_bytes(), Path::new(file), &options);
            match parsed.skill {
                Some(mut skill) => {
                    skill.source.path = None;
                    let body = body_of(&skill);
                    Some((skill, body))
                }
                None => {
                    tracing::error!(file, diagnostics = ?parsed.diagnostics, "built-in skill does not parse");
                    None
                }
            }
        })
        .collect()
}

/// Instructions for a definition-only skill: its description, protocol and rules as markdown.
pub fn body_of(skill: &Skill) -> String {
    let mut out = format!("# {}\n\n{}\n", skill.name, skill.description);
    let c = &skill.contract;
    let section = |out: &mut String, title: &str, items: &[String], numbered: bool| {
        if items.is_empty() {
            return;
        }
        let _ = write!(out, "\n## {title}\n\n");
        for (i, item) in items.iter().enumerate() {
            if numbered {
                let _ = writeln!(out, "{}. {item}", i + 1);
            } else {
                let _ = writeln!(out, "- {item}");
            }
        }
    };
    section(&mut out, "Execution protocol", &c.execution_protocol, true);
    section(&mut out, "Preconditions", &c.preconditions, false);
    section(&mut out, "Postconditions", &c.postconditions, false);
    let rules: Vec<String> = c
        .composability_rules
        .iter()
        .map(|r| {
            let verb = match r.kind {
                ComposabilityKind::Requires => "requires",
                ComposabilityKind::Forbids => "cannot be combined with",
            };
            with_reason(format!("{verb} `{}`", r.skill), r.reason.as_deref())
        })
        .chain(c.compatibility_rules.iter().map(|r| {
            let verb = match r.kind {
                CompatibilityKind::Requires => "requires",
                CompatibilityKind::Incompatible => "is incompatible with",
            };
            with_reason(format!("{verb} `{}`", r.skill), r.reason.as_deref())
        }))
        .collect();
    section(&mut out, "Composition", &rules, false);
    if let Some(allow) = &skill.tools.allow {
        let tools = if allow.is_empty() {
            "none".to_owned()
        } else {
            allow.join(", ")
        };
        let _ = write!(out, "\nAllowed tools: {tools}\n");
    }
    if !skill.tools.deny.is_empty() {
        let _ = writeln!(out, "Forbidden tools: {}", skill.tools.deny.join(", "));
    }
    out
}

fn with_reason(text: String, reason: Option<&str>) -> String {
    match reason {
        Some(r) => format!("{text}: {r}"),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_003_definitions_are_built_in() {
        let skills = builtin_skills(&ParseOptions::default());
        assert_eq!(skills.len(), 2);
        let (spec, body) = &skills[0];
        assert_eq!(spec.name, "specification-engine");
        assert_eq!(spec.source.scope, Scope::Builtin);
        assert_eq!(
            spec.tools.allow.as_deref(),
            Some(&["read_file", "grep", "glob", "list_directory"].map(str::to_owned)[..])
        );
        assert!(body.contains("1. analyze-task\n2. generate-spec\n3. validate-spec"));
        let (imp, _) = &skills[1];
        assert!(imp.tools.deny.is_empty());
        assert_eq!(
            imp.contract.composability_rules[0].skill,
            "specification-engine"
        );
    }

    /// Every tool a built-in grants is one weft has: a built-in skill must be usable.
    #[test]
    fn builtins_grant_only_tools_weft_has() {
        for (skill, _) in builtin_skills(&ParseOptions::default()) {
            for tool in skill.tools.allow.iter().flatten().chain(&skill.tools.deny) {
                assert!(
                    weft_types::tool_names::BUILTIN_TOOLS.contains(&tool.as_str()),
                    "{}: {tool}",
                    skill.name
                );
            }
        }
    }
}
