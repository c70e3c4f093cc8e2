//! One turn of the agent loop: how it starts (a user's message or skill), the rounds of model
//! calls and tool calls, how it ends ([`TurnOutcome`]), and what it reports as it goes
//! ([`SessionEvents`]). Separate from the session's construction and state because it is the
//! loop itself.

use weft_llm::{
    ChatRequest, ChatResponse, LlmError, Message, ModelRef, RetryNotice, TextSink, ToolCall, Usage,
};

use super::hooks::{PromptVerdict, StopVerdict};
use super::{
    ChildStatus, CompactTrigger, CompactionReport, ContextUse, Invoker, Session, SessionError,
    SpawnFailure, SubagentError,
};
use crate::transcript::{TranscriptRecord, now_millis};

/// Why a turn stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnStop {
    /// The model answered without asking for tools.
    Answered,
    /// The model hit its output token cap.
    MaxTokens,
    /// The model still wanted tools after `limit` rounds; those calls were not run.
    IterationLimit {
        /// The cap.
        limit: u32,
    },
    /// A UserPromptSubmit hook refused the person's message; the model never saw it
    /// ([`TurnOutcome::hook_reason`] says why).
    PromptBlocked,
    /// A hook answered `continue: false` ([`TurnOutcome::hook_reason`] is its `stopReason`).
    HookStopped,
}

/// The result of one [`Session::send`].
#[derive(Debug, Clone, PartialEq)]
pub struct TurnOutcome {
    /// The model's last text.
    pub text: String,
    /// Why the turn ended.
    pub stop: TurnStop,
    /// Tokens used by this turn.
    pub usage: Usage,
    /// Tool calls the model made (run or refused).
    pub tool_calls: usize,
    /// Model calls made.
    pub model_calls: u32,
    /// Why a hook blocked the message or stopped the turn, for the person.
    pub hook_reason: Option<String>,
}

impl TurnOutcome {
    /// A turn that ended before reaching the model, for `reason`.
    fn hook_ended(stop: TurnStop, reason: String) -> Self {
        Self {
            text: String::new(),
            stop,
            usage: Usage::default(),
            tool_calls: 0,
            model_calls: 0,
            hook_reason: Some(reason),
        }
    }
}

/// Observes a turn as it happens (the CLI prints from here).
pub trait SessionEvents: Send {
    /// Streamed assistant text.
    fn text(&mut self, _delta: &str) {}
    /// The model asked for a tool.
    fn tool_call(&mut self, _call: &ToolCall) {}
    /// A tool call finished (or was refused).
    fn tool_result(&mut self, _call: &ToolCall, _result: &Message) {}
    /// The model answered one request: its whole message (text and tool calls) and the
    /// tokens of that call.
    fn model_reply(&mut self, _message: &Message, _usage: &Usage) {}
    /// Something the user should know that changes how the turn runs (a model alias that no
    /// provider serves, replaced by the session's model); one line.
    fn notice(&mut self, _text: &str) {}
    /// A request is going to `model`; until [`model_call_finished`](Self::model_call_finished)
    /// (or the first [`text`](Self::text)) the user is waiting for it.
    fn model_call_started(&mut self, _model: &ModelRef) {}
    /// The model's answer is complete, or the request failed. Not called when the turn is
    /// cancelled while waiting (the caller knows it cancelled).
    fn model_call_finished(&mut self) {}
    /// The request failed and is about to be sent again.
    fn retrying(&mut self, _notice: &RetryNotice) {}
    /// A hook ran (its result, in one line, is [`HookRun::summary`](weft_hooks::HookRun)).
    fn hook(&mut self, _run: &weft_hooks::HookRun) {}
    /// The conversation is being compacted (`trigger` says why); until
    /// [`compacted`](Self::compacted) the user waits for the model's summary.
    fn compacting(&mut self, _trigger: CompactTrigger) {}
    /// The conversation was compacted.
    fn compacted(&mut self, _report: &CompactionReport) {}
    /// How full the context window is now: after each model call and each compaction.
    fn context(&mut self, _context: &ContextUse) {}
}

/// Events that go nowhere.
#[derive(Debug, Default, Clone, Copy)]
pub struct Quiet;

impl SessionEvents for Quiet {}

struct TextEvents<'a>(&'a mut dyn SessionEvents);

impl TextSink for TextEvents<'_> {
    fn text(&mut self, delta: &str) {
        self.0.text(delta);
    }

    fn retrying(&mut self, notice: &RetryNotice) {
        self.0.retrying(notice);
    }
}

impl Session {
    /// The request the next model call would send after `user_text` (for `--dry-run`).
    pub fn preview(&mut self, user_text: &str) -> ChatRequest {
        let mut request = self.request();
        request.messages.push(Message::user(user_text));
        request
    }

    /// Sends a user message and runs the loop until the model answers.
    ///
    /// Cancel-safe: if the future is dropped mid-turn (Ctrl-C), the next turn first answers
    /// any tool call left without a result and drops the interrupted turn's skills, so the
    /// conversation stays valid for the providers and the gate is the agent's again.
    pub async fn send(
        &mut self,
        text: impl Into<String>,
        events: &mut dyn SessionEvents,
    ) -> Result<TurnOutcome, SessionError> {
        self.begin_turn()?;
        let text = text.into();
        let context = match self.prompt_hooks(&text).await {
            PromptVerdict::Send(context) => context,
            other => {
                self.report_hooks(events);
                return Ok(refused(other));
            }
        };
        self.report_hooks(events);
        let text = self.with_child_results(with_hook_context(context, text))?;
        let text = self.with_skill_news(text);
        let result = self.run_turn(Message::user(text), events).await;
        self.end_turn();
        result
    }

    /// Prepares a skill run by the user (`weft skills run`, `/name args`): starts a turn,
    /// activates the skill (its allowed tools narrow the gate until the turn ends) and returns
    /// the user message, `[Skill: <name>]`, a blank line and the rendered body (seed 004).
    /// [`run_skill`](Self::run_skill) sends it; a dry run can [`preview`](Self::preview) it.
    pub async fn prepare_user_skill(
        &mut self,
        name: &str,
        args: Vec<String>,
    ) -> Result<String, SessionError> {
        self.begin_turn()?;
        match self.activate_skill(name, args, Invoker::User).await {
            Ok(text) => Ok(format!("[Skill: {name}]\n\n{text}")),
            Err(e) => {
                self.end_turn();
                Err(e.into())
            }
        }
    }

    /// Runs a skill as the user: [`prepare_user_skill`](Self::prepare_user_skill), then the
    /// loop.
    pub async fn run_skill(
        &mut self,
        name: &str,
        args: Vec<String>,
        events: &mut dyn SessionEvents,
    ) -> Result<TurnOutcome, SessionError> {
        let typed = std::iter::once(format!("/{name}"))
            .chain(args.iter().cloned())
            .collect::<Vec<_>>()
            .join(" ");
        let context = match self.prompt_hooks(&typed).await {
            PromptVerdict::Send(context) => context,
            other => {
                self.report_hooks(events);
                return Ok(refused(other));
            }
        };
        self.report_hooks(events);
        if self.is_fork_skill(name) {
            return self.run_user_fork(name, args).await;
        }
        let text = self.prepare_user_skill(name, args).await?;
        let text = self.with_child_results(with_hook_context(context, text))?;
        let text = self.with_skill_news(text);
        let result = self.run_turn(Message::user(text), events).await;
        self.end_turn();
        result
    }

    /// A fork skill run by the user: the subagent does the work; the parent's conversation
    /// gets the invocation and the subagent's final message, so later turns can build on it.
    async fn run_user_fork(
        &mut self,
        name: &str,
        args: Vec<String>,
    ) -> Result<TurnOutcome, SessionError> {
        self.begin_turn()?;
        let child = self.run_fork_skill(name, args, Invoker::User).await?;
        let text = match &child.status {
            ChildStatus::Completed { result } => result.clone(),
            ChildStatus::TimedOut { .. } => {
                let timeout_ms = child.duration_ms;
                return Err(SubagentError::ExecutionTimeout {
                    subagent_type: child.agent,
                    timeout_ms,
                }
                .into());
            }
            other => {
                return Err(SubagentError::SpawnFailed {
                    subagent_type: child.agent.clone(),
                    source: SpawnFailure::ChildEnded(other.text().to_owned()),
                }
                .into());
            }
        };
        self.push(Message::user(format!(
            "[Skill: {name}] (run in subagent {} with agent {})",
            child.id, child.agent
        )))?;
        self.push(Message::assistant(text.clone(), Vec::new()))?;
        Ok(TurnOutcome {
            text,
            stop: TurnStop::Answered,
            usage: child.usage,
            tool_calls: 0,
            model_calls: 0,
            hook_reason: None,
        })
    }

    /// `text` preceded by the results of background subagents that ended since the last
    /// turn (the parent learns of them here, and through `sessions_result`).
    fn with_child_results(&mut self, text: String) -> Result<String, SessionError> {
        let finished = self.collect_finished_children()?;
        if finished.is_empty() {
            return Ok(text);
        }
        let mut out = String::from("[Background subagents finished]\n");
        for child in &finished {
            out.push_str(&format!(
                "\n## {} ({}, {}, {} ms)\n{}\n",
                child.id,
                child.agent,
                child.status.label(),
                child.duration_ms,
                child.status.text()
            ));
        }
        out.push_str("\n---\n\n");
        out.push_str(&text);
        Ok(out)
    }

    /// Starts a turn: closes an interrupted one, drops its skills, and sees skills installed,
    /// changed or removed since the last one ([`refresh_skills`](Self::refresh_skills)).
    fn begin_turn(&mut self) -> Result<(), SessionError> {
        self.end_turn();
        self.refresh_skills();
        self.close_interrupted_turn()
    }

    /// Reloads the skill registry when a skill file or directory changed since it was last
    /// read (a `stat` per skill when nothing did; see
    /// [`SkillRegistry::refresh`](weft_registry::SkillRegistry::refresh)). Every turn starts
    /// with it, so the catalog, `use_skill` and `/name` see what `weft skills install` (or an
    /// editor) did meanwhile. True when something changed.
    pub fn refresh_skills(&self) -> bool {
        self.skills.refresh().is_some()
    }

    async fn run_turn(
        &mut self,
        message: Message,
        events: &mut dyn SessionEvents,
    ) -> Result<TurnOutcome, SessionError> {
        self.push(message)?;
        let limit = self.view.max_tool_iterations;
        let mut outcome = TurnOutcome {
            text: String::new(),
            stop: TurnStop::Answered,
            usage: Usage::default(),
            tool_calls: 0,
            model_calls: 0,
            hook_reason: None,
        };
        let mut rounds = 0u32;
        loop {
            for notice in self.notices.drain(..) {
                events.notice(&notice);
            }
            // Per round: a skill activated by the model (`use_skill`) may switch the model.
            let client = match self.models.client(self.turn_model()) {
                Ok(client) => client,
                Err(e) => return Err(self.unanswered(e.into())),
            };
            let compacted = self.compact_if_due(events).await;
            if !compacted.is_empty() {
                outcome.usage += compacted;
                outcome.model_calls += 1;
            }
            let response = match self.call_model(client.as_ref(), events, &mut outcome).await {
                Ok(response) => response,
                Err(e) => return Err(self.unanswered(e)),
            };
            outcome.model_calls += 1;
            events.model_reply(&response.message, &response.usage);
            outcome.usage += response.usage;
            let model = self.turn_model().to_string();
            self.count_call(&model, response.usage)?;
            // The provider's count of this request, and the answer joining the conversation.
            let measured = response.usage.input_tokens + response.usage.output_tokens;
            self.measure(measured, self.messages.len() + 1);
            self.measured_model = model;
            let calls = response.message.tool_calls.clone();
            outcome.text.clone_from(&response.message.content);
            self.push(response.message)?;
            events.context(&self.context_use());
            outcome.tool_calls += calls.len();
            if calls.is_empty() {
                if response.stop_reason == weft_llm::StopReason::MaxTokens {
                    outcome.stop = TurnStop::MaxTokens;
                }
                let verdict = self.stop_hooks(&outcome.text).await;
                self.report_hooks(events);
                match verdict {
                    StopVerdict::End => return Ok(outcome),
                    StopVerdict::Stopped(reason) => {
                        outcome.stop = TurnStop::HookStopped;
                        outcome.hook_reason = Some(reason);
                        return Ok(outcome);
                    }
                    StopVerdict::GoOn(reason) => {
                        outcome.stop = TurnStop::Answered;
                        self.push(Message::user(format!("[Stop hook feedback]\n{reason}")))?;
                        continue;
                    }
                }
            }
            if rounds >= limit {
                // Every tool call needs a result before the next user message, or the
                // providers reject the conversation.
                for call in &calls {
                    let result = Message::tool_result(
                        &call.id,
                        format!(
                            "not run: the limit of {limit} tool-call rounds for one message was reached"
                        ),
                        true,
                    );
                    events.tool_result(call, &result);
                    self.push(result)?;
                }
                outcome.stop = TurnStop::IterationLimit { limit };
                return Ok(outcome);
            }
            rounds += 1;
            for (i, call) in calls.iter().enumerate() {
                events.tool_call(call);
                let result = self.dispatch(call).await;
                self.report_hooks(events);
                let result = self.fit_tool_result(call, result);
                events.tool_result(call, &result);
                self.push(result)?;
                if let Some(reason) = self.take_hook_stop() {
                    // Every call needs a result before the conversation goes on.
                    for rest in &calls[i + 1..] {
                        let result = Message::tool_result(
                            &rest.id,
                            format!("not run: a hook stopped the turn: {reason}"),
                            true,
                        );
                        events.tool_result(rest, &result);
                        self.push(result)?;
                    }
                    outcome.stop = TurnStop::HookStopped;
                    outcome.hook_reason = Some(reason);
                    return Ok(outcome);
                }
            }
        }
    }

    /// Sends the conversation as it stands. A provider that refuses it as longer than the
    /// model's window gets one compaction and the request again, instead of an error (the
    /// summary's tokens count for `outcome`).
    async fn call_model(
        &mut self,
        client: &dyn weft_llm::ChatModel,
        events: &mut dyn SessionEvents,
        outcome: &mut TurnOutcome,
    ) -> Result<ChatResponse, SessionError> {
        let mut compacted = false;
        loop {
            let request = self.request();
            events.model_call_started(self.turn_model());
            let response = client
                .chat(&request, self.options.stream, &mut TextEvents(events))
                .await;
            events.model_call_finished();
            drop(request);
            match response {
                Err(error @ LlmError::ContextOverflow { .. }) if !compacted => {
                    tracing::info!(%error, "the provider refused the conversation as too long");
                    compacted = true;
                    // The window is smaller than this request, whatever was assumed: the
                    // threshold and the summary are sized by what was refused from now on.
                    let refused = self.next_request_tokens();
                    self.window_cap = Some(self.window_cap.map_or(refused, |c| c.min(refused)));
                    match self
                        .compact_for(CompactTrigger::Overflow, None, events)
                        .await
                    {
                        Ok(Some(report)) => {
                            outcome.usage += report.usage;
                            outcome.model_calls += 1;
                        }
                        Ok(None) => return Err(error.into()),
                        Err(e) => {
                            tracing::warn!(error = %e, "compaction after an overflow failed");
                            return Err(error.into());
                        }
                    }
                }
                other => return Ok(other?),
            }
        }
    }

    /// The request for the conversation as it stands.
    fn request(&mut self) -> ChatRequest {
        let tools = self.offered_tools();
        let system = self.system_prompt(&tools);
        ChatRequest {
            model: self.turn_model().model.clone(),
            system: Some(system),
            messages: self.messages.clone(),
            tools,
            temperature: self.view.temperature,
            max_tokens: self.options.max_tokens,
            reasoning_effort: self
                .turn
                .effort
                .clone()
                .or_else(|| self.options.effort.clone()),
        }
    }

    /// Gives every tool call of the last assistant message that has no result a "cancelled"
    /// result (a turn that was interrupted).
    pub(super) fn close_interrupted_turn(&mut self) -> Result<(), SessionError> {
        let Some(last_assistant) = self
            .messages
            .iter()
            .rposition(|m| m.role == weft_llm::Role::Assistant)
        else {
            return Ok(());
        };
        let answered: Vec<String> = self.messages[last_assistant..]
            .iter()
            .filter_map(|m| m.tool_call_id.clone())
            .collect();
        let missing: Vec<String> = self.messages[last_assistant]
            .tool_calls
            .iter()
            .filter(|c| !answered.contains(&c.id))
            .map(|c| c.id.clone())
            .collect();
        for id in missing {
            self.push(Message::tool_result(
                id,
                "cancelled: the turn was interrupted",
                true,
            ))?;
        }
        Ok(())
    }

    /// Deactivates the turn's skills: the gate returns to the agent's, their directories are
    /// no longer readable.
    pub(super) fn end_turn(&mut self) {
        self.turn = super::turn_state::TurnState::default();
    }

    /// A model call failed with `error`. If the session never got an answer and recorded
    /// nothing else, its transcript is taken back (a run that never reached the model leaves
    /// no session behind); the conversation stays in memory and is written if it goes on.
    /// The error is recorded either way (in memory until the transcript is written).
    fn unanswered(&mut self, error: SessionError) -> SessionError {
        let record = TranscriptRecord::ModelError {
            at: now_millis(),
            error: error.to_string(),
        };
        if let Some(t) = self.transcript.as_mut() {
            match t.withdraw() {
                Ok(true) => {
                    tracing::info!(path = %t.path().display(), "no answer; transcript removed")
                }
                Ok(false) => {}
                Err(e) => {
                    tracing::warn!(path = %t.path().display(), error = %e, "cannot remove the transcript of a session without an answer")
                }
            }
        }
        // The model call's error is the one to report, not a failure to record it.
        if let Err(e) = self.record(record) {
            tracing::warn!(error = %e, "cannot record the failed model call");
        }
        error
    }
}

/// The user's `text` with the hooks' context before it (SessionStart, UserPromptSubmit).
fn with_hook_context(context: Option<String>, text: String) -> String {
    match context {
        Some(context) => format!("[Hook context]\n{context}\n\n---\n\n{text}"),
        None => text,
    }
}

/// The outcome of a turn whose message a hook refused or stopped.
fn refused(verdict: PromptVerdict) -> TurnOutcome {
    match verdict {
        PromptVerdict::Blocked(reason) => TurnOutcome::hook_ended(TurnStop::PromptBlocked, reason),
        PromptVerdict::Stopped(reason) => TurnOutcome::hook_ended(TurnStop::HookStopped, reason),
        PromptVerdict::Send(_) => TurnOutcome::hook_ended(TurnStop::Answered, String::new()),
    }
}
