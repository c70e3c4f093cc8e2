//! The `.mcp.json` servers a person approved by name, remembered in their own state (as
//! Claude Code's `enabledMcpjsonServers`), never in the checkout:
//!
//! ```json
//! {"projects": {"/home/me/code/app": {"enabledMcpjsonServers": ["db"]}}}
//! ```
//!
//! `weft mcp approve NAME` adds a name for the current project, `weft mcp revoke NAME`
//! removes it. The project is keyed by its real path.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::error::ConfigError;

/// Where the approvals are kept, under the home directory.
pub const APPROVALS_FILE: &str = ".clawft/mcp-approvals.json";

/// The approvals file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct McpApprovals {
    path: PathBuf,
    value: Value,
}

impl McpApprovals {
    /// Reads `path`; a missing file approves nothing.
    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        let value = match crate::config::read_file(path, false)? {
            Some((_, value)) => value,
            None => json!({}),
        };
        Ok(Self {
            path: path.to_path_buf(),
            value,
        })
    }

    /// Reads `path` for a run: a file that cannot be read approves nothing (with a warning).
    pub fn load_or_empty(path: &Path) -> Self {
        Self::load(path).unwrap_or_else(|e| {
            tracing::warn!("MCP server approvals not read: {e}");
            Self {
                path: path.to_path_buf(),
                value: json!({}),
            }
        })
    }

    fn key(project: &Path) -> String {
        std::fs::canonicalize(project)
            .unwrap_or_else(|_| project.to_path_buf())
            .display()
            .to_string()
    }

    /// The names approved for `project`.
    pub fn approved(&self, project: &Path) -> Vec<String> {
        self.value
            .pointer(&format!(
                "/projects/{}/enabledMcpjsonServers",
                pointer_escape(&Self::key(project))
            ))
            .and_then(Value::as_array)
            .map(|items| {
                items
                    .iter()
                    .filter_map(|i| i.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Approves (or, with `approve` false, revokes) `names` for `project` and writes the
    /// file (a temporary file renamed over it, so a crash leaves the old one whole).
    pub fn set(&mut self, project: &Path, names: &[String], approve: bool) -> std::io::Result<()> {
        let mut list = self.approved(project);
        for name in names {
            if approve && !list.contains(name) {
                list.push(name.clone());
            }
            if !approve {
                list.retain(|n| n != name);
            }
        }
        list.sort();
        if !self.value.is_object() {
            self.value = json!({});
        }
        let key = Self::key(project);
        let projects = self
            .value
            .as_object_mut()
            .map(|root| root.entry("projects").or_insert_with(|| json!({})));
        if let Some(Value::Object(projects)) = projects {
            let entry = projects.entry(key).or_insert_with(|| json!({}));
            if !entry.is_object() {
                *entry = json!({});
            }
            entry["enabledMcpjsonServers"] = json!(list);
        }
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let text = serde_json::to_string_pretty(&self.value).map_err(std::io::Error::other)?;
        let tmp = self.path.with_extension("json.tmp");
        std::fs::write(&tmp, format!("{text}\n"))?;
        std::fs::rename(&tmp, &self.path)
    }
}

/// `text` escaped for a JSON pointer segment (`~` and `/`).
fn pointer_escape(text: &str) -> String {
    text.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn approvals_are_kept_per_project() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("state/approvals.json");
        let project = tmp.path().join("app");
        std::fs::create_dir_all(&project).unwrap();
        let mut approvals = McpApprovals::load(&file).unwrap();
        assert!(approvals.approved(&project).is_empty());
        approvals
            .set(&project, &["db".into(), "api".into()], true)
            .unwrap();
        let again = McpApprovals::load(&file).unwrap();
        assert_eq!(again.approved(&project), ["api", "db"]);
        assert!(again.approved(tmp.path()).is_empty());
        let mut again = again;
        again.set(&project, &["db".into()], false).unwrap();
        assert_eq!(
            McpApprovals::load(&file).unwrap().approved(&project),
            ["api"]
        );
    }
}
