//! The built-in tools and the configuration they are built from.

mod atomic;
mod content;
mod fs;
mod input;
mod memory;
pub use memory::MEMORY_CAP;
mod search;
mod shell;
pub use shell::plain_stdout;
mod walk;
mod web;

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use weft_shell::ShellProgram;

use crate::{FsScope, ProcessGroups, Tool, ToolRegistry};

/// Every built-in tool's name, in a stable order (the vocabulary's
/// [`WORKSPACE_TOOLS`](weft_types::tool_names::WORKSPACE_TOOLS)).
pub const BUILTIN_TOOL_NAMES: [&str; 10] = weft_types::tool_names::WORKSPACE_TOOLS;

/// The built-in tools that only read the workspace (safe to allow without asking; the
/// vocabulary's [`READ_ONLY_TOOLS`](weft_types::tool_names::READ_ONLY_TOOLS)).
pub const READ_ONLY_TOOLS: [&str; 4] = weft_types::tool_names::READ_ONLY_TOOLS;

/// What the built-in tools are built from.
#[derive(Debug, Clone)]
pub struct BuiltinConfig {
    /// The directories file, search and shell tools may touch.
    pub scope: FsScope,
    /// The file `memory_read`/`memory_write` use; the runtime's own file, not confined to
    /// the scope.
    pub memory_file: PathBuf,
    /// Limits for `exec_shell`.
    pub exec: ExecConfig,
    /// Settings for `web_fetch`; `None` leaves the tool out.
    pub web_fetch: Option<WebFetchConfig>,
}

/// How `exec_shell` runs commands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExecConfig {
    /// Timeout when the call gives none (default 120 s).
    pub timeout: Duration,
    /// The largest timeout a call may ask for (default 600 s).
    pub max_timeout: Duration,
    /// Bytes kept of each of stdout and stderr (default 30,000).
    pub output_cap: usize,
    /// The shell run as `<shell> <its args> -c <command>`, which the permission checks read
    /// commands as (default `/bin/sh`, read as POSIX; weft's runtime picks bash where there is
    /// one). The variables that change its language are never passed to it.
    pub shell: ShellProgram,
    /// The command's whole environment: nothing else is inherited (default: empty). The
    /// caller builds it, without secrets (`weft_sandbox::EnvScrub`).
    pub env: BTreeMap<OsString, OsString>,
    /// How the shell is started for a call no person approved to run outside the sandbox
    /// (default: directly).
    pub launcher: ShellLauncher,
    /// How it is started for a call a person approved to run outside the sandbox
    /// ([`CallContext::outside_sandbox`](crate::CallContext)); `None`: there is no sandbox
    /// to leave, every call uses [`launcher`](Self::launcher). With it, the tool reports
    /// [`Sandboxing::Sandboxed`](crate::Sandboxing), or
    /// [`Unavailable`](crate::Sandboxing::Unavailable) when `launcher` refuses.
    pub unsandboxed: Option<ShellLauncher>,
    /// How it is started for a call the session judged read-only
    /// ([`CallContext::read_only`](crate::CallContext)): the sandbox with nothing writable
    /// and nothing of the home directory readable but the project. `None`: such calls use
    /// [`launcher`](Self::launcher), and the tool reports no read-only sandbox
    /// ([`Tool::has_read_only_sandbox`](crate::Tool::has_read_only_sandbox)).
    pub reading: Option<ShellLauncher>,
    /// Where the commands' process groups are registered, so that whoever owns the registry
    /// can kill them (default: a registry of their own).
    pub groups: ProcessGroups,
}

impl Default for ExecConfig {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(120),
            max_timeout: Duration::from_secs(600),
            output_cap: 30_000,
            shell: ShellProgram::default(),
            env: BTreeMap::new(),
            launcher: ShellLauncher::Direct,
            unsandboxed: None,
            reading: None,
            groups: ProcessGroups::new(),
        }
    }
}

/// How `exec_shell` starts `<shell> -c <command>`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum ShellLauncher {
    /// Runs the shell itself.
    #[default]
    Direct,
    /// Runs `<program> <args...> <shell> -c <command>`: a wrapper that sets something up
    /// (weft's sandbox helper) and then executes the rest of its command line in place, so
    /// the process and its group stay the same.
    Wrapper {
        /// The wrapper.
        program: PathBuf,
        /// Its arguments before the shell's.
        args: Vec<OsString>,
        /// Appended to the tool's description for the model (what the wrapper restricts).
        note: String,
    },
    /// Runs nothing: every call fails with this reason (a required sandbox is unavailable).
    Refuse(String),
}

/// Settings for `web_fetch`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebFetchConfig {
    /// Timeout for the whole request, body included (default 30 s).
    pub timeout: Duration,
    /// The largest body kept (default 1 MiB); a call may ask for less.
    pub max_bytes: usize,
    /// Hosts that may be fetched; `None` allows any. An entry `example.com` also allows
    /// its subdomains.
    pub allowed_domains: Option<Vec<String>>,
}

impl Default for WebFetchConfig {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(30),
            max_bytes: 1024 * 1024,
            allowed_domains: None,
        }
    }
}

/// Builds the built-in tools in [`BUILTIN_TOOL_NAMES`] order; `web_fetch` only when
/// `config.web_fetch` is set.
pub fn builtin_tools(config: &BuiltinConfig) -> Vec<Arc<dyn Tool>> {
    let scope = Arc::new(config.scope.clone());
    let mut tools: Vec<Arc<dyn Tool>> = vec![
        Arc::new(fs::ReadFile::new(Arc::clone(&scope))),
        Arc::new(fs::WriteFile::new(Arc::clone(&scope))),
        Arc::new(fs::EditFile::new(Arc::clone(&scope))),
        Arc::new(fs::ListDirectory::new(Arc::clone(&scope))),
        Arc::new(search::Glob::new(Arc::clone(&scope))),
        Arc::new(search::Grep::new(Arc::clone(&scope))),
        Arc::new(shell::ExecShell::new(
            Arc::clone(&scope),
            config.exec.clone(),
        )),
        Arc::new(memory::MemoryRead::new(config.memory_file.clone())),
        Arc::new(memory::MemoryWrite::new(config.memory_file.clone())),
    ];
    if let Some(web) = &config.web_fetch {
        tools.push(Arc::new(web::WebFetch::new(web.clone())));
    }
    tools
}

/// `exec_shell` alone, with its own configuration (the runtime keeps a sandboxed one for
/// sessions that run in `auto` mode under a `bypass` parent).
pub fn exec_shell_tool(scope: FsScope, exec: ExecConfig) -> Arc<dyn Tool> {
    Arc::new(shell::ExecShell::new(Arc::new(scope), exec))
}

/// A registry holding [`builtin_tools`].
pub fn builtin_registry(config: &BuiltinConfig) -> ToolRegistry {
    let mut registry = ToolRegistry::new();
    for tool in builtin_tools(config) {
        registry.register(tool);
    }
    registry
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn names_match_the_tools_and_schemas_are_closed_objects() {
        let dir = tempfile::tempdir().unwrap();
        let config = BuiltinConfig {
            scope: FsScope::new(dir.path().to_path_buf(), vec![]).unwrap(),
            memory_file: dir.path().join("memory.md"),
            exec: ExecConfig::default(),
            web_fetch: Some(WebFetchConfig::default()),
        };
        let tools = builtin_tools(&config);
        let names: Vec<&str> = tools.iter().map(|t| t.name()).collect();
        assert_eq!(names, BUILTIN_TOOL_NAMES);
        for tool in &tools {
            let schema = tool.input_schema();
            assert_eq!(schema["type"], "object", "{}", tool.name());
            assert_eq!(schema["additionalProperties"], false, "{}", tool.name());
            assert!(schema["properties"].is_object(), "{}", tool.name());
            assert!(schema["required"].is_array(), "{}", tool.name());
            for required in schema["required"].as_array().unwrap() {
                let key = required.as_str().unwrap();
                assert!(schema["properties"].get(key).is_some(), "{}", tool.name());
            }
            assert!(!tool.description().is_empty());
        }
        for name in READ_ONLY_TOOLS {
            assert!(BUILTIN_TOOL_NAMES.contains(&name));
        }
    }
}
