//! Interpreting a skill mapping (SKILL.md frontmatter, `skill.json`, a definition) into a
//! [`Skill`]. Every skill format goes through here, so a key means the same in all of them.
//!
//! This module reads the mapping in order and holds the invocation fields; each field with
//! rules of its own is read in a submodule: the name, the description, `compatibility`,
//! `metadata`, the tool lists, the model and effort, the skill-injection contract, and which
//! keys a skill may have at all.

mod compatibility;
mod contract;
mod description;
mod keys;
mod metadata;
mod model;
mod skill_name;
pub(crate) mod tools;

use std::path::Path;

use weft_types::{Position, Scope, Skill, SkillContext, SkillFormat, Source};

use crate::fields::{self, Field, Fields, dedup_in_place};
use crate::name::{is_safe_dir_name, shorten};
use crate::node::{Node, NodeKind};
use crate::options::Limits;
use crate::report::Report;
use crate::rules::Rule;

use compatibility::read_compatibility;
use contract::read_contract;
use description::read_description;
use keys::{keep_unknown_fields, report_unexpected_fields};
use metadata::{read_metadata, report_unsupported_openclaw};
use model::{EFFORT_LEVELS, check_model};
use skill_name::read_name;
use tools::read_tools;

pub use compatibility::MAX_COMPATIBILITY_CHARS;
pub use description::MAX_DESCRIPTION_CHARS;
pub use keys::SPEC_FIELDS;
pub use model::{MODEL_ALIASES, is_model_reference};

/// What the interpreter needs to know besides the mapping.
pub(crate) struct SkillInputs<'a> {
    pub format: SkillFormat,
    pub scope: Scope,
    /// The file, recorded in the skill's source.
    pub path: Option<&'a Path>,
    /// The skill's directory name, for the name default and the mismatch check.
    pub dir_name: Option<&'a str>,
    /// A command's name, from its path: it is the name, and `name` keys are ignored.
    pub command_name: Option<&'a str>,
    /// The body, for the description default.
    pub body: Option<&'a str>,
    /// Where to point diagnostics about keys that are missing (the opening `---`).
    pub anchor: Option<Position>,
    /// The file has no frontmatter: the name and description defaults are expected, not
    /// worth a diagnostic of their own (the missing frontmatter is reported once).
    pub no_frontmatter: bool,
    pub limits: &'a Limits,
}

/// Interprets `entries` as a skill. `None` when an error makes the skill unusable; the reasons
/// are in `report`.
pub(crate) fn interpret_skill(
    entries: &[(Node, Node)],
    inputs: &SkillInputs<'_>,
    report: &mut Report<'_>,
) -> Option<Skill> {
    crate::decoded::check_decoded_controls(entries, report);
    let mut f = Fields::new(entries, report);
    if report.spec() {
        report_unexpected_fields(&f, inputs.anchor, report);
    }
    if let Some(dir) = inputs.dir_name
        && inputs.command_name.is_none()
        && !is_safe_dir_name(dir)
    {
        report.emit(Rule::UnsafeDirName, inputs.anchor, || {
            format!(
                "directory name `{}` has characters outside [A-Za-z0-9_-]; the skill is skipped",
                shorten(dir)
            )
        });
    }

    let (name, declared_name) = match inputs.command_name {
        Some(command) => {
            // A command is named by its path (Claude Code ignores a `name` key there).
            let _ = f.take(report, &["name"]);
            (command.to_owned(), None)
        }
        None => read_name(&mut f, inputs, report)?,
    };
    let (description, description_source) = read_description(&mut f, inputs, report);
    let mut skill = Skill::new(
        name,
        description.unwrap_or_default(),
        Source {
            scope: inputs.scope,
            format: inputs.format,
            path: inputs.path.map(Path::to_path_buf),
            plugin: None,
        },
    );
    skill.declared_name = declared_name;
    skill.description_source = description_source;

    if let Some(field) = f.take(report, &["license"]) {
        skill.license = fields::string(report, &field, Rule::LicenseNotString);
    }
    if let Some(field) = f.take(report, &["compatibility"]) {
        skill.compatibility = read_compatibility(&field, report);
    }
    if let Some(field) = f.take(report, &["metadata"]) {
        skill.metadata = read_metadata(&field, inputs.limits, report);
        if let Some(metadata) = &skill.metadata {
            report_unsupported_openclaw(metadata, &field, report);
        }
    }

    // Definitions (seed 003) name tools of their own runtime: only skill files are checked
    // against the family's tool names.
    let check_names = matches!(inputs.format, SkillFormat::SkillMd | SkillFormat::Command);
    let tools_ok = read_tools(&mut f, &mut skill.tools, check_names, report);

    read_invocation_fields(&mut f, &mut skill, report);
    skill.contract = read_contract(&mut f, report);
    if inputs.format == SkillFormat::Definition {
        check_definition(&skill, inputs.anchor, report);
    }
    keep_unknown_fields(&mut f, &mut skill, inputs.format, report);

    (tools_ok && !report.has_errors()).then_some(skill)
}

/// The fields about how the skill is invoked and described: version, variables, argument
/// hint, invocability, context, agent, model, when to use, keywords.
fn read_invocation_fields(f: &mut Fields<'_>, skill: &mut Skill, report: &mut Report<'_>) {
    if let Some(field) = f.take(report, &["version"]) {
        skill.version = fields::string(report, &field, Rule::WrongType);
    }
    if let Some(field) = f.take(report, &["variables"]) {
        skill.variables = fields::string_list(report, &field);
    }
    if let Some(field) = f.take(report, &["argument-hint", "argument_hint"]) {
        skill.argument_hint = read_argument_hint(&field, report);
    }
    if let Some(field) = f.take(report, &["user-invocable", "user_invocable"])
        && let Some(b) = fields::boolean(report, &field)
    {
        skill.user_invocable = b;
    }
    if let Some(field) = f.take(
        report,
        &["disable-model-invocation", "disable_model_invocation"],
    ) && let Some(b) = fields::boolean(report, &field)
    {
        skill.disable_model_invocation = b;
    }
    if let Some(field) = f.take(report, &["context"]) {
        skill.context = read_context(&field, report);
    }
    if let Some(field) = f.take(report, &["agent"]) {
        skill.agent = fields::string(report, &field, Rule::WrongType);
    }
    if let Some(field) = f.take(report, &["model"]) {
        skill.model = fields::string(report, &field, Rule::WrongType);
        if let Some(model) = &skill.model {
            check_model(model, &field, report);
        }
    }
    if let Some(field) = f.take(report, &["effort"]) {
        skill.effort =
            fields::string(report, &field, Rule::WrongType).map(|e| e.trim().to_ascii_lowercase());
        if let Some(effort) = &skill.effort
            && !EFFORT_LEVELS.contains(&effort.as_str())
        {
            report.emit(Rule::InvalidEffort, field.pos(), || {
                format!(
                    "effort `{}` is not one of {}; the model's default effort is used",
                    shorten(effort),
                    EFFORT_LEVELS.join(", ")
                )
            });
            skill.effort = None;
        }
    }
    if let Some(field) = f.take(report, &["arguments"]) {
        skill.arguments = fields::string_list(report, &field);
    }
    if let Some(field) = f.take(report, &["paths"]) {
        skill.paths = fields::glob_list(report, &field);
    }
    if let Some(field) = f.take(report, &["when_to_use", "when-to-use"]) {
        skill.when_to_use = fields::string(report, &field, Rule::WrongType);
    }
    if let Some(field) = f.take(report, &["hooks"]) {
        skill.hooks = crate::hooks::read_hooks_field(&field, report);
    }
    if let Some(field) = f.take(report, &["keywords"]) {
        skill.keywords = fields::string_list(report, &field)
            .into_iter()
            .map(|k| k.to_lowercase())
            .collect();
    }
    skill
        .keywords
        .extend(keywords_in_description(&skill.description));
    dedup_in_place(&mut skill.keywords);
}

/// A skill-injection definition should say which tools it allows and how it runs.
fn check_definition(skill: &Skill, anchor: Option<Position>, report: &mut Report<'_>) {
    if skill.tools.allow.is_none() {
        report.emit(Rule::DefinitionWithoutTools, anchor, || {
            "the definition declares no `allowed_tools`: composed with others it grants no tools".to_owned()
        });
    }
    if skill.contract.execution_protocol.is_empty() {
        report.emit(Rule::DefinitionWithoutProtocol, anchor, || {
            "the definition declares no `execution_protocol`".to_owned()
        });
    }
}

fn read_argument_hint(field: &Field<'_>, report: &mut Report<'_>) -> Option<String> {
    match &field.value.kind {
        // `argument-hint: [file]` is a YAML list; the author meant the bracketed text.
        NodeKind::Seq(items) if items.iter().all(|i| i.as_scalar().is_some()) => Some(
            items
                .iter()
                .filter_map(Node::as_scalar)
                .map(|s| format!("[{s}]"))
                .collect::<Vec<_>>()
                .join(" "),
        ),
        _ => fields::string(report, field, Rule::WrongType),
    }
}

fn read_context(field: &Field<'_>, report: &mut Report<'_>) -> SkillContext {
    match field.value.as_scalar().map(str::trim) {
        Some("inline") => SkillContext::Inline,
        Some("fork") => SkillContext::Fork,
        _ => {
            let found = fields::describe(field.value);
            report.emit(Rule::InvalidContext, field.pos(), || {
                format!("`context` must be `inline` or `fork`, found {found}; inline is used")
            });
            SkillContext::Inline
        }
    }
}

/// Keywords from a `Keywords: a, b` tail of the description (Context Graph convention).
fn keywords_in_description(description: &str) -> Vec<String> {
    let Some(idx) = description.find("Keywords:") else {
        return Vec::new();
    };
    description[idx + "Keywords:".len()..]
        .split([',', ' ', '\n'])
        .map(|s| s.trim().trim_end_matches('.').to_lowercase())
        .filter(|s| !s.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn description_keywords_tail() {
        assert_eq!(
            keywords_in_description("Does X. Keywords: alpha, Beta gamma."),
            ["alpha", "beta", "gamma"]
        );
        assert!(keywords_in_description("No tail").is_empty());
    }
}
