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
    /// A `weft` binary to time instead of building this checkout's (to compare builds).
    pub weft: Option<PathBuf>,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            count: 1000,
            runs: 15,
            weft: None,
        }
    }
}

/// The workspace's root directory.
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Builds the release binary and returns its path.
#[allow(clippy::disallowed_methods)] // the cargo running xtask, as cargo documents
pub fn build_weft(root: &Path) -> Result<PathBuf> {
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

/// Wall time of one run of `cmd`, stdout and stderr discarded.
fn time_once(mut cmd: Command) -> Result<Duration> {
    cmd.stdout(Stdio::null()).stderr(Stdio::null());
    let start = Instant::now();
    let status = cmd.status().context("running the benchmarked command")?;
    let elapsed = start.elapsed();
    if status.code().is_none() {
        bail!("benchmarked command was killed");
    }
    Ok(elapsed)
}

/// The median and the fastest of a command's timed runs.
#[derive(Debug, Clone, Copy)]
struct Timing {
    median: Duration,
    min: Duration,
}

/// Wall times of each command over `runs` rounds (after one warm-up round). The commands run
/// side by side, one of each per round, so a busy machine slows them alike; the fastest run
/// is reported too, as the least disturbed one.
fn timings(runs: usize, makers: &mut [&mut dyn FnMut() -> Command]) -> Result<Vec<Timing>> {
    let mut times: Vec<Vec<Duration>> = vec![Vec::with_capacity(runs); makers.len()];
    for round in 0..=runs {
        for (make, samples) in makers.iter_mut().zip(times.iter_mut()) {
            let elapsed = time_once(make())?;
            if round > 0 {
                samples.push(elapsed);
            }
        }
    }
    Ok(times
        .into_iter()
        .map(|mut samples| {
            samples.sort();
            Timing {
                median: samples[samples.len() / 2],
                min: samples[0],
            }
        })
        .collect())
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// `cargo xtask bench-list`: `weft skills list` over a generated tree, with a warm header
/// cache and without one, side by side with one `cat` process reading the same SKILL.md files.
pub fn list(opts: &Options) -> Result<()> {
    let root = workspace_root();
    let weft = match &opts.weft {
        Some(path) => path.clone(),
        None => build_weft(&root)?,
    };
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
    // The header cache does not trust a file changed within the last second (its change
    // time could still move unseen): let the fresh tree age past that.
    std::thread::sleep(Duration::from_millis(1100));
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
    // The warm-up round fills the cache.
    let _ = std::fs::remove_dir_all(home.join(".clawft"));
    let mut cat = || {
        let mut c = Command::new("cat");
        c.args(&files);
        c
    };
    let mut cached = || list_cmd(false);
    let mut parsed = || list_cmd(true);
    let times = timings(opts.runs, &mut [&mut cat, &mut cached, &mut parsed])?;
    println!(
        "{} skills, {} rounds (each: cat, cached, uncached)     median          fastest",
        opts.count, opts.runs
    );
    let rows = [
        ("cat (one process)", times[0]),
        ("weft skills list (cache warm)", times[1]),
        ("weft skills list --no-cache", times[2]),
    ];
    for (label, t) in rows {
        let (median, min) = (ms(t.median), ms(t.min));
        println!(
            "  {label:<31} {median:8.2} ms ({:.2}x)  {min:8.2} ms ({:.2}x)",
            median / ms(times[0].median),
            min / ms(times[0].min)
        );
    }
    Ok(())
}

/// `cargo xtask bench-validate`: `weft skills validate` over the shared corpus.
pub fn validate(opts: &Options) -> Result<()> {
    let root = workspace_root();
    let weft = match &opts.weft {
        Some(path) => path.clone(),
        None => build_weft(&root)?,
    };
    let corpus = root.join("../shared/corpus");
    if !corpus.is_dir() {
        bail!("the corpus is not at {}", corpus.display());
    }
    let mut validate = || {
        let mut c = Command::new(&weft);
        c.args(["skills", "validate"]).arg(&corpus);
        c
    };
    let time = timings(opts.runs, &mut [&mut validate])?[0];
    println!(
        "weft skills validate <corpus>, {} runs: median {:.2} ms, fastest {:.2} ms",
        opts.runs,
        ms(time.median),
        ms(time.min)
    );
    Ok(())
}
