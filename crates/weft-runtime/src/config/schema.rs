//! The shape of `config.json`: every section as a typed, strict (`deny_unknown_fields`)
//! struct. Separate from the loading because it is the file format itself, what
//! docs/CONFIG.md documents key by key.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Deserialize;
use weft_llm::{ProviderKind, ResponseLimits};

/// One provider as written in the config.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProviderFile {
    /// `openai` (any OpenAI-compatible server), `anthropic` or `replay`; default from the
    /// provider's name (`anthropic`, `replay`), else `openai`.
    pub kind: Option<ProviderKind>,
    /// Endpoint.
    pub base_url: Option<String>,
    /// The key itself (prefer `api_key_env`).
    pub api_key: Option<String>,
    /// The environment variable holding the key.
    pub api_key_env: Option<String>,
    /// Seconds per attempt.
    pub timeout_secs: Option<u64>,
    /// Retries after the first attempt.
    pub max_retries: Option<u32>,
    /// The JSONL recording (replay), relative to the config file that names it.
    pub file: Option<PathBuf>,
}

/// Agent-loop defaults.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentSettings {
    /// Tool-call rounds per message (default 20).
    pub max_tool_iterations: Option<u32>,
    /// Sampling temperature.
    pub temperature: Option<f32>,
    /// Output token cap per call.
    pub max_tokens: Option<u32>,
    /// Context window in tokens: sizes the skill catalog, and the window compaction and
    /// `/context` measure against (default: what weft knows of the model, else 128,000).
    pub context_window: Option<u64>,
    /// Compact the conversation before a request that would pass `compact_threshold` of the
    /// window (default true).
    pub auto_compact: Option<bool>,
    /// The fraction of the context window past which the conversation is compacted (above 0,
    /// at most 1; default 0.8).
    pub compact_threshold: Option<f64>,
    /// Bytes of one tool result kept in the conversation (default 32768; never more than an
    /// eighth of the window); the whole result goes to a file the model can read.
    pub tool_result_max_bytes: Option<usize>,
    /// Keep transcripts under ~/.clawft/workspace/sessions (default true).
    pub transcripts: Option<bool>,
    /// How deep subagents may nest (default 1: subagents cannot spawn).
    pub max_spawn_depth: Option<u32>,
    /// Background subagents running at once (default 4).
    pub max_concurrent_subagents: Option<usize>,
    /// A subagent's timeout in seconds when `sessions_spawn` sets none (default 600).
    pub subagent_timeout_secs: Option<u64>,
}

/// Tool settings.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolSettings {
    /// Directories file tools may use besides the project.
    #[serde(default)]
    pub allow_paths: Vec<PathBuf>,
    /// Tool patterns no agent may use (a ceiling over every session).
    #[serde(default)]
    pub deny: Vec<String>,
    /// Default `exec_shell` timeout in seconds.
    pub exec_timeout_secs: Option<u64>,
    /// Bytes of each output stream kept by `exec_shell`.
    pub output_cap: Option<usize>,
    /// `web_fetch`; off unless present with `enabled: true`.
    pub web_fetch: Option<WebFetchSettings>,
}

/// `web_fetch` settings.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WebFetchSettings {
    /// Switch it on.
    #[serde(default)]
    pub enabled: bool,
    /// Only these domains (and their subdomains).
    pub allowed_domains: Option<Vec<String>>,
    /// Seconds per request.
    pub timeout_secs: Option<u64>,
    /// Body cap in bytes.
    pub max_bytes: Option<usize>,
}

/// Skill settings.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkillSettings {
    /// SEC-SKILL-03: rendered skill bodies are truncated beyond this (default 32 KiB).
    pub max_prompt_bytes: Option<usize>,
    /// Skills switched off: discovered and listed (`skills list --all`), never offered.
    #[serde(default)]
    pub disabled: Vec<String>,
    /// Per-skill settings by name (OpenClaw's `skills.entries`).
    #[serde(default)]
    pub entries: BTreeMap<String, SkillEntrySettings>,
    /// Include the skills compiled into weft (default true).
    pub builtins: Option<bool>,
    /// Run skills' dynamic-context commands (`` !`cmd` ``, ```` ```! ````) when they load,
    /// through the permissions of `exec_shell` (default true).
    pub dynamic_context: Option<bool>,
}

/// One skill's settings (`skills.entries.<name>`). `Debug` never shows the OpenClaw values
/// (an `apiKey` is a secret).
#[derive(Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkillEntrySettings {
    /// `false` switches the skill off, as `skills.disabled` does.
    pub enabled: Option<bool>,
    /// OpenClaw's key for the skill's `primaryEnv` variable: accepted so an OpenClaw
    /// configuration loads, never used (weft gives no key to a command or a model).
    #[serde(rename = "apiKey")]
    pub api_key: Option<serde_json::Value>,
    /// OpenClaw's variables for the skill's runs: accepted, not used.
    pub env: Option<serde_json::Value>,
    /// OpenClaw's per-skill settings: accepted, not used.
    pub config: Option<serde_json::Value>,
}

impl std::fmt::Debug for SkillEntrySettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SkillEntrySettings")
            .field("enabled", &self.enabled)
            .field("unused_openclaw_keys", &self.unused_openclaw_keys())
            .finish()
    }
}

impl SkillEntrySettings {
    /// The OpenClaw keys set here that weft does not use.
    pub fn unused_openclaw_keys(&self) -> Vec<&'static str> {
        [
            ("apiKey", self.api_key.is_some()),
            ("env", self.env.is_some()),
            ("config", self.config.is_some()),
        ]
        .into_iter()
        .filter_map(|(key, set)| set.then_some(key))
        .collect()
    }
}

impl SkillSettings {
    /// The names switched off by `disabled` or by `entries.<name>.enabled: false`.
    pub fn disabled_names(&self) -> std::collections::BTreeSet<String> {
        self.disabled
            .iter()
            .cloned()
            .chain(
                self.entries
                    .iter()
                    .filter(|(_, e)| e.enabled == Some(false))
                    .map(|(name, _)| name.clone()),
            )
            .collect()
    }

    /// Applies these settings to a registry configuration: disabled skills, built-ins.
    pub fn apply_to(&self, registry: &mut weft_registry::RegistryConfig) {
        registry.disabled.extend(self.disabled_names());
        if let Some(builtins) = self.builtins {
            registry.builtins = builtins;
        }
    }
}

/// How much weft reads from outside (`limits`): every answer of every provider, every message
/// of every MCP server. A value of 0 is taken as 1 (nothing can be read within 0 bytes).
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitSettings {
    /// A whole (not streamed) provider answer (default 8 MiB).
    pub response_bytes: Option<usize>,
    /// A streamed answer, every event together (default 256 MiB).
    pub stream_bytes: Option<usize>,
    /// One server-sent event of a streamed answer (default 4 MiB).
    pub event_bytes: Option<usize>,
    /// The text and thinking of one answer (default 4 MiB).
    pub text_bytes: Option<usize>,
    /// The tool calls of one answer, arguments and all (default 4 MiB).
    pub tool_arguments_bytes: Option<usize>,
    /// One message (a line of its stdout) from an MCP server (default 8 MiB).
    pub mcp_message_bytes: Option<usize>,
}

impl LimitSettings {
    /// The caps on a provider's answers: the defaults with what is set here.
    pub fn response_limits(&self) -> ResponseLimits {
        let d = ResponseLimits::default();
        let or = |set: Option<usize>, default| set.unwrap_or(default).max(1);
        ResponseLimits {
            body_bytes: or(self.response_bytes, d.body_bytes),
            stream_bytes: or(self.stream_bytes, d.stream_bytes),
            event_bytes: or(self.event_bytes, d.event_bytes),
            text_bytes: or(self.text_bytes, d.text_bytes),
            tool_arguments_bytes: or(self.tool_arguments_bytes, d.tool_arguments_bytes),
        }
    }

    /// The cap on one message of an MCP server.
    pub fn mcp_message_bytes(&self) -> usize {
        self.mcp_message_bytes
            .unwrap_or(weft_tools::McpServerConfig::DEFAULT_MAX_MESSAGE_BYTES)
            .max(1)
    }
}

/// One MCP server (`mcp_servers.<name>`): a stdio server started with weft.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct McpServerFile {
    /// The program.
    pub command: String,
    /// Its arguments.
    #[serde(default)]
    pub args: Vec<String>,
    /// Variables for the server, over the few it inherits (PATH, HOME, ...); `${VAR}` in a
    /// value is replaced by weft's own variable.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// Working directory, relative to the project (default: the project, else the current
    /// directory).
    pub cwd: Option<PathBuf>,
    /// Start it (default true).
    #[serde(default = "enabled_by_default")]
    pub enabled: bool,
    /// Seconds the start may take (default 60, for a first `npx -y` run).
    pub startup_timeout_secs: Option<u64>,
    /// Seconds one tool call may take (default 60).
    pub call_timeout_secs: Option<u64>,
}

fn enabled_by_default() -> bool {
    true
}

/// The merged configuration file.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    /// The default model, `provider/model` or an alias.
    pub model: Option<String>,
    /// Providers by name.
    #[serde(default)]
    pub providers: BTreeMap<String, ProviderFile>,
    /// Model aliases (`sonnet` → `anthropic/claude-sonnet-4-5`).
    #[serde(default)]
    pub aliases: BTreeMap<String, String>,
    /// The agent used when `--agent` is absent.
    pub default_agent: Option<String>,
    /// Agent-loop defaults.
    #[serde(default)]
    pub agent: AgentSettings,
    /// Tools.
    #[serde(default)]
    pub tools: ToolSettings,
    /// Skills.
    #[serde(default)]
    pub skills: SkillSettings,
    /// MCP servers by name (their tools are `<name>__<tool>`).
    #[serde(default)]
    pub mcp_servers: BTreeMap<String, McpServerFile>,
    /// The OS sandbox for `exec_shell` (docs/SANDBOX.md).
    #[serde(default)]
    pub sandbox: weft_sandbox::SandboxSettings,
    /// Projects by directory (`~/` allowed): `trust_level` `trusted` applies a project's
    /// whole configuration (read from the user's files only; a project cannot list itself).
    #[serde(default)]
    pub projects: BTreeMap<String, crate::trust::ProjectSettings>,
    /// The permission mode and pre-approval patterns (docs/PERMISSIONS.md).
    #[serde(default)]
    pub permissions: crate::permissions::PermissionSettings,
    /// Caps on what is read from providers and MCP servers.
    #[serde(default)]
    pub limits: LimitSettings,
    /// Prices by `provider/model` or bare model id, in US dollars per million tokens
    /// (`input`, `output`, `cache_read`, `cache_write`): `/cost` and the JSON output's
    /// `cost_usd` use them.
    #[serde(default)]
    pub pricing: BTreeMap<String, weft_llm::ModelPrice>,
}
