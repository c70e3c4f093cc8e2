//! The built-in tools, called through the registry as the agent loop calls them.
#![allow(clippy::unwrap_used, clippy::expect_used)]

// One file per tool family; `#[path]` because a test crate's root looks for modules beside it.
#[path = "builtins/files.rs"]
mod files;
#[path = "builtins/memory.rs"]
mod memory;
#[path = "builtins/search.rs"]
mod search;
#[path = "builtins/shell.rs"]
mod shell;
#[path = "builtins/web.rs"]
mod web;

use std::path::PathBuf;

use serde_json::Value;
use tempfile::TempDir;
use weft_tools::{
    BUILTIN_TOOL_NAMES, BuiltinConfig, ExecConfig, FsScope, ToolError, ToolRegistry,
    WebFetchConfig, builtin_registry,
};

/// A temporary workspace (`<tmp>/ws`) with the built-in registry over it; the memory file
/// lives outside it, in `<tmp>/state`.
pub(crate) struct Workspace {
    dir: TempDir,
    pub(crate) registry: ToolRegistry,
}

impl Workspace {
    pub(crate) fn new() -> Self {
        Self::with(ExecConfig::default(), None)
    }

    pub(crate) fn with(exec: ExecConfig, web_fetch: Option<WebFetchConfig>) -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("ws")).unwrap();
        let config = BuiltinConfig {
            scope: FsScope::new(dir.path().join("ws"), vec![]).unwrap(),
            memory_file: dir.path().join("state/memory.md"),
            exec,
            web_fetch,
        };
        Self {
            registry: builtin_registry(&config),
            dir,
        }
    }

    /// The workspace root (the scope's base).
    pub(crate) fn base(&self) -> PathBuf {
        self.dir.path().join("ws")
    }

    /// A directory next to the workspace, outside the scope.
    pub(crate) fn outside(&self) -> PathBuf {
        self.dir.path().to_path_buf()
    }

    pub(crate) fn write(&self, rel: &str, content: impl AsRef<[u8]>) {
        let path = self.base().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }

    pub(crate) fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.base().join(rel)).unwrap()
    }

    pub(crate) async fn call(&self, tool: &str, input: Value) -> Result<String, ToolError> {
        let tool = self
            .registry
            .get(tool)
            .unwrap_or_else(|| panic!("{tool} missing"));
        tool.call(input).await.map(|o| o.content)
    }

    pub(crate) async fn ok(&self, tool: &str, input: Value) -> String {
        self.call(tool, input.clone())
            .await
            .unwrap_or_else(|e| panic!("{tool} {input} failed: {e}"))
    }

    pub(crate) async fn err(&self, tool: &str, input: Value) -> ToolError {
        match self.call(tool, input.clone()).await {
            Ok(out) => panic!("{tool} {input} succeeded: {out}"),
            Err(e) => e,
        }
    }
}

pub(crate) fn is_invalid(err: &ToolError) -> bool {
    matches!(err, ToolError::InvalidInput(_))
}

pub(crate) fn is_outside(err: &ToolError) -> bool {
    matches!(err, ToolError::OutsideWorkspace { .. })
}

#[tokio::test]
async fn registry_has_every_builtin_but_web_fetch_unless_configured() {
    let ws = Workspace::new();
    let names: Vec<&str> = ws.registry.names().collect();
    assert_eq!(names.len(), 9);
    for name in &BUILTIN_TOOL_NAMES[..9] {
        assert!(ws.registry.contains(name), "{name}");
    }
    assert!(!ws.registry.contains("web_fetch"));
    let with_web = Workspace::with(ExecConfig::default(), Some(WebFetchConfig::default()));
    assert_eq!(with_web.registry.len(), 10);
}
