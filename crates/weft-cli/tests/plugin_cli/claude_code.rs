//! A Claude Code user's installed plugins (a `~/.claude/plugins` laid out as Claude Code
//! leaves it, per CLAUDE_CODE_FORMATS.md section 5) seen through the binary: listed with
//! their scope, their skills under the plugin's name, counted by `weft doctor`, switched off
//! for weft only, never changed.

use super::*;

/// Claude Code's install of `review@cc-market` 1.2.0, enabled in its user settings.
fn claude_code_install(s: &Sandbox) -> std::path::PathBuf {
    let claude = s.home.join(".claude");
    let root = claude.join("plugins/cache/cc-market/review/1.2.0");
    write(
        &root.join(".claude-plugin/plugin.json"),
        r#"{"name": "review", "version": "1.2.0", "description": "Reviews pull requests"}"#,
    );
    write(
        &root.join("skills/pr/SKILL.md"),
        "---\nname: pr\ndescription: Review a pull request\n---\nReview ${CLAUDE_PLUGIN_ROOT}.\n",
    );
    write(
        &root.join("commands/summary.md"),
        "---\ndescription: Summarise the review\n---\nSummarise.\n",
    );
    write(
        &claude.join("plugins/installed_plugins.json"),
        &format!(
            r#"{{"version": 2, "plugins": {{"review@cc-market": [{{"scope": "user", "installPath": "{}", "version": "1.2.0", "installedAt": "2026-01-05T10:00:00.000Z", "lastUpdated": "2026-01-05T10:00:00.000Z", "gitCommitSha": "0123456789abcdef0123456789abcdef01234567"}}]}}}}"#,
            root.display()
        ),
    );
    write(
        &claude.join("plugins/known_marketplaces.json"),
        &format!(
            r#"{{"cc-market": {{"source": {{"source": "github", "repo": "acme/cc-market"}}, "installLocation": "{}", "lastUpdated": "2026-01-05T10:00:00.000Z"}}}}"#,
            claude.join("plugins/marketplaces/cc-market").display()
        ),
    );
    write(
        &claude.join("settings.json"),
        r#"{"enabledPlugins": {"review@cc-market": true}, "model": "opus"}"#,
    );
    root
}

/// What `weft doctor`'s `plugins` check says.
fn doctor_plugins(s: &Sandbox) -> String {
    let doctor = stdout(&weft(s, &["doctor"]));
    let line = doctor
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some("plugins"))
        .unwrap_or_else(|| panic!("no plugins check: {doctor}"));
    line.split_once("plugins").unwrap().1.trim().to_owned()
}

#[test]
fn claude_codes_installed_plugins_are_listed_used_and_never_changed() {
    let s = Sandbox::new();
    let root = claude_code_install(&s);
    let settings_before = std::fs::read(s.home.join(".claude/settings.json")).unwrap();
    let skills = weft(&s, &["skills", "list"]);
    let plugins = weft(&s, &["plugin", "list"]);
    assert_eq!(code(&skills), 0, "{}", both(&skills));
    snapshot!(
        s,
        "claude_code_listed",
        &runs(&[("skills list", &skills), ("plugin list", &plugins)])
    );
    assert_eq!(doctor_plugins(&s), "1 plugin, 1 in use");
    let json = stdout_json(&weft(&s, &["skills", "list", "--format", "json"]));
    let pr = json
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "review:pr")
        .unwrap();
    assert_eq!(pr["plugin"], "review@cc-market");
    // ${CLAUDE_PLUGIN_ROOT} is Claude Code's copy, read in place.
    let dry = weft(&s, &["skills", "run", "review:pr", "--dry-run"]);
    assert!(
        stdout(&dry).contains(&format!("Review {}.", root.display())),
        "{}",
        both(&dry)
    );

    // Read-only: removing or updating it is Claude Code's job; switching it off is weft's.
    let remove = weft(&s, &["plugin", "remove", "review"]);
    assert_eq!(code(&remove), 2, "{}", both(&remove));
    let disable = weft(&s, &["plugin", "disable", "review"]);
    assert_eq!(code(&disable), 0, "{}", both(&disable));
    snapshot!(
        s,
        "claude_code_read_only",
        &runs(&[
            ("plugin remove review", &remove),
            ("plugin disable review", &disable)
        ])
    );
    assert!(!stdout(&weft(&s, &["skills", "list"])).contains("review:pr"));
    assert_eq!(doctor_plugins(&s), "1 plugin, 0 in use");
    assert_eq!(
        std::fs::read(s.home.join(".claude/settings.json")).unwrap(),
        settings_before
    );
    assert!(root.join("skills/pr/SKILL.md").is_file());

    // A record in a format weft does not know: a warning, no guess.
    write(
        &s.home.join(".claude/plugins/installed_plugins.json"),
        r#"{"version": 3, "plugins": {"review@cc-market": {"somewhere": "else"}}}"#,
    );
    let unknown = weft(&s, &["plugin", "list"]);
    assert_eq!(code(&unknown), 0, "{}", both(&unknown));
    snapshot!(
        s,
        "claude_code_unknown_format",
        &render("plugin list", &unknown)
    );
}
