//! What SOURCE names: a directory, a git repository, or an archive (file or URL).

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::archive::ArchiveFormat;
use crate::error::InstallError;

/// Where skills come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A directory on this machine (absolute).
    Local(PathBuf),
    /// A git repository: `https://`, `ssh://`, `git@host:path`, `file://`.
    Git(String),
    /// A `.tar.gz` or `.zip` file on this machine (absolute).
    ArchiveFile(PathBuf, ArchiveFormat),
    /// A `.tar.gz` or `.zip` at an `https://` URL.
    ArchiveUrl(String, ArchiveFormat),
}

/// The kind of a source, as the lockfile records it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SourceKind {
    /// A directory.
    Local,
    /// A git repository.
    Git,
    /// An archive file or URL.
    Archive,
}

/// `owner/repo`: a GitHub repository.
fn is_github_shorthand(text: &str) -> bool {
    let ok = |part: &str| {
        !part.is_empty()
            && !part.starts_with('.')
            && part
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    };
    matches!(text.split_once('/'), Some((owner, repo)) if ok(owner) && ok(repo))
}

/// `user@host:path` (scp-like ssh).
fn is_scp_like(text: &str) -> bool {
    match text.split_once(':') {
        Some((left, right)) => {
            left.contains('@')
                && !left.contains('/')
                && !right.starts_with("//")
                && !right.is_empty()
        }
        None => false,
    }
}

impl Source {
    /// Reads SOURCE as the user typed it. Relative paths are taken from `base` (the current
    /// directory); a path that exists wins over the `owner/repo` shorthand.
    pub fn parse(text: &str, base: &Path) -> Result<Source, InstallError> {
        let text = text.trim();
        if let Some(path) = text.strip_prefix("file://") {
            return Ok(match ArchiveFormat::of_name(path) {
                Some(format) => Source::ArchiveFile(PathBuf::from(path), format),
                None => Source::Git(text.to_owned()),
            });
        }
        let lower = text.to_ascii_lowercase();
        if lower.starts_with("https://") || lower.starts_with("http://") {
            if lower.starts_with("http://") && !weft_types::net::is_local_url(text) {
                return Err(InstallError::BadSource(format!(
                    "{text}: plain HTTP can be changed on the way; use https://"
                )));
            }
            return Ok(match ArchiveFormat::of_name(text) {
                Some(format) => Source::ArchiveUrl(text.to_owned(), format),
                None => Source::Git(text.to_owned()),
            });
        }
        if lower.starts_with("ssh://") || is_scp_like(text) {
            return Ok(Source::Git(text.to_owned()));
        }
        if lower.starts_with("git://") {
            return Err(InstallError::BadSource(format!(
                "{text}: the git:// protocol is neither encrypted nor authenticated; use https:// or ssh"
            )));
        }
        let path = base.join(text);
        if let Ok(meta) = std::fs::metadata(&path) {
            // Canonical: `..` and links resolved, so the lockfile names the real place.
            let absolute = std::fs::canonicalize(&path)
                .or_else(|_| std::path::absolute(&path))
                .unwrap_or(path);
            if meta.is_dir() {
                return Ok(Source::Local(absolute));
            }
            return match ArchiveFormat::of_name(text) {
                Some(format) => Ok(Source::ArchiveFile(absolute, format)),
                None => Err(InstallError::BadSource(format!(
                    "{text} is a file but not a .tar.gz, .tgz or .zip archive"
                ))),
            };
        }
        if is_github_shorthand(text) {
            let repo = text.trim_end_matches(".git");
            return Ok(Source::Git(format!("https://github.com/{repo}.git")));
        }
        Err(InstallError::BadSource(format!(
            "{text}: no such directory or archive, and not a git URL or owner/repo"
        )))
    }

    /// The source a lock entry recorded, checked by the same rules as a typed SOURCE (a
    /// lockfile may come from someone else): `location` must parse to a source of `kind`.
    pub fn from_locked(kind: SourceKind, location: &str) -> Result<Source, InstallError> {
        if kind == SourceKind::Local && !Path::new(location).is_absolute() {
            return Err(InstallError::BadSource(format!(
                "{location}: a locked directory must be an absolute path"
            )));
        }
        let source = Source::parse(location, Path::new("/"))?;
        if source.kind() != kind {
            return Err(InstallError::BadSource(format!(
                "{location} is not a {kind:?} source, as the lockfile says"
            )));
        }
        Ok(source)
    }

    /// The kind, for the lockfile.
    pub fn kind(&self) -> SourceKind {
        match self {
            Source::Local(_) => SourceKind::Local,
            Source::Git(_) => SourceKind::Git,
            Source::ArchiveFile(..) | Source::ArchiveUrl(..) => SourceKind::Archive,
        }
    }

    /// The URL or absolute path, for the lockfile.
    pub fn location(&self) -> String {
        match self {
            Source::Local(p) | Source::ArchiveFile(p, _) => p.display().to_string(),
            Source::Git(u) | Source::ArchiveUrl(u, _) => u.clone(),
        }
    }

    /// A name for a skill at the root of the source: the directory, repository or archive
    /// name (used when the skill's file has no `name`).
    pub fn natural_name(&self) -> String {
        let location = self.location();
        let last = location
            .trim_end_matches('/')
            .rsplit(['/', ':'])
            .next()
            .unwrap_or("")
            .to_owned();
        let lower = last.to_ascii_lowercase();
        for suffix in [".git", ".tar.gz", ".tgz", ".zip"] {
            if lower.ends_with(suffix) {
                return last[..last.len() - suffix.len()].to_owned();
            }
        }
        last
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.location())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_kind() {
        let tmp = tempfile::tempdir().unwrap();
        let base = Path::new("/nonexistent-base");
        assert_eq!(
            Source::parse("acme/skills", base).unwrap(),
            Source::Git("https://github.com/acme/skills.git".into())
        );
        assert_eq!(
            Source::parse("git@github.com:acme/skills.git", base).unwrap(),
            Source::Git("git@github.com:acme/skills.git".into())
        );
        assert!(matches!(
            Source::parse("https://example.com/s.tar.gz?x=1", base).unwrap(),
            Source::ArchiveUrl(_, ArchiveFormat::TarGz)
        ));
        assert!(matches!(
            Source::parse("https://example.com/acme/skills", base).unwrap(),
            Source::Git(_)
        ));
        assert!(Source::parse("http://example.com/s.zip", base).is_err());
        assert!(Source::parse("http://127.0.0.1:8080/s.zip", base).is_ok());
        assert!(Source::parse("git://example.com/x", base).is_err());
        assert!(Source::parse("no such thing here", base).is_err());
        assert!(matches!(
            Source::parse(".", tmp.path()).unwrap(),
            Source::Local(_)
        ));
        assert_eq!(
            Source::Git("https://github.com/acme/pdf-tools.git".into()).natural_name(),
            "pdf-tools"
        );
    }
}
