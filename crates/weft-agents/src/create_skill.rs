//! `create_skill`: a model writes a new skill (seed 004's LLM-created skills). The SKILL.md is
//! built from structured input, validated by the same parser that loads skills, written
//! atomically into the user-scope skills directory, and the registry is reloaded.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use async_trait::async_trait;
use serde_json::json;
use weft_parse::{ParseOptions, Profile, parse_skill_md};
use weft_registry::SkillRegistry;
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
         becomes available at once."
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
                "replace": {"type": "boolean", "description": "overwrite an existing skill of that name"}
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
        if file.exists() && !replace {
            return Err(ToolError::Failed(format!(
                "skill `{name}` already exists at {}; pass replace: true to overwrite it",
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
        let loaded = snapshot
            .get(&name)
            .is_some_and(|e| e.file() == Some(file.as_path()));
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
        if loaded {
            out.push_str("; it is now available");
        } else {
            out.push_str("; note: another skill of that name takes precedence, or the directory is not a skill root");
        }
        if !warnings.is_empty() {
            out.push_str("\nwarnings:\n");
            out.push_str(&warnings.join("\n"));
        }
        Ok(ToolOutput::text(out))
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
