//! The shared vocabulary of weft.
//!
//! Plain data only: skills ([`Skill`]), agent definitions ([`AgentDefinition`]), tool policies in
//! string form ([`ToolPolicy`]), invocation values for templates ([`InvocationContext`]), open-ended
//! values ([`Value`]), diagnostics ([`Diagnostic`]), hooks as configured ([`HookGroup`]), permission modes ([`PermissionMode`]), the
//! names of the built-in tools ([`tool_names`]) and which characters can drive a terminal
//! ([`is_terminal_control`]). Every other weft crate speaks in these types. [`suggest`] ranks
//! the names closest to a mistyped one, for the "did you mean" of every error; [`time`] turns
//! seconds into calendar dates and [`net`] says whether a URL leads to this machine.
//!
//! The crate has no dependencies. With the `serde` feature every type implements serde's
//! `Serialize` and `Deserialize` (the other weft crates turn it on).
//!
//! ```
//! use weft_types::{Scope, Skill};
//!
//! let skill = Skill::in_memory("specification-engine", "Generates specifications", Scope::Builtin);
//! assert!(skill.model_invocable());
//! assert!(skill.tools.allow.is_none());
//! ```

mod agent;
mod control;
mod diagnostic;
mod hooks;
mod invocation;
pub mod net;
mod permission_mode;
pub mod protected;
mod scope;
mod skill;
pub mod suggest;
pub mod time;
pub mod tool_names;
mod tools;
mod value;
#[cfg(feature = "serde")]
mod value_serde;

pub use agent::AgentDefinition;
pub use control::is_terminal_control;
pub use diagnostic::{Diagnostic, Position, Severity, has_errors};
pub use hooks::{HookEvent, HookGroup, HookHandler, UNSUPPORTED_HOOK_EVENTS, UnknownHookEvent};
pub use invocation::InvocationContext;
pub use permission_mode::{PermissionMode, UnknownPermissionMode};
pub use scope::{AgentFormat, PluginRef, Scope, SkillFormat, Source};
pub use skill::{
    CompatibilityKind, CompatibilityRule, ComposabilityKind, ComposabilityRule, DescriptionSource,
    OutputContract, Skill, SkillContext, SkillContract,
};
pub use tools::ToolPolicy;
pub use value::Value;
