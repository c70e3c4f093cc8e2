//! What a skill body is rendered with when it is invoked.

use std::path::PathBuf;

/// The values a skill template can refer to (`$ARGUMENTS`, `$SESSION_ID`, `${CLAUDE_SKILL_DIR}`).
///
/// ```
/// use weft_types::InvocationContext;
///
/// let ctx = InvocationContext::new(vec!["a".into(), "b c".into()], "sess-1");
/// assert_eq!(ctx.args.len(), 2);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct InvocationContext {
    /// The arguments, already split (shell-word rules, quotes respected).
    pub args: Vec<String>,
    /// The session identifier.
    pub session_id: String,
    /// The skill's directory, for `${CLAUDE_SKILL_DIR}` and `{baseDir}`.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub skill_dir: Option<PathBuf>,
    /// The skill's argument names (`arguments:`): `$name` is the argument at that position.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub names: Vec<String>,
    /// The effort level in force, for `${CLAUDE_EFFORT}`.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub effort: Option<String>,
    /// The project directory, for `${CLAUDE_PROJECT_DIR}`.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub project_dir: Option<PathBuf>,
    /// The plugin's root directory, for `${CLAUDE_PLUGIN_ROOT}` (a plugin's skill or command).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub plugin_root: Option<PathBuf>,
    /// The plugin's data directory, for `${CLAUDE_PLUGIN_DATA}`.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub plugin_data: Option<PathBuf>,
}

impl InvocationContext {
    /// A context with `args` and `session_id` and no skill directory.
    pub fn new(args: Vec<String>, session_id: impl Into<String>) -> Self {
        Self {
            args,
            session_id: session_id.into(),
            skill_dir: None,
            names: Vec::new(),
            effort: None,
            project_dir: None,
            plugin_root: None,
            plugin_data: None,
        }
    }

    /// Sets the plugin's directories (`${CLAUDE_PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_DATA}`) from
    /// the plugin a skill came from.
    #[must_use]
    pub fn with_plugin(mut self, plugin: Option<&crate::PluginRef>) -> Self {
        if let Some(plugin) = plugin {
            self.plugin_root = Some(plugin.root.clone());
            self.plugin_data.clone_from(&plugin.data);
        }
        self
    }

    /// Sets the argument names (`$name`).
    #[must_use]
    pub fn with_names(mut self, names: Vec<String>) -> Self {
        self.names = names;
        self
    }

    /// Sets the effort level (`${CLAUDE_EFFORT}`).
    #[must_use]
    pub fn with_effort(mut self, effort: Option<String>) -> Self {
        self.effort = effort;
        self
    }

    /// Sets the project directory (`${CLAUDE_PROJECT_DIR}`).
    #[must_use]
    pub fn with_project_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.project_dir = Some(dir.into());
        self
    }

    /// Sets the skill directory.
    #[must_use]
    pub fn with_skill_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.skill_dir = Some(dir.into());
        self
    }
}
