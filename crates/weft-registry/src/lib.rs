//! Skill discovery and loading.
//!
//! [`walk`] finds skill directories under a root following the walk rules (depth bound, no
//! descent below a skill, symlinks with a cycle guard, `.git`/`node_modules`/`target`
//! skipped); [`read`] reads a found skill (at most the file-size limit) and parses it with
//! `weft-parse`. This crate is the only one that reads skill files from disk; it takes every
//! path it uses as an argument and never consults the environment or the home directory.

pub mod catalog;
pub mod matcher;
pub mod read;
pub mod walk;

pub use read::{read_capped, read_skill};
pub use walk::{FoundSkill, SkillFile, Walk, WalkNote, WalkOptions, walk};
