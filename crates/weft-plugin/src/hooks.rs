//! A plugin's hooks: `hooks/hooks.json` and what the manifest's `hooks` names or writes
//! inline, checked for shape and merged, kept as the JSON they are (the hook engine reads
//! that shape: a settings file's `hooks` value). weft runs no hook here; this is data for the
//! engine and for what weft shows before a plugin is installed or enabled.

use std::path::Path;

use serde::Serialize;
use serde_json::{Map, Value};
use weft_types::{InvocationContext, PluginRef};

use crate::error::{PluginError, PluginWarning};

/// Every hook a plugin brings, merged, with the plugin they belong to.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PluginHooks {
    /// The plugin (its root is `${CLAUDE_PLUGIN_ROOT}` for these hooks).
    pub plugin: PluginRef,
    /// Event name to its matcher groups, as written (`{"PostToolUse": [{"matcher": ...,
    /// "hooks": [...]}]}`), merged from every source in order.
    pub events: Map<String, Value>,
    /// Where they came from (`hooks/hooks.json`, `.claude-plugin/plugin.json (inline)`).
    pub sources: Vec<String>,
}

/// One hook handler, for display and scanning.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HookCommand {
    /// The event (`PreToolUse`).
    pub event: String,
    /// The matcher, when the group has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matcher: Option<String>,
    /// The handler's `type` (`command`, `http`, `prompt`, `agent`, `mcp_tool`).
    #[serde(rename = "type")]
    pub kind: String,
    /// What it runs: the command with the plugin's directories filled (or the URL, the
    /// prompt, the tool), arguments appended.
    pub run: String,
}

impl PluginHooks {
    /// The plugin's root: `${CLAUDE_PLUGIN_ROOT}`, and the `CLAUDE_PLUGIN_ROOT` a hook's
    /// process must see in its environment.
    pub fn root(&self) -> &Path {
        &self.plugin.root
    }

    /// The hooks as written: a settings file's `hooks` value.
    pub fn raw(&self) -> Value {
        Value::Object(self.events.clone())
    }

    /// The hooks with `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}` filled in every
    /// handler's `command`, `args`, `url` and `prompt` (through weft-template's
    /// [`fill_directories`](weft_template::fill_directories)): the value to hand to the hook
    /// engine, in a settings file's `hooks` shape.
    pub fn hooks_json(&self) -> Value {
        let ctx = InvocationContext::default().with_plugin(Some(&self.plugin));
        let mut events = self.events.clone();
        for handler in handlers_mut(&mut events) {
            for key in ["command", "url", "prompt"] {
                if let Some(Value::String(text)) = handler.get_mut(key) {
                    *text = weft_template::fill_directories(text, &ctx);
                }
            }
            if let Some(Value::Array(args)) = handler.get_mut("args") {
                for arg in args {
                    if let Value::String(text) = arg {
                        *text = weft_template::fill_directories(text, &ctx);
                    }
                }
            }
        }
        Value::Object(events)
    }

    /// Every handler, in order, with what it runs (directories filled).
    pub fn commands(&self) -> Vec<HookCommand> {
        let Value::Object(events) = self.hooks_json() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (event, groups) in &events {
            for group in groups.as_array().into_iter().flatten() {
                let matcher = group
                    .get("matcher")
                    .and_then(Value::as_str)
                    .filter(|m| !m.is_empty())
                    .map(str::to_owned);
                for handler in group
                    .get("hooks")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    let kind = handler
                        .get("type")
                        .and_then(Value::as_str)
                        .unwrap_or("command")
                        .to_owned();
                    let mut run = ["command", "url", "prompt", "tool"]
                        .iter()
                        .find_map(|k| handler.get(*k).and_then(Value::as_str))
                        .unwrap_or_default()
                        .to_owned();
                    for arg in handler
                        .get("args")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                    {
                        run.push(' ');
                        run.push_str(arg.as_str().unwrap_or_default());
                    }
                    out.push(HookCommand {
                        event: event.clone(),
                        matcher: matcher.clone(),
                        kind,
                        run,
                    });
                }
            }
        }
        out
    }

    /// True when no event has a handler.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }
}

/// Every handler object in `events`.
fn handlers_mut(events: &mut Map<String, Value>) -> impl Iterator<Item = &mut Map<String, Value>> {
    events
        .values_mut()
        .filter_map(Value::as_array_mut)
        .flatten()
        .filter_map(|group| group.get_mut("hooks"))
        .filter_map(Value::as_array_mut)
        .flatten()
        .filter_map(Value::as_object_mut)
}

/// Checks one hooks configuration (a hooks file, or the inline value) and returns its events.
/// It is `{"hooks": {...}}` (a settings file's shape, optionally with a `description`) or the
/// event map itself. Each event is an array of groups `{matcher?, hooks: [handler...]}`; a
/// handler has a `type` (default `command`), and a `command` handler a `command` string.
pub fn parse_hooks(
    value: &Value,
    path: &Path,
    warnings: &mut Vec<PluginWarning>,
) -> Result<Map<String, Value>, PluginError> {
    let bad = |reason: String| PluginError::invalid(path, reason);
    let top = value
        .as_object()
        .ok_or_else(|| bad("a hooks configuration must be a JSON object".to_owned()))?;
    let events = match top.get("hooks") {
        Some(Value::Object(events)) => events,
        Some(_) => return Err(bad("`hooks` must be an object of events".to_owned())),
        None => top,
    };
    for (event, groups) in events {
        // An event Claude Code does not document is kept, with a warning.
        if !weft_types::is_claude_code_hook_event(event) {
            warnings.push(PluginWarning::at(
                path,
                format!("unknown hook event `{event}`; kept as written"),
            ));
        }
        let groups = groups
            .as_array()
            .ok_or_else(|| bad(format!("`{event}` must be an array of matcher groups")))?;
        for (g, group) in groups.iter().enumerate() {
            let at = format!("{event}[{g}]");
            let group = group
                .as_object()
                .ok_or_else(|| bad(format!("`{at}` must be an object")))?;
            if let Some(m) = group.get("matcher")
                && !m.is_string()
            {
                return Err(bad(format!("`{at}.matcher` must be a string")));
            }
            if !group.contains_key("hooks")
                && (group.contains_key("type") || group.contains_key("command"))
            {
                return Err(bad(format!(
                    "`{at}` is a handler where a matcher group belongs: write `{{\"matcher\": ..., \"hooks\": [ <the handler> ]}}`"
                )));
            }
            let handlers = group
                .get("hooks")
                .and_then(Value::as_array)
                .ok_or_else(|| bad(format!("`{at}.hooks` must be an array of handlers")))?;
            for (h, handler) in handlers.iter().enumerate() {
                check_handler(handler, &format!("{at}.hooks[{h}]")).map_err(bad)?;
            }
        }
    }
    Ok(events.clone())
}

fn check_handler(handler: &Value, at: &str) -> Result<(), String> {
    let handler = handler
        .as_object()
        .ok_or_else(|| format!("`{at}` must be an object"))?;
    let kind = match handler.get("type") {
        None => "command",
        Some(Value::String(k)) => k.as_str(),
        Some(_) => return Err(format!("`{at}.type` must be a string")),
    };
    let need = |key: &str| match handler.get(key) {
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(()),
        _ => Err(format!(
            "`{at}` is a `{kind}` hook without a `{key}` string"
        )),
    };
    match kind {
        "command" => need("command")?,
        "http" => need("url")?,
        "prompt" | "agent" => need("prompt")?,
        _ => {}
    }
    if let Some(args) = handler.get("args")
        && !args
            .as_array()
            .is_some_and(|a| a.iter().all(Value::is_string))
    {
        return Err(format!("`{at}.args` must be an array of strings"));
    }
    if let Some(timeout) = handler.get("timeout")
        && !timeout.as_f64().is_some_and(|t| t > 0.0)
    {
        return Err(format!(
            "`{at}.timeout` must be a positive number of seconds"
        ));
    }
    Ok(())
}

/// Appends `more`'s groups to `into`, event by event.
pub(crate) fn merge_events(into: &mut Map<String, Value>, more: Map<String, Value>) {
    for (event, groups) in more {
        let Value::Array(groups) = groups else {
            continue;
        };
        match into.get_mut(&event) {
            Some(Value::Array(existing)) => existing.extend(groups),
            _ => {
                into.insert(event, Value::Array(groups));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn plugin() -> PluginRef {
        PluginRef {
            name: "fmt".into(),
            id: "fmt@acme".into(),
            root: "/plugins/fmt".into(),
            data: None,
        }
    }

    #[test]
    fn hooks_are_checked_merged_and_filled() {
        let mut warnings = Vec::new();
        let file = json!({"description": "x", "hooks": {
            "PostToolUse": [{"matcher": "Edit|Write", "hooks": [
                {"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}\"/fmt.sh $1", "timeout": 30}]}],
            "Custom": [{"hooks": [{"type": "http", "url": "https://h.example/${CLAUDE_PLUGIN_ROOT}"}]}]
        }});
        let mut events = parse_hooks(&file, Path::new("hooks.json"), &mut warnings).unwrap();
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        let inline = json!({"PostToolUse": [{"hooks": [{"command": "echo ${CLAUDE_PLUGIN_DATA}", "args": ["${CLAUDE_PLUGIN_ROOT}/a"]}]}]});
        merge_events(
            &mut events,
            parse_hooks(&inline, Path::new("plugin.json"), &mut warnings).unwrap(),
        );
        let hooks = PluginHooks {
            plugin: plugin(),
            events,
            sources: vec!["hooks/hooks.json".into()],
        };
        assert_eq!(hooks.raw()["PostToolUse"].as_array().unwrap().len(), 2);
        let filled = hooks.hooks_json();
        assert_eq!(
            filled["PostToolUse"][0]["hooks"][0]["command"],
            "\"/plugins/fmt\"/fmt.sh $1"
        );
        let commands = hooks.commands();
        assert_eq!(commands[0].event, "Custom");
        assert_eq!(commands[0].run, "https://h.example//plugins/fmt");
        assert_eq!(commands[1].matcher.as_deref(), Some("Edit|Write"));
        // No data directory: `${CLAUDE_PLUGIN_DATA}` stays as written.
        assert_eq!(commands[2].run, "echo ${CLAUDE_PLUGIN_DATA} /plugins/fmt/a");
    }

    #[test]
    fn malformed_hooks_say_where() {
        for (value, message) in [
            (json!([]), "must be a JSON object"),
            (json!({"hooks": 3}), "`hooks` must be an object"),
            (json!({"Stop": {}}), "`Stop` must be an array"),
            (
                json!({"Stop": [{"hooks": {}}]}),
                "`Stop[0].hooks` must be an array",
            ),
            (
                json!({"Stop": [{"hooks": [{"type": "command"}]}]}),
                "`Stop[0].hooks[0]` is a `command` hook without a `command`",
            ),
            (
                json!({"Stop": [{"matcher": 1, "hooks": []}]}),
                "`Stop[0].matcher` must be a string",
            ),
            (
                json!({"Stop": [{"type": "command", "command": "x"}]}),
                "`Stop[0]` is a handler where a matcher group belongs",
            ),
            (
                json!({"Stop": [{"hooks": [{"command": "x", "timeout": -1}]}]}),
                "timeout",
            ),
            (
                json!({"Stop": [{"hooks": [{"command": "x", "args": [1]}]}]}),
                "args",
            ),
        ] {
            let err = parse_hooks(&value, Path::new("h.json"), &mut Vec::new())
                .unwrap_err()
                .to_string();
            assert!(err.contains(message), "{value}: {err}");
        }
    }
}
