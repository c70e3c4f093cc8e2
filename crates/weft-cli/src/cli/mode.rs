//! `--permission-mode`: parsed by [`PermissionMode`]'s own `FromStr`, so the command line
//! accepts every spelling the configuration and agent files do (`accept-edits` and Claude
//! Code's `acceptEdits`, `bypassPermissions`, `dontAsk`, `default`), and lists weft's names
//! in the help.

use std::ffi::OsStr;

use clap::builder::{PossibleValue, TypedValueParser};
use weft_types::{PermissionMode, UnknownPermissionMode};

/// The value parser of `--permission-mode`.
#[derive(Debug, Clone, Copy)]
pub struct PermissionModeParser;

/// The modes in the order the help lists them, with what each runs.
const MODES: [(PermissionMode, &str); 6] = [
    (
        PermissionMode::Ask,
        "Read-only tools run; anything else asks (refused where no one can be asked)",
    ),
    (
        PermissionMode::AcceptEdits,
        "As ask, and file edits inside the project run without asking",
    ),
    (
        PermissionMode::Plan,
        "Only read-only tools are offered and run",
    ),
    (
        PermissionMode::Auto,
        "Everything the tool rules allow runs without asking; exec_shell runs in the sandbox",
    ),
    (
        PermissionMode::Bypass,
        "No prompts and no sandbox (a warning is printed)",
    ),
    (
        PermissionMode::DontAsk,
        "As ask, but what would ask is refused",
    ),
];

fn parse(text: &str) -> Result<PermissionMode, UnknownPermissionMode> {
    text.parse()
}

impl TypedValueParser for PermissionModeParser {
    type Value = PermissionMode;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<PermissionMode, clap::Error> {
        // clap's parser for a function: its "invalid value" message with the reason after it.
        parse.parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(MODES.iter().map(|(mode, help)| {
            PossibleValue::new(mode.as_str())
                .help(*help)
                .aliases(mode.aliases().iter().copied())
        })))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mode_is_listed_once() {
        let mut listed: Vec<PermissionMode> = MODES.iter().map(|(m, _)| *m).collect();
        listed.sort();
        assert_eq!(listed, PermissionMode::ALL);
    }
}
