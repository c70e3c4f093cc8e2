//! `weft sandbox status` (the hidden `weft sandbox exec` helper that `exec_shell` runs commands
//! through is `sandbox_exec.rs`).

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
    let permissions = config.file.permissions.mode(permission_mode)?;
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
                (tool_names::EXEC_SHELL): mode_json(&mode),
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

fn mode_json(mode: &ShellMode) -> Value {
    match mode {
        ShellMode::Unsandboxed(why) => json!({"mode": "unsandboxed", "reason": why}),
        ShellMode::Refused(why) => json!({"mode": "refused", "reason": why}),
        ShellMode::Sandboxed { policy, .. } => json!({"mode": "sandboxed", "policy": policy}),
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
        ShellMode::Refused(why) => rows.push((tool_names::EXEC_SHELL, format!("refused: {why}"))),
        ShellMode::Sandboxed { policy, .. } => {
            let network = if policy.network { "on" } else { "off" };
            rows.extend([
                (tool_names::EXEC_SHELL, "sandboxed".to_owned()),
                ("  writable", join(&policy.writable_roots)),
                ("  unreadable", or_none(join(&policy.deny_read))),
                ("  network", network.to_owned()),
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
