//! The process environment as a value: the caller (the `weft` binary, a test, another
//! workspace) takes the snapshot; this crate only reads from it.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::{OsStr, OsString};
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use weft_registry::HostEnvironment;

/// Environment variables and the current directory, captured by the caller.
///
/// `Debug` shows variable names only: values (API keys among them) never reach a log.
///
/// ```
/// use weft_runtime::EnvSnapshot;
///
/// let env = EnvSnapshot::default()
///     .with_var("OPENAI_API_KEY", "sk-test")
///     .with_var("EMPTY", "")
///     .with_current_dir("/work");
/// assert_eq!(env.var("OPENAI_API_KEY").as_deref(), Some("sk-test"));
/// assert_eq!(env.var("EMPTY"), None); // empty means unset
/// assert!(!format!("{env:?}").contains("sk-test"));
/// ```
#[derive(Clone, Default)]
pub struct EnvSnapshot {
    vars: Arc<BTreeMap<OsString, OsString>>,
    current_dir: Option<PathBuf>,
    exe: Option<PathBuf>,
    pid: Option<u32>,
}

impl EnvSnapshot {
    /// A snapshot of these variables (later duplicates win) and no current directory.
    pub fn from_vars<K, V>(vars: impl IntoIterator<Item = (K, V)>) -> Self
    where
        K: Into<OsString>,
        V: Into<OsString>,
    {
        Self {
            vars: Arc::new(
                vars.into_iter()
                    .map(|(k, v)| (k.into(), v.into()))
                    .collect(),
            ),
            current_dir: None,
            exe: None,
            pid: None,
        }
    }

    /// The snapshot with `name` set to `value`.
    #[must_use]
    pub fn with_var(mut self, name: impl Into<OsString>, value: impl Into<OsString>) -> Self {
        Arc::make_mut(&mut self.vars).insert(name.into(), value.into());
        self
    }

    /// The snapshot with this current directory.
    #[must_use]
    pub fn with_current_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.current_dir = Some(dir.into());
        self
    }

    /// The snapshot naming the running executable (the `weft` binary runs its sandbox helper
    /// through it; see [`exe`](Self::exe)).
    #[must_use]
    pub fn with_exe(mut self, exe: impl Into<PathBuf>) -> Self {
        self.exe = Some(exe.into());
        self
    }

    /// The running executable, when the caller named it: `exec_shell`'s sandbox helper is
    /// this program's hidden `sandbox exec` mode, so only a caller that has that mode (the
    /// `weft` binary) names itself here.
    pub fn exe(&self) -> Option<&std::path::Path> {
        self.exe.as_deref()
    }

    /// The snapshot naming the running process's id (the helper that starts `exec_shell`
    /// commands checks that this process is still its parent).
    #[must_use]
    pub fn with_pid(mut self, pid: u32) -> Self {
        self.pid = Some(pid);
        self
    }

    /// The running process's id, when the caller named it.
    pub fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// Every variable, as the OS gave them (a child process's environment is built from
    /// these, secrets removed).
    pub fn vars_os(&self) -> impl Iterator<Item = (OsString, OsString)> + '_ {
        self.vars.iter().map(|(k, v)| (k.clone(), v.clone()))
    }

    /// The directory for temporary files: `$TMPDIR`, else `/tmp`.
    pub fn temp_dir(&self) -> PathBuf {
        self.var_os("TMPDIR")
            .map_or_else(|| PathBuf::from("/tmp"), PathBuf::from)
    }

    /// A variable as text; `None` when it is unset, empty or not UTF-8.
    pub fn var(&self, name: &str) -> Option<String> {
        self.vars
            .get(OsStr::new(name))
            .and_then(|v| v.to_str())
            .filter(|v| !v.is_empty())
            .map(str::to_owned)
    }

    /// A variable as the OS gave it; `None` when unset or empty.
    pub fn var_os(&self, name: &str) -> Option<&OsStr> {
        self.vars
            .get(OsStr::new(name))
            .map(OsString::as_os_str)
            .filter(|v| !v.is_empty())
    }

    /// The current directory, when the caller knows it.
    pub fn current_dir(&self) -> Option<&std::path::Path> {
        self.current_dir.as_deref()
    }

    /// This machine as OpenClaw gating sees it: `PATH`, the names of the variables that are
    /// set, the OS.
    pub fn host(&self) -> HostEnvironment {
        let path_dirs = self
            .var_os("PATH")
            .map(|p| std::env::split_paths(p).collect())
            .unwrap_or_default();
        let env_vars: BTreeSet<String> = self
            .vars
            .iter()
            .filter(|(_, v)| !v.is_empty())
            .filter_map(|(k, _)| k.to_str().map(str::to_owned))
            .collect();
        HostEnvironment {
            path_dirs,
            env_vars,
            os: HostEnvironment::openclaw_os(std::env::consts::OS),
        }
    }
}

impl fmt::Debug for EnvSnapshot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EnvSnapshot")
            .field("vars", &self.vars.keys().collect::<Vec<_>>())
            .field("current_dir", &self.current_dir)
            .field("exe", &self.exe)
            .field("pid", &self.pid)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_lists_path_and_set_variable_names() {
        let env = EnvSnapshot::from_vars([("PATH", "/a:/b"), ("SET", "1"), ("EMPTY", "")]);
        let host = env.host();
        assert_eq!(host.path_dirs, [PathBuf::from("/a"), PathBuf::from("/b")]);
        assert_eq!(host.env_vars.iter().collect::<Vec<_>>(), ["PATH", "SET"]);
        assert_eq!(env.var_os("EMPTY"), None);
    }
}
