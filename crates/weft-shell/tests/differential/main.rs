//! The differential harness, the class-level check of the analyser: commands generated from a
//! grammar rich in what bash and dash read differently run under the real shells `exec_shell`
//! may use (`bash --norc --noprofile -c` and `dash -c`, as [`ShellProgram`] starts them), with
//! `PATH` pointing at logging stubs, and every program that actually started must be one of the
//! analyser's simple commands, unless the analyser said "ask" (something unanalysable, or a
//! risk that may run a program it cannot see). A failure is shrunk to a minimal command.
//!
//! A case is one command under one shell. The suite runs 20,000 (10,000 commands under each
//! shell); `cargo xtask shell-diff --cases N [--seed S]` runs more, through the variables
//! `WEFT_SHELL_DIFF_CASES` and `WEFT_SHELL_DIFF_SEED`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

mod compare;
mod grammar;
mod run;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use weft_shell::{ShellContext, ShellProgram, analyse_command};

use grammar::{Node, Rng};
use run::Sandbox;

/// Cases the suite runs.
const DEFAULT_CASES: u64 = 20_000;
/// The suite's seed.
const DEFAULT_SEED: u64 = 23;
/// How deep forms nest.
const DEPTH: usize = 3;
/// Shrinking steps at most, per failure.
const SHRINK_STEPS: usize = 200;

/// A shell under test.
struct Shell {
    program: ShellProgram,
    name: &'static str,
}

/// The shells on this machine: bash as weft runs it, and dash.
fn shells() -> Vec<Shell> {
    let mut out = Vec::new();
    if let Some(bash) = run::real("bash") {
        out.push(Shell {
            program: ShellProgram::bash(bash),
            name: "bash",
        });
    }
    if let Some(dash) = run::real("dash") {
        out.push(Shell {
            program: ShellProgram::posix(dash),
            name: "dash",
        });
    }
    out
}

/// A `u64` from the environment variable `name`, else `default`.
#[allow(clippy::disallowed_methods)] // the xtask command sets these; the suite uses defaults
fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// What one worker found.
#[derive(Default)]
struct Tally {
    cases: u64,
    ran: u64,
    asked: u64,
    programs: u64,
    failures: Vec<String>,
}

/// What went wrong when `text` ran under `shell`, when the analysis does not ask: the programs
/// it started that the analysis does not list, and, when the analysis says the command only
/// reads, a change of the scratch directory. `None` when it asks; `Some((vec![], n))` when
/// all was as the analysis said (`n`: the programs started).
fn check(sandbox: &Sandbox, shell: &Shell, text: &str) -> Option<(Vec<String>, usize)> {
    let ctx = ShellContext::new()
        .with_project_root(sandbox.root.join("scratch").to_string_lossy())
        .with_dialect(shell.program.dialect());
    let analysis = analyse_command(text, &ctx);
    if compare::asks(&analysis) {
        return None;
    }
    let read_only = analysis.read_only_verdict().is_read_only();
    let mut before = Vec::new();
    let ran = sandbox.run_with(&shell.program, text, || {
        if read_only {
            before = sandbox.scratch_state();
        }
    });
    let mut wrong: Vec<String> = compare::unexplained(&analysis, &ran)
        .into_iter()
        .map(|call| format!("{call:?}"))
        .collect();
    if read_only && sandbox.scratch_state() != before {
        wrong.push("a change of files (the analysis said it only reads)".to_owned());
    }
    Some((wrong, ran.len()))
}

/// The smallest command like `node` that still starts an unlisted program.
fn shrink(sandbox: &Sandbox, shell: &Shell, node: Node, bin: &str) -> (String, Vec<String>) {
    let render = |n: &Node| n.render().replace("@BIN@", bin);
    let fails = |n: &Node| {
        check(sandbox, shell, &render(n))
            .map(|(missing, _)| missing)
            .filter(|m| !m.is_empty())
    };
    let mut current = node;
    let Some(mut missing) = fails(&current) else {
        return ("(did not happen again)".to_owned(), Vec::new());
    };
    let mut steps = 0;
    'outer: while steps < SHRINK_STEPS {
        for candidate in current.shrunk() {
            steps += 1;
            if let Some(m) = fails(&candidate) {
                current = candidate;
                missing = m;
                continue 'outer;
            }
        }
        break;
    }
    (render(&current), missing)
}

fn worker(index: usize, workers: usize, commands: u64, seed: u64, sandbox: &Sandbox) -> Tally {
    let shells = shells();
    let bin = sandbox.bin.to_string_lossy().into_owned();
    let mut tally = Tally::default();
    let mut i = index as u64;
    while i < commands {
        let mut rng = Rng::new(seed ^ i.wrapping_mul(0x1000_0000_01B3));
        let node = grammar::command(&mut rng, DEPTH);
        let text = node.render().replace("@BIN@", &bin);
        for shell in &shells {
            tally.cases += 1;
            match check(sandbox, shell, &text) {
                None => tally.asked += 1,
                Some((missing, started)) => {
                    tally.ran += 1;
                    tally.programs += started as u64;
                    if !missing.is_empty() {
                        let (minimal, smaller) = shrink(sandbox, shell, node.clone(), &bin);
                        let missing = if smaller.is_empty() { missing } else { smaller };
                        tally.failures.push(format!(
                            "{} (command {i}) did what the analysis did not say: {}\n  minimal: {minimal:?}\n  generated: {text:?}",
                            shell.name,
                            missing.join(", ")
                        ));
                    }
                }
            }
        }
        i += workers as u64;
    }
    tally
}

#[test]
fn every_program_the_real_shells_start_is_in_the_analysis() {
    let shells = shells();
    if shells.is_empty() {
        println!("neither bash nor dash is installed: nothing to compare");
        return;
    }
    let Some(dash) = run::real("dash").or_else(|| run::real("sh")) else {
        return;
    };
    let cases = setting("WEFT_SHELL_DIFF_CASES", DEFAULT_CASES);
    let seed = setting("WEFT_SHELL_DIFF_SEED", DEFAULT_SEED);
    let commands = cases.div_ceil(shells.len() as u64);
    // Two per core: a case mostly waits for processes to start.
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(1, 8)) * 2;
    let (_dir, sandboxes) = run::sandboxes(workers, &dash, &shells[0].program);
    let done = Arc::new(AtomicBool::new(false));
    let watched: Vec<_> = sandboxes.iter().map(Sandbox::running).collect();
    let watchdog = {
        let done = Arc::clone(&done);
        std::thread::spawn(move || run::watchdog(watched, done))
    };
    let start = Instant::now();
    let tallies: Vec<Tally> = std::thread::scope(|scope| {
        let handles: Vec<_> = sandboxes
            .iter()
            .enumerate()
            .map(|(w, sandbox)| scope.spawn(move || worker(w, workers, commands, seed, sandbox)))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    watchdog.join().unwrap();
    let elapsed = start.elapsed();
    let sum = |f: fn(&Tally) -> u64| tallies.iter().map(f).sum::<u64>();
    let failures: Vec<&String> = tallies.iter().flat_map(|t| &t.failures).collect();
    let names: Vec<&str> = shells.iter().map(|s| s.name).collect();
    println!(
        "differential: {} cases ({commands} commands under {}, seed {seed}) in {:.1} s on {workers} threads: {} ran ({} program starts logged), {} asked, {} failures",
        sum(|t| t.cases),
        names.join(" and "),
        elapsed.as_secs_f64(),
        sum(|t| t.ran),
        sum(|t| t.programs),
        sum(|t| t.asked),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures
            .iter()
            .take(20)
            .map(|f| f.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Issue 23's examples and variants of our own, under the real shells: under dash each starts
/// a program the bash reading does not show, and the analysis of `/bin/sh` asks; under bash
/// whatever starts is in the analysis (or it asks).
#[test]
fn the_issues_examples_under_the_real_shells() {
    let shells = shells();
    let (Some(dash), Some(bash)) = (
        shells.iter().find(|s| s.name == "dash"),
        shells.iter().find(|s| s.name == "bash"),
    ) else {
        println!("bash and dash are not both installed: nothing to compare");
        return;
    };
    let (_dir, sandboxes) = run::sandboxes(1, dash.program.program(), &bash.program);
    let sandbox = &sandboxes[0];
    for command in [
        "git status; echo $'\\' ; rm v",
        "git status; [[ a > f ]]",
        "git status &>/dev/null rm v",
        "ls &>>log rm v",
        "alias x=eval\nx rm -f v",
        "alias ls='rm v'\nls",
    ] {
        let ran = sandbox.run(&dash.program, command);
        assert!(
            ran.iter().any(|call| call[0] == "rm" || call[0] == "touch") || command.contains("[["),
            "dash did not start what the example says: {command:?} {ran:?}"
        );
        assert_eq!(check(sandbox, dash, command), None, "dash: {command:?}");
        if let Some((unexplained, _)) = check(sandbox, bash, command) {
            assert!(unexplained.is_empty(), "bash: {command:?} {unexplained:?}");
        }
    }
    // `[[ a > f ]]` is a test in bash, a redirection that creates `f` in dash.
    sandbox.run_with(&dash.program, "[[ a > f ]]", || ());
    assert!(sandbox.root.join("scratch/f").exists());
}
