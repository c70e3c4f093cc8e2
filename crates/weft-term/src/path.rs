//! Paths as a person reads them.

use std::path::Path;

/// `~/rest` for a path under `home` (`~` for `home` itself); any other path as it is.
///
/// ```
/// use std::path::Path;
/// use weft_term::tilde;
///
/// let home = Some(Path::new("/home/u"));
/// assert_eq!(tilde(Path::new("/home/u/.claude/agents/x.md"), home), "~/.claude/agents/x.md");
/// assert_eq!(tilde(Path::new("/home/u"), home), "~");
/// assert_eq!(tilde(Path::new("/etc/hosts"), home), "/etc/hosts");
/// assert_eq!(tilde(Path::new("/home/u/x"), None), "/home/u/x");
/// ```
pub fn tilde(path: &Path, home: Option<&Path>) -> String {
    match home.and_then(|h| path.strip_prefix(h).ok()) {
        Some(rest) if rest.as_os_str().is_empty() => "~".to_owned(),
        Some(rest) => format!("~/{}", rest.display()),
        None => path.display().to_string(),
    }
}
