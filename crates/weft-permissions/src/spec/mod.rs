//! Specifiers: the `(...)` part of a scoped pattern, checked against a call's input.
//!
//! Which grammar a specifier follows depends on the tool it scopes:
//!
//! | tool | grammar | input |
//! |---|---|---|
//! | `exec_shell` (`Bash`) | command words: `git:*`, `git *`, `npm run *`, `ls*` | `command` / `cmd` |
//! | file and search tools (`Read`, `Write`, `Edit`, `LS`, `Glob`, `Grep`) | path glob | `path` / `file_path` (+ `pattern` for `glob`) |
//! | `web_fetch` (`WebFetch`) | `domain:<host>` | `url` |
//! | `use_skill` (`Skill`) | skill names, comma-separated | `skill` / `name` |
//! | `sessions_spawn` (`Agent`, `Task`) | agent names, comma-separated | `agent` / `subagent_type` |
//! | anything else | `param:value` | `param` |
//!
//! **When the input cannot be judged** (a missing field, a command the shell analyser cannot see
//! through, a path that climbs out of its directory, a URL without a host) a scoped allow does
//! not match and a scoped deny does: the gate fails closed either way.

pub(crate) mod command;
pub(crate) mod domain;
mod field;
mod path;

use std::borrow::Cow;

use serde_json::Value;
use weft_types::tool_names;

use crate::{Effect, PatternContext, PatternErrorKind};

/// A compiled specifier.
#[derive(Debug, Clone)]
pub(crate) enum Specifier {
    /// `Bash(...)`.
    Command(command::CommandSpec),
    /// `Read(...)` and the other file tools.
    Path(path::PathSpec),
    /// `WebFetch(domain:...)`.
    Domain(domain::DomainSpec),
    /// `Skill(...)`, `Agent(...)`, `tool(param:value)`.
    Field(field::FieldSpec),
}

/// How a call's input compares with a specifier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// The call is within the specifier.
    Match,
    /// The call is outside it.
    NoMatch,
    /// The input cannot be judged: allows do not match, denies do.
    Unjudgeable(Why),
}

/// Why an input cannot be judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Why {
    /// The field the specifier reads is absent (or empty).
    Missing(String),
    /// The field is not a string, number or boolean.
    NotScalar(String),
    /// The shell analyser cannot judge the command (the text says why).
    Shell(String),
    /// The path climbs above its starting directory.
    Climbs(String),
    /// Absolute path against a relative rule or the reverse, with no working directory.
    Anchor(String),
    /// A `glob` search pattern with syntax that cannot be checked (`{`, `[`, `\`, `..` after a
    /// wildcard).
    Unsearchable(String),
    /// A URL without a host that can be checked.
    BadUrl(String),
}

impl Why {
    /// A phrase for a denial reason, e.g. "the command contains `;`".
    pub(crate) fn describe(&self) -> String {
        match self {
            Why::Missing(key) => format!("the call has no `{key}`"),
            Why::NotScalar(key) => format!("the call's `{key}` is not a string"),
            Why::Shell(why) => why.clone(),
            Why::Climbs(path) => format!("the path `{path}` climbs above its starting directory"),
            Why::Anchor(path) => format!(
                "the path `{path}` cannot be compared with the rule (one is absolute, the other relative, and no working directory is known)"
            ),
            Why::Unsearchable(pattern) => {
                format!("the search pattern `{pattern}` cannot be checked")
            }
            Why::BadUrl(url) => format!("the URL `{url}` has no host that can be checked"),
        }
    }
}

impl Specifier {
    /// Compiles the specifier `spec` of the canonical tool `tool`.
    ///
    /// `Ok(None)` means the specifier admits every call (`*`, `Bash(:*)`), so the pattern is
    /// unscoped.
    pub(crate) fn compile(
        tool: &str,
        spec: &str,
        ctx: &PatternContext,
    ) -> Result<Option<Self>, PatternErrorKind> {
        if spec.trim().is_empty() {
            return Err(PatternErrorKind::EmptySpecifier);
        }
        if spec.trim() == "*" {
            return Ok(None);
        }
        Ok(match tool {
            tool_names::EXEC_SHELL => {
                let spec = substitute(spec, ctx, |dir| shell_words::quote(dir).into_owned())?;
                command::CommandSpec::compile(&spec)?.map(Specifier::Command)
            }
            tool_names::READ_FILE
            | tool_names::WRITE_FILE
            | tool_names::EDIT_FILE
            | tool_names::LIST_DIRECTORY
            | tool_names::GREP
            | tool_names::GLOB => {
                let spec = substitute(spec, ctx, globset::escape)?;
                Some(Specifier::Path(path::PathSpec::compile(tool, &spec, ctx)?))
            }
            tool_names::WEB_FETCH => Some(Specifier::Domain(domain::DomainSpec::compile(spec)?)),
            tool_names::USE_SKILL => {
                field::FieldSpec::names(&["skill", "name"], spec).map(Specifier::Field)
            }
            tool_names::SESSIONS_SPAWN => {
                field::FieldSpec::names(&["agent", "subagent_type"], spec).map(Specifier::Field)
            }
            _ => {
                let spec = substitute(spec, ctx, str::to_owned)?;
                Some(Specifier::Field(field::FieldSpec::param(tool, &spec)?))
            }
        })
    }

    /// Compares a call's input with the specifier, for an allow or a deny.
    pub(crate) fn verdict(&self, input: &Value, effect: Effect) -> Verdict {
        match self {
            Specifier::Command(spec) => spec.verdict(input, effect),
            Specifier::Path(spec) => spec.verdict(input, effect),
            Specifier::Domain(spec) => spec.verdict(input),
            Specifier::Field(spec) => spec.verdict(input),
        }
    }

    /// True when `verdict` means the pattern applies, for this effect.
    pub(crate) fn applies(&self, input: &Value, effect: Effect) -> bool {
        match self.verdict(input, effect) {
            Verdict::Match => true,
            Verdict::NoMatch => false,
            Verdict::Unjudgeable(_) => effect == Effect::Deny,
        }
    }

    /// The part of the input the specifier looks at, shortened, for denial reasons.
    pub(crate) fn subject(&self, input: &Value) -> Option<String> {
        let keys: &[&str] = match self {
            Specifier::Command(_) => command::KEYS,
            Specifier::Path(_) => path::KEYS,
            Specifier::Domain(_) => domain::KEYS,
            Specifier::Field(spec) => return spec.subject(input),
        };
        keys.iter()
            .find_map(|key| input.get(key).and_then(Value::as_str))
            .map(shorten)
    }

    /// The specifier in a canonical form, for de-duplication (`git:*` and `git *` agree).
    pub(crate) fn write_key(&self, out: &mut String) {
        match self {
            Specifier::Command(spec) => spec.write_key(out),
            Specifier::Path(spec) => spec.write_key(out),
            Specifier::Domain(spec) => spec.write_key(out),
            Specifier::Field(spec) => spec.write_key(out),
        }
    }
}

/// The first scalar among `keys` in `input`, as text.
pub(crate) fn scalar<'v>(input: &'v Value, keys: &[&'static str]) -> Result<Cow<'v, str>, Why> {
    for key in keys {
        match input.get(key) {
            None | Some(Value::Null) => continue,
            Some(Value::String(s)) if s.is_empty() => continue,
            Some(Value::String(s)) => return Ok(Cow::Borrowed(s)),
            Some(Value::Number(n)) => return Ok(Cow::Owned(n.to_string())),
            Some(Value::Bool(b)) => return Ok(Cow::Owned(b.to_string())),
            Some(_) => return Err(Why::NotScalar((*key).to_owned())),
        }
    }
    Err(Why::Missing(
        keys.first().copied().unwrap_or("input").to_owned(),
    ))
}

pub(crate) use weft_shell::shorten;

/// The variables substituted in specifiers, with their context values.
const VARIABLES: [&str; 2] = ["${CLAUDE_SKILL_DIR}", "${CLAUDE_PROJECT_DIR}"];

/// Replaces `${CLAUDE_SKILL_DIR}` and `${CLAUDE_PROJECT_DIR}` with their values, escaped by
/// `escape` for the specifier's grammar.
fn substitute<'s>(
    spec: &'s str,
    ctx: &PatternContext,
    escape: impl Fn(&str) -> String,
) -> Result<Cow<'s, str>, PatternErrorKind> {
    if !crate::name::has_variable(spec) {
        return Ok(Cow::Borrowed(spec));
    }
    let mut out = spec.to_owned();
    for (var, value) in VARIABLES
        .into_iter()
        .zip([ctx.skill_dir(), ctx.project_dir()])
    {
        if out.contains(var) {
            let value = value.ok_or(PatternErrorKind::UnresolvedVariable(var))?;
            out = out.replace(var, &escape(value));
        }
    }
    Ok(Cow::Owned(out))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn star_and_empty_specifiers() {
        let ctx = PatternContext::new();
        assert!(
            Specifier::compile("exec_shell", "*", &ctx)
                .unwrap()
                .is_none()
        );
        assert_eq!(
            Specifier::compile("exec_shell", " ", &ctx).unwrap_err(),
            PatternErrorKind::EmptySpecifier
        );
    }

    #[test]
    fn variables_are_substituted_with_escaping() {
        let ctx = PatternContext::new().with_skill_dir("/skills/my dir");
        let spec = Specifier::compile("exec_shell", "${CLAUDE_SKILL_DIR}/run.sh *", &ctx)
            .unwrap()
            .unwrap();
        let call = json!({"command": "'/skills/my dir/run.sh' --fast"});
        assert_eq!(spec.verdict(&call, Effect::Allow), Verdict::Match);
        let err = Specifier::compile(
            "exec_shell",
            "${CLAUDE_SKILL_DIR}/x",
            &PatternContext::new(),
        )
        .unwrap_err();
        assert_eq!(
            err,
            PatternErrorKind::UnresolvedVariable("${CLAUDE_SKILL_DIR}")
        );
        let spec = Specifier::compile("read_file", "${CLAUDE_PROJECT_DIR}/docs/**", &{
            PatternContext::new().with_project_dir("/p[1]")
        })
        .unwrap()
        .unwrap();
        assert_eq!(
            spec.verdict(&json!({"path": "/p[1]/docs/a.md"}), Effect::Allow),
            Verdict::Match
        );
    }

    #[test]
    fn scalars_are_read_as_text() {
        let input = json!({"a": 1, "b": true, "c": [1], "d": ""});
        assert_eq!(scalar(&input, &["a"]).unwrap(), "1");
        assert_eq!(scalar(&input, &["b"]).unwrap(), "true");
        assert_eq!(
            scalar(&input, &["c"]).unwrap_err(),
            Why::NotScalar("c".into())
        );
        assert_eq!(
            scalar(&input, &["d", "e"]).unwrap_err(),
            Why::Missing("d".into())
        );
    }
}
