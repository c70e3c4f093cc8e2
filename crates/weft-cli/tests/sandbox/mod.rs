//! The one test sandbox of the CLI tests: a temporary home and project, and the real `weft`
//! binary run against them with nothing from the developer's environment leaking in.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::{Value, json};

/// The scripted loopback chat server of the agent-loop tests (OpenAI and Anthropic wire
/// formats), for runs that need a model.
#[path = "../../../weft-agents/tests/common/mod.rs"]
pub mod server;

/// Variables that would configure weft behind the test's back.
pub const HOST_VARS: [&str; 7] = [
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "OPENAI_BASE_URL",
    "ANTHROPIC_BASE_URL",
    "WEFT_MODEL",
    "CLAWFT_PROJECT",
    "RUST_LOG",
];

/// The repository root.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A temporary home and project, both existing directories.
pub struct Sandbox {
    /// Holds everything; removed on drop.
    pub tmp: tempfile::TempDir,
    /// `$HOME` of every command.
    pub home: PathBuf,
    /// The project directory.
    pub project: PathBuf,
}

impl Sandbox {
    /// `<tmp>/home` and `<tmp>/project`.
    pub fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        let project = tmp.path().join("project");
        Self::with(tmp, home, project)
    }

    /// A project inside the home directory, `<tmp>/home/code/app`, as most users have it.
    pub fn project_under_home() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        let project = home.join("code/app");
        Self::with(tmp, home, project)
    }

    fn with(tmp: tempfile::TempDir, home: PathBuf, project: PathBuf) -> Self {
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(&project).unwrap();
        Self { tmp, home, project }
    }

    /// `weft` run in the project with `HOME` set and [`HOST_VARS`] removed; no flags.
    pub fn bare(&self) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_weft"));
        cmd.current_dir(&self.project).env("HOME", &self.home);
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

    /// Writes `<project>/<rel>` (directories created).
    pub fn file(&self, rel: &str, text: &str) -> PathBuf {
        write(&self.project.join(rel), text)
    }

    /// Writes `<tmp>/<rel>`, outside home and project.
    pub fn outside(&self, rel: &str, text: &str) -> PathBuf {
        write(&self.tmp.path().join(rel), text)
    }

    /// Writes `<tmp>/config.json` (for `--config`) and returns its path.
    pub fn config(&self, value: &Value) -> PathBuf {
        self.outside("config.json", &value.to_string())
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

    /// `text` with the sandbox's directory written as `[TMP]` (for snapshots).
    pub fn redact(&self, text: &str) -> String {
        let tmp = self.tmp.path().to_str().unwrap();
        text.replace(tmp, "[TMP]")
    }
}

fn write(path: &Path, text: &str) -> PathBuf {
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
pub fn stdout(output: &std::process::Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
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

/// Standard error as text.
pub fn stderr(output: &std::process::Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}
