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
    /// Run `exec_shell` commands in the sandbox (default true; see [`enabled`](Self::enabled)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
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
    /// The files weft read keys from (configuration files): unreadable, with their editor
    /// backups.
    pub key_files: &'a [PathBuf],
    /// Paths inside the writable roots that stay read-only (the project's configuration,
    /// skills and hooks).
    pub read_only: &'a [PathBuf],
}

impl SandboxSettings {
    /// Whether commands run in the sandbox (the default); only an explicit `false` turns it
    /// off.
    pub fn enabled(&self) -> bool {
        self.enabled.unwrap_or(true)
    }

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
    /// [`DEFAULT_DENY_READ`] + the key files + `.env` and `.env.*` files outside the project
    /// (in its parent directories and the home directory, as they are now) + `deny_read`;
    /// read-only = `base.read_only`; network as set. Errors name the key and the path.
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
        denied.extend(base.key_files.iter().cloned());
        denied.extend(env_files_outside(base));
        for path in &self.deny_read {
            denied.push(resolve("sandbox.deny_read", path, base)?);
        }
        dedupe(&mut writable);
        dedupe(&mut denied);
        let mut read_only = base.read_only.to_vec();
        dedupe(&mut read_only);
        let policy = SandboxPolicy {
            writable_roots: writable,
            deny_read: denied,
            read_only,
            read_again: Vec::new(),
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

/// `.env` and `.env.*` files in the project's parent directories and the home directory:
/// secrets of other projects (or of the user) that a dotenv loader searching upwards would find.
/// The project's own `.env` is the project's (add it to `sandbox.deny_read` to hide it).
fn env_files_outside(base: &PolicyBase<'_>) -> Vec<PathBuf> {
    let mut dirs: Vec<&Path> = base.project.ancestors().skip(1).collect();
    dirs.extend(base.home);
    let mut found = Vec::new();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name == ".env" || name.starts_with(".env.") {
                found.push(entry.path());
            }
        }
    }
    found
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
            key_files: &[],
            read_only: &[],
        }
    }

    fn paths(list: &[PathBuf]) -> Vec<String> {
        list.iter().map(|p| p.display().to_string()).collect()
    }

    #[test]
    fn defaults_deny_the_credential_directories_and_write_the_project_and_temp() {
        let settings: SandboxSettings = serde_json::from_str(r#"{"enabled":true}"#).unwrap();
        assert!(settings.required() && settings.enabled());
        assert!(
            SandboxSettings::default().enabled(),
            "on unless switched off"
        );
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
    fn key_files_env_files_outside_the_project_and_read_only_paths() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        let (home, project) = (root.join("home"), root.join("home/code/app"));
        std::fs::create_dir_all(&project).unwrap();
        for env in [
            "home/.env",
            "home/code/.env.production",
            "home/code/app/.env",
            "home/.envrc",
        ] {
            std::fs::write(root.join(env), "SECRET=1").unwrap();
        }
        let key_files = [root.join("cfg/config.json")];
        let read_only = [project.join(".clawft")];
        let base = PolicyBase {
            project: &project,
            home: Some(&home),
            temp_dir: Path::new("/tmp"),
            key_files: &key_files,
            read_only: &read_only,
        };
        let policy = SandboxSettings::default().policy(&base).unwrap();
        let denied = paths(&policy.deny_read);
        assert!(
            denied.contains(&key_files[0].display().to_string()),
            "{denied:?}"
        );
        for env in ["home/.env", "home/code/.env.production"] {
            assert!(
                denied.contains(&root.join(env).display().to_string()),
                "{env}: {denied:?}"
            );
        }
        // The project's own `.env` and files merely named like one are not.
        for free in ["home/code/app/.env", "home/.envrc"] {
            assert!(
                !denied.contains(&root.join(free).display().to_string()),
                "{free}"
            );
        }
        assert_eq!(policy.read_only, read_only);
    }

    #[test]
    fn unknown_keys_are_refused() {
        let err = serde_json::from_str::<SandboxSettings>(r#"{"enable":true}"#)
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown field `enable`"), "{err}");
    }
}
