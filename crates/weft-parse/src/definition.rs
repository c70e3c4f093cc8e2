//! Skill-injection definitions (seeds 001 and 003): a JSON or YAML document with
//! `allowed_tools`, `forbidden_tools`, `execution_protocol` and composition rules.

use std::path::Path;

use weft_types::{SkillFormat, has_errors};

use crate::node::{NodeKind, parse_json};
use crate::options::ParseOptions;
use crate::report::Report;
use crate::rules::Rule;
use crate::skill_map::{SkillInputs, interpret_skill};
use crate::skill_md::{ParsedSkill, report_yaml_error};
use crate::yaml;

/// Parses a skill definition. JSON when the document starts with `{`, YAML otherwise. `path`
/// names the file in diagnostics (use any descriptive path for in-memory text).
///
/// ```
/// use std::path::Path;
/// use weft_parse::{parse_definition, ParseOptions};
///
/// let json = br#"{
///   "name": "opencode-implementer",
///   "description": "Executes code implementation based on specifications",
///   "allowed_tools": ["opencode-executor"],
///   "forbidden_tools": ["write", "edit"],
///   "execution_protocol": ["read-spec", "implement", "verify"],
///   "composability_rules": [{"type": "requires", "skill": "specification-engine"}]
/// }"#;
/// let skill = parse_definition(json, Path::new("opencode-implementer.json"), &ParseOptions::default())
///     .skill.unwrap();
/// assert_eq!(skill.tools.deny, ["write", "edit"]);
/// assert_eq!(skill.contract.composability_rules[0].skill, "specification-engine");
/// ```
pub fn parse_definition(bytes: &[u8], path: &Path, options: &ParseOptions) -> ParsedSkill {
    let mut report = Report::new(path, options.profile);
    let failed = |report: Report<'_>| ParsedSkill {
        skill: None,
        name: None,
        body: None,
        diagnostics: report.finish(),
    };
    let Some(text) = report
        .decode_file(bytes, bytes.len() as u64, options.limits.max_file_bytes)
        .map(|d| d.text)
    else {
        return failed(report);
    };
    let node = if text.trim_start().starts_with('{') {
        match parse_json(text) {
            Ok(node) => node,
            Err(e) => {
                let (pos, msg) = crate::node::json_error(&e);
                report.error(Rule::InvalidJson, pos, format!("invalid JSON: {msg}"));
                return failed(report);
            }
        }
    } else {
        match yaml::parse(text, 1, &options.limits.yaml) {
            Ok(node) => node,
            Err(e) => {
                report_yaml_error(&e, &mut report);
                return failed(report);
            }
        }
    };
    let NodeKind::Map(entries) = node.kind else {
        report.error(
            Rule::NotAMapping,
            node.pos,
            format!(
                "a skill definition must be a mapping, found {}",
                node.type_name()
            ),
        );
        return failed(report);
    };
    let inputs = SkillInputs {
        format: SkillFormat::Definition,
        scope: options.scope,
        path: Some(path),
        dir_name: None,
        command_name: None,
        body: None,
        anchor: Some(weft_types::Position::new(1, 1)),
        no_frontmatter: false,
        limits: &options.limits,
    };
    let skill = interpret_skill(&entries, &inputs, &mut report);
    let name = skill.as_ref().map(|s| s.name.clone()).or_else(|| {
        entries
            .iter()
            .find(|(k, _)| k.as_scalar() == Some("name"))
            .and_then(|(_, v)| v.as_scalar().map(str::to_owned))
    });
    let diagnostics = report.finish();
    ParsedSkill {
        skill: skill.filter(|_| !has_errors(&diagnostics)),
        name,
        body: None,
        diagnostics,
    }
}
