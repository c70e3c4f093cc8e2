//! A team sharing plugins through its repository: what one person installs for the project
//! is pinned in the committed `.clawft/plugins.lock`, and a teammate with another home
//! directory and only the committed files installs exactly that commit, after agreeing, and
//! never while the project is untrusted.

use std::path::{Path, PathBuf};

use super::*;

/// `weft` with `home` and `project` of the caller's choosing (a teammate's).
fn weft_as(s: &Sandbox, home: &Path, project: &Path, args: &[&str]) -> Output {
    s.bare()
        .env("HOME", home)
        .arg("--home")
        .arg(home)
        .arg("--project")
        .arg(project)
        .args(args)
        .output()
        .unwrap()
}

/// What a teammate's clone of the project holds: the committed files only (the fetched
/// trees are ignored by git).
fn clone_project(s: &Sandbox, files: &[&str]) -> PathBuf {
    let clone = s.dir("teammate-project");
    for file in files {
        let from = s.project.join(file);
        let to = clone.join(file);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(&from, &to).unwrap();
    }
    clone
}

#[test]
fn a_teammate_installs_the_pinned_commit_from_the_lockfile_after_agreeing() {
    let s = Sandbox::new();
    let repo = fmt_for_project(&s);
    let lock_path = s.project.join(".clawft/plugins.lock");
    let lock = json_file(&lock_path);
    let pinned = lock["plugins"]["fmt@acme"]["commit"]
        .as_str()
        .unwrap()
        .to_owned();
    let settings = json_file(&s.project.join(".claude/settings.json"));
    assert_eq!(settings["enabledPlugins"]["fmt@acme"], true);
    assert_eq!(
        settings["extraKnownMarketplaces"]["acme"]["source"]["url"],
        repo.url.as_str()
    );
    // What weft fetched is kept out of commits.
    assert!(s.project.join(".clawft/plugins/.gitignore").is_file());

    // The marketplace moves on after the pin.
    write(
        &repo.work.join("plugins/fmt/skills/lint/SKILL.md"),
        "---\nname: lint\ndescription: A newer lint the team has not agreed to\n---\nNewer.\n",
    );
    repo.push("fmt 2");

    // The teammate: another home, a clone with the lockfile alone.
    let home = s.dir("teammate-home");
    let project = clone_project(&s, &[".clawft/plugins.lock"]);
    // `weft [--trust-project] plugin install --scope project [--yes]` as the teammate.
    let install = |trust: bool, yes: bool| {
        let mut args = vec!["plugin", "install", "--scope", "project"];
        if trust {
            args.insert(0, "--trust-project");
        }
        if yes {
            args.push("--yes");
        }
        weft_as(&s, &home, &project, &args)
    };
    let untrusted = install(false, true);
    assert_eq!(code(&untrusted), 1, "{}", both(&untrusted));
    assert!(!project.join(".clawft/plugins/cache").exists());
    let unasked = install(true, false);
    assert_eq!(code(&unasked), 1, "{}", both(&unasked));
    assert!(!project.join(".clawft/plugins/cache").exists());
    let agreed = install(true, true);
    assert_eq!(code(&agreed), 0, "{}", both(&agreed));
    snapshot!(
        s,
        "teammate_from_lock",
        &runs(&[
            (
                "plugin install --scope project --yes (untrusted)",
                &untrusted
            ),
            ("--trust-project plugin install --scope project", &unasked),
            (
                "--trust-project plugin install --scope project --yes",
                &agreed
            ),
        ])
    );
    let theirs = json_file(&project.join(".clawft/plugins.lock"));
    assert_eq!(theirs["plugins"]["fmt@acme"]["commit"], pinned.as_str());
    assert_eq!(
        theirs["plugins"]["fmt@acme"]["tree_sha256"],
        lock["plugins"]["fmt@acme"]["tree_sha256"]
    );
    let skill = std::fs::read_to_string(
        project.join(".clawft/plugins/cache/acme/fmt/skills/lint/SKILL.md"),
    )
    .unwrap();
    assert!(
        skill.contains("Lint the code with the plugin linter"),
        "{skill}"
    );
    let listed = stdout(&weft_as(
        &s,
        &home,
        &project,
        &["--trust-project", "skills", "list"],
    ));
    assert!(listed.contains("fmt:lint"), "{listed}");
    assert!(!listed.contains("has not agreed"), "{listed}");
    // Nothing went to the teammate's own store.
    assert!(!home.join(".clawft/plugins.lock").exists());
    // Run again: nothing left to install.
    let again = install(true, true);
    assert_eq!(code(&again), 0, "{}", both(&again));
    assert_eq!(
        stdout(&again),
        "Every plugin the project declares is installed.\n"
    );
}
