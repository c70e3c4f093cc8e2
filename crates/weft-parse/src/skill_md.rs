//! `SKILL.md`: frontmatter and body, from bytes to a [`ParsedSkill`].

use std::path::Path;

use weft_types::{Diagnostic, Skill, SkillFormat, has_errors};

use crate::decode::{describe_char, find_control, position_at};
use crate::frontmatter::{Frontmatter, SplitError, split};
use crate::markdown::tidy_body;
use crate::node::{Node, NodeKind};
use crate::options::ParseOptions;
use crate::report::Report;
use crate::rules::Rule;
use crate::skill_map::{SkillInputs, interpret_skill};
use crate::yaml::{self, YamlError};

/// The result of parsing one skill file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedSkill {
    /// The skill, when it can be used: `None` whenever an error was reported.
    pub skill: Option<Skill>,
    /// The best name known for reports, also when `skill` is `None` (the `name` key as
    /// written, else the directory name).
    pub name: Option<String>,
    /// The body (level 2), tidied and truncated to the body limit; `None` when empty.
    pub body: Option<String>,
    /// Everything worth reporting, errors and warnings.
    pub diagnostics: Vec<Diagnostic>,
}

impl ParsedSkill {
    /// True when the skill can be used (no error was reported).
    pub fn is_valid(&self) -> bool {
        self.skill.is_some() && !has_errors(&self.diagnostics)
    }

    /// True when any warning was reported.
    pub fn has_warnings(&self) -> bool {
        self.diagnostics.iter().any(|d| !d.is_error())
    }

    fn failed(name: Option<String>, diagnostics: Vec<Diagnostic>) -> Self {
        Self {
            skill: None,
            name,
            body: None,
            diagnostics,
        }
    }
}

/// The directory name of a skill file's parent (`research/SKILL.md` → `research`).
pub(crate) fn dir_name_of(path: &Path) -> Option<&str> {
    path.parent()?.file_name()?.to_str()
}

/// Parses the bytes of a `SKILL.md` file. `path` is the file's path: it names the file in
/// diagnostics and its parent directory supplies the default name.
///
/// ```
/// use std::path::Path;
/// use weft_parse::{parse_skill_md, ParseOptions};
///
/// let text = "---\nname: research\ndescription: Deep research\nallowed-tools: Read, Bash(git log:*)\n---\n\nResearch $ARGUMENTS.\n";
/// let parsed = parse_skill_md(text.as_bytes(), Path::new("skills/research/SKILL.md"), &ParseOptions::default());
/// let skill = parsed.skill.unwrap();
/// assert_eq!(skill.name, "research");
/// assert_eq!(skill.tools.allow.unwrap(), ["Read", "Bash(git log:*)"]);
/// assert_eq!(parsed.body.as_deref(), Some("Research $ARGUMENTS."));
/// ```
pub fn parse_skill_md(bytes: &[u8], path: &Path, options: &ParseOptions) -> ParsedSkill {
    parse(bytes, bytes.len() as u64, path, options, Mode::Full, None)
}

/// Parses a Claude Code custom command (`.claude/commands/**/*.md`): markdown with optional
/// frontmatter, named `name` by its path (the caller builds it: `frontend/test.md` is
/// `frontend:test`), whatever a `name` key says. Everything else reads as in a SKILL.md; the
/// skill's format is [`weft_types::SkillFormat::Command`].
///
/// ```
/// use std::path::Path;
/// use weft_parse::{parse_command_md, ParseOptions};
///
/// let text = b"---\nargument-hint: [env]\n---\nDeploy to $ARGUMENTS.\n";
/// let parsed = parse_command_md(text, Path::new("ops/deploy.md"), "ops:deploy", &ParseOptions::default());
/// let skill = parsed.skill.unwrap();
/// assert_eq!((skill.name.as_str(), skill.description.as_str()), ("ops:deploy", "Deploy to $ARGUMENTS."));
/// ```
pub fn parse_command_md(
    bytes: &[u8],
    path: &Path,
    name: &str,
    options: &ParseOptions,
) -> ParsedSkill {
    parse(
        bytes,
        bytes.len() as u64,
        path,
        options,
        Mode::Full,
        Some(name),
    )
}

/// Parses only the frontmatter of a `SKILL.md` (level 1, for listings): `prefix` holds the
/// start of the file, at least up to the closing `---` (see
/// [`frontmatter_end`](crate::frontmatter::frontmatter_end)), and `file_len` is the whole
/// file's size. The body is not returned and body-only checks are skipped; bytes after the
/// frontmatter are used only for the first-paragraph description default.
///
/// ```
/// use std::path::Path;
/// use weft_parse::{parse_skill_md_header, ParseOptions};
///
/// let file = "---\nname: pdf\ndescription: PDFs\n---\nA long body...";
/// let prefix = &file.as_bytes()[..36]; // up to and including the closing `---`
/// let parsed = parse_skill_md_header(prefix, file.len() as u64, Path::new("pdf/SKILL.md"), &ParseOptions::default());
/// assert_eq!(parsed.skill.unwrap().description, "PDFs");
/// assert!(parsed.body.is_none());
/// ```
pub fn parse_skill_md_header(
    prefix: &[u8],
    file_len: u64,
    path: &Path,
    options: &ParseOptions,
) -> ParsedSkill {
    parse(prefix, file_len, path, options, Mode::Header, None)
}

/// Whether the whole file or only its frontmatter is at hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Full,
    Header,
}

/// The frontmatter's keys could not be read: the reasons are in the report.
struct Failed;

fn parse(
    bytes: &[u8],
    file_len: u64,
    path: &Path,
    options: &ParseOptions,
    mode: Mode,
    command: Option<&str>,
) -> ParsedSkill {
    let mut report = Report::new(path, options.profile);
    let dir_name = dir_name_of(path);
    let fallback_name = command.or(dir_name).map(str::to_owned);
    let Some(text) = decode(bytes, file_len, options, mode, &mut report) else {
        return ParsedSkill::failed(fallback_name, report.finish());
    };
    let parts = match split(text) {
        Ok(parts) => parts,
        Err(e) => {
            report_split_error(&e, &mut report);
            return ParsedSkill::failed(fallback_name, report.finish());
        }
    };
    if mode == Mode::Full
        && let Some((i, c)) = find_control(parts.body)
    {
        let pos = position_at(parts.body, i, parts.body_line);
        report.emit(Rule::ControlInBody, Some(pos), || {
            format!("control character {} in the body", describe_char(c))
        });
    }
    let Some(fm) = parts.frontmatter else {
        report.emit2(
            Rule::NoFrontmatter,
            Some(weft_types::Position::new(1, 1)),
            || "no YAML frontmatter: the name comes from the directory and the description from the first paragraph".to_owned(),
            || "SKILL.md must start with YAML frontmatter (---)".to_owned(),
        );
        if options.profile == crate::Profile::Spec {
            // The reference validator stops here; so does the spec profile.
            return ParsedSkill::failed(fallback_name, report.finish());
        }
        let frame = Frame {
            anchor: weft_types::Position::new(1, 1),
            no_frontmatter: true,
            mode,
        };
        return finish(
            &[],
            parts.body,
            path,
            (dir_name, command),
            frame,
            options,
            report,
        );
    };
    let entries = match frontmatter_entries(&fm, parts.leading_blank_lines, options, &mut report) {
        Ok(entries) => entries,
        Err(Failed) => return ParsedSkill::failed(fallback_name, report.finish()),
    };
    let frame = Frame {
        anchor: weft_types::Position::new(fm.open_line, 1),
        no_frontmatter: false,
        mode,
    };
    finish(
        &entries,
        parts.body,
        path,
        (dir_name, command),
        frame,
        options,
        report,
    )
}

/// The file as text (a BOM stripped and reported); `None` when it cannot be decoded.
fn decode<'b>(
    bytes: &'b [u8],
    file_len: u64,
    options: &ParseOptions,
    mode: Mode,
    report: &mut Report<'_>,
) -> Option<&'b str> {
    // A prefix may stop inside a multi-byte character: drop the incomplete tail.
    let bytes = match (mode, std::str::from_utf8(bytes)) {
        (Mode::Header, Err(e)) if e.error_len().is_none() => &bytes[..e.valid_up_to()],
        _ => bytes,
    };
    let decoded = report.decode_file(bytes, file_len, options.limits.max_file_bytes)?;
    if decoded.had_bom {
        report.emit(Rule::ByteOrderMark, None, || {
            if options.profile == crate::Profile::Spec {
                "UTF-8 byte-order mark stripped (skills-ref rejects this file: SKILL.md must start with YAML frontmatter (---))".to_owned()
            } else {
                "UTF-8 byte-order mark stripped".to_owned()
            }
        });
    }
    Some(decoded.text)
}

/// Reports why the frontmatter cannot be split from the body.
fn report_split_error(err: &SplitError, report: &mut Report<'_>) {
    match *err {
        SplitError::NotClosed { open_line } => report.emit2(
            Rule::FrontmatterNotClosed,
            Some(weft_types::Position::new(open_line, 1)),
            || "frontmatter opened with `---` is never closed by a `---` line".to_owned(),
            || "SKILL.md frontmatter not properly closed with ---".to_owned(),
        ),
        SplitError::MalformedDelimiter { line } => report.emit2(
            Rule::MalformedDelimiter,
            Some(weft_types::Position::new(line, 1)),
            || "the first line starts with `---` but is not a `---` delimiter line".to_owned(),
            || "SKILL.md must start with YAML frontmatter (---)".to_owned(),
        ),
    }
}

/// The frontmatter's key-value pairs, once its start, characters and YAML are checked.
fn frontmatter_entries(
    fm: &Frontmatter<'_>,
    leading_blank_lines: u32,
    options: &ParseOptions,
    report: &mut Report<'_>,
) -> Result<Vec<(Node, Node)>, Failed> {
    if leading_blank_lines > 0 {
        if options.profile == crate::Profile::Spec {
            // The reference validator stops at the first line; so does the spec profile.
            report.emit(
                Rule::LeadingBlankLines,
                Some(weft_types::Position::new(1, 1)),
                || "SKILL.md must start with YAML frontmatter (---)".to_owned(),
            );
            return Err(Failed);
        }
        report.emit2(
            Rule::LeadingBlankLines,
            Some(weft_types::Position::new(1, 1)),
            || format!("{leading_blank_lines} blank line(s) before the opening `---`"),
            || "SKILL.md must start with YAML frontmatter (---)".to_owned(),
        );
    }
    if let Some((i, c)) = find_control(fm.yaml) {
        let pos = position_at(fm.yaml, i, fm.first_line);
        report.error(
            Rule::ControlInFrontmatter,
            Some(pos),
            format!(
                "control character {} in the frontmatter (YAML does not allow it unescaped)",
                describe_char(c)
            ),
        );
        return Err(Failed);
    }
    let node =
        parse_frontmatter_yaml(fm.yaml, fm.first_line, options, report).map_err(|()| Failed)?;
    match node.kind {
        NodeKind::Map(entries) => Ok(entries),
        other => {
            let found = match other {
                NodeKind::Null => "empty",
                NodeKind::Scalar(_) => "a string",
                NodeKind::Seq(_) => "a list",
                NodeKind::Map(_) => "a mapping",
            };
            report.emit2(
                Rule::NotAMapping,
                node.pos,
                || {
                    format!(
                        "the frontmatter must be a mapping of keys to values, but it is {found}"
                    )
                },
                || "SKILL.md frontmatter must be a YAML mapping".to_owned(),
            );
            Err(Failed)
        }
    }
}

/// What is known about the file besides its keys: where the frontmatter is (for diagnostics
/// about keys it lacks), whether it has one, and whether the whole file was read.
#[derive(Clone, Copy)]
struct Frame {
    anchor: weft_types::Position,
    no_frontmatter: bool,
    mode: Mode,
}

/// Parses the frontmatter YAML, retrying once with quoted values when the only problem is an
/// unquoted `: ` inside a value (the most common mistake in real skills). Agent files go
/// through it too, so the same YAML reads the same way in both.
pub(crate) fn parse_frontmatter_yaml(
    yaml_text: &str,
    first_line: u32,
    options: &ParseOptions,
    report: &mut Report<'_>,
) -> Result<crate::node::Node, ()> {
    match yaml::parse(yaml_text, first_line, &options.limits.yaml) {
        Ok(node) => Ok(node),
        Err(err) => {
            if err.message.contains("mapping values are not allowed")
                && let Some((fixed, lines)) = quote_colon_values(yaml_text)
                && let Ok(node) = yaml::parse(&fixed, first_line, &options.limits.yaml)
            {
                for line in lines {
                    let line_no = first_line + line;
                    report.emit2(
                        Rule::UnquotedColon,
                        Some(weft_types::Position::new(line_no, 1)),
                        || {
                            "the value contains `: ` and is not quoted; it was read as quoted text (quote it to fix)".to_owned()
                        },
                        || "Invalid YAML in frontmatter: mapping values are not allowed here".to_owned(),
                    );
                }
                // Go on with the recovered document so every other problem is reported too;
                // where the rule is an error the skill is still rejected.
                return Ok(node);
            }
            report_yaml_error(&err, report);
            Err(())
        }
    }
}

pub(crate) fn report_yaml_error(err: &YamlError, report: &mut Report<'_>) {
    let msg = err.message.clone();
    report.emit2(
        err.rule,
        err.pos,
        || match err.rule {
            Rule::DuplicateKey => format!("invalid YAML: {msg} (a key may appear only once)"),
            Rule::YamlLimit => format!("YAML exceeds a safety limit: {msg}"),
            _ => format!("invalid YAML: {msg}"),
        },
        || format!("Invalid YAML in frontmatter: {msg}"),
    );
}

/// Rewrites top-level `key: value` lines whose plain value contains `: ` into single-quoted
/// values. Returns the new text and the 0-based indexes of the rewritten lines.
fn quote_colon_values(yaml_text: &str) -> Option<(String, Vec<u32>)> {
    let mut out = String::with_capacity(yaml_text.len() + 16);
    let mut changed = Vec::new();
    for (i, line) in yaml_text.split_inclusive('\n').enumerate() {
        let (content, ending) = match line.strip_suffix("\r\n") {
            Some(c) => (c, "\r\n"),
            None => match line.strip_suffix('\n') {
                Some(c) => (c, "\n"),
                None => (line, ""),
            },
        };
        let rewritten = content
            .split_once(": ")
            .filter(|(key, _)| {
                !key.is_empty()
                    && !key.starts_with([' ', '\t', '#', '-', '?'])
                    && key
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            })
            .and_then(|(key, value)| {
                let v = value.trim();
                let plain = !v.starts_with([
                    '\'', '"', '|', '>', '[', '{', '&', '*', '!', '#', '%', '@', '`',
                ]);
                (plain && v.contains(": ")).then(|| format!("{key}: '{}'", v.replace('\'', "''")))
            });
        match rewritten {
            Some(r) => {
                out.push_str(&r);
                changed.push(u32::try_from(i).unwrap_or(u32::MAX));
            }
            None => out.push_str(content),
        }
        out.push_str(ending);
    }
    (!changed.is_empty()).then_some((out, changed))
}

fn finish(
    entries: &[(crate::node::Node, crate::node::Node)],
    raw_body: &str,
    path: &Path,
    (dir_name, command): (Option<&str>, Option<&str>),
    frame: Frame,
    options: &ParseOptions,
    mut report: Report<'_>,
) -> ParsedSkill {
    let body = tidy_body(raw_body);
    let inputs = SkillInputs {
        format: if command.is_some() {
            SkillFormat::Command
        } else {
            SkillFormat::SkillMd
        },
        scope: options.scope,
        path: Some(path),
        dir_name,
        command_name: command,
        body: Some(&body),
        anchor: Some(frame.anchor),
        no_frontmatter: frame.no_frontmatter,
        limits: &options.limits,
    };
    let skill = interpret_skill(entries, &inputs, &mut report);
    let name = skill.as_ref().map(|s| s.name.clone()).or_else(|| {
        entries
            .iter()
            .find(|(k, _)| k.as_scalar() == Some("name"))
            .and_then(|(_, v)| v.as_scalar())
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
            .or_else(|| dir_name.map(str::to_owned))
    });
    let body = match frame.mode {
        Mode::Full => truncate_body(body, options.limits.max_body_bytes, &mut report),
        Mode::Header => None,
    };
    let diagnostics = report.finish();
    let skill = skill.filter(|_| !has_errors(&diagnostics));
    ParsedSkill {
        skill,
        name,
        body,
        diagnostics,
    }
}

/// Applies the body limit (SEC-SKILL-03): cut at a character boundary, with a warning.
pub(crate) fn truncate_body(body: String, max: usize, report: &mut Report<'_>) -> Option<String> {
    if body.is_empty() {
        return None;
    }
    if body.len() <= max {
        return Some(body);
    }
    let mut cut = max;
    while !body.is_char_boundary(cut) {
        cut -= 1;
    }
    let total = body.len();
    report.emit(Rule::BodyTruncated, None, || {
        format!("body is {total} bytes; only the first {max} are used (max_skill_prompt_bytes)")
    });
    Some(body[..cut].to_owned())
}

/// Where the top-level frontmatter key `key` of a SKILL.md is written (line and column of
/// the key), for checks made after parsing, such as `skills validate`'s check of `agent:`
/// against the agents it discovered. `None` when the file has no such key or no readable
/// frontmatter.
///
/// ```
/// use weft_parse::skill_md::key_position;
///
/// let text = "---\nname: s\ndescription: d\nagent: Explorer\n---\n";
/// let pos = key_position(text, "agent").unwrap();
/// assert_eq!((pos.line, pos.column), (4, 1));
/// ```
pub fn key_position(text: &str, key: &str) -> Option<weft_types::Position> {
    let fm = split(text).ok()?.frontmatter?;
    let node =
        crate::yaml::parse(fm.yaml, fm.first_line, &crate::yaml::YamlLimits::default()).ok()?;
    let crate::node::NodeKind::Map(entries) = &node.kind else {
        return None;
    };
    entries
        .iter()
        .find(|(k, _)| k.as_scalar() == Some(key))
        .and_then(|(k, _)| k.pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_fallback_rewrites_only_plain_top_level_values() {
        let (fixed, lines) = quote_colon_values(
            "name: s\ndescription: Use when: asked\nq: 'a: b'\n  nested: x: y\n",
        )
        .unwrap();
        assert_eq!(
            fixed,
            "name: s\ndescription: 'Use when: asked'\nq: 'a: b'\n  nested: x: y\n"
        );
        assert_eq!(lines, [1]);
    }
}
