//! Pre-approval (`permissions.allow`): the same patterns and analyser as the gate's allow
//! side, answering "does this call run without asking?".

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::{Value, json};
use weft_permissions::{Approval, Origin, PatternContext, PreApproval, ShellContext};

fn approval() -> PreApproval {
    PreApproval::compile(
        [
            "Read",
            "Edit(docs/**)",
            "Bash(git status:*)",
            "Bash(git log:*)",
            "Bash(cargo test:*)",
        ],
        &Origin::Session,
        &PatternContext::new().with_project_dir("/work/proj"),
    )
    .unwrap()
}

fn bash(command: &str) -> Value {
    json!({ "command": command })
}

fn reason(approval: &Approval) -> &str {
    match approval {
        Approval::PreApproved { rule } => rule,
        Approval::NotPreApproved { reason } => reason,
    }
}

#[test]
fn ordinary_commands_are_pre_approved_with_their_rules() {
    let p = approval();
    for (command, rule) in [
        ("git status", "`Bash(git status:*)` from the session"),
        (
            "git log --oneline | head -5 && git status",
            "`Bash(git log:*)` from the session, `Bash(git status:*)` from the session",
        ),
        (
            "cargo test 2>&1 | tail",
            "`Bash(cargo test:*)` from the session",
        ),
        (
            "bash -c 'git status'",
            "`Bash(git status:*)` from the session",
        ),
        (
            "cargo test > /work/proj/target/log.txt",
            "`Bash(cargo test:*)` from the session",
        ),
        ("ls -la | wc -l", "read-only helpers"),
    ] {
        let a = p.check("Bash", &bash(command));
        assert_eq!(
            a,
            Approval::PreApproved {
                rule: rule.to_owned()
            },
            "{command}"
        );
    }
    assert!(
        p.check("read_file", &json!({"path": "/etc/hosts"}))
            .is_pre_approved()
    );
    assert!(
        p.check("Edit", &json!({"path": "docs/a.md"}))
            .is_pre_approved()
    );
}

#[test]
fn what_is_not_pre_approved_says_why() {
    let p = approval();
    for (command, why) in [
        (
            "git status && git push",
            "`git push` matches none of the allowed `Bash(git status:*)` from the session, `Bash(git log:*)` from the session, `Bash(cargo test:*)` from the session",
        ),
        (
            "git -c core.pager=cat log",
            "`git -c` can run other programs, in `git -c core.pager=cat log`",
        ),
        (
            "git -c core.pager=sh log",
            "`sh` (in `git -c core.pager`) matches none of the allowed `Bash(git status:*)` from the session, `Bash(git log:*)` from the session, `Bash(cargo test:*)` from the session",
        ),
        (
            "cargo test > /tmp/log.txt",
            "`> /tmp/log.txt` writes outside the project, in `cargo test`",
        ),
        (
            "$RUN git status",
            "the program name `$RUN` is not literal, so the command cannot be checked against `Bash(git status:*)` from the session, `Bash(git log:*)` from the session, `Bash(cargo test:*)` from the session",
        ),
        (
            "sudo git status",
            "`sudo git status` may not match `Bash(git status:*)` from the session (`sudo` runs it as another user)",
        ),
    ] {
        let a = p.check("Bash", &bash(command));
        assert!(!a.is_pre_approved(), "{command}");
        assert_eq!(reason(&a), why, "{command}");
    }
    assert_eq!(
        reason(&p.check("Edit", &json!({"path": "src/lib.rs"}))),
        "no pre-approval pattern matches this `Edit` call"
    );
    assert_eq!(
        reason(&p.check("Bash", &json!({}))),
        "the call has no `command`"
    );
}

#[test]
fn the_shell_context_can_be_replaced() {
    let p = approval().with_shell_context(ShellContext::new().with_project_root("/tmp"));
    assert!(
        p.check("Bash", &bash("cargo test > /tmp/log.txt"))
            .is_pre_approved()
    );
    assert_eq!(p.patterns().len(), 5);
}

#[test]
fn path_pre_approval_needs_the_spelled_and_the_real_path() {
    let ctx = PatternContext::new().with_working_dir("/p");
    let approved = PreApproval::compile(["Edit(src/**)"], &Origin::Session, &ctx).unwrap();
    let spelled = json!({"file_path": "src/link.rs"});
    assert!(approved.check("Edit", &spelled).is_pre_approved());
    let outside = json!({"file_path": "/etc/cron.d/x"});
    assert_eq!(
        approved.check_resolved("Edit", &spelled, Some(&outside)),
        Approval::NotPreApproved {
            reason: "`src/link.rs` resolves to `/etc/cron.d/x`: no pre-approval pattern matches this `Edit` call".into()
        }
    );
    let inside = json!({"file_path": "/p/src/real.rs"});
    assert!(
        approved
            .check_resolved("Edit", &spelled, Some(&inside))
            .is_pre_approved()
    );
}

/// Issue 23: a session must not widen the next one. Writes of weft's (and the other agents')
/// configuration, the project's MCP servers, and git's configuration and hooks are never
/// pre-approved, however broad the pattern.
#[test]
fn protected_paths_are_never_pre_approved() {
    let ctx = PatternContext::new().with_project_dir("/work/proj");
    let everything = PreApproval::compile(["Bash"], &Origin::Session, &ctx).unwrap();
    let scoped =
        PreApproval::compile(["Bash(echo:*)", "Bash(cp:*)"], &Origin::Session, &ctx).unwrap();
    for command in [
        r#"echo '{"permissions":{"allow":["Bash"]}}' > .clawft/config.json"#,
        "cp /tmp/x /work/proj/.git/hooks/pre-commit",
        "echo '[core] fsmonitor = x' >> .git/config",
        "cp x .mcp.json",
    ] {
        for p in [&everything, &scoped] {
            let a = p.check("Bash", &bash(command));
            assert!(
                !a.is_pre_approved() && reason(&a).contains("protected path"),
                "{command}: {a:?}"
            );
        }
    }
    assert!(
        everything
            .check("Bash", &bash("echo x > notes.txt"))
            .is_pre_approved()
    );
    assert!(
        scoped
            .check("Bash", &bash("echo x > notes.txt"))
            .is_pre_approved()
    );
}
