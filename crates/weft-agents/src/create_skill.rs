//! `create_skill`: a model writes a new skill (seed 004's LLM-created skills). The SKILL.md is
//! built from structured input, validated by the same parser that loads skills, written
//! atomically into the user-scope skills directory, and the registry is reloaded. It never
//! shadows in silence: a name that exists in any scope is refused unless `replace` is true,
//! and the answer names the copy the session will use and the copies it hides.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use async_trait::async_trait;
use serde_json::json;
use weft_parse::{ParseOptions, Profile, parse_skill_md};
use weft_registry::{SkillEntry, SkillRegistry};
use weft_tools::{Tool, ToolError, ToolOutput};
use weft_types::{Scope, has_errors};

/// The `create_skill` tool.
#[derive(Debug, Clone)]
pub struct CreateSkill {
    registry: Arc<SkillRegistry>,
    dir: PathBuf,
}

impl CreateSkill {
    /// Writes skills into `dir` (e.g. `~/.clawft/skills`) and reloads `registry` afterwards.
    pub fn new(registry: Arc<SkillRegistry>, dir: impl Into<PathBuf>) -> Self {
        Self {
            registry,
            dir: dir.into(),
        }
    }
}

/// Renders a JSON string as a YAML double-quoted scalar (JSON string syntax is a subset).
fn quoted(s: &str) -> String {
    serde_json::Value::String(s.to_owned()).to_string()
}

fn string_field<'a>(input: &'a serde_json::Value, key: &str) -> Result<&'a str, ToolError> {
    input
        .get(key)
        .and_then(|v| v.as_str())
        .ok_or_else(|| ToolError::InvalidInput(format!("`{key}` must be a string")))
}

/// The SKILL.md text for the input.
fn skill_md(input: &serde_json::Value) -> Result<(String, String), ToolError> {
    let name = string_field(input, "name")?;
    let description = string_field(input, "description")?;
    let body = string_field(input, "body")?;
    let mut text = format!(
        "---\nname: {}\ndescription: {}\n",
        quoted(name),
        quoted(description)
    );
    match input.get("user_invocable") {
        None | Some(serde_json::Value::Null) => {}
        Some(serde_json::Value::Bool(b)) => text.push_str(&format!("user-invocable: {b}\n")),
        Some(_) => {
            return Err(ToolError::InvalidInput(
                "`user_invocable` must be a boolean".into(),
            ));
        }
    }
    match input.get("allowed_tools") {
        None | Some(serde_json::Value::Null) => {}
        Some(serde_json::Value::Array(items)) => {
            text.push_str("allowed-tools:");
            if items.is_empty() {
                text.push_str(" []");
            }
            for item in items {
                let tool = item.as_str().ok_or_else(|| {
                    ToolError::InvalidInput("`allowed_tools` must be a list of strings".into())
                })?;
                text.push_str(&format!("\n  - {}", quoted(tool)));
            }
            text.push('\n');
        }
        Some(_) => {
            return Err(ToolError::InvalidInput(
                "`allowed_tools` must be a list of strings".into(),
            ));
        }
    }
    text.push_str("---\n\n");
    text.push_str(body.trim_end());
    text.push('\n');
    Ok((name.to_owned(), text))
}

/// Writes `text` to `path` through a temporary file in the same directory.
fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let tmp = path.with_extension("md.tmp");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

#[async_trait]
impl Tool for CreateSkill {
    fn name(&self) -> &str {
        weft_types::tool_names::CREATE_SKILL
    }

    fn description(&self) -> &str {
        "Create a reusable skill (a SKILL.md in the user's skills directory) from a name, a \
         description saying when to use it, and markdown instructions. It is validated and \
         becomes available at once. A name that any existing skill already has (project, user, \
         built-in) is refused unless `replace` is true; the answer then says which copy is used."
    }

    fn input_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": "lowercase letters, digits and hyphens, at most 64 characters"},
                "description": {"type": "string", "description": "what the skill does and when to use it"},
                "body": {"type": "string", "description": "markdown instructions; $ARGUMENTS is replaced by the arguments"},
                "user_invocable": {"type": "boolean", "description": "whether the user can run it as /name (default true)"},
                "allowed_tools": {"type": "array", "items": {"type": "string"}, "description": "tools the skill may use while active"},
                "replace": {"type": "boolean", "description": "write it even though a skill of that name exists in some scope (yours then hides the user's and built-in copies, but not a project's)"}
            },
            "required": ["name", "description", "body"],
            "additionalProperties": false
        })
    }

    async fn call(&self, input: serde_json::Value) -> Result<ToolOutput, ToolError> {
        let (name, text) = skill_md(&input)?;
        let replace = input
            .get("replace")
            .and_then(|v| v.as_bool())
            .unwrap_or(false);
        // The name becomes a directory: refuse anything that is not a plain component before
        // the parser (which checks the full naming rules) sees a path built from it.
        if name.is_empty() || name.contains(['/', '\\']) || name == "." || name == ".." {
            return Err(ToolError::InvalidInput(format!(
                "invalid skill name `{name}`"
            )));
        }
        let dir = self.dir.join(&name);
        let file = dir.join("SKILL.md");
        let parsed = parse_skill_md(
            text.as_bytes(),
            &file,
            &ParseOptions::new(Profile::Validate).with_scope(Scope::User),
        );
        if has_errors(&parsed.diagnostics) || parsed.skill.is_none() {
            let problems: Vec<String> = parsed
                .diagnostics
                .iter()
                .filter(|d| d.is_error())
                .map(|d| format!("{}: {}", d.code, d.message))
                .collect();
            return Err(ToolError::InvalidInput(format!(
                "the skill is not valid, nothing was written:\n{}",
                problems.join("\n")
            )));
        }
        // Whatever scope holds the name now (project, ~/.clawft, ~/.claude, ~/.agents,
        // built-in): a model-written copy must never hide it unnoticed.
        let before = self.registry.reload();
        let existing = copies(before.get(&name));
        let own_file = std::fs::symlink_metadata(&file).is_ok();
        if !replace && (own_file || !existing.is_empty()) {
            let mut places = existing;
            if own_file
                && !places
                    .iter()
                    .any(|c| c.path.as_deref() == Some(file.as_path()))
            {
                places.push(Copy {
                    scope: Scope::User,
                    path: Some(file.clone()),
                });
            }
            return Err(ToolError::Failed(format!(
                "a skill named `{name}` already exists: {}; nothing was written. Choose another \
                 name, or pass replace: true to write yours at {} anyway",
                describe(&places),
                file.display()
            )));
        }
        std::fs::create_dir_all(&dir).map_err(|source| ToolError::Io {
            path: dir.clone(),
            source,
        })?;
        write_atomically(&file, &text).map_err(|source| ToolError::Io {
            path: file.clone(),
            source,
        })?;
        let snapshot = self.registry.reload();
        let warnings: Vec<String> = parsed
            .diagnostics
            .iter()
            .map(|d| format!("{}: {}", d.code, d.message))
            .collect();
        let mut out = format!(
            "{} skill `{name}` at {}",
            if replace { "wrote" } else { "created" },
            file.display()
        );
        out.push_str(&in_use(snapshot.get(&name), &file));
        if !warnings.is_empty() {
            out.push_str("\nwarnings:\n");
            out.push_str(&warnings.join("\n"));
        }
        Ok(ToolOutput::text(out))
    }
}

/// One copy of a skill: its scope and file (none for a built-in).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Copy {
    scope: Scope,
    path: Option<PathBuf>,
}

impl std::fmt::Display for Copy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.path {
            Some(path) => write!(f, "the {} skill at {}", self.scope, path.display()),
            None => write!(f, "the {} skill (built into weft)", self.scope),
        }
    }
}

/// Every copy of the skill an entry knows: the one in use first, then those it hides.
fn copies(entry: Option<&Arc<SkillEntry>>) -> Vec<Copy> {
    let Some(entry) = entry else {
        return Vec::new();
    };
    let mut all = vec![Copy {
        scope: entry.skill.source.scope,
        path: entry.file().map(Path::to_path_buf),
    }];
    all.extend(entry.shadows.iter().map(|s| Copy {
        scope: s.scope,
        path: s.path.clone(),
    }));
    all
}

fn describe(copies: &[Copy]) -> String {
    let parts: Vec<String> = copies.iter().map(ToString::to_string).collect();
    parts.join(", ")
}

/// Which copy the session will use after the write, said so that the model can tell the user.
fn in_use(entry: Option<&Arc<SkillEntry>>, written: &Path) -> String {
    let all = copies(entry);
    let Some((used, hidden)) = all.split_first() else {
        return "; note: it is not loaded (the directory is not a skill root)".to_owned();
    };
    if used.path.as_deref() == Some(written) {
        let mut out = format!("; it is now available. In use: {used}");
        if !hidden.is_empty() {
            out.push_str(&format!("; it hides {}", describe(hidden)));
        }
        out
    } else {
        format!("; note: it is NOT used: {used} takes precedence")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frontmatter_quotes_everything_the_model_wrote() {
        let (name, text) = skill_md(&json!({
            "name": "x",
            "description": "a: b # not a comment\nsecond line",
            "body": "Do $ARGUMENTS",
            "allowed_tools": ["Read", "Bash(git:*)"]
        }))
        .unwrap();
        assert_eq!(name, "x");
        let parsed = parse_skill_md(
            text.as_bytes(),
            Path::new("s/x/SKILL.md"),
            &ParseOptions::new(Profile::Validate),
        );
        let skill = parsed.skill.unwrap();
        assert_eq!(skill.description, "a: b # not a comment\nsecond line");
        assert_eq!(
            skill.tools.allow.unwrap(),
            ["Read".to_owned(), "Bash(git:*)".to_owned()]
        );
    }
}
