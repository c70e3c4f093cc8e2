//! `weft sandbox status` (the hidden `weft sandbox exec` helper that `exec_shell` runs commands
//! through is `weft_sandbox::run_helper`, served by `main`).

use std::process::ExitCode;

use anyhow::Result;
use serde_json::{Value, json};
use weft_sandbox::{LandlockSupport, SandboxStatus};

use weft_runtime::sandbox::{ShellMode, child_env, join, mode_for_permissions};
use weft_runtime::{Config, Workspace};
use weft_types::{PermissionMode, tool_names};

use crate::cli::{ListFormat, SandboxStatusArgs};
use crate::output::outln;

/// `weft sandbox status` (in the permission mode in effect: `auto` switches the sandbox on,
/// `bypass` off).
pub fn status(
    workspace: &Workspace,
    args: &SandboxStatusArgs,
    permission_mode: Option<PermissionMode>,
) -> Result<ExitCode> {
    let config = Config::load(&workspace.config_sources())?;
    let base = workspace.base_dir()?;
    let permissions = config.file.permissions.mode(permission_mode);
    let mode = mode_for_permissions(permissions, workspace, &config, &base)?;
    let status = weft_sandbox::probe();
    let scrub = child_env(&config, &workspace.env);
    let withheld: Vec<String> = workspace
        .env
        .vars_os()
        .map(|(name, _)| name)
        .filter(|name| !scrub.contains_key(name))
        .map(|name| name.to_string_lossy().into_owned())
        .collect();
    match args.format {
        ListFormat::Json => {
            let doc = json!({
                "landlock": landlock_json(status.landlock),
                "seccomp": status.seccomp,
                "user_namespaces": status.user_namespaces,
                "permission_mode": permissions.as_str(),
                (tool_names::EXEC_SHELL): mode_json(&mode, &status),
                "env_withheld": withheld,
            });
            outln!("{}", crate::output::json_pretty(&doc)?);
        }
        ListFormat::Table => outln!(
            "{}",
            table(&status, permissions, &mode, &withheld).trim_end()
        ),
    }
    Ok(ExitCode::SUCCESS)
}

fn available(yes: bool) -> &'static str {
    if yes { "available" } else { "unavailable" }
}

pub(crate) fn landlock_text(landlock: LandlockSupport) -> String {
    match landlock {
        LandlockSupport::Available { abi } => format!("available, ABI {abi}"),
        LandlockSupport::NotEnabled => "built in but not enabled".to_owned(),
        LandlockSupport::NotImplemented => "not built into this kernel".to_owned(),
    }
}

fn landlock_json(landlock: LandlockSupport) -> Value {
    match landlock {
        LandlockSupport::Available { abi } => json!({"available": true, "abi": abi}),
        other => json!({"available": false, "abi": null, "reason": landlock_text(other)}),
    }
}

fn mode_json(mode: &ShellMode, status: &SandboxStatus) -> Value {
    match mode {
        ShellMode::Unsandboxed(why) => json!({"mode": "unsandboxed", "reason": why}),
        ShellMode::PersonOnly(why) => json!({"mode": "ask", "reason": why}),
        ShellMode::Sandboxed { policy, .. } => json!({
            "mode": "sandboxed",
            "policy": policy,
            "read_only_by": read_only_by(status),
            "outside_sandbox": OUTSIDE,
        }),
    }
}

/// What a person approving a command may choose.
const OUTSIDE: &str = "a command a person approves may run outside the sandbox, if the person chooses so ([o] in the prompt)";

/// How the read-only paths are kept read-only on this machine.
fn read_only_by(status: &SandboxStatus) -> &'static str {
    if status.user_namespaces {
        "mounts"
    } else {
        "carving"
    }
}

/// Label and value per line.
fn table(
    status: &SandboxStatus,
    permissions: PermissionMode,
    mode: &ShellMode,
    withheld: &[String],
) -> String {
    let mut rows = vec![
        ("Landlock", landlock_text(status.landlock)),
        ("seccomp", available(status.seccomp).to_owned()),
        (
            "user namespaces",
            available(status.user_namespaces).to_owned(),
        ),
    ];
    rows.push(("permission mode", permissions.as_str().to_owned()));
    match mode {
        ShellMode::Unsandboxed(why) => {
            rows.push((tool_names::EXEC_SHELL, format!("not sandboxed: {why}")))
        }
        ShellMode::PersonOnly(why) => rows.push((
            tool_names::EXEC_SHELL,
            format!(
                "asks: a command runs only once a person approves it, unsandboxed (refused where no one can be asked): {why}"
            ),
        )),
        ShellMode::Sandboxed { policy, .. } => {
            let network = if policy.network { "on" } else { "off" };
            let read_only = match read_only_by(status) {
                "mounts" => "read-only mounts in a mount namespace of the command's own",
                _ => {
                    "carved out of the writable roots (no user namespaces: no new entries beside them)"
                }
            };
            rows.extend([
                (tool_names::EXEC_SHELL, "sandboxed".to_owned()),
                ("  writable", join(&policy.writable_roots)),
                (
                    "  read-only",
                    format!("{} ({read_only})", or_none(join(&policy.read_only))),
                ),
                ("  unreadable", or_none(join(&policy.deny_read))),
                ("  network", network.to_owned()),
                ("  outside", OUTSIDE.to_owned()),
            ]);
        }
    }
    rows.push(("env withheld", or_none(withheld.join(", "))));
    rows.iter()
        .map(|(label, value)| format!("{label:<17}{value}\n"))
        .collect()
}

fn or_none(text: String) -> String {
    if text.is_empty() {
        "(none)".to_owned()
    } else {
        text
    }
}
