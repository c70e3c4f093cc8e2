//! The sandbox enforced for real: each test runs `sandbox_probe` (tests/support), which
//! applies a policy to itself and then tries one operation. Every refusal is checked against
//! the same operation without the sandbox, so a test cannot pass because the operation was
//! impossible anyway. These tests need Landlock and seccomp and fail, never skip, without
//! them.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, UdpSocket};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use weft_sandbox::{HELPER_FAILED, HelperArgs, LandlockSupport, SandboxPolicy, probe};

const EACCES: &str = "error 13";

/// `target/<profile>/examples/sandbox_probe`.
#[allow(clippy::disallowed_methods)] // the probe sits beside this test's own executable
fn probe_exe() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(Path::parent).unwrap();
    let probe = profile_dir.join("examples/sandbox_probe");
    assert!(
        probe.is_file(),
        "{} is missing: `cargo test` builds it; with a narrower selection run \
         `cargo build -p weft-sandbox --example sandbox_probe` first",
        probe.display()
    );
    probe
}

/// A project, a directory outside it and a home with a secret, under one temporary dir.
struct Layout {
    _tmp: tempfile::TempDir,
    root: PathBuf,
}

impl Layout {
    fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(tmp.path()).unwrap();
        for dir in ["project/src", "outside", "home/.ssh", "repo/src"] {
            std::fs::create_dir_all(root.join(dir)).unwrap();
        }
        std::fs::write(root.join("home/.ssh/id_ed25519"), "SECRET KEY").unwrap();
        std::fs::write(root.join("home/notes.txt"), "notes").unwrap();
        std::fs::write(root.join("repo/.env"), "TOKEN=1").unwrap();
        Self { _tmp: tmp, root }
    }

    fn path(&self, rel: &str) -> String {
        self.root.join(rel).display().to_string()
    }

    /// `project` writable, `home/.ssh` denied.
    fn policy(&self, network: bool) -> SandboxPolicy {
        SandboxPolicy {
            writable_roots: vec![self.root.join("project")],
            deny_read: vec![self.root.join("home/.ssh")],
            read_only: vec![],
            read_again: vec![],
            network,
        }
    }
}

/// Runs the probe under `policy` (`None`: unsandboxed) and returns its one-line verdict.
fn run(policy: Option<&SandboxPolicy>, action: &[&str]) -> String {
    let json = policy.map_or_else(|| "-".to_owned(), |p| p.to_json().unwrap());
    let output = Command::new(probe_exe())
        .arg(&json)
        .args(action)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).trim().to_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        output.status.code(),
        Some(0),
        "probe {action:?} failed: {stderr}"
    );
    stdout
}

/// The operation fails with EACCES in the sandbox and works without it (in that order, so a
/// file the sandboxed attempt would create does not exist yet).
fn refused(policy: &SandboxPolicy, action: &[&str]) {
    assert_eq!(run(Some(policy), action), EACCES, "{action:?}");
    assert_eq!(run(None, action), "ok", "{action:?} fails even unsandboxed");
}

#[test]
fn this_machine_has_landlock_and_seccomp() {
    let status = probe();
    assert!(
        matches!(status.landlock, LandlockSupport::Available { abi } if abi >= 1),
        "the sandbox tests need Landlock: {status:?}"
    );
    assert!(status.seccomp, "the sandbox tests need seccomp: {status:?}");
    assert_eq!(status.missing_for(false), None);
}

#[test]
fn writes_succeed_inside_the_writable_roots_and_fail_with_eacces_outside() {
    let l = Layout::new();
    let policy = l.policy(false);
    assert_eq!(
        run(Some(&policy), &["write", &l.path("project/new.txt")]),
        "ok"
    );
    assert_eq!(
        std::fs::read_to_string(l.root.join("project/new.txt")).unwrap(),
        "written"
    );
    refused(&policy, &["write", &l.path("outside/new.txt")]);
    // Changing an existing file outside is refused too.
    refused(&policy, &["write", &l.path("home/notes.txt")]);
    // Devices commands rely on stay usable.
    assert_eq!(run(Some(&policy), &["write", "/dev/null"]), "ok");
    assert_eq!(run(Some(&policy), &["read", "/dev/null"]), "ok");
}

#[test]
fn denied_paths_cannot_be_read_or_written() {
    let l = Layout::new();
    let policy = l.policy(false);
    refused(&policy, &["read", &l.path("home/.ssh/id_ed25519")]);
    refused(&policy, &["write", &l.path("home/.ssh/authorized_keys")]);
    // Everything around them stays readable, and directories stay listable (names only).
    assert_eq!(
        run(Some(&policy), &["read", &l.path("home/notes.txt")]),
        "ok"
    );
    assert_eq!(run(Some(&policy), &["read", "/etc/hostname"]), "ok");
    assert_eq!(run(Some(&policy), &["list", "/"]), "ok");
    assert_eq!(run(Some(&policy), &["list", &l.path("home/.ssh")]), "ok");
}

#[test]
fn a_denied_path_inside_a_writable_root_wins_and_freezes_the_directories_above_it() {
    let l = Layout::new();
    let policy = SandboxPolicy {
        writable_roots: vec![l.root.join("repo")],
        deny_read: vec![l.root.join("repo/.env")],
        read_only: vec![],
        read_again: vec![],
        network: false,
    };
    refused(&policy, &["read", &l.path("repo/.env")]);
    refused(&policy, &["write", &l.path("repo/.env")]);
    // Existing subdirectories stay fully writable...
    assert_eq!(
        run(Some(&policy), &["write", &l.path("repo/src/a.rs")]),
        "ok"
    );
    // ...but `repo` itself can only get new entries with everything beneath it, `.env`
    // included, so it gets none (the documented cost of the technique).
    refused(&policy, &["write", &l.path("repo/new.txt")]);
}

#[test]
fn weft_own_environment_cannot_be_read_through_proc() {
    let l = Layout::new();
    let environ = format!("/proc/{}/environ", std::process::id());
    refused(&l.policy(true), &["read", &environ]);
}

#[test]
fn tcp_to_a_loopback_listener_fails_without_network_and_works_with_it() {
    let l = Layout::new();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    refused(&l.policy(false), &["tcp", &addr]);
    assert_eq!(run(Some(&l.policy(true)), &["tcp", &addr]), "ok");
    let udp = UdpSocket::bind("127.0.0.1:0").unwrap();
    let udp_addr = udp.local_addr().unwrap().to_string();
    refused(&l.policy(false), &["udp", &udp_addr]);
    assert_eq!(run(Some(&l.policy(true)), &["udp", &udp_addr]), "ok");
}

#[test]
fn unix_sockets_work_without_network() {
    let l = Layout::new();
    assert_eq!(
        run(Some(&l.policy(false)), &["unix", &l.path("project/sock")]),
        "ok"
    );
}

#[test]
fn executed_programs_inherit_the_restrictions() {
    let l = Layout::new();
    let script = format!(
        "echo inside > {p}/a && echo quiet > /dev/null && cat {h}/notes.txt; echo x > {o}/b || echo refused; cat {h}/.ssh/id_ed25519 || echo denied; grep CapEff /proc/self/status",
        p = l.path("project"),
        o = l.path("outside"),
        h = l.path("home")
    );
    let output = Command::new(probe_exe())
        .arg(l.policy(false).to_json().unwrap())
        .args(["exec", "/bin/sh", "-c", &script])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "notesrefused\ndenied\nCapEff:\t0000000000000000\n"
    );
    assert!(l.root.join("project/a").exists());
    assert!(!l.root.join("outside/b").exists());
}

#[test]
fn a_program_that_serves_the_helper_runs_commands_in_the_sandbox() {
    let l = Layout::new();
    let script = format!(
        "echo inside > {p}/a; echo x > {o}/b || echo refused; cat {h}/.ssh/id_ed25519 || echo denied; exit 3",
        p = l.path("project"),
        o = l.path("outside"),
        h = l.path("home")
    );
    // Through the helper with a policy (its second stage applies it), and without one.
    for (policy, out) in [
        (
            Some(l.policy(false).to_json().unwrap()),
            "refused\ndenied\n",
        ),
        (None, "SECRET KEY"),
    ] {
        let sandboxed = policy.is_some();
        let output = Command::new(probe_exe())
            .args(
                HelperArgs {
                    parent: None,
                    policy,
                }
                .to_args(),
            )
            .args(["/bin/sh", "-c", &script])
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&output.stdout), out);
        // The helper exits as the command did.
        assert_eq!(output.status.code(), Some(3));
        assert!(l.root.join("project/a").exists());
        assert_eq!(l.root.join("outside/b").exists(), !sandboxed);
        std::fs::remove_file(l.root.join("project/a")).unwrap();
    }
    // A command line it cannot read runs nothing, and says why.
    let output = Command::new(probe_exe())
        .args(["sandbox", "exec", "--policy"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(i32::from(HELPER_FAILED)));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "weft sandbox: sandbox helper: --policy needs a value\n"
    );
}

#[test]
fn entries_created_later_beside_a_denied_path_are_unreadable() {
    let l = Layout::new();
    let script = format!("echo ready; read line; cat {}/later.txt", l.path("home"));
    let mut child = Command::new(probe_exe())
        .arg(l.policy(false).to_json().unwrap())
        .args(["exec", "/bin/sh", "-c", &script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    assert_eq!(line, "ready\n");
    // Made after the sandbox was set up: no grant covers it.
    std::fs::write(l.root.join("home/later.txt"), "later").unwrap();
    child.stdin.take().unwrap().write_all(b"go\n").unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(!output.status.success());
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("Permission denied"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn a_bad_policy_is_refused_before_anything_runs() {
    let output = Command::new(probe_exe())
        .args([
            r#"{"writable_roots":["relative"],"deny_read":[],"network":false}"#,
            "list",
            "/",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(3));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "apply failed: sandbox policy: relative: not an absolute path\n"
    );
}

#[test]
fn read_only_paths_stay_read_only_and_the_project_stays_writable_beside_them() {
    let l = Layout::new();
    for dir in ["project/.clawft/skills", "project/.git/hooks"] {
        std::fs::create_dir_all(l.root.join(dir)).unwrap();
    }
    std::fs::write(l.root.join("project/.git/config"), "[core]\n").unwrap();
    std::fs::write(l.root.join("project/.clawft/config.json"), "{}").unwrap();
    let mut policy = l.policy(false);
    policy.read_only = [".clawft", ".git/config", ".git/hooks", ".mcp.json"]
        .iter()
        .map(|p| l.root.join("project").join(p))
        .collect();
    let namespaces = probe().user_namespaces;
    // With user namespaces, read-only mounts (EROFS); without, carving (EACCES).
    let refusal = if namespaces { "error 30" } else { EACCES };
    for target in [
        "project/.clawft/config.json",
        "project/.clawft/skills/new.md",
        "project/.git/config",
        "project/.git/hooks/pre-commit",
    ] {
        assert_eq!(
            run(Some(&policy), &["write", &l.path(target)]),
            refusal,
            "{target}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(l.root.join("project/.clawft/config.json")).unwrap(),
        "{}"
    );
    assert!(!l.root.join("project/.git/hooks/pre-commit").exists());
    // Everything else in the project stays writable, existing directories included.
    assert_eq!(
        run(Some(&policy), &["write", &l.path("project/src/lib.rs")]),
        "ok"
    );
    // New entries beside the read-only paths: only a mount namespace allows them.
    let beside = if namespaces { "ok" } else { EACCES };
    assert_eq!(
        run(Some(&policy), &["write", &l.path("project/new.txt")]),
        beside
    );
    assert_eq!(
        run(
            Some(&policy),
            &["write", &l.path("project/.git/index.lock")]
        ),
        beside
    );
    // The mounts were the command's own: weft's view is unchanged, and writable.
    std::fs::write(l.root.join("project/.git/config"), "[user]\n").unwrap();
    // A missing read-only path cannot be mounted: the helper's watch deals with it.
    assert_eq!(
        run(Some(&policy), &["write", &l.path("project/.mcp.json")]),
        "ok"
    );
}

#[test]
fn editor_backups_of_a_denied_file_are_denied_too() {
    let l = Layout::new();
    for name in [
        "config.json",
        "config.json~",
        ".config.json.swp",
        "#config.json#",
    ] {
        std::fs::write(l.root.join("home").join(name), "sk-key").unwrap();
    }
    let mut policy = l.policy(false);
    policy.deny_read.push(l.root.join("home/config.json"));
    for name in [
        "config.json",
        "config.json~",
        ".config.json.swp",
        "#config.json#",
    ] {
        refused(&policy, &["read", &l.path(&format!("home/{name}"))]);
    }
    assert_eq!(
        run(Some(&policy), &["read", &l.path("home/notes.txt")]),
        "ok"
    );
}

#[test]
fn a_reading_policy_reads_the_project_in_the_home_and_nothing_else_of_it_and_writes_nothing() {
    let l = Layout::new();
    let home = l.root.join("home");
    let project = home.join("app");
    std::fs::create_dir_all(project.join("src")).unwrap();
    std::fs::write(project.join("src/main.rs"), "fn main() {}").unwrap();
    std::fs::write(project.join(".env"), "TOKEN=2").unwrap();
    // A link committed in the project to a file elsewhere in the home directory.
    std::os::unix::fs::symlink(home.join("notes.txt"), project.join("notes")).unwrap();
    let policy = SandboxPolicy {
        writable_roots: vec![project.clone(), l.root.join("outside")],
        deny_read: vec![project.join(".env"), home.join(".ssh")],
        read_only: vec![],
        read_again: vec![],
        network: false,
    }
    .for_reading(Some(&home), &project);
    let at = |rel: &str| project.join(rel).display().to_string();
    assert_eq!(run(Some(&policy), &["read", &at("src/main.rs")]), "ok");
    assert_eq!(run(Some(&policy), &["list", &at("src")]), "ok");
    // Through the link, and directly: the rest of the home directory is unreadable.
    refused(&policy, &["read", &at("notes")]);
    refused(&policy, &["read", &l.path("home/notes.txt")]);
    // What was denied stays denied inside the project.
    refused(&policy, &["read", &at(".env")]);
    // Nothing is writable, not even in the project or the former writable roots.
    refused(&policy, &["write", &at("src/new.rs")]);
    refused(&policy, &["write", &at("src/main.rs")]);
    refused(&policy, &["write", &l.path("outside/new.txt")]);
    // Outside the home directory reading works as before.
    assert_eq!(run(Some(&policy), &["read", "/etc/hostname"]), "ok");
}
