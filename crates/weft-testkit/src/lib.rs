//! Test support shared by weft's crates (a dev-dependency only; nothing here ships).
//!
//! [`Corpus`] finds the real-world SKILL.md corpus the tests parse: the full one in
//! `../shared/corpus` beside the checkout when it is there (as in CI), and always the sample of
//! about 100 of its skills committed under `fixtures/corpus-sample` (so a fresh clone tests
//! real skills too). Tests run against every corpus [`Corpus::available`] returns and announce
//! which ones ran; nothing is skipped silently. [`mcp::everything_server`] is the MCP
//! reference server, installed on first use.
//!
//! ```
//! let corpora = weft_testkit::Corpus::available();
//! assert!(corpora.iter().any(|c| c.name == "sample"));
//! ```

#![allow(clippy::print_stderr)]

mod corpus;
pub mod mcp;

pub use corpus::{Corpus, Expected, ProfileCounts};

/// The workspace root (this crate lives in `crates/weft-testkit`).
fn workspace_root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}
