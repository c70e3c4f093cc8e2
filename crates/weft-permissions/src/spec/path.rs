//! Path specifiers: `Read(src/**)`, `Edit(docs/*.md)`, `Grep(src/**)`, `Glob(src/**)`...
//!
//! A path glob (`globset`, `*` does not cross `/`, `**` crosses any number of directories) is
//! compared with the call's path after lexical normalisation: `./a/../b` is `b`, and a relative
//! path that climbs above its start (`src/../../etc/passwd`) cannot be judged (no allow matches
//! it, every deny does). Without a working directory, absolute paths are only comparable with
//! absolute patterns and relative with relative; with one (see
//! [`PatternContext::with_working_dir`](crate::PatternContext::with_working_dir)), both sides are
//! resolved against it first.
//!
//! File tools (`read_file`, `write_file`, `edit_file`) touch one path: the glob must match it.
//! Search tools (`grep`, `list_directory`, `glob`) read a whole directory (the current one when
//! the call names none): an allow must cover it with a `dir/**` pattern (or match it exactly),
//! and a deny applies when the search could reach anything the deny names.

use globset::{GlobBuilder, GlobMatcher};
use serde_json::Value;
use weft_types::tool_names;

use super::{Verdict, Why, scalar};
use crate::{Effect, PatternContext, PatternErrorKind};

/// The input fields holding the path, in order of preference.
pub(super) const KEYS: &[&str] = &["path", "file_path"];

/// Characters that make a path component a glob.
const GLOB_CHARS: &[char] = &['*', '?', '[', '{', '\\'];

/// How a tool uses its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PathTool {
    /// One file: `read_file`, `write_file`, `edit_file`.
    File,
    /// A directory (default `.`): `grep`, `list_directory`.
    Search,
    /// A directory plus a glob `pattern`: `glob`.
    GlobSearch,
}

/// A compiled path specifier.
#[derive(Debug, Clone)]
pub(crate) struct PathSpec {
    tool: PathTool,
    glob: GlobMatcher,
    /// The space the pattern lives in (always absolute when a working directory is known).
    absolute: bool,
    /// Literal components before the first glob component.
    prefix: Vec<String>,
    /// True when some component is a glob.
    has_glob: bool,
    /// True when the only wildcard in the pattern is `*` (and `**`).
    star_only: bool,
    /// For `dir/**`: `dir`'s components.
    dir: Option<Vec<String>>,
    /// The normalised absolute working directory, when known.
    working_dir: Option<Norm>,
    /// The normalised pattern.
    text: String,
}

/// A lexically normalised path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Norm {
    absolute: bool,
    parts: Vec<String>,
}

/// Why a path cannot be normalised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NormError {
    /// A relative path with more `..` than components.
    Climbs,
    /// `..` right after a glob component (`src/*/../x`): the result depends on the matches.
    PopsGlob,
}

impl Norm {
    /// Normalises `path`: `.` and empty components vanish, `..` removes the previous one (at
    /// the root of an absolute path it stays at the root).
    fn new(path: &str) -> Result<Self, NormError> {
        let absolute = path.starts_with('/');
        let mut parts: Vec<String> = Vec::new();
        for part in path.split('/') {
            match part {
                "" | "." => {}
                ".." => match parts.pop() {
                    Some(last) if last.contains(GLOB_CHARS) => return Err(NormError::PopsGlob),
                    Some(_) => {}
                    None if absolute => {}
                    None => return Err(NormError::Climbs),
                },
                _ => parts.push(part.to_owned()),
            }
        }
        Ok(Self { absolute, parts })
    }

    /// `self` joined with a relative path.
    fn join(&self, relative: &str) -> Result<Self, NormError> {
        let mut text = self.text();
        text.push('/');
        text.push_str(relative);
        Norm::new(&text)
    }

    /// The path as text (`.` for an empty relative path).
    fn text(&self) -> String {
        let joined = self.parts.join("/");
        match (self.absolute, joined.is_empty()) {
            (true, _) => format!("/{joined}"),
            (false, true) => ".".to_owned(),
            (false, false) => joined,
        }
    }

    /// The literal components before the first glob component.
    fn literal_prefix(&self) -> &[String] {
        let end = self
            .parts
            .iter()
            .position(|p| p.contains(GLOB_CHARS))
            .unwrap_or(self.parts.len());
        &self.parts[..end]
    }
}

/// The normalised form of an absolute directory; `None` for a relative one.
fn normalize_dir(dir: &str) -> Option<Norm> {
    Norm::new(dir).ok().filter(|n| n.absolute)
}

impl PathSpec {
    /// Compiles the path specifier of the canonical tool `tool` (variables already substituted).
    pub(crate) fn compile(
        tool: &str,
        spec: &str,
        ctx: &PatternContext,
    ) -> Result<Self, PatternErrorKind> {
        let kind = match tool {
            tool_names::GREP | tool_names::LIST_DIRECTORY => PathTool::Search,
            tool_names::GLOB => PathTool::GlobSearch,
            _ => PathTool::File,
        };
        let spec = spec.trim();
        let pattern_error = |e| match e {
            NormError::Climbs => PatternErrorKind::PathClimbs,
            NormError::PopsGlob => PatternErrorKind::Glob("`..` after a wildcard".to_owned()),
        };
        let mut norm = Norm::new(spec).map_err(pattern_error)?;
        let working_dir = ctx.working_dir().and_then(normalize_dir);
        if let Some(wd) = &working_dir
            && !norm.absolute
        {
            norm = wd.join(&norm.text()).map_err(pattern_error)?;
        }
        let text = norm.text();
        let glob = GlobBuilder::new(&text)
            .literal_separator(true)
            .build()
            .map_err(|e| PatternErrorKind::Glob(e.kind().to_string()))?
            .compile_matcher();
        let prefix = norm.literal_prefix().to_vec();
        let has_glob = prefix.len() < norm.parts.len();
        let dir = match norm.parts.split_last() {
            Some((last, rest)) if last == "**" && !rest.iter().any(|p| p.contains(GLOB_CHARS)) => {
                Some(rest.to_vec())
            }
            _ => None,
        };
        Ok(Self {
            tool: kind,
            glob,
            absolute: norm.absolute,
            prefix,
            has_glob,
            star_only: !text.contains(['?', '[', '{', '\\']),
            dir,
            working_dir,
            text,
        })
    }

    /// The normalised pattern, for de-duplication.
    pub(crate) fn write_key(&self, out: &mut String) {
        out.push_str(&self.text);
    }

    /// Normalises a path from the call into the pattern's space.
    fn resolve(&self, path: &str, glob_syntax: bool) -> Result<Norm, Why> {
        let result = match &self.working_dir {
            Some(wd) if !path.starts_with('/') => wd.join(path),
            _ => Norm::new(path),
        };
        let norm = result.map_err(|e| match (e, glob_syntax) {
            (NormError::PopsGlob, true) => Why::Unsearchable(path.to_owned()),
            _ => Why::Climbs(path.to_owned()),
        })?;
        if norm.absolute != self.absolute {
            return Err(Why::Anchor(path.to_owned()));
        }
        Ok(norm)
    }

    /// True when the pattern is `dir/**` and `dir` contains `parts` (or is it).
    fn covers(&self, parts: &[String]) -> bool {
        self.dir.as_ref().is_some_and(|dir| parts.starts_with(dir))
    }

    /// Whether the file at `path` (absolute, or relative to the working directory) lies within
    /// the pattern: the glob matches it or, for a search tool's pattern, it lies inside the
    /// directory the pattern names (`Grep(src)` covers `src/a.rs`).
    pub(crate) fn covers_file(&self, path: &str) -> Result<bool, Why> {
        let target = self.resolve(path, false)?;
        if self.glob.is_match(target.text()) {
            return Ok(true);
        }
        Ok(match self.tool {
            PathTool::File => false,
            PathTool::Search | PathTool::GlobSearch => {
                self.covers(&target.parts)
                    || (!self.has_glob && target.parts.starts_with(&self.prefix))
            }
        })
    }

    /// Compares the call's path with the pattern.
    pub(crate) fn verdict(&self, input: &Value, effect: Effect) -> Verdict {
        match self.judge(input, effect) {
            Ok(true) => Verdict::Match,
            Ok(false) => Verdict::NoMatch,
            Err(why) => Verdict::Unjudgeable(why),
        }
    }

    fn judge(&self, input: &Value, effect: Effect) -> Result<bool, Why> {
        let root = match (scalar(input, KEYS), self.tool) {
            (Ok(path), _) => path,
            (Err(Why::Missing(_)), PathTool::Search | PathTool::GlobSearch) => ".".into(),
            (Err(why), _) => return Err(why),
        };
        let target = match self.tool {
            PathTool::File | PathTool::Search => self.resolve(&root, false)?,
            PathTool::GlobSearch => {
                let pattern = scalar(input, &["pattern"])?;
                if pattern.contains(['[', ']', '{', '}', '\\']) {
                    return Err(Why::Unsearchable(pattern.into_owned()));
                }
                if pattern.starts_with('/') {
                    self.resolve(&pattern, true)?
                } else {
                    self.resolve(&format!("{root}/{pattern}"), true)?
                }
            }
        };
        let text = target.text();
        // Only a `glob` pattern has wildcards; other paths are literal, whatever they contain.
        let literal = match self.tool {
            PathTool::GlobSearch => target.literal_prefix(),
            _ => &target.parts,
        };
        let searches = literal.len() < target.parts.len();
        // A target with wildcards (a `glob` search) is compared as text only under the
        // conditions below: `src/*` must not admit the search `src/**`.
        if (!searches || effect == Effect::Deny) && self.glob.is_match(&text) {
            return Ok(true);
        }
        Ok(match (self.tool, effect) {
            (PathTool::File, _) => false,
            (_, Effect::Allow) if !searches => self.covers(&target.parts),
            (_, Effect::Allow) => {
                self.covers(literal)
                    || (self.star_only
                        && !text.contains('?')
                        && !target.parts.iter().any(|p| p == "**")
                        && self.glob.is_match(&text))
            }
            (_, Effect::Deny) => {
                self.prefix.starts_with(literal)
                    || (self.has_glob && literal.starts_with(&self.prefix))
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn spec(tool: &str, text: &str) -> PathSpec {
        PathSpec::compile(tool, text, &PatternContext::new()).unwrap()
    }

    fn allow(tool: &str, pattern: &str, input: Value) -> Verdict {
        spec(tool, pattern).verdict(&input, Effect::Allow)
    }

    fn deny(tool: &str, pattern: &str, input: Value) -> Verdict {
        spec(tool, pattern).verdict(&input, Effect::Deny)
    }

    #[test]
    fn normalisation() {
        assert_eq!(Norm::new("./a/../b").unwrap().text(), "b");
        assert_eq!(Norm::new("a//b/.").unwrap().text(), "a/b");
        assert_eq!(Norm::new("/../etc").unwrap().text(), "/etc");
        assert_eq!(Norm::new(".").unwrap().text(), ".");
        assert_eq!(Norm::new("src/../../etc"), Err(NormError::Climbs));
        assert_eq!(Norm::new("src/*/../x"), Err(NormError::PopsGlob));
    }

    #[test]
    fn file_tools_match_the_normalised_path() {
        assert_eq!(
            allow("read_file", "src/**", json!({"path": "src/a/b.rs"})),
            Verdict::Match
        );
        assert_eq!(
            allow(
                "read_file",
                "./src/**",
                json!({"file_path": "./src/x/../y.rs"})
            ),
            Verdict::Match
        );
        assert_eq!(
            allow("read_file", "src/**", json!({"path": "docs/a.md"})),
            Verdict::NoMatch
        );
        assert_eq!(
            allow("edit_file", "docs/*.md", json!({"path": "docs/a.md"})),
            Verdict::Match
        );
        assert_eq!(
            allow("edit_file", "docs/*.md", json!({"path": "docs/x/a.md"})),
            Verdict::NoMatch
        );
        assert_eq!(
            allow(
                "read_file",
                "src/**",
                json!({"path": "src/../../etc/passwd"})
            ),
            Verdict::Unjudgeable(Why::Climbs("src/../../etc/passwd".into()))
        );
        assert_eq!(
            deny(
                "read_file",
                "src/**",
                json!({"path": "src/../../etc/passwd"})
            ),
            Verdict::Unjudgeable(Why::Climbs("src/../../etc/passwd".into()))
        );
        assert_eq!(
            allow("read_file", "src/**", json!({})),
            Verdict::Unjudgeable(Why::Missing("path".into()))
        );
    }

    #[test]
    fn absolute_paths_only_meet_absolute_patterns() {
        assert!(matches!(
            allow("read_file", "src/**", json!({"path": "/src/a"})),
            Verdict::Unjudgeable(Why::Anchor(_))
        ));
        assert_eq!(
            allow("read_file", "/etc/*", json!({"path": "/etc/hosts"})),
            Verdict::Match
        );
        assert_eq!(
            allow("read_file", "//etc/*", json!({"path": "/etc/hosts"})),
            Verdict::Match
        );
    }

    #[test]
    fn working_directory_resolves_both_sides() {
        let ctx = PatternContext::new().with_working_dir("/home/u/proj");
        let s = PathSpec::compile("read_file", "src/**", &ctx).unwrap();
        assert_eq!(
            s.verdict(&json!({"path": "/home/u/proj/src/a.rs"}), Effect::Allow),
            Verdict::Match
        );
        assert_eq!(
            s.verdict(&json!({"path": "src/a.rs"}), Effect::Allow),
            Verdict::Match
        );
        assert_eq!(
            s.verdict(&json!({"path": "src/../../x"}), Effect::Allow),
            Verdict::NoMatch
        );
        assert_eq!(
            s.verdict(&json!({"path": "/etc/passwd"}), Effect::Deny),
            Verdict::NoMatch
        );
    }

    #[test]
    fn search_tools_need_a_covering_directory() {
        assert_eq!(
            allow("grep", "src/**", json!({"path": "src"})),
            Verdict::Match
        );
        assert_eq!(
            allow("grep", "src/**", json!({"path": "src/a"})),
            Verdict::Match
        );
        assert_eq!(
            allow("grep", "src/**", json!({"pattern": "TODO"})),
            Verdict::NoMatch
        );
        assert_eq!(
            allow("grep", "**", json!({"pattern": "TODO"})),
            Verdict::Match
        );
        assert_eq!(
            allow("list_directory", "src/**", json!({"path": "."})),
            Verdict::NoMatch
        );
        assert_eq!(
            allow("list_directory", "docs", json!({"path": "docs"})),
            Verdict::Match
        );
    }

    #[test]
    fn search_denies_reach_into_the_tree() {
        assert_eq!(
            deny("grep", "secrets/**", json!({"pattern": "x"})),
            Verdict::Match
        );
        assert_eq!(
            deny("grep", "secrets/**", json!({"path": "src"})),
            Verdict::NoMatch
        );
        assert_eq!(
            deny("grep", "secrets/key", json!({"path": "secrets"})),
            Verdict::Match
        );
        assert_eq!(
            deny("list_directory", "**/*.pem", json!({"path": "src"})),
            Verdict::Match
        );
        assert_eq!(
            deny("glob", "secrets/**", json!({"pattern": "**/*.pem"})),
            Verdict::Match
        );
        assert_eq!(
            deny("glob", "secrets/**", json!({"pattern": "src/**"})),
            Verdict::NoMatch
        );
    }

    #[test]
    fn glob_searches() {
        let g = |pattern: &str, input: Value| allow("glob", pattern, input);
        assert_eq!(
            g("src/**", json!({"pattern": "src/**/*.rs"})),
            Verdict::Match
        );
        assert_eq!(
            g("src/**", json!({"path": "src", "pattern": "**/*.rs"})),
            Verdict::Match
        );
        assert_eq!(g("src/**", json!({"pattern": "**/*.rs"})), Verdict::NoMatch);
        assert_eq!(
            g("src/*.rs", json!({"pattern": "src/*.rs"})),
            Verdict::Match
        );
        assert_eq!(g("src/*", json!({"pattern": "src/**"})), Verdict::NoMatch);
        assert_eq!(g("src/a*", json!({"pattern": "src/*"})), Verdict::NoMatch);
        assert!(matches!(
            g("src/**", json!({"pattern": "src/{a,../../etc}/x"})),
            Verdict::Unjudgeable(Why::Unsearchable(_))
        ));
        assert!(matches!(
            g("src/**", json!({"pattern": "src/*/../../../etc/*"})),
            Verdict::Unjudgeable(Why::Unsearchable(_))
        ));
        assert!(matches!(
            g("src/**", json!({"path": "src", "pattern": "../../*"})),
            Verdict::Unjudgeable(Why::Climbs(_))
        ));
    }

    #[test]
    fn malformed_path_patterns() {
        let ctx = PatternContext::new();
        assert_eq!(
            PathSpec::compile("read_file", "../x", &ctx).unwrap_err(),
            PatternErrorKind::PathClimbs
        );
        assert!(matches!(
            PathSpec::compile("read_file", "src/[", &ctx).unwrap_err(),
            PatternErrorKind::Glob(_)
        ));
    }
}
