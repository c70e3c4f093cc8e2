//! `weft agent -m MSG` and `weft skills run NAME ARGS`: one turn of the agent loop, printed;
//! calls that need approval are asked about on the terminal, or refused without one.

use std::io::{IsTerminal, Read, Write};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};
use async_trait::async_trait;
use weft_agents::{ModelPool, Session, SessionError, SessionEvents, TurnOutcome, TurnStop};
use weft_llm::{
    ChatModel, ChatRequest, ChatResponse, LlmError, Message, ModelError, TextSink, ToolCall,
};
use weft_runtime::{Runtime, RuntimeError, SessionSettings, UsageError};
use weft_types::PermissionMode;

use crate::cli::{AgentArgs, RunArgs, SkillRunArgs};
use crate::output::outln;
use weft_runtime::Workspace;

use crate::signals::{Exits, kill_groups_on_exit};

/// The provider a dry run uses when none is configured: it is never called.
struct Offline;

#[async_trait]
impl ChatModel for Offline {
    fn provider(&self) -> &str {
        "offline"
    }

    async fn chat(
        &self,
        _request: &ChatRequest,
        _stream: bool,
        _sink: &mut dyn TextSink,
    ) -> Result<ChatResponse, LlmError> {
        Err(LlmError::Config("dry run: nothing is sent".to_owned()))
    }
}

/// Prints a turn as it happens: streamed text to stdout, tool activity to stderr.
struct Console {
    stream: bool,
    show_tools: bool,
    streamed: bool,
}

impl SessionEvents for Console {
    fn text(&mut self, delta: &str) {
        if self.stream {
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(delta.as_bytes());
            let _ = out.flush();
            self.streamed |= !delta.is_empty();
        }
    }

    fn tool_call(&mut self, call: &ToolCall) {
        if self.show_tools {
            if self.streamed {
                outln!();
                self.streamed = false;
            }
            eprintln!(
                "→ {} {}",
                call.name,
                weft_term::cut(&call.arguments.to_string(), 100)
            );
        }
    }

    fn tool_result(&mut self, _call: &ToolCall, result: &Message) {
        if self.show_tools && result.is_error {
            eprintln!("  ✗ {}", weft_term::cut(&result.content, 160));
        }
    }
}

pub(crate) fn session_error(e: SessionError) -> anyhow::Error {
    match e {
        SessionError::Model(m) => UsageError(m.to_string()).into(),
        SessionError::AgentTools { .. }
        | SessionError::AgentPermissionMode { .. }
        | SessionError::Skill(_) => UsageError(e.to_string()).into(),
        other => other.into(),
    }
}

/// A runtime error with a session's errors classified as [`session_error`] does.
fn runtime_error(e: RuntimeError) -> anyhow::Error {
    match e {
        RuntimeError::Session(e) => session_error(e),
        other => other.into(),
    }
}

/// Builds the session for a run. A dry run without a provider uses a placeholder model.
pub(crate) fn start(runtime: &Runtime, run: &RunArgs, stream: bool) -> Result<Session> {
    let mut settings = SessionSettings {
        agent: run.agent.clone(),
        model: run.model.clone(),
        transcripts: !run.dry_run && !run.no_transcript,
        stream,
    };
    if !run.dry_run {
        return runtime.session(&settings).map_err(runtime_error);
    }
    let agent = runtime.agent(run.agent.as_deref())?;
    let mut models = Arc::clone(&runtime.models);
    match models.choose(settings.model.as_deref(), agent.model.as_deref(), None) {
        Err(ModelError::NoDefault) => {
            models = Arc::new(
                ModelPool::new(models.catalog().clone()).with_client("offline", Arc::new(Offline)),
            );
            settings.model = Some("offline/dry-run".to_owned());
        }
        Err(e) => return Err(UsageError(e.to_string()).into()),
        Ok(_) => {}
    }
    runtime
        .session_for(agent, models, &settings)
        .map_err(runtime_error)
}

/// What `--dry-run` prints. Serialized directly (not through `serde_json::Value`) so numbers
/// such as the temperature print exactly as they are sent.
#[derive(serde::Serialize)]
struct DryRun<'a> {
    provider: &'a str,
    agent: &'a str,
    active_skills: &'a [String],
    request: &'a ChatRequest,
}

fn print_request(session: &mut Session, text: &str) -> Result<ExitCode> {
    let request = session.preview(text);
    let doc = DryRun {
        provider: &session.model().provider,
        agent: &session.agent().name,
        active_skills: session.active_skills(),
        request: &request,
    };
    outln!("{}", serde_json::to_string_pretty(&doc)?);
    Ok(ExitCode::SUCCESS)
}

fn report(outcome: &TurnOutcome, console: &Console, session: &Session, verbose: bool) -> ExitCode {
    if console.stream {
        if console.streamed {
            outln!();
        }
    } else if !outcome.text.is_empty() {
        outln!("{}", outcome.text);
    }
    if verbose {
        if let Some(path) = session.transcript_path() {
            eprintln!("transcript: {}", path.display());
        }
        eprintln!(
            "{} model call(s), {} tool call(s), {} input + {} output tokens",
            outcome.model_calls,
            outcome.tool_calls,
            outcome.usage.input_tokens,
            outcome.usage.output_tokens
        );
    }
    match outcome.stop {
        TurnStop::Answered => ExitCode::SUCCESS,
        TurnStop::MaxTokens => {
            eprintln!("warning: the answer was cut off at the output token limit");
            ExitCode::SUCCESS
        }
        TurnStop::IterationLimit { limit } => {
            eprintln!(
                "error: stopped after {limit} tool-call rounds (max_tool_iterations); the task is unfinished"
            );
            ExitCode::FAILURE
        }
    }
}

pub(crate) fn tokio_runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}

fn console(run: &RunArgs, verbose: bool) -> Console {
    Console {
        stream: !run.no_stream && std::io::stdout().is_terminal(),
        show_tools: verbose || std::io::stderr().is_terminal(),
        streamed: false,
    }
}

/// The runtime of a run in permission mode `mode` (the command line's), with the bypass
/// banner printed when that is the mode in effect.
pub(crate) fn load_runtime(workspace: &Workspace, mode: Option<PermissionMode>) -> Result<Runtime> {
    let mut runtime = Runtime::load(workspace)?;
    runtime.set_permission_mode(mode);
    crate::permissions::announce(runtime.permission_mode()?);
    Ok(runtime)
}

/// A one-shot run asks on the terminal when one is attached (standard input and error);
/// otherwise calls that need approval are refused.
fn ask_on_terminal(session: &mut Session) {
    if std::io::stdin().is_terminal() && std::io::stderr().is_terminal() {
        session.set_approver(Some(Arc::new(weft_repl::PromptApprover::terminal(
            Box::new(std::io::stderr()),
        ))));
    }
}

/// Prints the summary of refused calls (stderr), then passes `result` on.
fn with_refusals<T>(session: &Session, result: Result<T>) -> Result<T> {
    if let Some(line) = crate::permissions::refusal_summary(session) {
        eprintln!("{line}");
    }
    result
}

/// `weft agent`.
pub fn agent(
    workspace: &Workspace,
    args: &AgentArgs,
    mode: Option<PermissionMode>,
    verbose: bool,
) -> Result<ExitCode> {
    let message = match &args.message {
        Some(m) => m.clone(),
        None if !std::io::stdin().is_terminal() => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .context("cannot read the message from stdin")?;
            text
        }
        None => return crate::commands::repl::run(workspace, &args.run, mode),
    };
    if message.trim().is_empty() {
        return Err(UsageError("the message is empty".to_owned()).into());
    }
    let runtime = load_runtime(workspace, mode)?;
    let mut console = console(&args.run, verbose);
    let mut session = start(&runtime, &args.run, console.stream)?;
    if args.run.dry_run {
        return print_request(&mut session, &message);
    }
    ask_on_terminal(&mut session);
    let _groups = kill_groups_on_exit(runtime.process_groups(), Exits::OnInterrupt)?;
    let rt = tokio_runtime()?;
    let result = rt
        .block_on(session.send(message, &mut console))
        .map_err(session_error)
        .and_then(|outcome| {
            let code = report(&outcome, &console, &session, verbose);
            rt.block_on(finish_background(&mut session, &mut console, verbose))
                .map(|c| c.unwrap_or(code))
        });
    with_refusals(&session, result)
}

/// `weft skills run`.
pub fn skill_run(
    workspace: &Workspace,
    args: &SkillRunArgs,
    mode: Option<PermissionMode>,
    verbose: bool,
) -> Result<ExitCode> {
    let runtime = load_runtime(workspace, mode)?;
    let mut console = console(&args.run, verbose);
    let mut session = start(&runtime, &args.run, console.stream)?;
    if args.run.dry_run {
        let text = session
            .prepare_user_skill(&args.name, args.args.clone())
            .map_err(session_error)?;
        return print_request(&mut session, &text);
    }
    ask_on_terminal(&mut session);
    let _groups = kill_groups_on_exit(runtime.process_groups(), Exits::OnInterrupt)?;
    let rt = tokio_runtime()?;
    let result = rt
        .block_on(session.run_skill(&args.name, args.args.clone(), &mut console))
        .map_err(session_error)
        .and_then(|outcome| {
            let code = report(&outcome, &console, &session, verbose);
            rt.block_on(finish_background(&mut session, &mut console, verbose))
                .map(|c| c.unwrap_or(code))
        });
    with_refusals(&session, result)
}

/// A one-shot run does not end while background subagents work: it waits for them (each is
/// bounded by its timeout), then gives the model one more turn with their results.
async fn finish_background(
    session: &mut Session,
    console: &mut Console,
    verbose: bool,
) -> Result<Option<ExitCode>> {
    let running = session.running_children();
    if running == 0 && session.undelivered_children() == 0 {
        return Ok(None);
    }
    if running > 0 {
        eprintln!("waiting for {running} background subagent(s)...");
        session.wait_for_children().await;
    }
    console.streamed = false;
    let outcome = session
        .send(
            "The background subagents have finished; their results are above. Continue.",
            console,
        )
        .await
        .map_err(session_error)?;
    Ok(Some(report(&outcome, console, session, verbose)))
}
