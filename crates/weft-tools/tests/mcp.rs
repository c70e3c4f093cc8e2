//! MCP tools against real server processes: the hermetic test server built with rmcp's server
//! side (`tests/support/mcp_test_server.rs`, an example target that `cargo test` builds) and
//! npm's `@modelcontextprotocol/server-everything`, installed by
//! `scripts/install-mcp-test-server.sh` into `.tools/mcp` (the tests fail, loudly, without it).
#![allow(clippy::unwrap_used, clippy::expect_used)]

// `#[path]` because a test crate's root looks for modules beside it.
#[path = "mcp/everything.rs"]
mod everything;
#[path = "mcp/gate.rs"]
mod gate;
#[path = "mcp/hermetic.rs"]
mod hermetic;
#[path = "mcp/limits.rs"]
mod limits;

use std::path::{Path, PathBuf};
use std::time::Duration;

use tempfile::TempDir;
use weft_tools::{McpManager, McpServerConfig, ToolRegistry};

/// The hermetic server's executable, `target/<profile>/examples/mcp_test_server`.
#[allow(clippy::disallowed_methods)] // the server is built beside this test
pub(crate) fn test_server_exe() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(Path::parent).unwrap();
    let server = profile_dir
        .join("examples")
        .join(format!("mcp_test_server{}", std::env::consts::EXE_SUFFIX));
    assert!(
        server.is_file(),
        "{} is missing: `cargo test` builds it; with a narrower target selection run \
         `cargo build -p weft-tools --example mcp_test_server` first",
        server.display()
    );
    server
}

/// A directory for the server's call log (and other per-test files).
pub(crate) struct Scratch(TempDir);

impl Scratch {
    pub(crate) fn new() -> Self {
        Self(tempfile::tempdir().unwrap())
    }

    pub(crate) fn path(&self, name: &str) -> PathBuf {
        self.0.path().join(name)
    }

    /// The lines the server logged (`start`, `call <tool>`).
    pub(crate) fn log(&self) -> Vec<String> {
        std::fs::read_to_string(self.path("calls.log"))
            .unwrap_or_default()
            .lines()
            .map(str::to_owned)
            .collect()
    }

    pub(crate) fn count(&self, line: &str) -> usize {
        self.log().iter().filter(|l| *l == line).count()
    }
}

/// The hermetic server called `name`, logging into `scratch`.
pub(crate) fn hermetic(name: &str, scratch: &Scratch) -> McpServerConfig {
    McpServerConfig::new(name, test_server_exe().to_str().unwrap())
        .with_env(
            "WEFT_TEST_MCP_LOG",
            scratch.path("calls.log").to_str().unwrap(),
        )
        .with_startup_timeout(Duration::from_secs(10))
        .with_call_timeout(Duration::from_secs(10))
}

/// Starts `configs` and registers their tools.
pub(crate) async fn start(configs: Vec<McpServerConfig>) -> (McpManager, ToolRegistry) {
    let manager = McpManager::start(configs).await;
    let mut registry = ToolRegistry::new();
    manager.register_into(&mut registry);
    (manager, registry)
}

/// True while a process with this id exists.
pub(crate) fn process_exists(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
        && !std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .unwrap_or_default()
            .contains(") Z ")
}

/// Kills a process with SIGKILL.
pub(crate) fn kill(pid: u32) {
    let status = std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// The text of a failed call (any other error fails the test).
pub(crate) fn failed(err: weft_tools::ToolError) -> String {
    match err {
        weft_tools::ToolError::Failed(text) => text,
        other => panic!("expected ToolError::Failed, got {other:?}"),
    }
}

/// Waits up to 5 s for `cond`.
pub(crate) async fn eventually(mut cond: impl FnMut() -> bool) -> bool {
    for _ in 0..100 {
        if cond() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    cond()
}
