//! Skill discovery, precedence, progressive disclosure and the runtime registry.
//!
//! - [`walk()`] finds skill directories under a root (depth bound, no descent below a skill,
//!   symlinks with a cycle guard, `.git`/`node_modules`/`target` skipped);
//! - [`read`] reads a found skill: only the frontmatter for listings (level 1), the whole
//!   file for the body (level 2);
//! - [`SkillRegistry`] merges every root by precedence (project > user > workspace > plugin >
//!   built-in), records shadowed copies, checks OpenClaw requirements against the host the
//!   caller describes ([`gating`]), loads bodies on first use and resources through a checked
//!   path ([`resource`]), and accepts `register` / `override_version` / `unregister` /
//!   `reload` (and `refresh`, which walks again only when a skill file may have changed),
//!   each published as an immutable [`Snapshot`];
//! - [`catalog`] fits the model-facing skill list to a budget; [`matcher`] ranks skills
//!   against a text;
//! - [`validate`] checks skills named by path, as `weft skills validate` does;
//! - [`details`] is a skill's description for people, as `skills show` and `/skills` print it.
//!
//! The crate reads skill files from disk but takes every root as an argument; it never
//! consults the environment or the home directory, and never prints.

pub mod builtin;
mod cache;
pub mod catalog;
mod commands;
pub mod conditional;
pub mod details;
mod discover;
mod entry;
mod error;
mod freshness;
pub mod gating;
pub mod matcher;
pub mod read;
mod registry;
pub mod resource;
mod tool_policy;
pub mod validate;
pub mod walk;

pub use cache::{CacheConfig, CacheHealth};
pub use discover::{RegistryConfig, RootKind, SkillRoot, discover_one, is_trust_warning};
pub use entry::{
    BrokenSkill, ShadowedSkill, SkillBody, SkillEntry, SkillOrigin, TokenEstimate, estimate_tokens,
};
pub use error::SkillError;
pub use gating::{HostEnvironment, Readiness};
pub use read::{
    read_error_diagnostic, read_skill, read_skill_file, read_skill_header, skill_file_cap,
};
pub use registry::{Lookup, SkillRegistry, Snapshot, unqualified};
pub use validate::{
    KnownAgents, ValidationOutcome, validate_paths, validate_paths_with, with_named_dir,
};
pub use walk::{FoundSkill, SkillFile, Walk, WalkNote, WalkOptions, Walker, walk};
