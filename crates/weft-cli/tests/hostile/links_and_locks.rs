//! The traps an audit of the first round found: directory links out of `.claude/commands`
//! and `.claude/skills` (to the home directory, to `/`), lockfiles and the staging lock that
//! are FIFOs or links to `/dev/zero` and `/proc/self/environ`, agent and command names that
//! are not UTF-8, and a project skill overriding the user's shown without `-v`.

use super::checkout::{Checkout, listed_names};
use super::hostile;

#[test]
fn directory_links_out_of_the_project_and_the_commands_root_are_refused() {
    let c = Checkout::new();
    let list = c.weft(&["skills", "list", "-v", "--format", "json"]);
    assert_eq!(list.code, 0, "{}", list.stderr);
    let real = |p: &std::path::Path| std::fs::canonicalize(p).unwrap().display().to_string();
    let checkout = real(c.dir());
    let commands = real(&c.dir().join(".claude/commands"));
    for (link, target, root) in [
        (".claude/skills/root", "/".to_owned(), &checkout),
        (".claude/skills/sys", "/sys".to_owned(), &checkout),
        (".claude/commands/h", real(c.home()), &commands),
        (".claude/commands/r", "/".to_owned(), &commands),
    ] {
        let expected = format!(
            "error[E018]: refused: the directory is a symbolic link to {target}, outside {root}; it is not followed\n --> {}\n",
            c.path(link)
        );
        assert!(
            list.stderr.contains(&expected),
            "{expected}\n{}",
            list.stderr
        );
    }
    // The commands root holds one command of its own; nothing from home or `/` is one.
    let names = listed_names(&list.stdout);
    assert!(names.iter().any(|n| n == "deploy"), "{names:?}");
    assert!(
        !names
            .iter()
            .any(|n| n.starts_with("h:") || n.starts_with("r:")),
        "{names:?}"
    );
    // Nor does the home's secret reach the system prompt (checked by every run).
    let run = c.weft(&[
        "--config",
        &c.replay_config(),
        "agent",
        "--dry-run",
        "-m",
        "hi",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // `validate` of the project's skills stays inside the project too.
    let validate = c.weft(&["skills", "validate", ".claude/skills"]);
    assert!(
        validate.stdout.contains(&format!(
            "error[E018]: refused: the directory is a symbolic link to /, outside {checkout}; it is not followed\n"
        )),
        "{}",
        validate.stdout
    );
    // Trusting the project follows its skill links again (the commands root stays
    // confined): the walk of `/` is then bounded by the directory limit. (Without the
    // project's configuration, whose unknown key a trusted project may not have.)
    std::fs::remove_file(c.dir().join(".clawft/config.json")).unwrap();
    let trusted = c.weft(&["--trust-project", "skills", "list", "-v"]);
    assert!(
        !trusted.stderr.contains(".claude/skills/root\n"),
        "{}",
        trusted.stderr
    );
    assert!(
        trusted
            .stderr
            .contains(&format!(" --> {}\n", c.path(".claude/commands/h")))
    );
}

#[test]
fn lockfiles_and_the_staging_lock_that_are_not_files_are_refused_at_once() {
    let c = Checkout::new();
    let lock = c.path(".clawft/skills.lock");
    let fifo = format!("cannot read {lock}: is a FIFO (named pipe), not a regular file");
    // Listing goes on, with a warning; verify and install from the lockfile stop.
    let list = c.weft(&["skills", "list"]);
    assert_eq!(list.code, 0, "{}", list.stderr);
    assert!(
        list.stderr.contains(&format!(
            "warning: {fifo}; installed skills are not marked (weft skills verify says more)\n"
        )),
        "{}",
        list.stderr
    );
    for args in [&["skills", "verify"][..], &["skills", "install"]] {
        let out = c.weft(args);
        assert_eq!(out.code, 1, "{args:?}: {}", out.stderr);
        assert!(
            out.stderr.ends_with(&format!("error: {fifo}\n")),
            "{args:?}: {}",
            out.stderr
        );
    }
    // The staging lock: `remove` takes it first and is refused at once.
    let remove = c.weft(&["skills", "remove", "anything"]);
    assert_eq!(remove.code, 1, "{}", remove.stderr);
    assert!(
        remove.stderr.ends_with(&format!(
            "error: refused: the lock file {}: is a FIFO (named pipe), not a regular file\n",
            c.path(".clawft/.staging/lock")
        )),
        "{}",
        remove.stderr
    );
    // Links to a device and to the process's environment: refused, never read.
    for (dir, target) in [("lock-zero", "/dev/zero"), ("lock-environ", "/proc/")] {
        let list = c.weft_in(dir, &["skills", "list"]);
        assert_eq!(list.code, 0, "{dir}: {}", list.stderr);
        let verify = c.weft_in(dir, &["skills", "verify"]);
        assert_eq!(verify.code, 1, "{dir}: {}", verify.stderr);
        let expected = format!(
            "cannot read {}: is a symbolic link to {target}",
            c.path(&format!("{dir}/.clawft/skills.lock"))
        );
        assert!(
            list.stderr.contains(&format!("warning: {expected}")),
            "{dir}: {}",
            list.stderr
        );
        assert!(
            verify.stderr.contains(&format!("error: {expected}")),
            "{dir}: {}",
            verify.stderr
        );
    }
}

#[test]
fn command_and_agent_names_that_are_not_utf8_are_reported() {
    let c = Checkout::new();
    let lossy =
        |rel: &str, name: &[u8]| format!("{}/{}", c.path(rel), String::from_utf8_lossy(name));
    let command = lossy(".claude/commands", hostile::NON_UTF8_COMMAND);
    let list = c.weft(&["skills", "list", "-v"]);
    assert!(
        list.stderr.contains(&format!(
            "warning[W185]: file name is not valid UTF-8 ({command}); it cannot name a command and is not read\n --> {command}\n"
        )),
        "{}",
        list.stderr
    );
    let agent = lossy(".clawft/agents", hostile::NON_UTF8_AGENT);
    let agents = c.weft(&["agents", "list", "-v"]);
    assert!(
        agents.stderr.contains(&format!(
            "warning[W185]: file name is not valid UTF-8 ({agent}); it cannot name an agent and is not read\n --> {agent}\n"
        )),
        "{}",
        agents.stderr
    );
}

#[test]
fn a_project_skill_overriding_the_users_is_shown_without_v() {
    let c = Checkout::new();
    let expected = format!(
        "project skill `trusted` overrides the user skill at {} (--trust-project silences this)",
        c.home_path(".claude/skills/trusted/SKILL.md")
    );
    let list = c.weft(&["skills", "list"]);
    assert!(
        list.stderr.contains(&format!(
            "warning[W181]: {expected}\n --> {}\n",
            c.path(".clawft/skills/trusted/SKILL.md")
        )),
        "{}",
        list.stderr
    );
    let run = c.weft(&[
        "--config",
        &c.replay_config(),
        "agent",
        "--dry-run",
        "-m",
        "hi",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains(&expected), "{}", run.stderr);
    std::fs::remove_file(c.dir().join(".clawft/config.json")).unwrap();
    let trusted = c.weft(&["--trust-project", "skills", "list"]);
    assert!(!trusted.stderr.contains("W181"), "{}", trusted.stderr);
}
