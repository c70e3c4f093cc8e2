//! `config.json`: the user's (`~/.clawft/config.json`), the project's
//! (`<project>/.clawft/config.json`) and `--config FILE`, merged in that order (objects merge
//! key by key, anything else is replaced), then the environment. See docs/CONFIG.md.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use serde_json::Value;
use weft_llm::{ApiKey, ModelCatalog, ProviderConfig, ProviderKind, RetryPolicy};

pub use crate::error::ConfigError;

/// Aliases offered when an `anthropic` provider exists and the config does not define them.
const ANTHROPIC_ALIASES: [(&str, &str); 3] = [
    ("haiku", "anthropic/claude-haiku-4-5"),
    ("sonnet", "anthropic/claude-sonnet-4-5"),
    ("opus", "anthropic/claude-opus-4-1"),
];

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
    /// Context window in tokens (sizes the skill catalog).
    pub context_window: Option<u64>,
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

/// The environment variable a provider of `kind` takes its key from by default:
/// `ANTHROPIC_API_KEY` for Anthropic, `OPENAI_API_KEY` for OpenAI-compatible servers (and
/// the replay provider, which needs none).
pub fn key_variable(kind: ProviderKind) -> &'static str {
    match kind {
        ProviderKind::Anthropic => "ANTHROPIC_API_KEY",
        _ => "OPENAI_API_KEY",
    }
}

/// The environment variable that moves the official endpoint of `kind`:
/// `ANTHROPIC_BASE_URL` or `OPENAI_BASE_URL`.
pub fn base_url_variable(kind: ProviderKind) -> &'static str {
    match kind {
        ProviderKind::Anthropic => "ANTHROPIC_BASE_URL",
        _ => "OPENAI_BASE_URL",
    }
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
}

/// Where config files are.
#[derive(Debug, Clone, Default)]
pub struct ConfigSources {
    /// `~/.clawft/config.json`.
    pub user: Option<PathBuf>,
    /// `<project>/.clawft/config.json`.
    pub project: Option<PathBuf>,
    /// `--config FILE` (must exist).
    pub explicit: Option<PathBuf>,
    /// Apply the whole project file; otherwise only
    /// [`PROJECT_KEYS`](crate::trust::PROJECT_KEYS) of it.
    pub trust_project: bool,
}

/// The configuration in effect.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// The merged file contents.
    pub file: ConfigFile,
    /// Files that were read, in merge order.
    pub files: Vec<PathBuf>,
    /// The merged files as JSON (`/config` in the REPL shows it with keys redacted).
    pub value: Value,
    /// Keys of the project file that were dropped, each with the reason: every key an
    /// untrusted project may not set, and, trusted or not, the sandbox keys only the user may
    /// set (see `user_only.rs`).
    pub ignored_project_keys: Vec<crate::trust::IgnoredKey>,
    /// For each provider, the directory of the file that defined its `file` (replay paths).
    provider_dirs: BTreeMap<String, PathBuf>,
}

/// The most a config file may hold (a FIFO, a device or a `/proc` file is refused too).
const CONFIG_CAP: weft_fs::Cap = weft_fs::Cap::new(1024 * 1024, "config files");

/// Reads one config file (its text and its JSON); a missing optional file is `None`.
pub(crate) fn read_file(
    path: &Path,
    required: bool,
) -> Result<Option<(String, Value)>, ConfigError> {
    let text = match weft_fs::read_regular(path, CONFIG_CAP) {
        Ok(bytes) => String::from_utf8(bytes).map_err(|_| ConfigError::NotUtf8 {
            path: path.to_path_buf(),
        })?,
        Err(e) if !required && e.is_not_found() => return Ok(None),
        Err(source) => {
            return Err(ConfigError::Read {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    let value: Value = serde_json::from_str(&text).map_err(|source| ConfigError::Json {
        path: path.to_path_buf(),
        line: source.line(),
        column: source.column(),
        source,
    })?;
    if !value.is_object() {
        return Err(ConfigError::NotAnObject {
            path: path.to_path_buf(),
        });
    }
    Ok(Some((text, value)))
}

/// Merges `over` into `base`: objects key by key, anything else replaced, except the lists
/// that only grow ([`GROWING_LISTS`]): a later file, a project's among them, can switch more
/// skills off or deny more paths to commands, but cannot take the user's back.
fn merge(base: &mut Value, over: Value) {
    merge_at(base, over, "");
}

/// The lists a later configuration file adds to instead of replacing.
const GROWING_LISTS: [&str; 2] = ["skills.disabled", "sandbox.deny_read"];

fn merge_at(base: &mut Value, over: Value, path: &str) {
    match (base, over) {
        (Value::Object(b), Value::Object(o)) => {
            for (k, v) in o {
                let child = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                match b.get_mut(&k) {
                    Some(slot) => merge_at(slot, v, &child),
                    None => {
                        b.insert(k, v);
                    }
                }
            }
        }
        (Value::Array(b), Value::Array(o)) if GROWING_LISTS.contains(&path) => {
            for item in o {
                if !b.contains(&item) {
                    b.push(item);
                }
            }
        }
        (slot, v) => *slot = v,
    }
}

impl Config {
    /// Loads and merges the files. Errors name the file (and line and column for JSON).
    pub fn load(sources: &ConfigSources) -> Result<Self, ConfigError> {
        let mut merged = Value::Object(serde_json::Map::new());
        let mut files = Vec::new();
        let mut provider_dirs = BTreeMap::new();
        let mut ignored_project_keys = Vec::new();
        let layers = [
            (sources.user.as_deref(), false, false),
            (sources.project.as_deref(), false, true),
            (sources.explicit.as_deref(), true, false),
        ];
        let mut texts = Vec::new();
        for (path, required, is_project) in layers {
            let Some(path) = path else { continue };
            let Some((text, mut value)) = read_file(path, required)? else {
                continue;
            };
            if is_project && !sources.trust_project {
                for ignored in crate::trust::keep_project_keys(&mut value) {
                    tracing::warn!(
                        file = %path.display(),
                        "project config key `{}` ignored: {} (--trust-project applies it)",
                        ignored.key,
                        ignored.reason
                    );
                    ignored_project_keys.push(ignored);
                }
            }
            if is_project {
                ignored_project_keys
                    .extend(crate::user_only::drop_user_only_keys(&mut value, path));
            }
            let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
            if let Some(providers) = value.get("providers").and_then(Value::as_object) {
                for (name, p) in providers {
                    if p.get("file").is_some() {
                        provider_dirs.insert(name.clone(), dir.clone());
                    }
                }
            }
            texts.push((path.to_path_buf(), text, value.clone()));
            merge(&mut merged, value);
            files.push(path.to_path_buf());
        }
        let file: ConfigFile = serde_json::from_value(merged.clone())
            .map_err(|source| crate::config_key::schema_error(&texts, source))?;
        for (name, entry) in &file.skills.entries {
            for key in entry.unused_openclaw_keys() {
                tracing::warn!(
                    "`skills.entries.{name}.{key}` is OpenClaw's; weft does not use it (no key or variable is given to a skill's commands)"
                );
            }
        }
        Ok(Self {
            file,
            files,
            value: merged,
            ignored_project_keys,
            provider_dirs,
        })
    }

    /// The model catalog: configured providers, then providers implied by the environment
    /// (`OPENAI_API_KEY`/`OPENAI_BASE_URL`, `ANTHROPIC_API_KEY`/`ANTHROPIC_BASE_URL`), the
    /// aliases, and the default model (`WEFT_MODEL` beats the file).
    pub fn models(
        &self,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<ModelCatalog, ConfigError> {
        let mut catalog = ModelCatalog::default();
        for (name, p) in &self.file.providers {
            catalog.add_provider(self.provider(name, p, env)?);
        }
        for (name, kind, key_var, url_var) in [
            (
                "openai",
                ProviderKind::OpenAi,
                "OPENAI_API_KEY",
                "OPENAI_BASE_URL",
            ),
            (
                "anthropic",
                ProviderKind::Anthropic,
                "ANTHROPIC_API_KEY",
                "ANTHROPIC_BASE_URL",
            ),
        ] {
            if self.file.providers.contains_key(name) {
                continue;
            }
            let key = env(key_var);
            let url = env(url_var);
            if key.is_none() && url.is_none() {
                continue;
            }
            let mut p = ProviderConfig::new(
                name,
                kind,
                url.unwrap_or_else(|| ProviderConfig::default_base_url(kind).to_owned()),
            );
            p.api_key = key.map(ApiKey::new);
            catalog.add_provider(p);
        }
        if catalog.provider("anthropic").is_some() {
            for (alias, target) in ANTHROPIC_ALIASES {
                if !self.file.aliases.contains_key(alias) {
                    catalog.add_alias(alias, target);
                }
            }
        }
        for (alias, target) in &self.file.aliases {
            catalog.add_alias(alias, target);
        }
        if let Some(model) = env("WEFT_MODEL").or_else(|| self.file.model.clone()) {
            catalog.set_default(model);
        } else if let Some(only) = single_provider_default(&catalog) {
            catalog.set_default(only);
        }
        Ok(catalog)
    }

    fn provider(
        &self,
        name: &str,
        p: &ProviderFile,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<ProviderConfig, ConfigError> {
        let kind = p.kind.unwrap_or(match name {
            "anthropic" => ProviderKind::Anthropic,
            "replay" => ProviderKind::Replay,
            _ => ProviderKind::OpenAi,
        });
        let (key_var, url_var) = (key_variable(kind), base_url_variable(kind));
        // `OPENAI_BASE_URL` belongs to the provider called `openai` of kind `openai` (and
        // the same for Anthropic), never to a provider that only borrows one of the names.
        let env_url = match (name, kind) {
            ("openai", ProviderKind::OpenAi) | ("anthropic", ProviderKind::Anthropic) => {
                env(url_var)
            }
            _ => None,
        };
        let url_from_env = p.base_url.is_none() && env_url.is_some();
        let base_url = p
            .base_url
            .clone()
            .or(env_url)
            .unwrap_or_else(|| ProviderConfig::default_base_url(kind).to_owned());
        // The environment's key goes where the environment says (its own base URL variable)
        // or to the official endpoint of the key's own service; a provider pointing anywhere
        // else gets a key only by naming it (`api_key` / `api_key_env`).
        let official = kind != ProviderKind::Replay
            && base_url.trim_end_matches('/') == ProviderConfig::default_base_url(kind);
        let mut config = ProviderConfig::new(name, kind, base_url);
        config.api_key = match (&p.api_key, &p.api_key_env) {
            (Some(key), _) => Some(ApiKey::new(key.clone())),
            (None, Some(var)) => Some(ApiKey::new(env(var).ok_or_else(|| {
                ConfigError::MissingKeyVariable {
                    provider: name.to_owned(),
                    var: var.clone(),
                }
            })?)),
            (None, None) if official || url_from_env => env(key_var).map(ApiKey::new),
            (None, None) => None,
        };
        if let Some(secs) = p.timeout_secs {
            config.timeout = Duration::from_secs(secs.max(1));
        }
        if let Some(retries) = p.max_retries {
            config.retry = RetryPolicy {
                max_retries: retries,
                ..RetryPolicy::default()
            };
        }
        if kind == ProviderKind::Replay {
            let file = p
                .file
                .as_ref()
                .ok_or_else(|| ConfigError::ReplayWithoutFile {
                    provider: name.to_owned(),
                })?;
            let base = self.provider_dirs.get(name).cloned().unwrap_or_default();
            config.replay_file = Some(base.join(file));
        }
        Ok(config)
    }
}

/// The model used with only OpenAI's own API configured and no model named anywhere: a
/// current general model that takes tools, streaming and `temperature` on every account.
pub const OPENAI_DEFAULT_MODEL: &str = "gpt-4.1";

/// The model used with only Anthropic's own API configured and no model named anywhere (the
/// `sonnet` alias).
pub const ANTHROPIC_DEFAULT_MODEL: &str = "claude-sonnet-4-5";

/// With exactly one provider and no default: a replay provider needs no model choice, and
/// OpenAI's or Anthropic's own endpoint gets its documented default. A provider at another
/// address (Ollama, a proxy) serves models weft cannot guess, so it gets none.
fn single_provider_default(catalog: &ModelCatalog) -> Option<String> {
    let mut providers = catalog.providers();
    let only = providers.next()?;
    if providers.next().is_some() {
        return None;
    }
    let official =
        only.base_url.trim_end_matches('/') == ProviderConfig::default_base_url(only.kind);
    let model = match only.kind {
        ProviderKind::Replay => "replay",
        ProviderKind::OpenAi if official => OPENAI_DEFAULT_MODEL,
        ProviderKind::Anthropic if official => ANTHROPIC_DEFAULT_MODEL,
        _ => return None,
    };
    Some(format!("{}/{model}", only.name))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |k| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| (*v).to_owned())
        }
    }

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn files_merge_in_order_and_objects_merge_by_key() {
        let tmp = tempfile::tempdir().unwrap();
        let user = write(
            tmp.path(),
            "user.json",
            r#"{"model":"ollama/a","providers":{"ollama":{"base_url":"http://localhost:11434/v1"}},"agent":{"temperature":0.1,"max_tool_iterations":5}}"#,
        );
        let explicit = write(
            tmp.path(),
            "x.json",
            r#"{"model":"ollama/b","agent":{"temperature":0.7}}"#,
        );
        let config = Config::load(&ConfigSources {
            user: Some(user),
            explicit: Some(explicit),
            ..Default::default()
        })
        .unwrap();
        assert_eq!(config.file.model.as_deref(), Some("ollama/b"));
        assert_eq!(config.file.agent.temperature, Some(0.7));
        assert_eq!(config.file.agent.max_tool_iterations, Some(5));
        let models = config.models(&env_of(&[])).unwrap();
        assert_eq!(models.resolve_default().unwrap().to_string(), "ollama/b");
    }

    #[test]
    fn environment_implies_providers_and_keys_and_weft_model_wins() {
        let config = Config::default();
        let models = config
            .models(&env_of(&[
                ("ANTHROPIC_API_KEY", "sk-ant"),
                ("OPENAI_BASE_URL", "http://localhost:8000/v1"),
                ("WEFT_MODEL", "sonnet"),
            ]))
            .unwrap();
        let anthropic = models.provider("anthropic").unwrap();
        assert_eq!(anthropic.api_key.as_ref().unwrap().expose(), "sk-ant");
        assert_eq!(
            models.provider("openai").unwrap().base_url,
            "http://localhost:8000/v1"
        );
        assert_eq!(
            models.resolve_default().unwrap().to_string(),
            "anthropic/claude-sonnet-4-5"
        );
    }

    #[test]
    fn a_single_well_known_provider_has_a_default_model() {
        let default_of = |env: &'static [(&'static str, &'static str)]| {
            Config::default()
                .models(&env_of(env))
                .unwrap()
                .resolve_default()
                .map(|m| m.to_string())
                .map_err(|e| e.to_string())
        };
        assert_eq!(
            default_of(&[("OPENAI_API_KEY", "sk")]).unwrap(),
            "openai/gpt-4.1"
        );
        assert_eq!(
            default_of(&[("ANTHROPIC_API_KEY", "sk")]).unwrap(),
            "anthropic/claude-sonnet-4-5"
        );
        // Two providers, or a server weft cannot know the models of: the user chooses.
        assert!(default_of(&[("OPENAI_API_KEY", "a"), ("ANTHROPIC_API_KEY", "b")]).is_err());
        assert!(default_of(&[("OPENAI_BASE_URL", "http://localhost:11434/v1")]).is_err());
        assert_eq!(
            default_of(&[("OPENAI_API_KEY", "sk"), ("WEFT_MODEL", "openai/o3")]).unwrap(),
            "openai/o3"
        );
    }

    #[test]
    fn a_custom_provider_never_receives_a_well_known_key() {
        let tmp = tempfile::tempdir().unwrap();
        let user = write(
            tmp.path(),
            "c.json",
            r#"{"providers":{"proxy":{"base_url":"http://evil.example/v1"}}}"#,
        );
        let config = Config::load(&ConfigSources {
            user: Some(user),
            ..Default::default()
        })
        .unwrap();
        let models = config
            .models(&env_of(&[("OPENAI_API_KEY", "sk-secret")]))
            .unwrap();
        assert!(models.provider("proxy").unwrap().api_key.is_none());
    }

    #[test]
    fn an_environment_key_goes_only_to_its_official_endpoint_or_where_named() {
        let tmp = tempfile::tempdir().unwrap();
        let user = write(
            tmp.path(),
            "c.json",
            r#"{"providers":{
                "anthropic":{"kind":"openai","base_url":"http://evil.example/v1"},
                "openai":{"base_url":"http://localhost:11434/v1/"},
                "work":{"kind":"openai","base_url":"https://api.openai.com/v1/"},
                "claude":{"kind":"anthropic"},
                "named":{"base_url":"http://proxy.example","api_key_env":"OPENAI_API_KEY"}
            }}"#,
        );
        let config = Config::load(&ConfigSources {
            user: Some(user),
            ..Default::default()
        })
        .unwrap();
        let models = config
            .models(&env_of(&[
                ("OPENAI_API_KEY", "sk-openai"),
                ("ANTHROPIC_API_KEY", "sk-ant"),
                (
                    "ANTHROPIC_BASE_URL",
                    "http://also-not-for-a-misnamed-provider",
                ),
            ]))
            .unwrap();
        let key = |name: &str| {
            models
                .provider(name)
                .unwrap()
                .api_key
                .as_ref()
                .map(|k| k.expose().to_owned())
        };
        // Named `anthropic`, speaking OpenAI to another host: neither key, nor the URL.
        assert_eq!(key("anthropic"), None);
        assert_eq!(
            models.provider("anthropic").unwrap().base_url,
            "http://evil.example/v1"
        );
        // `openai` pointed elsewhere in a file: the key stays home.
        assert_eq!(key("openai"), None);
        // Any name at the official endpoint of its kind gets that kind's key.
        assert_eq!(key("work").as_deref(), Some("sk-openai"));
        assert_eq!(key("claude").as_deref(), Some("sk-ant"));
        // Naming the variable sends it wherever the provider points.
        assert_eq!(key("named").as_deref(), Some("sk-openai"));
        // The environment's own URL variable carries the environment's key with it.
        let config = Config::load(&ConfigSources {
            explicit: Some(write(
                tmp.path(),
                "o.json",
                r#"{"providers":{"openai":{"timeout_secs":5}}}"#,
            )),
            ..Default::default()
        })
        .unwrap();
        let models = config
            .models(&env_of(&[
                ("OPENAI_API_KEY", "sk-openai"),
                ("OPENAI_BASE_URL", "http://localhost:8000/v1"),
            ]))
            .unwrap();
        let openai = models.provider("openai").unwrap();
        assert_eq!(openai.base_url, "http://localhost:8000/v1");
        assert_eq!(openai.api_key.as_ref().unwrap().expose(), "sk-openai");
    }

    #[test]
    fn untrusted_project_providers_are_ignored() {
        let tmp = tempfile::tempdir().unwrap();
        let project = write(
            tmp.path(),
            "p.json",
            r#"{"model":"openai/x","providers":{"openai":{"base_url":"http://evil.example"}}}"#,
        );
        let sources = ConfigSources {
            project: Some(project),
            ..Default::default()
        };
        let config = Config::load(&sources).unwrap();
        assert!(config.file.providers.is_empty());
        assert_eq!(config.file.model.as_deref(), Some("openai/x"));
        let trusted = Config::load(&ConfigSources {
            trust_project: true,
            ..sources
        })
        .unwrap();
        assert_eq!(trusted.file.providers.len(), 1);
    }

    #[test]
    fn project_sandbox_settings_are_ignored_untrusted_and_only_narrow_trusted() {
        let tmp = tempfile::tempdir().unwrap();
        let user = write(
            tmp.path(),
            "u.json",
            r#"{"sandbox":{"enabled":true,"deny_read":["~/.kube"]}}"#,
        );
        let project = write(
            tmp.path(),
            "p.json",
            r#"{"sandbox":{"enabled":false,"network":true,"writable_roots":["/"],"deny_read":[".env"]}}"#,
        );
        let sources = ConfigSources {
            user: Some(user),
            project: Some(project),
            ..Default::default()
        };
        let sandbox = Config::load(&sources).unwrap().file.sandbox;
        assert!(sandbox.enabled);
        assert!(!sandbox.network);
        assert!(sandbox.writable_roots.is_empty());
        assert_eq!(sandbox.deny_read, [PathBuf::from("~/.kube")]);
        let trusted = Config::load(&ConfigSources {
            trust_project: true,
            ..sources
        })
        .unwrap();
        let ignored: Vec<&str> = trusted
            .ignored_project_keys
            .iter()
            .map(|k| k.key.as_str())
            .collect();
        assert_eq!(
            ignored,
            [
                "sandbox.enabled",
                "sandbox.network",
                "sandbox.writable_roots"
            ]
        );
        let trusted = trusted.file.sandbox;
        assert!(trusted.enabled);
        assert!(!trusted.network);
        assert!(trusted.writable_roots.is_empty());
        // A project adds to the denied paths; it cannot take the user's away.
        assert_eq!(
            trusted.deny_read,
            [PathBuf::from("~/.kube"), PathBuf::from(".env")]
        );
    }

    #[test]
    fn mcp_servers_parse_and_untrusted_project_servers_are_dropped() {
        let tmp = tempfile::tempdir().unwrap();
        let user = write(
            tmp.path(),
            "u.json",
            r#"{"mcp_servers":{"github":{"command":"npx","args":["-y","gh"],"env":{"T":"x"},"call_timeout_secs":5}}}"#,
        );
        let project = write(
            tmp.path(),
            "p.json",
            r#"{"mcp_servers":{"evil":{"command":"/tmp/evil"},"github":{"enabled":false}}}"#,
        );
        let sources = ConfigSources {
            user: Some(user),
            project: Some(project),
            ..Default::default()
        };
        let config = Config::load(&sources).unwrap();
        let servers = &config.file.mcp_servers;
        assert_eq!(servers.keys().collect::<Vec<_>>(), ["github"]);
        let github = &servers["github"];
        assert!(github.enabled);
        assert_eq!(github.args, ["-y", "gh"]);
        assert_eq!(github.call_timeout_secs, Some(5));
        let trusted = Config::load(&ConfigSources {
            trust_project: true,
            ..sources
        })
        .unwrap();
        let servers = &trusted.file.mcp_servers;
        assert_eq!(servers.keys().collect::<Vec<_>>(), ["evil", "github"]);
        assert!(!servers["github"].enabled);
        assert_eq!(servers["github"].command, "npx");
        let typo = write(
            tmp.path(),
            "t.json",
            r#"{"mcp_servers":{"x":{"command":"a","argz":[]}}}"#,
        );
        let err = Config::load(&ConfigSources {
            explicit: Some(typo),
            ..Default::default()
        })
        .unwrap_err()
        .to_string();
        assert!(err.contains("unknown field `argz`"), "{err}");
        assert!(err.contains(":1: `mcp_servers.x.argz`: "), "{err}");
        assert!(err.ends_with("; did you mean `args`?"), "{err}");
    }

    #[test]
    fn bad_json_names_file_line_and_column_and_unknown_keys_are_errors() {
        let tmp = tempfile::tempdir().unwrap();
        let bad = write(tmp.path(), "bad.json", "{\n  \"model\": \n}");
        let err = Config::load(&ConfigSources {
            explicit: Some(bad.clone()),
            ..Default::default()
        })
        .unwrap_err()
        .to_string();
        assert!(
            err.starts_with(&format!("{}:3:1: invalid JSON: ", bad.display())),
            "{err}"
        );
        let typo = write(tmp.path(), "typo.json", r#"{"modle":"x"}"#);
        let err = Config::load(&ConfigSources {
            explicit: Some(typo),
            ..Default::default()
        })
        .unwrap_err()
        .to_string();
        assert_eq!(
            err,
            format!(
                "{}:1: `modle`: unknown field `modle`, expected one of `model`, `providers`, `aliases`, `default_agent`, `agent`, `tools`, `skills`, `mcp_servers`, `sandbox`, `projects`, `permissions`; did you mean `model`?",
                tmp.path().join("typo.json").display()
            )
        );
        let missing = Config::load(&ConfigSources {
            explicit: Some(tmp.path().join("nope.json")),
            ..Default::default()
        });
        assert!(missing.is_err());
    }

    #[test]
    fn replay_file_is_relative_to_its_config() {
        let tmp = tempfile::tempdir().unwrap();
        let c = write(
            tmp.path(),
            "c.json",
            r#"{"providers":{"demo":{"kind":"replay","file":"rec.jsonl"}}}"#,
        );
        let config = Config::load(&ConfigSources {
            explicit: Some(c),
            ..Default::default()
        })
        .unwrap();
        let models = config.models(&env_of(&[])).unwrap();
        assert_eq!(
            models.provider("demo").unwrap().replay_file.as_deref(),
            Some(tmp.path().join("rec.jsonl").as_path())
        );
        assert_eq!(models.resolve_default().unwrap().to_string(), "demo/replay");
    }
}
