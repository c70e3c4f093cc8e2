//! The loop: read a line, dispatch it, run the turn it asks for. A turn races the model
//! against Ctrl-C; cancelling drops the turn's future, which [`Session`] tolerates (the next
//! turn repairs the conversation), and the REPL goes on. Provider errors are printed and the
//! REPL goes on too.

use std::sync::Arc;

use tokio::sync::Notify;
use weft_agents::{Session, SessionError, TurnOutcome, TurnStop};
use weft_term::{StatusLine, StyledWrite, Terminal};

use crate::command::{CommandContext, CompletionContext, Dispatch, ReplEnv, SkillName};
use crate::commands::config_keys;
use crate::printer::{Activity, TurnPrinter};
use crate::registry::CommandRegistry;

/// What reading a line gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadResult {
    /// A line (or several, for multi-line input).
    Line(String),
    /// Ctrl-C at the prompt: the line is dropped and the REPL goes on.
    Interrupted,
    /// Ctrl-D on an empty line, or the end of the input: the REPL ends.
    Eof,
}

/// Where lines come from: the line editor, or a script in tests.
pub trait LineReader {
    /// Reads one input with `prompt`; `names` feeds completion and hints.
    fn read_line(&mut self, prompt: &str, names: &CompletionContext)
    -> std::io::Result<ReadResult>;
}

/// What cancels a running turn.
#[derive(Debug, Clone, Default)]
pub enum Interrupt {
    /// SIGINT / Ctrl-C (the terminal's, while a turn runs).
    #[default]
    CtrlC,
    /// A notification (tests, embedders).
    Notify(Arc<Notify>),
}

impl Interrupt {
    async fn wait(&self) {
        match self {
            Interrupt::CtrlC => {
                if tokio::signal::ctrl_c().await.is_err() {
                    // No signal handling here: a turn cannot be cancelled, only finished.
                    std::future::pending::<()>().await;
                }
            }
            Interrupt::Notify(n) => n.notified().await,
        }
    }
}

/// An interactive session: the commands, the conversation and what they run with.
pub struct Repl {
    /// The slash commands.
    pub commands: CommandRegistry,
    /// The conversation.
    pub session: Session,
    /// Agents, models, configuration, locations.
    pub env: ReplEnv,
    interrupt: Interrupt,
    /// What the output can show (plain unless the caller says it is a terminal).
    terminal: Terminal,
    /// The status line while the model works (only on a live terminal).
    status: Option<StatusLine>,
    /// Measures the output's width again for each command (a terminal can be resized);
    /// without it, `terminal`'s width.
    width: Option<fn() -> Option<usize>>,
    /// A first input to handle before reading any (`weft "question"`).
    first: Option<String>,
}

impl std::fmt::Debug for Repl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Repl")
            .field("commands", &self.commands)
            .field("session", &self.session)
            .finish_non_exhaustive()
    }
}

impl Repl {
    /// A REPL with the built-in commands; Ctrl-C cancels turns.
    pub fn new(session: Session, env: ReplEnv) -> Self {
        Self {
            commands: CommandRegistry::builtin(),
            session,
            env,
            interrupt: Interrupt::CtrlC,
            terminal: Terminal::plain(),
            status: None,
            width: None,
            first: None,
        }
    }

    /// Handles `line` first, as if it were typed at the first prompt (`weft "question"`
    /// starts the session with that message).
    #[must_use]
    pub fn with_first_input(mut self, line: Option<String>) -> Self {
        self.first = line;
        self
    }

    /// Shows answers as `terminal` allows (Markdown when it has colour) and `status` while
    /// the model or a tool works.
    #[must_use]
    pub fn with_terminal(mut self, terminal: Terminal, status: Option<StatusLine>) -> Self {
        self.terminal = terminal;
        self.status = status;
        self
    }

    /// Fits listings to the width `measure` reports when a command runs (`None`: not a
    /// terminal, full text), instead of the width the terminal had at the start.
    #[must_use]
    pub fn with_width(mut self, measure: fn() -> Option<usize>) -> Self {
        self.width = Some(measure);
        self
    }

    /// Uses `interrupt` to cancel turns instead of Ctrl-C.
    #[must_use]
    pub fn with_interrupt(mut self, interrupt: Interrupt) -> Self {
        self.interrupt = interrupt;
        self
    }

    /// The prompt: the active agent and model, `default (openai/gpt-4o-mini)> `.
    pub fn prompt(&self) -> String {
        // The line editor writes the prompt itself, past the neutralising writer: the model
        // string may come from a project's configuration.
        let prompt = format!("{} ({})> ", self.session.agent().name, self.session.model());
        weft_term::neutralise(&prompt).into_owned()
    }

    /// The names completion offers right now.
    pub fn completion_context(&self) -> CompletionContext {
        let snapshot = self.session.skills().snapshot();
        let mut skills: Vec<SkillName> = snapshot
            .user_invocable()
            .map(|e| SkillName {
                name: e.skill.name.clone(),
                argument_hint: e.skill.argument_hint.clone(),
            })
            .collect();
        skills.sort_by(|a, b| a.name.cmp(&b.name));
        CompletionContext {
            skills,
            agents: self.env.agents.names().map(str::to_owned).collect(),
            config_keys: config_keys(&self.env.config),
            plugins: self.env.plugins.names.clone(),
        }
    }

    /// Runs until `/exit`, `/quit` or the end of the input.
    pub async fn run(
        &mut self,
        reader: &mut dyn LineReader,
        out: &mut dyn StyledWrite,
    ) -> std::io::Result<()> {
        install_interrupt_handler(&self.interrupt);
        writeln!(
            out,
            "weft: agent {} ({}), permission mode {}. /help for commands, Ctrl-C cancels an answer, Ctrl-D exits.",
            self.session.agent().name,
            self.session.model(),
            self.session.permission_mode()
        )?;
        if let Some(line) = self.first.take() {
            writeln!(out, "{}{line}", self.prompt())?;
            if !self.handle_line(&line, out).await? {
                return out.flush();
            }
        }
        loop {
            let names = self.completion_context();
            let line = match reader.read_line(&self.prompt(), &names)? {
                ReadResult::Line(line) => line,
                ReadResult::Interrupted => continue,
                ReadResult::Eof => break,
            };
            if !self.handle_line(&line, out).await? {
                break;
            }
        }
        self.end(out).await;
        out.flush()
    }

    /// Handles one input; `false` when the REPL should end.
    pub async fn handle_line(
        &mut self,
        line: &str,
        out: &mut dyn StyledWrite,
    ) -> std::io::Result<bool> {
        if line.trim().is_empty() {
            return Ok(true);
        }
        let dispatch = {
            let mut ctx = CommandContext {
                commands: &self.commands,
                session: &mut self.session,
                env: &mut self.env,
                out: &mut *out,
                width: self.width.map_or(self.terminal.width, |measure| measure()),
            };
            self.commands.dispatch(line, &mut ctx).await?
        };
        match dispatch {
            Dispatch::Handled => {}
            Dispatch::Exit => return Ok(false),
            Dispatch::NotACommand => {
                self.turn(Turn::Message(line.trim().to_owned()), out)
                    .await?;
            }
            Dispatch::SkillInvocation { name, args } => {
                writeln!(out, "[Skill: {name}]")?;
                self.turn(Turn::Skill(name, args), out).await?;
            }
            Dispatch::Fork { name, args } => {
                writeln!(out, "[Skill: {name}, forked into a subagent]")?;
                self.turn(Turn::Skill(name, args), out).await?;
            }
            Dispatch::Compact { instructions } => self.compact(instructions, out).await?,
        }
        Ok(true)
    }
}

impl Repl {
    /// The session ends (`/exit`, Ctrl-D): SessionEnd hooks, their notices printed.
    async fn end(&mut self, out: &mut dyn StyledWrite) {
        let mut printer = TurnPrinter::new(&mut *out, self.terminal, Activity::WithAnswer, false);
        self.session
            .end(weft_agents::EndReason::PromptInputExit, &mut printer)
            .await;
    }

    /// Runs one turn, racing it against the interrupt, and prints the outcome.
    async fn turn(&mut self, turn: Turn, out: &mut dyn StyledWrite) -> std::io::Result<()> {
        let interrupt = self.interrupt.clone();
        let next_result = crate::commands::expand::tool_result_count(self.session.messages()) + 1;
        let context = self.session.context_use();
        let session = &mut self.session;
        let mut printer = TurnPrinter::new(&mut *out, self.terminal, Activity::WithAnswer, true)
            .with_status(self.status.clone())
            .with_expand_from(next_result)
            .with_context(context);
        let result = {
            let printer = &mut printer;
            let running = async move {
                match turn {
                    Turn::Message(text) => session.send(text, printer).await,
                    Turn::Skill(name, args) => session.run_skill(&name, args, printer).await,
                }
            };
            tokio::select! {
                r = running => Some(r),
                () = interrupt.wait() => None,
            }
        };
        report(result, &mut printer);
        out.flush()
    }
}

impl Repl {
    /// `/compact`: the summary request raced against the interrupt, like a turn; cancelled,
    /// the conversation stays as it was.
    async fn compact(
        &mut self,
        instructions: Option<String>,
        out: &mut dyn StyledWrite,
    ) -> std::io::Result<()> {
        let interrupt = self.interrupt.clone();
        let context = self.session.context_use();
        let session = &mut self.session;
        let mut printer = TurnPrinter::new(&mut *out, self.terminal, Activity::WithAnswer, true)
            .with_status(self.status.clone())
            .with_context(context);
        let result = {
            let printer = &mut printer;
            let running = async move { session.compact(instructions.as_deref(), printer).await };
            tokio::select! {
                r = running => Some(r),
                () = interrupt.wait() => None,
            }
        };
        match result {
            None => printer.note("[cancelled: the conversation is as it was]"),
            Some(Err(e)) => printer.note(&format!("error: {e}")),
            Some(Ok(None)) => printer.note(
                "Nothing to compact yet: the conversation has no earlier answer to summarise.",
            ),
            Some(Ok(Some(_))) => printer.finish(None),
        }
        out.flush()
    }
}

/// What a turn sends.
enum Turn {
    /// A message typed by the user.
    Message(String),
    /// A skill run by the user.
    Skill(String, Vec<String>),
}

/// Makes sure a Ctrl-C outside a turn (while a command runs) does not kill the process: once
/// tokio's handler is installed, SIGINT only wakes listeners.
fn install_interrupt_handler(interrupt: &Interrupt) {
    #[cfg(unix)]
    if matches!(interrupt, Interrupt::CtrlC) {
        use tokio::signal::unix::{SignalKind, signal};
        if let Err(e) = signal(SignalKind::interrupt()) {
            tracing::warn!(error = %e, "cannot handle Ctrl-C; it will end weft");
        }
    }
    #[cfg(not(unix))]
    let _ = interrupt;
}

/// The end of a turn: the answer (unless it was streamed), or why there is none.
fn report(result: Option<Result<TurnOutcome, SessionError>>, printer: &mut TurnPrinter<'_>) {
    match result {
        None => printer.note("[cancelled]"),
        Some(Err(e)) => printer.note(&format!("error: {e}")),
        Some(Ok(outcome)) => {
            printer.finish(Some(&outcome.text));
            match outcome.stop {
                TurnStop::Answered => {}
                TurnStop::MaxTokens => {
                    printer.note("warning: the answer was cut off at the output token limit");
                }
                TurnStop::IterationLimit { limit } => printer.note(&format!(
                    "warning: stopped after {limit} tool-call rounds (max_tool_iterations); the task is unfinished"
                )),
                TurnStop::PromptBlocked => printer.note(&format!(
                    "[message blocked by a UserPromptSubmit hook: {}]",
                    outcome.hook_reason.as_deref().unwrap_or("no reason given")
                )),
                TurnStop::HookStopped => printer.note(&format!(
                    "[stopped by a hook: {}]",
                    outcome.hook_reason.as_deref().unwrap_or("no reason given")
                )),
            }
        }
    }
}
