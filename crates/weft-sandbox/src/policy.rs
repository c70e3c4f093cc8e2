//! [`SandboxPolicy`]: what a sandboxed command may do, how it travels to the helper, and how
//! the helper enforces it on itself.

use std::io::ErrorKind;
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::SandboxError;
use crate::carve::{canonical_or_planned, carve};
use crate::landlock_fs::{FsGrants, LandlockOutcome};

/// What a sandboxed command may do. Paths are absolute.
///
/// ```
/// use std::path::PathBuf;
/// use weft_sandbox::SandboxPolicy;
///
/// let policy = SandboxPolicy {
///     writable_roots: vec![PathBuf::from("/work/project"), PathBuf::from("/tmp")],
///     deny_read: vec![PathBuf::from("/home/me/.ssh")],
///     read_only: vec![PathBuf::from("/work/project/.clawft")],
///     read_again: vec![],
///     network: false,
/// };
/// let json = policy.to_json().unwrap();
/// assert_eq!(SandboxPolicy::from_json(&json).unwrap(), policy);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SandboxPolicy {
    /// Directories (or files) beneath which the command may create, change and remove
    /// entries. Everything else is read-only. Roots that do not exist are skipped.
    pub writable_roots: Vec<PathBuf>,
    /// Paths whose contents cannot be read, executed or written, wherever they are (names
    /// inside a denied directory can still be listed). They win over writable roots.
    pub deny_read: Vec<PathBuf>,
    /// Paths inside the writable roots that stay read-only (the project's configuration,
    /// skills and hooks): read-only bind mounts in a mount namespace of the command's own
    /// where user namespaces allow it, else carved out of the write grants (see
    /// [`Enforcement::read_only`]). A path that does not exist yet cannot be mounted; the
    /// helper moves aside what a command creates there ([`crate::ReadOnlyWatch`]).
    #[serde(default)]
    pub read_only: Vec<PathBuf>,
    /// Paths readable again beneath a denied path (the project inside a denied home
    /// directory, see [`for_reading`](Self::for_reading)): each is granted for reading,
    /// itself carved around the denied paths strictly beneath it. Landlock grants add up, so
    /// this is how "nothing of the home directory but the project" is said.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub read_again: Vec<PathBuf>,
    /// Whether the command may open network sockets (`AF_UNIX` sockets always work).
    pub network: bool,
}

/// What [`SandboxPolicy::apply_to_current_process`] put in place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Enforcement {
    /// The Landlock ABI the kernel offered.
    pub landlock_abi: u32,
    /// Whether every Landlock right weft asks for was enforced (false on kernels older than
    /// the ABI weft targets: some rights, such as truncation, then stay unrestricted).
    pub landlock_complete: bool,
    /// Whether the seccomp network filter was installed (only when the network is off).
    pub seccomp: bool,
    /// How the read-only paths were kept read-only.
    pub read_only: ReadOnlyBy,
}

/// How [`SandboxPolicy::read_only`] paths are kept read-only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadOnlyBy {
    /// There were none (none exists, or the policy has none).
    Nothing,
    /// Read-only bind mounts in a mount namespace of the command's own.
    Mounts,
    /// Carved out of the Landlock write grants, because the mounts could not be made (why):
    /// the directories holding them get no new entries.
    Carving(String),
}

impl SandboxPolicy {
    /// The policy as one line of JSON, for the helper's command line.
    pub fn to_json(&self) -> Result<String, SandboxError> {
        Ok(serde_json::to_string(self)?)
    }

    /// Reads a policy written by [`to_json`](Self::to_json) and checks it.
    pub fn from_json(text: &str) -> Result<Self, SandboxError> {
        let policy: Self = serde_json::from_str(text)?;
        policy.validate()?;
        Ok(policy)
    }

    /// This policy for a command judged to only read inside `project` (weft's read-only
    /// commands): nothing is writable, and nothing beneath `home` is readable but the
    /// project, so a link in the project to a file in the home directory (which the judgement,
    /// made on paths as written, cannot see) reads nothing. Denied paths stay denied, inside
    /// the project too; the network is as in this policy.
    ///
    /// ```
    /// use std::path::{Path, PathBuf};
    /// use weft_sandbox::SandboxPolicy;
    ///
    /// let policy = SandboxPolicy {
    ///     writable_roots: vec![PathBuf::from("/home/me/app"), PathBuf::from("/tmp")],
    ///     deny_read: vec![PathBuf::from("/home/me/.ssh")],
    ///     read_only: vec![PathBuf::from("/home/me/app/.clawft")],
    ///     read_again: vec![],
    ///     network: false,
    /// };
    /// let reading = policy.for_reading(Some(Path::new("/home/me")), Path::new("/home/me/app"));
    /// assert!(reading.writable_roots.is_empty() && reading.read_only.is_empty());
    /// assert_eq!(reading.deny_read, [PathBuf::from("/home/me/.ssh"), PathBuf::from("/home/me")]);
    /// assert_eq!(reading.read_again, [PathBuf::from("/home/me/app")]);
    /// ```
    pub fn for_reading(&self, home: Option<&Path>, project: &Path) -> SandboxPolicy {
        let mut deny_read = self.deny_read.clone();
        deny_read.extend(home.map(Path::to_path_buf));
        SandboxPolicy {
            writable_roots: Vec::new(),
            deny_read,
            read_only: Vec::new(),
            read_again: vec![project.to_path_buf()],
            network: self.network,
        }
    }

    /// True when the command may write nowhere ([`for_reading`](Self::for_reading)).
    pub fn is_read_only(&self) -> bool {
        self.writable_roots.is_empty()
    }

    /// Checks the policy: every path absolute and without `..`, no writable root inside a
    /// denied path (the deny would silently win over it).
    pub fn validate(&self) -> Result<(), SandboxError> {
        for path in self
            .writable_roots
            .iter()
            .chain(&self.deny_read)
            .chain(&self.read_only)
            .chain(&self.read_again)
        {
            check_absolute(path)?;
        }
        for root in &self.writable_roots {
            if let Some(denied) = self.deny_read.iter().find(|d| root.starts_with(d)) {
                return Err(SandboxError::Path {
                    path: root.clone(),
                    reason: format!(
                        "a writable root inside the denied path {}",
                        denied.display()
                    ),
                });
            }
        }
        Ok(())
    }

    /// Restricts the calling process, and everything it executes afterwards, to this policy:
    /// no capabilities, `PR_SET_NO_NEW_PRIVS`, a Landlock ruleset (file system; TCP bind/connect and signals
    /// to processes outside the sandbox as well when the kernel has them) and, with the
    /// network off, a seccomp filter that fails `socket(2)` with `EACCES` for every domain but
    /// `AF_UNIX`. Irreversible.
    ///
    /// Landlock and seccomp restrict the calling thread: call this in a single-threaded
    /// process that is about to `exec` the command. Fails when the kernel cannot enforce the
    /// policy; nothing is relaxed silently.
    pub fn apply_to_current_process(&self) -> Result<Enforcement, SandboxError> {
        self.validate()?;
        // Mounts first: they need the capabilities of the new user namespace, which are
        // dropped below, and a Landlock domain refuses mounting.
        let read_only = if self.read_only.is_empty() {
            ReadOnlyBy::Nothing
        } else {
            match crate::mount_ns::mount_read_only(&self.read_only) {
                Ok(true) => ReadOnlyBy::Mounts,
                Ok(false) => ReadOnlyBy::Nothing,
                Err(why) => {
                    tracing::debug!(%why, "read-only mounts unavailable; carving instead");
                    ReadOnlyBy::Carving(why.to_string())
                }
            }
        };
        // Only what exists: a missing path carved around would keep the command from
        // creating anything in its directory (the project itself); the helper's
        // `ReadOnlyWatch` deals with what appears there.
        let carved: Vec<PathBuf> = match &read_only {
            ReadOnlyBy::Carving(_) => self
                .read_only
                .iter()
                .filter(|p| std::fs::symlink_metadata(p).is_ok())
                .cloned()
                .collect(),
            _ => Vec::new(),
        };
        let grants = self.grants(&carved)?;
        crate::capabilities::drop_all()?;
        let LandlockOutcome { abi, complete } = grants.restrict_self(self.network)?;
        let seccomp = if self.network {
            false
        } else {
            crate::network::deny_network_sockets()?;
            true
        };
        Ok(Enforcement {
            landlock_abi: abi,
            landlock_complete: complete,
            seccomp,
            read_only,
        })
    }

    /// The Landlock grants: read everywhere and write beneath the writable roots, each carved
    /// around the denied paths (and the editor backups of denied files that exist now), the
    /// write grants also around `read_only`; read again beneath each `read_again` path,
    /// carved around the denied paths strictly beneath it.
    fn grants(&self, read_only: &[PathBuf]) -> Result<FsGrants, SandboxError> {
        let denied: Vec<PathBuf> = crate::backups::with_backups(&self.deny_read)
            .iter()
            .map(|p| canonical_or_planned(p))
            .collect();
        let mut unwritable = denied.clone();
        unwritable.extend(read_only.iter().map(|p| canonical_or_planned(p)));
        let mut grants = FsGrants::default();
        carve(Path::new("/"), &denied, &mut grants.read);
        for again in &self.read_again {
            let Ok(again) = std::fs::canonicalize(again) else {
                tracing::debug!(path = %again.display(), "path to read again missing; skipped");
                continue;
            };
            let beneath: Vec<PathBuf> = denied
                .iter()
                .filter(|d| d.starts_with(&again) && **d != again)
                .cloned()
                .collect();
            carve(&again, &beneath, &mut grants.read);
        }
        for root in &self.writable_roots {
            match std::fs::canonicalize(root) {
                Ok(real) => carve(&real, &unwritable, &mut grants.write),
                Err(e) if e.kind() == ErrorKind::NotFound => {
                    tracing::debug!(root = %root.display(), "writable root missing; skipped");
                }
                Err(source) => {
                    return Err(SandboxError::PathIo {
                        path: root.clone(),
                        source,
                    });
                }
            }
        }
        Ok(grants)
    }
}

fn check_absolute(path: &Path) -> Result<(), SandboxError> {
    let reason = if !path.is_absolute() {
        "not an absolute path"
    } else if path.components().any(|c| c == Component::ParentDir) {
        "contains `..`"
    } else {
        return Ok(());
    };
    Err(SandboxError::Path {
        path: path.to_path_buf(),
        reason: reason.to_owned(),
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_and_dot_dot_are_refused() {
        for bad in ["rel/dir", "/a/../b"] {
            let policy = SandboxPolicy {
                writable_roots: vec![PathBuf::from(bad)],
                ..SandboxPolicy::default()
            };
            let err = policy.validate().unwrap_err().to_string();
            assert!(
                err.starts_with(&format!("sandbox policy: {bad}: ")),
                "{err}"
            );
        }
    }

    #[test]
    fn a_writable_root_inside_a_denied_path_is_refused() {
        let policy = SandboxPolicy {
            writable_roots: vec![PathBuf::from("/home/u/.ssh/x")],
            deny_read: vec![PathBuf::from("/home/u/.ssh")],
            read_only: vec![],
            read_again: vec![],
            network: false,
        };
        assert_eq!(
            policy.validate().unwrap_err().to_string(),
            "sandbox policy: /home/u/.ssh/x: a writable root inside the denied path /home/u/.ssh"
        );
    }

    #[test]
    fn json_round_trips_and_unknown_fields_are_refused() {
        let policy = SandboxPolicy {
            writable_roots: vec![PathBuf::from("/p")],
            deny_read: vec![],
            read_only: vec![PathBuf::from("/p/.clawft")],
            read_again: vec![],
            network: true,
        };
        let json = policy.to_json().unwrap();
        assert_eq!(
            json,
            r#"{"writable_roots":["/p"],"deny_read":[],"read_only":["/p/.clawft"],"network":true}"#
        );
        assert_eq!(SandboxPolicy::from_json(&json).unwrap(), policy);
        let err = SandboxPolicy::from_json(
            r#"{"writable_roots":[],"deny_read":[],"network":false,"x":1}"#,
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("unknown field `x`"), "{err}");
        let reading = policy.for_reading(Some(Path::new("/h")), Path::new("/p"));
        assert_eq!(
            reading.to_json().unwrap(),
            r#"{"writable_roots":[],"deny_read":["/h"],"read_only":[],"read_again":["/p"],"network":true}"#
        );
        assert_eq!(
            SandboxPolicy::from_json(&reading.to_json().unwrap()).unwrap(),
            reading
        );
        assert!(reading.is_read_only() && !policy.is_read_only());
    }

    #[test]
    fn reading_grants_the_project_again_but_not_what_is_denied_in_it() {
        let tmp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(tmp.path()).unwrap();
        let (home, project) = (root.join("home"), root.join("home/app"));
        for dir in [
            home.join(".config"),
            project.join("src"),
            project.join("secrets"),
        ] {
            std::fs::create_dir_all(dir).unwrap();
        }
        let policy = SandboxPolicy {
            writable_roots: vec![project.clone()],
            deny_read: vec![project.join("secrets")],
            ..SandboxPolicy::default()
        };
        let grants = policy
            .for_reading(Some(&home), &project)
            .grants(&[])
            .unwrap();
        assert!(grants.write.is_empty());
        let home_grants: Vec<&PathBuf> = grants
            .read
            .iter()
            .filter(|p| p.starts_with(&home))
            .collect();
        assert_eq!(home_grants, [&project.join("src")]);
        // Without a home directory, only the writes go.
        let grants = policy.for_reading(None, &project).grants(&[]).unwrap();
        assert!(grants.write.is_empty());
        assert!(grants.read.iter().any(|p| p == &home.join(".config")));
    }
}
