//! Values substituted into patterns, and the working directory path rules resolve against.

use weft_shell::ShellContext;

/// Values substituted into patterns before they are compiled.
///
/// * `${CLAUDE_SKILL_DIR}` and `${CLAUDE_PROJECT_DIR}` in specifiers (a pattern that uses one
///   without a value is a [`PatternErrorKind::UnresolvedVariable`](crate::PatternErrorKind::UnresolvedVariable));
/// * the working directory, which lets path rules compare relative and absolute paths (it must
///   be absolute; otherwise it is ignored).
///
/// ```
/// use serde_json::json;
/// use weft_permissions::{Effect, PatternContext, ToolPattern};
///
/// let ctx = PatternContext::new().with_skill_dir("/skills/render");
/// let p = ToolPattern::parse_with("Bash(${CLAUDE_SKILL_DIR}/scripts/render.sh *)", &ctx)?;
/// let call = json!({"command": "/skills/render/scripts/render.sh in.md"});
/// assert!(p.matches("Bash", &call, Effect::Allow));
/// # Ok::<(), weft_permissions::PatternError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PatternContext {
    skill_dir: Option<String>,
    project_dir: Option<String>,
    working_dir: Option<String>,
}

impl PatternContext {
    /// No values known.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the value of `${CLAUDE_SKILL_DIR}`.
    pub fn with_skill_dir(mut self, dir: impl Into<String>) -> Self {
        self.skill_dir = Some(dir.into());
        self
    }

    /// Sets the value of `${CLAUDE_PROJECT_DIR}`.
    pub fn with_project_dir(mut self, dir: impl Into<String>) -> Self {
        self.project_dir = Some(dir.into());
        self
    }

    /// Sets the absolute directory relative paths (in rules and calls) are resolved against.
    pub fn with_working_dir(mut self, dir: impl Into<String>) -> Self {
        self.working_dir = Some(dir.into());
        self
    }

    /// The value of `${CLAUDE_SKILL_DIR}`.
    pub fn skill_dir(&self) -> Option<&str> {
        self.skill_dir.as_deref()
    }

    /// The value of `${CLAUDE_PROJECT_DIR}`.
    pub fn project_dir(&self) -> Option<&str> {
        self.project_dir.as_deref()
    }

    /// The working directory.
    pub fn working_dir(&self) -> Option<&str> {
        self.working_dir.as_deref()
    }

    /// Where shell commands run for these values: the project directory (the working
    /// directory if there is none) as the project root the analyser compares paths with.
    pub fn shell_context(&self) -> ShellContext {
        match self.project_dir().or(self.working_dir()) {
            Some(dir) => ShellContext::new().with_project_root(dir),
            None => ShellContext::new(),
        }
    }
}
