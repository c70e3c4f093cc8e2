//! The real path of a file or search call: path rules and "inside the project" are decided on
//! the path as spelled and on where it leads once symbolic links are resolved.

use std::path::{Path, PathBuf};

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

impl Session {
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
