//! git runs programs named by repository-controlled configuration: checked against the real
//! git. A project with a committed bare repository and a committed `.gitconfig` and `git/config`, each naming a
//! `core.fsmonitor` that leaves a mark: `git -C <that repository> status` and
//! `HOME=. git status` or `XDG_CONFIG_HOME=. git status` really run it, and the analysis must say they may run a program it
//! cannot see (a scoped deny denies them, a pre-approval asks). Plain `git status` reads the
//! project's own configuration, which the analysis cannot read either: it needs the sandbox.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use weft_shell::{Dialect, ShellContext, ShellProgram, analyse_command};

fn real(name: &str) -> Option<PathBuf> {
    ["/usr/bin", "/bin"]
        .iter()
        .map(|d| Path::new(d).join(name))
        .find(|p| p.is_file())
}

fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "git {args:?}");
}

#[test]
fn configuration_the_repository_brings_runs_programs_and_is_not_trusted() {
    let (Some(bash), Some(_)) = (real("bash"), real("git")) else {
        println!("no bash or git here: nothing to run");
        return;
    };
    let bash = ShellProgram::bash(bash);
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let project = root.join("project");
    std::fs::create_dir_all(project.join("vendor")).unwrap();
    std::fs::create_dir_all(root.join("home")).unwrap();
    git(&project, &["init", "-q"]);
    // A repository committed into the project, set up to run a program on `status`.
    git(&project, &["init", "-q", "--bare", "vendor/evil.git"]);
    let evil = project.join("vendor/evil.git");
    let mark = |n: &str| root.join(format!("ran-{n}"));
    for (key, value) in [
        ("core.bare", "false".to_owned()),
        ("core.worktree", project.to_string_lossy().into_owned()),
        (
            "core.fsmonitor",
            format!("touch '{}'; false", mark("other-repository").display()),
        ),
    ] {
        git(&evil, &["config", key, &value]);
    }
    std::fs::write(
        project.join(".gitconfig"),
        format!(
            "[core]\n\tfsmonitor = touch '{}'; false\n",
            mark("home").display()
        ),
    )
    .unwrap();
    std::fs::create_dir_all(project.join("git")).unwrap();
    std::fs::write(
        project.join("git/config"),
        format!(
            "[core]\n\tfsmonitor = touch '{}'; false\n",
            mark("xdg").display()
        ),
    )
    .unwrap();
    let ctx = ShellContext::new()
        .with_project_root(project.to_string_lossy())
        .with_dialect(Dialect::Bash);
    for (command, name) in [
        ("git -C vendor/evil.git status", "other-repository"),
        ("git --git-dir=vendor/evil.git status", "other-repository"),
        ("GIT_DIR=vendor/evil.git git status", "other-repository"),
        ("HOME=. git status", "home"),
        ("env HOME=$PWD git status", "home"),
        ("export HOME=.; git status", "home"),
        ("XDG_CONFIG_HOME=. git status", "xdg"),
    ] {
        let _ = std::fs::remove_file(mark(name));
        Command::new(bash.program())
            .args(bash.argv(command))
            .current_dir(&project)
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .env("HOME", root.join("home"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(
            mark(name).exists(),
            "the real git did not run the configured program: {command:?}"
        );
        let analysis = analyse_command(command, &ctx);
        assert!(
            !analysis.is_fully_analysed()
                || analysis.risks().iter().any(|r| r.runs_unseen_program()),
            "{command:?}: {analysis:?}"
        );
        assert!(!analysis.read_only_verdict().is_read_only(), "{command:?}");
    }
    // The project's own configuration is not read by the analysis: git needs the sandbox.
    let analysis = analyse_command("git status", &ctx);
    assert!(analysis.read_only_verdict().is_read_only());
    assert!(analysis.needs_sandbox());
}
