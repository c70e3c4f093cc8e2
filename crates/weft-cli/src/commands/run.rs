//! `weft agent -m MSG` and `weft skills run NAME ARGS`: one turn of the agent loop, printed.

use std::io::{IsTerminal, Read};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};
use async_trait::async_trait;
use weft_agents::{ModelPool, Session, SessionError, TurnOutcome, TurnStop};
use weft_llm::{ChatModel, ChatRequest, ChatResponse, LlmError, ModelError, TextSink};
use weft_repl::{Activity, TurnPrinter};
use weft_runtime::{Runtime, RuntimeError, SessionSettings, UsageError};
use weft_term::{StatusLine, Terminal};

use crate::cli::{AgentArgs, RunArgs, SkillRunArgs};
use crate::environment::{stderr_terminal, stdout_terminal};
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

/// Where a one-shot run shows its turn: the answer on stdout, tool activity, retries and the
/// status line on stderr, each as its stream allows.
struct Screen {
    out: std::io::Stdout,
    err: std::io::Stderr,
    stdout: Terminal,
    stderr: Terminal,
    /// The status line, on a live stderr only.
    status: Option<StatusLine>,
}

impl Screen {
    fn new() -> Self {
        let stderr = stderr_terminal();
        Self {
            out: std::io::stdout(),
            err: std::io::stderr(),
            stdout: stdout_terminal(),
            status: status_line(stderr),
            stderr,
        }
    }

    /// Whether the answer is streamed: on a terminal, unless `--no-stream`.
    fn streams(&self, run: &RunArgs) -> bool {
        !run.no_stream && self.stdout.tty
    }

    /// The printer of the run's turns (tool lines with -v, or when stderr is a terminal).
    fn printer(&mut self, run: &RunArgs, verbose: bool) -> TurnPrinter<'_> {
        let stream = self.streams(run);
        TurnPrinter::new(
            &mut self.out,
            self.stdout,
            Activity::Separate(&mut self.err, self.stderr),
            stream,
        )
        .with_tools(verbose || self.stderr.tty)
        .with_status(self.status.clone())
    }
}

/// A status line on stderr when stderr is a live terminal.
pub(crate) fn status_line(stderr: Terminal) -> Option<StatusLine> {
    stderr
        .live
        .then(|| StatusLine::new(Box::new(std::io::stderr()), stderr.color, stderr.width))
}

/// Starts the configured MCP servers now rather than inside the session, so the wait has a
/// status line (a first `npx -y` run downloads the server).
pub(crate) fn start_mcp(runtime: &Runtime, status: Option<&StatusLine>) {
    let names: Vec<&str> = runtime
        .config
        .file
        .mcp_servers
        .iter()
        .filter(|(_, server)| server.enabled)
        .map(|(name, _)| name.as_str())
        .collect();
    if names.is_empty() {
        return;
    }
    if let Some(status) = status {
        status.show(&format!("starting MCP servers ({})", names.join(", ")));
    }
    let _ = runtime.mcp();
    if let Some(status) = status {
        status.clear();
    }
}

pub(crate) fn session_error(e: SessionError) -> anyhow::Error {
    match e {
        SessionError::Model(m) => UsageError(m.to_string()).into(),
        SessionError::AgentTools { .. } | SessionError::Skill(_) => {
            UsageError(e.to_string()).into()
        }
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

fn report(
    outcome: &TurnOutcome,
    printer: &mut TurnPrinter<'_>,
    session: &Session,
    verbose: bool,
) -> ExitCode {
    printer.finish(Some(&outcome.text));
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

/// `weft agent`.
pub fn agent(workspace: &Workspace, args: &AgentArgs, verbose: bool) -> Result<ExitCode> {
    let message = match &args.message {
        Some(m) => m.clone(),
        None if !std::io::stdin().is_terminal() => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .context("cannot read the message from stdin")?;
            text
        }
        None => return crate::commands::repl::run(workspace, &args.run),
    };
    if message.trim().is_empty() {
        return Err(UsageError("the message is empty".to_owned()).into());
    }
    let runtime = Runtime::load(workspace)?;
    let mut screen = Screen::new();
    if !args.run.dry_run {
        start_mcp(&runtime, screen.status.as_ref());
    }
    let mut session = start(&runtime, &args.run, screen.streams(&args.run))?;
    if args.run.dry_run {
        return print_request(&mut session, &message);
    }
    let _groups = kill_groups_on_exit(runtime.process_groups(), Exits::OnInterrupt)?;
    let rt = tokio_runtime()?;
    let mut printer = screen.printer(&args.run, verbose);
    let outcome = rt
        .block_on(session.send(message, &mut printer))
        .map_err(session_error)?;
    let code = report(&outcome, &mut printer, &session, verbose);
    rt.block_on(finish_background(&mut session, &mut printer, verbose))
        .map(|c| c.unwrap_or(code))
}

/// `weft skills run`.
pub fn skill_run(workspace: &Workspace, args: &SkillRunArgs, verbose: bool) -> Result<ExitCode> {
    let runtime = Runtime::load(workspace)?;
    let mut screen = Screen::new();
    if !args.run.dry_run {
        start_mcp(&runtime, screen.status.as_ref());
    }
    let mut session = start(&runtime, &args.run, screen.streams(&args.run))?;
    if args.run.dry_run {
        let text = session
            .prepare_user_skill(&args.name, args.args.clone())
            .map_err(session_error)?;
        return print_request(&mut session, &text);
    }
    let _groups = kill_groups_on_exit(runtime.process_groups(), Exits::OnInterrupt)?;
    let rt = tokio_runtime()?;
    let mut printer = screen.printer(&args.run, verbose);
    let outcome = rt
        .block_on(session.run_skill(&args.name, args.args.clone(), &mut printer))
        .map_err(session_error)?;
    let code = report(&outcome, &mut printer, &session, verbose);
    rt.block_on(finish_background(&mut session, &mut printer, verbose))
        .map(|c| c.unwrap_or(code))
}

/// A one-shot run does not end while background subagents work: it waits for them (each is
/// bounded by its timeout), then gives the model one more turn with their results.
async fn finish_background(
    session: &mut Session,
    printer: &mut TurnPrinter<'_>,
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
    let outcome = session
        .send(
            "The background subagents have finished; their results are above. Continue.",
            printer,
        )
        .await
        .map_err(session_error)?;
    Ok(Some(report(&outcome, printer, session, verbose)))
}
