//! Which keys a skill may have: the open spec's set (the `spec` profile rejects the rest),
//! every key the family of runtimes defines (for the did-you-mean on an unknown key), and the
//! keys weft recognises without implementing. Separate from the interpreter because it is a
//! catalog of keys, not the reading of any one of them.

use weft_types::suggest::{closest_names, did_you_mean};
use weft_types::{Position, Skill, SkillFormat};

use crate::fields::{self, Fields};
use crate::name::shorten;
use crate::report::Report;
use crate::rules::Rule;

/// The keys the open spec allows (the `spec` profile rejects every other key).
pub const SPEC_FIELDS: [&str; 6] = [
    "allowed-tools",
    "compatibility",
    "description",
    "license",
    "metadata",
    "name",
];

/// Every other key is kept as it is; a SKILL.md `tools` key (a subagent field) is flagged,
/// and so are keys weft recognises but does not implement and keys nobody defines.
pub(super) fn keep_unknown_fields(
    f: &mut Fields<'_>,
    skill: &mut Skill,
    format: SkillFormat,
    report: &mut Report<'_>,
) {
    let markdown = matches!(format, SkillFormat::SkillMd | SkillFormat::Command);
    if markdown {
        report_unsupported_and_unknown(f, report);
    }
    if format == SkillFormat::SkillMd
        && let Some(field) = f.take(report, &["tools"])
    {
        report.emit(Rule::MisplacedField, field.key_pos, || {
            "`tools` is a subagent field; a skill declares `allowed-tools` (kept as an unknown key)"
                .to_owned()
        });
        skill
            .extra
            .push(("tools".to_owned(), fields::value(&field)));
    }
    for field in f.untaken() {
        skill
            .extra
            .push((field.key.to_owned(), fields::value(&field)));
    }
}

/// Keys weft recognises but does not implement, and why: kept, without effect.
pub const UNSUPPORTED_FIELDS: [(&str, &str); 5] = [
    (
        "background",
        "a `context: fork` skill runs in the foreground here: weft waits for its subagent's result",
    ),
    (
        "shell",
        "weft runs dynamic context (`!`cmd``) with `exec_shell`'s shell (bash, or `/bin/sh` where there is none), whatever this says",
    ),
    (
        "command-dispatch",
        "OpenClaw's direct tool dispatch is not implemented; the skill runs through the model",
    ),
    (
        "command-tool",
        "OpenClaw's direct tool dispatch is not implemented; the skill runs through the model",
    ),
    (
        "command-arg-mode",
        "OpenClaw's direct tool dispatch is not implemented; the skill runs through the model",
    ),
];

/// Every top-level key some runtime of the family defines for a skill (Agent Skills spec,
/// Claude Code, Codex, OpenClaw, clawft), in each accepted spelling: anything else is
/// reported as an unknown key, with the closest of these.
pub const KNOWN_FIELDS: [&str; 38] = [
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
    "allowed_tools",
    "forbidden-tools",
    "forbidden_tools",
    "disallowed-tools",
    "disallowed_tools",
    "version",
    "variables",
    "argument-hint",
    "argument_hint",
    "arguments",
    "user-invocable",
    "user_invocable",
    "disable-model-invocation",
    "disable_model_invocation",
    "context",
    "agent",
    "model",
    "effort",
    "paths",
    "when_to_use",
    "when-to-use",
    "keywords",
    "hooks",
    "homepage",
    "execution-protocol",
    "execution_protocol",
    "preconditions",
    "postconditions",
    "output-contract",
    "output_contract",
    "compatibility-rules",
    "composability-rules",
];

/// The named warning for each recognised-but-unimplemented key, and a did-you-mean for each
/// key no runtime defines.
fn report_unsupported_and_unknown(f: &Fields<'_>, report: &mut Report<'_>) {
    for field in f.untaken() {
        let key = field.key;
        // `background: false` asks for what weft does anyway.
        let foreground = key == "background"
            && field.value.as_scalar().and_then(fields::parse_bool) == Some(false);
        if foreground {
            continue;
        }
        if let Some((_, why)) = UNSUPPORTED_FIELDS.iter().find(|(k, _)| *k == key) {
            report.emit(Rule::UnsupportedField, field.key_pos, || {
                format!("`{key}` is recognised but not supported: {why}; it has no effect")
            });
        } else if key != "tools" && !KNOWN_FIELDS.contains(&key) && !key.starts_with("x-") {
            report.emit(Rule::UnknownKey, field.key_pos, || {
                let hint = did_you_mean(&closest_names(
                    key,
                    KNOWN_FIELDS.iter().copied().chain(["tools"]),
                ));
                let tail = if hint.is_empty() {
                    "; kept for `skills show`, no runtime uses it (put custom data under `metadata`)"
                        .to_owned()
                } else {
                    format!("{hint} (kept, without effect)")
                };
                format!("unknown key `{}`{tail}", shorten(key))
            });
        }
    }
}

pub(super) fn report_unexpected_fields(
    f: &Fields<'_>,
    anchor: Option<Position>,
    report: &mut Report<'_>,
) {
    let mut extra: Vec<&str> = f.keys().filter(|k| !SPEC_FIELDS.contains(k)).collect();
    if extra.is_empty() {
        return;
    }
    extra.sort_unstable();
    extra.dedup();
    let allowed = SPEC_FIELDS
        .iter()
        .map(|k| format!("'{k}'"))
        .collect::<Vec<_>>()
        .join(", ");
    report.emit(Rule::UnknownField, anchor, || {
        format!(
            "Unexpected fields in frontmatter: {}. Only [{allowed}] are allowed.",
            extra.join(", ")
        )
    });
}
