//! How `weft agent -m` and `weft skills run` show a turn: as text (the answer on stdout,
//! streamed on a terminal and rendered as Markdown when it has colour; tool activity,
//! retries, notices and a status line on stderr: weft-repl's [`TurnPrinter`], shared with the
//! interactive session), as one JSON object when it ends (`--format json`), or as one JSON
//! event per line while it goes (`--format stream-json`). JSON is never rendered and never
//! has a status line; notices and retries go to stderr in every format, so stdout keeps its
//! schema. docs/OUTPUT.md documents the events; the `result` event is the `json` object.

use std::path::Path;
use std::process::ExitCode;

use serde::Serialize;
use weft_agents::{
    CompactTrigger, CompactionReport, ContextUse, HookRun, Session, SessionEvents, TurnOutcome,
    TurnStop, price_of,
};
use weft_llm::{Message, ModelRef, RetryNotice, ToolCall, Usage};
use weft_repl::{Activity, TurnPrinter};

use crate::cli::RunFormat;
use crate::commands::run::Screen;
use crate::output::{errln, outln, write_stdout};

/// Prints a turn as it happens, in the chosen format.
pub(crate) enum TurnOutput<'s> {
    /// Text for a person.
    Text(TurnPrinter<'s>),
    /// JSON for a program: collected for the `result`, and with `stream` printed as events.
    Json(JsonTurn),
}

impl<'s> TurnOutput<'s> {
    /// The output for `format` on `screen`. `stream_text` streams the answer (text on a
    /// terminal, `text` events for stream-json); `show_tools` prints tool activity on stderr.
    pub(crate) fn new(
        format: RunFormat,
        stream_text: bool,
        show_tools: bool,
        screen: &'s mut Screen,
    ) -> Self {
        match format {
            RunFormat::Text => Self::Text(
                TurnPrinter::new(
                    &mut screen.out,
                    screen.stdout,
                    Activity::Separate(&mut screen.err, screen.stderr),
                    stream_text,
                )
                .with_tools(show_tools)
                .with_status(screen.status.clone()),
            ),
            RunFormat::Json | RunFormat::StreamJson => Self::Json(JsonTurn {
                stream: format == RunFormat::StreamJson,
                show_tools,
                calls: Vec::new(),
                usage: Usage::default(),
                model_calls: 0,
                text: String::new(),
                stop: TurnStop::Answered,
                hook_reason: None,
                compactions: 0,
                cost_before: None,
            }),
        }
    }

    /// The session is ready: stream-json says which one; text says so when it was resumed,
    /// and its status line starts with how full the context is.
    pub(crate) fn started(&mut self, session: &mut Session, resumed: bool) {
        let context = session.context_use();
        match self {
            Self::Text(printer) => {
                printer.context(&context);
                if resumed {
                    errln!(
                        "weft: resumed session {} ({} message{}, agent {}, model {})",
                        session.id(),
                        session.messages().len(),
                        if session.messages().len() == 1 {
                            ""
                        } else {
                            "s"
                        },
                        session.agent().name,
                        session.model()
                    );
                }
            }
            Self::Json(j) => {
                j.cost_before = Some(session_cost(session));
                if j.stream {
                    event(&Event::Session {
                        session_id: session.id(),
                        agent: &session.agent().name,
                        model: session.model().to_string(),
                        resumed,
                        messages: session.messages().len(),
                        transcript: session.transcript_path(),
                        context: ContextJson::of(&context),
                    });
                }
            }
        }
    }

    /// A turn ended: text prints the answer (and with `verbose` the counts); JSON keeps it
    /// for the result. The exit status a turn that stopped this way deserves.
    pub(crate) fn turn_done(
        &mut self,
        outcome: &TurnOutcome,
        session: &Session,
        verbose: bool,
    ) -> ExitCode {
        match self {
            Self::Text(printer) => report(printer, outcome, session, verbose),
            Self::Json(j) => {
                j.text.clone_from(&outcome.text);
                j.stop = outcome.stop;
                j.usage += outcome.usage;
                j.model_calls += outcome.model_calls;
                j.hook_reason.clone_from(&outcome.hook_reason);
                if let Some(reason) = &outcome.hook_reason {
                    errln!("weft: {}", hook_ended(outcome.stop, reason));
                }
                match outcome.stop {
                    TurnStop::IterationLimit { .. } | TurnStop::PromptBlocked => ExitCode::FAILURE,
                    TurnStop::Answered | TurnStop::MaxTokens | TurnStop::HookStopped => {
                        ExitCode::SUCCESS
                    }
                }
            }
        }
    }

    /// The run is over: JSON prints the `result` (with `error` when the run failed, and,
    /// when `strict_refusals`, when calls were refused for want of approval).
    pub(crate) fn finish(
        &mut self,
        session: &mut Session,
        error: Option<&str>,
        strict_refusals: bool,
    ) {
        let Self::Json(j) = self else {
            return;
        };
        let refusals: Vec<RefusalJson> = session
            .refused_calls()
            .into_iter()
            .map(RefusalJson::from)
            .collect();
        let context = session.context_use();
        let cost = session_cost(session);
        let doc = Event::Result(j.result(
            session,
            error,
            ResultExtras {
                refusals,
                strict_refusals,
                context: &context,
                cost,
            },
        ));
        if j.stream {
            event(&doc);
        } else if let Ok(text) = serde_json::to_string_pretty(&doc) {
            outln!("{text}");
        }
    }
}

impl SessionEvents for TurnOutput<'_> {
    fn text(&mut self, delta: &str) {
        match self {
            Self::Text(p) => p.text(delta),
            Self::Json(j) if j.stream && !delta.is_empty() => event(&Event::Text { text: delta }),
            Self::Json(_) => {}
        }
    }

    fn tool_call(&mut self, call: &ToolCall) {
        match self {
            Self::Text(p) => p.tool_call(call),
            Self::Json(j) => j.tool_call(call),
        }
    }

    fn tool_result(&mut self, call: &ToolCall, result: &Message) {
        match self {
            Self::Text(p) => p.tool_result(call, result),
            Self::Json(j) => j.tool_result(call, result),
        }
    }

    /// Notices (a model alias replaced by the session's model...) go to stderr in every
    /// format, so JSON on stdout keeps its schema.
    fn notice(&mut self, text: &str) {
        match self {
            Self::Text(p) => p.notice(text),
            Self::Json(_) => errln!("weft: {text}"),
        }
    }

    /// Retries are announced on stderr in every format (a wait needs explaining).
    fn retrying(&mut self, notice: &RetryNotice) {
        match self {
            Self::Text(p) => p.retrying(notice),
            Self::Json(_) => errln!("weft: {notice}"),
        }
    }

    /// Text drives the status line; JSON has none.
    fn model_call_started(&mut self, model: &ModelRef) {
        if let Self::Text(p) = self {
            p.model_call_started(model);
        }
    }

    fn model_call_finished(&mut self) {
        if let Self::Text(p) = self {
            p.model_call_finished();
        }
    }

    /// A hook ran: an event in stream-json; in text, a line with the tool activity.
    fn hook(&mut self, run: &HookRun) {
        match self {
            Self::Text(p) => p.hook(run),
            Self::Json(j) => {
                if j.stream {
                    event(&Event::Hook {
                        event: run.event.as_str(),
                        source: run.source.to_string(),
                        command: &run.command,
                        exit_code: run.end.code(),
                        outcome: &run.summary,
                        duration_ms: u64::try_from(run.duration.as_millis()).unwrap_or(u64::MAX),
                    });
                }
            }
        }
    }

    fn compacting(&mut self, trigger: CompactTrigger) {
        if let Self::Text(p) = self {
            p.compacting(trigger);
        }
    }

    /// Text shows a line; stream-json a `compaction` event; json counts it in the result.
    fn compacted(&mut self, report: &CompactionReport) {
        match self {
            Self::Text(p) => p.compacted(report),
            Self::Json(j) => {
                j.compactions += 1;
                if j.stream {
                    event(&Event::Compaction {
                        trigger: report.trigger.as_str(),
                        summarised: report.summarised,
                        kept: report.kept,
                        tokens_before: report.tokens_before,
                        tokens_after: report.tokens_after,
                        usage: &report.usage,
                    });
                }
            }
        }
    }

    fn context(&mut self, context: &ContextUse) {
        if let Self::Text(p) = self {
            p.context(context);
        }
    }

    fn model_reply(&mut self, message: &Message, usage: &Usage) {
        if let Self::Json(j) = self
            && j.stream
        {
            event(&Event::Assistant {
                content: &message.content,
                tool_calls: &message.tool_calls,
                usage,
            });
        }
    }
}

/// An event of `--format stream-json` (docs/OUTPUT.md); the `result` is also the whole
/// output of `--format json`.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Event<'a> {
    /// The session is ready.
    Session {
        session_id: &'a str,
        agent: &'a str,
        model: String,
        resumed: bool,
        messages: usize,
        transcript: Option<&'a Path>,
        /// How full the context window is.
        context: ContextJson,
    },
    /// Streamed answer text.
    Text { text: &'a str },
    /// One model reply: its text, the tools it asks for, the tokens of the call.
    Assistant {
        content: &'a str,
        tool_calls: &'a [ToolCall],
        usage: &'a Usage,
    },
    /// A tool call about to run (through the gate).
    ToolCall {
        id: &'a str,
        name: &'a str,
        arguments: &'a serde_json::Value,
    },
    /// A hook ran (docs/HOOKS.md).
    Hook {
        event: &'static str,
        source: String,
        command: &'a str,
        exit_code: Option<i32>,
        outcome: &'a str,
        duration_ms: u64,
    },
    /// Its result (a refusal is an error result).
    ToolResult {
        id: &'a str,
        name: &'a str,
        is_error: bool,
        content: &'a str,
    },
    /// The conversation was compacted.
    Compaction {
        trigger: &'static str,
        summarised: usize,
        kept: usize,
        tokens_before: u64,
        tokens_after: u64,
        usage: &'a Usage,
    },
    /// The run is over.
    Result(ResultJson<'a>),
}

/// The `result` event.
#[derive(Debug, Serialize)]
struct ResultJson<'a> {
    session_id: &'a str,
    agent: &'a str,
    model: String,
    result: &'a str,
    stop: &'static str,
    is_error: bool,
    error: Option<String>,
    tool_calls: &'a [CallJson],
    /// The calls refused because no one could approve them (this session's and its
    /// subagents'): with any, the run exits 4 and is an error unless `--ignore-refusals`.
    refusals: Vec<RefusalJson>,
    usage: Usage,
    /// What the run's tokens cost at the configured prices; `null` without any.
    cost_usd: Option<f64>,
    model_calls: u32,
    /// Compactions during the run.
    compactions: u32,
    /// How full the context window is at the end.
    context: ContextJson,
    transcript: Option<&'a Path>,
}

/// A call refused for want of approval, and what would let it run.
#[derive(Debug, Serialize)]
struct RefusalJson {
    session_id: String,
    tool: String,
    /// What the call does, on one line.
    summary: String,
    /// `permissions.allow` patterns that would pre-approve it.
    suggestions: Vec<String>,
    /// The permission mode that would run it without asking (`null`: only a person can).
    mode: Option<String>,
}

impl From<weft_agents::RefusedCall> for RefusalJson {
    fn from(r: weft_agents::RefusedCall) -> Self {
        Self {
            session_id: r.session_id,
            tool: r.tool,
            summary: r.summary,
            suggestions: r.suggestions,
            mode: r.mode.map(|m| m.as_str().to_owned()),
        }
    }
}

/// How full the context window is: `tokens` of `window`.
#[derive(Debug, Serialize)]
struct ContextJson {
    tokens: u64,
    window: u64,
}

impl ContextJson {
    fn of(context: &ContextUse) -> Self {
        Self {
            tokens: context.tokens,
            window: context.window,
        }
    }
}

/// What the session's tokens cost so far at the configured prices; `None` when no model it
/// used has one.
fn session_cost(session: &Session) -> Option<f64> {
    let ledger = session.ledger();
    let catalog = session.models().catalog();
    let priced = ledger
        .calls
        .keys()
        .chain(ledger.subagents.keys())
        .any(|m| price_of(catalog, m).is_some());
    priced.then(|| ledger.cost(catalog).dollars)
}

/// What the `result` of a run holds besides the turn itself.
struct ResultExtras<'c> {
    /// Calls refused for want of approval.
    refusals: Vec<RefusalJson>,
    /// Whether such refusals make the run an error.
    strict_refusals: bool,
    /// How full the context window is.
    context: &'c ContextUse,
    /// What the session cost so far, when priced.
    cost: Option<f64>,
}

/// One line of stream-json.
fn event(event: &Event<'_>) {
    if let Ok(line) = crate::output::json_line(event) {
        write_stdout(&format!("{line}\n"));
    }
}

/// The end of a turn in text: the answer (unless it was streamed), with `verbose` the
/// counts, and the exit status the way it stopped deserves.
fn report(
    printer: &mut TurnPrinter<'_>,
    outcome: &TurnOutcome,
    session: &Session,
    verbose: bool,
) -> ExitCode {
    printer.finish(Some(&outcome.text));
    if verbose {
        if let Some(path) = session.transcript_path() {
            errln!("transcript: {}", path.display());
        }
        errln!(
            "{} model call(s), {} tool call(s), {} input ({} read from the cache, {} written to it) + {} output tokens",
            outcome.model_calls,
            outcome.tool_calls,
            outcome.usage.input_tokens,
            outcome.usage.cache_read_tokens,
            outcome.usage.cache_write_tokens,
            outcome.usage.output_tokens
        );
    }
    if let Some(reason) = &outcome.hook_reason {
        errln!("weft: {}", hook_ended(outcome.stop, reason));
    }
    match outcome.stop {
        TurnStop::Answered | TurnStop::HookStopped => ExitCode::SUCCESS,
        TurnStop::PromptBlocked => ExitCode::FAILURE,
        TurnStop::MaxTokens => {
            errln!("warning: the answer was cut off at the output token limit");
            ExitCode::SUCCESS
        }
        TurnStop::IterationLimit { limit } => {
            errln!("error: {}", iteration_limit(limit));
            ExitCode::FAILURE
        }
    }
}

/// Why a hook ended the turn, for the person.
fn hook_ended(stop: TurnStop, reason: &str) -> String {
    match stop {
        TurnStop::PromptBlocked => {
            format!("the message was blocked by a UserPromptSubmit hook: {reason}")
        }
        _ => format!("a hook stopped the session: {reason}"),
    }
}

fn iteration_limit(limit: u32) -> String {
    format!("stopped after {limit} tool-call rounds (max_tool_iterations); the task is unfinished")
}

/// One tool call of the run, with its result once it has one.
#[derive(Debug, Serialize)]
struct CallJson {
    id: String,
    name: String,
    arguments: serde_json::Value,
    is_error: bool,
    content: Option<String>,
}

/// JSON output: what the `result` needs, and the events when streaming.
pub(crate) struct JsonTurn {
    stream: bool,
    show_tools: bool,
    calls: Vec<CallJson>,
    usage: Usage,
    model_calls: u32,
    text: String,
    stop: TurnStop,
    hook_reason: Option<String>,
    compactions: u32,
    /// The session's cost when the run started (a resumed session's earlier runs).
    cost_before: Option<Option<f64>>,
}

impl JsonTurn {
    fn tool_call(&mut self, call: &ToolCall) {
        if self.show_tools {
            errln!("→ {}", call.name);
        }
        if self.stream {
            event(&Event::ToolCall {
                id: &call.id,
                name: &call.name,
                arguments: &call.arguments,
            });
        }
        self.calls.push(CallJson {
            id: call.id.clone(),
            name: call.name.clone(),
            arguments: call.arguments.clone(),
            is_error: false,
            content: None,
        });
    }

    fn tool_result(&mut self, call: &ToolCall, result: &Message) {
        if self.stream {
            event(&Event::ToolResult {
                id: &call.id,
                name: &call.name,
                is_error: result.is_error,
                content: &result.content,
            });
        }
        // A call refused at the iteration limit was never announced: it is listed too.
        match self.calls.iter_mut().rev().find(|c| c.id == call.id) {
            Some(c) => {
                c.is_error = result.is_error;
                c.content = Some(result.content.clone());
            }
            None => self.calls.push(CallJson {
                id: call.id.clone(),
                name: call.name.clone(),
                arguments: call.arguments.clone(),
                is_error: result.is_error,
                content: Some(result.content.clone()),
            }),
        }
    }

    fn result<'a>(
        &'a self,
        session: &'a Session,
        error: Option<&str>,
        extras: ResultExtras<'_>,
    ) -> ResultJson<'a> {
        let ResultExtras {
            refusals,
            strict_refusals,
            context,
            cost,
        } = extras;
        // A failed run stops with "error"; an unfinished one keeps its stop and is an error;
        // one whose calls were refused for want of approval keeps its stop and is an error
        // too (exit 4), unless refusals are ignored.
        let (stop, mut error) = match (error, self.stop) {
            (Some(e), _) => ("error", Some(e.to_owned())),
            (None, TurnStop::Answered) => ("answered", None),
            (None, TurnStop::MaxTokens) => ("max_tokens", None),
            (None, TurnStop::IterationLimit { limit }) => {
                ("iteration_limit", Some(iteration_limit(limit)))
            }
            (None, TurnStop::PromptBlocked) => (
                "prompt_blocked",
                Some(hook_ended(
                    TurnStop::PromptBlocked,
                    self.hook_reason.as_deref().unwrap_or(""),
                )),
            ),
            (None, TurnStop::HookStopped) => ("hook_stopped", None),
        };
        if error.is_none() && strict_refusals && !refusals.is_empty() {
            error = Some(format!(
                "refused for want of approval, with no one to ask: {} call(s), listed under `refusals` (exit status 4; --ignore-refusals exits 0)",
                refusals.len()
            ));
        }
        ResultJson {
            session_id: session.id(),
            agent: &session.agent().name,
            model: session.model().to_string(),
            result: &self.text,
            stop,
            is_error: error.is_some(),
            error,
            tool_calls: &self.calls,
            refusals,
            usage: self.usage,
            cost_usd: cost.map(|after| after - self.cost_before.flatten().unwrap_or(0.0)),
            model_calls: self.model_calls,
            compactions: self.compactions,
            context: ContextJson::of(context),
            // The transcript once it exists (a run that failed early has none).
            transcript: session.transcript_path().filter(|p| p.exists()),
        }
    }
}
