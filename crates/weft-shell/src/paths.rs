//! Where a command runs, and whether a path it names stays inside the project.
//!
//! Paths are compared as written (`.` and `..` resolved lexically): the library never touches
//! the file system, so a symlink inside the project that points elsewhere is the sandbox's
//! business, not the analyser's.

use std::sync::Arc;

use super::dialect::Dialect;
use super::word::Word;

/// The files commands may not read, as the caller's permission rules say (`Read(.env)`
/// denied): a test of normalised absolute paths inside the project. A command that names
/// one (`cat .env`, `head < .env`) is then judged as reading outside the project, so it is
/// never run without asking as a read-only command. Only the path as written is judged (a
/// recursive search of a directory holding such a file is not), as the rest of the analysis.
///
/// ```
/// use weft_shell::{ShellContext, UnreadablePaths, analyse_command};
///
/// let ctx = ShellContext::new()
///     .with_project_root("/p")
///     .with_unreadable(UnreadablePaths::new(|path| path.ends_with("/.env")));
/// assert!(analyse_command("cat README.md", &ctx).read_only_verdict().is_read_only());
/// assert!(!analyse_command("cat .env", &ctx).read_only_verdict().is_read_only());
/// assert!(!analyse_command("head -5 < sub/.env", &ctx).read_only_verdict().is_read_only());
/// ```
#[derive(Clone)]
pub struct UnreadablePaths(Arc<dyn Fn(&str) -> bool + Send + Sync>);

impl UnreadablePaths {
    /// The paths for which `test` is true.
    pub fn new(test: impl Fn(&str) -> bool + Send + Sync + 'static) -> Self {
        Self(Arc::new(test))
    }

    /// True when `path` (absolute, normalised) may not be read.
    pub fn contains(&self, path: &str) -> bool {
        (self.0)(path)
    }
}

impl PartialEq for UnreadablePaths {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for UnreadablePaths {}

impl std::fmt::Debug for UnreadablePaths {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("UnreadablePaths(..)")
    }
}

/// What the analysis knows about where a command runs: the project, the working directory,
/// and the [`Dialect`] of the shell that runs it ([`Dialect::Posix`] unless said).
///
/// ```
/// use weft_shell::{ShellContext, analyse_command};
///
/// let ctx = ShellContext::new().with_project_root("/work/proj");
/// assert!(analyse_command("cargo test > /work/proj/log.txt", &ctx).risks().is_empty());
/// assert_eq!(
///     analyse_command("cargo test > /etc/log.txt", &ctx).risks()[0].reason(),
///     "`> /etc/log.txt` writes outside the project",
/// );
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShellContext {
    project_root: Option<String>,
    cwd: Option<String>,
    dialect: Dialect,
    unreadable: Option<UnreadablePaths>,
}

impl ShellContext {
    /// Nothing known: relative paths that do not climb are inside the project, absolute paths
    /// are outside.
    pub fn new() -> Self {
        Self::default()
    }

    /// The project root (absolute; a relative root is ignored).
    pub fn with_project_root(mut self, root: impl Into<String>) -> Self {
        let root = root.into();
        if root.starts_with('/') {
            self.project_root = Some(root);
        }
        self
    }

    /// The directory the command runs in: absolute, or relative to the project root.
    pub fn with_cwd(mut self, cwd: impl Into<String>) -> Self {
        self.cwd = Some(cwd.into());
        self
    }

    /// The language of the shell that runs the command.
    pub fn with_dialect(mut self, dialect: Dialect) -> Self {
        self.dialect = dialect;
        self
    }

    /// The files commands may not read (replacing any set before; `None`: no such rule).
    pub fn with_unreadable(mut self, unreadable: impl Into<Option<UnreadablePaths>>) -> Self {
        self.unreadable = unreadable.into();
        self
    }

    /// The files commands may not read, if any rule says so.
    pub fn unreadable(&self) -> Option<&UnreadablePaths> {
        self.unreadable.as_ref()
    }

    /// The language commands are read in.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The project root, if known.
    pub fn project_root(&self) -> Option<&str> {
        self.project_root.as_deref()
    }

    /// The working directory, if known.
    pub fn cwd(&self) -> Option<&str> {
        self.cwd.as_deref()
    }

    /// The components of the working directory below the project root; `None` when it is
    /// outside the project.
    fn base(&self) -> Option<Vec<&str>> {
        match &self.cwd {
            None => Some(Vec::new()),
            Some(cwd) => self.components_in_project(cwd),
        }
    }

    fn components_in_project<'a>(&'a self, path: &'a str) -> Option<Vec<&'a str>> {
        if path.starts_with('/') {
            let root = normalise(Vec::new(), self.project_root.as_deref()?)?;
            let full = normalise(Vec::new(), path)?;
            return full.starts_with(&root).then(|| full[root.len()..].to_vec());
        }
        normalise(Vec::new(), path)
    }
}

/// Where a path is, for the analyser.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    /// Inside the project.
    Inside,
    /// `/dev/null`, `-` and the like.
    Special,
    /// Outside the project, or unknown; which way (its display completes "`x` ...").
    Outside(Outside),
}

/// How a path is outside the project (or cannot be known to be inside).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outside {
    /// `~/...`.
    Home,
    /// It has an expansion the analyser cannot read.
    NotLiteral,
    /// An absolute path outside the project.
    Beyond,
    /// A relative path while the working directory is outside the project.
    RelativeElsewhere,
    /// A relative path whose `..` leave the project.
    ClimbsOut,
    /// A path inside the project the permission rules forbid reading ([`UnreadablePaths`]).
    Unreadable,
}

impl std::fmt::Display for Outside {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Outside::Home => "is in a home directory",
            Outside::NotLiteral => "is not literal",
            Outside::Beyond => "is outside the project",
            Outside::RelativeElsewhere => "is relative to a directory outside the project",
            Outside::ClimbsOut => "climbs out of the project",
            Outside::Unreadable => "is a file the permission rules forbid reading",
        })
    }
}

/// Device files any command may use.
const SPECIAL: &[&str] = &[
    "/dev/null",
    "/dev/stdin",
    "/dev/stdout",
    "/dev/stderr",
    "/dev/tty",
    "-",
];

/// Where `word`, a path, is.
pub(crate) fn place(word: &Word, ctx: &ShellContext) -> Place {
    let text = word.text();
    if text.starts_with('~') {
        return Place::Outside(Outside::Home);
    }
    if !word.is_literal() && !is_plain_glob(word) {
        return Place::Outside(Outside::NotLiteral);
    }
    if SPECIAL.contains(&text)
        || text
            .strip_prefix("/dev/fd/")
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    {
        return Place::Special;
    }
    if text.starts_with('/') {
        return match ctx.components_in_project(text) {
            Some(parts) => inside(&parts, ctx),
            None => Place::Outside(Outside::Beyond),
        };
    }
    let Some(base) = ctx.base() else {
        return Place::Outside(Outside::RelativeElsewhere);
    };
    match normalise(base, text) {
        Some(parts) => inside(&parts, ctx),
        None => Place::Outside(Outside::ClimbsOut),
    }
}

/// A path inside the project, at `parts` below its root: [`Place::Inside`] unless the rules
/// forbid reading it ([`ShellContext::with_unreadable`]).
fn inside(parts: &[&str], ctx: &ShellContext) -> Place {
    let (Some(unreadable), Some(root)) = (&ctx.unreadable, ctx.project_root.as_deref()) else {
        return Place::Inside;
    };
    let mut path = String::new();
    for part in normalise(Vec::new(), root)
        .unwrap_or_default()
        .iter()
        .chain(parts)
    {
        path.push('/');
        path.push_str(part);
    }
    if path.is_empty() {
        path.push('/');
    }
    if unreadable.contains(&path) {
        Place::Outside(Outside::Unreadable)
    } else {
        Place::Inside
    }
}

/// The components of `word`, a path, below the project root (empty: the root itself);
/// `None` when it is not literal, in a home directory, or outside the project.
pub(crate) fn project_path<'a>(word: &'a Word, ctx: &'a ShellContext) -> Option<Vec<&'a str>> {
    let text = word.text();
    if !(word.is_literal() || is_plain_glob(word)) || text.starts_with('~') {
        return None;
    }
    if text.starts_with('/') {
        return ctx.components_in_project(text);
    }
    normalise(ctx.base()?, text)
}

/// True for a word that is not literal only because of glob characters (`src/*.rs`,
/// `[ab].txt`), none of whose names climbs (`..`) or is a hidden name matched by a pattern
/// (`.*` matches `..` in dash): it names paths where its text, read as a path, is.
pub(crate) fn is_plain_glob(word: &Word) -> bool {
    let text = word.text();
    !text.contains(['$', '`', '{', '}', '~', '\\'])
        && text.contains(['*', '?', '['])
        && text
            .split('/')
            .all(|part| part != ".." && !(part.starts_with('.') && part.contains(['*', '?', '['])))
}

/// `base` + the components of `path` with `.` and `..` resolved; `None` when `..` climbs
/// above `base`'s start.
fn normalise<'a>(mut out: Vec<&'a str>, path: &'a str) -> Option<Vec<&'a str>> {
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                out.pop()?;
            }
            other => out.push(other),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(path: &str, ctx: &ShellContext) -> Place {
        place(&Word::literal(path), ctx)
    }

    #[test]
    fn places() {
        let none = ShellContext::new();
        assert_eq!(at("src/a.rs", &none), Place::Inside);
        assert_eq!(at("./a/../b", &none), Place::Inside);
        assert_eq!(at("../x", &none), Place::Outside(Outside::ClimbsOut));
        assert_eq!(at("a/../../x", &none), Place::Outside(Outside::ClimbsOut));
        assert_eq!(at("/etc/passwd", &none), Place::Outside(Outside::Beyond));
        assert_eq!(at("/dev/null", &none), Place::Special);
        assert_eq!(at("/dev/fd/3", &none), Place::Special);
        assert_eq!(at("/dev/sda", &none), Place::Outside(Outside::Beyond));
        let root = ShellContext::new().with_project_root("/p/proj");
        assert_eq!(at("/p/proj/x", &root), Place::Inside);
        assert_eq!(at("/p/proj/../x", &root), Place::Outside(Outside::Beyond));
        assert_eq!(at("/p/projx", &root), Place::Outside(Outside::Beyond));
        let sub = root.clone().with_cwd("sub");
        assert_eq!(at("../x", &sub), Place::Inside);
        assert_eq!(at("../../x", &sub), Place::Outside(Outside::ClimbsOut));
        let away = root.with_cwd("/tmp");
        assert_eq!(at("x", &away), Place::Outside(Outside::RelativeElsewhere));
        assert_eq!(
            place(&Word::placeholder("$F"), &none),
            Place::Outside(Outside::NotLiteral)
        );
    }
}
