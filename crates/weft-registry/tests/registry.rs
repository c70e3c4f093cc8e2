//! The registry end to end on real directories: seed 002 section 5.3, precedence across every
//! scope and both `.clawft` and `.claude` roots, lazy bodies, resources, gating, and
//! concurrent readers during overrides.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use weft_registry::{
    HostEnvironment, RegistryConfig, SkillError, SkillOrigin, SkillRegistry, SkillRoot,
};
use weft_types::{Scope, Skill, SkillFormat};

fn create_skill_md(root: &Path, name: &str, text: &str) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("SKILL.md"), text).unwrap();
    dir
}

fn create_legacy_skill(root: &Path, name: &str, description: &str, prompt: Option<&str>) {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("skill.json"),
        format!(r#"{{"name": "{name}", "description": "{description}"}}"#),
    )
    .unwrap();
    if let Some(p) = prompt {
        std::fs::write(dir.join("prompt.md"), p).unwrap();
    }
}

fn registry(roots: Vec<SkillRoot>) -> SkillRegistry {
    SkillRegistry::new(RegistryConfig {
        builtins: false,
        ..RegistryConfig::with_roots(roots)
    })
}

fn codes(registry: &SkillRegistry) -> Vec<String> {
    registry
        .snapshot()
        .diagnostics()
        .iter()
        .map(|d| d.code.clone())
        .collect()
}

// --- seed 002 section 5.3 -----------------------------------------------------------------

#[test]
fn skill_registry_discovers_skill_md() {
    let tmp = tempfile::tempdir().unwrap();
    create_skill_md(
        tmp.path(),
        "my-skill",
        "---\nname: my-skill\ndescription: Test\n---\n\nPrompt.",
    );
    let registry = registry(vec![SkillRoot::new(tmp.path(), Scope::User)]);
    let skills = registry.list();
    assert_eq!(skills.len(), 1);
    assert_eq!(skills[0].skill.name, "my-skill");
    assert_eq!(skills[0].skill.source.format, SkillFormat::SkillMd);
}

#[test]
fn skill_registry_discovers_legacy() {
    let tmp = tempfile::tempdir().unwrap();
    create_legacy_skill(
        tmp.path(),
        "old-skill",
        "Old skill desc",
        Some("prompt text"),
    );
    let registry = registry(vec![SkillRoot::new(tmp.path(), Scope::User)]);
    let skills = registry.list();
    assert_eq!(skills.len(), 1);
    assert_eq!(skills[0].skill.name, "old-skill");
    assert_eq!(skills[0].skill.source.format, SkillFormat::Legacy);
    assert_eq!(registry.body("old-skill").unwrap().text, "prompt text");
}

#[test]
fn skill_registry_skill_md_takes_precedence_over_json() {
    let tmp = tempfile::tempdir().unwrap();
    create_skill_md(
        tmp.path(),
        "dual",
        "---\nname: dual\ndescription: From SKILL.md\n---\n\nMD prompt.",
    );
    create_legacy_skill(tmp.path(), "dual", "From skill.json", Some("JSON prompt."));
    let registry = registry(vec![SkillRoot::new(tmp.path(), Scope::User)]);
    let skill = registry.get("dual").unwrap();
    assert_eq!(skill.skill.source.format, SkillFormat::SkillMd);
    assert_eq!(skill.skill.description, "From SKILL.md");
    assert_eq!(registry.body("dual").unwrap().text, "MD prompt.");
}

#[test]
fn skill_registry_higher_priority_wins() {
    let project = tempfile::tempdir().unwrap();
    let user = tempfile::tempdir().unwrap();
    create_skill_md(
        project.path(),
        "shared",
        "---\nname: shared\ndescription: Project version\n---\n\nProject.",
    );
    create_skill_md(
        user.path(),
        "shared",
        "---\nname: shared\ndescription: User version\n---\n\nUser.",
    );
    let registry = registry(vec![
        SkillRoot::new(project.path(), Scope::Project),
        SkillRoot::new(user.path(), Scope::User),
    ]);
    let skill = registry.get("shared").unwrap();
    assert_eq!(skill.skill.description, "Project version");
    assert_eq!(skill.shadows.len(), 1);
    assert_eq!(skill.shadows[0].scope, Scope::User);
    // SEC-SKILL-06: the override is reported.
    assert_eq!(codes(&registry), ["W181"]);
}

#[test]
fn skill_registry_empty_when_no_dirs_exist() {
    let registry = registry(vec![SkillRoot::new("/nonexistent/path", Scope::User)]);
    assert!(registry.list().is_empty());
    assert!(registry.snapshot().diagnostics().is_empty());
}

// --- precedence across every scope -----------------------------------------------------------

#[test]
fn precedence_across_every_scope_and_both_roots() {
    let proj = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let extra = tempfile::tempdir().unwrap();
    let p = proj.path();
    let h = home.path();
    let skill =
        |desc: &str, name: &str| format!("---\nname: {name}\ndescription: {desc}\n---\nBody\n");
    // `everywhere` exists in every root; each lower root has one more unique skill.
    let roots = [
        (p.join(".clawft/skills"), Scope::Project, "project clawft"),
        (p.join(".claude/skills"), Scope::Project, "project claude"),
        (p.join(".agents/skills"), Scope::Project, "project agents"),
        (h.join(".clawft/skills"), Scope::User, "user clawft"),
        (h.join(".claude/skills"), Scope::User, "user claude"),
        (h.join(".agents/skills"), Scope::User, "user agents"),
        (
            h.join(".clawft/workspace/skills"),
            Scope::Workspace,
            "workspace",
        ),
        (extra.path().to_path_buf(), Scope::Plugin, "plugin"),
    ];
    for (i, (dir, _, desc)) in roots.iter().enumerate() {
        create_skill_md(dir, "everywhere", &skill(desc, "everywhere"));
        create_skill_md(
            dir,
            &format!("only-{i}"),
            &skill(desc, &format!("only-{i}")),
        );
    }
    // A project skill with a built-in's name.
    create_skill_md(
        &p.join(".claude/skills"),
        "specification-engine",
        &skill("project spec engine", "specification-engine"),
    );
    let registry = SkillRegistry::new(RegistryConfig::with_roots(
        roots
            .iter()
            .map(|(dir, scope, _)| SkillRoot::new(dir, *scope))
            .collect(),
    ));
    let everywhere = registry.get("everywhere").unwrap();
    assert_eq!(everywhere.skill.description, "project clawft");
    assert_eq!(
        everywhere
            .shadows
            .iter()
            .map(|s| s.scope)
            .collect::<Vec<_>>(),
        [
            Scope::Project,
            Scope::Project,
            Scope::User,
            Scope::User,
            Scope::User,
            Scope::Workspace,
            Scope::Plugin
        ]
    );
    for (i, (_, scope, desc)) in roots.iter().enumerate() {
        let e = registry.get(&format!("only-{i}")).unwrap();
        assert_eq!(e.skill.source.scope, *scope);
        assert_eq!(e.skill.description, *desc);
    }
    let spec = registry.get("specification-engine").unwrap();
    assert_eq!(spec.skill.source.scope, Scope::Project);
    assert_eq!(spec.shadows[0].scope, Scope::Builtin);
    assert!(registry.get("opencode-implementer").is_some());
    let c = codes(&registry);
    // Copies are compared with the winner: two duplicates inside the project scope, then
    // project overrides of the user (x3), workspace, plugin and built-in copies.
    assert_eq!(c.iter().filter(|c| *c == "W182").count(), 2, "{c:?}");
    assert_eq!(c.iter().filter(|c| *c == "W181").count(), 6, "{c:?}");
    assert_eq!(c.len(), 8, "{c:?}");
}

#[test]
fn trusted_projects_override_silently() {
    let project = tempfile::tempdir().unwrap();
    let user = tempfile::tempdir().unwrap();
    for dir in [project.path(), user.path()] {
        create_skill_md(dir, "s", "---\nname: s\ndescription: d\n---\nBody\n");
    }
    let registry = SkillRegistry::new(RegistryConfig {
        trust_project_skills: true,
        builtins: false,
        ..RegistryConfig::with_roots(vec![
            SkillRoot::new(project.path(), Scope::Project),
            SkillRoot::new(user.path(), Scope::User),
        ])
    });
    assert!(codes(&registry).is_empty());
    assert_eq!(registry.get("s").unwrap().shadows.len(), 1);
}

#[test]
fn a_bad_skill_never_stops_the_others() {
    let tmp = tempfile::tempdir().unwrap();
    create_skill_md(
        tmp.path(),
        "good",
        "---\nname: good\ndescription: fine\n---\n",
    );
    create_skill_md(tmp.path(), "broken", "---\nname: broken\n");
    std::fs::create_dir_all(tmp.path().join("binary")).unwrap();
    std::fs::write(tmp.path().join("binary/SKILL.md"), b"---\n\xff\xfe\n---\n").unwrap();
    let registry = registry(vec![SkillRoot::new(tmp.path(), Scope::User)]);
    assert_eq!(registry.list().len(), 1);
    assert_eq!(codes(&registry), ["E001", "E006"]);
}

#[cfg(unix)]
#[test]
fn symlink_loops_and_linked_skills() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("skills");
    create_skill_md(
        &root.join("group"),
        "a",
        "---\nname: a\ndescription: d\n---\n",
    );
    std::os::unix::fs::symlink(&root, root.join("group/loop")).unwrap();
    let elsewhere = tmp.path().join("elsewhere");
    create_skill_md(
        &elsewhere,
        "linked",
        "---\nname: linked\ndescription: d\n---\n",
    );
    std::os::unix::fs::symlink(elsewhere.join("linked"), root.join("linked")).unwrap();
    let registry = registry(vec![SkillRoot::new(&root, Scope::User)]);
    let names: Vec<String> = registry
        .list()
        .iter()
        .map(|e| e.skill.name.clone())
        .collect();
    assert_eq!(names, ["a", "linked"]);
}

// --- levels 2 and 3 -------------------------------------------------------------------------

#[test]
fn listing_does_not_load_bodies_and_bodies_are_cached() {
    let tmp = tempfile::tempdir().unwrap();
    let body = "Line\n".repeat(3000); // 15 KB: more than one read chunk
    let dir = create_skill_md(
        tmp.path(),
        "big",
        &format!("---\nname: big\ndescription: Big body\n---\n{body}"),
    );
    let registry = registry(vec![SkillRoot::new(tmp.path(), Scope::User)]);
    let entry = registry.get("big").unwrap();
    assert!(!entry.body_loaded());
    assert_eq!(entry.tokens().instructions, None);
    let loaded = registry.body("big").unwrap();
    assert_eq!(loaded.text, body.trim_end());
    assert!(entry.body_loaded());
    assert_eq!(
        entry.tokens().instructions,
        Some(body.trim_end().len().div_ceil(4))
    );
    assert_eq!(entry.tokens().metadata, (3 + 8usize).div_ceil(4));
    // Cached: the file can disappear and the body is still there.
    std::fs::remove_file(dir.join("SKILL.md")).unwrap();
    assert_eq!(registry.body("big").unwrap().text, loaded.text);
}

#[test]
fn resources_are_confined_to_the_skill_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("skills");
    let dir = create_skill_md(&root, "docs", "---\nname: docs\ndescription: d\n---\n");
    std::fs::create_dir_all(dir.join("references")).unwrap();
    std::fs::write(dir.join("references/api.md"), "API").unwrap();
    std::fs::write(tmp.path().join("secret.txt"), "secret").unwrap();
    let registry = registry(vec![SkillRoot::new(&root, Scope::User)]);
    assert_eq!(
        registry.resource("docs", "references/api.md").unwrap(),
        b"API"
    );
    for attempt in [
        "../../secret.txt",
        "/etc/passwd",
        "references/../../../secret.txt",
    ] {
        let err = registry.resource("docs", attempt).unwrap_err();
        assert!(
            matches!(err, SkillError::PathTraversal { .. }),
            "{attempt}: {err}"
        );
        assert_eq!(
            err.to_string(),
            format!(
                "Security error: Resource path '{attempt}' attempts traversal outside skill directory."
            )
        );
    }
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(tmp.path().join("secret.txt"), dir.join("leak.txt")).unwrap();
        assert!(matches!(
            registry.resource("docs", "leak.txt"),
            Err(SkillError::PathTraversal { .. })
        ));
    }
    assert_eq!(
        registry
            .resource("docs", "references/nope.md")
            .unwrap_err()
            .to_string(),
        "Resource not found for skill 'docs': references/nope.md"
    );
    assert!(matches!(
        registry.resource("nope", "x"),
        Err(SkillError::SkillNotFound { .. })
    ));
}

// --- gating ----------------------------------------------------------------------------------

#[test]
fn unmet_openclaw_requirements_warn_but_load() {
    let tmp = tempfile::tempdir().unwrap();
    create_skill_md(
        tmp.path(),
        "gh",
        "---\nname: gh\ndescription: GitHub CLI\nmetadata: {\"openclaw\":{\"requires\":{\"bins\":[\"surely-not-installed-xyz\"],\"env\":[\"GH_TOKEN\"]}}}\n---\n",
    );
    let registry = SkillRegistry::new(RegistryConfig {
        builtins: false,
        host: HostEnvironment {
            path_dirs: vec![tmp.path().to_path_buf()],
            env_vars: Default::default(),
            os: "linux".into(),
        },
        ..RegistryConfig::with_roots(vec![SkillRoot::new(tmp.path(), Scope::User)])
    });
    let entry = registry.get("gh").unwrap();
    assert!(!entry.readiness.is_ready());
    assert_eq!(entry.readiness.missing_bins, ["surely-not-installed-xyz"]);
    assert_eq!(entry.readiness.missing_env, ["GH_TOKEN"]);
    assert_eq!(codes(&registry), ["W180"]);
}

// --- runtime API -----------------------------------------------------------------------------

#[test]
fn register_get_override_unregister() {
    let tmp = tempfile::tempdir().unwrap();
    create_skill_md(
        tmp.path(),
        "file-skill",
        "---\nname: file-skill\ndescription: from disk\n---\nDisk body\n",
    );
    let registry = registry(vec![SkillRoot::new(tmp.path(), Scope::User)]);

    let mut skill = Skill::in_memory("spec", "Generates specs", Scope::User);
    skill.version = Some("1.0.0".into());
    skill.tools.allow = Some(vec!["specKit".into()]);
    skill.tools.deny = vec!["write".into(), "edit".into()];
    registry.register(skill.clone(), None).unwrap();
    // Returned unmodified.
    assert_eq!(registry.get("spec").unwrap().skill, skill);
    assert!(matches!(
        registry.register(skill.clone(), None),
        Err(SkillError::AlreadyRegistered { .. })
    ));

    let mut newer = skill.clone();
    newer.version = Some("2.0.0".into());
    assert_eq!(
        registry
            .override_version(newer, Some("v2".into()))
            .unwrap()
            .as_deref(),
        Some("1.0.0")
    );
    let entry = registry.get("spec").unwrap();
    assert_eq!(entry.skill.version.as_deref(), Some("2.0.0"));
    assert_eq!(entry.origin, SkillOrigin::Registered);
    assert_eq!(registry.body("spec").unwrap().text, "v2");

    // override_version registers when absent.
    let fresh = Skill::in_memory("fresh", "New", Scope::User);
    assert_eq!(registry.override_version(fresh, None).unwrap(), None);
    assert!(registry.get("fresh").is_some());

    // A registered skill overrides a discovered one; unregister reveals nothing (hidden) ...
    registry
        .override_version(
            Skill::in_memory("file-skill", "in memory", Scope::User),
            None,
        )
        .unwrap();
    assert_eq!(
        registry.get("file-skill").unwrap().skill.description,
        "in memory"
    );
    assert!(registry.unregister("file-skill"));
    assert!(registry.get("file-skill").is_none());
    // ... and survives a reload.
    registry.reload();
    assert!(registry.get("file-skill").is_none());
    assert!(!registry.unregister("file-skill"));
    assert!(registry.unregister("spec"));
    assert!(registry.get("spec").is_none());

    // Invalid skills are refused with their diagnostics.
    let err = registry
        .register(Skill::in_memory("Bad Name", "", Scope::User), None)
        .unwrap_err();
    let SkillError::InvalidSkill { diagnostics, .. } = err else {
        panic!("{err}");
    };
    assert_eq!(
        diagnostics
            .iter()
            .map(|d| d.code.as_str())
            .collect::<Vec<_>>(),
        ["E101", "E101", "E110"]
    );
}

#[test]
fn eight_readers_see_complete_snapshots_during_1000_overrides() {
    let tmp = tempfile::tempdir().unwrap();
    for i in 0..20 {
        create_skill_md(
            tmp.path(),
            &format!("s{i:02}"),
            &format!("---\nname: s{i:02}\ndescription: d\n---\n"),
        );
    }
    let registry = Arc::new(registry(vec![SkillRoot::new(tmp.path(), Scope::User)]));
    let mut counter = Skill::in_memory("counter", "counts", Scope::User);
    counter.version = Some("0".into());
    registry.register(counter.clone(), None).unwrap();

    let done = Arc::new(AtomicBool::new(false));
    let readers: Vec<_> = (0..8)
        .map(|_| {
            let registry = Arc::clone(&registry);
            let done = Arc::clone(&done);
            std::thread::spawn(move || {
                let mut last_version = 0u64;
                let mut last_generation = 0u64;
                let mut reads = 0u64;
                while !done.load(Ordering::Relaxed) || reads == 0 {
                    let snap = registry.snapshot();
                    assert_eq!(snap.len(), 21, "no torn or missing reads");
                    assert!(snap.generation() >= last_generation);
                    last_generation = snap.generation();
                    let v: u64 = snap
                        .get("counter")
                        .and_then(|e| e.skill.version.clone())
                        .unwrap()
                        .parse()
                        .unwrap();
                    assert!(v >= last_version, "versions never go back");
                    last_version = v;
                    assert!(snap.get("s07").is_some());
                    reads += 1;
                }
                reads
            })
        })
        .collect();
    for i in 1..=1000u64 {
        counter.version = Some(i.to_string());
        registry.override_version(counter.clone(), None).unwrap();
    }
    done.store(true, Ordering::Relaxed);
    let total: u64 = readers.into_iter().map(|r| r.join().unwrap()).sum();
    assert!(total >= 8);
    assert_eq!(
        registry.get("counter").unwrap().skill.version.as_deref(),
        Some("1000")
    );
}

#[test]
fn a_file_that_does_not_load_is_recorded_under_the_name_it_declares() {
    let tmp = tempfile::tempdir().unwrap();
    create_skill_md(
        tmp.path(),
        "wip",
        "---\nname: half-done\ndescription: [1, 2]\n---\nBody\n",
    );
    create_skill_md(tmp.path(), "yaml", "---\nname: [\n---\nBody\n");
    let registry = registry(vec![SkillRoot::new(tmp.path(), Scope::Project)]);
    let snap = registry.snapshot();
    assert!(snap.get("half-done").is_none());
    let broken = snap.broken_named("half-done");
    assert_eq!(broken.len(), 1);
    assert_eq!(broken[0].scope, Scope::Project);
    assert_eq!(broken[0].path, tmp.path().join("wip/SKILL.md"));
    let codes: Vec<&str> = broken[0].errors.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["E112"]);
    // Without a readable name, the directory names it.
    assert_eq!(snap.broken_named("yaml").len(), 1);
    assert!(snap.broken_named("wip").is_empty());
}

#[test]
fn reload_keeps_the_last_good_version_of_a_broken_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = create_skill_md(
        tmp.path(),
        "s",
        "---\nname: s\ndescription: good\n---\nBody\n",
    );
    let registry = registry(vec![SkillRoot::new(tmp.path(), Scope::User)]);
    std::fs::write(dir.join("SKILL.md"), "---\nname: s\ndescription: half-writ").unwrap();
    let snap = registry.reload();
    assert_eq!(snap.get("s").unwrap().skill.description, "good");
    let c: Vec<&str> = snap.diagnostics().iter().map(|d| d.code.as_str()).collect();
    assert_eq!(c, ["E006", "W183"]);
    std::fs::write(
        dir.join("SKILL.md"),
        "---\nname: s\ndescription: fixed\n---\n",
    )
    .unwrap();
    assert_eq!(
        registry.reload().get("s").unwrap().skill.description,
        "fixed"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(registry.reload().get("s").is_none());
}

#[test]
fn refresh_walks_again_only_when_a_skill_file_or_directory_changed() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("skills");
    let missing = tmp.path().join("not-yet");
    create_skill_md(&root, "a", "---\nname: a\ndescription: first\n---\n");
    let registry = registry(vec![
        SkillRoot::new(&missing, Scope::Project),
        SkillRoot::new(&root, Scope::User),
    ]);
    let generation = registry.snapshot().generation();
    assert!(registry.refresh().is_none(), "nothing changed");
    assert_eq!(registry.snapshot().generation(), generation);
    // A skill installed beside it.
    create_skill_md(&root, "b", "---\nname: b\ndescription: second\n---\n");
    let snapshot = registry.refresh().expect("a new skill directory");
    assert!(snapshot.get("b").is_some());
    assert!(registry.refresh().is_none());
    // A root that did not exist appears.
    create_skill_md(&missing, "c", "---\nname: c\ndescription: third\n---\n");
    assert!(registry.refresh().expect("a new root").get("c").is_some());
    // A skill's file rewritten (another size), then removed.
    std::fs::write(
        root.join("a/SKILL.md"),
        "---\nname: a\ndescription: first, changed\n---\n",
    )
    .unwrap();
    let changed = registry.refresh().expect("a changed file");
    assert_eq!(
        changed.get("a").unwrap().skill.description,
        "first, changed"
    );
    std::fs::remove_dir_all(root.join("b")).unwrap();
    assert!(
        registry
            .refresh()
            .expect("a removed skill")
            .get("b")
            .is_none()
    );
}

#[test]
fn refresh_without_change_tracking_always_walks_again() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("skills");
    create_skill_md(&root, "a", "---\nname: a\ndescription: first\n---\n");
    let registry = SkillRegistry::new(RegistryConfig {
        track_changes: false,
        builtins: false,
        ..RegistryConfig::with_roots(vec![SkillRoot::new(&root, Scope::User)])
    });
    let generation = registry.snapshot().generation();
    // Nothing was stamped, so nothing can be ruled out: every refresh publishes a walk.
    let same = registry.refresh().expect("walked again");
    assert_eq!(same.generation(), generation + 1);
    assert_eq!(same.len(), 1);
    create_skill_md(&root, "b", "---\nname: b\ndescription: second\n---\n");
    assert!(registry.refresh().expect("walked again").get("b").is_some());
}

/// One validator: a tool pattern that does not compile makes the skill a broken file with the
/// same `E132` in discovery (listings, `show`, runs) and in `validate_paths`, pointing at the
/// list; a skill that compiles holds its policy, which activation reuses.
#[test]
fn tool_patterns_are_compiled_once_at_discovery_with_one_error_everywhere() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("skills");
    create_skill_md(
        &root,
        "fetchy",
        "---\nname: fetchy\ndescription: Fetches\nallowed-tools: WebFetch(example.com)\n---\nFetch.\n",
    );
    create_skill_md(
        &root,
        "reader",
        "---\nname: reader\ndescription: Reads\nallowed-tools: Read Bash(git diff:*)\n---\nRead.\n",
    );
    let registry = registry(vec![SkillRoot::new(&root, Scope::Project)]);
    let snapshot = registry.snapshot();
    assert!(snapshot.get("fetchy").is_none());
    let broken = snapshot.broken_named("fetchy");
    assert_eq!(broken.len(), 1);
    let error = &broken[0].errors[0];
    assert_eq!(error.code, "E132");
    assert_eq!(error.line, Some(4));
    assert!(
        error.message.starts_with("`allowed-tools` pattern `WebFetch(example.com)` does not compile: a WebFetch specifier is `domain:<host>`"),
        "{}",
        error.message
    );

    let validated =
        weft_registry::validate_paths(&[root.join("fetchy")], weft_parse::Profile::Validate);
    assert!(!validated[0].valid);
    assert_eq!(validated[0].diagnostics, broken[0].errors);
    // The spec profile reads the file as the reference validator does: it does not compile
    // patterns.
    let spec = weft_registry::validate_paths(&[root.join("fetchy")], weft_parse::Profile::Spec);
    assert!(
        spec[0].diagnostics.iter().all(|d| d.code != "E132"),
        "{:?}",
        spec[0].diagnostics
    );

    let reader = snapshot.get("reader").unwrap();
    let allowed: Vec<&str> = reader
        .policy()
        .allow()
        .unwrap()
        .iter()
        .map(|(p, _)| p.as_str())
        .collect();
    assert_eq!(allowed, ["Read", "Bash(git diff:*)"]);
    // Readiness in a session: the tools it names must exist there.
    assert!(reader.readiness_with(&|_| true).is_ready());
    let without_shell = reader.readiness_with(&|t| t != "exec_shell");
    assert_eq!(without_shell.missing_tools, ["exec_shell"]);
    assert!(!without_shell.is_ready());

    // Registering through the API runs the same compilation.
    let mut bad = Skill::in_memory("api-fetch", "Fetches", Scope::User);
    bad.tools.allow = Some(vec!["WebFetch(example.com)".into()]);
    let err = registry.register(bad, None).unwrap_err();
    assert!(
        err.to_string().contains("E132") || format!("{err:?}").contains("E132"),
        "{err:?}"
    );
}

/// The built-in skills grant only tools a default session has: they are ready, and they
/// compose into something that can be used.
#[test]
fn builtin_skills_are_ready_with_weft_tools() {
    let registry = SkillRegistry::new(RegistryConfig::with_roots(Vec::new()));
    let snapshot = registry.snapshot();
    let has = |t: &str| weft_types::tool_names::BUILTIN_TOOLS.contains(&t);
    for name in ["specification-engine", "opencode-implementer"] {
        let entry = snapshot.get(name).unwrap();
        assert!(entry.readiness_with(&has).is_ready(), "{name}");
    }
}
