//! `weft config show [KEY] [--origin]`: the configuration in effect (files, environment and
//! defaults merged, secrets masked), optionally with where each value came from. The rows
//! built here are also what `/config --origin` shows in a session.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;
use serde_json::{Value, json};
use weft_runtime::{
    ConfigFileState, EffectiveConfig, Origin, Runtime, Setting, UsageError, Workspace,
    settings_json,
};
use weft_term::{fit_table, tilde};
use weft_types::PermissionMode;

use crate::cli::{ConfigShowArgs, ListFormat};
use crate::environment::stdout_terminal;
use crate::output::out;

/// The header of the origin table.
pub const ORIGIN_HEADER: [&str; 3] = ["KEY", "VALUE", "ORIGIN"];

/// An origin as a person reads it: `~/.clawft/config.json`, `env OPENAI_API_KEY`,
/// `--permission-mode`, `default`.
pub fn origin_label(origin: &Origin, home: Option<&Path>) -> String {
    match origin {
        Origin::File(path) => tilde(path, home),
        Origin::Files(paths) => paths
            .iter()
            .map(|p| tilde(p, home))
            .collect::<Vec<_>>()
            .join(" + "),
        other => other.to_string(),
    }
}

/// One row per setting: key, value (compact JSON; strings bare), origin.
pub fn origin_rows(settings: &[&Setting], home: Option<&Path>) -> Vec<Vec<String>> {
    settings
        .iter()
        .map(|s| {
            let value = match &s.value {
                Value::String(text) => text.clone(),
                Value::Null => "(not set)".to_owned(),
                other => other.to_string(),
            };
            vec![s.dotted(), value, origin_label(&s.origin, home)]
        })
        .collect()
}

/// One line per configuration file: role, path, and whether it was found and is trusted.
pub fn file_lines(files: &[ConfigFileState], home: Option<&Path>) -> Vec<Vec<String>> {
    files
        .iter()
        .map(|f| {
            let mut state = match (f.found, f.trusted) {
                (false, _) => "not found".to_owned(),
                (true, true) if f.ignored.is_empty() => "read".to_owned(),
                (true, true) => format!("read ({} ignored)", f.ignored.join(", ")),
                (true, false) if f.ignored.is_empty() => "read (untrusted project)".to_owned(),
                (true, false) => format!(
                    "read (untrusted project: {} ignored; --trust-project accepts them)",
                    f.ignored.join(", ")
                ),
            };
            if !f.unused.is_empty() {
                state.push_str(&format!("; not used by weft: {}", f.unused.join(", ")));
            }
            vec![format!("  {}", f.role.label()), tilde(&f.path, home), state]
        })
        .collect()
}

/// The settings under `key` (itself, or everything below it); all without a key.
fn selected<'c>(config: &'c EffectiveConfig, key: Option<&str>) -> Vec<&'c Setting> {
    config
        .settings
        .iter()
        .filter(|s| {
            key.is_none_or(|k| {
                let dotted = s.dotted();
                dotted == k || dotted.starts_with(&format!("{k}."))
            })
        })
        .collect()
}

/// `weft config show`.
pub fn show(
    workspace: &Workspace,
    args: &ConfigShowArgs,
    mode: Option<PermissionMode>,
) -> Result<ExitCode> {
    let runtime = Runtime::builder(workspace).permission_mode(mode).build()?;
    let config = EffectiveConfig::of(&runtime)?;
    let settings = selected(&config, args.key.as_deref());
    if let Some(key) = &args.key
        && settings.is_empty()
    {
        let known = config
            .settings
            .iter()
            .map(Setting::dotted)
            .collect::<Vec<_>>();
        let message = weft_repl::unknown_key(key, known.iter().map(String::as_str));
        return Err(UsageError::new(format!("{message} (weft config show lists them all)")).into());
    }
    let home = workspace.home.as_deref();
    match (args.origin, args.format) {
        (false, _) => {
            let doc = settings_json(settings.iter().copied());
            let doc = match &args.key {
                Some(key) => weft_repl::lookup(&doc, key).cloned().unwrap_or(Value::Null),
                None => doc,
            };
            out!("{}\n", crate::output::json_pretty(&doc)?);
        }
        (true, ListFormat::Json) => {
            let list: Vec<Value> = settings
                .iter()
                .map(|s| json!({"key": s.dotted(), "value": s.value, "origin": origin_json(&s.origin)}))
                .collect();
            out!("{}\n", crate::output::json_pretty(&list)?);
        }
        (true, ListFormat::Table) => {
            out!("Files (merge order):\n");
            out!("{}\n", weft_term::columns(&file_lines(&config.files, home)));
            let rows = origin_rows(&settings, home);
            out!(
                "{}",
                fit_table(&ORIGIN_HEADER, &rows, stdout_terminal().width)
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// An origin for scripts: `{"kind": "file", "path": ...}`, `{"kind": "env", "var": ...}`,
/// `{"kind": "flag", "flag": "--permission-mode"}`, `{"kind": "default"}`.
fn origin_json(origin: &Origin) -> Value {
    match origin {
        Origin::File(path) => json!({"kind": "file", "path": path}),
        Origin::Files(paths) => json!({"kind": "files", "paths": paths}),
        Origin::Env(var) => json!({"kind": "env", "var": var}),
        Origin::Flag(flag) => json!({"kind": "flag", "flag": flag}),
        Origin::Default => json!({"kind": "default"}),
    }
}
