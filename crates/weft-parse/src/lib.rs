//! Parsers and validators for every file weft reads: `SKILL.md`, the legacy `skill.json` +
//! `prompt.md` pair, skill-injection definitions (JSON or YAML) and agent files (`agent.yaml`,
//! `agent.json`, `AGENT.md`, Claude Code's `.claude/agents/*.md`, the Context Graph template).
//!
//! This crate never touches the file system: every function takes the bytes it is handed (and
//! a path used only to name the file and its directory) and returns the parsed item together
//! with its diagnostics. Nothing panics on any input; every problem is a
//! [`Diagnostic`](weft_types::Diagnostic) with a code from the [`Rule`] catalog, the path,
//! and a line and column where one exists.
//!
//! ```
//! use std::path::Path;
//! use weft_parse::{parse_skill_md, ParseOptions, Profile};
//!
//! let text = "---\nname: PDF-Tools\ndescription: Work with PDFs\n---\nBody\n";
//! let path = Path::new("skills/pdf-tools/SKILL.md");
//!
//! // Loading is lenient: the invalid name falls back to the directory name.
//! let loaded = parse_skill_md(text.as_bytes(), path, &ParseOptions::new(Profile::Load));
//! assert_eq!(loaded.skill.unwrap().name, "pdf-tools");
//!
//! // Validation reports it as an error.
//! let checked = parse_skill_md(text.as_bytes(), path, &ParseOptions::new(Profile::Validate));
//! assert!(checked.skill.is_none());
//! assert_eq!(checked.diagnostics[0].code, "E101");
//! assert_eq!(checked.diagnostics[0].line, Some(2));
//! ```
//!
//! # Code map
//!
//! Bytes in, typed values and diagnostics out. `frontmatter.rs` is the only frontmatter splitter
//! (whole-line `---` delimiters, CRLF, BOM); `yaml.rs` is the YAML front end (serde-saphyr with
//! limits on depth, nodes and alias expansion; scalars keep their source text; positions in file
//! coordinates); `node.rs` is the format-neutral tree JSON and YAML both become; `fields.rs` reads
//! typed fields out of a mapping; `skill_map/` interprets a skill mapping the same way for
//! SKILL.md, skill.json and definitions (`mod.rs` reads the mapping in order and the invocation
//! fields; `skill_name.rs`, `description.rs`, `compatibility.rs`, `metadata.rs`, `tools.rs`,
//! `model.rs` (model and effort values, shared with agent files) and `contract.rs` (the
//! skill-injection contract) each read their keys); `agent.rs` handles every agent format;
//! `decoded.rs` checks keys and values as decoded (escapes, `!!binary`) for terminal controls
//! (`E027`); `rules.rs` is the catalog of rules with their level per profile (`Load`, `Validate`,
//! `Strict`, `Spec`). `skill_map/keys.rs` knows every key the family of runtimes defines
//! (`KNOWN_FIELDS`, for the did-you-mean on unknown keys) and the ones weft recognises without
//! implementing (`UNSUPPORTED_FIELDS`: named warnings); `parse_command_md` reads a Claude Code
//! command, named by its path. May depend on `weft-types`, serde, serde_json, serde-saphyr,
//! unicode-normalization and stacker (deep but allowed documents grow the stack instead of
//! overflowing it). **Must not** touch the file system, the environment, or print.

mod agent;
mod decode;
mod decoded;
mod definition;
mod fields;
pub mod frontmatter;
mod hooks;
mod legacy;
pub mod markdown;
pub mod name;
pub mod node;
mod options;
mod report;
mod rules;
mod skill_map;
pub mod skill_md;
pub mod tool_list;
pub mod yaml;

pub use agent::{AGENT_COLORS, PERMISSION_MODES, ParsedAgent, parse_agent};
pub use definition::parse_definition;
pub use hooks::parse_hooks_value;
pub use legacy::parse_legacy;
pub use options::{Limits, ParseOptions};
pub use rules::{Level, Profile, Rule};
pub use skill_map::{
    MAX_COMPATIBILITY_CHARS, MAX_DESCRIPTION_CHARS, MODEL_ALIASES, SPEC_FIELDS, is_model_reference,
};
pub use skill_md::{ParsedSkill, parse_command_md, parse_skill_md, parse_skill_md_header};
