//! The one test sandbox of the CLI tests: a temporary home and project, and the real `weft`
//! binary run against them with nothing from the developer's environment leaking in; and the
//! insta filters that make its output comparable from run to run.
//!
//! The home and project are temporary, the provider variables removed, or with `isolated()`
//! no inherited environment at all; models are replay recordings. `render` gives a command's
//! exit code, stdout and stderr; `run_bounded` kills a command past its deadline and samples
//! its peak resident set size. `snapshot!` takes the insta snapshots (stored in
//! `crates/weft-cli/tests/snapshots`), whose filters write temporary paths as `[TMP]` and
//! times, digests, commit ids, session ids and weft's version as placeholders.

#![allow(
    dead_code,
    unused_macros,
    unused_imports,
    clippy::unwrap_used,
    clippy::expect_used
)]

use std::io::{ErrorKind, Read as _, Seek as _};
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use serde_json::{Value, json};

/// The scripted loopback chat server of the agent-loop tests (OpenAI and Anthropic wire
/// formats), for runs that need a model.
#[path = "../../../weft-agents/tests/common/mod.rs"]
pub mod server;

pub mod git;
pub mod packages;

/// Variables that would configure weft behind the test's back.
pub const HOST_VARS: [&str; 8] = [
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "OPENAI_BASE_URL",
    "ANTHROPIC_BASE_URL",
    "WEFT_MODEL",
    "CLAWFT_PROJECT",
    "RUST_LOG",
    "CODEX_HOME",
];

/// `PATH` of [`Sandbox::isolated`] commands.
pub const SYSTEM_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// The repository root.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A temporary home and project, both existing directories.
pub struct Sandbox {
    /// Holds everything; removed on drop.
    pub tmp: tempfile::TempDir,
    /// `tmp`'s path with links resolved: every other path here is under it.
    pub root: PathBuf,
    /// `$HOME` of every command.
    pub home: PathBuf,
    /// The project directory.
    pub project: PathBuf,
}

impl Sandbox {
    /// `<tmp>/home` and `<tmp>/project`.
    pub fn new() -> Self {
        Self::under("home", "project")
    }

    /// A project inside the home directory, `<tmp>/home/code/app`, as most users have it.
    pub fn project_under_home() -> Self {
        Self::under("home", "home/code/app")
    }

    fn under(home: &str, project: &str) -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(tmp.path()).unwrap();
        let (home, project) = (root.join(home), root.join(project));
        Self::with(tmp, home, project)
    }

    /// A sandbox over directories laid out in `tmp` (a generated tree, say); created when
    /// missing.
    pub fn with(tmp: tempfile::TempDir, home: PathBuf, project: PathBuf) -> Self {
        let root = std::fs::canonicalize(tmp.path()).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(&project).unwrap();
        Self {
            tmp,
            root,
            home,
            project,
        }
    }

    /// `weft` run in the project with `HOME` set and [`HOST_VARS`] removed; no flags. The
    /// standard library's command, for tests that spawn it (a pseudo-terminal, signals).
    pub fn process(&self) -> std::process::Command {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_weft"));
        cmd.current_dir(&self.project).env("HOME", &self.home);
        for var in HOST_VARS {
            cmd.env_remove(var);
        }
        cmd
    }

    /// [`process`](Self::process) as an assertable command.
    pub fn bare(&self) -> Command {
        Command::from_std(self.process())
    }

    /// [`bare`](Self::bare) as a `std::process::Command` run in `dir`, with `--home` (the
    /// project is detected from `dir`), for [`run_bounded`].
    pub fn process_in(&self, dir: &Path) -> std::process::Command {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_weft"));
        cmd.current_dir(dir)
            .env("HOME", &self.home)
            .arg("--home")
            .arg(&self.home);
        for var in HOST_VARS {
            cmd.env_remove(var);
        }
        cmd
    }

    /// [`bare`](Self::bare) with `--home` and `--project`.
    pub fn weft(&self) -> Command {
        let mut cmd = self.bare();
        cmd.arg("--home")
            .arg(&self.home)
            .arg("--project")
            .arg(&self.project);
        cmd
    }

    /// [`weft`](Self::weft) run from the repository root (so `fixtures/...` arguments work).
    pub fn weft_in_repo(&self) -> Command {
        let mut cmd = self.weft();
        cmd.current_dir(repo());
        cmd
    }

    /// `weft --home --project` with nothing of the developer's environment at all: only
    /// `PATH` ([`SYSTEM_PATH`]), `HOME` and `TMPDIR` (`<tmp>/tmp`, see
    /// [`temp`](Self::temp)); no input.
    pub fn isolated(&self) -> std::process::Command {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_weft"));
        cmd.current_dir(&self.project)
            .env_clear()
            .env("PATH", SYSTEM_PATH)
            .env("HOME", &self.home)
            .env("TMPDIR", self.temp())
            .arg("--home")
            .arg(&self.home)
            .arg("--project")
            .arg(&self.project)
            .stdin(Stdio::null());
        cmd
    }

    /// `weft ARGS` from [`bare`](Self::bare) (the project found from the working directory,
    /// the home from `HOME`), run to the end.
    pub fn run(&self, args: &[&str]) -> Output {
        self.bare().args(args).output().unwrap()
    }

    /// `<tmp>/tmp`, created: weft's temporary directory in [`isolated`](Self::isolated)
    /// commands, so that it is not the system's (which holds the sandbox itself).
    pub fn temp(&self) -> PathBuf {
        self.dir("tmp")
    }

    /// Creates the directory `<tmp>/<rel>`.
    pub fn dir(&self, rel: &str) -> PathBuf {
        let dir = self.root.join(rel);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Writes `<project>/<rel>` (directories created).
    pub fn file(&self, rel: &str, text: &str) -> PathBuf {
        write(&self.project.join(rel), text)
    }

    /// Writes `<tmp>/<rel>`, outside home and project.
    pub fn outside(&self, rel: &str, text: &str) -> PathBuf {
        write(&self.root.join(rel), text)
    }

    /// Writes `<tmp>/config.json` (for `--config`) and returns its path.
    pub fn config(&self, value: &Value) -> PathBuf {
        self.outside("config.json", &value.to_string())
    }

    /// Writes a replay provider's recording, one model turn a line, to `<tmp>/<name>`.
    pub fn recording(&self, name: &str, turns: &[Value]) -> PathBuf {
        let lines: Vec<String> = turns.iter().map(Value::to_string).collect();
        self.outside(name, &lines.join("\n"))
    }

    /// Writes `<tmp>/config.json` naming one OpenAI-compatible provider `local` at a
    /// loopback server (no retries), with the default model `local/m`; returns its path.
    pub fn loopback_config(&self, server: &server::ScriptServer) -> PathBuf {
        self.config(&json!({
            "providers": {"local": {"kind": "openai", "base_url": format!("{}/v1", server.url), "max_retries": 0}},
            "model": "local/m"
        }))
    }

    /// Writes `~/.clawft/config.json`.
    pub fn user_config(&self, value: &Value) {
        write(&self.home.join(".clawft/config.json"), &value.to_string());
    }

    /// Writes `<project>/.clawft/config.json`.
    pub fn project_config(&self, value: &Value) {
        self.file(".clawft/config.json", &value.to_string());
    }

    /// `~/.clawft/workspace/sessions`.
    pub fn sessions(&self) -> PathBuf {
        self.home.join(".clawft/workspace/sessions")
    }

    /// The transcript files written so far.
    pub fn transcripts(&self) -> Vec<PathBuf> {
        match std::fs::read_dir(self.sessions()) {
            Ok(dir) => dir
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
                .collect(),
            Err(e) if e.kind() == ErrorKind::NotFound => Vec::new(),
            Err(e) => panic!("{e}"),
        }
    }

    /// The one transcript, every line parsed.
    pub fn transcript(&self) -> Vec<Value> {
        let files = self.transcripts();
        assert_eq!(files.len(), 1, "{files:?}");
        read_lines(&files[0])
    }

    /// The messages of the one transcript.
    pub fn messages(&self) -> Vec<Value> {
        self.transcript()
            .into_iter()
            .filter(|r| r["type"] == "message")
            .map(|r| r["message"].clone())
            .collect()
    }

    /// `text` with the sandbox's directory written as `[TMP]` (for snapshots).
    pub fn redact(&self, text: &str) -> String {
        let raw = self.tmp.path().to_str().unwrap();
        text.replace(self.root.to_str().unwrap(), "[TMP]")
            .replace(raw, "[TMP]")
    }

    /// insta settings for this sandbox: the filters of [`filters`] plus its directory as
    /// `[TMP]`. Use with `settings.bind(|| insta::assert_snapshot!(...))`.
    pub fn snapshot_settings(&self) -> insta::Settings {
        let mut settings = insta::Settings::clone_current();
        settings.add_filter(&regex_escape(self.root.to_str().unwrap()), "[TMP]");
        settings.add_filter(&regex_escape(self.tmp.path().to_str().unwrap()), "[TMP]");
        for (pattern, replacement) in filters() {
            settings.add_filter(pattern, replacement);
        }
        settings
    }
}

/// `insta::assert_snapshot!(name, text)` under the sandbox's
/// [`snapshot_settings`](Sandbox::snapshot_settings). A macro, so that the snapshot is named
/// after the calling test file.
macro_rules! snapshot {
    ($sandbox:expr, $name:expr, $text:expr $(,)?) => {
        $sandbox
            .snapshot_settings()
            .bind(|| insta::assert_snapshot!($name, $text))
    };
}
pub(crate) use snapshot;

/// What changes from run to run in weft's output, and what it becomes in a snapshot.
pub fn filters() -> Vec<(&'static str, &'static str)> {
    vec![
        // RFC 3339 times (lockfiles, `skills show`).
        (
            r"\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z\b",
            "[TIME]",
        ),
        // SHA-256 digests, then git commit ids, full and shortened (12).
        (r"\b[0-9a-f]{64}\b", "[SHA256]"),
        (r"\b[0-9a-f]{40}\b", "[COMMIT]"),
        (r"\b[0-9a-f]{12}\b", "[SHORT]"),
        // Session ids (`s-<millis>-<random>`), subagent ids.
        (r"\bs-[0-9a-z]+-[0-9a-z]+\b", "[SESSION]"),
        // weft's own version.
        (env!("CARGO_PKG_VERSION"), "[VERSION]"),
        // How the sandbox keeps protected paths read-only depends on user namespaces here.
        (
            r#""read_only_by": "(mounts|carving)""#,
            r#""read_only_by": "[READ-ONLY BY]""#,
        ),
        (
            r"\((read-only mounts in a mount namespace of the command's own|carved out of the writable roots \(no user namespaces: no new entries beside them\))\)",
            "([READ-ONLY BY])",
        ),
    ]
}

/// `text` with regex metacharacters escaped.
fn regex_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if r"\.+*?()|[]{}^$#&-~".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// What a command run by [`run_bounded`] left behind.
#[derive(Debug)]
pub struct Finished {
    /// Its exit code (-1 when a signal ended it).
    pub code: i32,
    /// Standard output (invalid UTF-8 shown as U+FFFD; an ESC byte stays an ESC).
    pub stdout: String,
    /// Standard error, likewise.
    pub stderr: String,
    /// The peak resident set size in KiB, read from the kernel once the command was waited
    /// for (see [`run_bounded`]): never below the command's own peak.
    pub peak_rss_kib: u64,
}

/// Runs `cmd` to the end, killing it and failing the test past `deadline` (a FIFO that blocks
/// or a walk that never ends fails the test instead of hanging it; this is a bound, not a
/// speed measurement). Standard input is empty; the outputs go to anonymous temporary files
/// (no pipe to fill, nothing left under the home directory).
///
/// The peak memory is the kernel's account, not a sample: after the wait,
/// `getrusage(RUSAGE_CHILDREN)`'s `ru_maxrss`, the largest peak of the children this test
/// process has waited for. It includes this command exactly, so it is never below its
/// peak; it may be another child's (tests run in parallel), so it is an upper bound, which
/// is what a "stays under N MB" check needs. Tests that check it run in a test binary of
/// their own (see tests/all.rs), so the other children are theirs.
pub fn run_bounded(cmd: &mut std::process::Command, deadline: Duration) -> Finished {
    let mut out = tempfile::tempfile().unwrap();
    let mut err = tempfile::tempfile().unwrap();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(out.try_clone().unwrap())
        .stderr(err.try_clone().unwrap())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{cmd:?} did not finish within {deadline:?}");
        }
        std::thread::sleep(Duration::from_millis(3));
    };
    let read = |f: &mut std::fs::File| {
        f.rewind().unwrap();
        let mut bytes = Vec::new();
        f.read_to_end(&mut bytes).unwrap();
        String::from_utf8_lossy(&bytes).into_owned()
    };
    Finished {
        code: status.code().unwrap_or(-1),
        stdout: read(&mut out),
        stderr: read(&mut err),
        peak_rss_kib: children_peak_rss_kib(),
    }
}

/// The largest peak resident set size (KiB on Linux) of the children waited for so far.
#[cfg(unix)]
fn children_peak_rss_kib() -> u64 {
    use nix::sys::resource::{UsageWho, getrusage};
    let usage = getrusage(UsageWho::RUSAGE_CHILDREN).unwrap();
    u64::try_from(usage.max_rss()).unwrap_or(0)
}

#[cfg(not(unix))]
fn children_peak_rss_kib() -> u64 {
    0
}

/// Every regular file under `dir` (links not followed), for leak checks.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                stack.push(entry.path());
            } else if kind.is_file() {
                files.push(entry.path());
            }
        }
    }
    files.sort();
    files
}

pub fn write(path: &Path, text: &str) -> PathBuf {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
    path.to_path_buf()
}

/// Writes `<root>/<name>/SKILL.md` with this name and description.
pub fn write_skill(root: &Path, name: &str, description: &str) {
    write(
        &root.join(name).join("SKILL.md"),
        &format!("---\nname: {name}\ndescription: {description}\n---\n\nDo {name}.\n"),
    );
}

/// Every line of a JSONL file as JSON (a line that does not parse fails the test).
pub fn read_lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("bad line {line:?}: {e}")))
        .collect()
}

/// Standard output as text.
pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// Standard error as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// The exit code (a test fails when a signal ended the process).
pub fn code(output: &Output) -> i32 {
    output.status.code().unwrap()
}

/// One command's outcome for a snapshot: a header with `label` and the exit code, standard
/// output, then standard error (when there is any).
pub fn render(label: &str, output: &Output) -> String {
    let mut text = format!("$ {label}  (exit {})\n", code(output));
    text.push_str(&stdout(output));
    let err = stderr(output);
    if !err.is_empty() {
        text.push_str("--- stderr ---\n");
        text.push_str(&err);
    }
    text
}

/// Standard output as JSON.
pub fn stdout_json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stdout)))
}

/// `value` with the value of every key in `keys` (at any depth) replaced by `"[key]"`: ids,
/// times and paths that differ on every run, for snapshots.
pub fn redact_keys(value: &mut Value, keys: &[&str]) {
    match value {
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                if keys.contains(&key.as_str()) && !v.is_null() {
                    *v = Value::String(format!("[{key}]"));
                } else {
                    redact_keys(v, keys);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| redact_keys(v, keys)),
        _ => {}
    }
}
