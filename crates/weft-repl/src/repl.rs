//! The loop: read a line, dispatch it, run the turn it asks for. A turn races the model
//! against Ctrl-C; cancelling drops the turn's future, which [`Session`] tolerates (the next
//! turn repairs the conversation), and the REPL goes on. Provider errors are printed and the
//! REPL goes on too.

use std::io::Write;
use std::sync::Arc;

use tokio::sync::Notify;
use weft_agents::{Session, SessionError, SessionEvents, TurnOutcome, TurnStop};
use weft_llm::{Message, ToolCall};

use crate::command::{CommandContext, CompletionContext, Dispatch, ReplEnv, SkillName};
use crate::commands::config_keys;
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

/// Streams a turn into the output: text as it arrives, tool calls on their own lines.
struct Printer<'a> {
    out: &'a mut (dyn Write + Send),
    streamed: bool,
}

impl SessionEvents for Printer<'_> {
    fn text(&mut self, delta: &str) {
        let _ = self.out.write_all(delta.as_bytes());
        let _ = self.out.flush();
        self.streamed |= !delta.is_empty();
    }

    fn tool_call(&mut self, call: &ToolCall) {
        if self.streamed {
            let _ = writeln!(self.out);
            self.streamed = false;
        }
        let mut args = call.arguments.to_string();
        if args.chars().count() > 100 {
            args = args.chars().take(99).collect::<String>() + "…";
        }
        let _ = writeln!(self.out, "  → {} {args}", call.name);
    }

    fn tool_result(&mut self, _call: &ToolCall, result: &Message) {
        if result.is_error {
            let first = result.content.lines().next().unwrap_or("");
            let _ = writeln!(self.out, "  ✗ {first}");
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
        }
    }

    /// Uses `interrupt` to cancel turns instead of Ctrl-C.
    #[must_use]
    pub fn with_interrupt(mut self, interrupt: Interrupt) -> Self {
        self.interrupt = interrupt;
        self
    }

    /// The prompt: the active agent and model, `default (openai/gpt-4o-mini)> `.
    pub fn prompt(&self) -> String {
        format!("{} ({})> ", self.session.agent().name, self.session.model())
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
        }
    }

    /// Runs until `/exit`, `/quit` or the end of the input.
    pub async fn run(
        &mut self,
        reader: &mut dyn LineReader,
        out: &mut (dyn Write + Send),
    ) -> std::io::Result<()> {
        install_interrupt_handler(&self.interrupt);
        writeln!(
            out,
            "weft: agent {} ({}), permission mode {}. /help for commands, Ctrl-C cancels an answer, Ctrl-D exits.",
            self.session.agent().name,
            self.session.model(),
            self.session.permission_mode()
        )?;
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
        out.flush()
    }

    /// Handles one input; `false` when the REPL should end.
    pub async fn handle_line(
        &mut self,
        line: &str,
        out: &mut (dyn Write + Send),
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
        }
        Ok(true)
    }
}

impl Repl {
    /// Runs one turn, racing it against the interrupt, and prints the outcome.
    async fn turn(&mut self, turn: Turn, out: &mut (dyn Write + Send)) -> std::io::Result<()> {
        let interrupt = self.interrupt.clone();
        let session = &mut self.session;
        let mut printer = Printer {
            out: &mut *out,
            streamed: false,
        };
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
        let streamed = printer.streamed;
        report(result, streamed, out)
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

fn report(
    result: Option<Result<TurnOutcome, SessionError>>,
    streamed: bool,
    out: &mut (dyn Write + Send),
) -> std::io::Result<()> {
    match result {
        None => {
            if streamed {
                writeln!(out)?;
            }
            writeln!(out, "[cancelled]")?;
        }
        Some(Err(e)) => {
            if streamed {
                writeln!(out)?;
            }
            writeln!(out, "error: {e}")?;
        }
        Some(Ok(outcome)) => {
            if streamed {
                writeln!(out)?;
            } else if !outcome.text.is_empty() {
                writeln!(out, "{}", outcome.text.trim_end())?;
            }
            match outcome.stop {
                TurnStop::Answered => {}
                TurnStop::MaxTokens => {
                    writeln!(
                        out,
                        "warning: the answer was cut off at the output token limit"
                    )?;
                }
                TurnStop::IterationLimit { limit } => writeln!(
                    out,
                    "warning: stopped after {limit} tool-call rounds (max_tool_iterations); the task is unfinished"
                )?,
            }
        }
    }
    out.flush()
}
