//! A project's `.mcp.json` (Claude Code's project MCP servers):
//!
//! ```json
//! {"mcpServers": {
//!   "db": {"command": "npx", "args": ["-y", "db-mcp"], "env": {"DB_URL": "${DB_URL}"}},
//!   "api": {"type": "http", "url": "${API_URL:-https://api.example.com}/mcp",
//!           "headers": {"Authorization": "Bearer ${API_KEY}"}}}}
//! ```
//!
//! `${VAR}` and `${VAR:-default}` are expanded in `command`, `args`, `env`, `url` and
//! `headers` from the environment the caller passes; an unset variable without a default
//! stays as written and is reported. The file is the checkout's: its servers start only
//! when the project is trusted or the person approved them by name (see `approvals.rs`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::error::ConfigError;

/// How a server is reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum McpTransport {
    /// A program speaking MCP on its standard input and output.
    Stdio {
        /// The program.
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Variables for it (over the few every server inherits).
        env: BTreeMap<String, String>,
    },
    /// A remote server (`type: "http"`, `"sse"`).
    Remote {
        /// `http` or `sse`.
        kind: String,
        /// Its URL.
        url: String,
        /// Headers sent with every request.
        headers: BTreeMap<String, String>,
    },
}

/// One server of `.mcp.json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpJsonServer {
    /// Its name (its tools are `<name>__<tool>`).
    pub name: String,
    /// How it is reached, variables expanded.
    pub transport: McpTransport,
    /// Variables it names that are not set and have no default (left as written).
    pub missing: Vec<String>,
}

/// A project's `.mcp.json`, read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct McpJson {
    /// The file.
    pub path: PathBuf,
    /// Its servers, by name.
    pub servers: Vec<McpJsonServer>,
    /// Servers that could not be read, each with why.
    pub problems: Vec<String>,
}

impl McpJson {
    /// Reads `path` (`None` when it does not exist); `env` gives the variables.
    pub fn load(
        path: &Path,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Option<Self>, ConfigError> {
        let Some((_, value)) = crate::config::read_file(path, false)? else {
            return Ok(None);
        };
        let mut file = McpJson {
            path: path.to_path_buf(),
            ..McpJson::default()
        };
        let servers = match value.get("mcpServers") {
            None => return Ok(Some(file)),
            Some(Value::Object(servers)) => servers,
            Some(_) => {
                file.problems
                    .push("`mcpServers` must be an object of servers by name".to_owned());
                return Ok(Some(file));
            }
        };
        for (name, server) in servers {
            match read_server(name, server, env) {
                Ok(server) => file.servers.push(server),
                Err(why) => file.problems.push(format!("server `{name}`: {why}")),
            }
        }
        for problem in &file.problems {
            tracing::warn!(file = %path.display(), "{problem}; skipped");
        }
        Ok(Some(file))
    }
}

/// One server entry.
fn read_server(
    name: &str,
    value: &Value,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<McpJsonServer, String> {
    let Value::Object(map) = value else {
        return Err("must be an object".to_owned());
    };
    let mut missing = Vec::new();
    let mut expand = |text: &str| {
        let (out, unset) = expand_vars(text, env, true);
        for var in unset {
            if !missing.contains(&var) {
                missing.push(var);
            }
        }
        out
    };
    let string = |key: &str| -> Result<Option<&str>, String> {
        match map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(format!("`{key}` must be a string")),
        }
    };
    let strings = |key: &str| -> Result<BTreeMap<String, String>, String> {
        match map.get(key) {
            None | Some(Value::Null) => Ok(BTreeMap::new()),
            Some(Value::Object(items)) => items
                .iter()
                .map(|(k, v)| match v {
                    Value::String(s) => Ok((k.clone(), s.clone())),
                    _ => Err(format!("`{key}.{k}` must be a string")),
                })
                .collect(),
            Some(_) => Err(format!("`{key}` must be an object of strings")),
        }
    };
    let kind = string("type")?;
    let transport = match kind {
        None | Some("stdio") => {
            let command = string("command")?
                .filter(|c| !c.trim().is_empty())
                .ok_or("a stdio server needs `command`")?;
            let args = match map.get("args") {
                None | Some(Value::Null) => Vec::new(),
                Some(Value::Array(items)) => items
                    .iter()
                    .map(|a| {
                        a.as_str()
                            .map(str::to_owned)
                            .ok_or("`args` must hold strings")
                    })
                    .collect::<Result<_, _>>()?,
                Some(_) => return Err("`args` must be a list of strings".to_owned()),
            };
            McpTransport::Stdio {
                command: expand(command),
                args: args.iter().map(|a| expand(a)).collect(),
                env: strings("env")?
                    .into_iter()
                    .map(|(k, v)| (k, expand(&v)))
                    .collect(),
            }
        }
        Some(kind @ ("http" | "sse")) => {
            let url = string("url")?.ok_or("a remote server needs `url`")?;
            McpTransport::Remote {
                kind: kind.to_owned(),
                url: expand(url),
                headers: strings("headers")?
                    .into_iter()
                    .map(|(k, v)| (k, expand(&v)))
                    .collect(),
            }
        }
        Some(other) => {
            return Err(format!(
                "unknown `type` `{other}` (expected stdio, http or sse)"
            ));
        }
    };
    Ok(McpJsonServer {
        name: name.to_owned(),
        transport,
        missing,
    })
}

/// `text` with every `${NAME}` and `${NAME:-default}` replaced by the variable (an empty one
/// counts as unset), else the default; an unset one without a default stays as written when
/// `keep_unset`, else becomes empty. Also returns the unset names without a default. Text
/// that is not such a reference (`${unclosed`, `${1x}`) stays as written; replaced text is
/// never scanned again.
///
/// ```
/// use weft_runtime::expand_vars;
///
/// let env = |name: &str| (name == "HOST").then(|| "db.local".to_owned());
/// assert_eq!(expand_vars("${HOST}:${PORT:-5432}", &env, true).0, "db.local:5432");
/// assert_eq!(expand_vars("key ${KEY}", &env, true), ("key ${KEY}".to_owned(), vec!["KEY".to_owned()]));
/// assert_eq!(expand_vars("key ${KEY}", &env, false).0, "key ");
/// ```
pub fn expand_vars(
    text: &str,
    env: &dyn Fn(&str) -> Option<String>,
    keep_unset: bool,
) -> (String, Vec<String>) {
    let mut out = String::with_capacity(text.len());
    let mut missing = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(len) = after.find('}') else {
            out.push_str(&rest[start..]);
            return (out, missing);
        };
        let inner = &after[..len];
        let (name, default) = match inner.split_once(":-") {
            Some((name, default)) => (name, Some(default)),
            None => (inner, None),
        };
        let valid = name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        let whole = &rest[start..start + 3 + len];
        match (valid, env(name).filter(|v| !v.is_empty()), default) {
            (false, _, _) => out.push_str(whole),
            (true, Some(value), _) => out.push_str(&value),
            (true, None, Some(default)) => out.push_str(default),
            (true, None, None) => {
                missing.push(name.to_owned());
                if keep_unset {
                    out.push_str(whole);
                }
            }
        }
        rest = &after[len + 1..];
    }
    out.push_str(rest);
    (out, missing)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn env(name: &str) -> Option<String> {
        match name {
            "TOKEN" => Some("t0k".to_owned()),
            "EMPTY" => Some(String::new()),
            _ => None,
        }
    }

    #[test]
    fn references_expand_and_the_rest_stays() {
        let e = |t: &str| expand_vars(t, &env, true);
        assert_eq!(e("Bearer ${TOKEN}!").0, "Bearer t0k!");
        assert_eq!(e("${EMPTY:-fallback}").0, "fallback");
        assert_eq!(e("${NOPE}").0, "${NOPE}");
        assert_eq!(e("${NOPE}").1, ["NOPE"]);
        assert_eq!(e("${unclosed").0, "${unclosed");
        assert_eq!(e("${1X}${TOKEN}").0, "${1X}t0k");
        assert_eq!(e("$TOKEN ${A:-${TOKEN}}").0, "$TOKEN ${TOKEN}");
    }

    #[test]
    fn servers_are_read_and_bad_ones_named() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(".mcp.json");
        std::fs::write(
            &path,
            json!({"mcpServers": {
                "db": {"command": "srv", "args": ["--token", "${TOKEN}"], "env": {"K": "${MISSING}"}},
                "api": {"type": "http", "url": "${URL:-https://api.example.com}/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}},
                "bad": {"type": "ws"},
                "worse": {"args": []}
            }})
            .to_string(),
        )
        .unwrap();
        let file = McpJson::load(&path, &env).unwrap().unwrap();
        assert_eq!(file.servers.len(), 2);
        let api = &file.servers[0];
        assert_eq!(
            api.transport,
            McpTransport::Remote {
                kind: "http".into(),
                url: "https://api.example.com/mcp".into(),
                headers: BTreeMap::from([("Authorization".into(), "Bearer t0k".into())]),
            }
        );
        let db = &file.servers[1];
        assert_eq!(db.missing, ["MISSING"]);
        let McpTransport::Stdio { args, .. } = &db.transport else {
            panic!("{db:?}")
        };
        assert_eq!(args, &["--token", "t0k"]);
        assert_eq!(
            file.problems,
            [
                "server `bad`: unknown `type` `ws` (expected stdio, http or sse)",
                "server `worse`: a stdio server needs `command`"
            ]
        );
        assert_eq!(
            McpJson::load(&tmp.path().join("none.json"), &env).unwrap(),
            None
        );
    }
}
