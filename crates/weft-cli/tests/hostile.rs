//! Issue 13, items 1, 2 and 7, through the real binary inside the hostile checkout that
//! `cargo xtask hostile-checkout` lays out (the same generator, included below). Every command
//! runs under a deadline: a regression that blocks on a FIFO fails the test instead of
//! hanging it.

#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used, dead_code)]

use std::fs::{File, FileTimes};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The generator of `cargo xtask hostile-checkout`.
#[path = "../../../xtask/src/hostile.rs"]
mod hostile;

/// A canary in the environment: it must never reach any output, cache or request.
const CANARY: &str = "sk-hostile-canary-7f3a9c";

/// Long enough for a debug build on a busy machine; a FIFO would block forever.
const DEADLINE: Duration = Duration::from_secs(120);

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// What a finished command left behind.
struct Outcome {
    code: i32,
    stdout: String,
    stderr: String,
}

/// A hostile checkout in a temporary directory, with a scratch home.
struct Checkout {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    home: PathBuf,
}

impl Checkout {
    /// The checkout without the links to `/` and `/sys`, whose walks depend on the machine
    /// (tested on their own below).
    fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("checkout");
        let home = tmp.path().join("home");
        std::fs::create_dir_all(&home).unwrap();
        hostile::generate(&root, false).unwrap();
        for link in ["root", "sys"] {
            std::fs::remove_file(root.join(".claude/skills").join(link)).unwrap();
        }
        Self {
            _tmp: tmp,
            root,
            home,
        }
    }

    /// Runs `weft args...` in `dir` (relative to the checkout) with the canary in the
    /// environment, failing the test if it does not finish before the deadline.
    fn weft_in(&self, dir: &str, args: &[&str]) -> Outcome {
        let out_path = self.home.join("stdout");
        let err_path = self.home.join("stderr");
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("weft"))
            .arg("--home")
            .arg(&self.home)
            .args(args)
            .current_dir(self.root.join(dir))
            .env("OPENAI_API_KEY", CANARY)
            .env_remove("CLAWFT_PROJECT")
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .stdout(File::create(&out_path).unwrap())
            .stderr(File::create(&err_path).unwrap())
            .spawn()
            .unwrap();
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if started.elapsed() > DEADLINE {
                let _ = child.kill();
                let _ = child.wait();
                panic!("`weft {}` in {dir} did not finish", args.join(" "));
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let outcome = Outcome {
            code: status.code().unwrap_or(-1),
            stdout: std::fs::read_to_string(&out_path).unwrap(),
            stderr: std::fs::read_to_string(&err_path).unwrap(),
        };
        assert!(
            !outcome.stdout.contains(CANARY) && !outcome.stderr.contains(CANARY),
            "the environment leaked from `weft {}`",
            args.join(" ")
        );
        outcome
    }

    fn weft(&self, args: &[&str]) -> Outcome {
        self.weft_in(".", args)
    }

    fn path(&self, rel: &str) -> String {
        self.root.join(rel).display().to_string()
    }

    fn replay_config(&self) -> String {
        repo()
            .join("fixtures/replay/config.json")
            .display()
            .to_string()
    }
}

/// The name of each skill `skills list --format json` printed.
fn listed_names(stdout: &str) -> Vec<String> {
    let items: serde_json::Value = serde_json::from_str(stdout).unwrap();
    items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["name"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn item_1_only_regular_files_are_read_and_each_is_capped() {
    let c = Checkout::new();
    // A FIFO named SKILL.md and a link to /dev/zero: refused with a diagnostic, never read.
    let list = c.weft(&["skills", "list", "-v", "--format", "json"]);
    assert_eq!(list.code, 0, "{}", list.stderr);
    assert!(list.stderr.contains(&format!(
        "error[E019]: refused: the file is a FIFO (named pipe), not a regular file\n --> {}\n",
        c.path(".claude/skills/fifo/SKILL.md")
    )));
    assert!(list.stderr.contains(&format!(
        "error[E018]: refused: the file is a symbolic link to /dev/zero, outside {}\n --> {}\n",
        c.path(".claude/skills/zero"),
        c.path(".claude/skills/zero/SKILL.md")
    )));
    let names = listed_names(&list.stdout);
    assert!(!names.iter().any(|n| n == "fifo" || n == "zero"));
    assert!(names.iter().any(|n| n == "plain"));

    for target in [".claude/skills/fifo", ".claude/skills/fifo/SKILL.md"] {
        let validate = c.weft(&["skills", "validate", target]);
        assert_eq!(validate.code, 1);
        let refused = "error[E019]: refused: the file is a FIFO (named pipe), not a regular file\n";
        assert!(
            validate.stdout.starts_with(refused),
            "{target}: {}",
            validate.stdout
        );
    }

    // Agent files: the FIFO and the /dev/zero link are refused, the built-ins stay.
    let agents = c.weft(&["agents", "list"]);
    assert_eq!(agents.code, 0, "{}", agents.stderr);
    assert!(agents.stderr.contains(&format!(
        "error[E019]: refused: the file is a FIFO (named pipe), not a regular file\n --> {}\n",
        c.path(".clawft/agents/x.md")
    )));
    assert!(agents.stderr.contains(&format!(
        "error[E018]: refused: the file is a symbolic link to /dev/zero, outside {}\n --> {}\n",
        c.path(".clawft/agents"),
        c.path(".clawft/agents/zero.md")
    )));
    let run = c.weft(&[
        "--config",
        &c.replay_config(),
        "agent",
        "--dry-run",
        "-m",
        "hi",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);

    // config.json as a FIFO or a device: a clear error, at once.
    for (dir, kind) in [
        ("config-fifo", "is a FIFO (named pipe), not a regular file"),
        ("config-zero", "is a character device, not a regular file"),
    ] {
        let out = c.weft_in(dir, &["agents", "list"]);
        // A configuration that cannot be used is a configuration error: exit status 2.
        assert_eq!(out.code, 2, "{dir}");
        assert_eq!(
            out.stderr,
            format!(
                "error: {}: cannot read: {kind}\n",
                c.path(&format!("{dir}/.clawft/config.json"))
            )
        );
    }

    // Regular files past their kind's cap.
    let big_config = c.root.join("config-big/.clawft/config.json");
    std::fs::create_dir_all(big_config.parent().unwrap()).unwrap();
    std::fs::write(&big_config, vec![b' '; 1024 * 1024 + 1]).unwrap();
    let out = c.weft_in("config-big", &["agents", "list"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .ends_with("cannot read: is larger than the 1 MiB limit for config files\n"),
        "{}",
        out.stderr
    );
    std::fs::write(
        c.root.join(".clawft/agents/huge.md"),
        vec![b'a'; 256 * 1024 + 1],
    )
    .unwrap();
    let agents = c.weft(&["agents", "list"]);
    assert!(agents.stderr.contains(&format!(
        "error[E004]: file is larger than the 256 KiB limit for agent files; it was not read\n --> {}\n",
        c.path(".clawft/agents/huge.md")
    )));
}

#[test]
fn item_2_links_stay_inside_their_root_and_each_directory_is_walked_once() {
    let c = Checkout::new();
    // SKILL.md and default.md -> /proc/self/environ: refused, and the canary (checked by
    // every run) appears nowhere: not in the listing, the request, or the cache.
    let list = c.weft(&["skills", "list", "-v", "--format", "json"]);
    assert_eq!(list.code, 0, "{}", list.stderr);
    let refused = format!("\n --> {}\n", c.path(".claude/skills/helper/SKILL.md"));
    assert!(list.stderr.contains(&refused), "{}", list.stderr);
    assert!(
        list.stderr
            .contains("error[E018]: refused: the file is a symbolic link to /proc/")
    );
    let cache = std::fs::read(c.home.join(".clawft/cache/skills.cache")).unwrap();
    assert!(!String::from_utf8_lossy(&cache).contains(CANARY));
    let run = c.weft(&[
        "--config",
        &c.replay_config(),
        "agent",
        "--dry-run",
        "-m",
        "hi",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("\"agent\": \"default\""));
    let show = c.weft(&["agents", "show", "default"]);
    assert!(show.stdout.contains("built-in"), "{}", show.stdout);
    let agents = c.weft(&["agents", "list"]);
    assert!(
        agents
            .stderr
            .contains(&format!(" --> {}\n", c.path(".clawft/agents/default.md")))
    );
    let config = c.weft_in("config-environ", &["agents", "list"]);
    assert_eq!(config.code, 2);
    assert!(
        config
            .stderr
            .ends_with("cannot read: is on a pseudo-filesystem (proc), not a regular file\n")
    );

    // The ladder: 84 links, 12^6 paths, one skill found once.
    let names = listed_names(&list.stdout);
    assert_eq!(names.iter().filter(|n| *n == "ladder-top").count(), 1);

    // A root given twice is read once: no shadowing of a skill by itself.
    let twice = c.weft(&[
        "--skills-dir",
        ".claude/skills/ladder",
        "--skills-dir",
        ".claude/skills/ladder",
        "skills",
        "list",
        "--all",
        "-v",
    ]);
    assert!(!twice.stderr.contains("W182"), "{}", twice.stderr);
    assert_eq!(twice.stdout.matches("ladder-top").count(), 1);
}

#[cfg(target_os = "linux")]
#[test]
fn item_2_validate_given_links_to_slash_and_sys_finishes_with_a_warning() {
    let tmp = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink("/sys", tmp.path().join("sys")).unwrap();
    std::os::unix::fs::symlink("/", tmp.path().join("root")).unwrap();
    let c = Checkout::new();
    let sys = tmp.path().join("sys").display().to_string();
    let out = c.weft(&["skills", "validate", &sys]);
    assert!(
        out.stdout.contains(&format!(
            "warning[W019]: directory not entered: it is on a pseudo-filesystem (sysfs)\n --> {sys}\n"
        )),
        "{}",
        out.stdout
    );
    // The whole machine: bounded by the walk limit, /proc and /sys never entered.
    let root = tmp.path().join("root").display().to_string();
    let out = c.weft(&["skills", "validate", &root]);
    assert!(out.stdout.contains(&format!(
        "warning[W019]: directory not entered: it is on a pseudo-filesystem (proc)\n --> {root}/proc\n"
    )));
    assert!(out.stdout.contains(" skills: "));
}

/// Rewrites `path` with `text` and puts its modification time back.
fn rewrite_keeping_mtime(path: &Path, text: &str) {
    let modified = std::fs::metadata(path).unwrap().modified().unwrap();
    std::fs::write(path, text).unwrap();
    File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_times(FileTimes::new().set_modified(modified))
        .unwrap();
}

#[test]
fn item_7_nothing_stale_nothing_silent() {
    let c = Checkout::new();
    // Older than the cache's one-second racy window, so the entry is trusted.
    std::thread::sleep(Duration::from_millis(1_100));
    let check = ["skills", "check-tool", "Bash", "--skills", "rewrite-me"];
    let allowed = c.weft(&check);
    assert_eq!((allowed.code, allowed.stdout.as_str()), (0, "allowed\n"));
    let skill = c.root.join(".claude/skills/rewrite-me/SKILL.md");
    let before = std::fs::metadata(&skill).unwrap();
    rewrite_keeping_mtime(&skill, hostile::REWRITTEN_SKILL);
    let after = std::fs::metadata(&skill).unwrap();
    assert_eq!(
        (before.len(), before.modified().unwrap()),
        (after.len(), after.modified().unwrap())
    );
    let denied = c.weft(&check);
    assert_eq!(denied.code, 1);
    assert_eq!(
        denied.stdout,
        "denied: `Bash` is not in the tools allowed by skill 'rewrite-me' (allowed: Read)\n"
    );

    // Invalid UTF-8 after the first 4 KiB: not listed, not in the catalog, and `show` says
    // why.
    let list = c.weft(&["skills", "list", "-v", "--format", "json"]);
    assert!(!listed_names(&list.stdout).iter().any(|n| n == "late-utf8"));
    let late = c.path(".claude/skills/late-utf8/SKILL.md");
    assert!(list.stderr.contains(&format!(
        "error[E001]: file is not valid UTF-8: invalid byte sequence at byte 5000\n --> {late}:182:1\n"
    )));
    let catalog = c.weft(&["skills", "catalog"]);
    assert!(!catalog.stdout.contains("late-utf8"));
    let show = c.weft(&["skills", "show", "late-utf8"]);
    assert_eq!(show.code, 1);
    assert!(
        show.stderr
            .starts_with("error[E001]: file is not valid UTF-8")
    );

    // A directory name that is not UTF-8: a warning with the lossy path.
    let bad = c.path(".claude/skills/bad-\u{fffd}-name");
    assert!(list.stderr.contains(&format!(
        "warning[W185]: directory name is not valid UTF-8 ({bad}); it cannot name a skill and is not entered\n --> {bad}\n"
    )));
}
