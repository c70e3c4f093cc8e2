//! MCP servers for a run: `mcp_servers` from the configuration and the project's `.mcp.json`
//! (Claude Code's format) turned into server configurations (the children's environment is
//! built here, from weft's own), and the servers started on a thread of their own. That
//! thread's runtime keeps their sessions (and a restarted server's) going while the agent's
//! runtime is idle between turns.
//!
//! A `.mcp.json` server is the checkout's: it starts only when the project is trusted, the
//! person approved it by name (`weft mcp approve NAME`, kept in their own state), or their
//! `~/.claude/settings.json` approves it (`enabledMcpjsonServers`,
//! `enableAllProjectMcpServers`); `disabledMcpjsonServers` in any settings file keeps it off.
//! A name the configuration already uses stays the configuration's.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;
use std::time::Duration;

use weft_tools::{McpManager, McpServerConfig};

use crate::claude::{McpJson, McpTransport, expand_vars};
use crate::config::{LimitSettings, McpServerFile};

/// The variables every server inherits from weft (the rest of weft's environment, API keys
/// included, is not passed on; `env` in the configuration adds more).
pub const INHERITED_ENV: [&str; 14] = [
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "SHELL",
    "TERM",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "TMPDIR",
    "TZ",
    "SYSTEMROOT",
    "APPDATA",
    "USERPROFILE",
];

/// Where a server is configured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerSource {
    /// `mcp_servers` in weft's configuration.
    Config,
    /// The project's `.mcp.json`.
    McpJson(PathBuf),
    /// An enabled plugin (its id, `name@marketplace`).
    Plugin(String),
}

impl ServerSource {
    /// `config`, `.mcp.json`.
    pub fn label(&self) -> &'static str {
        match self {
            Self::Config => "config",
            Self::McpJson(_) => ".mcp.json",
            Self::Plugin(_) => "plugin",
        }
    }
}

/// A configured server that does not start, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdleServer {
    /// Its name.
    pub name: String,
    /// Where it is configured.
    pub source: ServerSource,
    /// `disabled`, `not approved` or `unsupported`.
    pub status: &'static str,
    /// Why, with what would start it.
    pub reason: Option<String>,
}

/// The servers of a run before any starts: what starts and what does not.
#[derive(Debug, Clone, Default)]
pub struct McpPlan {
    /// The servers to start, each with its source.
    pub start: Vec<(McpServerConfig, ServerSource)>,
    /// The others.
    pub idle: Vec<IdleServer>,
}

impl McpPlan {
    /// The names of the servers that start, in order.
    pub fn names(&self) -> Vec<&str> {
        self.start.iter().map(|(c, _)| c.name.as_str()).collect()
    }
}

/// The configured servers: started ones in a manager, plus the ones that do not start.
pub struct McpServers {
    manager: McpManager,
    idle: Vec<IdleServer>,
    sources: BTreeMap<String, ServerSource>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl McpServers {
    /// No servers.
    pub fn none() -> Self {
        Self::idle_only(Vec::new(), BTreeMap::new())
    }

    /// No running servers, these idle ones.
    fn idle_only(idle: Vec<IdleServer>, sources: BTreeMap<String, ServerSource>) -> Self {
        Self {
            manager: McpManager::empty(),
            idle,
            sources,
            stop: None,
            thread: None,
        }
    }

    /// Starts the servers `plan` starts, in parallel (each within its startup timeout), and
    /// waits for them. A server that does not start is reported by `status`, never an error.
    pub fn start(plan: McpPlan) -> Self {
        let McpPlan { start, idle } = plan;
        let sources: BTreeMap<String, ServerSource> = start
            .iter()
            .map(|(c, s)| (c.name.clone(), s.clone()))
            .chain(idle.iter().map(|i| (i.name.clone(), i.source.clone())))
            .collect();
        let configs: Vec<McpServerConfig> = start.into_iter().map(|(c, _)| c).collect();
        if configs.is_empty() {
            return Self::idle_only(idle, sources);
        }
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let spawned = std::thread::Builder::new()
            .name("weft-mcp".to_owned())
            .spawn(move || {
                let runtime = match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(rt) => rt,
                    Err(e) => {
                        tracing::warn!("cannot start the MCP runtime: {e}");
                        return;
                    }
                };
                runtime.block_on(async move {
                    let manager = McpManager::start(configs).await;
                    let _ = ready_tx.send(manager.clone());
                    let _ = stop_rx.await;
                    manager.shutdown().await;
                });
            });
        let thread = match spawned {
            Ok(thread) => thread,
            Err(e) => {
                tracing::warn!("cannot start the MCP thread: {e}");
                return Self::idle_only(idle, sources);
            }
        };
        let manager = ready_rx.recv().unwrap_or_default();
        Self {
            manager,
            idle,
            sources,
            stop: Some(stop_tx),
            thread: Some(thread),
        }
    }

    /// The started servers and their tools.
    pub fn manager(&self) -> &McpManager {
        &self.manager
    }

    /// The servers that did not start (disabled, not approved, unsupported).
    pub fn idle(&self) -> &[IdleServer] {
        &self.idle
    }

    /// Where the server `name` is configured.
    pub fn source(&self, name: &str) -> Option<&ServerSource> {
        self.sources.get(name)
    }
}

impl Drop for McpServers {
    /// Closes the sessions and waits for the servers to exit (briefly: each is killed after
    /// two seconds).
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The server configurations of `file` (enabled ones, with the message cap of `limits`) and
/// the names of the disabled ones.
pub fn server_configs(
    file: &BTreeMap<String, McpServerFile>,
    limits: &LimitSettings,
    base: &Path,
    env: &dyn Fn(&str) -> Option<String>,
) -> (Vec<McpServerConfig>, Vec<String>) {
    let mut configs = Vec::new();
    let mut disabled = Vec::new();
    for (name, server) in file {
        if !server.enabled {
            disabled.push(name.clone());
            continue;
        }
        let mut config = McpServerConfig::new(name, &server.command)
            .with_args(server.args.iter().cloned())
            .with_max_message_bytes(limits.mcp_message_bytes())
            .with_cwd(match &server.cwd {
                Some(dir) => base.join(dir),
                None => base.to_path_buf(),
            });
        config = inherit_env(config, env);
        for (key, value) in &server.env {
            config = config.with_env(key, expand_vars(value, env, false).0);
        }
        if let Some(secs) = server.startup_timeout_secs {
            config.startup_timeout = Duration::from_secs(secs.max(1));
        }
        if let Some(secs) = server.call_timeout_secs {
            config.call_timeout = Duration::from_secs(secs.max(1));
        }
        configs.push(config);
    }
    (configs, disabled)
}

/// `config` with the variables every server inherits from weft ([`INHERITED_ENV`]).
fn inherit_env(
    mut config: McpServerConfig,
    env: &dyn Fn(&str) -> Option<String>,
) -> McpServerConfig {
    for key in INHERITED_ENV {
        if let Some(value) = env(key) {
            config = config.with_env(key, value);
        }
    }
    config
}

/// Whether a `.mcp.json` server may start, beyond the project's trust.
#[derive(Debug, Clone, Copy)]
pub struct McpJsonConsent<'a> {
    /// The project is trusted: its servers start.
    pub trusted: bool,
    /// `enableAllProjectMcpServers` in the settings in effect.
    pub all: bool,
    /// Names approved (`enabledMcpjsonServers`, the person's own approvals).
    pub approved: &'a [String],
    /// Names kept off (`disabledMcpjsonServers`, any settings file).
    pub disabled: &'a [String],
}

/// The servers of the configuration (`file`) and of the project's `.mcp.json`, planned.
pub fn plan(
    file: &BTreeMap<String, McpServerFile>,
    mcp_json: Option<&McpJson>,
    consent: McpJsonConsent<'_>,
    limits: &LimitSettings,
    base: &Path,
    env: &dyn Fn(&str) -> Option<String>,
) -> McpPlan {
    let (configs, disabled) = server_configs(file, limits, base, env);
    let mut plan = McpPlan {
        start: configs
            .into_iter()
            .map(|c| (c, ServerSource::Config))
            .collect(),
        idle: disabled
            .into_iter()
            .map(|name| IdleServer {
                name,
                source: ServerSource::Config,
                status: "disabled",
                reason: None,
            })
            .collect(),
    };
    let Some(json) = mcp_json else {
        return plan;
    };
    let source = ServerSource::McpJson(json.path.clone());
    for server in &json.servers {
        let name = &server.name;
        if file.contains_key(name) {
            tracing::warn!(file = %json.path.display(), "MCP server `{name}` ignored: `mcp_servers.{name}` in the configuration has that name");
            continue;
        }
        let idle = |status, reason: String| IdleServer {
            name: name.clone(),
            source: source.clone(),
            status,
            reason: Some(reason),
        };
        if let Err(e) = weft_tools::validate_server_name(name) {
            plan.idle.push(idle("unsupported", e.to_string()));
            continue;
        }
        if consent.disabled.contains(name) {
            plan.idle.push(idle(
                "disabled",
                "`disabledMcpjsonServers` in Claude Code's settings".to_owned(),
            ));
            continue;
        }
        if !(consent.trusted || consent.all || consent.approved.contains(name)) {
            plan.idle.push(idle(
                "not approved",
                format!("the project is not trusted; start it with `weft mcp approve {name}` (remembered for this project) or --trust-project"),
            ));
            continue;
        }
        for var in &server.missing {
            tracing::warn!(file = %json.path.display(), "MCP server `{name}`: ${{{var}}} is not set and has no default; it is passed as written");
        }
        match &server.transport {
            McpTransport::Stdio {
                command,
                args,
                env: vars,
            } => {
                let mut config = McpServerConfig::new(name, command)
                    .with_args(args.iter().cloned())
                    .with_max_message_bytes(limits.mcp_message_bytes())
                    .with_cwd(base.to_path_buf());
                config = inherit_env(config, env);
                for (key, value) in vars {
                    config = config.with_env(key, value);
                }
                plan.start.push((config, source.clone()));
            }
            McpTransport::Remote { kind, .. } => plan.idle.push(idle(
                "unsupported",
                format!(
                    "`type: {kind}` servers are not supported by weft's MCP client yet (stdio only)"
                ),
            )),
        }
    }
    plan
}

/// Adds the MCP servers of the plugins in use to `plan`, named as Claude Code names them
/// (`plugin_<plugin>_<server>`): stdio servers start with the plugin's directories filled in
/// and `${VAR}`s of the environment expanded; remote ones are listed as unsupported.
pub fn plan_plugin_servers(
    plan: &mut McpPlan,
    servers: &[&weft_plugin::PluginMcpServer],
    limits: &LimitSettings,
    base: &Path,
    env: &dyn Fn(&str) -> Option<String>,
) {
    for server in servers {
        let name = server.qualified_name();
        let source = ServerSource::Plugin(server.plugin.id.clone());
        let idle = |status, reason: String| IdleServer {
            name: name.clone(),
            source: source.clone(),
            status,
            reason: Some(reason),
        };
        if let Err(e) = weft_tools::validate_server_name(&name) {
            plan.idle.push(idle("unsupported", e.to_string()));
            continue;
        }
        if plan.start.iter().any(|(c, _)| c.name == name) {
            tracing::warn!(plugin = %server.plugin.id, "MCP server `{name}` ignored: another server has that name");
            continue;
        }
        let text = |key: &str| server.config.get(key).and_then(serde_json::Value::as_str);
        let (Some(command), "stdio") = (text("command"), server.transport()) else {
            plan.idle.push(idle(
                "unsupported",
                format!(
                    "`type: {}` servers are not supported by weft's MCP client yet (stdio only)",
                    server.transport()
                ),
            ));
            continue;
        };
        let strings = |key: &str| -> Vec<String> {
            server
                .config
                .get(key)
                .and_then(serde_json::Value::as_array)
                .map(|items| {
                    items
                        .iter()
                        .filter_map(serde_json::Value::as_str)
                        .map(|a| expand_vars(a, env, true).0)
                        .collect()
                })
                .unwrap_or_default()
        };
        let cwd = text("cwd").map_or_else(|| base.to_path_buf(), |dir| base.join(dir));
        let mut config = McpServerConfig::new(&name, expand_vars(command, env, true).0)
            .with_args(strings("args"))
            .with_max_message_bytes(limits.mcp_message_bytes())
            .with_cwd(cwd);
        config = inherit_env(config, env);
        if let Some(vars) = server
            .config
            .get("env")
            .and_then(serde_json::Value::as_object)
        {
            for (key, value) in vars {
                if let Some(value) = value.as_str() {
                    config = config.with_env(key, expand_vars(value, env, false).0);
                }
            }
        }
        plan.start.push((config, source));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(name: &str) -> Option<String> {
        match name {
            "PATH" => Some("/bin".to_owned()),
            "TOKEN" => Some("t0k".to_owned()),
            _ => None,
        }
    }

    #[test]
    fn configuration_variables_are_expanded_and_unset_ones_are_empty() {
        let expand = |v: &str| expand_vars(v, &env, false).0;
        assert_eq!(expand("Bearer ${TOKEN}!"), "Bearer t0k!");
        assert_eq!(expand("${NOPE}x${TOKEN}"), "xt0k");
        assert_eq!(expand("${unclosed"), "${unclosed");
        assert_eq!(expand("plain"), "plain");
    }

    #[test]
    fn configs_get_a_small_environment_and_resolved_paths() {
        let file: BTreeMap<String, McpServerFile> = serde_json::from_str(
            r#"{"a":{"command":"srv","args":["x"],"env":{"KEY":"${TOKEN}"},"cwd":"sub","startup_timeout_secs":3},
                "b":{"command":"off","enabled":false}}"#,
        )
        .unwrap();
        let limits = LimitSettings {
            mcp_message_bytes: Some(1000),
            ..LimitSettings::default()
        };
        let (configs, disabled) = server_configs(&file, &limits, Path::new("/proj"), &env);
        assert_eq!(disabled, ["b"]);
        assert_eq!(configs.len(), 1);
        let a = &configs[0];
        assert_eq!(a.name, "a");
        assert_eq!(a.args, ["x"]);
        assert_eq!(a.cwd.as_deref(), Some(Path::new("/proj/sub")));
        assert_eq!(a.startup_timeout, Duration::from_secs(3));
        assert_eq!(a.max_message_bytes, 1000);
        let env: Vec<(&str, &str)> = a
            .env
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(env, [("KEY", "t0k"), ("PATH", "/bin")]);
    }
}
