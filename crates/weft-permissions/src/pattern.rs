//! The tool-pattern grammar and compiled patterns.
//!
//! A pattern is one of:
//!
//! * an exact tool name, canonicalised (`Bash` ≡ `exec_shell`, `mcp__github__x` ≡ `github__x`);
//! * a `*` glob over tool names (`read_*`, `*`);
//! * an MCP pattern: `<server>__<tool>`, `<server>__*`, `mcp__<server>__<tool>`,
//!   `mcp__<server>__*`, `mcp__<server>` (every tool of the server), `mcp__*` (every MCP tool);
//! * a scoped pattern `Tool(specifier)` naming exactly one tool, checked against the call's
//!   input (see the `spec` module for the grammars); `Tool(*)` ≡ `Tool`.
//!
//! **MCP isolation (SEC-SKILL-08).** In an *allow*, a glob reaches an MCP tool only when it
//! names that server literally: `github__*`, `mcp__github__*`, `mcp__github`,
//! `mcp__github__create_*` grant GitHub tools, while `*`, `*__*`, `read_*` and `mcp__*` grant no
//! MCP tool at all. In a *deny* every pattern is read as broadly as it is written: `*` and
//! `mcp__*` remove every MCP tool too (Claude Code: "`mcp__*` in disallowedTools removes all MCP
//! tools"). Nothing escalates either way.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::name::{
    FxBuild, MCP_PREFIX, MCP_SEPARATOR, ToolName, aliases_of, canonical_tool_name, concat3,
    fx_hash, has_variable, mcp_parts, split_double_underscore, static_name,
};
use crate::spec::{Specifier, Verdict};
use crate::wildcard::Wildcard;
use crate::{PatternContext, PatternError, PatternErrorKind};

/// Whether a pattern grants calls or forbids them. Globs and uncheckable inputs are read
/// differently for each (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Effect {
    /// The pattern grants (an `allowed_tools` / `tools` entry).
    Allow,
    /// The pattern forbids (a `forbidden_tools` / `disallowedTools` entry).
    Deny,
}

/// How a pattern matches tool names.
#[derive(Debug, Clone)]
enum NameMatcher {
    /// One canonical name (the start of the key, see [`Inner::tool_len`]).
    Exact,
    /// A `*` glob over non-MCP names (and, in a deny, MCP names too).
    Glob(Wildcard),
    /// Tools of MCP servers.
    Mcp {
        server: ServerMatch,
        /// `None`: every tool of the server.
        tool: Option<Wildcard>,
    },
}

/// The server part of an MCP pattern.
#[derive(Debug, Clone)]
enum ServerMatch {
    /// Named literally: the pattern may grant. The server is this range of the key
    /// (`mcp__<server>__...`).
    Literal(std::ops::Range<usize>),
    /// A glob (`mcp__*`, `*__x`): only a deny reaches MCP tools with it.
    Glob(Wildcard),
}

/// A compiled tool pattern.
///
/// ```
/// use serde_json::json;
/// use weft_permissions::{Effect, ToolPattern};
///
/// let p = ToolPattern::parse("Bash(git:*)")?;
/// assert!(p.is_scoped());
/// assert_eq!(p.tool(), Some("exec_shell"));
/// assert!(p.matches("exec_shell", &json!({"command": "git status"}), Effect::Allow));
/// assert!(!p.matches("exec_shell", &json!({"command": "git status; rm -rf /"}), Effect::Allow));
///
/// let mcp = ToolPattern::parse("github__*")?;
/// assert!(mcp.matches_tool("mcp__github__create_issue", Effect::Allow));
/// assert!(!ToolPattern::parse("*")?.matches_tool("github__create_issue", Effect::Allow));
/// # Ok::<(), weft_permissions::PatternError>(())
/// ```
#[derive(Debug, Clone)]
pub struct ToolPattern(Arc<Inner>);

/// A string that is often one of the built-in names (then it needs no allocation).
#[derive(Debug)]
enum Text {
    Static(&'static str),
    Owned(String),
}

impl Text {
    fn new(text: &str) -> Self {
        static_name(text).map_or_else(|| Text::Owned(text.to_owned()), Text::Static)
    }

    fn from_string(text: String) -> Self {
        match static_name(&text) {
            Some(name) => Text::Static(name),
            None => Text::Owned(text),
        }
    }

    fn as_str(&self) -> &str {
        match self {
            Text::Static(s) => s,
            Text::Owned(s) => s,
        }
    }
}

/// The compiled pattern (shared: cloning a pattern is cheap).
#[derive(Debug)]
struct Inner {
    /// As written, trimmed.
    text: Text,
    /// Canonical form; for exact names it starts with the canonical tool name. `None` when it
    /// is the text.
    key: Option<Text>,
    /// `fx_hash(key)`, to compare keys quickly.
    key_hash: u64,
    /// For exact names, the length of the tool name at the start of `key`.
    tool_len: usize,
    /// For exact names, `fx_hash` of the tool name.
    tool_hash: Option<u64>,
    name: NameMatcher,
    spec: Option<Specifier>,
}

impl PartialEq for ToolPattern {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str() && self.key() == other.key()
    }
}

impl Eq for ToolPattern {}

impl fmt::Display for ToolPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Patterns compiled during one composition or validation, by text: a pattern several skills
/// share is compiled once. Texts with `${...}` depend on the skill and are never cached.
#[derive(Debug, Default)]
pub(crate) struct PatternCache<'t> {
    map: HashMap<&'t str, ToolPattern, FxBuild>,
    enabled: bool,
}

impl<'t> PatternCache<'t> {
    /// A cache with room for `n` patterns.
    pub(crate) fn with_capacity(n: usize) -> Self {
        Self {
            map: HashMap::with_capacity_and_hasher(n, FxBuild),
            enabled: true,
        }
    }

    /// No caching (one skill alone: nothing to share).
    pub(crate) fn disabled() -> Self {
        Self::default()
    }

    /// The compiled form of `text`.
    pub(crate) fn get(
        &mut self,
        text: &'t str,
        ctx: &PatternContext,
    ) -> Result<ToolPattern, PatternError> {
        if !self.enabled || has_variable(text) {
            return ToolPattern::parse_with(text, ctx);
        }
        if let Some(pattern) = self.map.get(text) {
            return Ok(pattern.clone());
        }
        let pattern = ToolPattern::parse_with(text, ctx)?;
        self.map.insert(text, pattern.clone());
        Ok(pattern)
    }
}

/// True when the parentheses of `spec` balance (quotes are skipped).
fn balanced(spec: &str) -> bool {
    let mut depth = 0usize;
    let mut quote = None;
    for c in spec.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '(') => depth += 1,
            (None, ')') => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return false,
            },
            (None, _) => {}
        }
    }
    depth == 0
}

impl ToolPattern {
    /// Parses and compiles `text` with no substitution values.
    pub fn parse(text: &str) -> Result<Self, PatternError> {
        Self::parse_with(text, &PatternContext::default())
    }

    /// Parses and compiles `text`, substituting the values of `ctx`.
    pub fn parse_with(text: &str, ctx: &PatternContext) -> Result<Self, PatternError> {
        Self::compile(text, ctx).map_err(|kind| PatternError {
            pattern: text.to_owned(),
            kind,
        })
    }

    fn compile(text: &str, ctx: &PatternContext) -> Result<Self, PatternErrorKind> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(PatternErrorKind::Empty);
        }
        let (name, spec) = match trimmed.find('(') {
            Some(open) => {
                let inner = trimmed[open + 1..]
                    .strip_suffix(')')
                    .ok_or(PatternErrorKind::Unbalanced)?;
                if !balanced(inner) {
                    return Err(PatternErrorKind::Unbalanced);
                }
                (&trimmed[..open], Some(inner))
            }
            None if trimmed.contains(')') => return Err(PatternErrorKind::Unbalanced),
            None => (trimmed, None),
        };
        if name.is_empty() {
            return Err(PatternErrorKind::Specifier(
                "the pattern names no tool".to_owned(),
            ));
        }
        if name.contains(char::is_whitespace) {
            return Err(PatternErrorKind::Whitespace);
        }
        let (matcher, name_key) = name_matcher(name)?;
        let spec = match spec {
            None => None,
            Some(spec) => {
                let NameMatcher::Exact = &matcher else {
                    return Err(PatternErrorKind::ScopedGlob);
                };
                Specifier::compile(&name_key, spec, ctx)?
            }
        };
        let tool_len = name_key.len();
        let tool_hash = matches!(matcher, NameMatcher::Exact).then(|| fx_hash(&name_key));
        let key = match &spec {
            Some(spec) => {
                let mut key = String::with_capacity(trimmed.len() + 8);
                key.push_str(&name_key);
                key.push('(');
                spec.write_key(&mut key);
                key.push(')');
                Cow::Owned(key)
            }
            None => name_key,
        };
        let key_hash = fx_hash(&key);
        let key = (key != trimmed).then(|| match key {
            Cow::Borrowed(key) => Text::new(key),
            Cow::Owned(key) => Text::from_string(key),
        });
        Ok(Self(Arc::new(Inner {
            text: Text::new(trimmed),
            key,
            key_hash,
            tool_len,
            tool_hash,
            name: matcher,
            spec,
        })))
    }

    /// The pattern as written (trimmed).
    pub fn as_str(&self) -> &str {
        self.0.text.as_str()
    }

    /// The pattern in canonical form: equal keys mean equal patterns (`Bash(git:*)` and
    /// `exec_shell(git *)` share one).
    pub fn key(&self) -> &str {
        self.0.key.as_ref().unwrap_or(&self.0.text).as_str()
    }

    /// A hash of [`tool`](Self::tool).
    pub(crate) fn tool_hash(&self) -> Option<u64> {
        self.0.tool_hash
    }

    /// A hash of [`key`](Self::key).
    pub(crate) fn key_hash(&self) -> u64 {
        self.0.key_hash
    }

    /// The one tool the pattern names (canonical), unless it is a glob or an MCP server pattern.
    pub fn tool(&self) -> Option<&str> {
        match &self.0.name {
            NameMatcher::Exact => Some(&self.key()[..self.0.tool_len]),
            _ => None,
        }
    }

    /// True for `Tool(specifier)` patterns that look at the call's input.
    pub fn is_scoped(&self) -> bool {
        self.0.spec.is_some()
    }

    /// True when the tool name matches, whatever the input (the specifier is ignored).
    pub fn matches_tool(&self, tool: &str, effect: Effect) -> bool {
        self.matches_name(&ToolName::new(tool), effect)
    }

    /// True when the pattern applies to a call of `tool` with `input`.
    ///
    /// For a scoped pattern, an input that cannot be judged (see the `spec` module) does not
    /// match an allow and does match a deny.
    pub fn matches(&self, tool: &str, input: &Value, effect: Effect) -> bool {
        self.matches_name(&ToolName::new(tool), effect) && self.applies_to_input(input, effect)
    }

    pub(crate) fn matches_name(&self, name: &ToolName<'_>, effect: Effect) -> bool {
        match &self.0.name {
            NameMatcher::Exact => self.key()[..self.0.tool_len] == *name.canonical,
            NameMatcher::Glob(glob) => match name.mcp {
                Some(_) => effect == Effect::Deny && glob.matches(name.canonical),
                None => {
                    glob.matches(name.canonical)
                        || aliases_of(name.canonical).iter().any(|a| glob.matches(a))
                }
            },
            NameMatcher::Mcp { server, tool } => match name.mcp {
                None => false,
                Some((s, t)) => {
                    let server_ok = match server {
                        ServerMatch::Literal(range) => self.key().get(range.clone()) == Some(s),
                        ServerMatch::Glob(glob) => effect == Effect::Deny && glob.matches(s),
                    };
                    server_ok && tool.as_ref().is_none_or(|w| w.matches(t))
                }
            },
        }
    }

    /// True when the input is within the specifier (always, for unscoped patterns).
    pub(crate) fn applies_to_input(&self, input: &Value, effect: Effect) -> bool {
        self.0
            .spec
            .as_ref()
            .is_none_or(|s| s.applies(input, effect))
    }

    /// True for a scoped pattern about paths (`Read(...)`, `Grep(...)`...).
    pub(crate) fn is_path_pattern(&self) -> bool {
        matches!(self.0.spec, Some(Specifier::Path(_)))
    }

    /// For a path pattern (`Read(...)`, `Grep(...)`...): whether the file `path` lies within
    /// it (see `PathSpec::covers_file`); a path it cannot judge lies within a deny and outside
    /// an allow. `None` for patterns that are not about paths.
    pub(crate) fn covers_file(&self, path: &str, effect: Effect) -> Option<bool> {
        match self.0.spec.as_ref()? {
            Specifier::Path(spec) => Some(match spec.covers_file(path) {
                Ok(covered) => covered,
                Err(_) => effect == Effect::Deny,
            }),
            _ => None,
        }
    }

    pub(crate) fn specifier(&self) -> Option<&Specifier> {
        self.0.spec.as_ref()
    }

    /// The verdict of the specifier (`Match` for unscoped patterns).
    pub(crate) fn verdict(&self, input: &Value, effect: Effect) -> Verdict {
        self.0
            .spec
            .as_ref()
            .map_or(Verdict::Match, |s| s.verdict(input, effect))
    }
}

/// The name matcher of `name` and its canonical key (for an exact name, the canonical name).
fn name_matcher(name: &str) -> Result<(NameMatcher, Cow<'_, str>), PatternErrorKind> {
    let mcp = match name.strip_prefix(MCP_PREFIX) {
        Some(rest) => Some(match split_double_underscore(rest) {
            Some((server, tool)) if !server.is_empty() && !tool.is_empty() => (server, Some(tool)),
            _ => (rest, None),
        }),
        None => mcp_parts(name).map(|(s, t)| (s, Some(t))),
    };
    let Some((server, tool)) = mcp else {
        let canonical = canonical_tool_name(name);
        return Ok(if Wildcard::has_wildcard(name) {
            (NameMatcher::Glob(Wildcard::new(name)), Cow::Borrowed(name))
        } else {
            (NameMatcher::Exact, Cow::Borrowed(canonical))
        });
    };
    if server.is_empty() || split_double_underscore(server).is_some() {
        return Err(PatternErrorKind::Specifier(
            "an MCP pattern needs a server name (`mcp__<server>__<tool>`)".to_owned(),
        ));
    }
    let tool = tool.filter(|t| *t != "*");
    let server_match = if Wildcard::has_wildcard(server) {
        ServerMatch::Glob(Wildcard::new(server))
    } else {
        if let Some(tool) = tool.filter(|t| !Wildcard::has_wildcard(t)) {
            return Ok((
                NameMatcher::Exact,
                Cow::Owned(concat3(server, MCP_SEPARATOR, tool)),
            ));
        }
        ServerMatch::Literal(MCP_PREFIX.len()..MCP_PREFIX.len() + server.len())
    };
    let tool_text = tool.unwrap_or("*");
    let mut key = String::with_capacity(
        MCP_PREFIX.len() + server.len() + MCP_SEPARATOR.len() + tool_text.len(),
    );
    key.push_str(MCP_PREFIX);
    key.push_str(server);
    key.push_str(MCP_SEPARATOR);
    key.push_str(tool_text);
    let key = Cow::Owned(key);
    Ok((
        NameMatcher::Mcp {
            server: server_match,
            tool: tool.map(Wildcard::new),
        },
        key,
    ))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn p(text: &str) -> ToolPattern {
        ToolPattern::parse(text).unwrap()
    }

    fn kind(text: &str) -> PatternErrorKind {
        ToolPattern::parse(text).unwrap_err().kind
    }

    #[test]
    fn exact_names_are_canonical() {
        assert!(p("Bash").matches_tool("exec_shell", Effect::Allow));
        assert!(p("exec_shell").matches_tool("Bash", Effect::Deny));
        assert!(p("Edit").matches_tool("MultiEdit", Effect::Allow));
        assert!(!p("write").matches_tool("write_file", Effect::Deny));
        assert!(!p("write").matches_tool("Write", Effect::Deny));
        assert!(p("write").matches_tool("write", Effect::Deny));
        assert!(!p("specKit").matches_tool("speckit", Effect::Allow));
        assert_eq!(p("Bash").key(), p("exec_shell").key());
    }

    #[test]
    fn globs_over_names() {
        assert!(p("read_*").matches_tool("read_file", Effect::Allow));
        assert!(p("*").matches_tool("specKit", Effect::Allow));
        assert!(p("Re*").matches_tool("read_file", Effect::Allow));
        assert!(!p("read_*").matches_tool("write_file", Effect::Allow));
    }

    #[test]
    fn globs_reach_mcp_tools_only_with_a_literal_server() {
        for allow in [
            "github__*",
            "mcp__github__*",
            "mcp__github",
            "mcp__github__create_*",
        ] {
            assert!(
                p(allow).matches_tool("github__create_issue", Effect::Allow),
                "{allow}"
            );
            assert!(
                p(allow).matches_tool("mcp__github__create_issue", Effect::Allow),
                "{allow}"
            );
            assert!(
                !p(allow).matches_tool("gitlab__create_issue", Effect::Allow),
                "{allow}"
            );
        }
        for glob in ["*", "*__*", "read_*", "mcp__*", "*__read_file", "git*__*"] {
            assert!(
                !p(glob).matches_tool("github__read_file", Effect::Allow),
                "{glob}"
            );
        }
        assert!(p("*").matches_tool("github__read_file", Effect::Deny));
        assert!(p("mcp__*").matches_tool("github__read_file", Effect::Deny));
        assert!(!p("mcp__*").matches_tool("read_file", Effect::Deny));
        assert!(p("mcp__x__*").matches_tool("x__y", Effect::Allow));
        assert!(!p("mcp__x__*").matches_tool("xx__y", Effect::Allow));
        assert!(!p("mcp__x__*").matches_tool("xx__y", Effect::Deny));
        assert_eq!(
            p("github__create_issue").tool(),
            Some("github__create_issue")
        );
        assert_eq!(
            p("mcp__github__create_issue").key(),
            p("github__create_issue").key()
        );
    }

    #[test]
    fn scoped_patterns() {
        let bash = p("Bash(git:*)");
        assert!(bash.matches("Bash", &json!({"command": "git log"}), Effect::Allow));
        assert!(!bash.matches("Bash", &json!({"command": "gitk"}), Effect::Allow));
        assert!(!bash.matches("Read", &json!({"command": "git log"}), Effect::Allow));
        assert!(!p("Bash(*)").is_scoped());
        assert_eq!(p("Bash(*)").key(), "exec_shell");
        assert_eq!(p("Bash(git:*)").key(), p("exec_shell(git *)").key());
        let fetch = p("WebFetch(domain:example.com)");
        assert!(fetch.matches(
            "web_fetch",
            &json!({"url": "https://api.example.com/x"}),
            Effect::Allow
        ));
        let mcp = p("mcp__github__create_issue(repo:weft/*)");
        assert!(mcp.matches(
            "github__create_issue",
            &json!({"repo": "weft/x"}),
            Effect::Allow
        ));
        assert!(p("Read(src/(a))").is_scoped());
    }

    #[test]
    fn malformed_patterns_are_rejected() {
        assert_eq!(kind(""), PatternErrorKind::Empty);
        assert_eq!(kind("   "), PatternErrorKind::Empty);
        assert_eq!(kind("Bash(git"), PatternErrorKind::Unbalanced);
        assert_eq!(kind("Bash)"), PatternErrorKind::Unbalanced);
        assert_eq!(kind("Bash(a))"), PatternErrorKind::Unbalanced);
        assert_eq!(kind("Bash(a)x"), PatternErrorKind::Unbalanced);
        assert_eq!(kind("Bash()"), PatternErrorKind::EmptySpecifier);
        assert_eq!(kind("Read Write"), PatternErrorKind::Whitespace);
        assert_eq!(kind("read_*(src/**)"), PatternErrorKind::ScopedGlob);
        assert_eq!(kind("github__*(repo:x)"), PatternErrorKind::ScopedGlob);
        assert!(matches!(kind("(x)"), PatternErrorKind::Specifier(_)));
        assert!(matches!(kind("mcp__"), PatternErrorKind::Specifier(_)));
        assert!(matches!(
            kind("WebFetch(example.com)"),
            PatternErrorKind::Specifier(_)
        ));
        assert!(matches!(
            kind("specKit(fast)"),
            PatternErrorKind::Specifier(_)
        ));
        assert_eq!(kind("Bash(echo 'x)"), PatternErrorKind::UnclosedQuote);
    }

    #[test]
    fn whitespace_around_is_trimmed() {
        assert_eq!(p("  Read ").as_str(), "Read");
        assert_eq!(p("Read").to_string(), "Read");
    }
}
