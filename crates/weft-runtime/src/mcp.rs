//! MCP servers for a run: `mcp_servers` from the configuration turned into server
//! configurations (the children's environment is built here, from weft's own), and the servers
//! started on a thread of their own. That thread's runtime keeps their sessions (and a restarted
//! server's) going while the agent's runtime is idle between turns.

use std::collections::BTreeMap;
use std::path::Path;
use std::thread::JoinHandle;
use std::time::Duration;

use weft_tools::{McpManager, McpServerConfig};

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

/// The configured servers: started ones in a manager, plus the names of disabled ones.
pub struct McpServers {
    manager: McpManager,
    disabled: Vec<String>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl McpServers {
    /// No servers.
    pub fn none() -> Self {
        Self::only_disabled(Vec::new())
    }

    /// No running servers, these disabled ones.
    fn only_disabled(disabled: Vec<String>) -> Self {
        Self {
            manager: McpManager::empty(),
            disabled,
            stop: None,
            thread: None,
        }
    }

    /// Starts the enabled servers of `file` in parallel (each within its startup timeout) and
    /// waits for them. A server that does not start is reported by `status`, never an error.
    pub fn start(
        file: &BTreeMap<String, McpServerFile>,
        limits: &LimitSettings,
        base: &Path,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Self {
        let (configs, disabled) = server_configs(file, limits, base, env);
        if configs.is_empty() {
            return Self::only_disabled(disabled);
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
                return Self::only_disabled(disabled);
            }
        };
        let manager = ready_rx.recv().unwrap_or_default();
        Self {
            manager,
            disabled,
            stop: Some(stop_tx),
            thread: Some(thread),
        }
    }

    /// The started servers and their tools.
    pub fn manager(&self) -> &McpManager {
        &self.manager
    }

    /// Servers configured with `enabled: false`.
    pub fn disabled(&self) -> &[String] {
        &self.disabled
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

/// The names of the servers of `file` that start (`enabled`, the default), in order.
pub fn enabled_servers(file: &BTreeMap<String, McpServerFile>) -> Vec<&str> {
    file.iter()
        .filter(|(_, server)| server.enabled)
        .map(|(name, _)| name.as_str())
        .collect()
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
        for key in INHERITED_ENV {
            if let Some(value) = env(key) {
                config = config.with_env(key, value);
            }
        }
        for (key, value) in &server.env {
            config = config.with_env(key, expand(value, env));
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

/// `value` with every `${NAME}` replaced by weft's variable (empty when unset).
fn expand(value: &str, env: &dyn Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(start) = rest.find("${") {
        let Some(len) = rest[start + 2..].find('}') else {
            break;
        };
        out.push_str(&rest[..start]);
        let name = &rest[start + 2..start + 2 + len];
        out.push_str(&env(name).unwrap_or_default());
        rest = &rest[start + 3 + len..];
    }
    out.push_str(rest);
    out
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
    fn variables_are_expanded() {
        assert_eq!(expand("Bearer ${TOKEN}!", &env), "Bearer t0k!");
        assert_eq!(expand("${NOPE}x${TOKEN}", &env), "xt0k");
        assert_eq!(expand("${unclosed", &env), "${unclosed");
        assert_eq!(expand("plain", &env), "plain");
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
