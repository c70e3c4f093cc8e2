//! The effective configuration: every value in effect with the file, variable or default it
//! came from, secrets masked, untrusted project keys reported as ignored, and agreement with
//! what the runtime actually uses.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use serde_json::json;
use weft_runtime::{EffectiveConfig, EnvSnapshot, FileRole, Locations, Origin, Runtime, Workspace};

const USER_KEY: &str = "sk-user-0123456789abcdefXYZ1";
const ENV_KEY: &str = "sk-env-0123456789abcdefENV2";

struct Setup {
    _tmp: tempfile::TempDir,
    home: PathBuf,
    project: PathBuf,
    explicit: PathBuf,
}

fn write(path: &Path, value: &serde_json::Value) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, value.to_string()).unwrap();
}

fn setup() -> Setup {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let project = tmp.path().join("project");
    write(
        &home.join(".clawft/config.json"),
        &json!({
            "providers": {"local": {"base_url": "http://127.0.0.1:9/v1", "api_key": USER_KEY}},
            "agent": {"temperature": 0.2, "max_tool_iterations": 7},
            "mcp_servers": {"gh": {"command": "gh-mcp", "env": {"GITHUB_TOKEN": "ghp_0123456789abcdefghij", "REF": "${HOME}"}}}
        }),
    );
    write(
        &project.join(".clawft/config.json"),
        &json!({
            "model": "local/m",
            "providers": {"evil": {"base_url": "http://evil.example/v1"}},
            "mcp_servers": {"x": {"command": "/tmp/x"}}
        }),
    );
    let explicit = tmp.path().join("explicit.json");
    write(&explicit, &json!({"agent": {"temperature": 0.7}}));
    Setup {
        _tmp: tmp,
        home,
        project,
        explicit,
    }
}

fn runtime(s: &Setup, vars: &[(&str, &str)]) -> Runtime {
    runtime_in_mode(s, vars, None)
}

/// [`runtime`] with the permission mode chosen as the command line chooses it.
fn runtime_in_mode(
    s: &Setup,
    vars: &[(&str, &str)],
    mode: Option<weft_types::PermissionMode>,
) -> Runtime {
    let mut env = EnvSnapshot::from_vars(vars.iter().copied())
        .with_var("HOME", s.home.to_str().unwrap())
        .with_current_dir(&s.project);
    env = env.with_var("PATH", "/usr/bin:/bin");
    let locations = Locations {
        project: Some(s.project.clone()),
        home: Some(s.home.clone()),
        config: Some(s.explicit.clone()),
        ..Locations::default()
    };
    Runtime::builder(&Workspace::resolve(&locations, env))
        .permission_mode(mode)
        .build()
        .unwrap()
}

fn origin(config: &EffectiveConfig, key: &str) -> Origin {
    config
        .get(key)
        .unwrap_or_else(|| panic!("no {key}: {:#?}", config.settings))
        .origin
        .clone()
}

fn value(config: &EffectiveConfig, key: &str) -> serde_json::Value {
    config.get(key).unwrap().value.clone()
}

#[test]
fn every_value_names_its_origin_and_secrets_are_masked() {
    let s = setup();
    let runtime = runtime(&s, &[("OPENAI_API_KEY", ENV_KEY)]);
    let config = EffectiveConfig::of(&runtime).unwrap();
    let user = Origin::File(s.home.join(".clawft/config.json"));
    let project = Origin::File(s.project.join(".clawft/config.json"));

    // Files: the project's is untrusted, and what it may not set is named.
    let roles: Vec<(FileRole, bool, bool)> = config
        .files
        .iter()
        .map(|f| (f.role, f.found, f.trusted))
        .collect();
    assert_eq!(
        roles,
        [
            (FileRole::User, true, true),
            (FileRole::Project, true, false),
            (FileRole::Explicit, true, true)
        ]
    );
    assert_eq!(config.files[1].ignored, ["mcp_servers", "providers"]);
    assert!(config.get("providers.evil.base_url").is_none());

    // Later files win, and the file that won is named.
    assert_eq!(value(&config, "agent.temperature"), json!(0.7));
    assert_eq!(
        origin(&config, "agent.temperature"),
        Origin::File(s.explicit.clone())
    );
    assert_eq!(origin(&config, "agent.max_tool_iterations"), user);
    assert_eq!(value(&config, "model"), json!("local/m"));
    assert_eq!(origin(&config, "model"), project);

    // Keys: masked, with where they came from.
    assert_eq!(value(&config, "providers.local.api_key"), json!("sk-…XYZ1"));
    assert_eq!(origin(&config, "providers.local.api_key"), user);
    assert_eq!(
        value(&config, "providers.openai.api_key"),
        json!("sk-…ENV2")
    );
    assert_eq!(
        origin(&config, "providers.openai.api_key"),
        Origin::Env("OPENAI_API_KEY".to_owned())
    );
    assert_eq!(
        value(&config, "mcp_servers.gh.env.GITHUB_TOKEN"),
        json!("ghp…ghij")
    );
    assert_eq!(value(&config, "mcp_servers.gh.env.REF"), json!("${HOME}"));
    let shown = config.to_json().to_string();
    for secret in [USER_KEY, ENV_KEY, "ghp_0123456789abcdefghij"] {
        assert!(!shown.contains(secret), "{secret} shown in {shown}");
    }

    // Defaults are what the runtime uses.
    assert_eq!(
        origin(&config, "providers.openai.base_url"),
        Origin::Default
    );
    assert_eq!(
        value(&config, "providers.openai.base_url"),
        json!("https://api.openai.com/v1")
    );
    assert_eq!(origin(&config, "agent.max_spawn_depth"), Origin::Default);
    assert_eq!(value(&config, "agent.max_spawn_depth"), json!(1));
    assert_eq!(
        origin(&config, "mcp_servers.gh.startup_timeout_secs"),
        Origin::Default
    );
    for provider in runtime.models.catalog().providers() {
        let key = format!("providers.{}.base_url", provider.name);
        assert_eq!(value(&config, &key), json!(provider.base_url), "{key}");
    }
    assert_eq!(config.to_json()["agent"]["temperature"], json!(0.7));
}

#[test]
fn the_environment_is_named_only_when_its_value_is_in_effect() {
    let s = setup();
    let runtime = runtime(
        &s,
        &[
            ("WEFT_MODEL", "openai/gpt-4o-mini"),
            ("OPENAI_BASE_URL", "http://localhost:11434/v1"),
            ("OPENAI_API_KEY", "ollama"),
        ],
    );
    let config = EffectiveConfig::of(&runtime).unwrap();
    assert_eq!(value(&config, "model"), json!("openai/gpt-4o-mini"));
    assert_eq!(
        origin(&config, "model"),
        Origin::Env("WEFT_MODEL".to_owned())
    );
    assert_eq!(
        origin(&config, "providers.openai.base_url"),
        Origin::Env("OPENAI_BASE_URL".to_owned())
    );
    // A short key shows nothing of itself.
    assert_eq!(value(&config, "providers.openai.api_key"), json!("…"));
}

#[test]
fn without_any_file_or_variable_everything_is_a_default() {
    let tmp = tempfile::tempdir().unwrap();
    let env = EnvSnapshot::default()
        .with_var("HOME", tmp.path().to_str().unwrap())
        .with_current_dir(tmp.path());
    let locations = Locations {
        home: Some(tmp.path().to_path_buf()),
        ..Locations::default()
    };
    let runtime = Runtime::load(&Workspace::resolve(&locations, env)).unwrap();
    let config = EffectiveConfig::of(&runtime).unwrap();
    assert!(config.files.iter().all(|f| !f.found));
    assert!(config.settings.iter().all(|s| s.origin == Origin::Default));
    assert_eq!(value(&config, "model"), serde_json::Value::Null);
    assert!(config.get("providers").is_none());
}

#[test]
fn the_permission_mode_names_the_file_or_the_command_line_and_a_project_never_sets_bypass() {
    let s = setup();
    // Without a word about permissions: ask, nothing pre-approved, both defaults.
    let config = EffectiveConfig::of(&runtime(&s, &[])).unwrap();
    assert_eq!(value(&config, "permissions.mode"), json!("ask"));
    assert_eq!(origin(&config, "permissions.mode"), Origin::Default);
    assert_eq!(value(&config, "permissions.allow"), json!([]));
    assert_eq!(origin(&config, "permissions.allow"), Origin::Default);

    // The user's file, in Claude Code's spelling: shown as weft spells it, from that file.
    let user = s.home.join(".clawft/config.json");
    write(
        &user,
        &json!({"permissions": {"mode": "acceptEdits", "allow": ["Bash(git status:*)"]}}),
    );
    // A project file (here trusted by the explicit file's list) cannot choose bypass.
    write(
        &s.explicit,
        &json!({"projects": {s.project.to_str().unwrap(): {"trust_level": "trusted"}}}),
    );
    write(
        &s.project.join(".clawft/config.json"),
        &json!({"permissions": {"mode": "bypass"}}),
    );
    let runtime = runtime(&s, &[]);
    let config = EffectiveConfig::of(&runtime).unwrap();
    assert!(config.files[1].found && config.files[1].trusted);
    assert_eq!(value(&config, "permissions.mode"), json!("accept-edits"));
    assert_eq!(
        origin(&config, "permissions.mode"),
        Origin::File(user.clone())
    );
    assert_eq!(
        value(&config, "permissions.allow"),
        json!(["Bash(git status:*)"])
    );
    assert_eq!(origin(&config, "permissions.allow"), Origin::File(user));

    // The command line beats the files, and says so.
    let runtime = runtime_in_mode(&s, &[], Some(weft_types::PermissionMode::Plan));
    let config = EffectiveConfig::of(&runtime).unwrap();
    assert_eq!(value(&config, "permissions.mode"), json!("plan"));
    assert_eq!(
        origin(&config, "permissions.mode"),
        Origin::Flag("--permission-mode".to_owned())
    );
}
