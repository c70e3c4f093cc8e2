//! Where a session runs its hooks ([`weft_hooks::Hooks`], in
//! [`SessionOptions::hooks`](super::SessionOptions::hooks)), and what it does with their
//! answers. Hooks only narrow: a block refuses, an `ask` asks, an `allow` is a pre-approval
//! (it never lifts the gate's deny or ask, an ask rule, a restriction or `plan`), an
//! `updatedInput` goes through the gate again. A PreToolUse hook that gives no usable
//! answer (it fails, times out, cannot run, answers what weft cannot read) makes the call
//! ask, in every mode: a policy hook that cannot run never stops enforcing unnoticed.
//!
//! * SessionStart (`startup`, `resume`, `clear`, `compact`): before the first turn after the
//!   session started, resumed, was cleared or compacted; its context goes before the
//!   person's message. UserPromptSubmit: a person's message (not a subagent's task); a block
//!   refuses it, context goes before it.
//! * PreToolUse / PostToolUse: around every call the gate lets through.
//! * Stop / SubagentStop: when the model answers; a block makes it go on (at most
//!   [`MAX_STOP_BLOCKS`] times in a row), with `stop_hook_active` set on the next Stop.
//! * Notification: before a person is asked to approve a call.
//! * SessionEnd: [`Session::end`].
//! * PreCompact and SessionStart `compact`: [`Session::pre_compact_hooks`] and
//!   [`Session::compacted`], for the compaction to call.
//!
//! Each run is recorded in the transcript and reported through
//! [`SessionEvents::hook`](super::SessionEvents::hook); notices (a failed hook, a
//! `systemMessage`) through [`SessionEvents::notice`](super::SessionEvents::notice).

use serde_json::{Value, json};
use weft_hooks::{
    EndReason, EventData, HookEntry, HookInput, HookOutcome, HookRun, Permission, StartSource,
};
use weft_llm::ToolCall;
use weft_permissions::{Effect, ToolPattern};
use weft_types::{HookEvent, tool_names};

use super::view::pattern_context;
use super::{Session, SessionEvents};
use crate::transcript::{TranscriptRecord, now_millis};

/// Every configured hook, for listing (`weft hooks list`, `/hooks`): the settings files' (in
/// `hooks`), then every skill's and agent's (which run only while active), each with
/// whether it may run.
pub fn configured_hooks(
    hooks: &weft_hooks::Hooks,
    skills: &weft_registry::Snapshot,
    agents: &crate::AgentRegistry,
) -> Vec<HookEntry> {
    let mut entries = hooks.entries().to_vec();
    for skill in skills.entries() {
        entries.extend(hooks.skill_entries(&skill.skill));
    }
    for agent in agents.list() {
        entries.extend(hooks.agent_entries(&agent.agent, false));
    }
    entries
}

/// Stop hooks may keep a turn going this many times in a row (Claude Code's limit).
pub const MAX_STOP_BLOCKS: u32 = 8;

/// A session's hook state.
#[derive(Debug, Default)]
pub(super) struct HookState {
    /// SessionStart has to run before the next turn, with this source.
    pub pending_start: Option<StartSource>,
    /// The last Stop was blocked: the next one is told `stop_hook_active`.
    pub stop_active: bool,
    /// Stop blocks in a row.
    pub stop_blocks: u32,
    /// A hook said `continue: false` during this turn: the turn ends, with this reason.
    pub stop: Option<String>,
    /// Runs not yet reported to the caller's events.
    pub reports: Vec<HookRun>,
    /// PreToolUse `additionalContext` for the call being dispatched.
    pub call_context: Option<String>,
}

/// What the PreToolUse hooks of a call decided.
pub(super) enum PreTool {
    /// Go on (`approval` is what the hooks said about asking).
    Run(HookApproval),
    /// Do not run it; the text is the call's error result.
    Refuse(String),
    /// Run it with this input (weft's spelling), gated again.
    Rewrite(Value, HookApproval),
}

/// A hook's say on whether the call is asked about.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) enum HookApproval {
    /// Nothing.
    #[default]
    None,
    /// `allow`: a pre-approval, named by this rule.
    Allow(String),
    /// `ask`: a person must approve it, whatever pre-approves it.
    Ask(String),
}

/// What the Stop hooks decided.
pub(super) enum StopVerdict {
    /// The turn ends.
    End,
    /// A hook said `continue: false`.
    Stopped(String),
    /// A hook blocked the stop: the model reads this and goes on.
    GoOn(String),
}

/// Why a person's message did not reach the model.
pub(super) enum PromptVerdict {
    /// It goes to the model, with this context before it.
    Send(Option<String>),
    /// A UserPromptSubmit hook blocked it (reason for the person).
    Blocked(String),
    /// A hook said `continue: false`.
    Stopped(String),
}

impl Session {
    /// True for a subagent's session (its Stop is SubagentStop; it has no SessionStart,
    /// SessionEnd or UserPromptSubmit of its own).
    fn is_subagent(&self) -> bool {
        self.options.spawn.parent.is_some()
    }

    /// The hooks of the active agent and skills.
    fn scoped_hooks(&self) -> Vec<HookEntry> {
        let hooks = &self.options.hooks;
        let mut entries = hooks.agent_entries(&self.view.agent, self.is_subagent());
        if !self.turn.active_skills.is_empty() {
            let snapshot = self.skills.snapshot();
            for name in &self.turn.active_skills {
                if let Some(entry) = snapshot.get(name) {
                    entries.extend(hooks.skill_entries(&entry.skill));
                }
            }
        }
        entries
    }

    /// Runs the hooks of `event` for `data`; records each run and keeps it (and the notices)
    /// for [`report_hooks`](Self::report_hooks).
    async fn run_hooks(&mut self, event: HookEvent, data: EventData) -> HookOutcome {
        let scoped = self.scoped_hooks();
        if !self.options.hooks.listens(event, &scoped) {
            return HookOutcome::default();
        }
        let input = HookInput {
            event,
            session_id: self.options.session_id.clone(),
            transcript_path: self.transcript_path().map(std::path::Path::to_path_buf),
            cwd: self
                .options
                .cwd
                .clone()
                .or_else(|| self.options.project_dir.clone())
                .unwrap_or_default(),
            permission_mode: Some(self.permission_mode().claude_name().to_owned()),
            data,
        };
        let ctx = pattern_context(&self.options);
        let condition = |rule: &str| match (&input.data, ToolPattern::parse_with(rule, &ctx)) {
            (EventData::Tool { tool, input, .. }, Ok(pattern)) => {
                pattern.matches(tool, input, Effect::Deny)
            }
            // A rule weft cannot read restricts nothing: the hook runs.
            (_, Err(e)) => {
                tracing::warn!(rule, error = %e, "a hook's `if` rule does not compile; the hook runs for every call its matcher selects");
                true
            }
            _ => true,
        };
        let outcome = self.options.hooks.run(&input, &scoped, &condition).await;
        for run in &outcome.runs {
            let record = TranscriptRecord::Hook {
                at: now_millis(),
                event: run.event.as_str().to_owned(),
                source: run.source.to_string(),
                command: run.command.clone(),
                exit_code: run.end.code(),
                outcome: run.summary.clone(),
                duration_ms: u64::try_from(run.duration.as_millis()).unwrap_or(u64::MAX),
            };
            if let Err(e) = self.record(record) {
                tracing::warn!(error = %e, "cannot record a hook run");
            }
        }
        self.hooks.reports.extend(outcome.runs.iter().cloned());
        self.notices.extend(outcome.notices.iter().cloned());
        outcome
    }

    /// Reports the hook runs and notices kept since the last report.
    pub(super) fn report_hooks(&mut self, events: &mut dyn SessionEvents) {
        for run in std::mem::take(&mut self.hooks.reports) {
            events.hook(&run);
        }
        for notice in self.notices.drain(..) {
            events.notice(&notice);
        }
    }

    /// SessionStart when it is due, then UserPromptSubmit for a person's `prompt`.
    pub(super) async fn prompt_hooks(&mut self, prompt: &str) -> PromptVerdict {
        if self.is_subagent() {
            return PromptVerdict::Send(None);
        }
        let mut context = Vec::new();
        if let Some(source) = self.hooks.pending_start.take() {
            let start = self
                .run_hooks(HookEvent::SessionStart, EventData::Start(source))
                .await;
            context.extend(start.context_text());
            if let Some(reason) = start.stop {
                return PromptVerdict::Stopped(reason);
            }
        }
        let submit = self
            .run_hooks(
                HookEvent::UserPromptSubmit,
                EventData::Prompt {
                    prompt: prompt.to_owned(),
                },
            )
            .await;
        if let Some(reason) = submit.stop {
            return PromptVerdict::Stopped(reason);
        }
        if let Some(block) = submit.block {
            return PromptVerdict::Blocked(block.reason);
        }
        context.extend(submit.context_text());
        PromptVerdict::Send((!context.is_empty()).then(|| context.join("\n\n")))
    }

    /// PreToolUse for `call` (tool `name`, canonical), after the gate let it through.
    pub(super) async fn pre_tool_use(&mut self, call: &ToolCall, name: &str) -> PreTool {
        let outcome = self
            .run_hooks(
                HookEvent::PreToolUse,
                EventData::Tool {
                    tool: name.to_owned(),
                    input: call.arguments.clone(),
                    tool_use_id: call.id.clone(),
                    response: None,
                },
            )
            .await;
        if let Some(reason) = outcome.stop {
            let text = format!("not run: a hook stopped the turn: {reason}");
            self.hooks.stop = Some(reason);
            return PreTool::Refuse(text);
        }
        if let Some(block) = outcome.block {
            tracing::info!(tool = %call.name, reason = %block.reason, "tool call blocked by a hook");
            return PreTool::Refuse(format!(
                "blocked by a PreToolUse hook: {}. The tool did not run.",
                block.reason.trim_end_matches('.')
            ));
        }
        // Given to the model with the call's result, whatever it is.
        self.hooks.call_context = outcome.context_text();
        let approval = match outcome.permission {
            Some(d) if d.permission == Permission::Ask => HookApproval::Ask(match d.reason {
                Some(reason) => format!("hook `{}` asks: {reason}", d.command),
                None => format!("hook `{}` asks for this call", d.command),
            }),
            Some(d) if d.permission == Permission::Allow => {
                HookApproval::Allow(format!("hook `{}`", d.command))
            }
            _ => HookApproval::None,
        };
        // A hook that could not answer (it failed, timed out, could not run, answered
        // something unreadable) never lets the call through unjudged: a person decides.
        // Claude Code lets the call proceed; a policy hook that silently stops enforcing
        // is worse than a question.
        let approval = match (outcome.failures.first(), approval) {
            (Some(failure), HookApproval::None | HookApproval::Allow(_)) => {
                HookApproval::Ask(format!(
                    "PreToolUse hook `{}` {}, so it could not judge this call",
                    failure.command,
                    failure.what.split("; ").next().unwrap_or(&failure.what)
                ))
            }
            (_, approval) => approval,
        };
        match outcome.updated_input {
            Some(input) => PreTool::Rewrite(weft_hooks::weft_tool_input(name, &input), approval),
            None => PreTool::Run(approval),
        }
    }

    /// PostToolUse for a call that ran: `content` is its result; returns the result the
    /// model reads (with a hook's feedback and context after it).
    pub(super) async fn post_tool_use(
        &mut self,
        call: &ToolCall,
        name: &str,
        content: String,
    ) -> String {
        let response = tool_response(name, &call.arguments, &content);
        let outcome = self
            .run_hooks(
                HookEvent::PostToolUse,
                EventData::Tool {
                    tool: name.to_owned(),
                    input: call.arguments.clone(),
                    tool_use_id: call.id.clone(),
                    response: Some(response),
                },
            )
            .await;
        let mut content = content;
        if let Some(block) = &outcome.block {
            content.push_str(&format!(
                "\n\n[PostToolUse hook feedback]\n{}",
                block.reason
            ));
        }
        if let Some(context) = outcome.context_text() {
            content.push_str(&format!("\n\n[PostToolUse hook context]\n{context}"));
        }
        if let Some(reason) = outcome.stop {
            self.hooks.stop = Some(reason);
        }
        content
    }

    /// Stop (or SubagentStop) when the model answered with `last`.
    pub(super) async fn stop_hooks(&mut self, last: &str) -> StopVerdict {
        let subagent = self.is_subagent().then(|| {
            (
                self.options.session_id.clone(),
                self.view.agent.name.clone(),
            )
        });
        let event = if subagent.is_some() {
            HookEvent::SubagentStop
        } else {
            HookEvent::Stop
        };
        let outcome = self
            .run_hooks(
                event,
                EventData::Stop {
                    stop_hook_active: self.hooks.stop_active,
                    last_assistant_message: last.to_owned(),
                    subagent,
                },
            )
            .await;
        if let Some(reason) = outcome.stop {
            return StopVerdict::Stopped(reason);
        }
        match outcome.block {
            Some(block) if self.hooks.stop_blocks < MAX_STOP_BLOCKS => {
                self.hooks.stop_blocks += 1;
                self.hooks.stop_active = true;
                StopVerdict::GoOn(block.reason)
            }
            Some(_) => {
                self.notices.push(format!(
                    "{event} hooks blocked the end of the turn {MAX_STOP_BLOCKS} times in a row; the turn ends"
                ));
                self.reset_stop();
                StopVerdict::End
            }
            None => {
                self.reset_stop();
                StopVerdict::End
            }
        }
    }

    fn reset_stop(&mut self) {
        self.hooks.stop_active = false;
        self.hooks.stop_blocks = 0;
    }

    /// Notification hooks: weft is about to ask a person about a call of `tool`.
    pub(super) async fn notify_permission(&mut self, tool: &str) {
        let message = format!("weft needs your permission to use {tool}");
        let data = EventData::Notification {
            kind: "permission_prompt".to_owned(),
            message,
        };
        let _ = self.run_hooks(HookEvent::Notification, data).await;
    }

    /// Notification hooks: the interactive session has been waiting for the person.
    pub async fn notify_idle(&mut self, events: &mut dyn SessionEvents) {
        let data = EventData::Notification {
            kind: "idle_prompt".to_owned(),
            message: "weft is waiting for your input".to_owned(),
        };
        let _ = self.run_hooks(HookEvent::Notification, data).await;
        self.report_hooks(events);
    }

    /// Ends the session for `reason`: SessionEnd hooks (not for a subagent). Call it when
    /// a one-shot run finishes, before `/clear`, and when the interactive session exits.
    pub async fn end(&mut self, reason: EndReason, events: &mut dyn SessionEvents) {
        if self.is_subagent() {
            return;
        }
        let _ = self
            .run_hooks(HookEvent::SessionEnd, EventData::End(reason))
            .await;
        self.report_hooks(events);
    }

    /// The hook point of compaction, before it starts: PreCompact hooks (`trigger` is
    /// `manual` or `auto`; `instructions` what the person asked the summary to keep). `Err`
    /// with the reason when a hook blocks it (exit 2, `decision: "block"`): the compaction
    /// must not run.
    pub async fn pre_compact_hooks(
        &mut self,
        trigger: &str,
        instructions: &str,
        events: &mut dyn SessionEvents,
    ) -> Result<(), String> {
        let data = EventData::Compact {
            trigger: trigger.to_owned(),
            custom_instructions: instructions.to_owned(),
        };
        let outcome = self.run_hooks(HookEvent::PreCompact, data).await;
        self.report_hooks(events);
        match outcome.block {
            Some(block) => Err(block.reason),
            None => Ok(()),
        }
    }

    /// The hook point of compaction, once it is done: SessionStart (`compact`) runs before
    /// the next turn, and its context goes with the next message.
    pub fn compacted(&mut self) {
        self.hooks.pending_start = Some(StartSource::Compact);
    }

    /// The result of a dispatched call with the PreToolUse hooks' context after it.
    pub(super) fn with_call_context(&mut self, content: String) -> String {
        match self.hooks.call_context.take() {
            Some(text) => format!("{content}\n\n[PreToolUse hook context]\n{text}"),
            None => content,
        }
    }

    /// The session's hooks (those of the settings files; see [`configured_hooks`] for every
    /// hook).
    pub fn hooks(&self) -> &weft_hooks::Hooks {
        &self.options.hooks
    }

    /// A hook's `continue: false` during this turn, taken.
    pub(super) fn take_hook_stop(&mut self) -> Option<String> {
        self.hooks.stop.take()
    }
}

/// What a tool returned, as Claude Code's PostToolUse hooks read it: the text, and for the
/// file tools the file (`filePath`, `success`), for `exec_shell` the exit code and streams.
fn tool_response(tool: &str, input: &Value, content: &str) -> Value {
    let mut response = json!({"content": content});
    if tool_names::FILE_TOOLS.contains(&tool) {
        if let Some(path) = input.get("path") {
            response["filePath"] = path.clone();
        }
        response["success"] = json!(true);
    }
    if tool == tool_names::EXEC_SHELL {
        let (head, streams) = content.split_once('\n').unwrap_or((content, ""));
        if let Some(code) = head
            .strip_prefix("exit code: ")
            .and_then(|c| c.parse::<i64>().ok())
        {
            response["exit_code"] = json!(code);
        }
        let streams = format!("\n{streams}");
        let section = |name: &str| -> Option<String> {
            let marker = format!("\n--- {name} ---\n");
            let start = streams.find(&marker)? + marker.len();
            let rest = &streams[start..];
            let end = rest.find("\n--- std").unwrap_or(rest.len());
            Some(rest[..end].to_owned())
        };
        response["stdout"] = json!(section("stdout").unwrap_or_default());
        response["stderr"] = json!(section("stderr").unwrap_or_default());
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shell_result_is_split_into_exit_code_and_streams() {
        let response = tool_response(
            "exec_shell",
            &json!({"command": "x"}),
            "exit code: 3\n--- stdout ---\nout\n--- stderr ---\nerr",
        );
        assert_eq!(response["exit_code"], 3);
        assert_eq!(response["stdout"], "out");
        assert_eq!(response["stderr"], "err");
        let write = tool_response("write_file", &json!({"path": "a"}), "wrote a");
        assert_eq!(
            write,
            json!({"content": "wrote a", "filePath": "a", "success": true})
        );
    }
}
