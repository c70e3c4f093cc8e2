//! A package tree in memory, built entry by entry with every safety rule checked on the way
//! in: relative paths without `..`, caps on size and count, no entry below a file or link,
//! and (when finished) symbolic links that resolve to an entry inside the tree.

use std::collections::{BTreeMap, BTreeSet};

use weft_scan::{FileContent, Package, PackageFile};

use crate::error::InstallError;

/// How large a package may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// All files together.
    pub max_total_bytes: u64,
    /// Entries (files and links).
    pub max_files: usize,
    /// One file.
    pub max_file_bytes: u64,
    /// Directory levels.
    pub max_depth: usize,
}

impl Default for Limits {
    /// 50 MB in at most 2,000 entries, 10 MB a file, 32 levels.
    fn default() -> Self {
        Limits {
            max_total_bytes: 50 * 1024 * 1024,
            max_files: 2000,
            max_file_bytes: 10 * 1024 * 1024,
            max_depth: 32,
        }
    }
}

/// Checks an entry name from a package and returns it normalised (`a/./b/` → `a/b`).
///
/// Refused: empty names, absolute paths, `..`, backslashes, drive prefixes (`C:`), NUL and
/// other control characters, and more than `max_depth` levels.
pub fn normalize_entry_path(raw: &str, max_depth: usize) -> Result<String, InstallError> {
    let refuse = |reason: &str| Err(InstallError::unsafe_entry(raw, reason));
    if raw.starts_with('/') {
        return refuse("absolute path");
    }
    if raw.contains('\\') {
        return refuse("backslash in a path");
    }
    if raw.chars().any(char::is_control) {
        return refuse("control character in a path");
    }
    let mut parts = Vec::new();
    for part in raw.split('/') {
        match part {
            "" | "." => {}
            ".." => return refuse("`..` leaves the package"),
            p if p.len() >= 2 && p.as_bytes()[1] == b':' && parts.is_empty() => {
                return refuse("drive prefix");
            }
            p => parts.push(p),
        }
    }
    if parts.is_empty() {
        return refuse("empty path");
    }
    if parts.len() > max_depth {
        return refuse("nested too deep");
    }
    Ok(parts.join("/"))
}

/// Collects entries under the limits.
#[derive(Debug)]
pub struct TreeBuilder {
    limits: Limits,
    entries: BTreeMap<String, FileContent>,
    total: u64,
    lenient: bool,
}

impl TreeBuilder {
    /// An empty tree with these limits, for installing: links must stay inside and special
    /// files are refused.
    pub fn new(limits: Limits) -> Self {
        TreeBuilder {
            limits,
            entries: BTreeMap::new(),
            total: 0,
            lenient: false,
        }
    }

    /// An empty tree for scanning: links leaving the tree and special files are recorded
    /// (the scanner reports them) instead of refused.
    pub fn for_scan(limits: Limits) -> Self {
        TreeBuilder {
            lenient: true,
            ..TreeBuilder::new(limits)
        }
    }

    /// True for a tree built for scanning (see [`for_scan`](Self::for_scan)).
    pub fn is_lenient(&self) -> bool {
        self.lenient
    }

    /// An entry an install refuses (a path leaving the package, a hard link, a name that is
    /// not UTF-8): an error, or, in a tree for scanning, recorded under its name as given
    /// ([`FileContent::Unsafe`]) for the scanner to report.
    pub fn refuse(
        &mut self,
        raw_path: &str,
        reason: impl Into<String>,
    ) -> Result<(), InstallError> {
        let reason = reason.into();
        if !self.lenient {
            return Err(InstallError::unsafe_entry(raw_path, reason));
        }
        self.check_count()?;
        self.entries
            .insert(raw_path.to_owned(), FileContent::Unsafe { reason });
        Ok(())
    }

    /// The entry's normalised path; `None` when it is refused and recorded (scanning).
    fn entry_path(&mut self, raw_path: &str) -> Result<Option<String>, InstallError> {
        match normalize_entry_path(raw_path, self.limits.max_depth) {
            Ok(path) => Ok(Some(path)),
            Err(InstallError::Unsafe { reason, .. }) if self.lenient => {
                self.refuse(raw_path, reason)?;
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// Records a FIFO, socket or device: refused unless the tree is for scanning.
    pub fn add_special(&mut self, raw_path: &str, kind: &str) -> Result<(), InstallError> {
        let Some(path) = self.entry_path(raw_path)? else {
            return Ok(());
        };
        if !self.lenient {
            return Err(InstallError::unsafe_entry(
                path,
                format!("a {kind} is not a file a skill can ship"),
            ));
        }
        self.check_count()?;
        self.insert(
            path,
            FileContent::Special {
                kind: kind.to_owned(),
            },
        )
    }

    /// The limits.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    fn check_count(&self) -> Result<(), InstallError> {
        if self.entries.len() >= self.limits.max_files {
            return Err(InstallError::TooLarge(format!(
                "more than {} files",
                self.limits.max_files
            )));
        }
        Ok(())
    }

    /// Room left for file bytes: the smaller of the per-file and the total allowance.
    pub fn room(&self) -> u64 {
        self.limits
            .max_file_bytes
            .min(self.limits.max_total_bytes.saturating_sub(self.total))
    }

    /// Adds a regular file. `bytes` longer than [`room`](Self::room) are refused (readers
    /// read at most `room() + 1` bytes, so an oversized file is caught without reading it
    /// all).
    pub fn add_file(
        &mut self,
        raw_path: &str,
        bytes: Vec<u8>,
        executable: bool,
    ) -> Result<(), InstallError> {
        let Some(path) = self.entry_path(raw_path)? else {
            return Ok(());
        };
        self.check_count()?;
        let len = bytes.len() as u64;
        if len > self.limits.max_file_bytes {
            return Err(InstallError::TooLarge(format!(
                "{path} is larger than {} bytes",
                self.limits.max_file_bytes
            )));
        }
        if self.total + len > self.limits.max_total_bytes {
            return Err(InstallError::TooLarge(format!(
                "the package is larger than {} bytes",
                self.limits.max_total_bytes
            )));
        }
        self.total += len;
        self.insert(path, FileContent::Regular { bytes, executable })
    }

    /// Adds a symbolic link (checked when the tree is finished).
    pub fn add_symlink(&mut self, raw_path: &str, target: &str) -> Result<(), InstallError> {
        let Some(path) = self.entry_path(raw_path)? else {
            return Ok(());
        };
        self.check_count()?;
        self.insert(
            path,
            FileContent::Symlink {
                target: target.to_owned(),
                inside: false,
            },
        )
    }

    fn insert(&mut self, path: String, content: FileContent) -> Result<(), InstallError> {
        if self.entries.contains_key(&path) {
            // Which copy an extractor keeps depends on the extractor: one may hide the other.
            return self.refuse(&path, "the package names it twice");
        }
        self.entries.insert(path, content);
        Ok(())
    }

    /// The finished package: every entry below another file or link, and every link that
    /// does not resolve inside the tree, is refused.
    pub fn finish(self) -> Result<Package, InstallError> {
        let lenient = self.lenient;
        let files = self
            .entries
            .into_iter()
            .map(|(path, content)| PackageFile { path, content })
            .collect();
        mark_links(Package::new(files), !lenient)
    }
}

/// Marks each link of `package` as inside or not; with `strict`, refuses the package when an
/// entry sits below a file or link, or a link leaves the package, dangles or loops.
pub fn check_links(package: Package, strict: bool) -> Result<Package, InstallError> {
    mark_links(package, strict)
}

/// Marks each link as inside or not; with `strict`, refuses the package instead when an
/// entry sits below a file or link, or a link leaves the package, dangles or loops.
fn mark_links(package: Package, strict: bool) -> Result<Package, InstallError> {
    let entries: BTreeMap<&str, &FileContent> = package
        .files()
        .iter()
        .map(|f| (f.path.as_str(), &f.content))
        .collect();
    let mut dirs: BTreeSet<&str> = BTreeSet::new();
    for path in entries.keys() {
        let mut rest = *path;
        while let Some((parent, _)) = rest.rsplit_once('/') {
            if strict && entries.contains_key(parent) {
                return Err(InstallError::unsafe_entry(
                    *path,
                    format!("inside `{parent}`, which is a file or a link"),
                ));
            }
            dirs.insert(parent);
            rest = parent;
        }
    }
    let mut outside: BTreeSet<String> = BTreeSet::new();
    for (path, content) in &entries {
        if let FileContent::Symlink { target, .. } = content
            && resolve(&entries, &dirs, path, target, 40).is_none()
        {
            if strict {
                return Err(InstallError::unsafe_entry(
                    *path,
                    format!(
                        "symbolic link to `{target}` does not resolve to a file inside the package"
                    ),
                ));
            }
            outside.insert((*path).to_owned());
        }
    }
    let files = package
        .into_files()
        .into_iter()
        .map(|mut f| {
            if let FileContent::Symlink { inside, .. } = &mut f.content {
                *inside = !outside.contains(&f.path);
            }
            f
        })
        .collect();
    Ok(Package::new(files))
}

/// Where link `link` (whose text is `target`) leads, following links inside the tree; `None`
/// when it leaves the tree, does not exist or loops. Every `..` is checked against the real
/// directory reached so far, so a link through another link cannot climb out.
fn resolve(
    entries: &BTreeMap<&str, &FileContent>,
    dirs: &BTreeSet<&str>,
    link: &str,
    target: &str,
    hops: usize,
) -> Option<String> {
    if target.starts_with('/') || target.contains('\\') || hops == 0 {
        return None;
    }
    let mut stack: Vec<String> = link.split('/').map(str::to_owned).collect();
    stack.pop();
    for part in target.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                stack.pop()?;
            }
            name => {
                stack.push(name.to_owned());
                let here = stack.join("/");
                if let Some(FileContent::Symlink { target, .. }) = entries.get(here.as_str()) {
                    let real = resolve(entries, dirs, &here, target, hops - 1)?;
                    stack = if real.is_empty() {
                        Vec::new()
                    } else {
                        real.split('/').map(str::to_owned).collect()
                    };
                }
            }
        }
    }
    let here = stack.join("/");
    (here.is_empty() || entries.contains_key(here.as_str()) || dirs.contains(here.as_str()))
        .then_some(here)
}

/// The entries under directory `prefix` (`""` = all), re-rooted there, with links checked
/// again against the smaller tree (refused when `strict`, marked otherwise).
pub fn subtree(package: &Package, prefix: &str, strict: bool) -> Result<Package, InstallError> {
    if prefix.is_empty() {
        return mark_links(package.clone(), strict);
    }
    let lead = format!("{prefix}/");
    // Files are sorted by path, so the ones under `prefix/` are one run.
    let all = package.files();
    let start = all.partition_point(|f| f.path.as_str() < lead.as_str());
    let files = all[start..]
        .iter()
        .take_while(|f| f.path.starts_with(&lead))
        .filter_map(|f| {
            f.path.strip_prefix(&lead).map(|rest| PackageFile {
                path: rest.to_owned(),
                content: f.content.clone(),
            })
        })
        .collect();
    mark_links(Package::new(files), strict)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(entries: &[(&str, Option<&str>)]) -> Result<Package, InstallError> {
        let mut b = TreeBuilder::new(Limits::default());
        for (path, link) in entries {
            match link {
                Some(t) => b.add_symlink(path, t)?,
                None => b.add_file(path, b"x".to_vec(), false)?,
            }
        }
        b.finish()
    }

    #[test]
    fn entry_paths() {
        assert_eq!(normalize_entry_path("./a//b/", 32).unwrap(), "a/b");
        for bad in [
            "/etc/passwd",
            "a/../../x",
            "..",
            "a\\b",
            "C:/x",
            "",
            "a/\u{0}",
        ] {
            assert!(normalize_entry_path(bad, 32).is_err(), "{bad:?}");
        }
        assert!(normalize_entry_path("a/b/c", 2).is_err());
    }

    #[test]
    fn links_must_stay_inside() {
        assert!(tree(&[("a/f", None), ("a/l", Some("f"))]).is_ok());
        assert!(tree(&[("a/f", None), ("l", Some("a/../a/f"))]).is_ok());
        assert!(tree(&[("f", None), ("l", Some("../f"))]).is_err());
        assert!(tree(&[("l", Some("/etc/passwd"))]).is_err());
        assert!(tree(&[("l", Some("missing"))]).is_err());
        assert!(tree(&[("l", Some("m")), ("m", Some("l"))]).is_err());
        // `d/up` is the root; `d/up/../x` would climb out although it looks inside.
        assert!(
            tree(&[
                ("f", None),
                ("d/up", Some("..")),
                ("d/esc", Some("up/../f"))
            ])
            .is_err()
        );
        // An entry below a link is refused.
        assert!(tree(&[("d", Some(".")), ("d/x", None)]).is_err());
    }

    #[test]
    fn limits() {
        let mut b = TreeBuilder::new(Limits {
            max_files: 2,
            max_total_bytes: 10,
            max_file_bytes: 6,
            max_depth: 4,
        });
        assert!(b.add_file("a", vec![0; 7], false).is_err());
        b.add_file("a", vec![0; 6], false).unwrap();
        assert!(b.add_file("b", vec![0; 5], false).is_err());
        b.add_file("b", vec![0; 4], false).unwrap();
        assert!(b.add_file("c", vec![], false).is_err());
    }

    #[test]
    fn subtrees_recheck_links() {
        let t = tree(&[("s/f", None), ("s/l", Some("../t")), ("t", None)]).unwrap();
        assert!(subtree(&t, "s", true).is_err());
        let lenient = subtree(&t, "s", false).unwrap();
        assert!(matches!(
            lenient.get("l").unwrap().content,
            FileContent::Symlink { inside: false, .. }
        ));
        let t = tree(&[("s/f", None), ("s/l", Some("f")), ("t", None)]).unwrap();
        let s = subtree(&t, "s", true).unwrap();
        assert_eq!(s.files().len(), 2);
    }
}
