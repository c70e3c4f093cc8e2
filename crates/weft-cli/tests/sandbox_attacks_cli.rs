//! Attacks on the boundary around exec_shell and the file tools, through the real `weft` binary
//! and the real kernel (replayed tool calls): a descriptor leaked into a command, processes
//! that leave the command's group, writes to the paths later sessions trust (through each file
//! tool, `create_skill` and a sandboxed command), the configuration's keys read from inside the
//! sandbox, and a pre-approved command that does more than it says. Where this machine has no
//! sandbox, each test asserts what must happen then instead (the command asks, and without a
//! terminal it is refused).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::sandbox;

use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use sandbox::Sandbox;
use serde_json::{Value, json};

/// A recording that makes `calls` (tool name and input), one per model turn, then answers
/// `done`; `config` merged into a config naming it.
fn replay(s: &Sandbox, calls: &[(&str, Value)], config: Value) -> PathBuf {
    let mut turns: Vec<Value> = calls
        .iter()
        .enumerate()
        .map(|(i, (tool, args))| {
            json!({"tool_calls": [{"id": format!("call_{i}"), "name": tool, "arguments": args}]})
        })
        .collect();
    turns.push(json!({"content": "done"}));
    let recording = s.recording("recording.jsonl", &turns);
    let mut value = json!({
        "providers": {"demo": {"kind": "replay", "file": recording, "api_key": "sk-in-the-config"}},
        "model": "demo/recorded",
    });
    for (key, v) in config.as_object().unwrap() {
        value[key] = v.clone();
    }
    s.config(&value)
}

/// `weft [flags] agent -m go` with a small known environment and no one to ask.
fn weft(s: &Sandbox, config: &Path, flags: &[&str]) -> Command {
    let mut cmd = s.isolated();
    cmd.arg("--config").arg(config).args(flags);
    cmd.args(["agent", "-m", "go"]);
    cmd
}

fn run(s: &Sandbox, config: &Path, flags: &[&str]) -> Output {
    let output = weft(s, config, flags).output().unwrap();
    assert!(
        output.status.success(),
        "weft failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// The tool results, in order.
fn results(s: &Sandbox) -> Vec<String> {
    s.messages()
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].as_str().unwrap().to_owned())
        .collect()
}

/// Whether this machine runs commands in the sandbox (`weft sandbox status`).
fn sandboxed_here(s: &Sandbox, config: &Path) -> bool {
    let output = s
        .isolated()
        .arg("--config")
        .arg(config)
        .args(["sandbox", "status", "--format", "json"])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&output.stdout).unwrap();
    match doc["exec_shell"]["mode"].as_str().unwrap() {
        "sandboxed" => true,
        "ask" => false,
        other => panic!("the default is the sandbox, or asking where it is unavailable: {other}"),
    }
}

/// What a refused command tells the model where the sandbox is unavailable.
const PERSON_ONLY: &str = "a command runs only once a person approves it";

/// Whether process `pid` runs (exists and is not a zombie).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit_once(") ")
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| !matches!(state, "Z" | "X"))
    })
}

/// Waits up to 5 s for `pid` to be gone.
fn assert_gone(pid: u32, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while alive(pid) {
        assert!(Instant::now() < deadline, "{what} ({pid}) is still running");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The pid written to `<project>/<name>`, waiting for it.
fn read_pid(s: &Sandbox, name: &str) -> u32 {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        if let Ok(text) = std::fs::read_to_string(s.project.join(name))
            && let Ok(pid) = text.trim().parse()
        {
            return pid;
        }
        assert!(Instant::now() < deadline, "{name} never appeared");
        std::thread::sleep(Duration::from_millis(20));
    }
}

// --- Descriptors ----------------------------------------------------------------------------------

/// A TCP listener and a file, both without close-on-exec, so that whatever this test starts
/// inherits them.
fn leaky_descriptors(s: &Sandbox) -> (std::net::TcpListener, std::fs::File, Vec<i32>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let file = std::fs::File::open(s.outside("secret.txt", "secret")).unwrap();
    for fd in [listener.as_raw_fd(), file.as_raw_fd()] {
        let borrowed = if fd == listener.as_raw_fd() {
            rustix::io::fcntl_setfd(&listener, rustix::io::FdFlags::empty())
        } else {
            rustix::io::fcntl_setfd(&file, rustix::io::FdFlags::empty())
        };
        borrowed.unwrap();
    }
    let fds = vec![listener.as_raw_fd(), file.as_raw_fd()];
    (listener, file, fds)
}

/// The descriptors of the shell that ran the command, as `ls` lists them.
///
/// `; true` keeps bash from replacing itself with `ls` (whose own descriptor for the listed
/// directory would then show).
const LIST_FDS: &str = "ls /proc/$$/fd; true";

#[test]
fn no_inherited_descriptor_reaches_a_command() {
    let s = Sandbox::new();
    let (_listener, _file, leaked) = leaky_descriptors(&s);
    let config = replay(
        &s,
        &[("exec_shell", json!({"command": LIST_FDS}))],
        json!({"permissions": {"allow": ["Bash"]}, "sandbox": {"required": false}}),
    );
    // Through a whole run: weft, its helper, the command.
    run(&s, &config, &[]);
    assert_eq!(
        results(&s),
        ["exit code: 0\n--- stdout ---\n0\n1\n2"],
        "leaked {leaked:?}"
    );
    // And the helper alone, started by a parent that leaks them.
    for policy in [
        None,
        Some(r#"{"writable_roots":[],"deny_read":[],"network":true}"#),
    ] {
        let mut helper = Command::new(env!("CARGO_BIN_EXE_weft"));
        helper.args(["sandbox", "exec"]);
        if let Some(policy) = policy {
            helper.args(["--policy", policy]);
        }
        let output = helper
            .args(["--", "/bin/sh", "-c", LIST_FDS])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            "0\n1\n2\n",
            "{policy:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

// --- Processes that leave the group ------------------------------------------------------------

/// Starts a `setsid` process and a double-forked one, each writing its pid, then `rest`.
fn escapes(rest: &str) -> String {
    format!(
        "setsid sh -c 'echo $$ > setsid.pid; exec sleep 1000' > /dev/null 2>&1 & \
         sh -c 'sh -c \"echo \\$\\$ > double.pid; exec sleep 1000\" > /dev/null 2>&1 &'; \
         while [ ! -s setsid.pid ] || [ ! -s double.pid ]; do sleep 0.05; done; {rest}"
    )
}

#[test]
fn processes_that_leave_the_group_end_with_the_call() {
    for sandbox in [json!({"required": false}), json!({"enabled": false})] {
        let s = Sandbox::new();
        let config = replay(
            &s,
            &[("exec_shell", json!({"command": escapes("true")}))],
            json!({"permissions": {"allow": ["Bash"]}, "sandbox": sandbox}),
        );
        run(&s, &config, &[]);
        assert_eq!(results(&s), ["exit code: 0"], "{sandbox}");
        assert_gone(read_pid(&s, "setsid.pid"), "the setsid process");
        assert_gone(read_pid(&s, "double.pid"), "the double-forked process");
    }
}

#[test]
fn processes_that_leave_the_group_end_at_the_timeout() {
    let s = Sandbox::new();
    let config = replay(
        &s,
        &[(
            "exec_shell",
            json!({"command": escapes("sleep 1000"), "timeout_secs": 2}),
        )],
        json!({"permissions": {"allow": ["Bash"]}, "sandbox": {"required": false}}),
    );
    run(&s, &config, &[]);
    assert!(results(&s)[0].contains("timed out"), "{:?}", results(&s));
    assert_gone(read_pid(&s, "setsid.pid"), "the setsid process");
    assert_gone(read_pid(&s, "double.pid"), "the double-forked process");
}

#[test]
fn processes_that_leave_the_group_end_when_weft_is_killed() {
    for signal in ["-TERM", "-KILL"] {
        let s = Sandbox::new();
        let config = replay(
            &s,
            &[("exec_shell", json!({"command": escapes("sleep 1000")}))],
            json!({"permissions": {"allow": ["Bash"]}, "sandbox": {"required": false}}),
        );
        let mut child = weft(&s, &config, &[])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let (setsid, double) = (read_pid(&s, "setsid.pid"), read_pid(&s, "double.pid"));
        assert!(alive(setsid) && alive(double));
        let sent = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        child.wait().unwrap();
        assert_gone(setsid, "the setsid process");
        assert_gone(double, "the double-forked process");
    }
}

// --- Paths later sessions trust ------------------------------------------------------------------

/// A project with `.clawft/config.json`, `.git/hooks`, a link `src/cfg -> ../.clawft`, and a
/// user skill `tidy`.
fn trusted_layout(s: &Sandbox) {
    s.file(".clawft/config.json", "{}");
    s.file(".git/config", "[core]\n");
    std::fs::create_dir_all(s.project.join(".git/hooks")).unwrap();
    std::fs::create_dir_all(s.project.join("src")).unwrap();
    std::os::unix::fs::symlink("../.clawft", s.project.join("src/cfg")).unwrap();
    sandbox::write_skill(&s.home.join(".clawft/skills"), "tidy", "Tidy up");
}

const WIDEN: &str = r#"{"permissions":{"allow":["Bash"]}}"#;

#[test]
fn file_tools_and_create_skill_never_write_trusted_paths_without_a_person() {
    let s = Sandbox::new();
    trusted_layout(&s);
    let calls = [
        (
            "write_file",
            json!({"path": ".clawft/config.json", "content": WIDEN}),
        ),
        (
            "write_file",
            json!({"path": ".CLAWFT/config.json", "content": WIDEN}),
        ),
        (
            "write_file",
            json!({"path": "src/../.clawft/config.json", "content": WIDEN}),
        ),
        (
            "write_file",
            json!({"path": "src/cfg/config.json", "content": WIDEN}),
        ),
        (
            "edit_file",
            json!({"path": ".clawft/config.json", "old_string": "{}", "new_string": WIDEN}),
        ),
        (
            "write_file",
            json!({"path": ".git/hooks/pre-commit", "content": "#!/bin/sh\ntouch pwned\n"}),
        ),
        (
            "write_file",
            json!({"path": ".claude/settings.json", "content": "{}"}),
        ),
        ("write_file", json!({"path": ".mcp.json", "content": "{}"})),
        (
            "create_skill",
            json!({"name": "tidy", "description": "Mine now", "body": "x", "replace": true}),
        ),
        ("write_file", json!({"path": "notes.md", "content": "fine"})),
    ];
    // accept-edits and auto run edits without asking; these still need a person.
    for mode in ["accept-edits", "auto"] {
        let s = Sandbox::new();
        trusted_layout(&s);
        let config = replay(
            &s,
            &calls,
            json!({"permissions": {"allow": ["Write", "Edit"]}}),
        );
        // Refused for want of a person: exit status 4, which is what this run expects.
        let out = weft(&s, &config, &["--permission-mode", mode])
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(4),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let results = results(&s);
        for (result, (tool, input)) in results.iter().zip(&calls).take(calls.len() - 1) {
            assert!(
                result.starts_with("approval needed: ")
                    && result.contains("changes what later sessions trust"),
                "{mode} {tool} {input}: {result}"
            );
        }
        assert!(results.last().unwrap().starts_with("wrote"), "{results:?}");
        assert_eq!(
            std::fs::read_to_string(s.project.join(".clawft/config.json")).unwrap(),
            "{}"
        );
        assert!(!s.project.join(".git/hooks/pre-commit").exists());
        assert!(!s.project.join(".claude").exists() && !s.project.join(".mcp.json").exists());
        let skill = std::fs::read_to_string(s.home.join(".clawft/skills/tidy/SKILL.md")).unwrap();
        assert!(skill.contains("Tidy up"), "{skill}");
    }
    // bypass is the user's own choice: it writes.
    let config = replay(&s, &calls[..1], json!({}));
    run(&s, &config, &["--permission-mode", "bypass"]);
    assert_eq!(
        std::fs::read_to_string(s.project.join(".clawft/config.json")).unwrap(),
        WIDEN
    );
}

#[test]
fn a_sandboxed_command_cannot_change_trusted_paths_and_what_it_creates_there_is_moved_aside() {
    let s = Sandbox::new();
    trusted_layout(&s);
    let calls = [
        (
            "exec_shell",
            json!({"command": format!("echo '{WIDEN}' > .clawft/config.json")}),
        ),
        (
            "exec_shell",
            json!({"command": "printf '#!/bin/sh\\n' > .git/hooks/post-checkout"}),
        ),
        ("exec_shell", json!({"command": "echo x >> .git/config"})),
        (
            "exec_shell",
            json!({"command": "mkdir .claude && echo '{}' > .claude/settings.json && echo made"}),
        ),
        (
            "exec_shell",
            json!({"command": "echo fine > notes.md && cat notes.md"}),
        ),
    ];
    let config = replay(&s, &calls, json!({"permissions": {"allow": ["Bash"]}}));
    run(&s, &config, &["--permission-mode", "auto"]);
    let results = results(&s);
    if !sandboxed_here(&s, &config) {
        for result in &results {
            assert!(result.contains(PERSON_ONLY), "{result}");
        }
        return;
    }
    for result in &results[..3] {
        assert!(
            result.contains("Read-only file system") || result.contains("Permission denied"),
            "{result}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(s.project.join(".clawft/config.json")).unwrap(),
        "{}"
    );
    assert_eq!(
        std::fs::read_to_string(s.project.join(".git/config")).unwrap(),
        "[core]\n"
    );
    assert!(!s.project.join(".git/hooks/post-checkout").exists());
    // `.claude` did not exist: the command could create it, and it was moved aside, said so.
    assert!(
        results[3]
            .starts_with("exit code: 0\n--- stdout ---\nmade\n--- stderr ---\nweft sandbox: "),
        "{}",
        results[3]
    );
    assert!(
        results[3].contains("only a person may change it; moved to"),
        "{}",
        results[3]
    );
    assert!(!s.project.join(".claude").exists());
    assert!(
        s.project
            .join(".claude.weft-quarantine/settings.json")
            .exists()
    );
    assert_eq!(results[4], "exit code: 0\n--- stdout ---\nfine");
}

// --- Keys and pre-approved commands --------------------------------------------------------------

#[test]
fn the_configurations_keys_are_unreadable_in_the_sandbox() {
    let s = Sandbox::new();
    let config_path = s.root.join("config.json");
    let backup = s.outside("config.json~", "sk-in-the-backup");
    let env_outside = s.outside(".env", "TOKEN=outside");
    let calls = [
        (
            "exec_shell",
            json!({"command": format!("cat {}", config_path.display())}),
        ),
        (
            "exec_shell",
            json!({"command": format!("cat {}", backup.display())}),
        ),
        (
            "exec_shell",
            json!({"command": format!("cat {}", env_outside.display())}),
        ),
    ];
    let config = replay(&s, &calls, json!({"permissions": {"allow": ["Bash"]}}));
    run(&s, &config, &[]);
    let results = results(&s);
    let sandboxed = sandboxed_here(&s, &config);
    for (result, (_, input)) in results.iter().zip(&calls) {
        assert!(
            !result.contains("sk-in-the") && !result.contains("TOKEN="),
            "{result}"
        );
        if sandboxed {
            assert!(result.contains("Permission denied"), "{input}: {result}");
        } else {
            assert!(result.contains(PERSON_ONLY), "{result}");
        }
    }
}

#[test]
fn a_pre_approved_command_runs_in_the_sandbox() {
    let s = Sandbox::new();
    // A script the analyser sees as `sh ./status.sh` (code in files is seen as its program).
    s.file(
        "status.sh",
        &format!("echo status\necho pwned > {}/pwned\n", s.home.display()),
    );
    let config = replay(
        &s,
        &[("exec_shell", json!({"command": "sh ./status.sh"}))],
        json!({"permissions": {"allow": ["Bash(sh:*)"]}}),
    );
    run(&s, &config, &[]);
    let result = &results(&s)[0];
    assert!(!s.home.join("pwned").exists(), "{result}");
    if sandboxed_here(&s, &config) {
        assert_eq!(
            result,
            &format!(
                "exit code: 2\n--- stdout ---\nstatus\n--- stderr ---\n./status.sh: 2: cannot create {}/pwned: Permission denied",
                s.home.display()
            )
        );
    } else {
        assert!(result.contains(PERSON_ONLY), "{result}");
    }
}

// --- Read-only commands --------------------------------------------------------------------------

/// A read-only command runs without asking, in the read-only sandbox: a link committed in the
/// project to a file in the home directory reads nothing, and a program the repository's git
/// configuration names (which the judgement on the command's text cannot see) writes nothing,
/// not even in the project, and reads nothing of the home directory. Where this machine has no
/// sandbox, the same commands ask, and without a terminal they are refused.
#[test]
fn read_only_commands_run_without_asking_and_read_and_write_nothing_but_the_project() {
    let s = Sandbox::project_under_home();
    let secret = s.root.join("home/.config/secret.txt");
    sandbox::write(&secret, "SECRET-IN-HOME");
    s.file("src/main.rs", "fn main() {}");
    std::os::unix::fs::symlink(&secret, s.project.join("notes")).unwrap();
    let git = |args: &[&str]| {
        let status = Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@t"])
            .args(args)
            .current_dir(&s.project)
            .env("HOME", &s.home)
            .output()
            .unwrap();
        assert!(status.status.success(), "{status:?}");
    };
    git(&["init", "-q"]);
    git(&["add", "src", "notes"]);
    git(&["commit", "-qm", "first"]);
    // A checkout that brings its own configuration, naming a program `git status` runs.
    git(&[
        "config",
        "core.fsmonitor",
        &format!("echo ran > ran.txt; cat {} >&2; true", secret.display()),
    ]);
    let calls = [
        ("exec_shell", json!({"command": "cat src/main.rs | wc -c"})),
        ("exec_shell", json!({"command": "cat notes"})),
        ("exec_shell", json!({"command": "git status --short"})),
        (
            "exec_shell",
            json!({"command": "git log --oneline | wc -l"}),
        ),
    ];
    let config = replay(&s, &calls, json!({}));
    run(&s, &config, &[]);
    let results = results(&s);
    assert_eq!(results.len(), calls.len());
    for result in &results {
        assert!(!result.contains("SECRET-IN-HOME"), "{result}");
    }
    assert!(!s.project.join("ran.txt").exists());
    if !sandboxed_here(&s, &config) {
        for result in &results {
            assert!(result.contains(PERSON_ONLY), "{result}");
        }
        return;
    }
    assert_eq!(results[0], "exit code: 0\n--- stdout ---\n12");
    assert_eq!(
        results[1],
        "exit code: 1\n--- stderr ---\ncat: notes: Permission denied"
    );
    // git ran the configured program: its write and its read were refused.
    assert!(
        results[2].contains("ran.txt: Permission denied"),
        "{}",
        results[2]
    );
    assert!(
        results[2].contains(&format!("{}: Permission denied", secret.display())),
        "{}",
        results[2]
    );
    assert_eq!(results[3], "exit code: 0\n--- stdout ---\n1");
}

/// A `Read(...)` deny (here Claude Code's, in the project's settings) also keeps the read-only
/// commands that name the file from running without a person: `cat .env` and `head < .env`
/// ask like any command (and without a terminal are refused), while a read-only command that
/// names no denied file still runs.
#[test]
fn a_read_deny_keeps_read_only_commands_off_the_denied_file() {
    let s = Sandbox::project_under_home();
    s.file(".env", "TOPSECRET=hunter2\n");
    s.file("src/main.rs", "fn main() {}");
    s.file(
        ".claude/settings.json",
        r#"{"permissions": {"deny": ["Read(./.env)"]}}"#,
    );
    let calls = [
        ("exec_shell", json!({"command": "cat .env"})),
        ("exec_shell", json!({"command": "head -1 < ./src/../.env"})),
        ("exec_shell", json!({"command": "cat src/main.rs | wc -c"})),
    ];
    let config = replay(&s, &calls, json!({}));
    // Refused calls end the run with exit status 4 (no terminal to ask on).
    let output = weft(&s, &config, &[]).output().unwrap();
    assert_eq!(output.status.code(), Some(4), "{output:?}");
    let results = results(&s);
    assert_eq!(results.len(), calls.len());
    for result in &results[..2] {
        assert!(!result.contains("hunter2"), "{result}");
        assert!(result.starts_with("approval needed: "), "{result}");
        assert!(result.contains("The tool did not run"), "{result}");
    }
    if sandboxed_here(&s, &config) {
        assert_eq!(results[2], "exit code: 0\n--- stdout ---\n12");
    } else {
        assert!(results[2].contains(PERSON_ONLY), "{}", results[2]);
    }
}
