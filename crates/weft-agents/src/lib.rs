//! The agent layer of weft.
//!
//! For now: the skill-injection API of seeds 001 and 003 over the registry
//! ([`SkillInjection`]: register, override, list, validate and compose skill sets) and the
//! context-aware skill selector ([`select_skills`]). The agent loop, `use_skill` and
//! `sessions_spawn` join it later.

mod injection;
mod selector;

pub use injection::SkillInjection;
pub use selector::{CODING_SKILLS, MAX_MATCHED_SKILLS, RiskLevel, TaskContext, select_skills};
