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
//!
//! # Code map
//!
//! Finding, reading and serving skills. `walk/`: a `Walker` per discovery walks every root level by
//! level: one listing per directory (through `weft_fs::Directory`), the directories of a level
//! claimed in walk order by their `(device, inode)` (each real directory visited once per
//! discovery, across roots too, so no arrangement of links is super-linear and a root given twice
//! is read once), then listed in parallel; results sorted back into depth-first order (never
//! dependent on thread scheduling); depth bound, at most `max_dirs` directories (30,000 by default,
//! `W184` past it), no descent below a skill (for discovery), pseudo-filesystems never entered
//! (`W019`), names that are not UTF-8 reported (`W185`), `.git`/`node_modules`/`target` skipped; a
//! walk may have a link boundary (an untrusted project: `SkillRoot::within`): a directory link, or
//! a root, whose real path leaves it is refused (`E018`) and not followed. `Walker::walk_files` is
//! the same walk for files (`.claude/commands/**/*.md`, links confined to the commands root),
//! sharing the visited set and the limit; `walk/found.rs` is what a walk yields (`FoundSkill`,
//! `SkillFile`, `WalkNote`), `visit.rs` one directory's visit, `classify.rs` which file defines a
//! skill. `validate.rs`: `validate_paths`, the checks of `weft skills validate` on named files,
//! skill directories and trees (`validate_paths_with` also checks `agent:` against the agents the
//! caller discovered; `with_named_dir` makes `.` or a bare `SKILL.md` absolute against the caller's
//! current directory, so the name check has a directory name). `details.rs`: `skill_details`, a
//! skill described for people as `(label, value)` rows, the one description `weft skills show` and
//! the REPL's `/skills <name>` print (through `weft_term::fields`), and `bundled_files`. `read.rs`:
//! skill files through `weft_fs::open_within` (regular, capped, a link must stay inside the skill's
//! directory: `E018`/`E019`); level 1 reads the whole (small) file, checks that all of it is UTF-8
//! and parses only the frontmatter; level 2 the body. `discover.rs`: every root by precedence,
//! shadowed copies recorded, SEC-SKILL-06 override warnings (`W181`, which `is_trust_warning` tells
//! callers to show without `-v`), built-ins last, a skill always over a command of the same name,
//! skills the configuration disables set aside (listed, never offered); `commands.rs`: Claude
//! Code's `.claude/commands/**/*.md` (a root of kind `Commands`) found by the discovery's `Walker`
//! and read as namespaced skills; `conditional.rs`: the compiled `paths:` globs of conditional
//! skills (and `glob_problem`, the `W145` of `skills validate` for a glob that does not compile);
//! `discover_one` finds a single skill without parsing the others. `registry.rs`: `SkillRegistry`
//! with `register` / `override_version` / `unregister` / `reload` and `refresh` (a reload only when
//! `freshness.rs`'s stamps of the roots, skill directories and skill files changed: what a session
//! calls at the start of each turn; the stamps are a second `stat` pass after each walk, so
//! one-shot commands turn `RegistryConfig::track_changes` off), each published as an immutable
//! `Snapshot` (readers never see a half-applied change); a broken file keeps its last good version,
//! and every file that does not load is a `BrokenSkill` (the name it declares, else its
//! directory's; its errors), so `Snapshot::broken_named` lets `show`, `run` and `/name` report why
//! a skill is missing instead of "not found". `entry.rs`: one skill with its lazily loaded, cached
//! body. `resource.rs`: level-3 files through a checked path (no absolute paths, no `..` escape, no
//! symlink leaving the skill directory) and `list_resources`, a skill's bundled files. `gating.rs`:
//! OpenClaw `requires.bins/anyBins/env` and `os` against a `HostEnvironment` the caller builds.
//! `cache/`: the optional header cache, a binary index (path, scope, file stamp = size + mtime +
//! ctime + inode + device, the skill directory's time) with each entry's parse as a JSON payload
//! decoded only when used, on the walk's threads; a file changed within a second of its entry being
//! written is not trusted (a second rewrite could keep every time stamp); a different build
//! fingerprint discards it. `catalog/`: the budget fitter (`fit.rs`, pure, tested by exact output;
//! `description_cost.rs` measures what each description costs under a limit) and the weft and
//! skills-ref XML renderers (`Snapshot::catalog` is what the model is offered;
//! `Snapshot::reference_catalog` lists every SKILL.md skill as skills-ref's `to-prompt` does).
//! `CacheConfig::health` reads the cache file as discovery would without using it (`CacheHealth`:
//! missing, valid, from another build, unreadable) for `weft doctor`. `matcher/`: BM25 trigger
//! matching (`terms.rs`: the tokenizer, its stopwords and stemmer, shared by skills and queries;
//! `term_map.rs`: the term dictionary's hash). Hot reload is `SkillRegistry::refresh` (a stat pass
//! over the roots, called by sessions before each turn; no file watcher). `builtin.rs`: the skills
//! compiled into the binary (seed 003's two, granting weft's own tools). `tool_policy.rs`: the one
//! validator of tool patterns: every skill's `allowed-tools`/`forbidden-tools` compiled once, when
//! it is found (discovery, `validate_paths_with`, `register`), with `RegistryConfig::patterns` (the
//! project), held by the entry (`SkillEntry::policy`, reused by sessions, spawns and compositions);
//! a pattern that does not compile makes the skill a `BrokenSkill` with `E132`;
//! `SkillEntry::readiness_with` adds the tools a session lacks to the readiness. Depends on
//! `weft-types`, `weft-fs`, `weft-parse`, `weft-permissions` (tool policies), globset (`paths:`),
//! rayon, serde, serde_json, thiserror, tracing. Takes every root, the host description and the
//! cache location as arguments; never reads the environment or `~`, never prints.

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
