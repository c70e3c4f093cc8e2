//! Agent definitions: `agent.yaml`, `agent.json`, `AGENT.md`, Claude Code's
//! `.claude/agents/<name>.md`, and the Context Graph markdown template.

use std::path::Path;

use weft_types::{AgentDefinition, AgentFormat, Diagnostic, Source, has_errors};

use crate::fields::{self, Fields};
use crate::frontmatter::{SplitError, split};
use crate::markdown::{bullet_items, first_paragraph, sections, tidy_body};
use crate::name::{name_problems, shorten};
use crate::node::{Node, NodeKind, parse_json};
use crate::options::ParseOptions;
use crate::report::Report;
use crate::rules::Rule;
use crate::skill_map::is_model_reference;
use crate::skill_map::tools::{check_tool_names, names_weft_tool};

/// Claude Code's documented `permissionMode` values (`manual` is an alias of `default`).
pub const PERMISSION_MODES: [&str; 7] = [
    "default",
    "acceptEdits",
    "auto",
    "dontAsk",
    "bypassPermissions",
    "plan",
    "manual",
];

/// Claude Code's documented agent colours.
pub const AGENT_COLORS: [&str; 8] = [
    "red", "blue", "green", "yellow", "purple", "orange", "pink", "cyan",
];

/// The result of parsing one agent file.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedAgent {
    /// The agent, when it can be used: `None` whenever an error was reported.
    pub agent: Option<AgentDefinition>,
    /// The best name known for reports.
    pub name: Option<String>,
    /// Errors and warnings.
    pub diagnostics: Vec<Diagnostic>,
}

impl ParsedAgent {
    /// True when the agent can be used.
    pub fn is_valid(&self) -> bool {
        self.agent.is_some() && !has_errors(&self.diagnostics)
    }
}

/// The name an agent file implies: its stem, or the directory for `agent.yaml` / `AGENT.md`.
fn default_name(path: &Path) -> Option<String> {
    let stem = path.file_stem()?.to_str()?;
    if stem.eq_ignore_ascii_case("agent") {
        path.parent()?.file_name()?.to_str().map(str::to_owned)
    } else {
        Some(stem.to_owned())
    }
}

/// Parses an agent file; the format follows the file extension (`.yaml`/`.yml`, `.json`,
/// `.md`). A `.md` file without frontmatter is read as the Context Graph template.
///
/// ```
/// use std::path::Path;
/// use weft_parse::{parse_agent, ParseOptions};
///
/// let md = "---\nname: code-reviewer\ndescription: Reviews code\ntools: Read, Grep, Glob\n---\nYou are a reviewer.\n";
/// let agent = parse_agent(md.as_bytes(), Path::new(".claude/agents/reviewer.md"), &ParseOptions::default())
///     .agent.unwrap();
/// assert_eq!(agent.name, "code-reviewer");
/// assert_eq!(agent.tools.unwrap(), ["Read", "Grep", "Glob"]);
/// assert_eq!(agent.system_prompt.as_deref(), Some("You are a reviewer."));
/// ```
pub fn parse_agent(bytes: &[u8], path: &Path, options: &ParseOptions) -> ParsedAgent {
    let mut report = Report::new(path, options.profile);
    let fallback = default_name(path);
    let failed = |report: Report<'_>, name: Option<String>| ParsedAgent {
        agent: None,
        name,
        diagnostics: report.finish(),
    };
    let Some(text) = report
        .decode_file(bytes, bytes.len() as u64, options.limits.max_file_bytes)
        .map(|d| d.text)
    else {
        return failed(report, fallback);
    };
    let (format, node, body) = match read_document(text, path, options, &mut report) {
        Document::Read { format, node, body } => (format, node, body),
        Document::ContextGraph => {
            let agent = context_graph_agent(text, path, fallback.clone(), options);
            let diagnostics = report.finish();
            return ParsedAgent {
                name: Some(agent.name.clone()),
                agent: Some(agent),
                diagnostics,
            };
        }
        Document::Failed => return failed(report, fallback),
    };
    let entries: &[(Node, Node)] = match &node.kind {
        NodeKind::Map(entries) => entries,
        NodeKind::Null if format == AgentFormat::Markdown => &[],
        other => {
            let found = match other {
                NodeKind::Null => "empty",
                NodeKind::Scalar(_) => "a string",
                NodeKind::Seq(_) => "a list",
                NodeKind::Map(_) => "a mapping",
            };
            report.error(
                Rule::NotAMapping,
                node.pos,
                format!("an agent definition must be a mapping, found {found}"),
            );
            return failed(report, fallback);
        }
    };
    let source = Source {
        scope: options.scope,
        format,
        path: Some(path.to_path_buf()),
        plugin: None,
    };
    let agent = interpret_agent(
        entries,
        body.as_deref(),
        fallback.clone(),
        source,
        &mut report,
    );
    let name = agent.as_ref().map(|a| a.name.clone()).or(fallback);
    let diagnostics = report.finish();
    ParsedAgent {
        agent: agent.filter(|_| !has_errors(&diagnostics)),
        name,
        diagnostics,
    }
}

/// An agent file's document, by format.
enum Document {
    /// The definition's tree, and the body of a Markdown file.
    Read {
        format: AgentFormat,
        node: Node,
        body: Option<String>,
    },
    /// A Markdown file without frontmatter: the Context Graph template.
    ContextGraph,
    /// It cannot be read; the reasons are in the report.
    Failed,
}

/// Reads the file's document as its extension says (`.yaml`/`.yml`, `.json`, `.md`).
fn read_document(
    text: &str,
    path: &Path,
    options: &ParseOptions,
    report: &mut Report<'_>,
) -> Document {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("yaml" | "yml") => {
            match crate::skill_md::parse_frontmatter_yaml(text, 1, options, report) {
                Ok(node) => Document::Read {
                    format: AgentFormat::Yaml,
                    node,
                    body: None,
                },
                Err(()) => Document::Failed,
            }
        }
        Some("json") => match parse_json(text) {
            Ok(node) => Document::Read {
                format: AgentFormat::Json,
                node,
                body: None,
            },
            Err(e) => {
                let (pos, msg) = crate::node::json_error(&e);
                report.error(Rule::InvalidJson, pos, format!("invalid JSON: {msg}"));
                Document::Failed
            }
        },
        Some("md" | "markdown") => read_markdown(text, options, report),
        _ => {
            report.error(
                Rule::AgentUnknownFormat,
                None,
                "agent files are .yaml, .yml, .json or .md".to_owned(),
            );
            Document::Failed
        }
    }
}

/// A Markdown agent: YAML frontmatter and the body (the system prompt).
fn read_markdown(text: &str, options: &ParseOptions, report: &mut Report<'_>) -> Document {
    match split(text) {
        Ok(parts) => match parts.frontmatter {
            Some(fm) => {
                match crate::skill_md::parse_frontmatter_yaml(
                    fm.yaml,
                    fm.first_line,
                    options,
                    report,
                ) {
                    Ok(node) => Document::Read {
                        format: AgentFormat::Markdown,
                        node,
                        body: Some(tidy_body(parts.body)),
                    },
                    Err(()) => Document::Failed,
                }
            }
            None => Document::ContextGraph,
        },
        Err(SplitError::NotClosed { open_line }) => {
            report.error(
                Rule::FrontmatterNotClosed,
                Some(weft_types::Position::new(open_line, 1)),
                "frontmatter opened with `---` is never closed by a `---` line".to_owned(),
            );
            Document::Failed
        }
        Err(SplitError::MalformedDelimiter { line }) => {
            report.error(
                Rule::MalformedDelimiter,
                Some(weft_types::Position::new(line, 1)),
                "the first line starts with `---` but is not a `---` delimiter line".to_owned(),
            );
            Document::Failed
        }
    }
}

fn interpret_agent(
    entries: &[(Node, Node)],
    body: Option<&str>,
    fallback_name: Option<String>,
    source: Source<AgentFormat>,
    report: &mut Report<'_>,
) -> Option<AgentDefinition> {
    crate::decoded::check_decoded_controls(entries, report);
    let mut f = Fields::new(entries, report);
    let name = agent_name(&mut f, fallback_name, report)?;
    let description = agent_description(&mut f, body, report);
    let mut agent = AgentDefinition::new(name, description, source);
    read_model(&mut f, &mut agent, report);
    let prompt_key = f
        .take(
            report,
            &["system_prompt", "systemPrompt", "system-prompt", "prompt"],
        )
        .and_then(|fl| fields::string(report, &fl, Rule::WrongType));
    agent.system_prompt = body
        .filter(|b| !b.is_empty())
        .map(str::to_owned)
        .or(prompt_key);
    let tools_ok = read_tool_lists(&mut f, &mut agent, report);
    if let Some(field) = f.take(report, &["skills"]) {
        agent.skills = fields::string_list(report, &field);
    }
    read_limits(&mut f, &mut agent, report);
    read_permission_mode(&mut f, &mut agent, report);
    if let Some(field) = f.take(report, &["hooks"]) {
        agent.hooks = crate::hooks::read_hooks_field(&field, report);
    }
    keep_unknown_fields(&f, &mut agent, report);
    tools_ok.then_some(agent)
}

/// `name`, else the name from the file (with a diagnostic), else `None` (an error).
fn agent_name(
    f: &mut Fields<'_>,
    fallback_name: Option<String>,
    report: &mut Report<'_>,
) -> Option<String> {
    let name_field = f.take(report, &["name"]);
    let name = name_field
        .as_ref()
        .and_then(|fl| fields::string(report, fl, Rule::WrongType))
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty());
    if let Some(name) = name {
        for problem in name_problems(&name) {
            report.emit(
                Rule::AgentInvalidName,
                name_field.as_ref().and_then(|f| f.pos()),
                || problem,
            );
        }
        return Some(name);
    }
    let Some(fallback) = fallback_name else {
        report.error(
            Rule::AgentMissingName,
            None,
            "the agent has no `name`".to_owned(),
        );
        return None;
    };
    report.emit(Rule::AgentMissingName, None, || {
        format!("no `name`; `{fallback}` (from the file name) is used")
    });
    Some(fallback)
}

/// `description`, else the body's first paragraph (with a diagnostic).
fn agent_description(f: &mut Fields<'_>, body: Option<&str>, report: &mut Report<'_>) -> String {
    let description = f
        .take(report, &["description"])
        .and_then(|fl| fields::string(report, &fl, Rule::WrongType))
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty());
    match description {
        Some(d) => d,
        None => {
            report.emit(Rule::AgentMissingDescription, None, || {
                "no `description`: nothing tells when to use this agent".to_owned()
            });
            body.and_then(first_paragraph).unwrap_or_default()
        }
    }
}

/// `model`, flagged when it is neither an alias nor `provider/model`.
fn read_model(f: &mut Fields<'_>, agent: &mut AgentDefinition, report: &mut Report<'_>) {
    let Some(field) = f.take(report, &["model"]) else {
        return;
    };
    agent.model = fields::string(report, &field, Rule::WrongType);
    if let Some(model) = agent.model.as_deref()
        && !is_model_reference(model)
    {
        report.emit(Rule::UnrecognizedModel, field.pos(), || {
            format!(
                "model `{}` is neither an alias ({}), a Claude model id (`claude-…`) nor provider/model; it is resolved against the configured providers when the agent runs",
                shorten(model),
                crate::skill_map::MODEL_ALIASES.join(", ")
            )
        });
    }
}

/// `tools` and `disallowed_tools`; false when either cannot be read (the agent is unusable:
/// a tool list that cannot be read never means "no restriction").
fn read_tool_lists(
    f: &mut Fields<'_>,
    agent: &mut AgentDefinition,
    report: &mut Report<'_>,
) -> bool {
    let mut ok = true;
    if let Some(field) = f.take(report, &["tools"]) {
        match fields::tool_list(report, &field) {
            Ok(list) => {
                if list.is_empty() {
                    report.emit(Rule::AgentNoTools, field.pos(), || {
                        "`tools` is empty: this agent gets no tools at all (leave it out to inherit every tool)".to_owned()
                    });
                } else if !list.iter().any(|t| names_weft_tool(t)) {
                    report.emit(Rule::AgentNoTools, field.pos(), || {
                        "no entry of `tools` is a tool weft has: this agent gets no tools at all".to_owned()
                    });
                }
                check_tool_names(&field, &list, report);
                agent.tools = Some(list);
            }
            Err(()) => ok = false,
        }
    }
    if let Some(field) = f.take(
        report,
        &["disallowed_tools", "disallowedTools", "disallowed-tools"],
    ) {
        match fields::tool_list(report, &field) {
            Ok(list) => {
                check_tool_names(&field, &list, report);
                agent.disallowed_tools = list;
            }
            Err(()) => ok = false,
        }
    }
    ok
}

/// The numbers and switches: iteration cap, temperature, context window, background.
fn read_limits(f: &mut Fields<'_>, agent: &mut AgentDefinition, report: &mut Report<'_>) {
    if let Some(field) = f.take(
        report,
        &[
            "max_tool_iterations",
            "max-tool-iterations",
            "maxTurns",
            "max_turns",
            "max-turns",
        ],
    ) {
        agent.max_tool_iterations =
            number(report, &field, |s| s.parse::<u32>().ok().filter(|n| *n > 0));
    }
    if let Some(field) = f.take(report, &["temperature"]) {
        agent.temperature = number(report, &field, |s| {
            s.parse::<f32>()
                .ok()
                .filter(|t| t.is_finite() && (0.0..=2.0).contains(t))
        });
    }
    if let Some(field) = f.take(
        report,
        &["context_window", "contextWindow", "context-window"],
    ) {
        agent.context_window = number(report, &field, |s| s.parse::<u64>().ok().filter(|n| *n > 0));
    }
    if let Some(field) = f.take(report, &["background"])
        && let Some(b) = fields::boolean(report, &field)
    {
        agent.background = b;
    }
}

/// `permissionMode`, flagged when it is none of Claude Code's or weft's spellings
/// ([`weft_types::PermissionMode`]).
fn read_permission_mode(f: &mut Fields<'_>, agent: &mut AgentDefinition, report: &mut Report<'_>) {
    let Some(field) = f.take(
        report,
        &["permissionMode", "permission_mode", "permission-mode"],
    ) else {
        return;
    };
    let Some(text) = fields::string(report, &field, Rule::WrongType) else {
        return;
    };
    let mode = text.parse::<weft_types::PermissionMode>();
    if mode.is_err() {
        report.emit(Rule::AgentUnknownPermissionMode, field.pos(), || {
            format!(
                "unknown permissionMode `{}`; expected one of {} (or weft's ask, accept-edits, dont-ask, bypass)",
                shorten(&text),
                PERMISSION_MODES.join(", ")
            )
        });
    }
    agent.permission_mode = Some(mode);
}

/// Claude Code agent fields weft recognises but does not implement, and why: kept, without
/// effect, each a named warning (`W119`, an error under `--strict`).
pub const UNSUPPORTED_AGENT_FIELDS: [(&str, &str); 5] = [
    (
        "mcpServers",
        "an agent cannot start MCP servers of its own; weft's come from `mcp_servers` in the configuration",
    ),
    (
        "memory",
        "agent memory directories are not loaded; weft's memory is the `memory_read`/`memory_write` tools",
    ),
    (
        "isolation",
        "a subagent works in the project itself; weft makes no worktree for it",
    ),
    (
        "initialPrompt",
        "weft sends no first message of its own; the session starts with yours",
    ),
    (
        "effort",
        "an agent's effort is not applied (a skill's `effort:` and the session's are)",
    ),
];

/// Every other key is kept as it is (an unknown `color` is flagged, and so is each field of
/// [`UNSUPPORTED_AGENT_FIELDS`]).
fn keep_unknown_fields(f: &Fields<'_>, agent: &mut AgentDefinition, report: &mut Report<'_>) {
    for field in f.untaken() {
        if let Some((key, why)) = UNSUPPORTED_AGENT_FIELDS
            .iter()
            .find(|(k, _)| *k == field.key)
        {
            report.emit(Rule::UnsupportedField, field.key_pos, || {
                format!("`{key}` is recognised but not supported: {why}; it has no effect")
            });
        }
        if field.key == "color"
            && let Some(color) = field.value.as_scalar()
            && !AGENT_COLORS.contains(&color)
        {
            report.emit(Rule::AgentUnknownColor, field.pos(), || {
                format!(
                    "unknown color `{}`; expected one of {}",
                    shorten(color),
                    AGENT_COLORS.join(", ")
                )
            });
        }
        agent
            .extra
            .push((field.key.to_owned(), fields::value(&field)));
    }
}

/// A numeric field: `parse` turns the scalar text into the value or rejects it.
fn number<T>(
    report: &mut Report<'_>,
    field: &fields::Field<'_>,
    parse: impl Fn(&str) -> Option<T>,
) -> Option<T> {
    let parsed = field.value.as_scalar().map(str::trim).and_then(&parse);
    if parsed.is_none() {
        let key = field.key;
        let found = fields::describe(field.value);
        report.emit(Rule::AgentInvalidNumber, field.pos(), || {
            format!("`{key}` must be a positive number in range, found {found}; ignored")
        });
    }
    parsed
}

/// The Context Graph template: `# X Subagent`, `## Role`, `## Model`, `## Allowed Tools`
/// (a bullet list), `## Protocol`, `## Constraints`. The name comes from the file name and
/// the whole document is the system prompt.
fn context_graph_agent(
    text: &str,
    path: &Path,
    fallback_name: Option<String>,
    options: &ParseOptions,
) -> AgentDefinition {
    let body = tidy_body(text);
    let parts = sections(&body);
    let section = |name: &str| {
        parts
            .iter()
            .find(|(h, _)| h.eq_ignore_ascii_case(name))
            .map(|(_, c)| c.as_str())
    };
    let description = section("Role")
        .and_then(first_paragraph)
        .or_else(|| first_paragraph(&body))
        .unwrap_or_default();
    let mut agent = AgentDefinition::new(
        fallback_name.unwrap_or_default(),
        description,
        Source {
            scope: options.scope,
            format: AgentFormat::ContextGraph,
            path: Some(path.to_path_buf()),
            plugin: None,
        },
    );
    agent.model = section("Model")
        .and_then(|c| c.lines().map(str::trim).find(|l| !l.is_empty()))
        .map(|m| m.trim_matches(['{', '}', '`', ' ']).to_ascii_lowercase())
        .filter(|m| !m.is_empty());
    agent.tools = section("Allowed Tools").map(|c| {
        bullet_items(c)
            .into_iter()
            .map(|item| strip_trailing_comment(&item).trim_matches('`').to_owned())
            .filter(|t| !t.is_empty())
            .collect()
    });
    agent.system_prompt = Some(body).filter(|b| !b.is_empty());
    agent
}

/// `Grep (if applicable)` → `Grep`; `Bash(git:*)` is kept (no space before the parenthesis).
fn strip_trailing_comment(item: &str) -> &str {
    match item.find(" (") {
        Some(i) if item.ends_with(')') => item[..i].trim_end(),
        _ => item,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailing_comments_are_not_tools() {
        assert_eq!(strip_trailing_comment("Grep (if applicable)"), "Grep");
        assert_eq!(strip_trailing_comment("Bash(git:*)"), "Bash(git:*)");
    }

    #[test]
    fn agent_yaml_name_defaults_to_directory() {
        assert_eq!(
            default_name(Path::new("agents/researcher/agent.yaml")).as_deref(),
            Some("researcher")
        );
        assert_eq!(
            default_name(Path::new("agents/coder.md")).as_deref(),
            Some("coder")
        );
    }
}
