//! Printing diagnostics the way rustc does, and a stdout that ends quietly on a closed pipe.

use std::fmt::Write as _;

use weft_types::Diagnostic;

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
    let mut err = std::io::stderr().lock();
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
        eprintln!(
            "weft: {warnings} warning{} about skill files (-v shows them)",
            if warnings == 1 { "" } else { "s" }
        );
    }
}

/// Writes `text` to stdout. When the reader has gone away (`weft ... | head`), the process
/// ends quietly with success instead of panicking, as `cat` would.
pub fn write_stdout(text: &str) {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush())
        && e.kind() == std::io::ErrorKind::BrokenPipe
    {
        std::process::exit(0);
    }
}

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

pub(crate) use {out, outln};

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
