//! `weft doctor` and `weft config show` on the real binary: a bare set-up fails and says what
//! to do; a working one (a loopback provider asked with --online, the MCP reference server)
//! passes with its warnings (an untrusted project file, a broken skill) and notes (an agent
//! whose alias no provider serves runs on the session's model, as `agents show` says); a
//! configuration that does not load fails once and the rest is still checked; lines fit the
//! terminal's width; the effective configuration names the origin of every value and never
//! shows a key.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::sandbox;

use sandbox::server::{ScriptServer, openai_text};
use sandbox::{Sandbox, stdout, write_skill};
use serde_json::{Value, json};

const KEY: &str = "sk-test-0123456789abcdefWXYZ";

/// The parts of a report that depend on the machine or the moment, replaced: the version,
/// the kernel's sandbox support, the cache's size, the time an answer took.
fn redact_report(s: &Sandbox, text: &str) -> String {
    s.redact(text)
        .lines()
        .map(|line| {
            let fields: Vec<&str> = line.splitn(2, "  ").collect();
            match line.split_whitespace().nth(1) {
                Some("weft") => "✓  weft  version [VERSION]".to_owned(),
                Some("sandbox") => format!("{}  sandbox  [KERNEL]", fields[0]),
                Some("cache")
                    if line
                        .rsplit_once(", ")
                        .is_some_and(|(_, t)| t.ends_with('B') || t.ends_with(" bytes")) =>
                {
                    let (head, _) = line.rsplit_once(", ").unwrap();
                    format!("{head}, [SIZE]")
                }
                Some("online") if line.contains("answered in") => {
                    let (head, tail) = line.split_once("answered in ").unwrap();
                    let (_, answer) = tail.split_once(':').unwrap();
                    format!("{head}answered in [TIME]:{answer}")
                }
                _ => line.to_owned(),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_bare_set_up_fails_and_says_what_to_do() {
    let s = Sandbox::new();
    let out = s.weft().arg("doctor").output().unwrap();
    assert_eq!(out.status.code(), Some(1), "no provider is a failed check");
    insta::assert_snapshot!("bare", redact_report(&s, &stdout(&out)));
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("error"),
        "a failed check is a report, not an error"
    );
}

#[test]
fn a_working_set_up_passes_with_its_warnings() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(ScriptServer::openai(vec![openai_text("OK")]));
    let s = Sandbox::new();
    s.user_config(&json!({
        "providers": {"local": {"base_url": format!("{}/v1", server.url), "api_key": KEY, "max_retries": 0}},
        "model": "local/m",
        "mcp_servers": {
            "everything": {"command": "node", "args": [weft_testkit::mcp::everything_server(), "stdio"], "startup_timeout_secs": 30},
            "off": {"command": "x", "enabled": false}
        }
    }));
    // Warnings: an untrusted project file, a skill that does not parse. A note: an agent whose
    // alias no configured provider serves (it runs on the session's model).
    s.project_config(&json!({"providers": {"evil": {"base_url": "http://evil.example/v1"}}}));
    write_skill(
        &s.project.join(".clawft/skills"),
        "fine",
        "A skill that parses.",
    );
    s.file(
        ".clawft/skills/broken/SKILL.md",
        "---\nname: [unclosed\n---\n",
    );
    s.file(
        ".clawft/agents/scout.md",
        "---\nname: scout\ndescription: Looks around.\nmodel: haiku\n---\nLook.\n",
    );

    let out = s.weft().args(["doctor", "--online"]).output().unwrap();
    let report = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{report}");
    let report_shown = redact_report(&s, &report).replace(&server.url, "http://[SERVER]");
    insta::assert_snapshot!("working", report_shown);
    assert!(!report.contains(KEY));
    assert_eq!(server.count(), 1, "--online sent one request");

    let out = s
        .weft()
        .args(["doctor", "--format", "json"])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["failed"], 0);
    let status = |check: &str| {
        doc["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["check"] == check)
            .unwrap_or_else(|| panic!("no {check}: {doc:#}"))["status"]
            .clone()
    };
    assert_eq!(status("provider local"), "ok");
    assert_eq!(status("mcp everything"), "ok");
    assert_eq!(status("mcp off"), "skip");
    assert_eq!(status("online"), "skip");
    assert_eq!(status("config (project)"), "warn");
    assert_eq!(server.count(), 1, "no request without --online");
}

#[test]
fn a_configuration_that_does_not_load_fails_once_and_the_rest_is_checked() {
    let s = Sandbox::new();
    s.user_config(&json!({"modle": 1}));
    write_skill(
        &s.project.join(".clawft/skills"),
        "fine",
        "A skill that parses.",
    );
    // `text` is the table's other spelling, as for the commands whose default is text.
    let out = s
        .weft()
        .args(["doctor", "--format", "text"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    insta::assert_snapshot!("bad_config", redact_report(&s, &stdout(&out)));
}

#[test]
fn lines_fit_the_terminal_width() {
    let s = Sandbox::new();
    s.user_config(
        &json!({"providers": {"local": {"base_url": "http://127.0.0.1:9/v1"}}, "model": "local/m"}),
    );
    let out = s
        .weft()
        .arg("doctor")
        .env("COLUMNS", "60")
        .output()
        .unwrap();
    let report = stdout(&out);
    for line in report.lines() {
        assert!(line.chars().count() <= 60, "wider than 60 columns: {line}");
    }
    let cut = report.lines().filter(|l| l.ends_with('…')).count();
    assert!(cut > 0, "nothing needed cutting at 60 columns:\n{report}");
    // Through a pipe without COLUMNS, every line is whole.
    let whole = stdout(&s.weft().arg("doctor").output().unwrap());
    assert!(!whole.contains('…'), "{whole}");
}

#[test]
fn a_server_that_does_not_start_and_a_missing_key_fail() {
    let s = Sandbox::new();
    s.user_config(&json!({
        "providers": {"openai": {}},
        "model": "openai/gpt-4o-mini",
        "mcp_servers": {"broken": {"command": "/nonexistent/server"}}
    }));
    let out = s.weft().arg("doctor").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let report = stdout(&out);
    let line = |subject: &str| {
        report
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(subject))
            .unwrap_or_else(|| panic!("no {subject}:\n{report}"))
            .to_owned()
    };
    assert!(line("provider").starts_with("✗"), "{report}");
    assert!(
        line("provider").contains("no API key (set OPENAI_API_KEY"),
        "{report}"
    );
    assert!(line("mcp").starts_with("✗"), "{report}");
    assert!(line("mcp").contains("/nonexistent/server"), "{report}");
    assert!(report.ends_with("2 checks failed.\n"), "{report}");
}

#[test]
fn config_show_names_the_origin_of_every_value() {
    let s = Sandbox::new();
    s.user_config(&json!({"agent": {"temperature": 0.2}, "providers": {"local": {"base_url": "http://127.0.0.1:9/v1", "api_key": KEY}}}));
    s.project_config(&json!({"model": "local/m", "mcp_servers": {"x": {"command": "/tmp/x"}}}));
    let with_env = |args: &[&str]| {
        s.weft()
            .args(args)
            .env("OPENAI_API_KEY", "sk-env-0123456789abcdefENVK")
            .env("WEFT_MODEL", "openai/gpt-4o-mini")
            .output()
            .unwrap()
    };

    let out = with_env(&["config", "show", "--origin"]);
    assert!(out.status.success());
    insta::assert_snapshot!("config_origin", s.redact(&stdout(&out)));

    let out = with_env(&["config", "show"]);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["model"], "openai/gpt-4o-mini");
    assert_eq!(doc["providers"]["openai"]["api_key"], "sk-…ENVK");
    assert_eq!(doc["providers"]["local"]["api_key"], "sk-…WXYZ");
    assert_eq!(doc["agent"]["temperature"], 0.2);
    assert!(!stdout(&out).contains(KEY));

    let out = with_env(&["config", "show", "providers.local.api_key"]);
    assert_eq!(stdout(&out), "\"sk-…WXYZ\"\n");
    let out = with_env(&["config", "show", "--origin", "--format", "json", "model"]);
    let rows: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        rows,
        json!([{"key": "model", "value": "openai/gpt-4o-mini", "origin": {"kind": "env", "var": "WEFT_MODEL"}}])
    );
    let out = with_env(&["config", "show", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no configuration key `nope`"));
}

/// A provider whose key variable is not set stops only the runs that use it: the others
/// work, `config show` loads, doctor marks that provider, and a run on it is a configuration
/// error naming the variable. A user file that is `{}` shows no row with an empty key.
#[test]
fn a_provider_without_its_key_stops_only_the_runs_that_use_it() {
    let s = Sandbox::new();
    s.outside("rec.jsonl", &json!({"content": "replayed"}).to_string());
    let config = s.config(&json!({
        "providers": {
            "openai": {"api_key_env": "WEFT_TEST_UNSET_KEY"},
            "demo": {"kind": "replay", "file": "rec.jsonl"}
        },
        "model": "demo/replay"
    }));
    let run = |args: &[&str]| {
        s.weft()
            .arg("--config")
            .arg(&config)
            .args(args)
            .env_remove("WEFT_TEST_UNSET_KEY")
            .output()
            .unwrap()
    };
    let used = run(&["agent", "-m", "hi", "--no-transcript"]);
    assert_eq!(
        stdout(&used),
        "replayed\n",
        "{}",
        String::from_utf8_lossy(&used.stderr)
    );
    let other = run(&[
        "agent",
        "-m",
        "hi",
        "--model",
        "openai/gpt-4.1",
        "--no-transcript",
    ]);
    assert_eq!(other.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&other.stderr),
        "error: provider `openai`: the environment variable WEFT_TEST_UNSET_KEY is not set\n"
    );
    assert!(run(&["config", "show"]).status.success());
    let doctor = run(&["doctor"]);
    let line = stdout(&doctor)
        .lines()
        .find(|l| l.contains("provider openai"))
        .unwrap()
        .to_owned();
    assert!(
        line.starts_with("✗")
            && line.ends_with("https://api.openai.com/v1: the environment variable WEFT_TEST_UNSET_KEY is not set; runs that use it fail, the others work"),
        "{line}"
    );

    s.user_config(&json!({}));
    let origin = s
        .weft()
        .args(["config", "show", "--origin"])
        .output()
        .unwrap();
    let text = stdout(&origin);
    let (_, rows) = text.split_once("\nKEY ").unwrap();
    assert!(
        rows.lines().skip(1).all(|l| !l.starts_with(' ')),
        "a row with an empty key:\n{text}"
    );
}
