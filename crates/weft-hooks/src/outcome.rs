//! What hooks answered, read with Claude Code's rules and gathered for one event.
//!
//! * Exit 0: standard output that starts with `{` is JSON (below); plain output is context
//!   for the model on UserPromptSubmit and SessionStart, and only recorded elsewhere.
//! * Exit 2 blocks: standard error is the reason (the model reads it on PreToolUse,
//!   PostToolUse, Stop and SubagentStop; the person on UserPromptSubmit). On SessionStart and
//!   SessionEnd the person sees it and nothing is blocked; on Notification it is ignored. JSON
//!   is not read.
//! * Any other code, a signal, a timeout or a command that does not start: a notice for the
//!   person, no decision (JSON printed with another code still applies), and a
//!   [`HookFailure`]. So is JSON that does not parse, and on PreToolUse a
//!   `permissionDecision` that is none of `allow`, `ask`, `deny`, or a `hookSpecificOutput`
//!   or `updatedInput` that is not an object. The session makes a PreToolUse failure ask a
//!   person (weft's choice: a policy hook that cannot answer never lets a call through
//!   unjudged); elsewhere it only reports it, as Claude Code does.
//!
//! JSON: `continue: false` stops the turn (`stopReason` shown), beating every decision;
//! `systemMessage` is shown to the person; `decision: "block"` with `reason` blocks;
//! `hookSpecificOutput.permissionDecision` (`allow`, `ask`, `deny`, ranked deny > ask >
//! allow over every hook) with `permissionDecisionReason`, `updatedInput` and
//! `additionalContext`. `suppressOutput` has no effect (as in current Claude Code).

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use weft_types::HookEvent;

use crate::command::{Finished, RunEnd};
use crate::source::HookSource;

/// The most of one hook's text added to the model's context.
pub const CONTEXT_CAP: usize = 10_000;

/// One hook that ran.
#[derive(Debug, Clone)]
pub struct HookRun {
    /// The event.
    pub event: HookEvent,
    /// Where it is configured.
    pub source: Arc<HookSource>,
    /// The command.
    pub command: String,
    /// How it ended.
    pub end: RunEnd,
    /// Its standard output (capped).
    pub stdout: String,
    /// Its standard error (capped).
    pub stderr: String,
    /// How long it ran.
    pub duration: Duration,
    /// What became of it, one line: `ok`, `blocked: ...`, `exit code 1: ...`, `timed out
    /// after 2 s`, `allow`, `deny: ...`.
    pub summary: String,
}

/// A hook's answer to a tool call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Permission {
    /// Run it without asking (a pre-approval: it lifts no restriction).
    Allow,
    /// Ask a person, whatever the mode.
    Ask,
    /// Do not run it.
    Deny,
}

impl Permission {
    /// `allow`, `ask`, `deny`.
    pub fn as_str(self) -> &'static str {
        match self {
            Permission::Allow => "allow",
            Permission::Ask => "ask",
            Permission::Deny => "deny",
        }
    }
}

/// The strongest permission decision of the hooks of one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PermissionDecision {
    /// The decision.
    pub permission: Permission,
    /// `permissionDecisionReason`.
    pub reason: Option<String>,
    /// The command that decided.
    pub command: String,
}

/// A block: exit 2 or `decision: "block"` (and a PreToolUse `deny`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookBlock {
    /// The reason (standard error, `reason`, `permissionDecisionReason`).
    pub reason: String,
    /// The command that blocked.
    pub command: String,
}

/// A hook that gave no usable answer: it failed, timed out, was killed, did not start, or
/// answered something weft cannot read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookFailure {
    /// The command.
    pub command: String,
    /// What went wrong, for a sentence after the command: `timed out after 2 s`, `failed
    /// with exit code 1: boom`.
    pub what: String,
}

/// Everything the hooks of one event answered.
#[derive(Debug, Clone, Default)]
pub struct HookOutcome {
    /// Every hook that ran, in configuration order.
    pub runs: Vec<HookRun>,
    /// The first block, if any hook blocked.
    pub block: Option<HookBlock>,
    /// PreToolUse: the strongest permission decision.
    pub permission: Option<PermissionDecision>,
    /// PreToolUse: the input to use instead (Claude Code's spelling; see
    /// [`weft_tool_input`](crate::weft_tool_input)).
    pub updated_input: Option<Value>,
    /// Text for the model (`additionalContext`; plain output of UserPromptSubmit and
    /// SessionStart hooks), each capped.
    pub context: Vec<String>,
    /// `continue: false`: the turn stops, with this reason for the person.
    pub stop: Option<String>,
    /// What the person should see: `systemMessage`s, hooks that failed or timed out, a
    /// SessionStart's exit-2 message.
    pub notices: Vec<String>,
    /// The hooks that gave no usable answer, in configuration order.
    pub failures: Vec<HookFailure>,
}

impl HookOutcome {
    /// True when no hook ran.
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// The context as one block for the model, or `None` when there is none.
    pub fn context_text(&self) -> Option<String> {
        (!self.context.is_empty()).then(|| self.context.join("\n\n"))
    }

    /// Reads one finished run into the outcome.
    pub(crate) fn add(
        &mut self,
        event: HookEvent,
        source: Arc<HookSource>,
        command: String,
        run: Finished,
    ) {
        let summary = self.read(event, &command, &run);
        self.runs.push(HookRun {
            event,
            source,
            command,
            end: run.end,
            stdout: run.stdout,
            stderr: run.stderr,
            duration: run.duration,
            summary,
        });
    }

    /// Applies what `run` says; returns its one-line summary.
    fn read(&mut self, event: HookEvent, command: &str, run: &Finished) -> String {
        let first_line = |text: &str| {
            text.lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .unwrap_or("")
                .to_owned()
        };
        match &run.end {
            RunEnd::Exited(2) => {
                let reason = match run.stderr.trim() {
                    "" => format!("hook `{command}` exited with code 2"),
                    text => cap(text),
                };
                if blocks(event) {
                    self.block_with(reason.clone(), command);
                    return format!("blocked: {}", first_line(&reason));
                }
                if matches!(event, HookEvent::SessionStart | HookEvent::SessionEnd) {
                    self.notices
                        .push(format!("{event} hook `{command}`: {}", first_line(&reason)));
                }
                format!("exit code 2: {}", first_line(&reason))
            }
            RunEnd::Exited(code) => {
                let mut summary = if *code == 0 {
                    "ok".to_owned()
                } else {
                    let why = first_line(&run.stderr);
                    self.fail(
                        event,
                        command,
                        match why.as_str() {
                            "" => format!("failed with exit code {code}"),
                            why => format!("failed with exit code {code}: {why}"),
                        },
                    );
                    format!("exit code {code}: {why}")
                };
                let text = run.stdout.trim();
                if text.starts_with('{') {
                    match serde_json::from_str::<Value>(text) {
                        Ok(json) => {
                            if let Some(said) = self.read_json(event, command, &json) {
                                summary = said;
                            }
                        }
                        Err(e) => {
                            self.fail(
                                event,
                                command,
                                format!("printed JSON that does not parse ({e}); it is ignored"),
                            );
                            summary = format!("unreadable JSON: {e}");
                        }
                    }
                } else if *code == 0
                    && !text.is_empty()
                    && matches!(event, HookEvent::UserPromptSubmit | HookEvent::SessionStart)
                {
                    self.context.push(cap(text));
                    summary = "ok, context added".to_owned();
                }
                summary
            }
            RunEnd::Signalled(signal) => {
                self.fail(event, command, format!("was ended by signal {signal}"));
                format!("signal {signal}")
            }
            RunEnd::TimedOut(limit) => {
                let secs = limit.as_secs_f64();
                self.fail(
                    event,
                    command,
                    format!("timed out after {secs} s and was stopped; it made no decision"),
                );
                format!("timed out after {secs} s")
            }
            RunEnd::Failed(why) => {
                self.fail(event, command, format!("did not run: {why}"));
                format!("did not run: {why}")
            }
        }
    }

    /// Applies a hook's JSON; returns a summary when it decided something.
    fn read_json(&mut self, event: HookEvent, command: &str, json: &Value) -> Option<String> {
        let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
        let mut summary = None;
        if let Some(message) = text(json, "systemMessage").filter(|m| !m.trim().is_empty()) {
            self.notices.push(message);
        }
        let specific = json.get("hookSpecificOutput").filter(|s| s.is_object());
        if event == HookEvent::PreToolUse
            && let Some(what) = malformed_pre_tool_answer(json)
        {
            self.fail(event, command, what.clone());
            summary = Some(format!("unreadable answer: {what}"));
        }
        if let Some(context) = specific.and_then(|s| text(s, "additionalContext"))
            && !context.trim().is_empty()
        {
            self.context.push(cap(&context));
            summary = Some("ok, context added".to_owned());
        }
        let reason = text(json, "reason");
        match (text(json, "decision").as_deref(), event) {
            // Deprecated top-level form of PreToolUse.
            (Some("block"), HookEvent::PreToolUse) => {
                self.decide(Permission::Deny, reason.clone(), command);
            }
            (Some("approve"), HookEvent::PreToolUse) => {
                self.decide(Permission::Allow, reason.clone(), command);
            }
            (Some("block"), e) if blocks(e) => {
                let why = reason
                    .clone()
                    .unwrap_or_else(|| format!("blocked by hook `{command}`"));
                self.block_with(cap(&why), command);
                summary = Some(format!("blocked: {why}"));
            }
            _ => {}
        }
        if event == HookEvent::PreToolUse
            && let Some(specific) = specific
        {
            let reason = text(specific, "permissionDecisionReason");
            let permission = match text(specific, "permissionDecision").as_deref() {
                Some("allow") => Some(Permission::Allow),
                Some("ask") => Some(Permission::Ask),
                Some("deny") => Some(Permission::Deny),
                _ => None,
            };
            if let Some(permission) = permission {
                self.decide(permission, reason, command);
            }
            if let Some(input) = specific.get("updatedInput").filter(|i| i.is_object())
                && self.updated_input.is_none()
            {
                self.updated_input = Some(input.clone());
                summary = Some("updated the input".to_owned());
            }
        }
        if let Some(decision) = self.permission.as_ref().filter(|d| d.command == command) {
            summary = Some(match &decision.reason {
                Some(r) => format!("{}: {r}", decision.permission.as_str()),
                None => decision.permission.as_str().to_owned(),
            });
        }
        if json.get("continue") == Some(&Value::Bool(false)) {
            let reason = text(json, "stopReason")
                .unwrap_or_else(|| format!("hook `{command}` stopped the session"));
            summary = Some(format!("stop: {reason}"));
            self.stop.get_or_insert(reason);
        }
        summary
    }

    /// A permission decision, kept when it ranks higher than the one so far (deny > ask >
    /// allow); a deny blocks.
    fn decide(&mut self, permission: Permission, reason: Option<String>, command: &str) {
        if permission == Permission::Deny {
            let why = reason
                .clone()
                .unwrap_or_else(|| format!("denied by hook `{command}`"));
            self.block_with(cap(&why), command);
        }
        if self
            .permission
            .as_ref()
            .is_none_or(|d| permission > d.permission)
        {
            self.permission = Some(PermissionDecision {
                permission,
                reason,
                command: command.to_owned(),
            });
        }
    }

    /// A hook that gave no usable answer: a notice for the person (on PreToolUse, saying the
    /// call needs a person's approval) and a [`HookFailure`].
    fn fail(&mut self, event: HookEvent, command: &str, what: String) {
        let notice = format!("{event} hook `{command}` {what}");
        self.notices.push(if event == HookEvent::PreToolUse {
            format!("{notice}; without its answer the call needs a person's approval")
        } else {
            notice
        });
        self.failures.push(HookFailure {
            command: command.to_owned(),
            what,
        });
    }

    fn block_with(&mut self, reason: String, command: &str) {
        self.block.get_or_insert(HookBlock {
            reason,
            command: command.to_owned(),
        });
    }
}

/// What is wrong with a PreToolUse hook's JSON answer, when something is: a
/// `hookSpecificOutput` that is not an object, a `permissionDecision` that is none of
/// `allow`, `ask`, `deny`, an `updatedInput` that is not an object.
fn malformed_pre_tool_answer(json: &Value) -> Option<String> {
    let specific = match json.get("hookSpecificOutput") {
        None | Some(Value::Null) => return None,
        Some(Value::Object(specific)) => specific,
        Some(other) => {
            return Some(format!(
                "answered a `hookSpecificOutput` that is not an object ({})",
                short(other)
            ));
        }
    };
    match specific.get("permissionDecision") {
        None | Some(Value::Null) => {}
        Some(Value::String(d)) if matches!(d.as_str(), "allow" | "ask" | "deny") => {}
        Some(other) => {
            return Some(format!(
                "answered `permissionDecision: {}`, which is none of allow, ask, deny",
                short(other)
            ));
        }
    }
    match specific.get("updatedInput") {
        None | Some(Value::Null | Value::Object(_)) => None,
        Some(other) => Some(format!(
            "answered an `updatedInput` that is not an object ({})",
            short(other)
        )),
    }
}

/// A JSON value for a one-line message: at most 60 characters, control characters escaped.
fn short(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(60) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text,
    }
}

/// True for the events an exit code 2 (or `decision: "block"`) blocks.
fn blocks(event: HookEvent) -> bool {
    matches!(
        event,
        HookEvent::PreToolUse
            | HookEvent::PostToolUse
            | HookEvent::UserPromptSubmit
            | HookEvent::Stop
            | HookEvent::SubagentStop
            | HookEvent::PreCompact
    )
}

/// `text` cut to [`CONTEXT_CAP`] characters, with a note when cut.
fn cap(text: &str) -> String {
    match text.char_indices().nth(CONTEXT_CAP) {
        None => text.to_owned(),
        Some((end, _)) => format!(
            "{}\n[hook output truncated at {CONTEXT_CAP} characters]",
            &text[..end]
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn finished(code: i32, stdout: &str, stderr: &str) -> Finished {
        Finished {
            end: RunEnd::Exited(code),
            stdout: stdout.to_owned(),
            stderr: stderr.to_owned(),
            duration: Duration::ZERO,
        }
    }

    fn outcome(event: HookEvent, runs: &[(&str, Finished)]) -> HookOutcome {
        let mut outcome = HookOutcome::default();
        let source = Arc::new(HookSource::UserSettings("s.json".into()));
        for (command, run) in runs {
            outcome.add(
                event,
                Arc::clone(&source),
                (*command).to_owned(),
                run.clone(),
            );
        }
        outcome
    }

    #[test]
    fn exit_2_blocks_with_stderr_and_its_json_is_not_read() {
        let o = outcome(
            HookEvent::PreToolUse,
            &[(
                "policy",
                finished(
                    2,
                    r#"{"hookSpecificOutput":{"permissionDecision":"allow"}}"#,
                    "no rm here\n",
                ),
            )],
        );
        assert_eq!(o.block.as_ref().unwrap().reason, "no rm here");
        assert_eq!(o.permission, None);
        assert_eq!(o.runs[0].summary, "blocked: no rm here");
        // On SessionStart it is only shown.
        let o = outcome(
            HookEvent::SessionStart,
            &[("s", finished(2, "", "careful"))],
        );
        assert!(o.block.is_none());
        assert_eq!(o.notices, ["SessionStart hook `s`: careful"]);
    }

    #[test]
    fn permission_decisions_rank_deny_over_ask_over_allow() {
        let decision = |d: &str| {
            finished(0, &json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": d, "permissionDecisionReason": format!("{d} it")}}).to_string(), "")
        };
        let o = outcome(
            HookEvent::PreToolUse,
            &[("a", decision("allow")), ("b", decision("ask"))],
        );
        assert_eq!(o.permission.as_ref().unwrap().permission, Permission::Ask);
        assert!(o.block.is_none());
        let o = outcome(
            HookEvent::PreToolUse,
            &[
                ("a", decision("allow")),
                ("d", decision("deny")),
                ("b", decision("ask")),
            ],
        );
        let d = o.permission.unwrap();
        assert_eq!((d.permission, d.command.as_str()), (Permission::Deny, "d"));
        assert_eq!(o.block.unwrap().reason, "deny it");
        assert_eq!(o.runs[1].summary, "deny: deny it");
    }

    #[test]
    fn context_updated_input_stop_and_notices() {
        let o = outcome(
            HookEvent::PreToolUse,
            &[
                (
                    "u",
                    finished(
                        0,
                        r#"{"hookSpecificOutput":{"updatedInput":{"command":"ls -a"},"additionalContext":"note"},"systemMessage":"changed"}"#,
                        "",
                    ),
                ),
                ("x", finished(1, "", "boom\nmore")),
                (
                    "c",
                    finished(0, r#"{"continue":false,"stopReason":"enough"}"#, ""),
                ),
                ("j", finished(0, "{not json", "")),
            ],
        );
        assert_eq!(o.updated_input, Some(json!({"command": "ls -a"})));
        assert_eq!(o.context, ["note"]);
        assert_eq!(o.stop.as_deref(), Some("enough"));
        assert_eq!(o.notices[0], "changed");
        assert_eq!(
            o.notices[1],
            "PreToolUse hook `x` failed with exit code 1: boom; without its answer the call needs a person's approval"
        );
        let failed: Vec<&str> = o.failures.iter().map(|f| f.command.as_str()).collect();
        assert_eq!(failed, ["x", "j"]);
        assert!(o.notices[2].starts_with("PreToolUse hook `j` printed JSON that does not parse"));
        // Plain output is context only where Claude Code makes it so.
        let o = outcome(
            HookEvent::UserPromptSubmit,
            &[("p", finished(0, "today is Monday\n", ""))],
        );
        assert_eq!(o.context_text().as_deref(), Some("today is Monday"));
        let o = outcome(
            HookEvent::PostToolUse,
            &[("p", finished(0, "logged\n", ""))],
        );
        assert!(o.context.is_empty());
        let o = outcome(
            HookEvent::Stop,
            &[(
                "s",
                finished(0, r#"{"decision":"block","reason":"tests fail"}"#, ""),
            )],
        );
        assert_eq!(o.block.unwrap().reason, "tests fail");
    }

    #[test]
    fn a_pre_tool_use_answer_weft_cannot_read_is_a_failure() {
        let answer =
            |specific: Value| finished(0, &json!({"hookSpecificOutput": specific}).to_string(), "");
        let o = outcome(
            HookEvent::PreToolUse,
            &[
                ("maybe", answer(json!({"permissionDecision": "maybe"}))),
                ("number", answer(json!({"permissionDecision": 1}))),
                ("input", answer(json!({"updatedInput": "rm -rf /"}))),
                (
                    "list",
                    finished(0, r#"{"hookSpecificOutput": ["allow"]}"#, ""),
                ),
                ("fine", answer(json!({"permissionDecision": "allow"}))),
            ],
        );
        let failed: Vec<(&str, &str)> = o
            .failures
            .iter()
            .map(|f| (f.command.as_str(), f.what.as_str()))
            .collect();
        assert_eq!(
            failed,
            [
                (
                    "maybe",
                    "answered `permissionDecision: \"maybe\"`, which is none of allow, ask, deny"
                ),
                (
                    "number",
                    "answered `permissionDecision: 1`, which is none of allow, ask, deny"
                ),
                (
                    "input",
                    "answered an `updatedInput` that is not an object (\"rm -rf /\")"
                ),
                (
                    "list",
                    "answered a `hookSpecificOutput` that is not an object ([\"allow\"])"
                ),
            ]
        );
        assert_eq!(o.updated_input, None);
        assert_eq!(
            o.runs[0].summary,
            "unreadable answer: answered `permissionDecision: \"maybe\"`, which is none of allow, ask, deny"
        );
        // Elsewhere the same JSON is no failure (PreToolUse fields are only read there).
        let o = outcome(
            HookEvent::PostToolUse,
            &[("maybe", answer(json!({"permissionDecision": "maybe"})))],
        );
        assert!(o.failures.is_empty());
        // A timeout and a signal are failures on every event; only PreToolUse says a
        // person decides.
        let timed_out = Finished {
            end: RunEnd::TimedOut(Duration::from_secs(2)),
            stdout: String::new(),
            stderr: String::new(),
            duration: Duration::from_secs(2),
        };
        let o = outcome(HookEvent::Stop, &[("slow", timed_out)]);
        assert_eq!(
            o.notices,
            ["Stop hook `slow` timed out after 2 s and was stopped; it made no decision"]
        );
        assert_eq!(o.failures.len(), 1);
    }

    #[test]
    fn long_output_is_capped() {
        let long = "x".repeat(CONTEXT_CAP + 5);
        let o = outcome(HookEvent::SessionStart, &[("l", finished(0, &long, ""))]);
        assert!(o.context[0].ends_with("[hook output truncated at 10000 characters]"));
    }
}
