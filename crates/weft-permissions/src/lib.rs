//! Tool permissions for weft: patterns, policies, skill composition, skill-set validation and
//! the gate every tool call goes through.
//!
//! * [`ToolPattern`]: one compiled pattern — an exact tool name (Claude Code aliases and
//!   `mcp__` names canonicalised), a glob over names, an MCP server pattern, or a scoped
//!   `Tool(specifier)` checked against the call's input (`Bash(git:*)`, `Read(src/**)`,
//!   `WebFetch(domain:example.com)`).
//! * [`Policy`]: `allow: Option<PatternSet>` (`None` = no restriction) and `deny: PatternSet`;
//!   every pattern remembers its [`Origin`] for denial reasons. Deny always beats allow.
//! * [`compose`]: skills compose with "most restrictive wins" into a [`Composition`] (seed 003's
//!   [`ComposedSkill`] plus the compiled policies).
//! * [`validate_skill_set`]: seed 003's V001–V006 checks before a spawn.
//! * [`ToolGate`]: layers of policies; [`ToolGate::check`] says [`Decision::Allowed`],
//!   [`Decision::Ask`] (within every allow list, but no pattern can pre-approve it) or
//!   [`Decision::Denied`] with a reason; [`ToolGate::explain`] shows how each rule saw a shell
//!   command, [`ToolGate::visible_tools`] what to offer the model, [`ToolGate::background`] the
//!   read-only gate of background subagents.
//! * [`analyse_command`]: the shell-command analyser behind `Bash(...)` patterns (the
//!   `weft-shell` crate, re-exported): every [`SimpleCommand`] of a command (through
//!   pipelines, lists, substitutions, `sh -c`, `eval`, wrappers such as `env` or `sudo`), what
//!   cannot be analysed, and what is risky.
//! * [`PreApproval`]: which calls run without asking (`permissions.allow`), on the same rules;
//!   [`suggest_allow`] proposes the patterns that would pre-approve a call.
//! * [`AskRules`]: calls that always ask a person (Claude Code's `permissions.ask`).
//! * [`decide`]: what a [`PermissionMode`](weft_types::PermissionMode) makes of a call of a
//!   [`CallKind`] given the gate's decision and pre-approval: run, ask a person, or refuse.
//!
//! Rules worth knowing:
//!
//! * **Names.** Claude Code's `Read`, `Write`, `Edit`/`MultiEdit`, `LS`, `Glob`, `Grep`,
//!   `Bash`, `WebFetch`, `Skill`, `Task`/`Agent` are the built-ins `read_file` … `sessions_spawn`
//!   on both sides of every comparison; `mcp__<server>__<tool>` is `<server>__<tool>`. Other
//!   names are exact and case-sensitive: seed 003's `write`/`edit` are not `write_file`/`edit_file`.
//! * **MCP isolation (SEC-SKILL-08).** An allow reaches an MCP tool only through a literal server
//!   (`github__*`, `mcp__github`, `mcp__github__create_*`); `*`, `*__*`, `read_*` and `mcp__*`
//!   grant no MCP tool. A deny is read as broadly as written: `*` and `mcp__*` remove MCP tools.
//! * **Fail closed.** A malformed pattern is an error, never "no restriction". A call whose input
//!   a scoped pattern cannot judge (a path climbing out of its directory, a missing field, a URL
//!   without a host) matches no scoped allow and every scoped deny. A shell command is parsed:
//!   a deny matches when any simple command in it may match; an allow pre-approves only when
//!   every simple command matches and nothing is unanalysable or risky (otherwise `Ask`).
//! * **Visibility.** A tool is offered to the model when some call of it could pass: a tool
//!   with only scoped allows (`Bash(git:*)`) is visible and each call is checked.
//!
//! ```
//! use serde_json::json;
//! use weft_permissions::{compose, CompositionMode, ToolGate};
//! use weft_types::{ComposabilityKind, ComposabilityRule, Scope, Skill, ToolPolicy};
//!
//! let mut spec = Skill::in_memory("specification-engine", "Specs", Scope::Builtin);
//! spec.tools = ToolPolicy::allow_only(["specKit"]);
//! let mut implementer = Skill::in_memory("opencode-implementer", "Code", Scope::Builtin);
//! implementer.tools = ToolPolicy { allow: Some(vec!["opencode-executor".into()]), deny: vec!["write".into(), "edit".into()] };
//!
//! let composition = compose(&[&spec, &implementer], CompositionMode::Union)?;
//! assert_eq!(composition.composed().allowed_tools, ["specKit", "opencode-executor"]);
//!
//! // The parent may use anything but MCP tools; the child gets the composition within that.
//! let parent = ToolGate::unrestricted();
//! let gate = composition.gate_within(&parent);
//! assert!(gate.check("specKit", &json!({})).is_allowed());
//! assert_eq!(
//!     gate.check("write", &json!({})).to_string(),
//!     "denied: `write` is forbidden by skill 'opencode-implementer'",
//! );
//! # Ok::<(), weft_permissions::PolicyError>(())
//! ```
//!
//! # Code map
//!
//! What a session may call. `name.rs`: canonical tool names (Claude Code aliases such as `Bash` →
//! `exec_shell`, `mcp__server__tool` → `server__tool`, the tables from `weft_types::tool_names`),
//! so a deny on either spelling blocks both. `pattern.rs` and `spec/`: the pattern grammar compiled
//! once (exact, globs that reach an MCP tool only when they name its server literally, scoped
//! `Bash(git:*)` / `Read(src/**)` / `WebFetch(domain:…)` checked against the call's input, path
//! normalisation); `Bash(...)` patterns are compared with the simple commands weft-shell's analysis
//! finds (its types are re-exported). `policy.rs`: allow (`None` = unrestricted) and deny sets,
//! each pattern remembering the skill or agent it came from. `compose.rs`: union-minus-deny (or
//! intersect) composition, zero skills = zero capability, seed 003's `ComposedSkill`, and `Ceiling`
//! (a parent's tools as patterns and gate; `Composition::composed_within` is the string form of
//! `gate_within`). `validate.rs`: V001–V006 and protocol-tool warnings. `gate/`:
//! `ToolGate::check(tool, input)` over layered policies (skills, agent, parent ceiling, background)
//! deciding `Allowed`, `Ask` or `Denied` (deny beats ask beats allow) with reasons that name the
//! rule and its origin (`gate/decision.rs`: `Decision` and its `Reason`, kind and text apart, the
//! `ask: `/`denied: ` prefix added only by its display); `gate/shell.rs` judges `exec_shell` calls on the analysis, `explain.rs`
//! says what each rule thinks of each simple command; `gate/resolved.rs`: `check_resolved`, a call
//! judged on its path as spelled and on its real path (the caller resolves links); `gate/files.rs`:
//! `FileRules`, the `Read(...)` and search-tool path rules of every layer gathered once per search
//! call, judging each file a search visits. `approval.rs`: `PreApproval`, the pre-approval knob
//! (`permissions.allow`) on the same analyser. `mode.rs`: `CallKind` (read-only, control, edit
//! inside or outside the project, mutating) and `decide`, the pure rule of permission modes (mode ×
//! kind × gate decision × pre-approval → run, ask a person, refuse). `suggest.rs`: `suggest_allow`,
//! the `permissions.allow` patterns that would pre-approve a call. Depends on `weft-types`,
//! `weft-shell`, globset, shell-words, serde, serde_json, thiserror. Pure: no I/O, no environment.

mod approval;
mod ask;
mod compose;
mod context;
mod error;
mod gate;
mod mode;
mod name;
mod origin;
mod pattern;
mod policy;
mod set;
mod spec;
mod suggest;
mod validate;
mod wildcard;

pub use approval::{Approval, PreApproval};
pub use ask::AskRules;
pub use compose::{
    Ceiling, ComposeError, ComposedSkill, Composition, CompositionMode, compose,
    compose_compiled_skills, compose_names, compose_with,
};
pub use context::PatternContext;
pub use error::{PatternError, PatternErrorKind, PolicyError};
pub use gate::{
    CommandRulings, Decision, Explanation, FileRules, PATH_KEYS, Reason, ReasonKind, ToolGate,
    path_of,
};
pub use mode::{CallKind, Step, decide, offered_in, only_with_a_person};
pub use name::{
    ALIASES, BACKGROUND_TOOLS, BUILTIN_TOOLS, MCP_PREFIX, MCP_SEPARATOR, aliases_of,
    canonical_tool_name, is_builtin_tool, is_mcp_tool, mcp_parts,
};
pub use origin::Origin;
pub use pattern::{Effect, ToolPattern};
pub use policy::Policy;
pub use set::PatternSet;
pub use suggest::suggest_allow;
pub use validate::{
    ValidationCode, ValidationError, ValidationResult, validate_and_compose,
    validate_and_compose_compiled, validate_skill_set,
};
pub use weft_shell::{
    CommandAnalysis, Context, Dialect, Helper, READ_ONLY_HELPERS, Risk, ShellContext,
    SimpleCommand, Unanalysable, Word, analyse_command, wrapper_names,
};
