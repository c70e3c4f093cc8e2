//! `cargo xtask shell-diff --cases N [--seed S]`: the shell analyser's differential harness
//! (crates/weft-shell/tests/differential) with more cases than the test suite runs, in a
//! release build: commands generated from the grammar run under the real bash and dash with
//! logging stubs, and every program they start must be in the analysis.

use std::path::Path;
use std::process::Command;

use anyhow::{Context as _, Result, bail};

/// Options of `shell-diff`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// Cases to run (a case is one command under one shell).
    pub cases: u64,
    /// The generator's seed.
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            cases: 200_000,
            seed: 23,
        }
    }
}

/// Runs the harness; its own report (cases, time, failures with minimal commands) is printed
/// as it comes.
#[allow(clippy::disallowed_methods)] // the cargo running xtask, as cargo documents
pub fn run(root: &Path, opts: &Options) -> Result<()> {
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args([
            "test",
            "--release",
            "-p",
            "weft-shell",
            "--test",
            "differential",
            "--",
            "--nocapture",
        ])
        .env("WEFT_SHELL_DIFF_CASES", opts.cases.to_string())
        .env("WEFT_SHELL_DIFF_SEED", opts.seed.to_string())
        .current_dir(root)
        .status()
        .context("running cargo test")?;
    if !status.success() {
        bail!("the differential harness found programs the analyser did not list (see above)");
    }
    Ok(())
}
