//! Errors that help, through the binary: the closest names for a mistyped skill, agent,
//! model, provider, configuration key or subcommand; a skill that exists but does not load
//! reported with its errors (not as "not found"); the default model of a single well-known
//! provider.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::sandbox;

use sandbox::{Sandbox, stderr, write_skill};
use serde_json::{Value, json};

/// A sandbox with two project skills, `greet` and `review-pr`.
fn with_skills() -> Sandbox {
    let s = Sandbox::new();
    let skills = s.project.join(".clawft/skills");
    write_skill(&skills, "greet", "Greets someone");
    write_skill(&skills, "review-pr", "Reviews a pull request");
    s
}

/// Runs each command and writes `$ args`, its exit status and its stderr, for a snapshot.
fn transcript(s: &Sandbox, env: &[(&str, &str)], commands: &[&[&str]]) -> String {
    let mut out = String::new();
    for args in commands {
        let mut cmd = s.weft();
        cmd.envs(env.iter().copied()).args(*args);
        let output = cmd.output().unwrap();
        out.push_str(&format!(
            "$ weft {}\nexit {}\n{}\n",
            s.redact(&args.join(" ")),
            output.status.code().unwrap(),
            s.redact(&stderr(&output)).trim_end()
        ));
    }
    out
}

#[test]
fn mistyped_skills_agents_and_commands_get_the_closest_names() {
    let s = with_skills();
    let out = transcript(
        &s,
        &[],
        &[
            &["skills", "show", "gret"],
            &["skills", "show", "zzzzzz"],
            &["skills", "run", "reveiw-pr", "--dry-run"],
            &["agent", "--agent", "explor", "-m", "hi", "--dry-run"],
            &["agents", "show", "planer"],
            &["skils", "list"],
            &["help", "exit-code"],
        ],
    );
    insta::assert_snapshot!("suggest_names", out);
}

#[test]
fn mistyped_models_and_providers_get_the_closest_names() {
    let s = Sandbox::new();
    let out = transcript(
        &s,
        &[("OPENAI_API_KEY", "sk-test")],
        &[
            &["agent", "--model", "gpt-4o", "-m", "hi", "--dry-run"],
            &["agent", "--model", "opnai/gpt-4o", "-m", "hi", "--dry-run"],
        ],
    );
    let anthropic = transcript(
        &s,
        &[("ANTHROPIC_API_KEY", "sk-test")],
        &[&["agent", "--model", "sonet", "-m", "hi", "--dry-run"]],
    );
    insta::assert_snapshot!("suggest_models", format!("{out}{anthropic}"));
}

/// One parser reads a permission mode wherever it is written: a misspelt one on the command
/// line is clap's usage error with that parser's reason, and in a configuration file an error
/// of the file that names the key.
#[test]
fn a_misspelt_permission_mode_is_refused_with_the_spellings() {
    let s = Sandbox::new();
    let mut out = transcript(&s, &[], &[&["--permission-mode", "yolo", "agents", "list"]]);
    let config = s.config(&json!({"permissions": {"mode": "acceptedits"}}));
    out.push_str(&transcript(
        &s,
        &[],
        &[&["--config", config.to_str().unwrap(), "agents", "list"]],
    ));
    insta::assert_snapshot!("misspelt_permission_mode", out);
}

#[test]
fn an_unknown_config_key_names_its_file_line_path_and_the_closest_key() {
    let s = Sandbox::new();
    std::fs::create_dir_all(s.home.join(".clawft")).unwrap();
    std::fs::write(
        s.home.join(".clawft/config.json"),
        "{\n  \"mcp_servers\": {\n    \"github\": {\n      \"command\": \"npx\",\n      \"argz\": [\"-y\"]\n    }\n  }\n}\n",
    )
    .unwrap();
    let mut out = transcript(&s, &[], &[&["agents", "list"]]);
    let s = Sandbox::new();
    let config = s.config(&json!({"modle": "openai/gpt-4.1"}));
    out.push_str(&transcript(
        &s,
        &[],
        &[&["--config", config.to_str().unwrap(), "agents", "list"]],
    ));
    insta::assert_snapshot!("suggest_config_keys", out);
}

#[test]
fn a_skill_that_does_not_load_is_reported_with_its_errors_not_as_missing() {
    let s = Sandbox::new();
    // The directory is not named like the skill: the name comes from the file.
    s.file(
        ".clawft/skills/wip/SKILL.md",
        "---\nname: half-done\ndescription: [1, 2]\n---\n\nDo it.\n",
    );
    let out = transcript(
        &s,
        &[],
        &[
            &["skills", "show", "half-done"],
            &["skills", "run", "half-done", "--dry-run"],
        ],
    );
    insta::assert_snapshot!("broken_skill", out);
}

/// The provider and the model a dry run would use.
fn dry_run_model(s: &Sandbox, env: &[(&str, &str)]) -> (i32, String) {
    let out = s
        .weft()
        .envs(env.iter().copied())
        .args(["agent", "-m", "hi", "--dry-run"])
        .output()
        .unwrap();
    let code = out.status.code().unwrap();
    if code != 0 {
        return (code, stderr(&out));
    }
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    (
        code,
        format!(
            "{}/{}",
            doc["provider"].as_str().unwrap(),
            doc["request"]["model"].as_str().unwrap()
        ),
    )
}

#[test]
fn a_single_well_known_provider_has_a_documented_default_model() {
    let s = Sandbox::new();
    assert_eq!(
        dry_run_model(&s, &[("OPENAI_API_KEY", "sk-test")]),
        (0, "openai/gpt-4.1".to_owned())
    );
    assert_eq!(
        dry_run_model(&s, &[("ANTHROPIC_API_KEY", "sk-test")]),
        (0, "anthropic/claude-sonnet-4-5".to_owned())
    );
    // Two providers: the choice is the user's, and a dry run still works offline.
    assert_eq!(
        dry_run_model(&s, &[("OPENAI_API_KEY", "a"), ("ANTHROPIC_API_KEY", "b")]),
        (0, "offline/dry-run".to_owned())
    );
    let (code, err) = {
        let out = s
            .weft()
            .env("OPENAI_API_KEY", "a")
            .env("ANTHROPIC_API_KEY", "b")
            .args(["agent", "-m", "hi"])
            .output()
            .unwrap();
        (out.status.code().unwrap(), stderr(&out))
    };
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: no model configured: set `model` in the config, WEFT_MODEL, or pass --model provider/model\n"
    );
}
