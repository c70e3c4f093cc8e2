//! The configuration in effect, value by value, with where each value came from: a
//! configuration file, an environment variable, the command line (`--permission-mode`), or
//! weft's default (`weft config show --origin`, `/config`, `weft doctor`). Secrets are masked here, once, so no caller can
//! forget to.
//!
//! Values set in files are attributed by loading each file alone through [`Config::load`]
//! (the same reading and the same untrusted-project filter as the merged load) and taking the
//! last file that sets the value in effect. Values the files do not set come from what the
//! runtime actually uses (the model catalog, the session options, the MCP server
//! configurations), so this view cannot drift from behaviour: an environment variable is named
//! as the origin only when its value is the one in effect.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};
use weft_llm::{ProviderConfig, ProviderKind};

use crate::config::{Config, ConfigSources};
use crate::error::ConfigError;
use crate::runtime::Runtime;

/// The variables that configure the well-known providers and the default model; each is
/// named as an origin when its value is in effect.
const PROVIDER_VARS: [&str; 4] = [
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_BASE_URL",
];

/// Where a value in effect came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// A configuration file.
    File(PathBuf),
    /// Several files, each adding to a list (Claude Code's settings join their lists).
    Files(Vec<PathBuf>),
    /// An environment variable.
    Env(String),
    /// A command-line option (`--permission-mode`), which beats the files.
    Flag(String),
    /// weft's built-in default (or a value derived from other settings).
    Default,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::File(path) => write!(f, "{}", path.display()),
            Self::Files(paths) => {
                let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
                f.write_str(&names.join(" + "))
            }
            Self::Env(name) => write!(f, "env {name}"),
            Self::Flag(flag) => f.write_str(flag),
            Self::Default => f.write_str("default"),
        }
    }
}

/// One value in effect.
#[derive(Debug, Clone, PartialEq)]
pub struct Setting {
    /// Its path in the configuration (`["providers", "openai", "api_key"]`).
    pub key: Vec<String>,
    /// The value, secrets masked; `null` for a value that is not set.
    pub value: Value,
    /// Where it came from.
    pub origin: Origin,
}

impl Setting {
    /// The key as a dot path, `providers.openai.api_key`.
    pub fn dotted(&self) -> String {
        self.key.join(".")
    }
}

/// Which configuration file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileRole {
    /// `~/.clawft/config.json`.
    User,
    /// `<project>/.clawft/config.json`.
    Project,
    /// `--config FILE`.
    Explicit,
    /// A Claude Code settings file (`~/.claude/settings.json`, the project's two).
    Claude(crate::claude::SettingsScope),
}

impl FileRole {
    /// `user`, `project`, `--config`.
    pub fn label(self) -> &'static str {
        match self {
            Self::User => "user",
            Self::Project => "project",
            Self::Explicit => "--config",
            Self::Claude(scope) => scope.label(),
        }
    }
}

/// A configuration file weft looks at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigFileState {
    /// Its path.
    pub path: PathBuf,
    /// Which file it is.
    pub role: FileRole,
    /// It exists and was read.
    pub found: bool,
    /// Everything in it counts (always, except a project file that is not trusted: neither
    /// `--trust-project` nor the user's `projects` list).
    pub trusted: bool,
    /// What an untrusted file sets that is ignored (`providers`, `tools.web_fetch`), as the
    /// load's warnings name it.
    pub ignored: Vec<String>,
    /// What a Claude Code settings file sets that weft does not use (`env`, `model`).
    pub unused: Vec<String>,
}

/// The configuration in effect.
#[derive(Debug, Clone, PartialEq)]
pub struct EffectiveConfig {
    /// The files, in merge order.
    pub files: Vec<ConfigFileState>,
    /// Every value, sorted by key.
    pub settings: Vec<Setting>,
}

impl EffectiveConfig {
    /// The configuration `runtime` runs with.
    pub fn of(runtime: &Runtime) -> Result<Self, ConfigError> {
        let sources = runtime.workspace.config_sources();
        let layers = layers(&sources)?;
        let mut view = View::default();
        for (layer, value) in &layers {
            if let Some(value) = value {
                for (key, leaf) in leaves(value) {
                    view.set_by_file(key, leaf, &layer.path);
                }
            }
        }
        let env = |name: &str| runtime.workspace.env.var(name);
        view.providers(runtime.models.catalog(), &env);
        view.defaults(runtime);
        view.claude(&runtime.config.claude);
        let mut files: Vec<ConfigFileState> = layers.into_iter().map(|(state, _)| state).collect();
        // Claude Code's files are listed when they exist.
        files.extend(runtime.config.claude.files.iter().map(|f| ConfigFileState {
            path: f.path.clone(),
            role: FileRole::Claude(f.scope),
            found: true,
            trusted: f.trusted,
            ignored: f.ignored.iter().map(|k| k.key.clone()).collect(),
            unused: f.unused.clone(),
        }));
        Ok(Self {
            files,
            settings: view.finish(),
        })
    }

    /// The setting at a dot path.
    pub fn get(&self, dotted: &str) -> Option<&Setting> {
        self.settings.iter().find(|s| s.dotted() == dotted)
    }

    /// The values as one JSON document, shaped like `config.json` (secrets masked).
    pub fn to_json(&self) -> Value {
        settings_json(&self.settings)
    }
}

/// Some settings as one JSON document, shaped like `config.json`.
pub fn settings_json<'s>(settings: impl IntoIterator<Item = &'s Setting>) -> Value {
    let mut root = Value::Object(Map::new());
    for setting in settings {
        insert(&mut root, &setting.key, setting.value.clone());
    }
    root
}

/// `sk-…wxyz`: enough to tell keys apart, never enough to use one. Short keys show nothing.
///
/// ```
/// use weft_runtime::mask_secret;
///
/// assert_eq!(mask_secret("sk-proj-abcdefghijklmnopqrstuvwxyz"), "sk-…wxyz");
/// assert_eq!(mask_secret("short-key"), "…");
/// ```
pub fn mask_secret(secret: &str) -> String {
    let chars: Vec<char> = secret.chars().collect();
    if chars.len() < 16 {
        return "…".to_owned();
    }
    let head: String = chars[..3].iter().collect();
    let tail: String = chars[chars.len() - 4..].iter().collect();
    format!("{head}…{tail}")
}

/// Each file read alone (filtered as the merged load filters it), with its state.
fn layers(sources: &ConfigSources) -> Result<Vec<(ConfigFileState, Option<Value>)>, ConfigError> {
    let roles = [
        (FileRole::User, sources.user.as_ref()),
        (FileRole::Project, sources.project.as_ref()),
        (FileRole::Explicit, sources.explicit.as_ref()),
    ];
    let mut out = Vec::new();
    for (role, path) in roles {
        let Some(path) = path else { continue };
        let alone = |trust: bool| {
            let mut only = ConfigSources {
                trust_project: trust,
                ..ConfigSources::default()
            };
            match role {
                FileRole::User => only.user = Some(path.clone()),
                FileRole::Project => only.project = Some(path.clone()),
                FileRole::Explicit | FileRole::Claude(_) => only.explicit = Some(path.clone()),
            }
            // The merged load has already warned about this file: stay quiet.
            tracing::subscriber::with_default(tracing::subscriber::NoSubscriber::default(), || {
                Config::load(&only)
            })
        };
        let trusted = role != FileRole::Project || sources.trust_project;
        let config = alone(sources.trust_project)?;
        let found = !config.files.is_empty();
        let ignored = config
            .ignored_project_keys
            .iter()
            .map(|k| k.key.clone())
            .collect();
        out.push((
            ConfigFileState {
                path: path.clone(),
                role,
                found,
                trusted,
                ignored,
                unused: Vec::new(),
            },
            found.then_some(config.value),
        ));
    }
    Ok(out)
}

/// Every leaf of a JSON value with its path: objects are walked, anything else (arrays
/// included) is a leaf; an empty object is a leaf too, except the whole file's (`{}` sets
/// nothing: it has no key to show).
fn leaves(value: &Value) -> Vec<(Vec<String>, Value)> {
    fn walk(value: &Value, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, Value)>) {
        match value {
            Value::Object(map) if !map.is_empty() || path.is_empty() => {
                for (k, v) in map {
                    path.push(k.clone());
                    walk(v, path, out);
                    path.pop();
                }
            }
            other => out.push((path.clone(), other.clone())),
        }
    }
    let mut out = Vec::new();
    walk(value, &mut Vec::new(), &mut out);
    out
}

/// Puts `value` at `key` in `root`, making objects on the way.
fn insert(root: &mut Value, key: &[String], value: Value) {
    let Some((last, parents)) = key.split_last() else {
        *root = value;
        return;
    };
    let mut at = root;
    for part in parents {
        if !at.is_object() {
            *at = Value::Object(Map::new());
        }
        let Value::Object(map) = at else { return };
        at = map
            .entry(part.clone())
            .or_insert_with(|| Value::Object(Map::new()));
    }
    if let Value::Object(map) = at {
        map.insert(last.clone(), value);
    }
}

/// Whether the value at `key` is a secret (API keys; MCP server variables named like one,
/// unless they only refer to another variable with `${VAR}`).
fn is_secret(key: &[String], value: &Value) -> bool {
    let name = key.last().map(String::as_str).unwrap_or_default();
    // OpenClaw's `skills.entries.<name>.apiKey` too (accepted, never used).
    let openclaw_key = key.len() == 4 && key[0] == "skills" && name == "apiKey";
    if name == "api_key" || openclaw_key {
        return true;
    }
    let in_skill_env = key.len() == 5 && key[0] == "skills" && key[3] == "env";
    let in_server_env =
        (key.len() == 4 && key[0] == "mcp_servers" && key[2] == "env") || in_skill_env;
    let reference = value
        .as_str()
        .is_some_and(|s| s.starts_with("${") && s.ends_with('}'));
    in_server_env && weft_sandbox::is_secret_name(name) && !reference
}

fn masked(key: &[String], value: Value) -> Value {
    match value {
        Value::String(s) if is_secret(key, &Value::String(s.clone())) => {
            Value::String(mask_secret(&s))
        }
        other => other,
    }
}

/// One file as [`Origin::File`], several as [`Origin::Files`].
fn files_origin(mut files: Vec<PathBuf>) -> Origin {
    if files.len() == 1 {
        Origin::File(files.remove(0))
    } else {
        Origin::Files(files)
    }
}

fn path(parts: &[&str]) -> Vec<String> {
    parts.iter().map(|p| (*p).to_owned()).collect()
}

/// The settings being assembled, by key.
#[derive(Default)]
struct View {
    settings: BTreeMap<Vec<String>, Setting>,
}

impl View {
    /// A value a file sets (later files win).
    fn set_by_file(&mut self, key: Vec<String>, value: Value, file: &Path) {
        let value = masked(&key, value);
        self.settings.insert(
            key.clone(),
            Setting {
                key,
                value,
                origin: Origin::File(file.to_path_buf()),
            },
        );
    }

    /// The value in effect at `key`: a file that set it stays its origin (the value may have
    /// been adjusted, e.g. a timeout of 0 raised to 1); otherwise `origin`.
    fn effective(&mut self, key: &[&str], value: Value, origin: Origin) {
        let key = path(key);
        let value = masked(&key, value);
        match self.settings.get_mut(&key) {
            Some(s) if matches!(s.origin, Origin::File(_)) => s.value = value,
            _ => self.force(key, value, origin),
        }
    }

    /// `value` at `key` from `origin`, whatever a file said (the environment beat it).
    fn force(&mut self, key: Vec<String>, value: Value, origin: Origin) {
        let value = masked(&key, value);
        self.settings
            .insert(key.clone(), Setting { key, value, origin });
    }

    fn file_origin(&self, key: &[&str]) -> Option<Origin> {
        self.settings
            .get(&path(key))
            .map(|s| s.origin.clone())
            .filter(|o| matches!(o, Origin::File(_)))
    }

    /// The default model, the aliases and every provider the catalog has, attributed.
    fn providers(
        &mut self,
        catalog: &weft_llm::ModelCatalog,
        env: &dyn Fn(&str) -> Option<String>,
    ) {
        let env_origin = |names: &[&str], value: &str| {
            names
                .iter()
                .find(|n| env(n).as_deref() == Some(value))
                .map(|n| Origin::Env((*n).to_owned()))
        };
        match catalog.default_model() {
            Some(model) => {
                // WEFT_MODEL beats the files, so it is the origin whenever it holds the value.
                let from_file = self.file_value(&["model"]) == Some(json!(model));
                let origin = env_origin(&["WEFT_MODEL"], model)
                    .or_else(|| from_file.then(|| self.file_origin(&["model"])).flatten())
                    .unwrap_or(Origin::Default);
                self.force(path(&["model"]), json!(model), origin);
            }
            None => self.effective(&["model"], Value::Null, Origin::Default),
        }
        for (alias, target) in catalog.aliases() {
            self.effective(&["aliases", alias], json!(target), Origin::Default);
        }
        for provider in catalog.providers() {
            self.provider(provider, &env_origin);
        }
    }

    fn file_value(&self, key: &[&str]) -> Option<Value> {
        self.settings
            .get(&path(key))
            .filter(|s| matches!(s.origin, Origin::File(_)))
            .map(|s| s.value.clone())
    }

    fn provider(
        &mut self,
        p: &ProviderConfig,
        env_origin: &dyn Fn(&[&str], &str) -> Option<Origin>,
    ) {
        let name = p.name.as_str();
        let key = |field: &'static str| ["providers", name, field];
        let kind = match p.kind {
            ProviderKind::OpenAi => "openai",
            ProviderKind::Anthropic => "anthropic",
            ProviderKind::Replay => "replay",
        };
        self.effective(&key("kind"), json!(kind), Origin::Default);
        if p.kind == ProviderKind::Replay {
            let file = p.replay_file.as_ref().map(|f| f.display().to_string());
            self.effective(&key("file"), json!(file), Origin::Default);
        } else {
            let from_file = self.file_value(&key("base_url")) == Some(json!(p.base_url));
            let origin = if from_file {
                self.file_origin(&key("base_url"))
            } else {
                env_origin(&PROVIDER_VARS, &p.base_url)
            };
            self.force(
                path(&key("base_url")),
                json!(p.base_url),
                origin.unwrap_or(Origin::Default),
            );
        }
        let api_key = p.api_key.as_ref().map(|k| k.expose().to_owned());
        let origin = match &api_key {
            None => Origin::Default,
            Some(k) => self
                .file_origin(&key("api_key"))
                .or_else(|| {
                    self.file_value(&key("api_key_env"))
                        .and_then(|v| v.as_str().map(|s| Origin::Env(s.to_owned())))
                })
                .or_else(|| env_origin(&PROVIDER_VARS, k))
                .unwrap_or(Origin::Default),
        };
        self.force(path(&key("api_key")), json!(api_key), origin);
        self.effective(
            &key("timeout_secs"),
            json!(p.timeout.as_secs()),
            Origin::Default,
        );
        self.effective(
            &key("max_retries"),
            json!(p.retry.max_retries),
            Origin::Default,
        );
    }

    /// The values the runtime uses when the files do not set them.
    fn defaults(&mut self, runtime: &Runtime) {
        let file = &runtime.config.file;
        let d = Origin::Default;
        self.effective(
            &["default_agent"],
            json!(file.default_agent.as_deref().unwrap_or("default")),
            d.clone(),
        );
        if let Ok(options) = runtime.session_options(true, false) {
            let agent = [
                ("max_tool_iterations", json!(options.max_tool_iterations)),
                ("max_spawn_depth", json!(options.spawn.max_depth)),
                (
                    "max_concurrent_subagents",
                    json!(options.spawn.max_concurrent),
                ),
                (
                    "subagent_timeout_secs",
                    json!(options.spawn.default_timeout.as_secs()),
                ),
                ("auto_compact", json!(options.auto_compact)),
                ("compact_threshold", json!(options.compact_threshold)),
                (
                    "tool_result_max_bytes",
                    json!(options.tool_result_max_bytes),
                ),
            ];
            for (name, value) in agent {
                self.effective(&["agent", name], value, d.clone());
            }
            self.effective(
                &["skills", "max_prompt_bytes"],
                json!(options.max_skill_prompt_bytes),
                d.clone(),
            );
            self.effective(
                &["skills", "dynamic_context"],
                json!(options.dynamic_context),
                d.clone(),
            );
        }
        self.effective(
            &["agent", "transcripts"],
            json!(file.agent.transcripts.unwrap_or(true)),
            d.clone(),
        );
        let exec = weft_tools::ExecConfig::default();
        let tools = &file.tools;
        self.effective(
            &["tools", "exec_timeout_secs"],
            json!(tools.exec_timeout_secs.unwrap_or(exec.timeout.as_secs())),
            d.clone(),
        );
        self.effective(
            &["tools", "output_cap"],
            json!(tools.output_cap.unwrap_or(exec.output_cap)),
            d.clone(),
        );
        self.effective(
            &["sandbox", "enabled"],
            json!(file.sandbox.enabled()),
            d.clone(),
        );
        self.permissions(runtime);
        let limits = file.limits.response_limits();
        let caps = [
            ("response_bytes", limits.body_bytes),
            ("stream_bytes", limits.stream_bytes),
            ("event_bytes", limits.event_bytes),
            ("text_bytes", limits.text_bytes),
            ("tool_arguments_bytes", limits.tool_arguments_bytes),
            ("mcp_message_bytes", file.limits.mcp_message_bytes()),
        ];
        for (name, bytes) in caps {
            self.effective(&["limits", name], json!(bytes), d.clone());
        }
        let base = runtime.base_dir().unwrap_or_default();
        let env = |name: &str| runtime.workspace.env.var(name);
        let (servers, _) = crate::mcp::server_configs(&file.mcp_servers, &file.limits, &base, &env);
        for server in servers {
            let name = server.name.as_str();
            let timeouts = [
                ("startup_timeout_secs", server.startup_timeout.as_secs()),
                ("call_timeout_secs", server.call_timeout.as_secs()),
            ];
            for (field, secs) in timeouts {
                self.effective(&["mcp_servers", name, field], json!(secs), d.clone());
            }
            self.effective(&["mcp_servers", name, "enabled"], json!(true), d.clone());
        }
    }

    /// `permissions.mode` as the sessions get it (`--permission-mode` beats the files; a
    /// project file's `bypass` was dropped when it was read) and `permissions.allow`.
    fn permissions(&mut self, runtime: &Runtime) {
        let file = &runtime.config.file.permissions;
        let mode = runtime.permission_mode();
        let value = json!(mode.as_str());
        let claude = runtime.config.claude.default_mode();
        match (runtime.command_line_permission_mode(), &file.mode, claude) {
            (Some(_), _, _) => self.force(
                path(&["permissions", "mode"]),
                value,
                Origin::Flag("--permission-mode".to_owned()),
            ),
            (None, None, Some((_, from))) => self.force(
                path(&["permissions", "mode"]),
                value,
                Origin::File(from.to_path_buf()),
            ),
            (None, _, _) => self.effective(&["permissions", "mode"], value, Origin::Default),
        }
        // Claude Code's `permissions.allow` pre-approves too.
        let claude_allow = runtime.config.claude.list("/permissions/allow");
        if claude_allow.is_empty() {
            self.effective(
                &["permissions", "allow"],
                json!(file.allow),
                Origin::Default,
            );
        } else {
            let mut files: Vec<PathBuf> = match self.file_origin(&["permissions", "allow"]) {
                Some(Origin::File(p)) => vec![p],
                _ => Vec::new(),
            };
            let mut all = file.allow.clone();
            for (rule, from) in claude_allow {
                all.push(rule);
                if !files.iter().any(|f| f == from) {
                    files.push(from.to_path_buf());
                }
            }
            self.force(
                path(&["permissions", "allow"]),
                json!(all),
                Origin::Files(files),
            );
        }
    }

    /// Claude Code's settings in effect, under `claude.`: each list with the files that add
    /// to it, each single value with the file that sets it.
    fn claude(&mut self, claude: &crate::claude::ClaudeSettings) {
        for (pointer, key) in [
            (
                "/permissions/allow",
                &["claude", "permissions", "allow"][..],
            ),
            ("/permissions/ask", &["claude", "permissions", "ask"][..]),
            ("/permissions/deny", &["claude", "permissions", "deny"][..]),
            (
                "/permissions/additionalDirectories",
                &["claude", "permissions", "additionalDirectories"][..],
            ),
            (
                "/enabledMcpjsonServers",
                &["claude", "enabledMcpjsonServers"][..],
            ),
            (
                "/disabledMcpjsonServers",
                &["claude", "disabledMcpjsonServers"][..],
            ),
        ] {
            let items = claude.list(pointer);
            if items.is_empty() {
                continue;
            }
            let mut files: Vec<PathBuf> = Vec::new();
            for (_, from) in &items {
                if !files.iter().any(|f| f == from) {
                    files.push(from.to_path_buf());
                }
            }
            let values: Vec<String> = items.into_iter().map(|(v, _)| v).collect();
            self.force(path(key), json!(values), files_origin(files));
        }
        if let Some((mode, from)) = claude.default_mode() {
            self.force(
                path(&["claude", "permissions", "defaultMode"]),
                json!(mode.claude_name()),
                Origin::File(from.to_path_buf()),
            );
        }
        if let Some(from) = claude.hooks_disabled() {
            self.force(
                path(&["claude", "disableAllHooks"]),
                json!(true),
                Origin::File(from.to_path_buf()),
            );
        }
        if claude.all_project_servers_enabled() {
            let from = claude
                .files
                .iter()
                .rev()
                .find(|f| f.value.get("enableAllProjectMcpServers").is_some())
                .map(|f| f.path.clone())
                .unwrap_or_default();
            self.force(
                path(&["claude", "enableAllProjectMcpServers"]),
                json!(true),
                Origin::File(from),
            );
        }
        let mut hooks: BTreeMap<String, (Vec<String>, Vec<PathBuf>)> = BTreeMap::new();
        for (file, group) in claude.hooks() {
            let (commands, files) = hooks.entry(group.event.as_str().to_owned()).or_default();
            commands.extend(group.handlers.iter().map(|h| h.command.clone()));
            if !files.contains(&file.path) {
                files.push(file.path.clone());
            }
        }
        for (event, (commands, files)) in hooks {
            self.force(
                path(&["claude", "hooks", &event]),
                json!(commands),
                files_origin(files),
            );
        }
    }

    fn finish(self) -> Vec<Setting> {
        self.settings.into_values().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaves_and_insert_are_inverse() {
        let value = json!({"a": {"b": 1, "c": [1, 2], "e": {}}, "d": "x"});
        let mut rebuilt = Value::Object(Map::new());
        for (key, leaf) in leaves(&value) {
            insert(&mut rebuilt, &key, leaf);
        }
        assert_eq!(rebuilt, value);
        // A file that is `{}` has no leaf: no row with an empty key.
        assert!(leaves(&json!({})).is_empty());
    }

    #[test]
    fn secrets_are_keys_and_secret_named_server_variables() {
        let key = |k: &str| k.split('.').map(str::to_owned).collect::<Vec<_>>();
        let long = json!("ghp_0123456789abcdefghij");
        assert!(is_secret(&key("providers.x.api_key"), &long));
        assert!(is_secret(&key("mcp_servers.gh.env.GITHUB_TOKEN"), &long));
        assert!(!is_secret(
            &key("mcp_servers.gh.env.GITHUB_TOKEN"),
            &json!("${GITHUB_TOKEN}")
        ));
        assert!(!is_secret(&key("mcp_servers.gh.env.LOG_LEVEL"), &long));
        assert!(!is_secret(
            &key("providers.x.api_key_env"),
            &json!("MY_KEY")
        ));
        assert_eq!(masked(&key("providers.x.api_key"), long), json!("ghp…ghij"));
    }
}
