//! Collects the diagnostics of one file, at the severity the profile gives each rule.

use std::path::Path;

use weft_types::{Diagnostic, Position, Severity};

use crate::decode::{Decoded, decode};
use crate::rules::{Level, Profile, Rule};

/// The diagnostics of one file being parsed.
pub(crate) struct Report<'a> {
    path: &'a Path,
    profile: Profile,
    diagnostics: Vec<Diagnostic>,
}

impl<'a> Report<'a> {
    pub(crate) fn new(path: &'a Path, profile: Profile) -> Self {
        Self {
            path,
            profile,
            diagnostics: Vec::new(),
        }
    }

    pub(crate) fn profile(&self) -> Profile {
        self.profile
    }

    /// True under `--profile spec`, where messages use the reference validator's wording.
    pub(crate) fn spec(&self) -> bool {
        self.profile == Profile::Spec
    }

    /// True when `rule` is reported at all under this profile.
    pub(crate) fn enabled(&self, rule: Rule) -> bool {
        rule.level(self.profile) != Level::Off
    }

    /// Reports `rule` at `pos`; the message is only built when the rule is enabled.
    pub(crate) fn emit(
        &mut self,
        rule: Rule,
        pos: Option<Position>,
        message: impl FnOnce() -> String,
    ) {
        let severity = match rule.level(self.profile) {
            Level::Off => return,
            Level::Warn => Severity::Warning,
            Level::Error => Severity::Error,
        };
        self.diagnostics.push(
            Diagnostic::new(severity, rule.number(), message())
                .with_path(self.path)
                .at_opt(pos),
        );
    }

    /// Reports `rule` with the reference validator's `spec` message under `--profile spec`
    /// and weft's own message otherwise.
    pub(crate) fn emit2(
        &mut self,
        rule: Rule,
        pos: Option<Position>,
        weft: impl FnOnce() -> String,
        spec: impl FnOnce() -> String,
    ) {
        if self.spec() {
            self.emit(rule, pos, spec);
        } else {
            self.emit(rule, pos, weft);
        }
    }

    /// Reports an error that does not depend on the profile (used where a rule's level would
    /// otherwise hide why an item is excluded).
    pub(crate) fn error(&mut self, rule: Rule, pos: Option<Position>, message: String) {
        self.diagnostics.push(
            Diagnostic::new(Severity::Error, rule.number(), message)
                .with_path(self.path)
                .at_opt(pos),
        );
    }

    /// The text of a file of `file_len` bytes whose content (or prefix) is `bytes`: reports
    /// a file over `limit` (it is not read) and invalid UTF-8, and returns `None` for either.
    /// Every parser starts here.
    pub(crate) fn decode_file<'b>(
        &mut self,
        bytes: &'b [u8],
        file_len: u64,
        limit: usize,
    ) -> Option<Decoded<'b>> {
        if file_len > limit as u64 {
            self.error(
                Rule::FileTooLarge,
                None,
                format!("file is larger than {} KiB; it was not read", limit / 1024),
            );
            return None;
        }
        match decode(bytes) {
            Ok(decoded) => Some(decoded),
            Err(e) => {
                self.invalid_utf8(e.offset, e.line);
                None
            }
        }
    }

    /// Reports invalid UTF-8 at a byte offset.
    pub(crate) fn invalid_utf8(&mut self, offset: usize, line: u32) {
        self.diagnostics.push(
            Diagnostic::new(
                Severity::Error,
                Rule::InvalidUtf8.number(),
                format!("file is not valid UTF-8: invalid byte sequence at byte {offset}"),
            )
            .with_path(self.path)
            .at(Position::new(line, 1))
            .at_byte(offset as u64),
        );
    }

    pub(crate) fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    pub(crate) fn finish(self) -> Vec<Diagnostic> {
        self.diagnostics
    }
}
