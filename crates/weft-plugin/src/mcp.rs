//! A plugin's MCP servers: `.mcp.json` at its root and what the manifest's `mcpServers` names
//! or writes inline, each checked and kept as the configuration it is (`.mcp.json`'s shape
//! for one server) with the plugin's directories filled. weft starts no server here; this is
//! data for the MCP manager and for what weft shows before a plugin is installed or enabled.

use std::path::Path;

use serde::Serialize;
use serde_json::{Map, Value};
use weft_types::{InvocationContext, PluginRef};

use crate::error::{PluginError, PluginWarning};

/// One MCP server a plugin brings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PluginMcpServer {
    /// The plugin.
    pub plugin: PluginRef,
    /// The server's name in the plugin's configuration.
    pub name: String,
    /// Its configuration (`type`, `command`, `args`, `env`, `url`, `headers`, ...) with
    /// `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}` filled in `command`, `args`,
    /// `env`, `url`, `headers` and `cwd`; other `${VAR}`s are left for the MCP layer.
    pub config: Map<String, Value>,
    /// Where it was defined (`.mcp.json`, `.claude-plugin/plugin.json (inline)`).
    pub source: String,
}

impl PluginMcpServer {
    /// The name Claude Code gives the server's tools (`mcp__<qualified>__<tool>`):
    /// `plugin_<plugin>_<server>`.
    pub fn qualified_name(&self) -> String {
        format!("plugin_{}_{}", self.plugin.name, self.name)
    }

    /// `stdio` (the default with a `command`), `http` or `sse`.
    pub fn transport(&self) -> &str {
        match self.config.get("type").and_then(Value::as_str) {
            Some(t) => t,
            None if self.config.contains_key("url") => "http",
            None => "stdio",
        }
    }

    /// The program of a stdio server.
    pub fn command(&self) -> Option<&str> {
        self.config.get("command").and_then(Value::as_str)
    }

    /// Its arguments.
    pub fn args(&self) -> Vec<&str> {
        self.config
            .get("args")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default()
    }

    /// The URL of a remote server.
    pub fn url(&self) -> Option<&str> {
        self.config.get("url").and_then(Value::as_str)
    }

    /// What it runs or connects to, in one line: `npx -y db-mcp` or `http https://...`.
    pub fn describe(&self) -> String {
        match (self.command(), self.url()) {
            (Some(command), _) => {
                let mut line = command.to_owned();
                for arg in self.args() {
                    line.push(' ');
                    line.push_str(arg);
                }
                line
            }
            (None, Some(url)) => format!("{} {url}", self.transport()),
            (None, None) => String::new(),
        }
    }
}

/// Reads the servers of one configuration: `{"mcpServers": {...}}` (`.mcp.json`'s shape) or
/// the server map itself (a manifest's inline `mcpServers`).
pub fn parse_servers(
    value: &Value,
    path: &Path,
    plugin: &PluginRef,
    source: &str,
) -> Result<Vec<PluginMcpServer>, PluginError> {
    let bad = |reason: String| PluginError::invalid(path, reason);
    let top = value
        .as_object()
        .ok_or_else(|| bad("an MCP configuration must be a JSON object".to_owned()))?;
    let servers = match top.get("mcpServers") {
        Some(Value::Object(servers)) => servers,
        Some(_) => return Err(bad("`mcpServers` must be an object of servers".to_owned())),
        None => top,
    };
    let ctx = InvocationContext::default().with_plugin(Some(plugin));
    let mut out = Vec::new();
    for (name, config) in servers {
        check_server_name(name).map_err(&bad)?;
        let config = config
            .as_object()
            .ok_or_else(|| bad(format!("server `{name}` must be an object")))?;
        check_server(name, config).map_err(&bad)?;
        out.push(PluginMcpServer {
            plugin: plugin.clone(),
            name: name.clone(),
            config: filled(config, &ctx),
            source: source.to_owned(),
        });
    }
    Ok(out)
}

/// Adds `more` to `into`; a name already there keeps its first definition (warned).
pub(crate) fn merge_servers(
    into: &mut Vec<PluginMcpServer>,
    more: Vec<PluginMcpServer>,
    warnings: &mut Vec<PluginWarning>,
) {
    for server in more {
        if let Some(first) = into.iter().find(|s| s.name == server.name) {
            warnings.push(PluginWarning::new(format!(
                "MCP server `{}` is defined in {} and again in {}; the first is used",
                server.name, first.source, server.source
            )));
            continue;
        }
        into.push(server);
    }
}

fn check_server_name(name: &str) -> Result<(), String> {
    let ok = !name.is_empty()
        && name.len() <= 48
        && !name.contains("__")
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if ok {
        Ok(())
    } else {
        Err(format!(
            "MCP server name {name:?} may only use A-Z, a-z, 0-9, `-` and single `_` (at most 48)"
        ))
    }
}

fn check_server(name: &str, config: &Map<String, Value>) -> Result<(), String> {
    let string = |key: &str| config.get(key).and_then(Value::as_str);
    let kind = match config.get("type") {
        None => None,
        Some(Value::String(t)) => Some(t.as_str()),
        Some(_) => return Err(format!("server `{name}`: `type` must be a string")),
    };
    match kind {
        None | Some("stdio") if string("command").is_some_and(|c| !c.trim().is_empty()) => {}
        None if string("url").is_some() => {}
        Some("http" | "sse" | "ws") if string("url").is_some() => {}
        None | Some("stdio") => return Err(format!("server `{name}` has no `command`")),
        Some("http" | "sse" | "ws") => return Err(format!("server `{name}` has no `url`")),
        Some(other) => return Err(format!("server `{name}` has an unknown `type` {other:?}")),
    }
    if let Some(args) = config.get("args")
        && !args
            .as_array()
            .is_some_and(|a| a.iter().all(Value::is_string))
    {
        return Err(format!(
            "server `{name}`: `args` must be an array of strings"
        ));
    }
    for key in ["env", "headers"] {
        if let Some(map) = config.get(key)
            && !map
                .as_object()
                .is_some_and(|m| m.values().all(Value::is_string))
        {
            return Err(format!(
                "server `{name}`: `{key}` must map names to strings"
            ));
        }
    }
    Ok(())
}

/// `config` with the plugin's directories filled where a server's paths and addresses are.
fn filled(config: &Map<String, Value>, ctx: &InvocationContext) -> Map<String, Value> {
    let fill = |v: &mut Value| {
        if let Value::String(text) = v {
            *text = weft_template::fill_directories(text, ctx);
        }
    };
    let mut out = config.clone();
    for key in ["command", "url", "cwd"] {
        if let Some(v) = out.get_mut(key) {
            fill(v);
        }
    }
    if let Some(Value::Array(args)) = out.get_mut("args") {
        args.iter_mut().for_each(fill);
    }
    for key in ["env", "headers"] {
        if let Some(Value::Object(map)) = out.get_mut(key) {
            map.values_mut().for_each(fill);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn plugin() -> PluginRef {
        PluginRef {
            name: "db".into(),
            id: "db@acme".into(),
            root: "/p/db".into(),
            data: Some("/data/db".into()),
        }
    }

    #[test]
    fn servers_are_read_and_their_paths_filled() {
        let value = json!({"mcpServers": {
            "local": {"command": "${CLAUDE_PLUGIN_ROOT}/bin/server", "args": ["--db", "${CLAUDE_PLUGIN_DATA}/x.db", "$1"],
                      "env": {"TOKEN": "${DB_TOKEN}", "HOME_DIR": "${CLAUDE_PLUGIN_ROOT}"}},
            "remote": {"type": "http", "url": "https://api.example.com/mcp", "headers": {"Authorization": "Bearer ${KEY}"}}
        }});
        let servers =
            parse_servers(&value, Path::new(".mcp.json"), &plugin(), ".mcp.json").unwrap();
        assert_eq!(
            servers[0].describe(),
            "/p/db/bin/server --db /data/db/x.db $1"
        );
        assert_eq!(servers[0].config["env"]["TOKEN"], "${DB_TOKEN}");
        assert_eq!(servers[0].config["env"]["HOME_DIR"], "/p/db");
        assert_eq!(servers[0].qualified_name(), "plugin_db_local");
        assert_eq!(servers[1].transport(), "http");
        assert_eq!(servers[1].describe(), "http https://api.example.com/mcp");
        // The inline form is the server map itself.
        let inline = json!({"solo": {"command": "solo-mcp"}});
        assert_eq!(
            parse_servers(&inline, Path::new("plugin.json"), &plugin(), "inline").unwrap()[0].name,
            "solo"
        );
    }

    #[test]
    fn bad_servers_are_refused_with_the_reason() {
        for (value, message) in [
            (json!({"a": {}}), "server `a` has no `command`"),
            (json!({"a": {"type": "http"}}), "has no `url`"),
            (
                json!({"a": {"type": "carrier-pigeon", "command": "x"}}),
                "unknown `type`",
            ),
            (json!({"a__b": {"command": "x"}}), "may only use"),
            (
                json!({"a": {"command": "x", "args": "y"}}),
                "`args` must be an array",
            ),
            (
                json!({"a": {"command": "x", "env": {"K": 1}}}),
                "`env` must map",
            ),
            (json!({"mcpServers": []}), "`mcpServers` must be an object"),
        ] {
            let err = parse_servers(&value, Path::new("m.json"), &plugin(), "m")
                .unwrap_err()
                .to_string();
            assert!(err.contains(message), "{value}: {err}");
        }
    }
}
