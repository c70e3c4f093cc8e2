//! Compaction: the older part of the conversation replaced by a summary the model writes,
//! so a long session goes on within its context window.
//!
//! It runs on request (`/compact [instructions]`, [`Session::compact`]), before a request
//! that would pass the threshold (`compact_threshold` of the window, 80% by default), and
//! once when the provider refuses a request as longer than its window (then the request is
//! sent again). The summary request is the conversation's own prefix (same system prompt,
//! same tools, the messages to summarise) plus an instruction, so the provider's prompt
//! cache serves most of it. The recent messages stay verbatim (a fifth of the window, at most
//! [`KEEP_TOKENS_MAX`], and always the last round), and so do the bodies of the skills active
//! in the turn; the summary keeps the task, the decisions, the files touched and what is
//! left. The transcript records a `compaction` (the messages stay above it in the file) and
//! the session drops what it summarised from memory; `--resume` starts from the summary.
//!
//! Hooks: the session's Claude Code hooks run `PreCompact` first (trigger `manual` or
//! `auto`, an overflow counting as `auto`; a block keeps the conversation as it is) and
//! `SessionStart` with source `compact` before the next turn. An embedder's
//! [`CompactionHook`] in the session options is told before and after (its answer is added
//! to the summary); [`SessionEvents`] gets [`compacting`](SessionEvents::compacting) and
//! [`compacted`](SessionEvents::compacted) for the user.

use std::fmt;

use async_trait::async_trait;
use weft_llm::{ChatRequest, LlmError, Message, NoStream, Role, Usage};

use super::context::{
    BYTES_PER_TOKEN, estimate_tokens, message_bytes, messages_tokens, tools_tokens,
};
use super::skill::USE_SKILL;
use super::{Session, SessionError, SessionEvents};
use crate::transcript::{TranscriptRecord, now_millis};

/// How the first line of a summary message starts (a summary is summarised again with the
/// rest when the conversation is compacted a second time).
pub const SUMMARY_MARK: &str = "[Conversation summary]";

/// The most tokens kept verbatim after a summary, whatever the window.
pub const KEEP_TOKENS_MAX: u64 = 40_000;

/// What the summary request asks for.
const INSTRUCTION: &str = "\
Your next answer replaces the conversation above: the messages so far will be removed and \
the work will continue from your summary alone (with the most recent messages kept as they \
are). Write that summary now. Do not call any tool and do not continue the task: answer \
with the summary only, in Markdown, under these headings:

## Task
What the user asked for, in their words where the wording matters, and the current goal.
## Decisions
What was decided and why; constraints and preferences the user stated.
## Files
Every file read, created or changed, with what was done to it and what matters in it.
## Progress
What is done, what was tried and failed, errors seen and how they were resolved.
## Open items
What is left to do, in order, starting with the next step.

Keep names, paths, commands, identifiers, error messages and numbers exact. Be complete but \
concise: no pleasantries, no repetition.";

/// Why a compaction ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompactTrigger {
    /// `/compact`, or [`Session::compact`].
    Manual,
    /// The next request would have passed the threshold.
    Auto,
    /// The provider refused a request as longer than the model's context window.
    Overflow,
}

impl CompactTrigger {
    /// `manual`, `auto` or `overflow` (the transcript's and the JSON output's word).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Manual => "manual",
            Self::Auto => "auto",
            Self::Overflow => "overflow",
        }
    }
}

impl fmt::Display for CompactTrigger {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a compaction did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompactionReport {
    /// The session compacted.
    pub session_id: String,
    /// Why.
    pub trigger: CompactTrigger,
    /// Messages replaced by the summary.
    pub summarised: usize,
    /// Messages kept verbatim after it.
    pub kept: usize,
    /// The context before, in tokens (estimated as for the threshold).
    pub tokens_before: u64,
    /// The context after.
    pub tokens_after: u64,
    /// The summary request's tokens.
    pub usage: Usage,
}

/// Told about compactions (the hook engine attaches here: Claude Code's `PreCompact` and
/// `SessionStart` with source `compact`).
#[async_trait]
pub trait CompactionHook: Send + Sync {
    /// Before the summary is asked for.
    async fn before_compact(&self, _start: &CompactStart<'_>) {}

    /// After the summary was written, before the session goes on with it: text returned
    /// here is added to the summary message (context for the rest of the session).
    async fn after_compact(&self, _report: &CompactionReport) -> Option<String> {
        None
    }
}

impl fmt::Debug for dyn CompactionHook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CompactionHook")
    }
}

/// A compaction about to start.
#[derive(Debug, Clone, Copy)]
pub struct CompactStart<'a> {
    /// The session.
    pub session_id: &'a str,
    /// Why.
    pub trigger: CompactTrigger,
    /// The user's instructions for the summary (`/compact <instructions>`).
    pub instructions: Option<&'a str>,
    /// The transcript, when one is kept.
    pub transcript: Option<&'a std::path::Path>,
}

impl Session {
    /// Compacts the conversation now (`/compact`): `instructions` say what the summary should
    /// keep above all. `None` when there is nothing to summarise (a conversation of one
    /// round). Cancel-safe: dropped before the summary arrives, nothing changes.
    pub async fn compact(
        &mut self,
        instructions: Option<&str>,
        events: &mut dyn SessionEvents,
    ) -> Result<Option<CompactionReport>, SessionError> {
        self.close_interrupted_turn()?;
        self.compact_for(CompactTrigger::Manual, instructions, events)
            .await
    }

    /// Compactions since the session started (or the last `/clear`).
    pub fn compactions(&self) -> u32 {
        self.compactions
    }

    /// Before a request: compacts first when automatic compaction is on and the request
    /// would pass the threshold. A failure is told to the user, and the request goes as it
    /// is (the provider may still take it; if not, the overflow retry compacts).
    pub(super) async fn compact_if_due(&mut self, events: &mut dyn SessionEvents) -> Usage {
        let Some(threshold) = self.compact_threshold() else {
            return Usage::default();
        };
        let tokens = self.next_request_tokens();
        if tokens <= threshold || self.split_point().is_none() {
            return Usage::default();
        }
        tracing::info!(tokens, threshold, "context past the compaction threshold");
        match self.compact_for(CompactTrigger::Auto, None, events).await {
            Ok(report) => report.map(|r| r.usage).unwrap_or_default(),
            Err(e) => {
                tracing::warn!(error = %e, "automatic compaction failed");
                events.notice(&format!(
                    "automatic compaction failed ({e}); the conversation is sent as it is"
                ));
                Usage::default()
            }
        }
    }

    /// Compacts for `trigger`; `None` when there is nothing to summarise.
    pub(super) async fn compact_for(
        &mut self,
        trigger: CompactTrigger,
        instructions: Option<&str>,
        events: &mut dyn SessionEvents,
    ) -> Result<Option<CompactionReport>, SessionError> {
        let Some(split) = self.split_point() else {
            return Ok(None);
        };
        let tokens_before = self.next_request_tokens();
        let instructions = instructions.map(str::trim).filter(|i| !i.is_empty());
        if let Some(hook) = self.options.compaction_hook.clone() {
            hook.before_compact(&CompactStart {
                session_id: &self.options.session_id,
                trigger,
                instructions,
                transcript: self.transcript_path(),
            })
            .await;
        }
        // Claude Code's PreCompact hooks know two triggers: an overflow is an automatic one.
        let hook_trigger = match trigger {
            CompactTrigger::Manual => "manual",
            CompactTrigger::Auto | CompactTrigger::Overflow => "auto",
        };
        if let Err(reason) = self
            .pre_compact_hooks(hook_trigger, instructions.unwrap_or(""), events)
            .await
        {
            tracing::info!(%reason, "a PreCompact hook kept the conversation as it is");
            return Ok(None);
        }
        events.compacting(trigger);
        let (summary, usage) = self.summarise(split, instructions).await?;
        let mut report = CompactionReport {
            session_id: self.options.session_id.clone(),
            trigger,
            summarised: split,
            kept: self.messages.len() - split,
            tokens_before,
            tokens_after: 0,
            usage,
        };
        let mut text = format!(
            "{SUMMARY_MARK} This conversation was compacted: its first {split} messages were replaced by this summary, which you wrote; the messages after it are as they were.\n\n{}",
            summary.trim()
        );
        let skills = self.active_skill_bodies(split);
        if !skills.is_empty() {
            text.push_str("\n\n## Skills in use (their instructions, verbatim)\n");
            text.push_str(&skills);
        }
        if let Some(hook) = self.options.compaction_hook.clone()
            && let Some(context) = hook.after_compact(&report).await
        {
            text.push_str("\n\n");
            text.push_str(context.trim());
        }
        let summary = Message::user(text);
        // The new conversation, measured before it replaces the old one.
        let tools = self.offered_tools();
        let system = self.system_prompt(&tools);
        report.tokens_after = estimate_tokens(system.len())
            + tools_tokens(&tools)
            + estimate_tokens(message_bytes(&summary))
            + messages_tokens(&self.messages[split..]);
        self.record(TranscriptRecord::Compaction {
            at: now_millis(),
            trigger: trigger.as_str().to_owned(),
            instructions: instructions.map(str::to_owned),
            summarised: report.summarised,
            kept: report.kept,
            tokens_before: report.tokens_before,
            tokens_after: report.tokens_after,
            summary: summary.clone(),
        })?;
        let kept = self.messages.split_off(split);
        self.messages = Vec::with_capacity(kept.len() + 1);
        self.messages.push(summary);
        self.messages.extend(kept);
        self.compactions += 1;
        self.measured = None;
        // The catalog is written again with the skills as they are: announcements made in
        // the summarised messages would otherwise be lost.
        self.prompt_cache = super::prompt::PromptCache::default();
        tracing::info!(
            trigger = trigger.as_str(),
            summarised = report.summarised,
            kept = report.kept,
            before = report.tokens_before,
            after = report.tokens_after,
            "conversation compacted"
        );
        // SessionStart (`compact`) hooks run before the next turn.
        self.compacted();
        events.compacted(&report);
        events.context(&self.context_use());
        Ok(Some(report))
    }

    /// Where the kept part of the conversation starts: the recent messages worth at most a
    /// fifth of the window ([`KEEP_TOKENS_MAX`] at most, and a third of the conversation, so
    /// `/compact` of a short one still summarises most of it), starting at a user or
    /// assistant message (a tool result stays with its call), and at least the last round.
    /// `None` when that leaves nothing to summarise but an earlier summary.
    pub(super) fn split_point(&self) -> Option<usize> {
        let messages = &self.messages;
        let starts_round = |m: &Message| m.role != Role::Tool;
        let last = messages.iter().rposition(starts_round)?;
        let budget = (self.context_window() / 5)
            .min(KEEP_TOKENS_MAX)
            .min(messages_tokens(messages) / 3);
        // What is summarised holds at least one answer of the model beyond an earlier
        // summary: a question alone is not worth a summary.
        let first_answer = messages.iter().position(|m| m.role == Role::Assistant)?;
        let earliest = first_answer + 1;
        let mut split = last;
        let mut tail = messages_tokens(&messages[last..]);
        for i in (earliest..last).rev() {
            tail += estimate_tokens(message_bytes(&messages[i]));
            if tail > budget {
                break;
            }
            if starts_round(&messages[i]) {
                split = i;
            }
        }
        (split >= earliest).then_some(split)
    }

    /// Asks the model for the summary of `messages[..split]`: the conversation's own prefix
    /// and the instruction. A prefix too long for the window is shortened from the front
    /// (whole turns; an earlier summary stays), and again if the provider still refuses it.
    async fn summarise(
        &mut self,
        split: usize,
        instructions: Option<&str>,
    ) -> Result<(String, Usage), SessionError> {
        let model = self.turn_model().clone();
        let client = self.models.client(&model)?;
        let tools = self.offered_tools();
        let system = self.system_prompt(&tools);
        let window = self.context_window();
        let fixed = estimate_tokens(system.len()) + tools_tokens(&tools);
        let max_tokens = u32::try_from((window / 8).clamp(1024, 8192)).unwrap_or(8192);
        let mut instruction = INSTRUCTION.to_owned();
        if let Some(extra) = instructions {
            instruction.push_str("\n\nThe user asks the summary to keep in particular: ");
            instruction.push_str(extra);
        }
        // Room for the summarised messages: the window less the fixed prefix, the answer (at
        // most a quarter of the window) and a tenth for the estimate's error.
        let mut room = window
            .saturating_sub(fixed)
            .saturating_sub(u64::from(max_tokens).min(window / 4))
            .saturating_sub(window / 10);
        let mut usage = Usage::default();
        for attempt in 0..2 {
            let Some((mut messages, left_out)) = fit(&self.messages[..split], room) else {
                break;
            };
            let mut text = instruction.clone();
            if left_out > 0 {
                text.push_str(&format!(
                    "\n\n(The {left_out} oldest messages did not fit in this request and are not shown; say in the summary that earlier work is not covered beyond what the messages above mention.)"
                ));
            }
            messages.push(Message::user(text));
            let request = ChatRequest {
                model: model.model.clone(),
                system: Some(system.clone()),
                messages,
                tools: tools.clone(),
                temperature: self.view.temperature,
                max_tokens: Some(max_tokens),
                reasoning_effort: None,
            };
            match client.chat(&request, false, &mut NoStream).await {
                Ok(response) => {
                    usage += response.usage;
                    self.count_call(&model.to_string(), response.usage)?;
                    let summary = response.message.content;
                    if summary.trim().is_empty() {
                        return Err(SessionError::Compaction(
                            "the model answered the summary request without any text".to_owned(),
                        ));
                    }
                    return Ok((summary, usage));
                }
                Err(LlmError::ContextOverflow { .. }) if attempt == 0 => room /= 2,
                Err(e) => return Err(e.into()),
            }
        }
        Err(SessionError::Compaction(
            "the context window is too small to summarise even part of the conversation".to_owned(),
        ))
    }

    /// The bodies of the skills active in this turn whose loading lies in the summarised
    /// part (`messages[..split]`): a `use_skill` result, or the user's `/name` run.
    fn active_skill_bodies(&self, split: usize) -> String {
        let mut out = String::new();
        if self.turn.active_skills.is_empty() {
            return out;
        }
        let summarised = &self.messages[..split];
        for message in summarised {
            let body = match message.role {
                Role::User => self
                    .turn
                    .active_skills
                    .iter()
                    .any(|name| message.content.starts_with(&format!("[Skill: {name}]")))
                    .then_some(message.content.as_str()),
                Role::Tool if !message.is_error => {
                    let skill = summarised
                        .iter()
                        .flat_map(|m| &m.tool_calls)
                        .find(|c| Some(c.id.as_str()) == message.tool_call_id.as_deref())
                        .filter(|c| c.name == USE_SKILL)
                        .and_then(|c| c.arguments.get("skill").and_then(|s| s.as_str()));
                    skill
                        .filter(|s| self.turn.active_skills.iter().any(|a| a == s))
                        .map(|s| {
                            out.push_str(&format!("\n### {s}\n\n"));
                            message.content.as_str()
                        })
                }
                _ => None,
            };
            if let Some(body) = body {
                out.push_str(body.trim_end());
                out.push('\n');
            }
        }
        out
    }
}

/// The messages to summarise within `room` tokens: all of them when they fit; else each
/// long one shortened to its start and end (a tool result the size of the window must not
/// keep the rest out), and if that is not enough, the most recent that fit from a user
/// message on (an earlier summary first, when there is one). Also how many were left out;
/// `None` when not even the last message fits.
fn fit(messages: &[Message], room: u64) -> Option<(Vec<Message>, usize)> {
    if messages_tokens(messages) <= room {
        return Some((messages.to_vec(), 0));
    }
    let room_bytes = usize::try_from(room.saturating_mul(BYTES_PER_TOKEN)).unwrap_or(usize::MAX);
    let longest = (room_bytes / 8).max(1024);
    let shortened: Vec<Message> = messages
        .iter()
        .map(|m| {
            let mut m = m.clone();
            if m.content.len() > longest && !m.content.starts_with(SUMMARY_MARK) {
                m.content = shorten(&m.content, longest);
            }
            m
        })
        .collect();
    let summary = shortened
        .first()
        .filter(|m| m.content.starts_with(SUMMARY_MARK));
    let room = room.saturating_sub(summary.map_or(0, |m| estimate_tokens(message_bytes(m))));
    let first = usize::from(summary.is_some());
    let mut start = shortened.len();
    let mut used = 0;
    for i in (first..shortened.len()).rev() {
        used += estimate_tokens(message_bytes(&shortened[i]));
        if used > room {
            break;
        }
        if shortened[i].role == Role::User {
            start = i;
        }
    }
    if start == shortened.len() {
        return None;
    }
    let mut kept: Vec<Message> = summary.into_iter().cloned().collect();
    kept.extend_from_slice(&shortened[start..]);
    Some((kept, start - first))
}

/// `text` in at most about `limit` bytes: its start and its end, and how much was left out.
fn shorten(text: &str, limit: usize) -> String {
    let floor = |mut at: usize| {
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        at
    };
    let head = floor(limit * 3 / 4);
    let tail = floor(text.len() - limit / 4).max(head);
    format!(
        "{}\n[... {} bytes left out of this summary request ...]\n{}",
        &text[..head],
        tail - head,
        &text[tail..]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_does_not_fit_is_left_out_from_the_front_in_whole_turns() {
        let summary = Message::user(format!("{SUMMARY_MARK} earlier"));
        let big = "x".repeat(4000);
        let messages = vec![
            summary.clone(),
            Message::user("first"),
            Message::assistant(big.clone(), vec![]),
            Message::user("second"),
            Message::assistant("short", vec![]),
        ];
        let (all, left) = fit(&messages, 10_000).unwrap();
        assert_eq!((all.len(), left), (5, 0));
        // Shortened, everything fits.
        let (short, left) = fit(&messages, 600).unwrap();
        assert_eq!((short.len(), left), (5, 0));
        assert!(
            short[2]
                .content
                .contains("bytes left out of this summary request")
        );
        assert!(short[2].content.len() < 1200);
        // Even so too long: whole turns from the front go.
        let (some, left) = fit(&messages, 100).unwrap();
        assert_eq!(left, 2);
        assert_eq!(some[0], summary);
        assert_eq!(some[1], Message::user("second"));
        assert!(fit(&messages, 1).is_none());
    }
}
