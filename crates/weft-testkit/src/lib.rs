//! Test support shared by weft's crates (a dev-dependency only; nothing here ships).
//!
//! [`Corpus`] finds the real-world SKILL.md corpus the tests parse: the full one in
//! `../shared/corpus` beside the checkout when it is there (as in CI), and always the sample of
//! about 100 of its skills committed under `fixtures/corpus-sample` (so a fresh clone tests
//! real skills too). Tests run against every corpus [`Corpus::available`] returns and announce
//! which ones ran; nothing is skipped silently. [`mcp::everything_server`] is the MCP
//! reference server, installed on first use. [`seed_definitions`] are seed 003's example
//! skills as written.
//!
//! ```
//! let corpora = weft_testkit::Corpus::available();
//! assert!(corpora.iter().any(|c| c.name == "sample"));
//! ```
//!
//! # Code map
//!
//! A dev-dependency only, never shipped: `Corpus` finds the real-world skill corpora (the full one
//! in `../shared/corpus` when it sits beside the checkout, and always the sample committed in
//! `fixtures/corpus-sample`) with the counts each is known to produce (a CLI test checks that the
//! sample's README states the same), and announces on stderr which ran; `mcp::everything_server`
//! installs the pinned MCP reference server on first use (`scripts/install-mcp-test-server.sh`,
//! under a file lock). Depends on nothing.

#![allow(clippy::print_stderr)]

mod corpus;
pub mod mcp;

pub use corpus::{Corpus, Expected, ProfileCounts};

/// Seed 003's two skill-injection definitions as the seed writes them (`specification-engine`
/// with `allowed_tools: [specKit]`, `opencode-implementer` with `[opencode-executor]` and
/// `forbidden_tools: [write, edit]`), each file's path and text: the tests of the seed's
/// scenarios register these. The built-in skills of the same names grant weft's own tools.
pub fn seed_definitions() -> Vec<(std::path::PathBuf, String)> {
    ["specification-engine.json", "opencode-implementer.yaml"]
        .into_iter()
        .map(|name| {
            let path = workspace_root().join("fixtures/definitions").join(name);
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (path, text)
        })
        .collect()
}

/// The workspace root (this crate lives in `crates/weft-testkit`).
fn workspace_root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}
