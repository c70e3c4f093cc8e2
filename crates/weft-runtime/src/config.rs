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
    /// Seconds the start may take (default 10).
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
    /// Accept providers and extra paths from the project file.
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
    /// For each provider, the directory of the file that defined its `file` (replay paths).
    provider_dirs: BTreeMap<String, PathBuf>,
}

/// The most a config file may hold (a FIFO, a device or a `/proc` file is refused too).
const CONFIG_CAP: weft_fs::Cap = weft_fs::Cap::new(1024 * 1024, "config files");

/// Reads one config file; a missing optional file is `None`.
fn read_file(path: &Path, required: bool) -> Result<Option<Value>, ConfigError> {
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
    Ok(Some(value))
}

/// Merges `over` into `base`: objects key by key, anything else replaced.
fn merge(base: &mut Value, over: Value) {
    match (base, over) {
        (Value::Object(b), Value::Object(o)) => {
            for (k, v) in o {
                match b.get_mut(&k) {
                    Some(slot) => merge(slot, v),
                    None => {
                        b.insert(k, v);
                    }
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
        let layers = [
            (sources.user.as_deref(), false, false),
            (sources.project.as_deref(), false, true),
            (sources.explicit.as_deref(), true, false),
        ];
        for (path, required, is_project) in layers {
            let Some(path) = path else { continue };
            let Some(mut value) = read_file(path, required)? else {
                continue;
            };
            if is_project && !sources.trust_project {
                strip_untrusted(&mut value, path);
            }
            if is_project {
                crate::permissions::drop_project_bypass(&mut value, path);
            }
            let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
            if let Some(providers) = value.get("providers").and_then(Value::as_object) {
                for (name, p) in providers {
                    if p.get("file").is_some() {
                        provider_dirs.insert(name.clone(), dir.clone());
                    }
                }
            }
            merge(&mut merged, value);
            files.push(path.to_path_buf());
        }
        let file: ConfigFile =
            serde_json::from_value(merged.clone()).map_err(|source| ConfigError::Schema {
                files: files.clone(),
                source,
            })?;
        Ok(Self {
            file,
            files,
            value: merged,
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
        let (key_var, url_var) = match kind {
            ProviderKind::Anthropic => ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"),
            _ => ("OPENAI_API_KEY", "OPENAI_BASE_URL"),
        };
        let well_known = matches!(name, "openai" | "anthropic");
        let base_url = p
            .base_url
            .clone()
            .or_else(|| if well_known { env(url_var) } else { None })
            .unwrap_or_else(|| ProviderConfig::default_base_url(kind).to_owned());
        let mut config = ProviderConfig::new(name, kind, base_url);
        config.api_key = match (&p.api_key, &p.api_key_env) {
            (Some(key), _) => Some(ApiKey::new(key.clone())),
            (None, Some(var)) => Some(ApiKey::new(env(var).ok_or_else(|| {
                ConfigError::MissingKeyVariable {
                    provider: name.to_owned(),
                    var: var.clone(),
                }
            })?)),
            // A well-known provider picks up its usual variable; other names never get a
            // key they did not ask for (it would go to their base_url).
            (None, None) if well_known => env(key_var).map(ApiKey::new),
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

/// With exactly one provider and no default, a replay provider needs no model choice.
fn single_provider_default(catalog: &ModelCatalog) -> Option<String> {
    let mut providers = catalog.providers();
    let only = providers.next()?;
    if providers.next().is_some() || only.kind != ProviderKind::Replay {
        return None;
    }
    Some(format!("{}/replay", only.name))
}

/// Drops what an untrusted project file may not set: providers (they could send the user's
/// keys and prompts elsewhere), MCP servers (programs to run), the sandbox settings, the
/// permission settings and extra file-tool paths.
fn strip_untrusted(value: &mut Value, path: &Path) {
    let Some(obj) = value.as_object_mut() else {
        return;
    };
    if obj.remove("providers").is_some() {
        tracing::warn!(file = %path.display(), "project config `providers` ignored; pass --trust-project-skills to accept them");
    }
    // A project's MCP servers are programs it would make weft run: like project skills, only
    // when the project is trusted.
    if obj.remove("mcp_servers").is_some() {
        tracing::warn!(file = %path.display(), "project config `mcp_servers` ignored; pass --trust-project-skills to start them");
    }
    // The sandbox is the user's boundary around commands: a project must not loosen it.
    if obj.remove("sandbox").is_some() {
        tracing::warn!(file = %path.display(), "project config `sandbox` ignored; pass --trust-project-skills to accept it");
    }
    // What runs without asking is the user's decision, not the checkout's.
    if obj.remove("permissions").is_some() {
        tracing::warn!(file = %path.display(), "project config `permissions` ignored; pass --trust-project-skills to accept it");
    }
    if let Some(tools) = obj.get_mut("tools").and_then(Value::as_object_mut)
        && tools.remove("allow_paths").is_some()
    {
        tracing::warn!(file = %path.display(), "project config `tools.allow_paths` ignored; pass --trust-project-skills to accept it");
    }
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
    fn untrusted_project_sandbox_settings_are_ignored() {
        let tmp = tempfile::tempdir().unwrap();
        let user = write(
            tmp.path(),
            "u.json",
            r#"{"sandbox":{"enabled":true,"deny_read":["~/.kube"]}}"#,
        );
        let project = write(
            tmp.path(),
            "p.json",
            r#"{"sandbox":{"enabled":false,"network":true,"writable_roots":["/"]}}"#,
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
        .unwrap()
        .file
        .sandbox;
        assert!(!trusted.enabled);
        assert!(trusted.network);
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
        assert!(err.contains("unknown field `modle`"), "{err}");
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
