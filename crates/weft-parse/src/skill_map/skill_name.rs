//! The skill's `name`: read, checked by weft's rules or the open spec's, and defaulted from
//! the directory's name. Separate because a name has the most rules of any key and a fallback
//! of its own.

use weft_types::Position;

use crate::fields::{Field, Fields};
use crate::name::nfkc;
use crate::name::{
    NameProblems, is_loadable_name, is_valid_name, name_problems, reserved_word, shorten,
    spec_dir_matches, spec_name_problems,
};
use crate::node::NodeKind;
use crate::report::Report;
use crate::rules::{Profile, Rule};

use super::SkillInputs;

/// Reads `name`: the identifier and, when it differs, the name as written.
pub(super) fn read_name(
    f: &mut Fields<'_>,
    inputs: &SkillInputs<'_>,
    report: &mut Report<'_>,
) -> Option<(String, Option<String>)> {
    let field = f.take(report, &["name"]);
    let pos = field.as_ref().and_then(Field::pos);
    let Some(raw) = written_name(field.as_ref(), inputs, report) else {
        return fallback_to_dir(inputs, None, report);
    };
    let trimmed = raw.trim();
    if trimmed != raw {
        report.emit(Rule::NameWhitespace, pos, || {
            format!(
                "`name` has surrounding whitespace; `{}` is used",
                shorten(trimmed)
            )
        });
    }
    if report.spec() {
        check_spec_name(trimmed, pos, inputs, report);
    } else {
        check_name(trimmed, pos, inputs, report);
    }
    accept_name(&raw, inputs, report)
}

/// The `name` as written, when it is a non-empty string; otherwise reports why not.
fn written_name(
    field: Option<&Field<'_>>,
    inputs: &SkillInputs<'_>,
    report: &mut Report<'_>,
) -> Option<String> {
    match field.map(|fl| &fl.value.kind) {
        None if inputs.no_frontmatter => None,
        None => {
            report.emit2(
                Rule::MissingName,
                inputs.anchor,
                || "no `name`; the directory name is used".to_owned(),
                || "Missing required field in frontmatter: name".to_owned(),
            );
            None
        }
        Some(NodeKind::Scalar(s)) if !s.trim().is_empty() => Some(s.clone()),
        Some(kind) => {
            let found = match kind {
                NodeKind::Seq(_) => "a list",
                NodeKind::Map(_) => "a mapping",
                _ => "empty",
            };
            report.emit2(
                Rule::NameNotString,
                field.and_then(Field::pos).or(inputs.anchor),
                || format!("`name` is {found}; the directory name is used"),
                || "Field 'name' must be a non-empty string".to_owned(),
            );
            None
        }
    }
}

/// The open spec's name rules, in the reference validator's words.
fn check_spec_name(
    name: &str,
    pos: Option<Position>,
    inputs: &SkillInputs<'_>,
    report: &mut Report<'_>,
) {
    for problem in spec_name_problems(name) {
        report.emit(Rule::InvalidName, pos, || problem);
    }
    if let Some(dir) = inputs.dir_name
        && !spec_dir_matches(dir, name)
    {
        report.emit(Rule::NameMismatch, pos, || {
            format!("Directory name '{dir}' must match skill name '{name}'")
        });
    }
}

/// weft's name rules: the character set, reserved words, the directory match.
fn check_name(
    name: &str,
    pos: Option<Position>,
    inputs: &SkillInputs<'_>,
    report: &mut Report<'_>,
) {
    let problems = NameProblems::of(name);
    for problem in problems.hard {
        report.emit(Rule::InvalidName, pos, || problem);
    }
    for problem in problems.tolerated {
        report.emit(Rule::NameOutsideSpec, pos, || problem);
    }
    if let Some(word) = reserved_word(name) {
        report.emit(Rule::ReservedName, pos, || {
            format!(
                "name `{}` contains the reserved word `{word}`",
                shorten(name)
            )
        });
    }
    if let Some(dir) = inputs.dir_name
        && dir != name
    {
        report.emit(Rule::NameMismatch, pos, || {
            format!(
                "name `{}` differs from its directory `{}`",
                shorten(name),
                shorten(dir)
            )
        });
    }
}

/// The identifier for the written name `raw` (checked already), and the name as written
/// when it differs; the directory's name when `raw` cannot be loaded.
fn accept_name(
    raw: &str,
    inputs: &SkillInputs<'_>,
    report: &mut Report<'_>,
) -> Option<(String, Option<String>)> {
    let trimmed = raw.trim();
    if is_valid_name(trimmed) {
        let declared = (trimmed != raw).then(|| raw.to_owned());
        return Some((trimmed.to_owned(), declared));
    }
    if report.spec() && spec_name_problems(trimmed).is_empty() {
        // Validated in NFKC form, so published in NFKC form: `ｐｄｆ` is `pdf`.
        let normalized = nfkc(trimmed);
        let declared = (normalized != raw).then(|| raw.to_owned());
        return Some((normalized, declared));
    }
    if report.profile() != Profile::Load {
        // Validation reported the name; keep it so the result can say which skill it was.
        return Some((trimmed.to_owned(), None));
    }
    // A name Claude Code and Codex load (`my_skill`, `-x`) is the skill's name unless its
    // directory has a name by weft's rule (then the directory's, as for any invalid name).
    if !report.spec() && is_loadable_name(trimmed) && !inputs.dir_name.is_some_and(is_valid_name) {
        let declared = (trimmed != raw).then(|| raw.to_owned());
        return Some((trimmed.to_owned(), declared));
    }
    fallback_to_dir(inputs, Some(raw.to_owned()), report)
}

fn fallback_to_dir(
    inputs: &SkillInputs<'_>,
    declared: Option<String>,
    report: &mut Report<'_>,
) -> Option<(String, Option<String>)> {
    match inputs.dir_name {
        Some(dir) if is_valid_name(dir) => Some((dir.to_owned(), declared)),
        // `my_skill/` without a usable `name`: Claude Code and Codex load it by that name.
        Some(dir) if !report.spec() && is_loadable_name(dir) => Some((dir.to_owned(), declared)),
        Some(dir) if report.profile() != Profile::Load => Some((dir.to_owned(), declared)),
        Some(dir) => {
            report.emit(Rule::NoValidName, inputs.anchor, || {
                let why = name_problems(dir).join("; ");
                format!(
                    "the skill cannot be loaded: its directory name is not a valid name either ({})",
                    why.replacen("name ", "directory name ", 1)
                )
            });
            None
        }
        None => {
            report.error(
                Rule::NoValidName,
                None,
                "the definition has no `name`".to_owned(),
            );
            None
        }
    }
}
