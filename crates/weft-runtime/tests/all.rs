//! The integration tests of weft-runtime, one test binary: each file under tests/ is a module
//! here (linking one binary instead of one per file is most of what they cost to build).
//! The files share no helper module.

// What every file allows itself, for the whole binary (shared helpers included).
#![allow(clippy::expect_used, clippy::unwrap_used)]

mod dry_run;
mod effective;
mod embed;
