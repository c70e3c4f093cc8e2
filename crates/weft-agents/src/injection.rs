//! The skill-injection API of seeds 001 and 003 over the registry: register, look up,
//! override, list, validate and compose skill sets.

use std::sync::Arc;

use weft_permissions::{
    ComposeError, Composition, CompositionMode, PatternContext, ValidationResult, compose_names,
    validate_skill_set,
};
use weft_registry::{SkillError, SkillRegistry, Snapshot};
use weft_types::Skill;

use crate::selector::{TaskContext, select_skills};

/// The primary agent's handle on skills: the only holder of registry write access.
///
/// ```
/// use std::sync::Arc;
/// use weft_agents::SkillInjection;
/// use weft_registry::{RegistryConfig, SkillRegistry};
///
/// let api = SkillInjection::new(Arc::new(SkillRegistry::new(RegistryConfig::default())));
/// let result = api.validate_skill_set(&["opencode-implementer"]);
/// assert!(!result.valid); // its required companion, specification-engine, is missing
/// let composed = api
///     .compose_skills(&["specification-engine", "opencode-implementer"])
///     .unwrap();
/// assert_eq!(composed.composed().allowed_tools, ["specKit", "opencode-executor"]);
/// ```
#[derive(Debug, Clone)]
pub struct SkillInjection {
    registry: Arc<SkillRegistry>,
    known_tools: Vec<String>,
    mode: CompositionMode,
    patterns: PatternContext,
}

impl SkillInjection {
    /// An API over `registry`, composing in union mode.
    pub fn new(registry: Arc<SkillRegistry>) -> Self {
        Self {
            registry,
            known_tools: Vec::new(),
            mode: CompositionMode::Union,
            patterns: PatternContext::new(),
        }
    }

    /// What the skills' patterns are compiled with in
    /// [`compose_skills`](Self::compose_skills): the project and working directory relative
    /// path patterns start at (default: none, so relative patterns compare only with relative
    /// paths).
    #[must_use]
    pub fn with_pattern_context(mut self, ctx: PatternContext) -> Self {
        self.patterns = ctx;
        self
    }

    /// The tool names the session has, used to spot execution-protocol steps that name a tool
    /// the set does not allow.
    #[must_use]
    pub fn with_known_tools<S: Into<String>>(mut self, tools: impl IntoIterator<Item = S>) -> Self {
        self.known_tools = tools.into_iter().map(Into::into).collect();
        self
    }

    /// Composition mode for [`compose_skills`](Self::compose_skills).
    #[must_use]
    pub fn with_mode(mut self, mode: CompositionMode) -> Self {
        self.mode = mode;
        self
    }

    /// The registry underneath.
    pub fn registry(&self) -> &Arc<SkillRegistry> {
        &self.registry
    }

    /// Registers a new skill (seed 001 `registerSkill`); returns the warnings validation has
    /// about it on its own (e.g. a protocol step naming a tool it does not allow).
    pub fn register_skill(&self, skill: Skill) -> Result<Vec<String>, SkillError> {
        let name = skill.name.clone();
        self.registry.register(skill, None)?;
        Ok(self.warnings_for(&name))
    }

    /// Replaces a skill, registering it when absent (seed 001 `overrideSkillVersion`).
    pub fn override_skill_version(&self, skill: Skill) -> Result<Vec<String>, SkillError> {
        let name = skill.name.clone();
        self.registry.override_version(skill, None)?;
        Ok(self.warnings_for(&name))
    }

    /// The skill named `name`, as registered.
    pub fn get_skill(&self, name: &str) -> Option<Skill> {
        self.registry.get(name).map(|e| e.skill.clone())
    }

    /// Every skill, sorted by name.
    pub fn list_skills(&self) -> Vec<Skill> {
        self.registry
            .list()
            .into_iter()
            .map(|e| e.skill.clone())
            .collect()
    }

    /// Validates a requested skill set (V001–V006 and protocol warnings).
    pub fn validate_skill_set<S: AsRef<str>>(&self, names: &[S]) -> ValidationResult {
        let snapshot = self.registry.snapshot();
        let tools: Vec<&str> = self.known_tools.iter().map(String::as_str).collect();
        validate_skill_set(names, |name| skill_in(&snapshot, name), &tools)
    }

    /// Composes a skill set: union of the declared allows minus every deny (or their
    /// intersection in [`CompositionMode::Intersect`]).
    pub fn compose_skills<S: AsRef<str>>(&self, names: &[S]) -> Result<Composition, ComposeError> {
        let snapshot = self.registry.snapshot();
        compose_names(
            names,
            |name| skill_in(&snapshot, name),
            self.mode,
            &self.patterns,
        )
    }

    /// The skills for a task (FR-006, FR-007): see [`select_skills`].
    pub fn select_skills(&self, task: &TaskContext) -> Vec<String> {
        select_skills(&self.registry.snapshot(), task)
    }

    fn warnings_for(&self, name: &str) -> Vec<String> {
        let result = self.validate_skill_set(&[name]);
        // On its own a skill may lack companions; that is a matter for the sets it joins.
        result.warnings
    }
}

/// A skill of one snapshot, for the permission functions' lookups.
fn skill_in<'s>(snapshot: &'s Snapshot, name: &str) -> Option<&'s Skill> {
    snapshot.get(name).map(|e| &e.skill)
}
