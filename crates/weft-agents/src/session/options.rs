//! What a session is built from: the models, skills, tools and starting agent
//! ([`SessionParts`]) and the settings that do not come from the agent definition
//! ([`SessionOptions`]). Separate because callers (the runtime, subagents) assemble these
//! before any session exists.

use std::path::PathBuf;
use std::sync::Arc;

use weft_permissions::ToolGate;
use weft_registry::SkillRegistry;
use weft_registry::catalog::CatalogFormat;
use weft_tools::{ReadGrants, ToolRegistry};
use weft_types::AgentDefinition;

use super::{Permissions, SpawnSettings};
use crate::ModelPool;

/// Settings of a session that do not come from the agent definition.
#[derive(Debug, Clone)]
pub struct SessionOptions {
    /// Session id (transcript file name, `$SESSION_ID` in skills).
    pub session_id: String,
    /// Stream text to the events sink as it arrives.
    pub stream: bool,
    /// Tool-call rounds per message when the agent sets none.
    pub max_tool_iterations: u32,
    /// Temperature when the agent sets none.
    pub temperature: Option<f32>,
    /// Output token cap per model call.
    pub max_tokens: Option<u32>,
    /// Context window when the agent sets none: sizes the skill catalog budget, and the
    /// window compaction and `/context` measure against (without either, the model catalog's
    /// window for the model, else [`DEFAULT_CONTEXT_WINDOW`](super::DEFAULT_CONTEXT_WINDOW)).
    pub context_window: Option<u64>,
    /// Compact the conversation before a request that would pass
    /// [`compact_threshold`](Self::compact_threshold) of the window (default true).
    pub auto_compact: bool,
    /// The fraction of the context window past which the conversation is compacted before
    /// the next request (default 0.8).
    pub compact_threshold: f64,
    /// The most bytes of one tool result the conversation keeps (default 32 KiB; never more
    /// than an eighth of the window); the whole result goes to a file the model can read.
    pub tool_result_max_bytes: usize,
    /// Told before and after each compaction (the hook engine's `PreCompact` and
    /// `SessionStart` with source `compact`); subagents share it.
    pub compaction_hook: Option<Arc<dyn super::CompactionHook>>,
    /// How the skill catalog is rendered.
    pub catalog_format: CatalogFormat,
    /// SEC-SKILL-03: a rendered skill body longer than this is truncated (with a warning).
    pub max_skill_prompt_bytes: usize,
    /// Where `<session-id>.jsonl` is written; `None` keeps no transcript.
    pub transcript_dir: Option<PathBuf>,
    /// The project directory: `${CLAUDE_PROJECT_DIR}` and the base of relative paths in
    /// permission rules; named in the system prompt.
    pub project_dir: Option<PathBuf>,
    /// The directory the session works in (the project, else the current directory),
    /// recorded in the transcript so `--continue` finds a directory's latest session.
    pub cwd: Option<PathBuf>,
    /// An outer limit every agent view stays within (a parent's effective set, a
    /// configuration-wide deny list). Unrestricted by default.
    pub ceiling: ToolGate,
    /// Only these skills appear in the catalog and can be invoked (a subagent given
    /// `skills`); `None` means every skill.
    pub skill_filter: Option<Vec<String>>,
    /// Subagents: who can be spawned, how deep, how many at once.
    pub spawn: SpawnSettings,
    /// Reasoning effort for every request (a fork skill's child gets the skill's `effort`);
    /// an inline skill's effort beats it for its turn.
    pub effort: Option<String>,
    /// Where the session makes a loaded skill's directory readable (read-only) while the
    /// skill is loaded; the file tools' [`FsScope`](weft_tools::FsScope) must share it
    /// ([`FsScope::with_grants`](weft_tools::FsScope::with_grants)).
    pub read_grants: ReadGrants,
    /// The permission mode, pre-approval and who is asked (default: `ask`, nothing
    /// pre-approved, no one to ask: every call that may change something is refused).
    pub permissions: Permissions,
    /// The hooks of the settings files (and plugins); the active agent's and skills' are
    /// added while they are active. Default: none.
    pub hooks: weft_hooks::Hooks,
    /// Run skills' dynamic-context commands (`` !`cmd` ``, ```` ```! ````) when they load,
    /// each as an `exec_shell` call (default true; `skills.dynamic_context: false`).
    pub dynamic_context: bool,
}

impl Default for SessionOptions {
    fn default() -> Self {
        Self {
            session_id: crate::transcript::new_session_id(),
            stream: false,
            max_tool_iterations: 20,
            temperature: None,
            max_tokens: None,
            context_window: None,
            auto_compact: true,
            compact_threshold: 0.8,
            tool_result_max_bytes: 32 * 1024,
            compaction_hook: None,
            catalog_format: CatalogFormat::Weft,
            max_skill_prompt_bytes: 32 * 1024,
            transcript_dir: None,
            project_dir: None,
            cwd: None,
            ceiling: ToolGate::unrestricted(),
            skill_filter: None,
            spawn: SpawnSettings::default(),
            effort: None,
            read_grants: ReadGrants::new(),
            permissions: Permissions::default(),
            hooks: weft_hooks::Hooks::none(),
            dynamic_context: true,
        }
    }
}

/// What a session is built from.
#[derive(Debug, Clone)]
pub struct SessionParts {
    /// Models and their clients.
    pub models: Arc<ModelPool>,
    /// Skills (catalog, `use_skill`, preloaded skills).
    pub skills: Arc<SkillRegistry>,
    /// Every tool the runtime has; the agent and skills see a filtered view.
    pub tools: ToolRegistry,
    /// The starting agent.
    pub agent: AgentDefinition,
    /// A model chosen explicitly (`--model`), beating the agent's.
    pub model: Option<String>,
    /// Everything else.
    pub options: SessionOptions,
}
