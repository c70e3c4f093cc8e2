//! `cargo xtask bench-session`: a scripted coding session replayed through the real `weft`
//! binary against a loopback server that answers like a provider, to measure what long
//! sessions cost in tokens (issue 27).
//!
//! Each turn is one `weft agent --format json -m "Turn N: ..." -r SESSION` process, as a
//! person continuing a session would run it: the model reads a source file (`read_file`),
//! renames a function in it (`edit_file`) and answers. The server counts every prompt and
//! caches prefixes the way the provider does ([`cache`]), answers a summary request with a
//! summary, and refuses a prompt past the window as the provider does
//! (`context_length_exceeded`, "prompt is too long"). A skill appears on disk halfway.
//!
//! With `--rounds N` the session is instead one message that the model works through in N
//! tool-call rounds, in one process: what a long interactive session does to weft's memory.
//! Each process's resident set is sampled while it runs ([`memory`]).
//!
//! The figures come from the server's own count; weft's JSON output must report the same
//! usage, or the benchmark fails.

mod cache;
mod memory;
mod provider;
mod server;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail};
use serde_json::{Value, json};

pub use provider::Shape;
use provider::{FILES, Provider};
use server::Server;

/// Options of `bench-session`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// Turns of the session.
    pub turns: usize,
    /// The model's context window, in tokens (the server's limit and weft's).
    pub window: u64,
    /// The provider shapes to replay.
    pub shapes: Vec<Shape>,
    /// The `weft` binary (default: build this checkout's release binary).
    pub weft: Option<PathBuf>,
    /// One message worked through in this many tool-call rounds, in one process, instead
    /// of `turns` processes.
    pub rounds: Option<usize>,
    /// The window weft is told (default: the server's), to make the server refuse prompts
    /// weft thinks fit and exercise its compact-and-retry on `context_length_exceeded`.
    pub weft_window: Option<u64>,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            turns: 60,
            window: 16_000,
            shapes: vec![Shape::Anthropic, Shape::OpenAi],
            weft: None,
            rounds: None,
            weft_window: None,
        }
    }
}

/// Runs the session once per shape and prints the figures.
pub fn run(opts: &Options) -> Result<()> {
    let root = crate::bench::workspace_root();
    let weft = match &opts.weft {
        // Each run starts in the project directory: a relative path would not find it.
        Some(path) => std::fs::canonicalize(path)
            .with_context(|| format!("no weft binary at {}", path.display()))?,
        None => crate::bench::build_weft(&root)?,
    };
    for &shape in &opts.shapes {
        let dir = root.join("target/bench-session").join(shape.name());
        let figures = replay(&weft, &dir, shape, opts)?;
        print!("{}", figures.report(shape, opts));
    }
    Ok(())
}

/// What weft's JSON output said about one run.
#[derive(Debug, Default, Clone, Copy)]
struct Reported {
    input: u64,
    read: u64,
    written: u64,
    output: u64,
    compactions: u64,
    cost: f64,
}

/// The session's figures: the server's count and weft's.
#[derive(Debug)]
struct Figures {
    server: provider::Tally,
    weft: Reported,
    turn_times: Vec<Duration>,
    /// Each process's peak resident set, in KiB.
    peaks: Vec<u64>,
    /// With `--rounds`: the resident set (KiB) by model requests answered so far.
    resident: Vec<(u64, u64)>,
}

fn replay(weft: &Path, dir: &Path, shape: Shape, opts: &Options) -> Result<Figures> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).with_context(|| format!("clearing {}", dir.display()))?;
    }
    let (home, project) = (dir.join("home"), dir.join("project"));
    lay_out(&home, &project)?;
    let mut provider = Provider::new(shape, opts.window);
    if let Some(rounds) = opts.rounds {
        provider = provider.with_rounds(rounds);
    }
    let server = Server::start(provider)?;
    let config = dir.join("config.json");
    std::fs::write(
        &config,
        config_text(
            shape,
            &server.url,
            opts.weft_window.unwrap_or(opts.window),
            opts.rounds,
        )
        .to_string(),
    )?;
    let run = Run {
        weft,
        home: &home,
        project: &project,
        config: &config,
    };
    let mut session: Option<String> = None;
    let mut reported = Reported::default();
    let mut turn_times = Vec::with_capacity(opts.turns);
    let mut peaks = Vec::with_capacity(opts.turns);
    let mut resident = Vec::new();
    let turns = if opts.rounds.is_some() { 1 } else { opts.turns };
    for turn in 0..turns {
        if turn == turns / 2 && opts.rounds.is_none() {
            skill(
                &home,
                "release-notes",
                "Write release notes from the git log.",
            )?;
        }
        server.with(|p| p.start_turn(turn))?;
        let message = match opts.rounds {
            Some(_) => provider::ask_all(),
            None => provider::ask(turn),
        };
        let start = Instant::now();
        let format = if opts.rounds.is_some() {
            "text"
        } else {
            "json"
        };
        let command = run.command(format, &message, session.as_deref());
        let (out, last) = memory::run_sampled(command, |s| {
            if let Ok(requests) = server.with(|p| p.tally().requests) {
                resident.push((requests, s.rss_kib));
            }
        })?;
        turn_times.push(start.elapsed());
        peaks.push(last.peak_kib);
        if opts.rounds.is_some() {
            // Text output: `--format json` lists every call of the run with its result,
            // which would grow with the rounds and hide what the session itself holds.
            if !out.status.success() {
                bail!(
                    "the message failed (status {}): {}",
                    out.status,
                    String::from_utf8_lossy(&out.stderr)
                );
            }
            reported = from_transcript(&home)?;
            continue;
        }
        let doc: Value = serde_json::from_slice(&out.stdout).with_context(|| {
            format!(
                "turn {turn}: weft printed no JSON result (status {}): {}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            )
        })?;
        if !out.status.success() || doc["is_error"] != false {
            bail!(
                "turn {turn} failed (status {}): {}\n{}",
                out.status,
                doc["error"],
                String::from_utf8_lossy(&out.stderr)
            );
        }
        session.get_or_insert_with(|| doc["session_id"].as_str().unwrap_or_default().to_owned());
        let usage = &doc["usage"];
        let n = |v: &Value| v.as_u64().unwrap_or(0);
        reported.input += n(&usage["input_tokens"]);
        reported.read += n(&usage["cache_read_tokens"]);
        reported.written += n(&usage["cache_write_tokens"]);
        reported.output += n(&usage["output_tokens"]);
        reported.compactions += n(&doc["compactions"]);
        reported.cost += doc["cost_usd"].as_f64().unwrap_or(0.0);
    }
    let tally = server.with(|p| p.tally())?;
    server.stop();
    if (tally.input, tally.read, tally.written, tally.output)
        != (
            reported.input,
            reported.read,
            reported.written,
            reported.output,
        )
    {
        bail!(
            "weft reported other usage than the server counted: server {tally:?}, weft {reported:?}"
        );
    }
    let cost = tally.cost(shape);
    if opts.rounds.is_some() {
        // The transcript has no prices: this mode's cost is the server's count.
        reported.cost = cost;
    }
    if (cost - reported.cost).abs() > 1e-6 * cost.max(1.0) {
        bail!(
            "weft's cost_usd adds up to ${}, the prices make it ${cost}",
            reported.cost
        );
    }
    if let Some(rounds) = opts.rounds
        && tally.requests <= rounds as u64
    {
        bail!(
            "weft stopped after {} model requests, before the {rounds} rounds",
            tally.requests
        );
    }
    Ok(Figures {
        server: tally,
        weft: reported,
        turn_times,
        peaks,
        resident,
    })
}

/// What the session's transcript (the only one under `home`) recorded: the tokens of every
/// model call and the compactions.
fn from_transcript(home: &Path) -> Result<Reported> {
    let sessions = home.join(".clawft/workspace/sessions");
    let mut files = std::fs::read_dir(&sessions)
        .with_context(|| format!("reading {}", sessions.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "jsonl"));
    let (Some(file), None) = (files.next(), files.next()) else {
        bail!("expected one transcript in {}", sessions.display());
    };
    let text = std::fs::read_to_string(&file)?;
    let mut reported = Reported::default();
    for line in text.lines() {
        let record: Value = serde_json::from_str(line)
            .with_context(|| format!("a line of {} that is not JSON", file.display()))?;
        let usage = &record["usage"];
        let n = |v: &Value| v.as_u64().unwrap_or(0);
        match record["type"].as_str() {
            Some("usage") => {
                reported.input += n(&usage["input_tokens"]);
                reported.read += n(&usage["cache_read_tokens"]);
                reported.written += n(&usage["cache_write_tokens"]);
                reported.output += n(&usage["output_tokens"]);
            }
            Some("compaction") => reported.compactions += 1,
            _ => {}
        }
    }
    Ok(reported)
}

/// Where one `weft` process of the benchmark runs.
struct Run<'a> {
    weft: &'a Path,
    home: &'a Path,
    project: &'a Path,
    config: &'a Path,
}

impl Run<'_> {
    /// `weft agent --format FORMAT -m MESSAGE [-r SESSION]` in the project.
    fn command(&self, format: &str, message: &str, session: Option<&str>) -> Command {
        let mut cmd = Command::new(self.weft);
        cmd.arg("--home")
            .arg(self.home)
            .arg("--project")
            .arg(self.project)
            .arg("--config")
            .arg(self.config)
            .args([
                "--permission-mode",
                "accept-edits",
                "agent",
                "--format",
                format,
            ])
            .args(["-m", message])
            .env("HOME", self.home)
            .current_dir(self.project);
        if let Some(id) = session {
            cmd.args(["-r", id]);
        }
        cmd
    }
}

/// The project's sources and three user skills.
fn lay_out(home: &Path, project: &Path) -> Result<()> {
    std::fs::create_dir_all(project.join("src"))?;
    for file in 0..FILES {
        std::fs::write(
            project.join(provider::source_path(file)),
            provider::source(file),
        )?;
    }
    skill(home, "rust-style", "Follow the project's Rust style.")?;
    skill(home, "testing", "Write and run the tests of a change.")?;
    skill(
        home,
        "commit-message",
        "Write a commit message for a change.",
    )
}

fn skill(home: &Path, name: &str, description: &str) -> Result<()> {
    let dir = home.join(".clawft/skills").join(name);
    std::fs::create_dir_all(&dir)?;
    std::fs::write(
        dir.join("SKILL.md"),
        format!(
            "---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\n{description}\n"
        ),
    )?;
    Ok(())
}

/// The configuration: the loopback provider, the window and the prices.
fn config_text(shape: Shape, url: &str, window: u64, rounds: Option<usize>) -> Value {
    let (kind, base, model, price) = match shape {
        Shape::Anthropic => (
            "anthropic",
            url.to_owned(),
            "claude-sonnet-4-5",
            json!({"input": provider::ANTHROPIC_PRICE.0, "output": provider::ANTHROPIC_PRICE.1,
                   "cache_read": provider::ANTHROPIC_PRICE.2, "cache_write": provider::ANTHROPIC_PRICE.3}),
        ),
        Shape::OpenAi => (
            "openai",
            format!("{url}/v1"),
            "gpt-4o",
            json!({"input": provider::OPENAI_PRICE.0, "output": provider::OPENAI_PRICE.1,
                   "cache_read": provider::OPENAI_PRICE.2}),
        ),
    };
    let mut agent = json!({"context_window": window});
    if let Some(rounds) = rounds {
        // Room for every round of the one message (and its answer).
        agent["max_tool_iterations"] = json!(rounds + 1);
    }
    json!({
        "providers": {"bench": {"kind": kind, "base_url": base, "api_key": "bench", "max_retries": 0}},
        "model": format!("bench/{model}"),
        "agent": agent,
        "pricing": {format!("bench/{model}"): price},
    })
}

impl Figures {
    fn report(&self, shape: Shape, opts: &Options) -> String {
        let s = &self.server;
        let (read_factor, write_factor) = shape.cache_factors();
        let billed =
            s.uncached() as f64 + s.read as f64 * read_factor + s.written as f64 * write_factor;
        let mut times = self.turn_times.clone();
        times.sort();
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let what = match opts.rounds {
            Some(rounds) => format!("one message of {rounds} tool-call rounds in one process"),
            None => format!("{} turns", opts.turns),
        };
        let mut out = format!(
            "{} shape: {what} at a window of {} tokens{}, finished without an error\n",
            shape.name(),
            opts.window,
            opts.weft_window
                .map(|w| format!(" (weft told {w})"))
                .unwrap_or_default()
        );
        out.push_str(&format!(
            "  model requests {} (summaries included), refused as too long {}, compactions {} (weft's count {})\n",
            s.requests, s.overflows, s.summaries, self.weft.compactions
        ));
        out.push_str(&format!(
            "  input tokens {}: read from the cache {}, written to it {}, neither {}; output tokens {}\n",
            s.input,
            s.read,
            s.written,
            s.uncached(),
            s.output
        ));
        out.push_str(&format!(
            "  input billed (in input-token prices; reads x{read_factor:.2}, writes x{write_factor:.2}): {:.0} with caching, {} without ({:.1}%)\n",
            billed,
            s.input,
            100.0 * billed / s.input.max(1) as f64
        ));
        out.push_str(&format!(
            "  cached share of the input tokens on turns 2 and later: {:.1}%\n",
            100.0 * s.later_read as f64 / s.later_input.max(1) as f64
        ));
        out.push_str(&format!(
            "  peak context: {} tokens ({:.0}% of the window)\n",
            s.peak,
            100.0 * s.peak as f64 / opts.window as f64
        ));
        let whose = match opts.rounds {
            Some(_) => "the server's count; weft's transcript agreed on the tokens",
            None => "weft's cost_usd, summed over the runs",
        };
        out.push_str(&format!(
            "  cost at the configured prices: ${:.4} ({whose})\n",
            self.weft.cost
        ));
        out.push_str(&format!(
            "  wall time per turn (one weft process): median {:.1} ms, fastest {:.1} ms\n",
            ms(times[times.len() / 2]),
            ms(times[0])
        ));
        out.push_str(&self.memory_report());
        out
    }

    /// The processes' peak resident sets, and with `--rounds` how the one process's resident
    /// set went as the rounds went by.
    fn memory_report(&self) -> String {
        let mut peaks = self.peaks.clone();
        peaks.sort_unstable();
        let (Some(first), Some(last)) = (self.peaks.first(), self.peaks.last()) else {
            return String::new();
        };
        if self.resident.is_empty() || self.peaks.len() > 1 {
            return format!(
                "  peak memory of a turn's process (resident set): first turn {}, last {}, median {}, largest {}\n",
                memory::mib(*first),
                memory::mib(*last),
                memory::mib(peaks[peaks.len() / 2]),
                memory::mib(peaks[peaks.len() - 1]),
            );
        }
        // The resident set when a quarter, half, three quarters and all of the requests
        // had been answered.
        let requests = self.server.requests;
        let at = |part: u64| {
            self.resident
                .iter()
                .take_while(|(answered, _)| *answered * 4 <= requests * part)
                .last()
                .map_or(0, |(_, rss)| *rss)
        };
        format!(
            "  resident set after 1/4, 1/2, 3/4 and all of the model requests: {}, {}, {}, {}; peak {}\n",
            memory::mib(at(1)),
            memory::mib(at(2)),
            memory::mib(at(3)),
            memory::mib(at(4)),
            memory::mib(*last),
        )
    }
}
