//! `weft agent -m MSG` and `weft skills run NAME ARGS`: one turn of the agent loop, printed;
//! calls that need approval are asked about on the terminal, or refused without one.

use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};
use weft_agents::{DynamicCommand, EndReason, Session, SessionError, SkillInvocationError};
use weft_llm::ChatRequest;
use weft_runtime::{Resume, Runtime, RuntimeError, SessionSettings, UsageError};
use weft_types::PermissionMode;

use weft_term::{StatusLine, Terminal};

use crate::cli::{AgentArgs, RunArgs, RunFormat, SkillRunArgs};
use crate::commands::turn_output::TurnOutput;
use crate::environment::{stderr_terminal, stdout_terminal};
use crate::output::{Styled, errln, outln};
use weft_runtime::Workspace;

use crate::signals::{Exits, kill_groups_on_exit};

/// Where a one-shot run shows its turn: the answer on stdout, tool activity, retries and the
/// status line on stderr, each as its stream allows.
pub(crate) struct Screen {
    /// Standard output: the answer.
    pub(crate) out: Styled<std::io::Stdout>,
    /// Standard error: tool activity, retries, notices.
    pub(crate) err: Styled<std::io::Stderr>,
    /// What stdout can show.
    pub(crate) stdout: Terminal,
    /// What stderr can show.
    pub(crate) stderr: Terminal,
    /// The status line, on a live stderr only.
    pub(crate) status: Option<StatusLine>,
}

impl Screen {
    /// The screen of a run in `format`: JSON formats never get a status line.
    fn new(format: RunFormat) -> Self {
        let stderr = stderr_terminal();
        Self {
            out: crate::output::styled_stdout(),
            err: crate::output::styled_stderr(),
            stdout: stdout_terminal(),
            status: (format == RunFormat::Text)
                .then(|| status_line(stderr))
                .flatten(),
            stderr,
        }
    }
}

/// A status line on stderr when stderr is a live terminal.
pub(crate) fn status_line(stderr: Terminal) -> Option<StatusLine> {
    stderr.live.then(|| {
        StatusLine::new(
            Box::new(crate::output::styled_stderr()),
            stderr.color,
            stderr.width,
        )
    })
}

/// Starts the configured MCP servers now rather than inside the session, so the wait has a
/// status line (a first `npx -y` run downloads the server).
pub(crate) fn start_mcp(runtime: &Runtime, status: Option<&StatusLine>) {
    let names = runtime.mcp_plan().names();
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

/// A session's error, classified for the exit status: a mistake in what was asked (an
/// unknown skill or model) is a usage error (2); a skill whose file does not load is a
/// failure (1), as `skills show` reports it.
pub(crate) fn session_error(e: SessionError) -> anyhow::Error {
    match e {
        SessionError::Skill(SkillInvocationError::DoesNotLoad { .. }) => e.into(),
        SessionError::Model(m) => UsageError::from_error(m).into(),
        SessionError::AgentTools { .. }
        | SessionError::AgentPermissionMode { .. }
        | SessionError::Skill(_) => UsageError::from_error(e).into(),
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

/// The settings of a run's session (without the transcript for a dry run).
fn settings(run: &RunArgs, stream: bool) -> SessionSettings {
    SessionSettings {
        agent: run.agent.clone(),
        model: run.model.clone(),
        transcripts: !run.dry_run && !run.no_transcript,
        stream,
        resume: match (&run.resume, run.continue_latest) {
            (Some(Some(id)), _) => Some(Resume::Id(id.clone())),
            // `-r` without an id was resolved to one by the picker (see `start`).
            (Some(None), _) | (None, true) => Some(Resume::Latest),
            (None, false) => None,
        },
    }
}

/// Builds the session for a run (a new one, or the one `--continue` / `--resume` names). A
/// dry run without a provider or a model uses a placeholder model that is never called
/// ([`Runtime::dry_run_session`]).
pub(crate) fn start(runtime: &Runtime, run: &RunArgs, stream: bool) -> Result<Session> {
    let mut settings = settings(run, stream);
    if run.resume == Some(None) {
        let id = crate::commands::picker::pick_session(runtime)?;
        settings.resume = Some(Resume::Id(id));
    }
    if !run.dry_run {
        return runtime.session(&settings).map_err(runtime_error);
    }
    runtime.dry_run_session(&settings).map_err(runtime_error)
}

/// What `--dry-run` prints. Serialized directly (not through `serde_json::Value`) so numbers
/// such as the temperature print exactly as they are sent.
#[derive(serde::Serialize)]
struct DryRun<'a> {
    provider: &'a str,
    agent: &'a str,
    active_skills: &'a [String],
    /// Placeholders of the skill's body that nothing filled.
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    unfilled_placeholders: &'a [String],
    /// The skill's dynamic-context commands, none run, each with its verdict.
    #[serde(skip_serializing_if = "<[DynamicCommand]>::is_empty")]
    dynamic_context: &'a [DynamicCommand],
    request: &'a ChatRequest,
}

fn print_request(session: &mut Session, text: &str) -> Result<ExitCode> {
    for notice in session.take_notices() {
        crate::output::errln!("weft: {notice}");
    }
    let request = session.preview(text);
    let doc = DryRun {
        provider: &session.turn_model().provider,
        agent: &session.agent().name,
        active_skills: session.active_skills(),
        unfilled_placeholders: session.unfilled_placeholders(),
        dynamic_context: session.dynamic_context(),
        request: &request,
    };
    outln!("{}", crate::output::json_pretty(&doc)?);
    Ok(ExitCode::SUCCESS)
}

/// What `--dry-run` prints for a `context: fork` skill: the subagent that would start and
/// its first request (system prompt, tools, model).
#[derive(serde::Serialize)]
struct ForkDryRun<'a> {
    skill: &'a str,
    subagent: PlannedChild<'a>,
    provider: &'a str,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    unfilled_placeholders: &'a [String],
    #[serde(skip_serializing_if = "<[DynamicCommand]>::is_empty")]
    dynamic_context: &'a [DynamicCommand],
    request: &'a ChatRequest,
}

/// The subagent a dry run would start: what its receipt would say, with the status
/// `dry_run` (it never started, so it has no time or tokens).
#[derive(serde::Serialize)]
struct PlannedChild<'a> {
    id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    label: Option<&'a str>,
    agent: &'a str,
    model: &'a str,
    tools: &'a [String],
    skills: &'a [String],
    background: bool,
    status: &'static str,
}

impl<'a> PlannedChild<'a> {
    fn of(child: &'a weft_agents::ChildSummary) -> Self {
        Self {
            id: &child.id,
            label: child.label.as_deref(),
            agent: &child.agent,
            model: &child.model,
            tools: &child.tools,
            skills: &child.skills,
            background: child.background,
            status: "dry_run",
        }
    }
}

fn print_fork_request(session: &mut Session, name: &str, args: Vec<String>) -> Result<ExitCode> {
    let rt = tokio_runtime()?;
    let (mut plan, _record) = rt
        .block_on(session.prepare_fork_skill(name, args, weft_agents::Invoker::User))
        .map_err(session_error)?;
    if let Some(notice) = plan.notice() {
        crate::output::errln!("weft: {notice}");
    }
    let request = plan.preview();
    let doc = ForkDryRun {
        skill: name,
        subagent: PlannedChild::of(plan.summary()),
        provider: &plan.session().turn_model().provider,
        unfilled_placeholders: session.unfilled_placeholders(),
        dynamic_context: session.dynamic_context(),
        request: &request,
    };
    outln!("{}", serde_json::to_string_pretty(&doc)?);
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn tokio_runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}

/// Whether the answer streams: text only to a terminal, a single JSON object never,
/// stream-json always (as `text` events); `--no-stream` switches it off.
fn streams(run: &RunArgs) -> bool {
    !run.no_stream
        && match run.format {
            RunFormat::Text => crate::output::stdout_is_terminal(),
            RunFormat::Json => false,
            RunFormat::StreamJson => true,
        }
}

/// The output of a one-shot run on `screen`; tool activity goes to stderr for a person
/// (text on a terminal, or `-v`).
fn turn_output<'s>(run: &RunArgs, verbose: bool, screen: &'s mut Screen) -> TurnOutput<'s> {
    let show_tools = verbose || (run.format == RunFormat::Text && screen.stderr.tty);
    TurnOutput::new(run.format, streams(run), show_tools, screen)
}

/// What a one-shot run sends: a message, or a skill with its arguments.
enum Send {
    Message(String),
    Skill { name: String, args: Vec<String> },
}

/// The runtime of a run in permission mode `mode` (the command line's), with the bypass
/// banner printed when that is the mode in effect.
pub(crate) fn load_runtime(workspace: &Workspace, mode: Option<PermissionMode>) -> Result<Runtime> {
    let runtime = Runtime::builder(workspace).permission_mode(mode).build()?;
    crate::permissions::announce(runtime.permission_mode());
    Ok(runtime)
}

/// A one-shot run asks on the terminal when one is attached (standard input and error), on
/// stderr with the status line paused while it waits; otherwise calls that need approval are
/// refused.
fn ask_on_terminal(session: &mut Session, status: Option<StatusLine>) {
    if crate::output::stdin_is_terminal() && crate::output::stderr_is_terminal() {
        let approver =
            weft_repl::PromptApprover::terminal(Box::new(crate::output::styled_stderr()))
                .with_status(status);
        session.set_approver(Some(Arc::new(approver)));
    }
}

/// Prints the summary of the calls refused for want of approval on stderr, if there were any,
/// and the exit status they give the run unless `ignored`.
fn print_refusals(session: &Session, ignored: bool) {
    if let Some(line) = crate::permissions::refusal_summary(session) {
        if ignored {
            errln!("{line}");
        } else {
            errln!(
                "{line}; exit status {} (--ignore-refusals exits 0)",
                crate::permissions::REFUSED_EXIT
            );
        }
    }
}

/// `weft agent`.
pub fn agent(
    workspace: &Workspace,
    args: &AgentArgs,
    mode: Option<PermissionMode>,
    verbose: bool,
) -> Result<ExitCode> {
    if args.run.resume == Some(None) {
        crate::commands::picker::can_pick()?;
    }
    let message = match &args.message {
        Some(m) => m.clone(),
        None if !crate::output::stdin_is_terminal() => crate::commands::front::read_stdin()?,
        None => return crate::commands::repl::run(workspace, &args.run, mode, None),
    };
    if message.trim().is_empty() {
        return Err(UsageError::new("the message is empty").into());
    }
    one_shot(workspace, &args.run, Send::Message(message), mode, verbose)
}

/// `weft skills run`.
pub fn skill_run(
    workspace: &Workspace,
    args: &SkillRunArgs,
    mode: Option<PermissionMode>,
    verbose: bool,
) -> Result<ExitCode> {
    let send = Send::Skill {
        name: args.name.clone(),
        args: args.args.clone(),
    };
    one_shot(workspace, &args.run, send, mode, verbose)
}

/// One message or skill run in permission mode `mode` (the command line's), printed in the
/// run's format; then the background subagents' follow-up turn, if any; then the summary of
/// the calls refused for want of approval, on stderr in every format.
fn one_shot(
    workspace: &Workspace,
    run: &RunArgs,
    send: Send,
    mode: Option<PermissionMode>,
    verbose: bool,
) -> Result<ExitCode> {
    let runtime = load_runtime(workspace, mode)?;
    let mut screen = Screen::new(run.format);
    if !run.dry_run {
        start_mcp(&runtime, screen.status.as_ref());
    }
    let mut session = start(&runtime, run, streams(run))?;
    let send = slash_to_skill(send, &session)?;
    if run.dry_run {
        // Nothing runs: a skill's dynamic context is judged, not run.
        session.set_dry_run(true);
        let text = match send {
            Send::Message(text) => text,
            Send::Skill { name, args } if session.is_fork_skill(&name) => {
                return print_fork_request(&mut session, &name, args);
            }
            Send::Skill { name, args } => tokio_runtime()?
                .block_on(session.prepare_user_skill(&name, args))
                .map_err(session_error)?,
        };
        return print_request(&mut session, &text);
    }
    ask_on_terminal(&mut session, screen.status.clone());
    let _groups = kill_groups_on_exit(runtime.process_groups(), Exits::OnInterrupt)?;
    let rt = tokio_runtime()?;
    let mut output = turn_output(run, verbose, &mut screen);
    output.started(&mut session, run.resumes());
    let turn = rt.block_on(async {
        let outcome = match send {
            Send::Message(text) => session.send(text, &mut output).await,
            Send::Skill { name, args } => session.run_skill(&name, args, &mut output).await,
        }?;
        let code = output.turn_done(&outcome, &session, verbose);
        let code = finish_background(&mut session, &mut output, verbose)
            .await?
            .unwrap_or(code);
        session.end(EndReason::Other, &mut output).await;
        Ok::<_, SessionError>(code)
    });
    // Calls refused for want of approval make a run that otherwise succeeded exit 4.
    let strict = !run.ignore_refusals;
    let result = match turn {
        Ok(code) => {
            output.finish(&mut session, None, strict);
            let refused = strict && !session.refused_calls().is_empty();
            Ok(if refused && code == ExitCode::SUCCESS {
                ExitCode::from(crate::permissions::REFUSED_EXIT)
            } else {
                code
            })
        }
        Err(e) => {
            output.finish(&mut session, Some(&e.to_string()), strict);
            Err(session_error(e))
        }
    };
    print_refusals(&session, run.ignore_refusals);
    result
}

/// A one-shot message that is a slash command (`/code-review HEAD~1`, `/skill name args`)
/// runs the skill it names, as in the interactive session; it never goes to the model as
/// text. The session's own commands (`/help`, `/model` ...) need the interactive session: a
/// usage error says so, and an unknown name gets the closest skills. A first word with a
/// second `/` (`/etc/hosts is empty`) is an ordinary message.
fn slash_to_skill(send: Send, session: &Session) -> Result<Send> {
    let Send::Message(text) = &send else {
        return Ok(send);
    };
    let Some(line) = weft_repl::parse_line(text) else {
        return Ok(send);
    };
    let (name, args) = match line.name {
        "skill" => match line.args.split_once(char::is_whitespace) {
            Some((name, args)) => (name, args.trim()),
            None => (line.args, ""),
        },
        name => (name, line.args),
    };
    let snapshot = session.skills().snapshot();
    let runs = snapshot.get(name).is_some_and(|e| e.skill.user_invocable)
        || !snapshot.broken_named(name).is_empty();
    if runs && !name.is_empty() {
        let args = weft_template::split_args(args).map_err(|e| {
            UsageError::caused(format!("skill `{name}`: cannot split the arguments"), e)
        })?;
        return Ok(Send::Skill {
            name: name.to_owned(),
            args,
        });
    }
    let registry = weft_repl::CommandRegistry::builtin();
    if line.name != "skill" && registry.get(line.name).is_some() {
        return Err(UsageError::new(format!(
            "`/{}` is a command of the interactive session (run `weft` on a terminal); in a one-shot message, a `/name` runs the skill `name`",
            line.name
        ))
        .into());
    }
    let known = snapshot.user_invocable().map(|e| e.name());
    Err(UsageError::new(weft_repl::unknown_command(name, known)).into())
}

/// A one-shot run does not end while background subagents work: it waits for them (each is
/// bounded by its timeout), then gives the model one more turn with their results.
async fn finish_background(
    session: &mut Session,
    output: &mut TurnOutput<'_>,
    verbose: bool,
) -> Result<Option<ExitCode>, SessionError> {
    let running = session.running_children();
    if running == 0 && session.undelivered_children() == 0 {
        return Ok(None);
    }
    if running > 0 {
        crate::output::errln!("waiting for {running} background subagent(s)...");
        session.wait_for_children().await;
    }
    let outcome = session
        .send(
            "The background subagents have finished; their results are above. Continue.",
            output,
        )
        .await?;
    Ok(Some(output.turn_done(&outcome, session, verbose)))
}
