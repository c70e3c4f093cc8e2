//! Plugin roots: a plugin's skills and commands are named `plugin:name`, carry the plugin in
//! their source, and a bare name finds the one plugin skill of that name unless a skill of
//! exactly that name exists (which wins) or several plugins have one (ambiguous).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use weft_registry::{Lookup, RegistryConfig, SkillRegistry, SkillRoot};
use weft_types::{PluginRef, Scope, SkillFormat};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn skill(dir: &Path, name: &str) {
    write(
        &dir.join(name).join("SKILL.md"),
        &format!(
            "---\nname: {name}\ndescription: The {name} skill of {}\n---\nDo it.\n",
            dir.display()
        ),
    );
}

fn plugin(root: &Path, name: &str) -> PluginRef {
    PluginRef {
        name: name.to_owned(),
        id: format!("{name}@market"),
        root: root.to_path_buf(),
        data: None,
    }
}

fn layout(tmp: &Path) -> (Vec<SkillRoot>, PathBuf) {
    let user = tmp.join("user");
    skill(&user, "lint");
    let fmt = tmp.join("fmt");
    skill(&fmt.join("skills"), "lint");
    skill(&fmt.join("skills"), "format");
    write(&fmt.join("commands/release.md"), "Release $ARGUMENTS.\n");
    write(
        &fmt.join("commands/ci/run.md"),
        "---\ndescription: CI\n---\nRun CI.\n",
    );
    write(&fmt.join("extra/one.md"), "One command.\n");
    let style = tmp.join("style");
    skill(&style.join("skills"), "lint");
    skill(&style.join("skills"), "only-here");
    let roots = vec![
        SkillRoot::new(&user, Scope::User),
        SkillRoot::new(fmt.join("skills"), Scope::Plugin).of_plugin(plugin(&fmt, "fmt")),
        SkillRoot::commands(fmt.join("commands"), Scope::Plugin).of_plugin(plugin(&fmt, "fmt")),
        SkillRoot::commands(fmt.join("extra/one.md"), Scope::Plugin).of_plugin(plugin(&fmt, "fmt")),
        SkillRoot::new(style.join("skills"), Scope::Plugin).of_plugin(plugin(&style, "style")),
    ];
    (roots, fmt)
}

#[test]
fn plugin_skills_are_namespaced_and_bare_names_resolve_when_unambiguous() {
    let tmp = tempfile::tempdir().unwrap();
    let (roots, fmt) = layout(tmp.path());
    let registry = SkillRegistry::new(RegistryConfig {
        builtins: false,
        ..RegistryConfig::with_roots(roots)
    });
    let snapshot = registry.snapshot();
    let names: Vec<&str> = snapshot.entries().iter().map(|e| e.name()).collect();
    assert_eq!(
        names,
        [
            "fmt:ci:run",
            "fmt:format",
            "fmt:lint",
            "fmt:one",
            "fmt:release",
            "lint",
            "style:lint",
            "style:only-here"
        ]
    );
    // The user's `lint` wins the bare name; each plugin's stays reachable by its full name.
    assert_eq!(
        snapshot.get("lint").unwrap().skill.source.scope,
        Scope::User
    );
    assert_eq!(
        snapshot
            .get("fmt:lint")
            .unwrap()
            .skill
            .source
            .plugin
            .as_ref()
            .unwrap()
            .root,
        fmt
    );
    // A bare name only one plugin has finds it.
    assert_eq!(snapshot.get("format").unwrap().name(), "fmt:format");
    assert_eq!(snapshot.get("only-here").unwrap().name(), "style:only-here");
    assert_eq!(snapshot.get("ci:run").unwrap().name(), "fmt:ci:run");
    let release = snapshot.get("release").unwrap();
    assert_eq!(release.skill.source.format, SkillFormat::Command);
    assert_eq!(
        release.skill.source.plugin.as_ref().unwrap().id,
        "fmt@market"
    );
    assert!(snapshot.get("nothing").is_none());
    assert_eq!(snapshot.resolve("nothing").unwrap_err(), Lookup::Missing);
    // Without the user's skill, `lint` is ambiguous between the two plugins.
    let mut plugin_roots = layout(tmp.path()).0;
    plugin_roots.retain(|r| r.scope == Scope::Plugin);
    let registry = SkillRegistry::new(RegistryConfig {
        builtins: false,
        ..RegistryConfig::with_roots(plugin_roots)
    });
    let snapshot = registry.snapshot();
    let err = snapshot.resolve("lint").unwrap_err();
    assert_eq!(
        err,
        Lookup::Ambiguous(vec!["fmt:lint".into(), "style:lint".into()])
    );
    assert_eq!(
        err.ambiguity("lint").unwrap(),
        "`lint` is the name of a skill in several plugins; give the plugin: fmt:lint, style:lint"
    );
    assert!(snapshot.get("lint").is_none());
}

#[test]
fn a_plugin_root_may_not_lead_out_of_the_plugin() {
    let tmp = tempfile::tempdir().unwrap();
    let outside = tmp.path().join("outside");
    skill(&outside, "stolen");
    let fmt = tmp.path().join("fmt");
    std::fs::create_dir_all(fmt.join("skills")).unwrap();
    std::os::unix::fs::symlink(outside.join("stolen"), fmt.join("skills/stolen")).unwrap();
    let registry = SkillRegistry::new(RegistryConfig {
        builtins: false,
        ..RegistryConfig::with_roots(vec![
            SkillRoot::new(fmt.join("skills"), Scope::Plugin).of_plugin(plugin(&fmt, "fmt")),
        ])
    });
    let snapshot = registry.snapshot();
    assert!(snapshot.is_empty(), "{:?}", snapshot.entries());
    assert!(
        snapshot
            .diagnostics()
            .iter()
            .any(|d| d.code.as_str() == "E018"),
        "{:?}",
        snapshot.diagnostics()
    );
}
