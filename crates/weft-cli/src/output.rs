//! The only way the binary writes to the terminal: standard output and standard error through
//! [`weft_term::Neutralising`] (text from files, models, MCP servers and transcripts cannot
//! drive the terminal: its control characters are shown as `\x1b`, `\u{202e}`, ...), JSON with
//! those characters as `\uXXXX` escapes, diagnostics the way rustc prints them, and a stdout
//! that ends quietly on a closed pipe. Clippy forbids `print!`, `eprint!`, `std::io::stdout`
//! and `std::io::stderr` everywhere else in the binary.
//!
//! weft's own styling (colours, rendered Markdown, the status line) has one way out: the
//! [`Styled`] writers, a [`weft_term::StyledWrite`]. What they take through `Write` is content
//! and is neutralised like everything else; what they take through `write_styled` is text weft
//! styled itself around content neutralised first, and it reaches the stream as it is only
//! when the stream is a terminal (still through [`weft_term::neutralise_styled`], which lets
//! nothing but weft's style and erase-line sequences pass). Through a pipe or into a file the
//! styling is dropped ([`weft_term::unstyle`]): no escape sequence at all. Logs are written
//! by [`log_writer`], which colours only the level, the same way.

#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    clippy::disallowed_methods,
    reason = "the one module that writes to the terminal, always neutralised"
)]

use std::fmt::Write as _;
use std::io::{self, IsTerminal as _};

use serde::Serialize;
use weft_term::{
    Neutralising, Style, StyledWrite, escape_json_controls, neutralise_styled, paint, unstyle,
};
use weft_types::Diagnostic;

/// `println!` through [`write_stdout`].
macro_rules! outln {
    () => {
        $crate::output::write_stdout("\n")
    };
    ($($arg:tt)*) => {
        $crate::output::write_stdout(&format!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` through [`write_stdout`].
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::output::write_stdout(&format!($($arg)*))
    };
}

/// `eprintln!` through [`write_stderr`].
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::output::write_stderr(&format!("{}\n", format_args!($($arg)*)))
    };
}

/// `eprint!` through [`write_stderr`].
macro_rules! err {
    ($($arg:tt)*) => {
        $crate::output::write_stderr(&format!($($arg)*))
    };
}

pub(crate) use {err, errln, out, outln};

/// Standard output, neutralised. Hold it for a whole piece of output: a character split across
/// two writes is still recognised.
pub fn stdout() -> Neutralising<io::StdoutLock<'static>> {
    Neutralising::new(io::stdout().lock())
}

/// Standard error, neutralised.
pub fn stderr() -> Neutralising<io::StderrLock<'static>> {
    Neutralising::new(io::stderr().lock())
}

/// A standard stream for content and weft's own styling (see the module docs): content
/// neutralised, styled text kept only on a terminal.
#[derive(Debug)]
pub struct Styled<S: io::Write> {
    out: Neutralising<S>,
    terminal: bool,
}

impl<S: io::Write> Styled<S> {
    fn new(stream: S, terminal: bool) -> Self {
        Self {
            out: Neutralising::new(stream),
            terminal,
        }
    }
}

impl<S: io::Write> io::Write for Styled<S> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.out.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

impl<S: io::Write + Send> StyledWrite for Styled<S> {
    fn write_styled(&mut self, styled: &str) -> io::Result<()> {
        if self.terminal {
            self.out
                .past_neutraliser()?
                .write_all(neutralise_styled(styled).as_bytes())
        } else {
            // Already neutralised: the neutraliser leaves it as it is.
            io::Write::write_all(&mut self.out, unstyle(styled).as_bytes())
        }
    }
}

/// Colour forced through pipes and files (`CLICOLOR_FORCE`, without `NO_COLOR`): set once by
/// `main` from the environment.
static COLOUR_FORCED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Lets weft's styling reach pipes and files too (`CLICOLOR_FORCE`). Content is neutralised
/// all the same, and only weft's own style sequences pass.
pub fn force_colour(forced: bool) {
    COLOUR_FORCED.store(forced, std::sync::atomic::Ordering::Relaxed);
}

fn styles_reach(is_terminal: bool) -> bool {
    is_terminal || COLOUR_FORCED.load(std::sync::atomic::Ordering::Relaxed)
}

/// Standard output for content and weft's styling, not locked (the line editor writes to the
/// terminal too); the styling reaches it only when it is a terminal (or colour is forced).
pub fn styled_stdout() -> Styled<io::Stdout> {
    Styled::new(io::stdout(), styles_reach(stdout_is_terminal()))
}

/// Standard error for content and weft's styling (tool activity, retries, the status line,
/// `error:`); the styling reaches it only when it is a terminal (or colour is forced).
pub fn styled_stderr() -> Styled<io::Stderr> {
    Styled::new(io::stderr(), styles_reach(stderr_is_terminal()))
}

/// Standard error for the log subscriber, which asks for a writer per event and writes the
/// event in one piece: neutralised, and with `color` (stderr's colour decision) the level at
/// its start painted (`ERROR` red, `WARN` yellow, ...) as styled text.
pub fn log_writer(color: bool) -> LogWriter {
    LogWriter {
        out: styled_stderr(),
        color,
        started: false,
    }
}

/// See [`log_writer`].
#[derive(Debug)]
pub struct LogWriter {
    out: Styled<io::Stderr>,
    color: bool,
    /// The start of the event has been written.
    started: bool,
}

impl io::Write for LogWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let first = !std::mem::replace(&mut self.started, true);
        if first
            && self.color
            && let Some((level, style)) = log_level(buf)
        {
            let word = level.trim_start();
            self.out.write_all(&buf[..level.len() - word.len()])?;
            self.out.write_styled(&paint(word, style, true))?;
            self.out.write_all(&buf[level.len()..])?;
            return Ok(buf.len());
        }
        self.out.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// The level that starts a log line as tracing-subscriber writes it (right-aligned in five
/// characters: ` WARN`, `ERROR`), and its style.
fn log_level(line: &[u8]) -> Option<(&'static str, Style)> {
    [
        ("ERROR", Style::Error),
        (" WARN", Style::Warning),
        (" INFO", Style::Success),
        ("DEBUG", Style::Dim),
        ("TRACE", Style::Dim),
    ]
    .into_iter()
    .find(|(level, _)| line.starts_with(level.as_bytes()))
}

/// Whether standard output is a terminal.
pub fn stdout_is_terminal() -> bool {
    io::stdout().is_terminal()
}

/// Whether standard error is a terminal.
pub fn stderr_is_terminal() -> bool {
    io::stderr().is_terminal()
}

/// Whether standard input is a terminal.
pub fn stdin_is_terminal() -> bool {
    io::stdin().is_terminal()
}

/// Standard output's width in columns, when it is a terminal that says.
pub fn stdout_columns() -> Option<usize> {
    let out = io::stdout();
    columns(out.is_terminal(), &out)
}

/// Standard error's width in columns, when it is a terminal that says.
pub fn stderr_columns() -> Option<usize> {
    let err = io::stderr();
    columns(err.is_terminal(), &err)
}

fn columns(is_terminal: bool, stream: &impl std::os::fd::AsFd) -> Option<usize> {
    if !is_terminal {
        return None;
    }
    let size = rustix::termios::tcgetwinsize(stream).ok()?;
    Some(usize::from(size.ws_col)).filter(|w| *w > 0)
}

/// `value` as pretty JSON whose strings hold no terminal control (escaped as `\uXXXX`, the
/// same value).
pub fn json_pretty(value: &impl Serialize) -> serde_json::Result<String> {
    serde_json::to_string_pretty(value).map(|text| escape_json_controls(&text).into_owned())
}

/// `value` as one line of JSON, escaped as [`json_pretty`] does.
pub fn json_line(value: &impl Serialize) -> serde_json::Result<String> {
    serde_json::to_string(value).map(|text| escape_json_controls(&text).into_owned())
}

/// `error[E101]: message` followed by ` --> path:line:col` when the diagnostic has a place.
///
/// The arrow line is indented to line up under the code, as rustc does.
pub fn format_diagnostic(d: &Diagnostic) -> String {
    let mut out = format!("{}[{}]: {}\n", d.severity, d.code, d.message);
    if let Some(location) = d.location() {
        let _ = writeln!(out, " --> {location}");
    }
    out
}

/// Prints diagnostics rustc-style to stderr (a blank line after each, as rustc does).
pub fn eprint_diagnostics(diagnostics: &[Diagnostic]) {
    use std::io::Write as _;
    let mut err = stderr();
    for d in diagnostics {
        let _ = writeln!(err, "{}", format_diagnostic(d));
    }
}

/// Errors in full; warnings in full when `verbose`, else counted in one line. What an
/// untrusted project was refused or warned about (a project skill or agent overriding yours,
/// a lowered limit: `W181`, `W178`, `W179`) is always shown in full: it changes what runs.
/// `files` names what was read (`skill files`, `agent files`) in the count's line.
pub fn eprint_discovery_diagnostics(diagnostics: &[Diagnostic], files: &str, verbose: bool) {
    if verbose {
        eprint_diagnostics(diagnostics);
        return;
    }
    let shown: Vec<Diagnostic> = diagnostics
        .iter()
        .filter(|d| {
            d.is_error() || weft_registry::is_trust_warning(d) || weft_agents::is_trust_warning(d)
        })
        .cloned()
        .collect();
    eprint_diagnostics(&shown);
    let warnings = diagnostics.len() - shown.len();
    if warnings > 0 {
        errln!(
            "weft: {warnings} {} about {files} (-v shows them)",
            if shown.iter().any(|d| !d.is_error()) {
                if warnings == 1 {
                    "other warning"
                } else {
                    "other warnings"
                }
            } else if warnings == 1 {
                "warning"
            } else {
                "warnings"
            }
        );
    }
}

/// Writes `text` to stdout. When the reader has gone away (`weft ... | head`), the process
/// ends quietly with success instead of panicking, as `cat` would.
pub fn write_stdout(text: &str) {
    use std::io::Write as _;
    let mut out = stdout();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.finish())
        && e.kind() == io::ErrorKind::BrokenPipe
    {
        std::process::exit(0);
    }
}

/// Writes `styled` (weft's styling around neutralised content, see the module docs) to
/// stdout: as it is on a terminal, without any escape sequence through a pipe. Ends quietly
/// on a closed pipe, as [`write_stdout`] does.
pub fn write_styled_stdout(styled: &str) {
    use std::io::Write as _;
    let mut out = styled_stdout();
    if let Err(e) = out.write_styled(styled).and_then(|()| out.flush())
        && e.kind() == io::ErrorKind::BrokenPipe
    {
        std::process::exit(0);
    }
}

/// Writes `text` to stderr, neutralised.
pub fn write_stderr(text: &str) {
    use std::io::Write as _;
    let mut err = stderr();
    let _ = err.write_all(text.as_bytes());
    let _ = err.finish();
}

#[cfg(test)]
mod tests {
    use std::io::Write as _;

    use weft_types::{Position, Severity};

    use super::*;

    #[test]
    fn styled_text_reaches_a_terminal_and_never_a_pipe() {
        let styled = "\x1b[1;31merror:\x1b[22;39m";
        for (terminal, shown) in [
            (true, "\x1b[1;31merror:\x1b[22;39m x\\x1b]0;t\\x07\n"),
            (false, "error: x\\x1b]0;t\\x07\n"),
        ] {
            let mut buf = Vec::new();
            {
                let mut out = Styled::new(&mut buf, terminal);
                out.write_styled(styled).unwrap();
                out.write_all(b" x\x1b]0;t\x07\n").unwrap();
            }
            assert_eq!(String::from_utf8(buf).unwrap(), shown);
        }
    }

    #[test]
    fn only_the_level_of_a_log_line_is_painted() {
        assert_eq!(log_level(b" WARN weft: x").map(|(l, _)| l), Some(" WARN"));
        assert_eq!(log_level(b"ERROR weft: x").map(|(l, _)| l), Some("ERROR"));
        assert_eq!(log_level(b"WARNING: x"), None);
    }

    #[test]
    fn rustc_layout() {
        let d = Diagnostic::new(Severity::Error, 101, "name `X` must be lowercase")
            .with_path("s/x/SKILL.md")
            .at(Position::new(2, 7));
        assert_eq!(
            format_diagnostic(&d),
            "error[E101]: name `X` must be lowercase\n --> s/x/SKILL.md:2:7\n"
        );
    }
}
