//! OpenClaw gating: `metadata.openclaw.requires.{bins, anyBins, env}` and `os`, checked against
//! the host the caller describes. An unmet requirement is reported, never fatal: the skill
//! still loads (seed 002 NFR-3F-002) and `skills show` says what is missing.

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;

use serde::Serialize;
use weft_types::{Skill, Value};

/// The machine skills are checked against. Built by the CLI from `PATH`, the environment and
/// the OS; libraries never read those themselves.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HostEnvironment {
    /// Directories searched for executables, in order.
    pub path_dirs: Vec<PathBuf>,
    /// Names of environment variables that are set to a non-empty value.
    pub env_vars: BTreeSet<String>,
    /// The OS in OpenClaw's spelling: `linux`, `darwin` or `win32`.
    pub os: String,
}

impl HostEnvironment {
    /// The OpenClaw spelling of a Rust `std::env::consts::OS` value.
    pub fn openclaw_os(rust_os: &str) -> String {
        match rust_os {
            "macos" => "darwin".to_owned(),
            "windows" => "win32".to_owned(),
            other => other.to_owned(),
        }
    }
}

/// What a skill needs that the host lacks. Empty when the skill is ready.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Readiness {
    /// Required executables not found on the `PATH`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing_bins: Vec<String>,
    /// When none of the `anyBins` alternatives is found: all of them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing_any_bins: Vec<String>,
    /// Required environment variables that are unset or empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing_env: Vec<String>,
    /// The operating systems the skill supports, when the host is not one of them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unsupported_os: Vec<String>,
    /// Tools its `allowed-tools` names that the session does not have (filled by
    /// [`SkillEntry::readiness_with`](crate::SkillEntry::readiness_with); discovery alone
    /// does not know the session's tools).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing_tools: Vec<String>,
}

impl Readiness {
    /// True when nothing is missing.
    pub fn is_ready(&self) -> bool {
        self.missing_bins.is_empty()
            && self.missing_any_bins.is_empty()
            && self.missing_env.is_empty()
            && self.unsupported_os.is_empty()
            && self.missing_tools.is_empty()
    }

    /// One line per unmet requirement, for humans.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        if !self.missing_bins.is_empty() {
            out.push(format!(
                "requires {} on the PATH",
                self.missing_bins.join(", ")
            ));
        }
        if !self.missing_any_bins.is_empty() {
            out.push(format!(
                "requires one of {} on the PATH",
                self.missing_any_bins.join(", ")
            ));
        }
        if !self.missing_env.is_empty() {
            out.push(format!(
                "requires the environment variable(s) {}",
                self.missing_env.join(", ")
            ));
        }
        if !self.unsupported_os.is_empty() {
            out.push(format!("supports only {}", self.unsupported_os.join(", ")));
        }
        if !self.missing_tools.is_empty() {
            out.push(format!(
                "allowed-tools names tools this session does not have ({}); the model is not offered it",
                self.missing_tools.join(", ")
            ));
        }
        out
    }
}

/// Checks skills against one host, remembering which executables exist.
#[derive(Debug)]
pub struct GateChecker<'h> {
    host: &'h HostEnvironment,
    bins: HashMap<String, bool>,
}

impl<'h> GateChecker<'h> {
    /// A checker for `host`.
    pub fn new(host: &'h HostEnvironment) -> Self {
        Self {
            host,
            bins: HashMap::new(),
        }
    }

    /// What `skill` needs that the host lacks.
    pub fn check(&mut self, skill: &Skill) -> Readiness {
        let mut readiness = Readiness::default();
        let Some(gate) = gate_block(skill) else {
            return readiness;
        };
        if gate.get("always").and_then(Value::as_str) == Some("true") {
            return readiness;
        }
        let requires = gate.get("requires");
        let list = |key: &str| -> Vec<String> {
            requires
                .and_then(|r| r.get(key))
                .map(strings)
                .unwrap_or_default()
        };
        for bin in list("bins") {
            if !self.has_bin(&bin) {
                readiness.missing_bins.push(bin);
            }
        }
        let any = list("anyBins");
        if !any.is_empty() && !any.iter().any(|b| self.has_bin(b)) {
            readiness.missing_any_bins = any;
        }
        for var in list("env") {
            if !self.host.env_vars.contains(&var) {
                readiness.missing_env.push(var);
            }
        }
        let os = gate.get("os").map(strings).unwrap_or_default();
        if !os.is_empty() && !os.iter().any(|o| o == &self.host.os) {
            readiness.unsupported_os = os;
        }
        readiness
    }

    fn has_bin(&mut self, name: &str) -> bool {
        if let Some(&known) = self.bins.get(name) {
            return known;
        }
        // A name with a separator is a path, not something to look up on the PATH.
        let found = !name.contains(['/', '\\'])
            && !name.is_empty()
            && self
                .host
                .path_dirs
                .iter()
                .any(|dir| is_executable(&dir.join(name)));
        self.bins.insert(name.to_owned(), found);
        found
    }
}

#[cfg(unix)]
fn is_executable(path: &std::path::Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &std::path::Path) -> bool {
    path.is_file() || path.with_extension("exe").is_file()
}

/// The OpenClaw gating block: `metadata.openclaw`, or the older `clawdbot` / `moltbot` names.
fn gate_block(skill: &Skill) -> Option<&Value> {
    let metadata = skill.metadata.as_ref()?;
    ["openclaw", "clawdbot", "moltbot"]
        .iter()
        .find_map(|k| metadata.get(k))
}

/// A string or a list of strings.
fn strings(value: &Value) -> Vec<String> {
    match value {
        Value::Scalar(s) if !s.trim().is_empty() => vec![s.trim().to_owned()],
        Value::List(items) => items
            .iter()
            .filter_map(Value::as_str)
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
            .collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use weft_types::Scope;

    use super::*;

    fn skill_with(metadata: Value) -> Skill {
        let mut skill = Skill::in_memory("s", "d", Scope::User);
        skill.metadata = Some(metadata);
        skill
    }

    fn map(entries: Vec<(&str, Value)>) -> Value {
        Value::Map(
            entries
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v))
                .collect(),
        )
    }

    fn list(items: &[&str]) -> Value {
        Value::List(items.iter().map(|s| Value::from(*s)).collect())
    }

    #[cfg(unix)]
    #[test]
    fn checks_bins_env_and_os() {
        let tmp = tempfile::tempdir().unwrap();
        let bin = tmp.path().join("jq");
        std::fs::write(&bin, "#!/bin/sh\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::write(tmp.path().join("notexec"), "").unwrap();
        let host = HostEnvironment {
            path_dirs: vec![tmp.path().to_path_buf()],
            env_vars: ["HOME".to_owned()].into(),
            os: "linux".to_owned(),
        };
        let mut checker = GateChecker::new(&host);
        let skill = skill_with(map(vec![(
            "openclaw",
            map(vec![
                (
                    "requires",
                    map(vec![
                        ("bins", list(&["jq", "uv", "notexec"])),
                        ("anyBins", list(&["rg", "ag"])),
                        ("env", list(&["HOME", "API_KEY"])),
                    ]),
                ),
                ("os", list(&["darwin"])),
            ]),
        )]));
        let r = checker.check(&skill);
        assert_eq!(r.missing_bins, ["uv", "notexec"]);
        assert_eq!(r.missing_any_bins, ["rg", "ag"]);
        assert_eq!(r.missing_env, ["API_KEY"]);
        assert_eq!(r.unsupported_os, ["darwin"]);
        assert!(!r.is_ready());
        assert_eq!(r.problems().len(), 4);

        let ready = skill_with(map(vec![(
            "clawdbot",
            map(vec![(
                "requires",
                map(vec![("anyBins", list(&["jq", "x"]))]),
            )]),
        )]));
        assert!(checker.check(&ready).is_ready());
    }

    #[test]
    fn no_gate_block_is_ready() {
        let host = HostEnvironment::default();
        let mut checker = GateChecker::new(&host);
        assert!(
            checker
                .check(&Skill::in_memory("s", "d", Scope::User))
                .is_ready()
        );
        assert_eq!(HostEnvironment::openclaw_os("macos"), "darwin");
    }
}
