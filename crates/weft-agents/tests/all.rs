//! The integration tests of weft-agents, one test binary: each file under tests/ is a module
//! here (linking one binary instead of one per file is most of what they cost to build).
//! The shared helpers are in `common`.

// What every file allows itself, for the whole binary (shared helpers included).
#![allow(clippy::expect_used, clippy::unwrap_used)]

mod common;

mod agent_loop;
mod agent_registry;
mod approval;
mod create_skill;
mod dynamic_context;
mod long_sessions;
mod seed_001;
mod skill_compat;
mod skill_files;
mod subagents;
mod vocabulary;
