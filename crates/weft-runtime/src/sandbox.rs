//! `exec_shell`'s environment and sandbox, wired from the configuration and the permission
//! mode: the commands' environment without secrets (always), and how they start: through
//! the sandbox helper (`weft_sandbox::run_helper`, which the caller's executable serves:
//! `weft sandbox exec` in weft's binary), sandboxed (the default wherever the sandbox
//! is available, in every mode but `bypass`) unless a person approved the exact command and
//! chose to run it outside; unsandboxed (`bypass`, `sandbox.enabled: false`, or unavailable
//! with `sandbox.required: false`); or, where the sandbox is required but unavailable, only
//! with a person's approval. A command the session judged read-only runs in the read-only
//! sandbox ([`SandboxPolicy::for_reading`]: nothing writable, nothing of the home directory
//! readable but the project). The helper also ties the command and everything it starts to
//! weft: it asks the kernel for a signal when weft dies and ends them then, so not even a
//! SIGKILL of weft leaves a command running. A caller that does not name its executable
//! ([`EnvSnapshot::exe`]) has no helper: its commands start directly; one that names it
//! serves the helper from its `main` (see [`run_helper`], re-exported here).

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

pub use weft_sandbox::{HELPER_COMMAND, HELPER_FAILED, is_helper_call, run_helper};
use weft_sandbox::{HelperArgs, PolicyBase, SandboxPolicy, SandboxSettings, SandboxStatus};
use weft_tools::ShellLauncher;
use weft_types::PermissionMode;
use weft_types::protected::PROTECTED_PATHS;

use crate::config::Config;
use crate::env::EnvSnapshot;
use crate::error::UsageError;
use crate::workspace::Workspace;

/// What `exec_shell` does under the current configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShellMode {
    /// Commands run without the sandbox, for this reason.
    Unsandboxed(String),
    /// Commands run in the sandbox, through the helper `exe`, unless a person approved the
    /// exact command and chose to run it outside.
    Sandboxed {
        /// The policy.
        policy: SandboxPolicy,
        /// The policy of read-only commands ([`SandboxPolicy::for_reading`]).
        reading: Box<SandboxPolicy>,
        /// weft's own executable, the helper.
        exe: PathBuf,
    },
    /// The sandbox is required but unavailable, for this reason: a command runs only when a
    /// person approves it (then unsandboxed); where no one can be asked, it is refused.
    PersonOnly(String),
}

/// Decides how commands run: `settings` resolved against `base`, checked against what the
/// kernel offers (`status`); `exe` is weft's own executable (`None` when the caller did not
/// name it). A bad path in the settings is a usage error.
pub fn shell_mode(
    settings: &SandboxSettings,
    base: &PolicyBase<'_>,
    status: &SandboxStatus,
    exe: Option<&Path>,
) -> Result<ShellMode, UsageError> {
    if !settings.enabled() {
        return Ok(ShellMode::Unsandboxed(
            "sandbox.enabled is false".to_owned(),
        ));
    }
    let policy = settings
        .policy(base)
        .map_err(|e| UsageError::caused("config `sandbox`", e))?;
    let missing = match exe {
        Some(exe) => match status.missing_for(policy.network) {
            None => {
                let reading = Box::new(policy.for_reading(base.home, base.project));
                return Ok(ShellMode::Sandboxed {
                    policy,
                    reading,
                    exe: exe.to_path_buf(),
                });
            }
            Some(reason) => reason,
        },
        None => "cannot find the program's own executable to run the sandbox helper: the caller did not say which executable it is".to_owned(),
    };
    if settings.required() {
        Ok(ShellMode::PersonOnly(format!(
            "the sandbox is required (sandbox.required) but unavailable: {missing}"
        )))
    } else {
        Ok(ShellMode::Unsandboxed(format!(
            "the sandbox is unavailable and sandbox.required is false: {missing}"
        )))
    }
}

/// How `exec_shell` starts commands in one [`ShellMode`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Launchers {
    /// For a command no person approved to run outside the sandbox.
    pub default: ShellLauncher,
    /// For a command a person approved to run outside the sandbox; `None`: there is no
    /// sandbox to leave.
    pub unsandboxed: Option<ShellLauncher>,
    /// For a command the session judged read-only: the read-only sandbox; `None` where there
    /// is no sandbox (such commands then ask as any other).
    pub reading: Option<ShellLauncher>,
}

impl ShellMode {
    /// The launchers `exec_shell` uses in this mode. Unsandboxed commands go through the
    /// helper too when `env` names weft's executable (it ties them to weft's life); `env`'s
    /// process id lets the helper check that weft is still there when it starts.
    pub fn launchers(&self, env: &EnvSnapshot) -> Result<Launchers, UsageError> {
        let helper = |program: &Path, policy: Option<String>, note: String| {
            let args = HelperArgs {
                parent: env.pid(),
                policy,
            };
            ShellLauncher::Wrapper {
                program: program.to_path_buf(),
                args: args.to_args(),
                note,
            }
        };
        let unsandboxed = || match env.exe() {
            Some(exe) => helper(exe, None, String::new()),
            None => ShellLauncher::Direct,
        };
        Ok(match self {
            ShellMode::Unsandboxed(why) => {
                tracing::debug!("exec_shell runs unsandboxed: {why}");
                Launchers {
                    default: unsandboxed(),
                    unsandboxed: None,
                    reading: None,
                }
            }
            // The session asks a person before any call (`Sandboxing::Unavailable`); a call
            // that reaches the tool without one is refused.
            ShellMode::PersonOnly(why) => Launchers {
                default: ShellLauncher::Refuse(why.clone()),
                unsandboxed: Some(unsandboxed()),
                reading: None,
            },
            ShellMode::Sandboxed {
                policy,
                reading,
                exe,
            } => {
                let json = |policy: &SandboxPolicy| {
                    policy
                        .to_json()
                        .map_err(|e| UsageError::caused("config `sandbox`", e))
                };
                Launchers {
                    default: helper(exe, Some(json(policy)?), note(policy)),
                    unsandboxed: Some(helper(exe, None, String::new())),
                    reading: Some(helper(exe, Some(json(reading)?), String::new())),
                }
            }
        })
    }
}

/// What the model is told about the sandbox, so it does not retry what cannot work.
fn note(policy: &SandboxPolicy) -> String {
    let roots = join(&policy.writable_roots);
    let network = if policy.network {
        "the network is available"
    } else {
        "there is no network access"
    };
    format!("It runs in a sandbox: files can be written only under {roots}, and {network}.")
}

/// Paths separated by `, `.
pub fn join(paths: &[PathBuf]) -> String {
    let parts: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    parts.join(", ")
}

/// The commands' environment: the caller's (`env`), without secret-looking variables and the
/// providers' `api_key_env` variables, except `sandbox.env_passthrough`.
pub fn child_env(config: &Config, env: &EnvSnapshot) -> BTreeMap<OsString, OsString> {
    let key_vars = config
        .file
        .providers
        .values()
        .filter_map(|p| p.api_key_env.clone());
    config
        .file
        .sandbox
        .env_scrub()
        .also_remove(key_vars)
        .apply(env.vars_os())
}

/// The mode for this workspace and configuration, probing the kernel. The helper is the
/// executable the caller named in the environment snapshot ([`EnvSnapshot::exe`]).
pub fn current_mode(
    workspace: &Workspace,
    config: &Config,
    base: &Path,
) -> Result<ShellMode, UsageError> {
    mode_with(&config.file.sandbox, workspace, config, base)
}

/// The mode in permission mode `permissions`: `bypass` switches the sandbox off; `auto`
/// switches it on even where `sandbox.enabled` is false; the other modes follow the
/// configuration ([`current_mode`]: on unless `sandbox.enabled: false`). Where the sandbox is
/// unavailable, commands ask a person unless `sandbox.required` is false.
pub fn mode_for_permissions(
    permissions: PermissionMode,
    workspace: &Workspace,
    config: &Config,
    base: &Path,
) -> Result<ShellMode, UsageError> {
    match permissions {
        PermissionMode::Bypass => Ok(ShellMode::Unsandboxed(
            "bypass mode runs commands without the sandbox".to_owned(),
        )),
        PermissionMode::Auto => {
            let settings = weft_sandbox::SandboxSettings {
                enabled: Some(true),
                ..config.file.sandbox.clone()
            };
            Ok(auto_mode(mode_with(&settings, workspace, config, base)?))
        }
        _ => current_mode(workspace, config, base),
    }
}

/// `auto` mode's reading of a mode: why commands ask or run unsandboxed names the mode.
fn auto_mode(mode: ShellMode) -> ShellMode {
    match mode {
        ShellMode::PersonOnly(why) => ShellMode::PersonOnly(format!(
            "auto mode runs commands without asking only in the sandbox, and {why}; set `sandbox.required: false` to run them unsandboxed without asking"
        )),
        ShellMode::Unsandboxed(why) => ShellMode::Unsandboxed(format!("auto mode: {why}")),
        sandboxed => sandboxed,
    }
}

/// The mode for these sandbox settings, probing the kernel. The configuration files weft
/// read (keys may be in them) are unreadable in the sandbox, but the project's own, which the
/// project's commands may read as the model may; the project's [`PROTECTED_PATHS`] are
/// read-only.
fn mode_with(
    settings: &weft_sandbox::SandboxSettings,
    workspace: &Workspace,
    config: &Config,
    base: &Path,
) -> Result<ShellMode, UsageError> {
    let temp = workspace.env.temp_dir();
    let project_config = workspace.config_sources().project;
    // Real paths: the policy takes absolute paths without `..`, and a link's target is what
    // must be unreadable.
    let key_files: Vec<PathBuf> = config
        .files
        .iter()
        .filter(|f| Some(*f) != project_config.as_ref())
        .filter_map(|f| std::fs::canonicalize(f).ok())
        .collect();
    let read_only: Vec<PathBuf> = PROTECTED_PATHS.iter().map(|p| base.join(p)).collect();
    let base = PolicyBase {
        project: base,
        home: workspace.home.as_deref(),
        temp_dir: &temp,
        key_files: &key_files,
        read_only: &read_only,
    };
    let mut mode = shell_mode(settings, &base, &weft_sandbox::probe(), workspace.env.exe())?;
    if let (ShellMode::Sandboxed { reading, .. }, Some(home)) = (&mut mode, &workspace.home) {
        reading
            .read_again
            .extend(program_dirs_in_home(workspace, home));
    }
    Ok(mode)
}

/// The directories of `PATH` inside the home directory (`~/.cargo/bin`, `~/.local/bin`): a
/// read-only command may run the programs installed there, though the rest of the home
/// directory is unreadable to it. Only real, absolute directories; what `deny_read` names
/// inside them stays denied.
fn program_dirs_in_home(workspace: &Workspace, home: &Path) -> Vec<PathBuf> {
    let Some(path) = workspace.env.var_os("PATH") else {
        return Vec::new();
    };
    let Ok(home) = std::fs::canonicalize(home) else {
        return Vec::new();
    };
    let mut dirs: Vec<PathBuf> = std::env::split_paths(&path)
        .filter(|dir| dir.is_absolute())
        .filter_map(|dir| std::fs::canonicalize(dir).ok())
        .filter(|dir| dir.starts_with(&home) && *dir != home && dir.is_dir())
        .collect();
    dirs.sort();
    dirs.dedup();
    dirs
}

#[cfg(test)]
mod tests {
    use weft_sandbox::LandlockSupport;

    use super::*;

    const FULL: SandboxStatus = SandboxStatus {
        landlock: LandlockSupport::Available { abi: 7 },
        seccomp: true,
        user_namespaces: true,
    };

    fn base() -> PolicyBase<'static> {
        static READ_ONLY: std::sync::LazyLock<Vec<PathBuf>> =
            std::sync::LazyLock::new(|| vec![PathBuf::from("/p/.clawft")]);
        PolicyBase {
            project: Path::new("/p"),
            home: Some(Path::new("/h")),
            temp_dir: Path::new("/tmp"),
            key_files: &[],
            read_only: &READ_ONLY,
        }
    }

    fn settings(json: &str) -> SandboxSettings {
        serde_json::from_str(json).unwrap()
    }

    fn exe() -> Option<&'static Path> {
        Some(Path::new("/bin/weft"))
    }

    /// weft's executable and process id, as the binary names them.
    fn weft_env() -> EnvSnapshot {
        EnvSnapshot::default().with_exe("/bin/weft").with_pid(42)
    }

    fn args_of(launcher: &ShellLauncher) -> Vec<&str> {
        let ShellLauncher::Wrapper { args, .. } = launcher else {
            panic!("{launcher:?}");
        };
        args.iter().map(|a| a.to_str().unwrap()).collect()
    }

    #[test]
    fn switched_off_runs_through_the_helper_without_a_policy_or_directly_without_one() {
        let mode = shell_mode(&settings(r#"{"enabled":false}"#), &base(), &FULL, exe()).unwrap();
        assert_eq!(
            mode,
            ShellMode::Unsandboxed("sandbox.enabled is false".to_owned())
        );
        // The helper only ties the command to weft's life; there is no sandbox to leave.
        let launchers = mode.launchers(&weft_env()).unwrap();
        assert_eq!(
            args_of(&launchers.default),
            ["sandbox", "exec", "--parent", "42", "--"]
        );
        assert_eq!(launchers.unsandboxed, None);
        assert_eq!(launchers.reading, None);
        // A library caller that names no executable has no helper.
        assert_eq!(
            mode.launchers(&EnvSnapshot::default()).unwrap().default,
            ShellLauncher::Direct
        );
    }

    #[test]
    fn on_by_default_the_sandbox_wraps_the_shell_and_a_person_may_leave_it() {
        for json in ["{}", r#"{"enabled":true}"#] {
            let mode = shell_mode(&settings(json), &base(), &FULL, exe()).unwrap();
            let launchers = mode.launchers(&weft_env()).unwrap();
            let args = args_of(&launchers.default);
            assert_eq!(args[..5], ["sandbox", "exec", "--parent", "42", "--policy"]);
            assert_eq!(args[6], "--");
            let policy = SandboxPolicy::from_json(args[5]).unwrap();
            assert_eq!(join(&policy.writable_roots), "/p, /tmp");
            assert_eq!(join(&policy.read_only), "/p/.clawft");
            let ShellLauncher::Wrapper { program, note, .. } = &launchers.default else {
                panic!("{mode:?}");
            };
            assert_eq!(program, &PathBuf::from("/bin/weft"));
            assert_eq!(
                note,
                "It runs in a sandbox: files can be written only under /p, /tmp, and there is no network access."
            );
            // Outside the sandbox: the helper without a policy.
            let outside = launchers.unsandboxed.unwrap();
            assert_eq!(
                args_of(&outside),
                ["sandbox", "exec", "--parent", "42", "--"]
            );
            // Read-only commands: nothing writable, the home directory unreadable but the
            // project.
            let reading = launchers.reading.unwrap();
            let args = args_of(&reading);
            assert_eq!(args[..5], ["sandbox", "exec", "--parent", "42", "--policy"]);
            let reading = SandboxPolicy::from_json(args[5]).unwrap();
            assert!(reading.writable_roots.is_empty() && reading.read_only.is_empty());
            assert_eq!(reading.deny_read.last(), Some(&PathBuf::from("/h")));
            assert_eq!(reading.read_again, [PathBuf::from("/p")]);
        }
    }

    #[test]
    fn unavailable_asks_a_person_when_required_and_runs_unsandboxed_otherwise() {
        let no_landlock = SandboxStatus {
            landlock: LandlockSupport::NotImplemented,
            ..FULL
        };
        let mode = shell_mode(&settings("{}"), &base(), &no_landlock, exe()).unwrap();
        let ShellMode::PersonOnly(why) = &mode else {
            panic!("{mode:?}")
        };
        assert!(
            why.starts_with(
                "the sandbox is required (sandbox.required) but unavailable: this kernel has no Landlock"
            ),
            "{why}"
        );
        let launchers = mode.launchers(&weft_env()).unwrap();
        assert_eq!(launchers.default, ShellLauncher::Refuse(why.clone()));
        assert_eq!(launchers.reading, None);
        assert_eq!(
            args_of(&launchers.unsandboxed.unwrap()),
            ["sandbox", "exec", "--parent", "42", "--"]
        );
        // auto mode says so.
        let ShellMode::PersonOnly(auto) = auto_mode(mode.clone()) else {
            panic!()
        };
        assert!(
            auto.starts_with("auto mode runs commands without asking only in the sandbox, and the sandbox is required")
                && auto.ends_with("set `sandbox.required: false` to run them unsandboxed without asking"),
            "{auto}"
        );
        let optional = shell_mode(
            &settings(r#"{"required":false}"#),
            &base(),
            &no_landlock,
            exe(),
        )
        .unwrap();
        assert!(
            matches!(&optional, ShellMode::Unsandboxed(why) if why.starts_with("the sandbox is unavailable and sandbox.required is false")),
            "{optional:?}"
        );
        // No seccomp only matters with the network off.
        let no_seccomp = SandboxStatus {
            seccomp: false,
            ..FULL
        };
        let with_network = shell_mode(
            &settings(r#"{"network":true}"#),
            &base(),
            &no_seccomp,
            exe(),
        )
        .unwrap();
        assert!(matches!(with_network, ShellMode::Sandboxed { .. }));
        let missing_exe = shell_mode(&settings("{}"), &base(), &FULL, None).unwrap();
        assert!(
            matches!(&missing_exe, ShellMode::PersonOnly(r) if r.ends_with("helper: the caller did not say which executable it is")),
            "{missing_exe:?}"
        );
    }

    #[test]
    fn bad_settings_are_usage_errors_naming_the_key() {
        let err = shell_mode(
            &settings(r#"{"enabled":true,"writable_roots":["~x/y"]}"#),
            &base(),
            &FULL,
            exe(),
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "config `sandbox`: sandbox policy: sandbox.writable_roots: ~x/y: only `~` and `~/...` are expanded"
        );
    }

    #[test]
    fn path_directories_inside_the_home_directory_are_readable_to_read_only_commands() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("h");
        for dir in [".cargo/bin", ".local/bin", "code/app"] {
            std::fs::create_dir_all(home.join(dir)).unwrap();
        }
        let path = std::env::join_paths([
            home.join(".cargo/bin"),
            PathBuf::from("/usr/bin"),
            home.join(".local/bin"),
            home.join(".cargo/bin"),
            PathBuf::from("relative/bin"),
            home.join("missing/bin"),
            home.clone(),
        ])
        .unwrap();
        let env = EnvSnapshot::default()
            .with_var("HOME", home.to_str().unwrap())
            .with_var("PATH", path.to_str().unwrap())
            .with_current_dir(home.join("code/app"));
        let workspace = Workspace::resolve(&crate::Locations::default(), env);
        let real = std::fs::canonicalize(&home).unwrap();
        assert_eq!(
            program_dirs_in_home(&workspace, &home),
            [real.join(".cargo/bin"), real.join(".local/bin")]
        );
    }
}
