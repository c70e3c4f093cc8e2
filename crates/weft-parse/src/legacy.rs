//! The legacy format: `skill.json` with an optional `prompt.md` beside it.

use std::path::Path;

use weft_types::{Position, SkillFormat, has_errors};

use crate::decode::decode;
use crate::markdown::tidy_body;
use crate::node::{NodeKind, parse_json};
use crate::options::ParseOptions;
use crate::report::Report;
use crate::rules::Rule;
use crate::skill_map::{SkillInputs, interpret_skill};
use crate::skill_md::{ParsedSkill, dir_name_of, truncate_body};

/// Parses a legacy skill: the bytes of `skill.json` (at `path`) and, when it exists, of the
/// `prompt.md` beside it (the body).
///
/// ```
/// use std::path::Path;
/// use weft_parse::{parse_legacy, ParseOptions};
///
/// let json = br#"{"name": "research", "description": "Deep research", "variables": ["topic"]}"#;
/// let parsed = parse_legacy(json, Some(b"Research $ARGUMENTS."), Path::new("research/skill.json"), &ParseOptions::default());
/// let skill = parsed.skill.unwrap();
/// assert_eq!(skill.variables, ["topic"]);
/// assert_eq!(parsed.body.as_deref(), Some("Research $ARGUMENTS."));
/// ```
pub fn parse_legacy(
    json: &[u8],
    prompt: Option<&[u8]>,
    path: &Path,
    options: &ParseOptions,
) -> ParsedSkill {
    let mut report = Report::new(path, options.profile);
    let dir_name = dir_name_of(path);
    let failed = |report: Report<'_>| ParsedSkill {
        skill: None,
        name: dir_name.map(str::to_owned),
        body: None,
        diagnostics: report.finish(),
    };

    let limit = options.limits.max_file_bytes;
    // The prompt's size is checked with the JSON's: either too large stops the skill.
    let largest = json.len().max(prompt.map_or(0, <[u8]>::len)) as u64;
    let Some(text) = report.decode_file(json, largest, limit).map(|d| d.text) else {
        return failed(report);
    };
    let body = match prompt.map(decode) {
        None => {
            report.emit(Rule::MissingPrompt, None, || {
                "no prompt.md beside skill.json: the skill has no instructions".to_owned()
            });
            String::new()
        }
        Some(Ok(d)) => tidy_body(d.text),
        Some(Err(e)) => {
            report.error(
                Rule::InvalidUtf8,
                Some(Position::new(e.line, 1)),
                format!(
                    "prompt.md is not valid UTF-8: invalid byte sequence at byte {}",
                    e.offset
                ),
            );
            return failed(report);
        }
    };
    let node = match parse_json(text) {
        Ok(node) => node,
        Err(e) => {
            let (pos, msg) = crate::node::json_error(&e);
            report.error(Rule::InvalidJson, pos, format!("invalid JSON: {msg}"));
            return failed(report);
        }
    };
    let NodeKind::Map(entries) = node.kind else {
        report.error(
            Rule::NotAMapping,
            None,
            format!(
                "skill.json must be a JSON object, found {}",
                node.type_name()
            ),
        );
        return failed(report);
    };
    let inputs = SkillInputs {
        format: SkillFormat::Legacy,
        scope: options.scope,
        path: Some(path),
        dir_name,
        command_name: None,
        body: Some(&body),
        anchor: Some(Position::new(1, 1)),
        no_frontmatter: false,
        limits: &options.limits,
    };
    let skill = interpret_skill(&entries, &inputs, &mut report);
    let name = skill
        .as_ref()
        .map(|s| s.name.clone())
        .or_else(|| dir_name.map(str::to_owned));
    let body = truncate_body(body, options.limits.max_body_bytes, &mut report);
    let diagnostics = report.finish();
    ParsedSkill {
        skill: skill.filter(|_| !has_errors(&diagnostics)),
        name,
        body,
        diagnostics,
    }
}
