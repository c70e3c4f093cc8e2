//! The `sandbox` section of the configuration and how it becomes a [`SandboxPolicy`].

use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::{EnvScrub, SandboxError, SandboxPolicy};

/// Paths denied to every sandboxed command, besides `sandbox.deny_read`.
pub const DEFAULT_DENY_READ: [&str; 4] = ["~/.ssh", "~/.aws", "~/.gnupg", "~/.clawft/config.json"];

/// The `sandbox` section of `config.json`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SandboxSettings {
    /// Run `exec_shell` commands in the sandbox (default false).
    #[serde(default)]
    pub enabled: bool,
    /// When enabled but unavailable here, refuse to run `exec_shell` (default true); `false`
    /// runs it unsandboxed with a warning.
    pub required: Option<bool>,
    /// Writable besides the project and the temporary directory (`~/` and project-relative
    /// paths allowed).
    #[serde(default)]
    pub writable_roots: Vec<PathBuf>,
    /// Unreadable besides [`DEFAULT_DENY_READ`] (`~/` and project-relative paths allowed).
    #[serde(default)]
    pub deny_read: Vec<PathBuf>,
    /// Allow network sockets (default false).
    #[serde(default)]
    pub network: bool,
    /// Variables passed to commands even though their names look like secrets.
    #[serde(default)]
    pub env_passthrough: Vec<String>,
}

/// The locations a policy is resolved against; the caller finds them.
#[derive(Debug, Clone, Copy)]
pub struct PolicyBase<'a> {
    /// The project (writable; relative paths in the settings are relative to it).
    pub project: &'a Path,
    /// The home directory, for `~`; without one the default denied paths are skipped.
    pub home: Option<&'a Path>,
    /// The temporary directory (writable).
    pub temp_dir: &'a Path,
}

impl SandboxSettings {
    /// Whether an unavailable sandbox stops `exec_shell` (the default) rather than letting it
    /// run unsandboxed.
    pub fn required(&self) -> bool {
        self.required.unwrap_or(true)
    }

    /// The environment filter for commands: secrets removed, `env_passthrough` kept.
    pub fn env_scrub(&self) -> EnvScrub {
        EnvScrub::new().passthrough(self.env_passthrough.iter().cloned())
    }

    /// The policy: writable = project + temporary directory + `writable_roots`; denied =
    /// [`DEFAULT_DENY_READ`] + `deny_read`; network as set. Errors name the key and the path.
    pub fn policy(&self, base: &PolicyBase<'_>) -> Result<SandboxPolicy, SandboxError> {
        let mut writable = vec![base.project.to_path_buf(), base.temp_dir.to_path_buf()];
        for path in &self.writable_roots {
            writable.push(resolve("sandbox.writable_roots", path, base)?);
        }
        let mut denied = Vec::new();
        if base.home.is_some() {
            for path in DEFAULT_DENY_READ {
                denied.push(resolve("sandbox.deny_read", Path::new(path), base)?);
            }
        }
        for path in &self.deny_read {
            denied.push(resolve("sandbox.deny_read", path, base)?);
        }
        dedupe(&mut writable);
        dedupe(&mut denied);
        let policy = SandboxPolicy {
            writable_roots: writable,
            deny_read: denied,
            network: self.network,
        };
        policy.validate()?;
        Ok(policy)
    }
}

/// `~` and `~/x` against the home directory, relative paths against the project.
fn resolve(key: &str, path: &Path, base: &PolicyBase<'_>) -> Result<PathBuf, SandboxError> {
    let error = |reason: &str| SandboxError::Policy(format!("{key}: {}: {reason}", path.display()));
    let mut components = path.components();
    let resolved = match components.next() {
        Some(Component::Normal(first)) if first == "~" => match base.home {
            Some(home) if components.as_path().as_os_str().is_empty() => home.to_path_buf(),
            Some(home) => home.join(components.as_path()),
            None => return Err(error("no home directory to expand `~`")),
        },
        Some(Component::Normal(first)) if first.to_string_lossy().starts_with('~') => {
            return Err(error("only `~` and `~/...` are expanded"));
        }
        Some(Component::RootDir) => path.to_path_buf(),
        Some(_) => base.project.join(path),
        None => return Err(error("empty path")),
    };
    if resolved.components().any(|c| c == Component::ParentDir) {
        return Err(error("`..` is not allowed"));
    }
    Ok(resolved)
}

fn dedupe(paths: &mut Vec<PathBuf>) {
    let mut seen = std::collections::BTreeSet::new();
    paths.retain(|p| seen.insert(p.clone()));
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn base() -> PolicyBase<'static> {
        PolicyBase {
            project: Path::new("/work/p"),
            home: Some(Path::new("/home/u")),
            temp_dir: Path::new("/tmp"),
        }
    }

    fn paths(list: &[PathBuf]) -> Vec<String> {
        list.iter().map(|p| p.display().to_string()).collect()
    }

    #[test]
    fn defaults_deny_the_credential_directories_and_write_the_project_and_temp() {
        let settings: SandboxSettings = serde_json::from_str(r#"{"enabled":true}"#).unwrap();
        assert!(settings.required());
        let policy = settings.policy(&base()).unwrap();
        assert_eq!(paths(&policy.writable_roots), ["/work/p", "/tmp"]);
        assert_eq!(
            paths(&policy.deny_read),
            [
                "/home/u/.ssh",
                "/home/u/.aws",
                "/home/u/.gnupg",
                "/home/u/.clawft/config.json"
            ]
        );
        assert!(!policy.network);
    }

    #[test]
    fn paths_expand_tilde_and_resolve_against_the_project() {
        let settings: SandboxSettings = serde_json::from_str(
            r#"{"writable_roots":["~/.cache","build","/opt/x","/tmp"],"deny_read":[".env","~"],"network":true,"required":false}"#,
        )
        .unwrap();
        assert!(!settings.required());
        let err = settings.policy(&base()).unwrap_err().to_string();
        // `~` itself denied while the project is elsewhere is fine; a writable root under it
        // is not.
        assert_eq!(
            err,
            "sandbox policy: /home/u/.cache: a writable root inside the denied path /home/u"
        );
        let settings = SandboxSettings {
            deny_read: vec![PathBuf::from(".env")],
            ..settings
        };
        let policy = settings.policy(&base()).unwrap();
        assert_eq!(
            paths(&policy.writable_roots),
            [
                "/work/p",
                "/tmp",
                "/home/u/.cache",
                "/work/p/build",
                "/opt/x"
            ]
        );
        assert_eq!(paths(&policy.deny_read)[4], "/work/p/.env");
        assert!(policy.network);
    }

    #[test]
    fn bad_paths_name_the_key() {
        for (json, message) in [
            (
                r#"{"deny_read":["~bob/x"]}"#,
                "sandbox policy: sandbox.deny_read: ~bob/x: only `~` and `~/...` are expanded",
            ),
            (
                r#"{"writable_roots":["../up"]}"#,
                "sandbox policy: sandbox.writable_roots: ../up: `..` is not allowed",
            ),
        ] {
            let settings: SandboxSettings = serde_json::from_str(json).unwrap();
            assert_eq!(settings.policy(&base()).unwrap_err().to_string(), message);
        }
        let no_home = PolicyBase {
            home: None,
            ..base()
        };
        let settings: SandboxSettings =
            serde_json::from_str(r#"{"writable_roots":["~/x"]}"#).unwrap();
        assert!(
            settings
                .policy(&no_home)
                .unwrap_err()
                .to_string()
                .contains("no home directory")
        );
        // Without a home the defaults are skipped, not an error.
        let policy = SandboxSettings::default().policy(&no_home).unwrap();
        assert!(policy.deny_read.is_empty());
    }

    #[test]
    fn unknown_keys_are_refused() {
        let err = serde_json::from_str::<SandboxSettings>(r#"{"enable":true}"#)
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown field `enable`"), "{err}");
    }
}
