//! Diagnostics: what every parser, validator and loader reports instead of failing.

use std::fmt;
use std::path::PathBuf;

/// How serious a [`Diagnostic`] is.
///
/// An error excludes the file it was found in (or fails `weft skills validate`); a warning never
/// does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Severity {
    /// Worth knowing; the item still loads.
    Warning,
    /// The item is invalid (or, when loading, excluded).
    Error,
}

impl Severity {
    /// The letter that prefixes a code of this severity (`E101`, `W101`).
    pub const fn letter(self) -> char {
        match self {
            Severity::Warning => 'W',
            Severity::Error => 'E',
        }
    }

    /// The word rustc prints before the code (`error`, `warning`).
    pub const fn label(self) -> &'static str {
        match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// A 1-based line and column (columns count Unicode scalar values).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Position {
    /// 1-based line number.
    pub line: u32,
    /// 1-based column number.
    pub column: u32,
}

impl Position {
    /// A position at `line`:`column` (both 1-based).
    pub const fn new(line: u32, column: u32) -> Self {
        Self { line, column }
    }
}

/// One problem found in one file.
///
/// The code is the rule number with a severity letter (`E101` is rule 101 reported as an
/// error, `W101` the same rule reported as a warning), so `--strict` can raise a rule's level
/// without renumbering it.
///
/// ```
/// use weft_types::{Diagnostic, Position, Severity};
///
/// let d = Diagnostic::new(Severity::Error, 101, "name `Bad` must be lowercase")
///     .with_path("skills/bad/SKILL.md")
///     .at(Position::new(2, 7));
/// assert_eq!(d.code, "E101");
/// assert_eq!(d.to_string(), "skills/bad/SKILL.md:2:7: error[E101]: name `Bad` must be lowercase");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Diagnostic {
    /// `E` or `W` followed by the rule number, e.g. `E101`.
    pub code: String,
    /// Error or warning.
    pub severity: Severity,
    /// One line, for a human.
    pub message: String,
    /// The file the problem is in, when there is one.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub path: Option<PathBuf>,
    /// 1-based line, when the problem has a place in the file.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub line: Option<u32>,
    /// 1-based column, when the problem has a place in the file.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub column: Option<u32>,
    /// Byte offset into the file, for problems found before lines exist (invalid UTF-8).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub byte_offset: Option<u64>,
}

impl Diagnostic {
    /// A diagnostic for rule `rule` at `severity` without a place.
    pub fn new(severity: Severity, rule: u16, message: impl Into<String>) -> Self {
        Self {
            code: format!("{}{rule:03}", severity.letter()),
            severity,
            message: message.into(),
            path: None,
            line: None,
            column: None,
            byte_offset: None,
        }
    }

    /// Sets the file path.
    #[must_use]
    pub fn with_path(mut self, path: impl Into<PathBuf>) -> Self {
        self.path = Some(path.into());
        self
    }

    /// Sets the line and column.
    #[must_use]
    pub fn at(mut self, position: Position) -> Self {
        self.line = Some(position.line);
        self.column = Some(position.column);
        self
    }

    /// Sets the line and column when `position` is known.
    #[must_use]
    pub fn at_opt(self, position: Option<Position>) -> Self {
        match position {
            Some(p) => self.at(p),
            None => self,
        }
    }

    /// Sets the byte offset.
    #[must_use]
    pub fn at_byte(mut self, offset: u64) -> Self {
        self.byte_offset = Some(offset);
        self
    }

    /// True when this is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The rule number without the severity letter.
    pub fn rule(&self) -> Option<u16> {
        self.code.get(1..).and_then(|n| n.parse().ok())
    }

    /// The place as `path:line:col` (or `path`, or `path:byte N`), when a path is set.
    pub fn location(&self) -> Option<String> {
        let path = self.path.as_ref()?.display();
        Some(match (self.line, self.column, self.byte_offset) {
            (Some(l), Some(c), _) => format!("{path}:{l}:{c}"),
            (Some(l), None, _) => format!("{path}:{l}"),
            (None, _, Some(b)) => format!("{path}: byte {b}"),
            _ => path.to_string(),
        })
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(loc) = self.location() {
            write!(f, "{loc}: ")?;
        }
        write!(f, "{}[{}]: {}", self.severity, self.code, self.message)
    }
}

/// True when any diagnostic in `diagnostics` is an error.
pub fn has_errors(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(Diagnostic::is_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_carries_severity_letter_and_rule() {
        let w = Diagnostic::new(Severity::Warning, 7, "x");
        assert_eq!(w.code, "W007");
        assert_eq!(w.rule(), Some(7));
    }

    #[test]
    fn location_prefers_line_then_byte() {
        let d = Diagnostic::new(Severity::Error, 1, "bad utf-8")
            .with_path("a/SKILL.md")
            .at_byte(12);
        assert_eq!(d.location().as_deref(), Some("a/SKILL.md: byte 12"));
        let d = d.at(Position::new(3, 4));
        assert_eq!(d.location().as_deref(), Some("a/SKILL.md:3:4"));
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serializes_without_empty_fields() {
        let d = Diagnostic::new(Severity::Error, 104, "too long");
        let json = serde_json::to_string(&d).unwrap();
        assert_eq!(
            json,
            r#"{"code":"E104","severity":"error","message":"too long"}"#
        );
    }
}
