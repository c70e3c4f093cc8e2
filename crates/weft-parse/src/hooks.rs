//! `hooks`: Claude Code's hook configuration, the one reader for every place it is written
//! (the `hooks` key of a settings file, a plugin's `hooks/hooks.json`, a skill's or an agent's
//! frontmatter).
//!
//! ```yaml
//! hooks:
//!   PreToolUse:
//!     - matcher: "Bash"
//!       hooks:
//!         - type: command
//!           command: "./check.sh"
//!           timeout: 30
//! ```
//!
//! Every problem is a diagnostic naming the entry (`hooks.PreToolUse[0].hooks[1]`), and only
//! that entry is skipped: a malformed hook never stops the others. An event or handler weft
//! does not run (`PermissionRequest`, `type: prompt`) is named (`W147`), never silently
//! dropped.

use std::path::Path;

use serde::Deserialize as _;
use weft_types::suggest::{closest_names, did_you_mean};
use weft_types::{
    Diagnostic, HookEvent, HookGroup, HookHandler, Position, UNSUPPORTED_HOOK_EVENTS,
};

use crate::fields::{self, Field, Fields};
use crate::name::shorten;
use crate::node::{Node, NodeKind};
use crate::report::Report;
use crate::rules::{Profile, Rule};

/// Handler types Claude Code defines besides `command`, which weft does not run.
const OTHER_HANDLER_TYPES: [&str; 4] = ["http", "mcp_tool", "prompt", "agent"];

/// The hooks of a JSON `hooks` value (a settings file's, a plugin's `hooks.json`'s), with the
/// diagnostics of `path` under `profile`.
///
/// ```
/// use std::path::Path;
/// use weft_parse::{Profile, parse_hooks_value};
///
/// let value = serde_json::json!({"PreToolUse": [{"matcher": "Bash",
///     "hooks": [{"type": "command", "command": "./check.sh", "timeout": 5}]}]});
/// let (groups, diagnostics) = parse_hooks_value(&value, Path::new("settings.json"), Profile::Load);
/// assert!(diagnostics.is_empty());
/// assert_eq!(groups[0].handlers[0].command, "./check.sh");
/// assert_eq!(groups[0].handlers[0].timeout_secs, Some(5));
/// ```
pub fn parse_hooks_value(
    value: &serde_json::Value,
    path: &Path,
    profile: Profile,
) -> (Vec<HookGroup>, Vec<Diagnostic>) {
    let mut report = Report::new(path, profile);
    let groups = match Node::deserialize(value) {
        Ok(node) => read_hooks(&node, None, &mut report),
        Err(e) => {
            report.emit(Rule::InvalidHook, None, || {
                format!("`hooks` cannot be read: {e}")
            });
            Vec::new()
        }
    };
    (groups, report.finish())
}

/// Reads the `hooks` field of a frontmatter or agent file.
pub(crate) fn read_hooks_field(field: &Field<'_>, report: &mut Report<'_>) -> Vec<HookGroup> {
    read_hooks(field.value, field.key_pos, report)
}

/// Reads a `hooks` mapping (`Event: [group, ...]`).
fn read_hooks(node: &Node, anchor: Option<Position>, report: &mut Report<'_>) -> Vec<HookGroup> {
    let entries = match &node.kind {
        NodeKind::Map(entries) => entries,
        NodeKind::Null => return Vec::new(),
        _ => {
            report.emit(Rule::InvalidHook, node.pos.or(anchor), || {
                format!(
                    "`hooks` must be a mapping of events to lists, found {}; no hook is read",
                    fields::describe(node)
                )
            });
            return Vec::new();
        }
    };
    let mut groups = Vec::new();
    for field in Fields::new(entries, report).untaken() {
        let Some(event) = read_event(&field, report) else {
            continue;
        };
        let where_ = format!("hooks.{}", field.key);
        let items = match &field.value.kind {
            NodeKind::Seq(items) => items.as_slice(),
            NodeKind::Null => &[],
            _ => {
                report.emit(Rule::InvalidHook, field.pos(), || {
                    format!(
                        "`{where_}` must be a list of matcher groups, found {}; skipped",
                        fields::describe(field.value)
                    )
                });
                groups.extend(unrunnable_group(
                    event,
                    &where_,
                    "it is not a list of matcher groups",
                ));
                continue;
            }
        };
        for (i, item) in items.iter().enumerate() {
            let at = format!("{where_}[{i}]");
            if let Some(group) = read_group(item, event, &at, report) {
                groups.push(group);
            }
        }
    }
    groups
}

/// The event a key names, or a diagnostic: weft does not run it, or no one defines it.
fn read_event(field: &Field<'_>, report: &mut Report<'_>) -> Option<HookEvent> {
    let key = field.key;
    if let Ok(event) = key.parse::<HookEvent>() {
        return Some(event);
    }
    if UNSUPPORTED_HOOK_EVENTS.contains(&key) {
        report.emit(Rule::UnsupportedHook, field.key_pos, || {
            format!("hook event `{key}` is Claude Code's; weft does not run it, so its hooks have no effect")
        });
    } else {
        report.emit(Rule::InvalidHook, field.key_pos, || {
            let names = HookEvent::ALL.iter().map(|e| e.as_str());
            let hint = did_you_mean(&closest_names(key, names));
            format!(
                "unknown hook event `{}`{hint}; its hooks are skipped",
                shorten(key)
            )
        });
    }
    None
}

/// One matcher group: `{matcher, hooks: [handler, ...]}`.
fn read_group(
    node: &Node,
    event: HookEvent,
    at: &str,
    report: &mut Report<'_>,
) -> Option<HookGroup> {
    let NodeKind::Map(entries) = &node.kind else {
        report.emit(Rule::InvalidHook, node.pos, || {
            format!(
                "`{at}` must be a mapping with `hooks` (and `matcher`), found {}; skipped",
                fields::describe(node)
            )
        });
        return unrunnable_group(event, at, "it is not a mapping with `hooks`");
    };
    let mut f = Fields::new(entries, report);
    let matcher = match f.take(report, &["matcher"]) {
        None => None,
        Some(field) => match &field.value.kind {
            NodeKind::Scalar(text) => Some(text.clone()),
            NodeKind::Null => None,
            _ => {
                report.emit(Rule::InvalidHook, field.pos(), || {
                    format!(
                        "`{at}.matcher` must be a string, found {}; the group is skipped",
                        fields::describe(field.value)
                    )
                });
                return unrunnable_group(event, at, "its `matcher` is not a string");
            }
        },
    };
    let Some(handlers) = f.take(report, &["hooks"]) else {
        report.emit(Rule::InvalidHook, node.pos, || {
            format!("`{at}` has no `hooks` list; skipped")
        });
        return unrunnable_group(event, at, "it has no `hooks` list");
    };
    report_unknown(&f, at, &[], report);
    let items = match &handlers.value.kind {
        NodeKind::Seq(items) => items.as_slice(),
        _ => {
            report.emit(Rule::InvalidHook, handlers.pos(), || {
                format!(
                    "`{at}.hooks` must be a list of handlers, found {}; the group is skipped",
                    fields::describe(handlers.value)
                )
            });
            return unrunnable_group(event, at, "its `hooks` is not a list of handlers");
        }
    };
    let handlers: Vec<HookHandler> = items
        .iter()
        .enumerate()
        .filter_map(|(i, item)| {
            match read_handler(item, event, &format!("{at}.hooks[{i}]"), report) {
                Ok(handler) => Some(handler),
                Err(skipped) => keeps_unrunnable(event)
                    .then(|| HookHandler::unrunnable(skipped.label, skipped.why)),
            }
        })
        .collect();
    (!handlers.is_empty()).then_some(HookGroup {
        event,
        matcher,
        handlers,
    })
}

/// True for the events whose handlers are kept when weft cannot run them: a PreToolUse
/// policy hook that cannot run makes the calls it would judge ask a person, instead of
/// letting them through unjudged.
fn keeps_unrunnable(event: HookEvent) -> bool {
    event == HookEvent::PreToolUse
}

/// For a matcher group weft cannot read under PreToolUse: a group matching every tool with
/// one handler that cannot run (see [`keeps_unrunnable`]); elsewhere nothing.
fn unrunnable_group(event: HookEvent, at: &str, why: &str) -> Option<HookGroup> {
    keeps_unrunnable(event).then(|| HookGroup {
        event,
        matcher: None,
        handlers: vec![HookHandler::unrunnable(format!("<{at}>"), why)],
    })
}

/// Why a handler cannot run: what to show for it, and why (see
/// [`HookHandler::unrunnable`]).
struct Unrunnable {
    label: String,
    why: String,
}

impl Unrunnable {
    fn new(at: &str, why: impl Into<String>) -> Self {
        Self {
            label: format!("<{at}>"),
            why: why.into(),
        }
    }
}

/// One handler: `{type: command, command, timeout?, args?, if?, once?, async?}`; `Err` when
/// weft cannot run it (after its diagnostic).
fn read_handler(
    node: &Node,
    event: HookEvent,
    at: &str,
    report: &mut Report<'_>,
) -> Result<HookHandler, Unrunnable> {
    let NodeKind::Map(entries) = &node.kind else {
        report.emit(Rule::InvalidHook, node.pos, || {
            format!(
                "`{at}` must be a mapping with `type` and `command`, found {}; skipped",
                fields::describe(node)
            )
        });
        return Err(Unrunnable::new(
            at,
            "it is not a mapping with `type` and `command`",
        ));
    };
    let mut f = Fields::new(entries, report);
    let kind = f.take(report, &["type"]);
    match kind.as_ref().and_then(|k| k.value.as_scalar()) {
        Some("command") => {}
        Some(other) if OTHER_HANDLER_TYPES.contains(&other) => {
            report.emit(Rule::UnsupportedHook, kind.as_ref().and_then(Field::pos), || {
                let effect = if keeps_unrunnable(event) {
                    "every call it selects asks a person instead"
                } else {
                    "this one has no effect"
                };
                format!("`{at}`: hooks of type `{other}` are Claude Code's; weft runs only `type: command`, so {effect}")
            });
            return Err(Unrunnable {
                label: format!("<type: {other}>"),
                why: format!("weft does not run hooks of type `{other}`"),
            });
        }
        Some(other) => {
            let other = shorten(other);
            report.emit(
                Rule::InvalidHook,
                kind.as_ref().and_then(Field::pos),
                || format!("`{at}`: unknown hook type `{other}` (expected `command`); skipped"),
            );
            return Err(Unrunnable::new(
                at,
                format!("its type `{other}` is unknown"),
            ));
        }
        None => {
            report.emit(Rule::InvalidHook, node.pos, || {
                format!("`{at}` has no `type: command`; skipped")
            });
            return Err(Unrunnable::new(at, "it has no `type: command`"));
        }
    }
    let command = f
        .take(report, &["command"])
        .and_then(|c| c.value.as_scalar().map(str::to_owned))
        .filter(|c| !c.trim().is_empty());
    let Some(command) = command else {
        report.emit(Rule::InvalidHook, node.pos, || {
            format!("`{at}` has no `command` (a non-empty string); skipped")
        });
        return Err(Unrunnable::new(at, "it has no `command`"));
    };
    let unrunnable = |why: &str| Unrunnable {
        label: command.clone(),
        why: why.to_owned(),
    };
    let mut handler = HookHandler::new(command.clone());
    if let Some(field) = f.take(report, &["timeout"]) {
        handler.timeout_secs = read_timeout(&field, at, report);
    }
    if let Some(field) = f.take(report, &["args"]) {
        handler.args = read_args(&field, at, report)
            .ok_or_else(|| unrunnable("its `args` are not a list of strings"))?;
    }
    if let Some(field) = f.take(report, &["if"]) {
        match field.value.as_scalar().map(str::trim) {
            Some(rule) if !rule.is_empty() => handler.condition = Some(rule.to_owned()),
            _ => {
                report.emit(Rule::InvalidHook, field.pos(), || {
                    format!(
                        "`{at}.if` must be one permission rule (`Bash(git *)`); the hook is skipped"
                    )
                });
                return Err(unrunnable("its `if` is not one permission rule"));
            }
        }
    }
    if let Some(field) = f.take(report, &["once"]) {
        handler.once = fields::boolean(report, &field).unwrap_or(false);
    }
    if let Some(field) = f.take(report, &["async"])
        && fields::boolean(report, &field) == Some(true)
    {
        report.emit(Rule::UnsupportedHook, field.pos(), || {
            format!("`{at}.async`: weft runs every hook to its end before going on; this one too")
        });
    }
    report_unknown(&f, at, &["statusMessage"], report);
    Ok(handler)
}

/// `timeout`: whole seconds, at least 1.
fn read_timeout(field: &Field<'_>, at: &str, report: &mut Report<'_>) -> Option<u64> {
    let secs = field
        .value
        .as_scalar()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .filter(|n| *n > 0);
    if secs.is_none() {
        let found = fields::describe(field.value);
        report.emit(Rule::InvalidHook, field.pos(), || {
            format!("`{at}.timeout` must be a whole number of seconds, at least 1, found {found}; the default applies")
        });
    }
    secs
}

/// `args`: a list of strings (exec form). `None` in the outer option skips the handler.
fn read_args(field: &Field<'_>, at: &str, report: &mut Report<'_>) -> Option<Option<Vec<String>>> {
    let items = match &field.value.kind {
        NodeKind::Seq(items) => items,
        NodeKind::Null => return Some(None),
        _ => {
            report.emit(Rule::InvalidHook, field.pos(), || {
                format!("`{at}.args` must be a list of strings; the hook is skipped")
            });
            return None;
        }
    };
    let mut args = Vec::with_capacity(items.len());
    for item in items {
        let Some(text) = item.as_scalar() else {
            report.emit(Rule::InvalidHook, item.pos, || {
                format!("`{at}.args` must hold strings only; the hook is skipped")
            });
            return None;
        };
        args.push(text.to_owned());
    }
    Some(Some(args))
}

/// Keys nobody took: named once, without effect (`quiet` lists harmless ones).
fn report_unknown(f: &Fields<'_>, at: &str, quiet: &[&str], report: &mut Report<'_>) {
    for field in f.untaken() {
        if quiet.contains(&field.key) {
            continue;
        }
        let key = shorten(field.key);
        report.emit(Rule::UnsupportedHook, field.key_pos, || {
            format!("`{at}.{key}` is not a hook field weft knows; ignored")
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(value: serde_json::Value) -> (Vec<HookGroup>, Vec<String>) {
        let (groups, diagnostics) =
            parse_hooks_value(&value, Path::new("s.json"), Profile::Validate);
        let messages = diagnostics
            .iter()
            .map(|d| format!("{}: {}", d.code, d.message))
            .collect();
        (groups, messages)
    }

    #[test]
    fn a_settings_hooks_value_reads_every_field() {
        let (groups, messages) = parse(json!({
            "PreToolUse": [{"matcher": "Edit|Write", "hooks": [
                {"type": "command", "command": "fmt.sh", "timeout": 30, "if": "Edit(src/**)", "once": true},
                {"type": "command", "command": "/bin/echo", "args": ["a", "b"], "statusMessage": "x"}
            ]}],
            "Stop": [{"hooks": [{"type": "command", "command": "check"}]}]
        }));
        assert!(messages.is_empty(), "{messages:?}");
        assert_eq!(groups.len(), 2);
        let pre = &groups[0];
        assert_eq!(pre.event, HookEvent::PreToolUse);
        assert_eq!(pre.matcher.as_deref(), Some("Edit|Write"));
        let first = &pre.handlers[0];
        assert_eq!(
            (first.timeout_secs, first.condition.as_deref(), first.once),
            (Some(30), Some("Edit(src/**)"), true)
        );
        assert_eq!(pre.handlers[1].args, Some(vec!["a".into(), "b".into()]));
        assert_eq!(groups[1].event, HookEvent::Stop);
        assert_eq!(groups[1].matcher, None);
    }

    #[test]
    fn malformed_entries_are_named_and_only_they_are_skipped() {
        let (groups, messages) = parse(json!({
            "PreToolUse": [
                {"matcher": [3], "hooks": []},
                {"matcher": "Bash", "hooks": [
                    {"type": "command"},
                    {"type": "prompt", "prompt": "is it safe?"},
                    {"type": "command", "command": "ok.sh", "timeout": -1, "async": true, "colour": "red"},
                    "echo"
                ]},
                "oops"
            ],
            "PermissionRequest": [],
            "PreToolUze": [],
            "Stop": {"hooks": []}
        }));
        assert_eq!(
            messages,
            [
                "W147: hook event `PermissionRequest` is Claude Code's; weft does not run it, so its hooks have no effect",
                "E146: `hooks.PreToolUse[0].matcher` must be a string, found a list; the group is skipped",
                "E146: `hooks.PreToolUse[1].hooks[0]` has no `command` (a non-empty string); skipped",
                "W147: `hooks.PreToolUse[1].hooks[1]`: hooks of type `prompt` are Claude Code's; weft runs only `type: command`, so every call it selects asks a person instead",
                "E146: `hooks.PreToolUse[1].hooks[2].timeout` must be a whole number of seconds, at least 1, found `-1`; the default applies",
                "W147: `hooks.PreToolUse[1].hooks[2].async`: weft runs every hook to its end before going on; this one too",
                "W147: `hooks.PreToolUse[1].hooks[2].colour` is not a hook field weft knows; ignored",
                "E146: `hooks.PreToolUse[1].hooks[3]` must be a mapping with `type` and `command`, found `echo`; skipped",
                "E146: `hooks.PreToolUse[2]` must be a mapping with `hooks` (and `matcher`), found `oops`; skipped",
                "E146: unknown hook event `PreToolUze`; did you mean `PreToolUse`?; its hooks are skipped",
                "E146: `hooks.Stop` must be a list of matcher groups, found a mapping; skipped",
            ]
        );
        // Under PreToolUse what cannot run is kept, as a handler that never runs: a policy
        // hook weft cannot run makes the calls it would judge ask (elsewhere it is dropped).
        let kept: Vec<(Option<&str>, &str, Option<&str>)> = groups
            .iter()
            .flat_map(|g| {
                g.handlers.iter().map(|h| {
                    (
                        g.matcher.as_deref(),
                        h.command.as_str(),
                        h.unrunnable.as_deref(),
                    )
                })
            })
            .collect();
        assert_eq!(
            kept,
            [
                (
                    None,
                    "<hooks.PreToolUse[0]>",
                    Some("its `matcher` is not a string")
                ),
                (
                    Some("Bash"),
                    "<hooks.PreToolUse[1].hooks[0]>",
                    Some("it has no `command`")
                ),
                (
                    Some("Bash"),
                    "<type: prompt>",
                    Some("weft does not run hooks of type `prompt`")
                ),
                (Some("Bash"), "ok.sh", None),
                (
                    Some("Bash"),
                    "<hooks.PreToolUse[1].hooks[3]>",
                    Some("it is not a mapping with `type` and `command`")
                ),
                (
                    None,
                    "<hooks.PreToolUse[2]>",
                    Some("it is not a mapping with `hooks`")
                ),
            ]
        );
        assert!(groups.iter().all(|g| g.event == HookEvent::PreToolUse));
        assert_eq!(groups[1].handlers[2].timeout_secs, None);
    }

    #[test]
    fn no_input_panics_and_a_non_mapping_reads_nothing() {
        for value in [
            json!(null),
            json!([1, 2]),
            json!("x"),
            json!({"Stop": null}),
        ] {
            let (groups, _) = parse(value);
            assert!(groups.is_empty());
        }
        let (_, messages) = parse(json!(["PreToolUse"]));
        assert_eq!(
            messages,
            ["E146: `hooks` must be a mapping of events to lists, found a list; no hook is read"]
        );
    }
}
