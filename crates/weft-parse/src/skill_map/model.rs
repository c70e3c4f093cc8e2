//! Which `model` and `effort` values a skill (or an agent) may name: the effort levels, the
//! model aliases and the shape of a model reference. Separate because agent files share it.

use crate::fields::Field;
use crate::name::shorten;
use crate::report::Report;
use crate::rules::Rule;

/// The values of `effort` (Claude Code's).
pub const EFFORT_LEVELS: [&str; 5] = ["low", "medium", "high", "xhigh", "max"];

/// Model aliases resolved from the configuration, and Claude Code's own (`opusplan`,
/// `sonnet[1m]`, `opus[1m]`, `default`), which map onto them.
pub const MODEL_ALIASES: [&str; 8] = [
    "haiku",
    "sonnet",
    "opus",
    "inherit",
    "default",
    "opusplan",
    "sonnet[1m]",
    "opus[1m]",
];

/// True when `model` is an alias, a bare Claude model id (`claude-opus-4-1`, served by an
/// Anthropic provider) or has the `provider/model` shape.
pub fn is_model_reference(model: &str) -> bool {
    MODEL_ALIASES.contains(&model)
        || (model.starts_with("claude-") && !model.contains(char::is_whitespace))
        || model.split_once('/').is_some_and(|(p, m)| {
            !p.is_empty() && !m.is_empty() && !p.contains(char::is_whitespace)
        })
}

pub(super) fn check_model(model: &str, field: &Field<'_>, report: &mut Report<'_>) {
    if !is_model_reference(model) {
        report.emit(Rule::UnrecognizedModel, field.pos(), || {
            format!(
                "model `{}` is neither an alias ({}), a Claude model id (`claude-…`) nor provider/model",
                shorten(model),
                MODEL_ALIASES.join(", ")
            )
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_references() {
        assert!(is_model_reference("haiku"));
        assert!(is_model_reference("openai/gpt-4o"));
        assert!(is_model_reference("anthropic/claude-sonnet-4-20250514"));
        assert!(!is_model_reference("gpt-4o"));
        assert!(is_model_reference("claude-opus-4-1"));
        assert!(is_model_reference("sonnet[1m]"));
        assert!(is_model_reference("opusplan"));
        assert!(!is_model_reference("/x"));
    }
}
