//! Removing a marketplace with its plugins (as Claude Code does: listed, asked, all or
//! nothing), and `--format json` of `plugin install | update | enable | disable | remove`.

use super::*;

/// `acme` added and both its plugins installed for the user.
fn installed(s: &Sandbox) -> Repo {
    let repo = marketplace(s);
    assert_eq!(
        code(&weft(s, &["plugin", "marketplace", "add", &repo.url])),
        0
    );
    for id in ["fmt@acme", "tools@acme"] {
        let out = weft(s, &["plugin", "install", id, "--yes"]);
        assert_eq!(code(&out), 0, "{}", both(&out));
    }
    repo
}

#[test]
fn removing_a_marketplace_removes_its_plugins_after_asking() {
    let s = Sandbox::new();
    installed(&s);
    let cache = s.home.join(".clawft/plugins/cache/acme");
    // No terminal and no --yes: listed, nothing removed.
    let asked = weft(&s, &["plugin", "marketplace", "remove", "acme"]);
    assert_eq!(code(&asked), 1, "{}", both(&asked));
    assert!(cache.join("fmt").is_dir() && cache.join("tools").is_dir());
    assert_eq!(user_lock(&s)["plugins"].as_object().unwrap().len(), 2);
    let removed = weft(&s, &["plugin", "marketplace", "remove", "acme", "--yes"]);
    assert_eq!(code(&removed), 0, "{}", both(&removed));
    snapshot!(
        s,
        "marketplace_remove_with_plugins",
        &runs(&[
            ("plugin marketplace remove acme", &asked),
            ("plugin marketplace remove acme --yes", &removed),
        ])
    );
    let lock = user_lock(&s);
    assert!(lock["plugins"].as_object().unwrap().is_empty(), "{lock}");
    assert!(
        lock["marketplaces"].as_object().unwrap().is_empty(),
        "{lock}"
    );
    assert!(!cache.join("fmt").exists() && !cache.join("tools").exists());
    assert!(!s.home.join(".clawft/plugins/marketplaces/acme").exists());
    assert!(!stdout(&weft(&s, &["skills", "list"])).contains("fmt:"));
    // Nothing is left in the staging area either.
    let staging: Vec<_> = std::fs::read_dir(s.home.join(".clawft/.staging"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("old-"))
        .collect();
    assert!(staging.is_empty(), "{staging:?}");
}

#[test]
fn a_marketplace_removal_that_fails_changes_nothing() {
    let s = Sandbox::new();
    fmt_for_project(&s);
    // The team's settings file no longer has an object where the entries go: the edit is
    // refused, after the plugin's files were moved aside, so they must come back.
    let settings = s.project.join(".claude/settings.json");
    write(
        &settings,
        r#"{"enabledPlugins": ["fmt@acme"], "extraKnownMarketplaces": {}}"#,
    );
    let lock_before = std::fs::read(s.project.join(".clawft/plugins.lock")).unwrap();
    let failed = trusted(
        &s,
        &[
            "plugin",
            "marketplace",
            "remove",
            "acme",
            "--scope",
            "project",
            "--yes",
        ],
    );
    assert_eq!(code(&failed), 1, "{}", both(&failed));
    snapshot!(
        s,
        "marketplace_remove_fails",
        &render(
            "plugin marketplace remove acme --scope project --yes",
            &failed
        )
    );
    let store = s.project.join(".clawft/plugins");
    assert!(store.join("cache/acme/fmt/skills/lint/SKILL.md").is_file());
    assert!(
        store
            .join("marketplaces/acme/.claude-plugin/marketplace.json")
            .is_file()
    );
    assert_eq!(
        std::fs::read(s.project.join(".clawft/plugins.lock")).unwrap(),
        lock_before
    );
    assert_eq!(code(&trusted(&s, &["plugin", "verify"])), 0);
}

#[test]
fn install_update_enable_disable_and_remove_report_in_json() {
    let s = Sandbox::new();
    let repo = marketplace(&s);
    assert_eq!(
        code(&weft(&s, &["plugin", "marketplace", "add", &repo.url])),
        0
    );
    let install = weft(
        &s,
        &[
            "plugin",
            "install",
            "tools@acme",
            "--yes",
            "--format",
            "json",
        ],
    );
    assert_eq!(code(&install), 0, "{}", both(&install));
    // stdout is the report alone; what the plugin brings went to stderr.
    let report = stdout_json(&install);
    assert_eq!(report["installed"][0]["id"], "tools@acme");
    assert!(sandbox::stderr(&install).contains("Once enabled, it can run code:"));
    let declined = weft(&s, &["plugin", "install", "fmt@acme", "--format", "json"]);
    assert_eq!(code(&declined), 1, "{}", both(&declined));
    assert_eq!(stdout_json(&declined)["not_installed"][0], "fmt@acme");
    let up_to_date = weft(
        &s,
        &["plugin", "update", "tools", "--yes", "--format", "json"],
    );
    assert_eq!(code(&up_to_date), 0, "{}", both(&up_to_date));
    write(
        &repo.work.join("plugins/tools/skills/lint/SKILL.md"),
        "---\nname: lint\ndescription: Lint, version two\n---\nNo dynamic context now.\n",
    );
    repo.push("tools 2");
    let update = weft(
        &s,
        &["plugin", "update", "tools", "--yes", "--format", "json"],
    );
    assert_eq!(code(&update), 0, "{}", both(&update));
    let disable = weft(&s, &["plugin", "disable", "tools", "--format", "json"]);
    let enable = weft(&s, &["plugin", "enable", "tools@acme", "--format", "json"]);
    let listed = weft(&s, &["plugin", "list", "--format", "json"]);
    let remove = weft(&s, &["plugin", "remove", "tools", "--format", "json"]);
    assert_eq!(code(&remove), 0, "{}", both(&remove));
    let list = weft(&s, &["plugin", "list", "--format", "json"]);
    for out in [&disable, &enable, &listed, &list] {
        assert_eq!(code(out), 0, "{}", both(out));
    }
    let json = |out: &Output| serde_json::to_string_pretty(&stdout_json(out)).unwrap();
    snapshot!(
        s,
        "json_reports",
        &[
            (
                "plugin install tools@acme --yes --format json",
                json(&install)
            ),
            ("plugin install fmt@acme --format json", json(&declined)),
            (
                "plugin update tools --yes --format json (up to date)",
                json(&up_to_date)
            ),
            ("plugin update tools --yes --format json", json(&update)),
            ("plugin disable tools --format json", json(&disable)),
            ("plugin enable tools@acme --format json", json(&enable)),
            ("plugin list --format json", json(&listed)),
            ("plugin remove tools --format json", json(&remove)),
            ("plugin list --format json (none left)", json(&list)),
        ]
        .iter()
        .map(|(label, text)| format!("$ weft {label}\n{text}\n"))
        .collect::<String>()
    );
}
