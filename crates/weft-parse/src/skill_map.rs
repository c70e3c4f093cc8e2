//! Interpreting a skill mapping (SKILL.md frontmatter, `skill.json`, a definition) into a
//! [`Skill`]. Every skill format goes through here, so a key means the same in all of them.

use std::path::Path;
use weft_types::suggest::{closest_names, did_you_mean};

use weft_types::{
    CompatibilityKind, CompatibilityRule, ComposabilityKind, ComposabilityRule, DescriptionSource,
    OutputContract, Position, Scope, Skill, SkillContext, SkillContract, SkillFormat, Source,
    ToolPolicy, Value,
};

use crate::fields::{self, Field, Fields, dedup_in_place};
use crate::markdown::first_paragraph;
use crate::name::nfkc;
use crate::name::{
    is_safe_dir_name, is_valid_name, name_problems, reserved_word, shorten, spec_dir_matches,
    spec_name_problems,
};
use crate::node::{Node, NodeKind};
use crate::options::Limits;
use crate::report::Report;
use crate::rules::{Profile, Rule};

/// The keys the open spec allows (the `spec` profile rejects every other key).
pub const SPEC_FIELDS: [&str; 6] = [
    "allowed-tools",
    "compatibility",
    "description",
    "license",
    "metadata",
    "name",
];

/// The longest description the spec allows, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 1024;
/// The longest `compatibility` the spec allows, in characters.
pub const MAX_COMPATIBILITY_CHARS: usize = 500;

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

/// Every other key is kept as it is; a SKILL.md `tools` key (a subagent field) is flagged,
/// and so are keys weft recognises but does not implement and keys nobody defines.
fn keep_unknown_fields(
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
pub const UNSUPPORTED_FIELDS: [(&str, &str); 6] = [
    ("hooks", "Claude Code's skill hooks are not run by weft"),
    (
        "background",
        "a `context: fork` skill runs in the foreground here: weft waits for its subagent's result",
    ),
    (
        "shell",
        "weft runs dynamic context (`!`cmd``) with `exec_shell`'s shell (`/bin/sh`), whatever this says",
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
pub const KNOWN_FIELDS: [&str; 37] = [
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

/// OpenClaw gating keys weft recognises but does not implement, and why.
pub const UNSUPPORTED_OPENCLAW_KEYS: [(&str, &str); 4] = [
    (
        "requires.config",
        "OpenClaw configuration requirements are not checked",
    ),
    (
        "primaryEnv",
        "weft gives no key to a skill (`skills.entries.<name>.apiKey` is not used)",
    ),
    ("install", "weft installs no dependency for a skill"),
    (
        "skillKey",
        "the skill's configuration entry is its name (`skills.entries.<name>`)",
    ),
];

/// A named warning for each OpenClaw gating key (`metadata.openclaw`, or the older
/// `clawdbot`/`moltbot`) of [`UNSUPPORTED_OPENCLAW_KEYS`].
fn report_unsupported_openclaw(metadata: &Value, field: &Field<'_>, report: &mut Report<'_>) {
    for (block_name, block) in ["openclaw", "clawdbot", "moltbot"]
        .iter()
        .filter_map(|k| metadata.get(k).map(|b| (*k, b)))
    {
        for (key, why) in UNSUPPORTED_OPENCLAW_KEYS {
            let value = match key.split_once('.') {
                Some((outer, inner)) => block.get(outer).and_then(|o| o.get(inner)),
                None => block.get(key),
            };
            // An empty value (`primaryEnv: ""`, `config: []`) asks for nothing.
            let present = value.is_some_and(|v| match v {
                Value::Null => false,
                Value::Scalar(s) => !s.trim().is_empty(),
                Value::List(items) => !items.is_empty(),
                Value::Map(entries) => !entries.is_empty(),
            });
            if present {
                report.emit(Rule::UnsupportedField, field.key_pos, || {
                    format!(
                        "`metadata.{block_name}.{key}` is recognised but not supported: {why}; it has no effect"
                    )
                });
            }
        }
    }
}

fn report_unexpected_fields(f: &Fields<'_>, anchor: Option<Position>, report: &mut Report<'_>) {
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

/// Reads `name`: the identifier and, when it differs, the name as written.
fn read_name(
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
    for problem in name_problems(name) {
        report.emit(Rule::InvalidName, pos, || problem);
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
    fallback_to_dir(inputs, Some(raw.to_owned()), report)
}

fn fallback_to_dir(
    inputs: &SkillInputs<'_>,
    declared: Option<String>,
    report: &mut Report<'_>,
) -> Option<(String, Option<String>)> {
    match inputs.dir_name {
        Some(dir) if is_valid_name(dir) => Some((dir.to_owned(), declared)),
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

fn read_description(
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

fn read_compatibility(field: &Field<'_>, report: &mut Report<'_>) -> Option<String> {
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

fn read_metadata(field: &Field<'_>, limits: &Limits, report: &mut Report<'_>) -> Option<Value> {
    match &field.value.kind {
        NodeKind::Null => None,
        NodeKind::Map(entries) => {
            let value = field.value.to_value();
            let depth = value.depth();
            let size = value.json_len();
            if depth > limits.max_metadata_depth || size > limits.max_metadata_bytes {
                report.error(
                    Rule::MetadataTooLarge,
                    field.key_pos.or(field.pos()),
                    format!(
                        "`metadata` is {size} bytes as JSON and {depth} levels deep; the limits are {} bytes and {} levels",
                        limits.max_metadata_bytes, limits.max_metadata_depth
                    ),
                );
                return None;
            }
            if report.enabled(Rule::MetadataNotFlat) {
                let nested: Vec<&str> = entries
                    .iter()
                    .filter(|(_, v)| !matches!(v.kind, NodeKind::Scalar(_) | NodeKind::Null))
                    .filter_map(|(k, _)| k.as_scalar())
                    .collect();
                if !nested.is_empty() {
                    report.emit(Rule::MetadataNotFlat, field.pos(), || {
                        format!(
                            "metadata values must be strings under the spec; nested: {}",
                            nested.join(", ")
                        )
                    });
                }
            }
            Some(value)
        }
        _ => {
            let found = fields::describe(field.value);
            report.emit(Rule::MetadataNotMap, field.pos(), || {
                format!("`metadata` must be a mapping, found {found}; dropped")
            });
            None
        }
    }
}

/// Reads `allowed-tools` and `forbidden-tools`. False when a list cannot be trusted.
fn read_tools(
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

fn check_model(model: &str, field: &Field<'_>, report: &mut Report<'_>) {
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

fn read_contract(f: &mut Fields<'_>, report: &mut Report<'_>) -> SkillContract {
    let mut contract = SkillContract::default();
    if let Some(field) = f.take(report, &["execution-protocol", "execution_protocol"]) {
        contract.execution_protocol = fields::text_list(report, &field);
    }
    if let Some(field) = f.take(report, &["preconditions"]) {
        contract.preconditions = fields::text_list(report, &field);
    }
    if let Some(field) = f.take(report, &["postconditions"]) {
        contract.postconditions = fields::text_list(report, &field);
    }
    if let Some(field) = f.take(report, &["output-contract", "output_contract"]) {
        contract.output_contract = read_output_contract(&field, report);
    }
    if let Some(field) = f.take(report, &["compatibility-rules", "compatibility_rules"]) {
        contract.compatibility_rules = read_rules(&field, report, |kind| match kind {
            "requires" => Some(CompatibilityKind::Requires),
            "incompatible" => Some(CompatibilityKind::Incompatible),
            _ => None,
        })
        .into_iter()
        .map(|(kind, skill, reason)| CompatibilityRule {
            kind,
            skill,
            reason,
        })
        .collect();
    }
    if let Some(field) = f.take(report, &["composability-rules", "composability_rules"]) {
        contract.composability_rules = read_rules(&field, report, |kind| match kind {
            "requires" => Some(ComposabilityKind::Requires),
            "forbids" => Some(ComposabilityKind::Forbids),
            _ => None,
        })
        .into_iter()
        .map(|(kind, skill, reason)| ComposabilityRule {
            kind,
            skill,
            reason,
        })
        .collect();
    }
    contract
}

fn read_output_contract(field: &Field<'_>, report: &mut Report<'_>) -> Option<OutputContract> {
    let NodeKind::Map(entries) = &field.value.kind else {
        report.error(
            Rule::InvalidSkillRule,
            field.pos(),
            format!(
                "`{}` must be a mapping with `type` and optional `schema`",
                field.key
            ),
        );
        return None;
    };
    let mut f = Fields::new(entries, report);
    let kind = f
        .take(report, &["type"])
        .and_then(|t| fields::string(report, &t, Rule::InvalidSkillRule));
    let schema = f.take(report, &["schema"]).map(|s| fields::value(&s));
    match kind {
        Some(kind) => Some(OutputContract { kind, schema }),
        None => {
            report.error(
                Rule::InvalidSkillRule,
                field.pos(),
                format!("`{}` needs a `type`", field.key),
            );
            None
        }
    }
}

/// Reads a list of `{type, skill, reason}` rules; `kind_of` maps the `type` text.
fn read_rules<K>(
    field: &Field<'_>,
    report: &mut Report<'_>,
    kind_of: impl Fn(&str) -> Option<K>,
) -> Vec<(K, String, Option<String>)> {
    let key = field.key;
    let NodeKind::Seq(items) = &field.value.kind else {
        if !field.value.is_null() {
            report.error(
                Rule::InvalidSkillRule,
                field.pos(),
                format!("`{key}` must be a list of {{type, skill, reason}} entries"),
            );
        }
        return Vec::new();
    };
    let mut out = Vec::new();
    for item in items {
        let NodeKind::Map(entries) = &item.kind else {
            report.error(
                Rule::InvalidSkillRule,
                item.pos,
                format!(
                    "each `{key}` entry must be a mapping, found {}",
                    item.type_name()
                ),
            );
            continue;
        };
        let mut f = Fields::new(entries, report);
        let kind_text = f
            .take(report, &["type"])
            .and_then(|t| fields::string(report, &t, Rule::InvalidSkillRule));
        let skill = f
            .take(report, &["skill"])
            .and_then(|s| fields::string(report, &s, Rule::InvalidSkillRule));
        let reason = f
            .take(report, &["reason"])
            .and_then(|r| fields::string(report, &r, Rule::WrongType));
        let kind = kind_text.as_deref().and_then(&kind_of);
        match (kind, skill) {
            (Some(kind), Some(skill)) if !skill.trim().is_empty() => {
                out.push((kind, skill.trim().to_owned(), reason));
            }
            (None, _) => report.error(
                Rule::InvalidSkillRule,
                item.pos,
                format!(
                    "`{key}` entry has type {}; expected one of the documented types",
                    kind_text.map_or_else(|| "missing".to_owned(), |t| format!("`{t}`"))
                ),
            ),
            _ => report.error(
                Rule::InvalidSkillRule,
                item.pos,
                format!("`{key}` entry names no `skill`"),
            ),
        }
    }
    out
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

    #[test]
    fn description_keywords_tail() {
        assert_eq!(
            keywords_in_description("Does X. Keywords: alpha, Beta gamma."),
            ["alpha", "beta", "gamma"]
        );
        assert!(keywords_in_description("No tail").is_empty());
    }
}
