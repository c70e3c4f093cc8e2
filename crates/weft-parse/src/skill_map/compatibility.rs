//! The open spec's `compatibility` text and its length limit. Separate because its checks
//! (empty, too long, not a string) are its own.

use crate::fields::Field;
use crate::node::NodeKind;
use crate::report::Report;
use crate::rules::Rule;

/// The longest `compatibility` the spec allows, in characters.
pub const MAX_COMPATIBILITY_CHARS: usize = 500;

pub(super) fn read_compatibility(field: &Field<'_>, report: &mut Report<'_>) -> Option<String> {
    match &field.value.kind {
        NodeKind::Scalar(s) => {
            let chars = s.chars().count();
            if s.trim().is_empty() {
                report.emit2(
                    Rule::CompatibilityEmpty,
                    field.pos(),
                    || "`compatibility` is empty; leave it out instead".to_owned(),
                    || "Field 'compatibility' must be 1-500 characters if provided".to_owned(),
                );
                return None;
            }
            if chars > MAX_COMPATIBILITY_CHARS {
                report.emit2(
                    Rule::CompatibilityTooLong,
                    field.pos(),
                    || format!("`compatibility` is {chars} characters long; the limit is {MAX_COMPATIBILITY_CHARS}"),
                    || format!("Compatibility exceeds {MAX_COMPATIBILITY_CHARS} character limit ({chars} chars)"),
                );
            }
            Some(s.clone())
        }
        NodeKind::Null => None,
        other => {
            let found = if matches!(other, NodeKind::Seq(_)) {
                "a list"
            } else {
                "a mapping"
            };
            report.emit2(
                Rule::CompatibilityNotString,
                field.pos(),
                || format!("`compatibility` must be a string, found {found}; ignored"),
                || "Field 'compatibility' must be a string".to_owned(),
            );
            None
        }
    }
}
