//! An agent definition: model, tools, skills and system prompt of a named persona.

use crate::{AgentFormat, Source, Value};

/// A named agent configuration (`agent.yaml`, `AGENT.md`, `.claude/agents/*.md`, built-ins).
///
/// `tools: None` means "every tool the session has"; `Some(vec![])` means no tools.
/// `disallowed_tools` is removed first, then `tools` is resolved against what remains.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AgentDefinition {
    /// Identifier.
    pub name: String,
    /// When to use this agent.
    pub description: String,
    /// Model alias or `provider/model`; `None` inherits.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub model: Option<String>,
    /// System prompt (the markdown body for `.md` files).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub system_prompt: Option<String>,
    /// Allowed tool patterns; `None` inherits every tool.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub tools: Option<Vec<String>>,
    /// Tool patterns removed from the pool.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub disallowed_tools: Vec<String>,
    /// Skills preloaded into the agent's context.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub skills: Vec<String>,
    /// Cap on tool-call rounds per message (`maxTurns` in Claude Code files).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub max_tool_iterations: Option<u32>,
    /// Sampling temperature.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub temperature: Option<f32>,
    /// Context window in tokens.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub context_window: Option<u64>,
    /// Always run as a background subagent.
    #[cfg_attr(feature = "serde", serde(default))]
    pub background: bool,
    /// Claude Code `permissionMode`, parsed once where the file is read; a spelling that is no
    /// mode stays an error, which a session starting the agent reports.
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            skip_serializing_if = "Option::is_none",
            with = "crate::permission_mode::as_written"
        )
    )]
    pub permission_mode: Option<crate::WrittenPermissionMode>,
    /// Hooks (`hooks:`, Claude Code's shape): active while the skill or agent is.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub hooks: Vec<crate::HookGroup>,
    /// Keys weft does not interpret, in source order.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub extra: Vec<(String, Value)>,
    /// Scope, format and file.
    pub source: Source<AgentFormat>,
}

impl AgentDefinition {
    /// An agent with `name` and `description` and every other field at its default.
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        source: Source<AgentFormat>,
    ) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
            model: None,
            system_prompt: None,
            tools: None,
            disallowed_tools: Vec::new(),
            skills: Vec::new(),
            max_tool_iterations: None,
            temperature: None,
            context_window: None,
            background: false,
            permission_mode: None,
            hooks: Vec::new(),
            extra: Vec::new(),
            source,
        }
    }
}
