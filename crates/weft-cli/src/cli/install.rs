//! The arguments of the `weft skills` subcommands that install and check skill packages:
//! `install`, `update`, `remove`, `verify` and `scan`. Separate because they work on sources
//! and lockfiles, not on the skills already found.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::ReportFormat;

/// Whose skills: the project's or the user's (where each command writes them is in its help).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InstallScope {
    /// The project's (the current directory when no project is found).
    Project,
    /// Yours, under the home directory.
    User,
}

/// Arguments of `weft skills install`.
#[derive(Debug, Args)]
pub struct InstallArgs {
    /// A directory, a git URL (https, ssh, file://), owner/repo (GitHub), or a .tar.gz/.zip
    /// file or https URL. Without it: install exactly what skills.lock pins (as --locked).
    pub source: Option<String>,
    /// Install exactly what the scope's skills.lock pins: each skill's recorded commit (or
    /// archive, checked by its SHA-256), refused when its files differ from the lock; the
    /// lockfile is not changed. What teammates run after pulling a committed skills.lock.
    #[arg(long, conflicts_with_all = ["source", "all", "reference", "path"])]
    pub locked: bool,
    /// Where to install.
    #[arg(long, value_enum, default_value = "project")]
    pub scope: InstallScope,
    /// Install this skill of the source, or of the lockfile without SOURCE (repeatable).
    #[arg(long = "skill", value_name = "NAME")]
    pub skills: Vec<String>,
    /// Install every skill of the source: each that passes is installed, each refused
    /// (high-severity findings, invalid, already installed) is reported, and the exit code is
    /// 1 when any was.
    #[arg(long, conflicts_with = "skills")]
    pub all: bool,
    /// The git revision: branch, tag or commit (`update` follows it).
    #[arg(long = "ref", value_name = "REV")]
    pub reference: Option<String>,
    /// Only look for skills under this directory of the source.
    #[arg(long, value_name = "SUBDIR")]
    pub path: Option<String>,
    /// Replace installed skills of the same name, and install despite high-severity
    /// findings.
    #[arg(long)]
    pub force: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
}

/// Arguments of `weft skills update`.
#[derive(Debug, Args)]
pub struct UpdateArgs {
    /// The skills to update (default: every installed skill of the scope).
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,
    /// Where the skills are installed.
    #[arg(long, value_enum, default_value = "project")]
    pub scope: InstallScope,
    /// Apply without asking.
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Apply despite high-severity findings, and overwrite files changed here since the
    /// install (without it, an update that would lose local changes is refused).
    #[arg(long)]
    pub force: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
}

/// Arguments of `weft skills remove`.
#[derive(Debug, Args)]
pub struct RemoveArgs {
    /// The skill.
    pub name: String,
    /// Where it is installed.
    #[arg(long, value_enum, default_value = "project")]
    pub scope: InstallScope,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
}

/// Arguments of `weft skills verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Only this scope (default: the project's and the user's lockfiles).
    #[arg(long, value_enum)]
    pub scope: Option<InstallScope>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
}

/// Arguments of `weft skills scan`.
#[derive(Debug, Args)]
pub struct ScanArgs {
    /// A directory (every skill in it is scanned), a SKILL.md, or a .tar.gz/.zip archive.
    pub path: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
}
