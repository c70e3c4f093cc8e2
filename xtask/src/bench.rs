//! Timing the real `weft` binary: `cargo xtask bench-list` (listing a generated tree against
//! `cat` reading the same files) and `cargo xtask bench-validate` (validating the corpus).
//!
//! Medians of wall-clock runs; the first run of each command is a warm-up and not counted.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail};

use crate::fixtures;

/// Options of the bench commands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// Skills in the generated tree (`bench-list`).
    pub count: usize,
    /// Timed runs of each command.
    pub runs: usize,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            count: 1000,
            runs: 15,
        }
    }
}

fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Builds the release binary and returns its path.
#[allow(clippy::disallowed_methods)] // the cargo running xtask, as cargo documents
fn build_weft(root: &Path) -> Result<PathBuf> {
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["build", "--release", "--quiet", "-p", "weft-cli"])
        .current_dir(root)
        .status()
        .context("running cargo build")?;
    if !status.success() {
        bail!("cargo build --release -p weft-cli failed");
    }
    Ok(root.join("target/release/weft"))
}

/// Median wall time of `runs` runs of `cmd` (after one warm-up), stdout discarded.
fn median_time(runs: usize, mut make: impl FnMut() -> Command) -> Result<Duration> {
    let mut times = Vec::with_capacity(runs);
    for i in 0..=runs {
        let mut cmd = make();
        cmd.stdout(Stdio::null()).stderr(Stdio::null());
        let start = Instant::now();
        let status = cmd.status().context("running the benchmarked command")?;
        let elapsed = start.elapsed();
        if status.code().is_none() {
            bail!("benchmarked command was killed");
        }
        if i > 0 {
            times.push(elapsed);
        }
    }
    times.sort();
    Ok(times[times.len() / 2])
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// `cargo xtask bench-list`: `weft skills list` over a generated tree vs one `cat` process
/// reading the same SKILL.md files.
pub fn list(opts: &Options) -> Result<()> {
    let root = workspace_root();
    let weft = build_weft(&root)?;
    let base = root.join("target/bench-list");
    let tree = base.join(format!("skills-{}", opts.count));
    let home = base.join("empty-home");
    std::fs::create_dir_all(&home)?;
    fixtures::run(&fixtures::Options {
        count: opts.count,
        out: tree.clone(),
        seed: fixtures::DEFAULT_SEED,
        nested: false,
        force: true,
    })?;
    let mut files: Vec<PathBuf> = std::fs::read_dir(&tree)?
        .flatten()
        .map(|e| e.path().join("SKILL.md"))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    if files.len() != opts.count {
        bail!("expected {} skill files, found {}", opts.count, files.len());
    }
    let cat = median_time(opts.runs, || {
        let mut c = Command::new("cat");
        c.args(&files);
        c
    })?;
    let list_cmd = |no_cache: bool| {
        let mut c = Command::new(&weft);
        c.args(["skills", "list", "--home"])
            .arg(&home)
            .arg("--project")
            .arg(&home)
            .arg("--skills-dir")
            .arg(&tree);
        if no_cache {
            c.arg("--no-cache");
        }
        c
    };
    // The warm-up run of the cached variant fills the cache.
    let _ = std::fs::remove_dir_all(home.join(".clawft"));
    let cached = median_time(opts.runs, || list_cmd(false))?;
    let parsed = median_time(opts.runs, || list_cmd(true))?;
    println!(
        "{} skills, median of {} runs:\n  cat (one process):              {:8.2} ms\n  weft skills list (cache warm):  {:8.2} ms  ({:.2}x cat)\n  weft skills list --no-cache:    {:8.2} ms  ({:.2}x cat)",
        opts.count,
        opts.runs,
        ms(cat),
        ms(cached),
        ms(cached) / ms(cat),
        ms(parsed),
        ms(parsed) / ms(cat)
    );
    Ok(())
}

/// `cargo xtask bench-validate`: `weft skills validate` over the shared corpus.
pub fn validate(opts: &Options) -> Result<()> {
    let root = workspace_root();
    let weft = build_weft(&root)?;
    let corpus = root.join("../shared/corpus");
    if !corpus.is_dir() {
        bail!("the corpus is not at {}", corpus.display());
    }
    let time = median_time(opts.runs, || {
        let mut c = Command::new(&weft);
        c.args(["skills", "validate"]).arg(&corpus);
        c
    })?;
    println!(
        "weft skills validate <corpus>, median of {} runs: {:.2} ms",
        opts.runs,
        ms(time)
    );
    Ok(())
}
