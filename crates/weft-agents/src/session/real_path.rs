//! The real path of a file or search call: path rules and "inside the project" are decided on
//! the path as spelled and on where it leads once symbolic links are resolved.

use std::path::{Component, Path, PathBuf};

use serde_json::Value;
use weft_permissions::{PATH_KEYS, canonical_tool_name};
use weft_types::tool_names;

use super::Session;

/// A call's path resolved: the input with its path replaced by the real one, and that path.
#[derive(Debug, Clone, PartialEq)]
pub struct RealPath {
    /// The input as the gate should see it on the real path.
    pub input: Value,
    /// The real path.
    pub path: PathBuf,
}

impl RealPath {
    /// The real path of a call of a path tool (`read_file`, `write_file`, `grep`...), relative
    /// paths starting at `project_dir`; `None` for other tools or when the path cannot be
    /// resolved (the tool refuses it then).
    pub fn of_call(project_dir: &Path, tool: &str, input: &Value) -> Option<Self> {
        if !tool_names::PATH_TOOLS.contains(&canonical_tool_name(tool)) {
            return None;
        }
        let (key, spelled) = PATH_KEYS
            .iter()
            .find_map(|k| input.get(*k).and_then(Value::as_str).map(|p| (*k, p)))?;
        if spelled.is_empty() {
            return None;
        }
        let path = weft_tools::real_path(project_dir, spelled).ok()?;
        let mut real = input.clone();
        real[key] = Value::String(path.to_str()?.to_owned());
        Some(RealPath { input: real, path })
    }

    /// True when the real path lies under `project_dir` (where an edit counts as inside the
    /// project).
    pub fn is_inside(&self, project_dir: &Path) -> bool {
        self.path.starts_with(project_dir)
    }
}

/// The protected path (`.clawft`, `.git/hooks`...: [`weft_types::protected`]) that an edit of
/// `spelled` (as the model wrote it, `..` resolved without following links) or of its real path
/// `real` (links resolved) lands in, inside `project_dir`. Either counts: a link into
/// `.clawft/` and a `.clawft/` that is a link elsewhere are both protected.
pub fn protected_edit(
    project_dir: &Path,
    spelled: &str,
    real: Option<&Path>,
) -> Option<&'static str> {
    let lexical = lexical(&project_dir.join(spelled));
    [Some(lexical.as_path()), real]
        .into_iter()
        .flatten()
        .filter_map(|p| p.strip_prefix(project_dir).ok())
        .find_map(weft_types::protected::protected_entry)
}

/// `path` with `.` and `..` resolved as written.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

impl Session {
    /// The protected path an edit call would write, if any (see [`protected_edit`]).
    pub(super) fn protected_edit(
        &self,
        input: &Value,
        real: Option<&RealPath>,
    ) -> Option<&'static str> {
        let project = self.options.project_dir.as_deref()?;
        let spelled = PATH_KEYS
            .iter()
            .find_map(|k| input.get(*k).and_then(Value::as_str))?;
        protected_edit(project, spelled, real.map(|r| r.path.as_path()))
    }

    /// The real path of a call of a path tool (see [`RealPath::of_call`]); `None` without a
    /// project directory too.
    pub(super) fn real_path(&self, tool: &str, input: &Value) -> Option<RealPath> {
        RealPath::of_call(self.options.project_dir.as_deref()?, tool, input)
    }

    /// True when an edit lands inside the project: its real path lies under the project
    /// directory.
    pub(super) fn inside_project(&self, real: Option<&RealPath>) -> bool {
        let Some(project) = self.options.project_dir.as_deref() else {
            return false;
        };
        real.is_some_and(|r| r.is_inside(project))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn edits_of_protected_paths_however_spelled() {
        let tmp = tempfile::tempdir().unwrap();
        let project = std::fs::canonicalize(tmp.path()).unwrap();
        std::fs::create_dir_all(project.join(".clawft")).unwrap();
        std::fs::create_dir_all(project.join("src")).unwrap();
        std::os::unix::fs::symlink(project.join(".clawft"), project.join("src/cfg")).unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), project.join(".claude")).unwrap();
        let real = |p: &str| weft_tools::real_path(&project, p).ok();
        for (spelled, entry) in [
            (".clawft/config.json", Some(".clawft")),
            ("src/../.clawft/config.json", Some(".clawft")),
            (".CLAWFT/config.json", Some(".clawft")),
            ("src/cfg/config.json", Some(".clawft")),
            (".claude/settings.json", Some(".claude")),
            (".git/hooks/pre-commit", Some(".git/hooks")),
            (".mcp.json", Some(".mcp.json")),
            ("src/main.rs", None),
            (".git/HEAD", None),
        ] {
            let real = real(spelled);
            assert_eq!(
                protected_edit(&project, spelled, real.as_deref()),
                entry,
                "{spelled}"
            );
        }
        let absolute = project.join(".codex/config.toml");
        assert_eq!(
            protected_edit(&project, absolute.to_str().unwrap(), None),
            Some(".codex")
        );
    }
}
