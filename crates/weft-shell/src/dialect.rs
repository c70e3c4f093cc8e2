//! The shell that runs commands, and the language the analyser reads them in: one value,
//! chosen once by the program that runs weft, used both to start the shell and to analyse.
//!
//! weft runs bash as `bash --norc --noprofile -c COMMAND`: no startup file, and, since the
//! shell is not interactive, no alias expansion. The variables that would change bash's
//! language or what it runs before the command (`BASH_ENV`, `ENV`, `SHELLOPTS`, `BASHOPTS`,
//! `POSIXLY_CORRECT`, exported functions `BASH_FUNC_*`, ...) are removed from its environment
//! ([`ShellProgram::keeps_variable`]). The analyser then reads exactly bash
//! ([`Dialect::Bash`]).
//!
//! Where there is no bash, `/bin/sh` runs the command. It may be dash, busybox ash or bash in
//! POSIX mode, and they read `$'...'`, `[[ ]]`, `&>`, `|&`, aliases and more in different
//! ways, so with [`Dialect::Posix`] every such construct is unanalysable: a person is asked.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

/// The language the analyser reads a command in: that of the shell that runs it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// bash, without startup files or aliases (`bash --norc --noprofile -c`).
    Bash,
    /// A POSIX `/bin/sh` of unknown kind (dash, busybox ash, bash in POSIX mode): a construct
    /// whose meaning differs between them is unanalysable. The default: when nothing says
    /// which shell runs the command, what they disagree on is not guessed.
    #[default]
    Posix,
}

impl Dialect {
    /// How the analyser names the shell in its reasons.
    pub fn shell_name(self) -> &'static str {
        match self {
            Dialect::Bash => "bash",
            Dialect::Posix => "`/bin/sh`",
        }
    }
}

/// The shell `exec_shell` starts: its program, the arguments before `-c COMMAND`, and the
/// dialect the analyser reads commands in.
///
/// ```
/// use weft_shell::{Dialect, ShellProgram};
///
/// let bash = ShellProgram::bash("/usr/bin/bash");
/// assert_eq!(bash.dialect(), Dialect::Bash);
/// assert_eq!(bash.argv("ls"), ["--norc", "--noprofile", "-c", "ls"]);
/// assert!(!bash.keeps_variable("BASH_ENV".as_ref()));
/// assert!(!bash.keeps_variable("BASH_FUNC_ls%%".as_ref()));
/// assert!(bash.keeps_variable("PATH".as_ref()));
///
/// // The default is `/bin/sh`, read as the POSIX shell it may be.
/// assert_eq!(ShellProgram::default().dialect(), Dialect::Posix);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ShellProgram {
    program: PathBuf,
    args: Vec<OsString>,
    dialect: Dialect,
}

/// The arguments bash gets before `-c`: no startup files.
const BASH_ARGS: [&str; 2] = ["--norc", "--noprofile"];

/// Variables that change the shell's language, or run code before the command, in bash or in
/// a POSIX `sh`: never passed to the shell.
const LANGUAGE_VARIABLES: &[&str] = &[
    // A file every non-interactive bash reads first; `sh`'s startup file.
    "BASH_ENV",
    "ENV",
    // Options set from the environment (`expand_aliases`, `posix`, `allexport`...).
    "SHELLOPTS",
    "BASHOPTS",
    "POSIXLY_CORRECT",
    "BASH_COMPAT",
    // Where `cd`, globs and command search look.
    "CDPATH",
    "GLOBIGNORE",
    "EXECIGNORE",
    "IFS",
    // Run or read while tracing and by builtins.
    "PS4",
    "BASH_XTRACEFD",
    "BASH_LOADABLES_PATH",
    "PROMPT_COMMAND",
    // `cd -` goes there.
    "OLDPWD",
];

impl ShellProgram {
    /// bash at `path`, run as `bash --norc --noprofile -c COMMAND`, read as [`Dialect::Bash`].
    pub fn bash(path: impl Into<PathBuf>) -> Self {
        Self {
            program: path.into(),
            args: BASH_ARGS.iter().map(OsString::from).collect(),
            dialect: Dialect::Bash,
        }
    }

    /// A POSIX shell at `path` (`/bin/sh`), run as `sh -c COMMAND`, read as
    /// [`Dialect::Posix`].
    pub fn posix(path: impl Into<PathBuf>) -> Self {
        Self {
            program: path.into(),
            args: Vec::new(),
            dialect: Dialect::Posix,
        }
    }

    /// The shell's executable.
    pub fn program(&self) -> &Path {
        &self.program
    }

    /// The dialect the analyser reads its commands in.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The shell's arguments for `command`: its own, then `-c COMMAND`.
    pub fn argv(&self, command: &str) -> Vec<OsString> {
        let mut argv = self.args.clone();
        argv.push("-c".into());
        argv.push(command.into());
        argv
    }

    /// False for an environment variable the shell must not get: one that changes its
    /// language or runs code before the command (`BASH_ENV`, `SHELLOPTS`, `POSIXLY_CORRECT`,
    /// `CDPATH`, exported functions `BASH_FUNC_*`...).
    pub fn keeps_variable(&self, name: &OsStr) -> bool {
        let bytes = name.as_encoded_bytes();
        !(bytes.starts_with(b"BASH_FUNC_")
            || LANGUAGE_VARIABLES.iter().any(|v| v.as_bytes() == bytes))
    }
}

impl Default for ShellProgram {
    /// `/bin/sh`, [`Dialect::Posix`].
    fn default() -> Self {
        Self::posix("/bin/sh")
    }
}
