//! The REPL's listings as a person sees them: fitted to the terminal's width like the CLI's
//! tables (`weft_term::fit_table`), whole when the output is not a terminal; a skill's details
//! in the same rows as `weft skills show`; a mistyped configuration key answered with the
//! closest ones.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::fixture;

/// The listing commands.
const LISTINGS: [&str; 5] = ["/skills", "/agents", "/tools", "/config --origin", "/help"];

#[tokio::test]
async fn listings_are_whole_without_a_terminal_and_fitted_to_its_width() {
    let mut f = fixture();
    let mut whole = String::new();
    for command in LISTINGS {
        let (_, out) = f.dispatch(command).await;
        whole.push_str(&format!("> {command}\n{out}"));
    }
    insta::assert_snapshot!("whole", whole);

    f.width = Some(60);
    let mut fitted = String::new();
    for command in LISTINGS {
        let (_, out) = f.dispatch(command).await;
        // Table rows (cells two spaces apart) fit; sentences around them are not cut.
        for line in out.lines().filter(|l| l.trim_start().contains("  ")) {
            assert!(
                line.chars().count() <= 60,
                "{command}: a line wider than 60 columns: {line}"
            );
        }
        fitted.push_str(&format!("> {command}\n{out}"));
    }
    insta::assert_snapshot!("fitted_60", fitted);
}

#[tokio::test]
async fn a_skills_details_are_the_rows_skills_show_prints() {
    let mut f = fixture();
    let (_, out) = f.dispatch("/skills research").await;
    insta::assert_snapshot!("details", out);
}

#[tokio::test]
async fn a_mistyped_configuration_key_gets_the_closest_ones() {
    let mut f = fixture();
    let mut out = String::new();
    for command in [
        "/config modle",
        "/config agent.temprature",
        "/config --origin modle",
        "/config zzzzzz",
    ] {
        let (_, text) = f.dispatch(command).await;
        out.push_str(&format!("> {command}\n{text}"));
    }
    insta::assert_snapshot!("unknown_keys", out);
}

/// A home directory where Claude Code installed `review@cc-market` and enabled it, and the
/// `/plugin` environment the CLI would build for it.
fn claude_code_home(home: &std::path::Path) -> weft_repl::PluginEnv {
    let root = home.join(".claude/plugins/cache/cc-market/review/1.2.0");
    let write = |path: std::path::PathBuf, text: &str| {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        root.join(".claude-plugin/plugin.json"),
        r#"{"name": "review", "version": "1.2.0", "description": "Reviews pull requests"}"#,
    );
    write(
        root.join("skills/pr/SKILL.md"),
        "---\nname: pr\ndescription: Review a pull request\n---\nReview it.\n",
    );
    write(
        home.join(".claude/plugins/installed_plugins.json"),
        &format!(
            r#"{{"version": 2, "plugins": {{"review@cc-market": [{{"scope": "user", "installPath": "{}", "version": "1.2.0"}}]}}}}"#,
            root.display()
        ),
    );
    write(
        home.join(".claude/settings.json"),
        r#"{"enabledPlugins": {"review@cc-market": true}}"#,
    );
    weft_repl::PluginEnv {
        sources: weft_plugin::PluginSources {
            user_clawft: Some(home.join(".clawft")),
            project: None,
            project_trusted: false,
            claude_dir: Some(home.join(".claude")),
        },
        targets: weft_marketplace::PluginTargets {
            user: Some(weft_marketplace::PluginTarget::user(home)),
            project: None,
            project_trusted: false,
        },
        names: Vec::new(),
    }
}

#[tokio::test]
async fn plugins_are_listed_and_switched_for_the_next_session() {
    let mut f = fixture();
    let empty = f.dispatch("/plugin").await.1;
    let home = tempfile::tempdir().unwrap();
    f.repl.env.plugins = claude_code_home(home.path());
    let mut out = format!("> /plugin (none installed)\n{empty}");
    for command in [
        "/plugin",
        "/plugin disable review",
        "/plugin list",
        "/plugin enable review@cc-market --scope user",
        "/plugin enable nothing",
        "/plugin enable review --scope project",
        "/plugin enable",
        "/plugin remove review",
        "/help plugin",
    ] {
        let (_, text) = f.dispatch(command).await;
        out.push_str(&format!("> {command}\n{text}"));
    }
    let out = out.replace(home.path().to_str().unwrap(), "[HOME]");
    insta::assert_snapshot!("plugins", out);
    // Switched for weft only: recorded in weft's store, Claude Code's settings untouched.
    let lock = std::fs::read_to_string(home.path().join(".clawft/plugins.lock")).unwrap();
    assert!(lock.contains("\"review@cc-market\": true"), "{lock}");
    assert_eq!(
        std::fs::read_to_string(home.path().join(".claude/settings.json")).unwrap(),
        r#"{"enabledPlugins": {"review@cc-market": true}}"#
    );
    // Completion offers the subcommands, then the plugin's id and its unambiguous name.
    let names = f.repl.completion_context();
    assert_eq!(names.plugins, ["review", "review@cc-market"]);
    let complete = |line: &str| f.repl.commands.complete(line, line.len(), &names).1;
    assert_eq!(complete("/plugin e"), ["enable"]);
    assert_eq!(
        complete("/plugin enable rev"),
        ["review", "review@cc-market"]
    );
    assert_eq!(complete("/plugin disable review --s"), ["--scope"]);
    assert_eq!(complete("/plugin disable review --scope p"), ["project"]);
    assert!(complete("/plugin list x").is_empty());
}
