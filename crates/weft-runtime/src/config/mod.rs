//! `config.json`: the user's (`~/.clawft/config.json`), the project's
//! (`<project>/.clawft/config.json`) and `--config FILE`, merged in that order (objects merge
//! key by key, anything else is replaced), then the environment. See docs/CONFIG.md.
//!
//! This module finds, reads and merges the files; `schema.rs` is the shape of a file, every
//! section typed; `models.rs` turns the configuration and the environment into the model
//! catalog.

mod models;
mod schema;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

pub use crate::error::ConfigError;

pub use models::{ANTHROPIC_DEFAULT_MODEL, OPENAI_DEFAULT_MODEL, base_url_variable, key_variable};
pub use schema::{
    AgentSettings, ConfigFile, LimitSettings, McpServerFile, ProviderFile, SkillSettings,
    ToolSettings, WebFetchSettings,
};

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
    /// Claude Code's settings files (`~/.claude/settings.json`, the project's two).
    pub claude: crate::claude::ClaudeSources,
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
    /// Claude Code's settings files, read (their permission rules, hooks, MCP approvals).
    pub claude: crate::claude::ClaudeSettings,
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
        check_values(&file, &files)?;
        for (name, entry) in &file.skills.entries {
            for key in entry.unused_openclaw_keys() {
                tracing::warn!(
                    "`skills.entries.{name}.{key}` is OpenClaw's; weft does not use it (no key or variable is given to a skill's commands)"
                );
            }
        }
        let claude = crate::claude::ClaudeSettings::load(&sources.claude, sources.trust_project)?;
        Ok(Self {
            file,
            files,
            value: merged,
            ignored_project_keys,
            claude,
            provider_dirs,
        })
    }
}

/// The values serde accepts but weft cannot use.
fn check_values(file: &ConfigFile, files: &[PathBuf]) -> Result<(), ConfigError> {
    let invalid = |key: String, reason: String| ConfigError::InvalidValue {
        files: files.to_vec(),
        key,
        reason,
    };
    if let Some(t) = file.agent.compact_threshold
        && !(t > 0.0 && t <= 1.0)
    {
        return Err(invalid(
            "agent.compact_threshold".to_owned(),
            format!("must be a fraction of the context window above 0 and at most 1, not {t}"),
        ));
    }
    for (model, price) in &file.pricing {
        if let Some(field) = price.invalid_field() {
            return Err(invalid(
                format!("pricing.{model}.{field}"),
                "must be a price of zero or more (US dollars per million tokens)".to_owned(),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn env_of(
        pairs: &'static [(&'static str, &'static str)],
    ) -> impl Fn(&str) -> Option<String> {
        move |k| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| (*v).to_owned())
        }
    }

    pub(super) fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
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
        assert!(sandbox.enabled());
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
        assert!(trusted.enabled());
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
                "{}:1: `modle`: unknown field `modle`, expected one of `model`, `providers`, `aliases`, `default_agent`, `agent`, `tools`, `skills`, `mcp_servers`, `sandbox`, `projects`, `permissions`, `limits`, `pricing`; did you mean `model`?",
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
    fn thresholds_and_prices_must_be_usable() {
        let tmp = tempfile::tempdir().unwrap();
        let load = |text: &str| {
            let path = write(tmp.path(), "c.json", text);
            Config::load(&ConfigSources {
                explicit: Some(path),
                ..Default::default()
            })
            .map_err(|e| e.to_string())
        };
        let file = tmp.path().join("c.json");
        assert_eq!(
            load(r#"{"agent":{"compact_threshold":1.5}}"#).unwrap_err(),
            format!(
                "configuration ({}): `agent.compact_threshold`: must be a fraction of the context window above 0 and at most 1, not 1.5",
                file.display()
            )
        );
        assert_eq!(
            load(r#"{"pricing":{"a/b":{"input":1,"output":-2}}}"#).unwrap_err(),
            format!(
                "configuration ({}): `pricing.a/b.output`: must be a price of zero or more (US dollars per million tokens)",
                file.display()
            )
        );
        assert!(
            load(r#"{"pricing":{"a/b":{"input":1,"output":2,"cached":1}}}"#)
                .unwrap_err()
                .contains("unknown field `cached`")
        );
        let config = load(
            r#"{"agent":{"compact_threshold":0.5,"auto_compact":false,"tool_result_max_bytes":4096},
                "pricing":{"anthropic/claude-sonnet-4-5":{"input":3,"output":15,"cache_read":0.3,"cache_write":3.75}}}"#,
        )
        .unwrap();
        assert_eq!(config.file.agent.compact_threshold, Some(0.5));
        let models = config
            .models(&env_of(&[("ANTHROPIC_API_KEY", "k")]))
            .unwrap();
        let sonnet = models.resolve("sonnet", None).unwrap();
        assert_eq!(models.price(&sonnet).unwrap().cache_write, Some(3.75));
    }
}
