//! The sandbox's start-up cost per `exec_shell` call: `exec_shell` of `true` run directly,
//! then through the real `weft sandbox exec` helper with Landlock only (network on) and with
//! Landlock and the seccomp filter (network off), over the default denied paths under this
//! user's home. The difference between the cases is what the sandbox adds (target < 5 ms).

#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use criterion::{Criterion, criterion_group, criterion_main};
use weft_sandbox::{HelperArgs, PolicyBase, SandboxSettings};
use weft_tools::{BuiltinConfig, ExecConfig, FsScope, ShellLauncher, ToolRegistry};

/// The built-in tools over `project`, with `launcher`.
fn registry(project: &Path, launcher: ShellLauncher) -> ToolRegistry {
    let env = [("PATH", "/usr/bin:/bin")]
        .map(|(k, v)| (OsString::from(k), OsString::from(v)))
        .into_iter()
        .collect();
    weft_tools::builtin_registry(&BuiltinConfig {
        scope: FsScope::new(project.to_path_buf(), vec![]).unwrap(),
        memory_file: project.join("MEMORY.md"),
        exec: ExecConfig {
            env,
            launcher,
            ..ExecConfig::default()
        },
        web_fetch: None,
    })
}

/// The helper launcher with the default settings (plus `network`) resolved for `project`.
#[allow(clippy::disallowed_methods)] // a benchmark of this machine's own home and temp dir
fn helper(project: &Path, network: bool) -> ShellLauncher {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let temp = std::env::temp_dir();
    let settings = SandboxSettings {
        enabled: Some(true),
        network,
        ..SandboxSettings::default()
    };
    let policy = settings
        .policy(&PolicyBase {
            project,
            home: home.as_deref(),
            temp_dir: &temp,
            key_files: &[],
            read_only: &[project.join(".clawft"), project.join(".git/hooks")],
        })
        .unwrap();
    let json = policy.to_json().unwrap();
    ShellLauncher::Wrapper {
        program: PathBuf::from(env!("CARGO_BIN_EXE_weft")),
        args: HelperArgs {
            parent: None,
            policy: Some(json),
        }
        .to_args(),
        note: String::new(),
    }
}

fn startup(c: &mut Criterion) {
    let tmp = tempfile::tempdir().unwrap();
    let project = std::fs::canonicalize(tmp.path()).unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let cases = [
        ("direct", ShellLauncher::Direct),
        ("sandbox_landlock", helper(&project, true)),
        ("sandbox_landlock_seccomp", helper(&project, false)),
    ];
    let mut group = c.benchmark_group("exec_shell_true");
    for (name, launcher) in cases {
        let tools = registry(&project, launcher);
        let tool = tools.get("exec_shell").unwrap();
        let input = serde_json::json!({"command": "true"});
        // The case really runs the command (through the helper where there is one).
        let out = rt.block_on(tool.call(input.clone())).unwrap();
        assert_eq!(out.content, "exit code: 0", "{name}");
        group.bench_function(name, |b| {
            b.iter(|| rt.block_on(tool.call(input.clone())).unwrap());
        });
    }
    group.finish();
}

criterion_group!(benches, startup);
criterion_main!(benches);
