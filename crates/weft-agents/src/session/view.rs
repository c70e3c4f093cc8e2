//! An agent definition applied over the session's options: a filtered view, never a change
//! to the tool registry or the options themselves (seed 002 3.4), so switching back restores
//! everything.

use std::path::Path;

use weft_llm::ModelRef;
use weft_permissions::{PatternContext, Policy, ToolGate};
use weft_types::{AgentDefinition, PermissionMode};

use super::{SessionError, SessionOptions};
use crate::ModelPool;

/// What an agent definition resolves to in a session.
#[derive(Debug, Clone)]
pub struct AgentView {
    /// The definition.
    pub agent: AgentDefinition,
    /// The model: explicit choice, else the agent's, else the default.
    pub model: ModelRef,
    /// The session ceiling narrowed by the agent's `tools` and `disallowed_tools`.
    pub gate: ToolGate,
    /// The agent's temperature, else the session's.
    pub temperature: Option<f32>,
    /// The agent's cap, else the session's.
    pub max_tool_iterations: u32,
    /// The agent's context window, else the session's.
    pub context_window: Option<u64>,
    /// Why the model is not the agent's own (an alias no provider serves), for the user.
    pub notice: Option<String>,
    /// The session's permission mode narrowed by the agent's `permissionMode` (which can
    /// never widen it).
    pub mode: PermissionMode,
    /// The narrowest `permissionMode` of this agent and the agents above it (a parent
    /// session's): whatever mode the user chooses, this session runs in no wider one. `None`
    /// when no agent on the way sets one.
    pub mode_cap: Option<PermissionMode>,
}

impl AgentView {
    /// Resolves `agent` within `options`. `inherit` is the model `inherit` refers to (a
    /// parent's); `None` means the configured default.
    pub fn build(
        agent: AgentDefinition,
        explicit_model: Option<&str>,
        inherit: Option<&ModelRef>,
        models: &ModelPool,
        options: &SessionOptions,
    ) -> Result<Self, SessionError> {
        let (model, notice) = models.choose_with_fallback(
            explicit_model,
            agent.model.as_deref(),
            inherit,
            &format!("agent `{}`", agent.name),
        )?;
        let gate = agent_gate(&agent, &options.ceiling, options.project_dir.as_deref())?;
        let own = agent_own_mode(&agent)?;
        let mode = own.map_or(options.permissions.mode, |m| {
            options.permissions.mode.narrow(m)
        });
        let mode_cap = match (options.permissions.agent_cap, own) {
            (Some(above), Some(own)) => Some(above.narrow(own)),
            (above, own) => above.or(own),
        };
        Ok(Self {
            model,
            gate,
            temperature: agent.temperature.or(options.temperature),
            max_tool_iterations: agent
                .max_tool_iterations
                .unwrap_or(options.max_tool_iterations),
            context_window: agent.context_window.or(options.context_window),
            notice,
            mode,
            mode_cap,
            agent,
        })
    }
}

/// The gate of a session of `agent` under `ceiling` (the configuration's `tools.deny`, or a
/// parent's gate): the ceiling narrowed by the agent's `tools` and `disallowedTools`, with
/// shell commands judged against `project_dir`.
pub fn agent_gate(
    agent: &AgentDefinition,
    ceiling: &ToolGate,
    project_dir: Option<&Path>,
) -> Result<ToolGate, SessionError> {
    let ctx = project_context(project_dir);
    let policy = Policy::from_agent(agent, &ctx).map_err(|source| SessionError::AgentTools {
        agent: agent.name.clone(),
        source,
    })?;
    let mut gate = ceiling.clone().with_layer(policy);
    if ctx.project_dir().is_some() {
        // Shell commands are judged against the project: writes outside it need approval;
        // they are read in the language of the shell the ceiling names.
        let dialect = ceiling.shell_context().dialect();
        gate = gate.with_shell_context(ctx.shell_context().with_dialect(dialect));
    }
    Ok(gate)
}

/// The permission mode of a session of `agent` started in `mode`: its `permissionMode` can
/// only narrow it.
pub fn agent_mode(
    agent: &AgentDefinition,
    mode: PermissionMode,
) -> Result<PermissionMode, SessionError> {
    Ok(agent_own_mode(agent)?.map_or(mode, |own| mode.narrow(own)))
}

/// The agent's own `permissionMode`; `None` when it sets none, an error when it is no mode.
fn agent_own_mode(agent: &AgentDefinition) -> Result<Option<PermissionMode>, SessionError> {
    agent
        .permission_mode
        .clone()
        .transpose()
        .map_err(|source| SessionError::AgentPermissionMode {
            agent: agent.name.clone(),
            source,
        })
}

/// The values permission patterns are resolved with in this session.
pub(super) fn pattern_context(options: &SessionOptions) -> PatternContext {
    project_context(options.project_dir.as_deref())
}

/// Pattern values for a session whose project directory is `project_dir`: relative paths in
/// patterns start there.
fn project_context(project_dir: Option<&Path>) -> PatternContext {
    let mut ctx = PatternContext::new();
    if let Some(dir) = project_dir.and_then(|d| d.to_str()) {
        ctx = ctx.with_project_dir(dir).with_working_dir(dir);
    }
    ctx
}
