//! The skill-injection API of seeds 001 and 003 over the registry: register, look up,
//! override, list, validate and compose skill sets.

use std::sync::Arc;

use weft_permissions::{
    ComposeError, Composition, CompositionMode, Policy, ValidationCode, ValidationResult,
    compose_compiled_skills, validate_and_compose_compiled,
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
/// assert!(composed.composed().allowed_tools.contains(&"edit_file".to_owned()));
/// ```
///
/// Tool patterns are compiled once, by the registry, when it finds each skill (with the
/// registry's [`patterns`](weft_registry::RegistryConfig::patterns)): validation and
/// composition reuse those policies.
#[derive(Debug, Clone)]
pub struct SkillInjection {
    registry: Arc<SkillRegistry>,
    known_tools: Vec<String>,
    mode: CompositionMode,
}

impl SkillInjection {
    /// An API over `registry`, composing in union mode.
    pub fn new(registry: Arc<SkillRegistry>) -> Self {
        Self {
            registry,
            known_tools: Vec::new(),
            mode: CompositionMode::Union,
        }
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

    /// Validates a requested skill set (V001–V006 and protocol warnings). A name whose file
    /// does not load is said so, with the file's errors (`E132` for a tool pattern that does
    /// not compile), as `skills show` and `skills run` say it.
    pub fn validate_skill_set<S: AsRef<str>>(&self, names: &[S]) -> ValidationResult {
        let snapshot = self.registry.snapshot();
        let tools: Vec<&str> = self.known_tools.iter().map(String::as_str).collect();
        let (mut result, _) = validate_and_compose_compiled(
            names,
            |name| compiled_in(&snapshot, name),
            &tools,
            self.mode,
        );
        for error in &mut result.errors {
            let broken = error
                .skill
                .as_deref()
                .filter(|_| error.code == ValidationCode::UnknownSkill)
                .map(|name| snapshot.broken_named(name))
                .unwrap_or_default();
            if let Some(file) = broken.first() {
                let errors: Vec<String> = file.errors.iter().map(ToString::to_string).collect();
                error.message =
                    format!("skill '{}' does not load: {}", file.name, errors.join("; "));
            }
        }
        result
    }

    /// Composes a skill set: union of the declared allows minus every deny (or their
    /// intersection in [`CompositionMode::Intersect`]).
    pub fn compose_skills<S: AsRef<str>>(&self, names: &[S]) -> Result<Composition, ComposeError> {
        let snapshot = self.registry.snapshot();
        let skills = names
            .iter()
            .map(|n| {
                compiled_in(&snapshot, n.as_ref())
                    .ok_or_else(|| ComposeError::UnknownSkill(n.as_ref().to_owned()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(compose_compiled_skills(&skills, self.mode))
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

/// A skill of one snapshot with its compiled policy, for the permission functions' lookups.
fn compiled_in<'s>(snapshot: &'s Snapshot, name: &str) -> Option<(&'s Skill, &'s Policy)> {
    snapshot.get(name).map(|e| (&e.skill, e.policy()))
}
