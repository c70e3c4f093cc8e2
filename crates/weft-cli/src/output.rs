//! Printing diagnostics the way rustc does.

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
