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
