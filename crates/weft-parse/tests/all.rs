//! The integration tests of weft-parse, one test binary: each file under tests/ is a module
//! here (linking one binary instead of one per file is most of what they cost to build).
//! The shared helpers are in `common`.

// What every file allows itself, for the whole binary (shared helpers included).
#![allow(clippy::expect_used, clippy::unwrap_used)]

mod common;

mod compat_fields;
mod conformance;
mod design_rules;
mod props;
mod rules_doc;
mod seed_002;
