//! Claude Code's `.claude/commands`: every `*.md` below a commands root is a skill named by
//! its path, read as hostile input (a FIFO, a link out of the root, a link cycle and a name
//! outside `[A-Za-z0-9_-]` are reported, never followed or waited on), and a skill of the
//! same name wins over a command whatever the roots' order. Also: disabled skills.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use weft_registry::{RegistryConfig, SkillRegistry, SkillRoot};
use weft_types::{Scope, SkillFormat};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn commands_are_namespaced_skills_and_traps_are_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let commands = tmp.path().join("commands");
    write(&commands.join("deploy.md"), "Deploy the app.\n");
    write(
        &commands.join("frontend/test.md"),
        "---\ndescription: Run the tests\nname: ignored\n---\nRun $ARGUMENTS.\n",
    );
    write(&commands.join("notes.txt"), "not a command\n");
    write(&commands.join("bad name.md"), "spaces\n");
    write(&tmp.path().join("secret.md"), "outside the root\n");
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(tmp.path().join("secret.md"), commands.join("leak.md")).unwrap();
        std::os::unix::fs::symlink(&commands, commands.join("frontend/loop")).unwrap();
        let fifo = commands.join("fifo.md");
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
    }
    let registry = SkillRegistry::new(RegistryConfig {
        builtins: false,
        ..RegistryConfig::with_roots(vec![SkillRoot::commands(&commands, Scope::Project)])
    });
    let snapshot = registry.snapshot();
    let names: Vec<&str> = snapshot.entries().iter().map(|e| e.name()).collect();
    assert_eq!(names, ["deploy", "frontend:test"]);
    let test = snapshot.get("frontend:test").unwrap();
    assert_eq!(test.skill.source.format, SkillFormat::Command);
    assert_eq!(test.skill.description, "Run the tests");
    assert_eq!(test.body().unwrap().text, "Run $ARGUMENTS.");
    assert_eq!(
        snapshot.get("deploy").unwrap().skill.description,
        "Deploy the app."
    );
    let codes: Vec<&str> = snapshot
        .diagnostics()
        .iter()
        .map(|d| d.code.as_str())
        .collect();
    assert!(codes.contains(&"W187"), "{codes:?}");
    #[cfg(unix)]
    {
        assert!(codes.contains(&"E018"), "{codes:?}");
        assert!(codes.contains(&"E019"), "{codes:?}");
    }
}

#[test]
fn a_skill_wins_over_a_command_whatever_the_order_and_disabled_skills_are_set_aside() {
    let tmp = tempfile::tempdir().unwrap();
    let commands = tmp.path().join("commands");
    let skills = tmp.path().join("skills");
    write(&commands.join("deploy.md"), "Deploy (command).\n");
    write(
        &skills.join("deploy/SKILL.md"),
        "---\nname: deploy\ndescription: Deploy (skill)\n---\nGo.\n",
    );
    write(
        &skills.join("off/SKILL.md"),
        "---\nname: off\ndescription: Switched off\n---\nNo.\n",
    );
    let mut config = RegistryConfig::with_roots(vec![
        SkillRoot::commands(&commands, Scope::Project),
        SkillRoot::new(&skills, Scope::User),
    ]);
    config.builtins = false;
    config.disabled.insert("off".to_owned());
    let snapshot = SkillRegistry::new(config).snapshot();
    let deploy = snapshot.get("deploy").unwrap();
    assert_eq!(deploy.skill.description, "Deploy (skill)");
    assert_eq!(deploy.shadows[0].format, SkillFormat::Command);
    assert!(snapshot.diagnostics().iter().any(|d| d.code == "W186"));
    assert!(snapshot.get("off").is_none());
    assert_eq!(snapshot.disabled()[0].name(), "off");
    assert!(
        !snapshot
            .catalog(Default::default(), 16_000)
            .text
            .contains("off")
    );
}

/// Directory links under a commands root stay inside it, the root itself inside its
/// boundary; names that are not UTF-8 are reported; the walk shares the discovery's limit.
#[cfg(unix)]
#[test]
fn command_directory_links_stay_inside_the_root_and_nothing_is_skipped_in_silence() {
    use std::os::unix::ffi::OsStrExt as _;
    use std::os::unix::fs::symlink;

    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    write(&home.join("notes/secret.md"), "My bank PIN is 4321\n");
    let project = tmp.path().join("project");
    let commands = project.join(".claude/commands");
    write(&commands.join("deploy.md"), "Deploy.\n");
    write(&commands.join("inner/real/go.md"), "Go.\n");
    symlink(&home, commands.join("h")).unwrap();
    symlink("/", commands.join("r")).unwrap();
    // A link that stays inside the root is followed (the real directory is listed once).
    symlink("inner/real", commands.join("alias")).unwrap();
    let odd = std::ffi::OsStr::from_bytes(b"odd-\xff");
    write(&commands.join(odd).join("x.md"), "In an odd folder.\n");
    write(
        &commands.join(std::ffi::OsStr::from_bytes(b"odd-\xfe.md")),
        "An odd file.\n",
    );
    let registry = SkillRegistry::new(RegistryConfig {
        builtins: false,
        ..RegistryConfig::with_roots(vec![SkillRoot::commands(&commands, Scope::Project)])
    });
    let snapshot = registry.snapshot();
    let names: Vec<&str> = snapshot.entries().iter().map(|e| e.name()).collect();
    assert_eq!(names, ["alias:go", "deploy"]);
    let real = |p: &Path| std::fs::canonicalize(p).unwrap().display().to_string();
    let shown: Vec<String> = snapshot
        .diagnostics()
        .iter()
        .map(|d| format!("{} {} @ {}", d.code, d.message, d.location().unwrap()))
        .collect();
    let c = commands.display().to_string();
    assert_eq!(
        shown,
        [
            format!(
                "E018 refused: the directory is a symbolic link to {}, outside {}; it is not followed @ {c}/h",
                real(&home),
                real(&commands)
            ),
            format!(
                "W185 file name is not valid UTF-8 ({c}/odd-\u{fffd}.md); it cannot name a command and is not read @ {c}/odd-\u{fffd}.md"
            ),
            format!(
                "W185 directory name is not valid UTF-8 ({c}/odd-\u{fffd}); it cannot name a command and is not entered @ {c}/odd-\u{fffd}"
            ),
            format!(
                "E018 refused: the directory is a symbolic link to /, outside {}; it is not followed @ {c}/r",
                real(&commands)
            ),
        ]
    );

    // The root itself may not lead out of its boundary (an untrusted project).
    let elsewhere = project.join(".claude/elsewhere");
    std::fs::create_dir_all(project.join(".claude")).unwrap();
    symlink(&home, &elsewhere).unwrap();
    let registry = SkillRegistry::new(RegistryConfig {
        builtins: false,
        ..RegistryConfig::with_roots(vec![
            SkillRoot::commands(&elsewhere, Scope::Project).within(Some(project.clone())),
        ])
    });
    let snapshot = registry.snapshot();
    assert!(snapshot.entries().is_empty());
    assert_eq!(snapshot.diagnostics().len(), 1);
    assert_eq!(snapshot.diagnostics()[0].code, "E018");

    // The walk counts against the discovery's directory limit.
    let mut config = RegistryConfig::with_roots(vec![SkillRoot::commands(&commands, Scope::User)]);
    config.builtins = false;
    config.walk.max_dirs = 2;
    let snapshot = SkillRegistry::new(config).snapshot();
    assert!(snapshot.diagnostics().iter().any(|d| d.code == "W184"));
}
