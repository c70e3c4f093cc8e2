//! The integration tests of weft-cli, one test binary: each file under tests/ is a module
//! here (linking one binary instead of one per file is most of what they cost to build).
//! The shared helpers are in `sandbox`.
//!
//! Two files stay binaries of their own, `limits_cli` and `hostile`: they bound the memory of
//! the commands they run with `getrusage(RUSAGE_CHILDREN)`, the kernel's account of every child
//! the test process has waited for, which is only theirs in a process of their own.

// What every file allows itself, for the whole binary (shared helpers included).
#![allow(clippy::expect_used, clippy::print_stdout, clippy::unwrap_used)]

mod sandbox;

mod agent_cli;
mod compat;
mod compose;
mod doctor_cli;
mod errors_cli;
mod help;
mod hooks_cli;
mod install_cli;
mod long_session_cli;
mod mcp_cli;
mod output_cli;
mod path_rules_cli;
mod permissions_cli;
mod plugin_cli;
mod repl_pty;
mod sandbox_attacks_cli;
mod sandbox_cli;
mod sessions_cli;
mod skills;
mod supply_cli;
mod terminal_cli;
mod validate;
