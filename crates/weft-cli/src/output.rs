//! The only way the binary writes to the terminal: standard output and standard error through
//! [`weft_term::Neutralising`] (text from files, models, MCP servers and transcripts cannot
//! drive the terminal: its control characters are shown as `\x1b`, `\u{202e}`, ...), JSON with
//! those characters as `\uXXXX` escapes, diagnostics the way rustc prints them, and a stdout
//! that ends quietly on a closed pipe. Clippy forbids `print!`, `eprint!`, `std::io::stdout`
//! and `std::io::stderr` everywhere else in the binary.

#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    clippy::disallowed_methods,
    reason = "the one module that writes to the terminal, always neutralised"
)]

use std::fmt::Write as _;
use std::io::{self, IsTerminal as _};

use serde::Serialize;
use weft_term::{Neutralising, escape_json_controls};
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

/// Standard output, neutralised and not locked (the line editor writes to the terminal too).
pub fn unlocked_stdout() -> Neutralising<io::Stdout> {
    Neutralising::new(io::stdout())
}

/// Standard error, neutralised.
pub fn stderr() -> Neutralising<io::StderrLock<'static>> {
    Neutralising::new(io::stderr().lock())
}

/// Standard error, neutralised, for the log subscriber (which asks for a writer per event).
pub fn log_writer() -> Neutralising<io::Stderr> {
    Neutralising::new(io::stderr())
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

/// Errors in full; warnings in full when `verbose`, else counted in one line.
pub fn eprint_discovery_diagnostics(diagnostics: &[Diagnostic], verbose: bool) {
    if verbose {
        eprint_diagnostics(diagnostics);
        return;
    }
    let errors: Vec<Diagnostic> = diagnostics
        .iter()
        .filter(|d| d.is_error())
        .cloned()
        .collect();
    eprint_diagnostics(&errors);
    let warnings = diagnostics.len() - errors.len();
    if warnings > 0 {
        errln!(
            "weft: {warnings} warning{} about skill files (-v shows them)",
            if warnings == 1 { "" } else { "s" }
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

/// Writes `text` to stderr, neutralised.
pub fn write_stderr(text: &str) {
    use std::io::Write as _;
    let mut err = stderr();
    let _ = err.write_all(text.as_bytes());
    let _ = err.finish();
}

#[cfg(test)]
mod tests {
    use weft_types::{Position, Severity};

    use super::*;

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
