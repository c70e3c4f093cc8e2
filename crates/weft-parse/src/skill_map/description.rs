//! The skill's `description`, and the body's first paragraph when there is none. Separate
//! because the description has a fallback to the body with diagnostics of its own.

use weft_types::{DescriptionSource, Position};

use crate::fields::{Field, Fields};
use crate::markdown::first_paragraph;
use crate::node::NodeKind;
use crate::report::Report;
use crate::rules::Rule;

use super::SkillInputs;

/// The longest description the spec allows, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 1024;

pub(super) fn read_description(
    f: &mut Fields<'_>,
    inputs: &SkillInputs<'_>,
    report: &mut Report<'_>,
) -> (Option<String>, DescriptionSource) {
    let field = f.take(report, &["description"]);
    let pos = field.as_ref().and_then(Field::pos);
    match field.as_ref().map(|fl| &fl.value.kind) {
        Some(NodeKind::Scalar(s)) if !s.trim().is_empty() => {
            let chars = s.chars().count();
            if chars > MAX_DESCRIPTION_CHARS {
                report.emit2(
                    Rule::DescriptionTooLong,
                    pos,
                    || format!("description is {chars} characters long; the limit is {MAX_DESCRIPTION_CHARS} (catalogs show a shortened copy)"),
                    || format!("Description exceeds {MAX_DESCRIPTION_CHARS} character limit ({chars} chars)"),
                );
            }
            (Some(s.trim().to_owned()), DescriptionSource::Frontmatter)
        }
        Some(NodeKind::Seq(_) | NodeKind::Map(_)) => {
            let found = field.as_ref().map_or("", |fl| fl.value.type_name());
            report.emit2(
                Rule::DescriptionNotString,
                pos,
                || format!("`description` must be a string, found {found}"),
                || "Field 'description' must be a non-empty string".to_owned(),
            );
            (None, DescriptionSource::Frontmatter)
        }
        other => description_from_body(other.is_some(), pos.or(inputs.anchor), inputs, report),
    }
}

/// No usable `description` (`present`: the key is there but empty): the body's first
/// paragraph, reported unless the file has no frontmatter at all.
fn description_from_body(
    present: bool,
    pos: Option<Position>,
    inputs: &SkillInputs<'_>,
    report: &mut Report<'_>,
) -> (Option<String>, DescriptionSource) {
    let spec_message = || {
        if present {
            "Field 'description' must be a non-empty string".to_owned()
        } else {
            "Missing required field in frontmatter: description".to_owned()
        }
    };
    let what = if present {
        "`description` is empty"
    } else {
        "no `description`"
    };
    match inputs.body.and_then(first_paragraph) {
        Some(paragraph) if inputs.no_frontmatter => {
            (Some(paragraph), DescriptionSource::FirstParagraph)
        }
        Some(paragraph) => {
            report.emit2(
                Rule::DescriptionFromBody,
                pos,
                || format!("{what}; the body's first paragraph is used"),
                spec_message,
            );
            (Some(paragraph), DescriptionSource::FirstParagraph)
        }
        None => {
            report.emit2(
                Rule::MissingDescription,
                pos,
                || format!("{what} and the body has no paragraph to use instead"),
                spec_message,
            );
            (None, DescriptionSource::Frontmatter)
        }
    }
}
