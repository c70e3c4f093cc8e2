//! `cargo xtask`: repository automation for weft.
//!
//! Run through the cargo alias in `.cargo/config.toml`, e.g.
//! `cargo xtask fixtures --count 1000 --out /tmp/fx1000`. Arguments are parsed by hand to
//! keep this crate dependency-free apart from `anyhow` (and `serde_json`, which the replay
//! benchmark's loopback provider speaks).
//!
//! Exit status: 0 on success, 1 when a command fails, 2 on a usage error.
//!
//! # Code map
//!
//! `cargo xtask fixtures --count N --out DIR [--seed S] [--nested]`: deterministic synthetic skill
//! trees (~1.5 KB files with realistic frontmatter) for tests and benchmarks. `compat-layouts --out
//! DIR`: skill trees as Claude Code, Codex and OpenClaw users have them, and a user's home
//! directory (`compat.rs`; weft-cli's `tests/compat.rs` includes it and runs
//! docs/COMPATIBILITY.md's rows). `bench-list` / `bench-validate` time the real binary
//! (`bench-list` side by side with `cat`). `hostile-checkout --out DIR`: `DIR/checkout`, a project
//! holding every trap of issue 13, and `DIR/home`, the user's home that goes with it (`hostile.rs`:
//! one table entry per trap; the CLI tests include the same file). `shell-diff --cases N [--seed
//! S]`: weft-shell's differential harness (`tests/differential`) with more cases, in a release
//! build. `tests/architecture.rs` executes the invariants of docs/ARCHITECTURE.md (layers, unused
//! dependencies, a dependency-free weft-types) from `cargo metadata --no-deps` and its `layers`
//! table; a normal dependency counts as used only where the library's own code names it (comments,
//! string literals and `#[cfg(test)]` items are stripped first), a dev-dependency anywhere in the
//! crate's code. No dependencies beyond `anyhow` (serde_json for that test).
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod bench;
mod compat;
mod fixtures;
mod hostile;
mod replay;
mod shell_diff;

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

/// Text printed by `cargo xtask help`.
const USAGE: &str = "\
cargo xtask - repository tasks for weft

USAGE:
    cargo xtask <COMMAND> [OPTIONS]

COMMANDS:
    fixtures        Generate a deterministic tree of synthetic skills (DIR/<name>/SKILL.md)
    bench-list      Time `weft skills list` on a generated tree against `cat` of the same files
    bench-validate  Time `weft skills validate` on the shared corpus
    bench-session   Replay a scripted coding session through weft against a loopback provider
                    (Anthropic and OpenAI shapes): tokens billed with and without prompt
                    caching, the cached share, peak context, compactions, weft's memory;
                    `--rounds N`: one message of N tool-call rounds in one process;
                    `--weft-window N`: tell weft another window than the server's
                    (docs/BENCHMARKS.md)
    hostile-checkout
                    Lay out a project full of traps (FIFOs, links to /dev/zero,
                    /proc/self/environ, / and /sys, a link ladder, bad UTF-8); see
                    `cargo xtask hostile-checkout --help`
    compat-layouts  Lay out skill trees as Claude Code, Codex and OpenClaw users have them
                    (docs/COMPATIBILITY.md; the CLI's compat tests use the same trees)
    shell-diff      Run the shell analyser's differential harness (generated commands under
                    the real bash and dash, with logging stubs) with more cases, in release
    help            Print this message

FIXTURES OPTIONS:
    --count N   Number of skills to write (required)
    --out DIR   Output directory, created if missing (required)
    --seed S    PRNG seed, an unsigned 64-bit integer [default: 42]
    --nested    Also place a few skills 2-3 levels deep under category directories
    --force     Replace DIR if it is a tree written earlier by this command (recognised
                by its .weft-fixtures marker file); anything else is never deleted

HOSTILE-CHECKOUT AND COMPAT-LAYOUTS OPTIONS:
    --out DIR   Where to lay the tree out (required)
    --force     Replace DIR if it is a tree written earlier by this command

BENCH OPTIONS:
    --count N   Skills in the generated tree (bench-list) [default: 1000]
    --runs R    Timed runs of each command; medians are reported [default: 15]
    --weft BIN  Time this weft binary instead of building the checkout's (compare builds)

SHELL-DIFF OPTIONS:
    --cases N   Cases to run, one command under one shell each [default: 200000]
    --seed S    The generator's seed [default: 23, the test suite's]
BENCH-SESSION OPTIONS:
    --turns N       Turns of the session [default: 60]
    --window T      The context window, in tokens [default: 16000]
    --shape S       anthropic, openai or both [default: both]
    --weft BIN      Run this weft binary instead of building the checkout's

EXAMPLES:
    cargo xtask fixtures --count 1000 --out /tmp/fx1000 --seed 7
    cargo xtask shell-diff --cases 1000000 --seed 5
    cargo xtask bench-list --count 1000
";

/// A parsed command line.
#[derive(Debug, PartialEq, Eq)]
enum Command {
    /// Print [`USAGE`].
    Help,
    /// Generate a fixture tree.
    Fixtures(fixtures::Options),
    /// Time `weft skills list` against `cat`.
    BenchList(bench::Options),
    /// Time `weft skills validate` on the corpus.
    BenchValidate(bench::Options),
    /// Replay a long session and count its tokens.
    BenchSession(replay::Options),
    /// Lay out the hostile checkout.
    Hostile {
        /// Output directory.
        out: PathBuf,
        /// Replace an earlier tree.
        force: bool,
    },
    /// Print the hostile checkout's help and trap list.
    HostileHelp,
    /// Run the shell analyser's differential harness.
    ShellDiff(shell_diff::Options),
    /// Lay out the compatibility trees.
    Compat {
        /// Output directory.
        out: PathBuf,
        /// Replace an earlier tree.
        force: bool,
    },
}

/// A malformed command line (exit status 2).
#[derive(Debug, PartialEq, Eq)]
struct UsageError(String);

#[allow(clippy::disallowed_methods)] // the program's own command line
fn main() -> ExitCode {
    match parse_args(std::env::args_os().skip(1)) {
        Ok(Command::Help) => {
            print!("{USAGE}");
            ExitCode::SUCCESS
        }
        Ok(Command::Fixtures(opts)) => match fixtures::run(&opts) {
            Ok(summary) => {
                println!(
                    "wrote {} skills ({} bytes) to {}",
                    summary.skills,
                    summary.bytes,
                    opts.out.display()
                );
                ExitCode::SUCCESS
            }
            Err(err) => {
                eprintln!("error: {err:#}");
                ExitCode::FAILURE
            }
        },
        Ok(Command::BenchList(opts)) => report(bench::list(&opts)),
        Ok(Command::BenchValidate(opts)) => report(bench::validate(&opts)),
        Ok(Command::ShellDiff(opts)) => report(shell_diff::run(&bench::workspace_root(), &opts)),
        Ok(Command::BenchSession(opts)) => report(replay::run(&opts)),
        Ok(Command::Hostile { out, force }) => match hostile::generate(&out, force) {
            Ok(traps) => {
                println!(
                    "laid out {traps} traps in {} (see its README.md)",
                    out.display()
                );
                ExitCode::SUCCESS
            }
            Err(err) => {
                eprintln!("error: {err:#}");
                ExitCode::FAILURE
            }
        },
        Ok(Command::Compat { out, force }) => match compat::generate(&out, force) {
            Ok(n) => {
                println!(
                    "laid out {n} layouts in {} (see its README.md)",
                    out.display()
                );
                ExitCode::SUCCESS
            }
            Err(err) => {
                eprintln!("error: {err:#}");
                ExitCode::FAILURE
            }
        },
        Ok(Command::HostileHelp) => {
            print!("{}", hostile_help());
            ExitCode::SUCCESS
        }
        Err(UsageError(msg)) => {
            eprintln!("error: {msg}\n\nRun `cargo xtask help` for usage.");
            ExitCode::from(2)
        }
    }
}

fn report(result: anyhow::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

/// Parses the arguments after the program name.
fn parse_args(args: impl IntoIterator<Item = OsString>) -> Result<Command, UsageError> {
    let mut args = args.into_iter();
    let Some(command) = args.next() else {
        return Ok(Command::Help);
    };
    match command.to_str() {
        Some("help" | "-h" | "--help") => Ok(Command::Help),
        Some("fixtures") => parse_fixtures(args),
        Some("hostile-checkout") => parse_hostile("hostile-checkout", args),
        Some("compat-layouts") => match parse_hostile("compat-layouts", args)? {
            Command::Hostile { out, force } => Ok(Command::Compat { out, force }),
            _ => Ok(Command::Help),
        },
        Some("shell-diff") => parse_shell_diff(args),
        Some("bench-session") => parse_bench_session(args).map(Command::BenchSession),
        Some(name @ ("bench-list" | "bench-validate")) => {
            let opts = parse_bench(name, args)?;
            Ok(if name == "bench-list" {
                Command::BenchList(opts)
            } else {
                Command::BenchValidate(opts)
            })
        }
        _ => Err(UsageError(format!(
            "unknown command `{}`",
            command.to_string_lossy()
        ))),
    }
}

/// Parses the options of `fixtures`. Accepts both `--flag value` and `--flag=value`.
fn parse_fixtures(mut args: impl Iterator<Item = OsString>) -> Result<Command, UsageError> {
    let mut count: Option<usize> = None;
    let mut out: Option<PathBuf> = None;
    let mut seed: Option<u64> = None;
    let mut nested = false;
    let mut force = false;

    while let Some(arg) = args.next() {
        let Some(arg_str) = arg.to_str() else {
            return Err(UsageError(format!(
                "unexpected argument `{}`",
                arg.to_string_lossy()
            )));
        };
        let (flag, inline) = match arg_str.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag, Some(OsString::from(value))),
            _ => (arg_str, None),
        };
        match flag {
            "-h" | "--help" => return Ok(Command::Help),
            "--count" => {
                let value = take_value(flag, inline, &mut args)?;
                set_once(flag, &mut count, parse_number(flag, &value)?)?;
            }
            "--seed" => {
                let value = take_value(flag, inline, &mut args)?;
                set_once(flag, &mut seed, parse_number(flag, &value)?)?;
            }
            "--out" => {
                let value = take_value(flag, inline, &mut args)?;
                if value.is_empty() {
                    return Err(UsageError("--out needs a non-empty path".into()));
                }
                set_once(flag, &mut out, PathBuf::from(value))?;
            }
            "--nested" | "--force" => {
                if inline.is_some() {
                    return Err(UsageError(format!("{flag} takes no value")));
                }
                let slot = if flag == "--nested" {
                    &mut nested
                } else {
                    &mut force
                };
                if std::mem::replace(slot, true) {
                    return Err(UsageError(format!("{flag} given more than once")));
                }
            }
            _ if flag.starts_with('-') => {
                return Err(UsageError(format!("unknown flag `{flag}` for `fixtures`")));
            }
            _ => return Err(UsageError(format!("unexpected argument `{arg_str}`"))),
        }
    }

    let count = count.ok_or_else(|| UsageError("fixtures needs --count N".into()))?;
    let out = out.ok_or_else(|| UsageError("fixtures needs --out DIR".into()))?;
    Ok(Command::Fixtures(fixtures::Options {
        count,
        out,
        seed: seed.unwrap_or(fixtures::DEFAULT_SEED),
        nested,
        force,
    }))
}

/// `cargo xtask hostile-checkout --help`: what the tree is for, and every trap.
fn hostile_help() -> String {
    let mut text = String::from(
        "cargo xtask hostile-checkout - a project tree full of traps for weft\n\n\
         USAGE:\n    cargo xtask hostile-checkout --out DIR [--force]\n\n\
         DIR/checkout is the project a user cloned: it holds every trap that can share a tree,\n\
         and each config.json trap that stops weft has its own sub-project\n\
         (DIR/checkout/config-*/). DIR/home is the user's home (--home DIR/home): same-name\n\
         skills, a skill with bundled files and a mis-named provider. Run weft inside\n\
         DIR/checkout. The tree holds FIFOs and links to /dev/zero, /proc/self/environ, / and\n\
         /sys: do not copy or read it with other tools.\n\nTRAPS (issue 13 item, id, what):\n",
    );
    for trap in hostile::TRAPS {
        text.push_str(&format!(
            "    {}  {:<19} {}\n",
            trap.item, trap.id, trap.what
        ));
    }
    text
}

/// Parses the options of `hostile-checkout` and `compat-layouts` (`name`): `--out DIR` and
/// `--force`.
fn parse_hostile(
    name: &str,
    mut args: impl Iterator<Item = OsString>,
) -> Result<Command, UsageError> {
    let mut out: Option<PathBuf> = None;
    let mut force = false;
    while let Some(arg) = args.next() {
        let arg_str = arg.to_string_lossy().into_owned();
        let (flag, inline) = match arg_str.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag, Some(OsString::from(value))),
            _ => (arg_str.as_str(), None),
        };
        match flag {
            "-h" | "--help" => return Ok(Command::HostileHelp),
            "--out" => {
                let value = take_value(flag, inline, &mut args)?;
                if value.is_empty() {
                    return Err(UsageError("--out needs a non-empty path".into()));
                }
                set_once(flag, &mut out, PathBuf::from(value))?;
            }
            "--force" if inline.is_none() => {
                if std::mem::replace(&mut force, true) {
                    return Err(UsageError("--force given more than once".into()));
                }
            }
            _ => {
                return Err(UsageError(format!(
                    "unexpected argument `{arg_str}` for `{name}`"
                )));
            }
        }
    }
    let out = out.ok_or_else(|| UsageError(format!("{name} needs --out DIR")))?;
    Ok(Command::Hostile { out, force })
}

/// Parses the options of `shell-diff`.
fn parse_shell_diff(mut args: impl Iterator<Item = OsString>) -> Result<Command, UsageError> {
    let mut opts = shell_diff::Options::default();
    while let Some(arg) = args.next() {
        let (arg, flag, inline) = split_flag(&arg);
        match flag.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "--cases" => {
                opts.cases = parse_number(&flag, &take_value(&flag, inline, &mut args)?)?;
            }
            "--seed" => {
                opts.seed = parse_number(&flag, &take_value(&flag, inline, &mut args)?)?;
            }
            _ => {
                return Err(UsageError(format!(
                    "unexpected argument `{arg}` for `shell-diff`"
                )));
            }
        }
    }
    if opts.cases == 0 {
        return Err(UsageError("--cases must be at least 1".into()));
    }
    Ok(Command::ShellDiff(opts))
}

/// Parses the options of the bench commands.
fn parse_bench(
    name: &str,
    mut args: impl Iterator<Item = OsString>,
) -> Result<bench::Options, UsageError> {
    let mut opts = bench::Options::default();
    while let Some(arg) = args.next() {
        let (arg, flag, inline) = split_flag(&arg);
        match flag.as_str() {
            "--count" => {
                opts.count = parse_number(&flag, &take_value(&flag, inline, &mut args)?)?;
            }
            "--runs" => {
                opts.runs = parse_number(&flag, &take_value(&flag, inline, &mut args)?)?;
            }
            "--weft" => {
                opts.weft = Some(PathBuf::from(take_value(&flag, inline, &mut args)?));
            }
            _ => {
                return Err(UsageError(format!(
                    "unexpected argument `{arg}` for `{name}`"
                )));
            }
        }
    }
    if opts.runs == 0 || opts.count == 0 {
        return Err(UsageError("--count and --runs must be at least 1".into()));
    }
    Ok(opts)
}

/// An argument as text, its flag, and the inline value of `--flag=value`.
fn split_flag(arg: &OsString) -> (String, String, Option<OsString>) {
    let arg = arg.to_string_lossy().into_owned();
    match arg.split_once('=') {
        Some((flag, value)) if flag.starts_with("--") => {
            let (flag, value) = (flag.to_owned(), OsString::from(value));
            (arg, flag, Some(value))
        }
        _ => (arg.clone(), arg, None),
    }
}

/// Parses the options of `bench-session`.
fn parse_bench_session(
    mut args: impl Iterator<Item = OsString>,
) -> Result<replay::Options, UsageError> {
    let mut opts = replay::Options::default();
    while let Some(arg) = args.next() {
        let (arg, flag, inline) = split_flag(&arg);
        match flag.as_str() {
            "--turns" => {
                opts.turns = parse_number(&flag, &take_value(&flag, inline, &mut args)?)?;
            }
            "--window" => {
                opts.window = parse_number(&flag, &take_value(&flag, inline, &mut args)?)?;
            }
            "--shape" => {
                let value = take_value(&flag, inline, &mut args)?;
                opts.shapes = match value.to_str() {
                    Some("anthropic") => vec![replay::Shape::Anthropic],
                    Some("openai") => vec![replay::Shape::OpenAi],
                    Some("both") => vec![replay::Shape::Anthropic, replay::Shape::OpenAi],
                    _ => {
                        return Err(UsageError(format!(
                            "--shape expects anthropic, openai or both, got `{}`",
                            value.to_string_lossy()
                        )));
                    }
                };
            }
            "--weft" => {
                opts.weft = Some(PathBuf::from(take_value(&flag, inline, &mut args)?));
            }
            "--weft-window" => {
                let window = parse_number(&flag, &take_value(&flag, inline, &mut args)?)?;
                set_once(&flag, &mut opts.weft_window, window)?;
            }
            "--rounds" => {
                let rounds = parse_number(&flag, &take_value(&flag, inline, &mut args)?)?;
                set_once(&flag, &mut opts.rounds, rounds)?;
            }
            _ => {
                return Err(UsageError(format!(
                    "unexpected argument `{arg}` for `bench-session`"
                )));
            }
        }
    }
    if opts.turns == 0
        || opts.rounds == Some(0)
        || opts.window.min(opts.weft_window.unwrap_or(opts.window)) < 4_000
    {
        return Err(UsageError(
            "--turns and --rounds must be at least 1, --window and --weft-window at least 4000"
                .into(),
        ));
    }
    Ok(opts)
}

/// The value of `flag`: the inline `--flag=value` part or the next argument.
fn take_value(
    flag: &str,
    inline: Option<OsString>,
    args: &mut impl Iterator<Item = OsString>,
) -> Result<OsString, UsageError> {
    if let Some(value) = inline {
        return Ok(value);
    }
    match args.next() {
        Some(value) if !value.to_string_lossy().starts_with("--") => Ok(value),
        _ => Err(UsageError(format!("{flag} needs a value"))),
    }
}

/// Parses a decimal number for `flag`.
fn parse_number<T: std::str::FromStr>(flag: &str, value: &OsString) -> Result<T, UsageError> {
    value.to_str().and_then(|s| s.parse().ok()).ok_or_else(|| {
        UsageError(format!(
            "{flag} expects a non-negative integer, got `{}`",
            value.to_string_lossy()
        ))
    })
}

/// Stores `value` in `slot`, rejecting a repeated flag.
fn set_once<T>(flag: &str, slot: &mut Option<T>, value: T) -> Result<(), UsageError> {
    if slot.replace(value).is_some() {
        return Err(UsageError(format!("{flag} given more than once")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Command, UsageError> {
        parse_args(args.iter().map(OsString::from))
    }

    fn fixtures_opts(args: &[&str]) -> fixtures::Options {
        match parse(args) {
            Ok(Command::Fixtures(opts)) => opts,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bench_session_flags() {
        match parse(&["bench-session"]) {
            Ok(Command::BenchSession(opts)) => assert_eq!(opts, replay::Options::default()),
            other => panic!("{other:?}"),
        }
        match parse(&[
            "bench-session",
            "--turns=10",
            "--window",
            "8000",
            "--shape",
            "openai",
            "--rounds",
            "120",
            "--weft-window=20000",
        ]) {
            Ok(Command::BenchSession(opts)) => {
                assert_eq!((opts.turns, opts.window), (10, 8000));
                assert_eq!(opts.shapes, [replay::Shape::OpenAi]);
                assert_eq!((opts.rounds, opts.weft_window), (Some(120), Some(20_000)));
            }
            other => panic!("{other:?}"),
        }
        for bad in [
            &["bench-session", "--shape", "gemini"][..],
            &["bench-session", "--window", "100"],
            &["bench-session", "--turns", "0"],
            &["bench-session", "--rounds", "0"],
            &["bench-session", "--rounds", "5", "--rounds", "6"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn help() {
        for args in [
            &[][..],
            &["help"],
            &["--help"],
            &["-h"],
            &["fixtures", "--help"],
        ] {
            assert_eq!(parse(args), Ok(Command::Help), "{args:?}");
        }
        assert!(USAGE.contains("fixtures") && USAGE.contains("--count N"));
    }

    #[test]
    fn shell_diff_flags() {
        assert_eq!(
            parse(&["shell-diff", "--cases", "5000", "--seed=9"]),
            Ok(Command::ShellDiff(shell_diff::Options {
                cases: 5000,
                seed: 9
            }))
        );
        assert_eq!(
            parse(&["shell-diff"]),
            Ok(Command::ShellDiff(shell_diff::Options::default()))
        );
        assert!(parse(&["shell-diff", "--cases", "0"]).is_err());
        assert!(parse(&["shell-diff", "--bogus"]).is_err());
    }

    #[test]
    fn fixtures_flags() {
        let opts = fixtures_opts(&["fixtures", "--count", "10", "--out", "/tmp/x"]);
        assert_eq!(
            opts,
            fixtures::Options {
                count: 10,
                out: PathBuf::from("/tmp/x"),
                seed: 42,
                nested: false,
                force: false,
            }
        );
        let opts = fixtures_opts(&[
            "fixtures",
            "--out=/tmp/a=b",
            "--seed=7",
            "--count=3",
            "--nested",
            "--force",
        ]);
        assert_eq!(opts.out, PathBuf::from("/tmp/a=b"));
        assert_eq!(
            (opts.count, opts.seed, opts.nested, opts.force),
            (3, 7, true, true)
        );
    }

    #[test]
    fn hostile_checkout_flags() {
        assert_eq!(
            parse(&["hostile-checkout", "--out", "/tmp/h", "--force"]),
            Ok(Command::Hostile {
                out: PathBuf::from("/tmp/h"),
                force: true
            })
        );
        assert_eq!(
            parse(&["hostile-checkout", "--help"]),
            Ok(Command::HostileHelp)
        );
        for bad in [
            &["hostile-checkout"][..],
            &["hostile-checkout", "--out"],
            &["hostile-checkout", "--out", "/a", "--out", "/b"],
            &["hostile-checkout", "--out", "/a", "--bogus"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        let help = hostile_help();
        for trap in hostile::TRAPS {
            assert!(help.contains(trap.id), "{} is documented", trap.id);
        }
    }

    #[test]
    fn compat_layouts_flags_and_tree() {
        assert_eq!(
            parse(&["compat-layouts", "--out", "/tmp/c"]),
            Ok(Command::Compat {
                out: PathBuf::from("/tmp/c"),
                force: false
            })
        );
        assert_eq!(parse(&["compat-layouts", "--help"]), Ok(Command::Help));
        assert_eq!(
            parse(&["compat-layouts"]),
            Err(UsageError("compat-layouts needs --out DIR".into()))
        );
        #[allow(clippy::disallowed_methods)] // a scratch directory of the test's own
        let tmp = std::env::temp_dir().join(format!("weft-compat-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        assert_eq!(
            compat::generate(&tmp, false).unwrap(),
            compat::LAYOUTS.len()
        );
        assert!(tmp.join("codex-git-only/.git").is_file());
        assert!(tmp.join("monorepo/.git").is_dir());
        // Not replaced without --force; replaced with it (it carries the marker).
        assert!(compat::generate(&tmp, false).is_err());
        assert!(compat::generate(&tmp, true).is_ok());
        std::fs::remove_dir_all(&tmp).unwrap();
    }

    #[test]
    fn usage_errors() {
        let bad: &[&[&str]] = &[
            &["frobnicate"],
            &["fixtures"],
            &["fixtures", "--count", "10"],
            &["fixtures", "--out", "/tmp/x"],
            &["fixtures", "--count", "ten", "--out", "/tmp/x"],
            &["fixtures", "--count", "-1", "--out", "/tmp/x"],
            &["fixtures", "--count", "1", "--out", "/tmp/x", "--seed", "x"],
            &["fixtures", "--count", "1", "--out", "/tmp/x", "--bogus"],
            &["fixtures", "--count", "1", "--out", "/tmp/x", "extra"],
            &[
                "fixtures", "--count", "1", "--count", "2", "--out", "/tmp/x",
            ],
            &["fixtures", "--count", "1", "--out", "/tmp/x", "--force=yes"],
            &["fixtures", "--count", "1", "--out"],
            &["fixtures", "--count", "--out", "/tmp/x"],
            &["fixtures", "--count", "1", "--out="],
        ];
        for args in bad {
            assert!(parse(args).is_err(), "{args:?} should be rejected");
        }
    }
}
