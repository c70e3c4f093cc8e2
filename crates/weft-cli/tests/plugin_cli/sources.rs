//! Plugin sources besides a marketplace's own directory: a plugin in its own git repository
//! (a `url` source, pinned by `sha`), and a `strict: false` entry that is the whole
//! definition of a plugin without `plugin.json`.

use super::*;

/// The marketplace `ops` whose `deploy` lives in a repository of its own.
fn ops_marketplace(s: &Sandbox, plugin_url: &str, sha: Option<&str>) -> Repo {
    let market = Repo::new(s);
    let pin = sha
        .map(|c| format!(r#", "sha": "{c}""#))
        .unwrap_or_default();
    write(
        &market.work.join(".claude-plugin/marketplace.json"),
        &format!(
            r#"{{"name": "ops", "owner": {{"name": "Ops"}}, "plugins": [
                {{"name": "deploy", "description": "Deploys", "source": {{"source": "url", "url": "{plugin_url}"{pin}}}}}]}}"#
        ),
    );
    market.push("ops marketplace");
    market
}

#[test]
fn a_plugin_in_its_own_git_repository_is_fetched_at_the_commit_its_entry_pins() {
    let s = Sandbox::new();
    let plugin = Repo::named(&s, "deploy");
    write(
        &plugin.work.join(".claude-plugin/plugin.json"),
        r#"{"name": "deploy", "version": "1.0.0", "description": "Deploys"}"#,
    );
    let skill = plugin.work.join("skills/ship/SKILL.md");
    write(
        &skill,
        "---\nname: ship\ndescription: Ship the release\n---\nShip version one.\n",
    );
    let first = plugin.push("deploy 1");
    write(
        &skill,
        "---\nname: ship\ndescription: Ship the release\n---\nShip version two.\n",
    );
    let second = plugin.push("deploy 2");
    let market = ops_marketplace(&s, &plugin.url, Some(&first));
    let add = weft(&s, &["plugin", "marketplace", "add", &market.url]);
    assert_eq!(code(&add), 0, "{}", both(&add));
    let install = weft(&s, &["plugin", "install", "deploy@ops", "--yes"]);
    assert_eq!(code(&install), 0, "{}", both(&install));
    snapshot!(
        s,
        "git_source_install",
        &render("plugin install deploy@ops --yes", &install)
    );
    let record = &user_lock(&s)["plugins"]["deploy@ops"];
    assert_eq!(record["commit"], first.as_str());
    assert_eq!(record["source"]["location"], plugin.url.as_str());
    assert_eq!(record["source"]["type"], "git");
    let installed = s.home.join(".clawft/plugins/cache/ops/deploy");
    let body = std::fs::read_to_string(installed.join("skills/ship/SKILL.md")).unwrap();
    assert!(body.contains("Ship version one."), "{body}");
    // The plugin's own repository is not a marketplace copy: nothing of it is kept but
    // the installed files (no .git).
    assert!(!installed.join(".git").exists());
    let skills = stdout(&weft(&s, &["skills", "list"]));
    assert!(skills.contains("deploy:ship"), "{skills}");
    assert_eq!(code(&weft(&s, &["plugin", "verify"])), 0);

    // The marketplace drops the pin: an update follows the repository's branch.
    ops_marketplace(&s, &plugin.url, None);
    let update = weft(&s, &["plugin", "update", "deploy@ops", "--yes"]);
    assert_eq!(code(&update), 0, "{}", both(&update));
    assert_eq!(
        user_lock(&s)["plugins"]["deploy@ops"]["commit"],
        second.as_str()
    );
    let body = std::fs::read_to_string(installed.join("skills/ship/SKILL.md")).unwrap();
    assert!(body.contains("Ship version two."), "{body}");
}

#[test]
fn a_plugin_source_may_be_the_path_of_a_git_repository() {
    let s = Sandbox::new();
    let plugin = Repo::named(&s, "deploy");
    write(
        &plugin.work.join(".claude-plugin/plugin.json"),
        r#"{"name": "deploy", "version": "1.0.0"}"#,
    );
    write(
        &plugin.work.join("skills/ship/SKILL.md"),
        "---\nname: ship\ndescription: Ship the release\n---\nShip.\n",
    );
    let commit = plugin.push("deploy 1");
    // The work tree, as git would clone it (`git clone /path/to/repo`).
    let path = plugin.work.to_str().unwrap().to_owned();
    let market = ops_marketplace(&s, &path, None);
    assert_eq!(
        code(&weft(&s, &["plugin", "marketplace", "add", &market.url])),
        0
    );
    let install = weft(&s, &["plugin", "install", "deploy@ops", "--yes"]);
    assert_eq!(code(&install), 0, "{}", both(&install));
    let record = &user_lock(&s)["plugins"]["deploy@ops"];
    assert_eq!(record["commit"], commit.as_str());
    assert_eq!(record["source"]["location"], format!("file://{path}"));
    assert!(stdout(&weft(&s, &["skills", "list"])).contains("deploy:ship"));
    // A directory that is not a repository is not a `url` source.
    let plain = s.dir("plain");
    write(
        &plain.join(".claude-plugin/plugin.json"),
        r#"{"name": "deploy"}"#,
    );
    ops_marketplace(&s, plain.to_str().unwrap(), None);
    assert_eq!(
        code(&weft(&s, &["plugin", "marketplace", "update", "ops"])),
        0
    );
    assert_eq!(code(&weft(&s, &["plugin", "remove", "deploy@ops"])), 0);
    let refused = weft(&s, &["plugin", "install", "deploy@ops", "--yes"]);
    assert_ne!(code(&refused), 0, "{}", both(&refused));
    assert!(
        sandbox::stderr(&refused).contains("not a git repository"),
        "{}",
        both(&refused)
    );
}

#[test]
fn a_non_strict_entry_defines_a_plugin_without_a_manifest() {
    let s = Sandbox::new();
    let market = Repo::new(&s);
    let w = &market.work;
    write(
        &w.join(".claude-plugin/marketplace.json"),
        r#"{"name": "lite-market", "owner": {"name": "Lite"}, "plugins": [
            {"name": "lite", "source": "./lite", "strict": false, "version": "0.3.0",
             "description": "Defined by its entry", "skills": ["./tools/"],
             "commands": ["./cmds/hello.md"]},
            {"name": "clash", "source": "./clash", "strict": false, "skills": ["./skills/"]}]}"#,
    );
    write(
        &w.join("lite/tools/greet/SKILL.md"),
        "---\nname: greet\ndescription: Greet the user\n---\nSay hello.\n",
    );
    write(
        &w.join("lite/cmds/hello.md"),
        "---\ndescription: Say hello\n---\nHello $ARGUMENTS.\n",
    );
    // The entry's `skills` add to the default folder, which is read too (a plugin's
    // `commands` would replace theirs).
    write(
        &w.join("lite/skills/extra/SKILL.md"),
        "---\nname: extra\ndescription: In the default folder\n---\nExtra.\n",
    );
    write(
        &w.join("lite/commands/ignored.md"),
        "---\ndescription: Not in the listed commands\n---\nNo.\n",
    );
    write(
        &w.join("clash/.claude-plugin/plugin.json"),
        r#"{"name": "clash", "skills": "./skills/"}"#,
    );
    write(
        &w.join("clash/skills/x/SKILL.md"),
        "---\nname: x\ndescription: A skill\n---\nX.\n",
    );
    market.push("lite marketplace");
    assert_eq!(
        code(&weft(&s, &["plugin", "marketplace", "add", &market.url])),
        0
    );
    let lite = weft(&s, &["plugin", "install", "lite@lite-market", "--yes"]);
    assert_eq!(code(&lite), 0, "{}", both(&lite));
    // strict: false and a plugin.json that declares components: refused, as Claude Code
    // refuses to load it.
    let clash = weft(&s, &["plugin", "install", "clash@lite-market", "--yes"]);
    assert_ne!(code(&clash), 0, "{}", both(&clash));
    assert!(
        !s.home
            .join(".clawft/plugins/cache/lite-market/clash")
            .exists()
    );
    let skills = weft(&s, &["skills", "list"]);
    let plugins = weft(&s, &["plugin", "list"]);
    snapshot!(
        s,
        "non_strict",
        &runs(&[
            ("plugin install lite@lite-market --yes", &lite),
            ("plugin install clash@lite-market --yes", &clash),
            ("skills list", &skills),
            ("plugin list", &plugins),
        ])
    );
    let listed = stdout(&skills);
    assert!(
        listed.contains("lite:greet") && listed.contains("lite:hello"),
        "{listed}"
    );
    assert!(listed.contains("lite:extra"), "{listed}");
    assert!(!listed.contains("ignored"), "{listed}");
}
