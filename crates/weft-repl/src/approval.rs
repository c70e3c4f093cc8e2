//! The approval prompt: when a call needs a person's yes, the REPL asks on the terminal —
//! allow once, allow for the rest of the session, or deny (optionally saying what to do
//! instead); for a command that would run in the sandbox, also allow once outside the
//! sandbox, a separate answer (`o`) that is never the default.
//!
//! The question is written through the writer the caller gives (the CLI's neutralising
//! output), with the model's and the files' text neutralised here too, and the status line
//! paused while it waits, so no spinner overwrites it. The answer is read from the
//! terminal's input without the line editor, and only while the question is pending: the turn's task waits for the terminal to become readable (through the
//! runtime's poller) and then reads what is there, at once. Ctrl-C cancels the turn, and with it
//! the wait, so no reader is ever left behind to swallow a line typed at the REPL's prompt.

use std::io::{self, Write as _};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use tokio::io::Interest;
use tokio::io::unix::AsyncFd;
use weft_agents::{ApprovalAnswer, ApprovalRequest, Approver};
use weft_term::{StatusLine, StyledWrite, cut, neutralise, one_line};

/// The longest answer read; the rest of a longer line is ignored.
const MAX_ANSWER: usize = 4096;

/// Where answers come from.
#[async_trait]
pub trait AnswerSource: Send + Sync {
    /// One line (without its newline); `None` at the end of the input. Cancel-safe: dropping
    /// the future stops reading without consuming anything more.
    async fn read_line(&self) -> io::Result<Option<String>>;
}

/// The terminal's input (standard input), read line by line without the line editor.
#[derive(Debug, Default, Clone, Copy)]
pub struct TerminalInput;

#[async_trait]
impl AnswerSource for TerminalInput {
    async fn read_line(&self) -> io::Result<Option<String>> {
        // A descriptor of our own for the poller; it is dropped (and unregistered) with the
        // future, so nothing waits on the terminal once the question is gone.
        let fd: OwnedFd = rustix::io::dup(rustix::stdio::stdin())?;
        // Deprecated because an `AsRawFd` that closes its descriptor while registered is
        // unsound; an `OwnedFd` moved in cannot. The replacement is `unsafe`, which the
        // workspace forbids.
        #[allow(deprecated)]
        let input = AsyncFd::with_interest(fd, Interest::READABLE)?;
        let mut line: Vec<u8> = Vec::new();
        loop {
            let mut ready = input.readable().await?;
            if !readable_now(ready.get_inner().as_fd())? {
                ready.clear_ready();
                continue;
            }
            // Readable: a terminal in canonical mode has a whole line (or the end of input)
            // waiting, so this read does not block.
            let mut buf = [0u8; 512];
            let n = rustix::io::read(ready.get_inner(), &mut buf).map_err(io::Error::from)?;
            if n == 0 {
                return Ok((!line.is_empty()).then(|| text(&line)));
            }
            let chunk = &buf[..n];
            match chunk.iter().position(|&b| b == b'\n') {
                Some(end) => {
                    extend_capped(&mut line, &chunk[..end]);
                    return Ok(Some(text(&line)));
                }
                None => extend_capped(&mut line, chunk),
            }
        }
    }
}

/// True when `fd` has input right now (the poller's readiness may be stale).
fn readable_now(fd: BorrowedFd<'_>) -> io::Result<bool> {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let mut fds = [PollFd::new(&fd, PollFlags::IN)];
    let zero = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    match poll(&mut fds, Some(&zero)) {
        Ok(n) => Ok(n > 0),
        Err(rustix::io::Errno::INTR) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

fn extend_capped(line: &mut Vec<u8>, bytes: &[u8]) {
    let room = MAX_ANSWER.saturating_sub(line.len());
    line.extend_from_slice(&bytes[..bytes.len().min(room)]);
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).trim().to_owned()
}

/// Asks on a writer, answers from an [`AnswerSource`].
pub struct PromptApprover {
    input: Arc<dyn AnswerSource>,
    output: Mutex<Box<dyn StyledWrite>>,
    /// Paused while a question waits.
    status: Option<StatusLine>,
}

impl std::fmt::Debug for PromptApprover {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PromptApprover").finish_non_exhaustive()
    }
}

impl PromptApprover {
    /// Questions go to `output`, answers come from `input`.
    pub fn new(input: Arc<dyn AnswerSource>, output: Box<dyn StyledWrite>) -> Self {
        Self {
            input,
            output: Mutex::new(output),
            status: None,
        }
    }

    /// The terminal: standard input, and `output` (the CLI passes its neutralising standard
    /// output in the interactive session, standard error in a one-shot run).
    pub fn terminal(output: Box<dyn StyledWrite>) -> Self {
        Self::new(Arc::new(TerminalInput), output)
    }

    /// Pauses `status` (the session's status line) while a question waits for its answer.
    #[must_use]
    pub fn with_status(mut self, status: Option<StatusLine>) -> Self {
        self.status = status;
        self
    }

    fn say(&self, text: &str) {
        let mut out = self
            .output
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
    }
}

/// The question: every piece of text from the model or a file on one line (cut) and
/// neutralised, so a command cannot hide what it does behind terminal controls.
pub fn question(request: &ApprovalRequest) -> String {
    let clean = |t: &str, max: usize| neutralise(&cut(t, max)).into_owned();
    let mut text = format!("  ? {}", clean(&request.summary, 300));
    if request.session_id.contains('.') {
        text.push_str(&format!(
            "  (subagent {}, agent {})",
            neutralise(&one_line(&request.session_id)),
            neutralise(&one_line(&request.agent))
        ));
    }
    let once = if request.sandboxed {
        "[y] allow once (in the sandbox)   [o] allow once outside the sandbox"
    } else {
        "[y] allow once"
    };
    text.push_str(&format!(
        "\n    needs approval: {}\n    {once}   [a] allow {}   [n] deny (`n <what to do instead>`)\n",
        clean(&request.reason, 300),
        clean(&request.always, 200),
    ));
    text
}

/// What a line answers; `None` when it is not an answer.
pub fn parse_answer(line: &str) -> Option<ApprovalAnswer> {
    let line = line.trim();
    let (word, rest) = line
        .split_once(char::is_whitespace)
        .map_or((line, ""), |(w, r)| (w, r.trim()));
    match word.to_ascii_lowercase().as_str() {
        "y" | "yes" | "once" if rest.is_empty() => Some(ApprovalAnswer::AllowOnce),
        "a" | "always" if rest.is_empty() => Some(ApprovalAnswer::AllowAlways),
        "o" | "outside" if rest.is_empty() => Some(ApprovalAnswer::AllowOutsideSandbox),
        "n" | "no" | "deny" => Some(ApprovalAnswer::Deny {
            message: (!rest.is_empty()).then(|| rest.to_owned()),
        }),
        _ => None,
    }
}

#[async_trait]
impl Approver for PromptApprover {
    async fn ask(&self, request: &ApprovalRequest) -> ApprovalAnswer {
        // Held until the answer: a spinner redrawn now would erase the question.
        let _paused = self.status.as_ref().map(StatusLine::pause);
        self.say(&question(request));
        let (choices, help) = if request.sandboxed {
            (
                "  allow? [y/o/a/n] ",
                "  please answer y (once, in the sandbox), o (once, outside the sandbox), a (always) or n (deny)\n",
            )
        } else {
            (
                "  allow? [y/a/n] ",
                "  please answer y (once), a (always) or n (deny)\n",
            )
        };
        loop {
            self.say(choices);
            match self.input.read_line().await {
                Ok(Some(line)) => match parse_answer(&line) {
                    // Outside the sandbox is offered only for a sandboxed command.
                    Some(ApprovalAnswer::AllowOutsideSandbox) if !request.sandboxed => {
                        self.say(help);
                    }
                    Some(answer) => return answer,
                    None => self.say(help),
                },
                Ok(None) => {
                    self.say("\n");
                    return ApprovalAnswer::Deny { message: None };
                }
                Err(e) => {
                    tracing::warn!(error = %e, "cannot read the answer; the call is denied");
                    return ApprovalAnswer::Deny { message: None };
                }
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn answers() {
        assert_eq!(parse_answer("y"), Some(ApprovalAnswer::AllowOnce));
        assert_eq!(parse_answer(" YES "), Some(ApprovalAnswer::AllowOnce));
        assert_eq!(parse_answer("a"), Some(ApprovalAnswer::AllowAlways));
        assert_eq!(parse_answer("o"), Some(ApprovalAnswer::AllowOutsideSandbox));
        assert_eq!(
            parse_answer("Outside"),
            Some(ApprovalAnswer::AllowOutsideSandbox)
        );
        assert_eq!(
            parse_answer("n"),
            Some(ApprovalAnswer::Deny { message: None })
        );
        assert_eq!(
            parse_answer("n   use cargo check instead "),
            Some(ApprovalAnswer::Deny {
                message: Some("use cargo check instead".into())
            })
        );
        assert_eq!(parse_answer(""), None);
        assert_eq!(parse_answer("maybe"), None);
        assert_eq!(parse_answer("y please"), None);
    }

    /// Answers `y`, noting whether the status line was paused while it was asked.
    struct Watching(StatusLine, Mutex<Vec<bool>>);

    #[async_trait]
    impl AnswerSource for Watching {
        async fn read_line(&self) -> io::Result<Option<String>> {
            self.1.lock().unwrap().push(self.0.is_paused());
            Ok(Some("y".to_owned()))
        }
    }

    #[tokio::test]
    async fn the_status_line_is_paused_while_the_question_waits() {
        let status = StatusLine::new(Box::new(Vec::new()), false, Some(80));
        status.show("running exec_shell");
        let watching = Arc::new(Watching(status.clone(), Mutex::new(Vec::new())));
        let input: Arc<dyn AnswerSource> = watching.clone();
        let approver =
            PromptApprover::new(input, Box::new(Vec::new())).with_status(Some(status.clone()));
        let answer = approver.ask(&request("exec_shell: ls")).await;
        assert_eq!(answer, ApprovalAnswer::AllowOnce);
        assert_eq!(*watching.1.lock().unwrap(), [true]);
        // Back, with its label, once answered.
        assert!(!status.is_paused() && status.is_active());
    }

    fn request(summary: &str) -> ApprovalRequest {
        ApprovalRequest {
            session_id: "s1".into(),
            agent: "default".into(),
            tool: "exec_shell".into(),
            input: serde_json::json!({}),
            summary: summary.into(),
            reason: "`exec_shell` may change something".into(),
            always: "`ls:*` for this session".into(),
            sandboxed: false,
        }
    }

    #[test]
    fn the_question_is_neutralised() {
        let request = ApprovalRequest {
            session_id: "s1.1".into(),
            agent: "general-purpose".into(),
            tool: "exec_shell".into(),
            input: serde_json::json!({}),
            summary: "exec_shell: echo \u{1b}]0;pwned\u{7}".into(),
            reason: "`exec_shell` may change something".into(),
            always: "`echo:*` for this session".into(),
            sandboxed: false,
        };
        let text = question(&request);
        assert!(
            !text.contains('\u{1b}') && !text.contains('\u{7}'),
            "{text:?}"
        );
        assert_eq!(
            text,
            "  ? exec_shell: echo \\x1b]0;pwned\\x07  (subagent s1.1, agent general-purpose)\n    needs approval: `exec_shell` may change something\n    [y] allow once   [a] allow `echo:*` for this session   [n] deny (`n <what to do instead>`)\n"
        );
        let sandboxed = ApprovalRequest {
            sandboxed: true,
            ..request
        };
        assert!(
            question(&sandboxed).ends_with("    [y] allow once (in the sandbox)   [o] allow once outside the sandbox   [a] allow `echo:*` for this session   [n] deny (`n <what to do instead>`)\n"),
            "{}",
            question(&sandboxed)
        );
    }

    /// Answers `o`, then `y`.
    struct Lines(Mutex<Vec<&'static str>>);

    #[async_trait]
    impl AnswerSource for Lines {
        async fn read_line(&self) -> io::Result<Option<String>> {
            Ok(self.0.lock().unwrap().pop().map(str::to_owned))
        }
    }

    #[tokio::test]
    async fn outside_the_sandbox_is_an_answer_only_for_a_sandboxed_command() {
        let ask = |sandboxed: bool| async move {
            let input: Arc<dyn AnswerSource> = Arc::new(Lines(Mutex::new(vec!["y", "o"])));
            let approver = PromptApprover::new(input, Box::new(Vec::new()));
            approver
                .ask(&ApprovalRequest {
                    sandboxed,
                    ..request("exec_shell: make install")
                })
                .await
        };
        assert_eq!(ask(true).await, ApprovalAnswer::AllowOutsideSandbox);
        // Not offered: asked again, and the next answer counts.
        assert_eq!(ask(false).await, ApprovalAnswer::AllowOnce);
    }
}
