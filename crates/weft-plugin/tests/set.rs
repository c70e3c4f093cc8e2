//! A plugin on disk resolved as the runtime sees it: every component (default folders,
//! manifest paths, inline hooks and servers), and the set of installed plugins across weft's
//! stores and Claude Code's record, with trust and enablement deciding what is in use.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use serde_json::json;
use weft_plugin::{
    ClaudeScope, Components, Inactive, PluginLock, PluginManifest, PluginRecord, PluginScope,
    PluginSet, PluginSources, PluginStore, RecordedSource,
};
use weft_types::PluginRef;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A plugin with one of each component.
fn plugin_tree(root: &Path, name: &str) {
    write(
        &root.join(".claude-plugin/plugin.json"),
        &json!({
            "name": name, "version": "1.2.0", "description": "Formats code",
            "skills": "./extra-skills", "commands": ["./cmds", "./single.md"],
            "hooks": {"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo start"}]}]}},
            "mcpServers": {"inline-db": {"command": "${CLAUDE_PLUGIN_ROOT}/bin/db", "args": ["--data", "${CLAUDE_PLUGIN_DATA}"]}},
            "outputStyles": "./styles"
        })
        .to_string(),
    );
    write(
        &root.join("skills/lint/SKILL.md"),
        "---\nname: lint\ndescription: Lint\n---\nRun ${CLAUDE_PLUGIN_ROOT}/lint.sh\n",
    );
    write(
        &root.join("extra-skills/tidy/SKILL.md"),
        "---\nname: tidy\ndescription: Tidy\n---\nTidy.\n",
    );
    write(&root.join("cmds/release.md"), "Release.\n");
    write(&root.join("single.md"), "One.\n");
    write(
        &root.join("commands/ignored.md"),
        "Replaced by the manifest's commands.\n",
    );
    write(
        &root.join("agents/reviewer.md"),
        "---\ndescription: Reviews\n---\nReview.\n",
    );
    write(
        &root.join("hooks/hooks.json"),
        &json!({"hooks": {"PostToolUse": [{"matcher": "Edit|Write", "hooks": [
            {"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}\"/scripts/fmt.sh"}]}]}})
        .to_string(),
    );
    write(&root.join("scripts/fmt.sh"), "#!/bin/sh\nexit 0\n");
    write(
        &root.join(".mcp.json"),
        &json!({"mcpServers": {"files": {"command": "npx", "args": ["-y", "files-mcp"]},
                               "inline-db": {"command": "shadowed"}}})
        .to_string(),
    );
}

#[test]
fn every_component_is_resolved_inside_the_plugin() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("fmt");
    plugin_tree(&root, "fmt");
    let manifest = PluginManifest::load(&root).unwrap();
    let plugin = PluginRef {
        name: "fmt".into(),
        id: "fmt@acme".into(),
        root: root.clone(),
        data: Some(tmp.path().join("data")),
    };
    let c = Components::resolve(&plugin, &manifest, None).unwrap();
    assert_eq!(
        c.skill_dirs,
        [root.join("skills"), root.join("extra-skills")]
    );
    assert_eq!(c.command_paths, [root.join("cmds"), root.join("single.md")]);
    assert_eq!(c.agent_paths, [root.join("agents")]);
    let hooks = c.hooks.as_ref().unwrap();
    assert_eq!(
        hooks.sources,
        ["hooks/hooks.json", ".claude-plugin/plugin.json (inline)"]
    );
    let runs: Vec<String> = hooks
        .commands()
        .iter()
        .map(|h| format!("{} {}", h.event, h.run))
        .collect();
    assert_eq!(
        runs,
        [
            format!("PostToolUse \"{}\"/scripts/fmt.sh", root.display()),
            "SessionStart echo start".to_owned()
        ]
    );
    let servers: Vec<(String, String)> = c
        .mcp_servers
        .iter()
        .map(|s| (s.name.clone(), s.describe()))
        .collect();
    assert_eq!(
        servers,
        [
            (
                "inline-db".to_owned(),
                format!(
                    "{}/bin/db --data {}",
                    root.display(),
                    tmp.path().join("data").display()
                )
            ),
            ("files".to_owned(), "npx -y files-mcp".to_owned()),
        ]
    );
    let warnings: Vec<String> = c.warnings.iter().map(|w| w.message.clone()).collect();
    assert!(
        warnings.iter().any(|w| w.contains("`outputStyles`")),
        "{warnings:?}"
    );
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("`inline-db` is defined in")),
        "{warnings:?}"
    );
    assert!(c.runs_code());
}

#[test]
fn a_hooks_path_out_of_the_plugin_or_malformed_is_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("bad");
    write(
        &root.join(".claude-plugin/plugin.json"),
        r#"{"name": "bad", "hooks": "../hooks.json"}"#,
    );
    let manifest = PluginManifest::load(&root).unwrap();
    let plugin = PluginRef {
        name: "bad".into(),
        id: "bad".into(),
        root: root.clone(),
        data: None,
    };
    let err = Components::resolve(&plugin, &manifest, None)
        .unwrap_err()
        .to_string();
    assert!(err.contains("`..` leaves the plugin"), "{err}");
    write(
        &root.join(".claude-plugin/plugin.json"),
        r#"{"name": "bad"}"#,
    );
    write(
        &root.join("hooks/hooks.json"),
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command"}]}]}}"#,
    );
    let manifest = PluginManifest::load(&root).unwrap();
    let err = Components::resolve(&plugin, &manifest, None)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(
            "hooks/hooks.json: `Stop[0].hooks[0]` is a `command` hook without a `command` string"
        ),
        "{err}"
    );
}

/// What a marketplace entry sets that weft ignores (`lspServers`, as Anthropic's LSP plugins
/// define them in the entry) is named once, beside the plugin.json's own; the keys only an
/// entry has (`source`, `strict`, `category`, `tags`) are not.
#[test]
fn an_entrys_ignored_fields_are_named_once() {
    let tmp = tempfile::tempdir().unwrap();
    let market = tmp.path().join("market");
    let root = market.join("plugins/ts");
    write(&root.join("README.md"), "A language server.\n");
    let file = market.join(".claude-plugin/marketplace.json");
    let value = json!({"name": "m", "owner": {"name": "o"}, "plugins": [{
        "name": "ts", "source": "./plugins/ts", "strict": false, "category": "lsp",
        "tags": ["ts"], "lspServers": {"ts": {"command": "tsls"}}
    }]});
    let marketplace = weft_plugin::Marketplace::from_value(&value, &file).unwrap();
    let manifest = PluginManifest::load(&root).unwrap();
    let plugin = PluginRef {
        name: "ts".into(),
        id: "ts@m".into(),
        root: root.clone(),
        data: None,
    };
    let c = Components::resolve(&plugin, &manifest, Some(&marketplace.plugins[0])).unwrap();
    let warnings: Vec<String> = c.warnings.iter().map(|w| w.to_string()).collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0]
            .ends_with("marketplace entry `lspServers`: LSP servers are not started by weft"),
        "{warnings:?}"
    );
}

fn record(name: &str, enabled: bool) -> PluginRecord {
    PluginRecord {
        name: name.into(),
        marketplace: "acme".into(),
        version: None,
        source: RecordedSource {
            kind: "local".into(),
            location: "/src".into(),
            reference: None,
            subpath: String::new(),
        },
        commit: None,
        tree_sha256: String::new(),
        installed_at: String::new(),
        enabled,
        scan: serde_json::Value::Null,
        files: serde_json::Value::Null,
    }
}

fn install(store: &PluginStore, records: &[PluginRecord]) {
    let mut lock = PluginLock::default();
    for r in records {
        plugin_tree(&store.plugin_dir(&r.marketplace, &r.name), &r.name);
        lock.plugins
            .insert(format!("{}@{}", r.name, r.marketplace), r.clone());
    }
    write(&store.lock_path(), &lock.to_json());
}

struct Layout {
    _tmp: tempfile::TempDir,
    home: PathBuf,
    project: PathBuf,
}

fn layout() -> Layout {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let project = tmp.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    // weft, user: fmt (on), lint (off).
    install(
        &PluginStore::new(home.join(".clawft")),
        &[record("fmt", true), record("lint", false)],
    );
    // weft, project: team (on in the lock, off in the local settings), shared (on).
    install(
        &PluginStore::new(project.join(".clawft")),
        &[record("team", true), record("shared", true)],
    );
    write(
        &project.join(".claude/settings.json"),
        &json!({"enabledPlugins": {"team@acme": true, "shared@acme": true, "wanted@acme": true, "cc-proj@acme": true},
                "extraKnownMarketplaces": {"acme": {"source": {"source": "github", "repo": "acme/plugins"}}}})
        .to_string(),
    );
    write(
        &project.join(".claude/settings.local.json"),
        r#"{"enabledPlugins": {"team@acme": false}}"#,
    );
    // Claude Code: cc-user (enabled for the user), cc-off (installed, not enabled), cc-proj
    // (for this project), fmt (weft's install of the same id wins).
    let claude = home.join(".claude");
    for name in ["cc-user", "cc-off", "cc-proj", "fmt"] {
        plugin_tree(
            &claude.join(format!("plugins/cache/acme/{name}/1.0.0")),
            name,
        );
    }
    let at = |name: &str| claude.join(format!("plugins/cache/acme/{name}/1.0.0"));
    write(
        &claude.join("plugins/installed_plugins.json"),
        &json!({"version": 2, "plugins": {
            "cc-user@acme": [{"scope": "user", "installPath": at("cc-user"), "version": "1.0.0"}],
            "cc-off@acme": [{"scope": "user", "installPath": at("cc-off")}],
            "cc-proj@acme": [{"scope": "project", "projectPath": project, "installPath": at("cc-proj")}],
            "elsewhere@acme": [{"scope": "project", "projectPath": "/some/other", "installPath": at("cc-proj")}],
            "fmt@acme": [{"scope": "user", "installPath": at("fmt")}],
            "gone@acme": [{"scope": "user", "installPath": claude.join("plugins/cache/acme/gone")}]
        }})
        .to_string(),
    );
    write(
        &claude.join("settings.json"),
        r#"{"enabledPlugins": {"cc-user@acme": true, "fmt@acme": true, "gone@acme": true}}"#,
    );
    Layout {
        _tmp: tmp,
        home,
        project,
    }
}

fn sources(l: &Layout, trusted: bool) -> PluginSources {
    PluginSources {
        user_clawft: Some(l.home.join(".clawft")),
        project: Some(l.project.clone()),
        project_trusted: trusted,
        claude_dir: Some(l.home.join(".claude")),
    }
}

fn summary(set: &PluginSet) -> Vec<String> {
    set.plugins
        .iter()
        .map(|p| {
            let state = match &p.inactive {
                None => "active".to_owned(),
                Some(Inactive::Disabled) => "disabled".to_owned(),
                Some(Inactive::Untrusted) => "untrusted".to_owned(),
                Some(Inactive::Broken(why)) => format!("broken: {why}"),
            };
            format!("{} {} {state}", p.id, p.scope.label())
        })
        .collect()
}

#[test]
fn weft_and_claude_code_installs_with_trust_and_enablement() {
    let l = layout();
    let set = PluginSet::load(&sources(&l, true));
    assert_eq!(
        summary(&set),
        [
            "shared@acme project active",
            "team@acme project disabled",
            "fmt@acme user active",
            "lint@acme user disabled",
            "cc-off@acme claude-code (user) disabled",
            "cc-proj@acme claude-code (project) active",
            "cc-user@acme claude-code (user) active",
        ]
    );
    // The declared plugin nobody installed is reported, with its marketplace known.
    assert_eq!(set.declared.len(), 1);
    assert_eq!(set.declared[0].id, "wanted@acme");
    assert!(set.declared[0].marketplace_known);
    // A record pointing at a missing directory is a warning, not a plugin.
    assert!(
        set.warnings
            .iter()
            .any(|w| w.message.contains("`gone@acme`")),
        "{:?}",
        set.warnings
    );
    // Hooks and servers only of the plugins in use.
    let hooks: Vec<&str> = set.hooks().iter().map(|h| h.plugin.id.as_str()).collect();
    assert_eq!(
        hooks,
        ["shared@acme", "fmt@acme", "cc-proj@acme", "cc-user@acme"]
    );
    assert_eq!(set.mcp_servers().len(), 8);
    let lint = set.get("lint@acme").unwrap();
    assert!(lint.hooks_json().is_none() && lint.mcp_servers().is_empty());
    assert_eq!(set.get("fmt").unwrap().scope, PluginScope::User);
    assert_eq!(
        set.get("cc-proj@acme").unwrap().scope,
        PluginScope::ClaudeCode(ClaudeScope::Project)
    );
    // weft's data directory for its installs; none for Claude Code's.
    assert!(set.get("fmt@acme").unwrap().data.is_some());
    assert!(set.get("cc-user@acme").unwrap().data.is_none());

    // Untrusted: the project's plugins (weft's and Claude Code's) are listed, never used.
    let set = PluginSet::load(&sources(&l, false));
    let s = summary(&set);
    assert!(
        s.contains(&"shared@acme project untrusted".to_owned()),
        "{s:?}"
    );
    assert!(
        s.contains(&"cc-proj@acme claude-code (project) untrusted".to_owned()),
        "{s:?}"
    );
    assert!(s.contains(&"fmt@acme user active".to_owned()), "{s:?}");
    assert!(set.get("shared@acme").unwrap().hooks_json().is_none());
}

#[test]
fn weft_can_switch_claude_codes_plugins_off_for_itself() {
    let l = layout();
    let store = PluginStore::new(l.home.join(".clawft"));
    let mut lock = store.load_lock().unwrap();
    lock.claude_code.insert("cc-user@acme".into(), false);
    lock.claude_code.insert("cc-off@acme".into(), true);
    write(&store.lock_path(), &lock.to_json());
    let set = PluginSet::load(&sources(&l, true));
    assert!(!set.get("cc-user@acme").unwrap().is_active());
    assert!(set.get("cc-off@acme").unwrap().is_active());
}

#[test]
fn a_broken_plugin_is_listed_with_the_reason() {
    let l = layout();
    let store = PluginStore::new(l.home.join(".clawft"));
    write(
        &store.plugin_dir("acme", "fmt").join(".mcp.json"),
        "{ not json",
    );
    let set = PluginSet::load(&sources(&l, true));
    let fmt = set.get("fmt@acme").unwrap();
    match &fmt.inactive {
        Some(Inactive::Broken(why)) => {
            assert!(why.contains(".mcp.json:1:3: not valid JSON"), "{why}")
        }
        other => panic!("{other:?}"),
    }
}
