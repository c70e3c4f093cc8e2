//! The integration tests of weft-shell, one test binary: each file under tests/ is a module
//! here (linking one binary instead of one per file is most of what they cost to build).
//! The files share no helper module.

// What every file allows itself, for the whole binary (shared helpers included).
#![allow(clippy::expect_used, clippy::print_stdout, clippy::unwrap_used)]

#[path = "differential/main.rs"]
mod differential;
mod git_config;
mod props;
mod read_only;
mod reads_outside;
