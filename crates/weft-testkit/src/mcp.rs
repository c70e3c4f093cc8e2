//! The MCP reference server the MCP tests run against, installed on first use.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The installed entry point, relative to the workspace root.
const ENTRY: &str = ".tools/mcp/node_modules/@modelcontextprotocol/server-everything/dist/index.js";

/// The pinned `@modelcontextprotocol/server-everything` entry point (`dist/index.js`),
/// installed by `scripts/install-mcp-test-server.sh` into `.tools/mcp` the first time a test
/// asks for it. The script is idempotent and pinned by a lockfile; a file lock keeps test
/// binaries running at the same time from installing twice. Panics, with the fix, when Node.js
/// or npm is missing or the install fails.
pub fn everything_server() -> PathBuf {
    static INSTALLED: OnceLock<PathBuf> = OnceLock::new();
    INSTALLED
        .get_or_init(|| install(&super::workspace_root()))
        .clone()
}

/// `node`, found on PATH; panics with a hint when there is none.
#[allow(clippy::disallowed_methods)] // test support finds the developer's own node
pub fn node() -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join("node"))
        .find(|p| p.is_file())
        .unwrap_or_else(|| {
            panic!("`node` is not on PATH: the MCP tests need Node.js 20+ with npm (https://nodejs.org)")
        })
}

fn install(root: &Path) -> PathBuf {
    let entry = root.join(ENTRY);
    std::fs::create_dir_all(root.join(".tools"))
        .unwrap_or_else(|e| panic!("cannot create {}: {e}", root.join(".tools").display()));
    let lock_path = root.join(".tools/mcp-install.lock");
    let lock = File::create(&lock_path)
        .unwrap_or_else(|e| panic!("cannot create {}: {e}", lock_path.display()));
    lock.lock()
        .unwrap_or_else(|e| panic!("cannot lock {}: {e}", lock_path.display()));
    node();
    let script = root.join("scripts/install-mcp-test-server.sh");
    let status = Command::new("bash")
        .arg(&script)
        .status()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", script.display()));
    assert!(
        status.success() && entry.is_file(),
        "{} failed ({status}); it needs Node.js 20+ with npm and the npm registry",
        script.display()
    );
    entry
}
