//! One skill in a registry snapshot: its level-1 data, where it came from, and its body
//! (level 2), loaded on first use and cached.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use serde::Serialize;
use weft_parse::ParseOptions;
use weft_permissions::{PatternContext, Policy, PolicyError};
use weft_types::{Diagnostic, Scope, Skill, SkillFormat, has_errors};

use crate::error::SkillError;
use crate::gating::Readiness;
use crate::read::{parse_read, read_error_diagnostic, read_files, skill_file_cap};
use crate::walk::SkillFile;

/// Where a registered skill came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkillOrigin {
    /// Read from a file found under a root.
    File(SkillFile),
    /// Compiled into the binary.
    Builtin,
    /// Registered through the API (`register` / `override_version`).
    Registered,
}

/// A copy of a skill that lost to a higher-precedence one with the same name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ShadowedSkill {
    /// Its scope.
    pub scope: Scope,
    /// Its format.
    pub format: SkillFormat,
    /// Its description.
    pub description: String,
    /// Its file, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<PathBuf>,
}

/// A skill file that was found but does not load: what `show`, `run` and `/name` report
/// instead of "not found".
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BrokenSkill {
    /// The name it declares (the `name` key as written), else its directory's name.
    pub name: String,
    /// Its scope.
    pub scope: Scope,
    /// The file.
    pub path: PathBuf,
    /// Why it does not load: its errors (warnings left out).
    pub errors: Vec<Diagnostic>,
}

/// A skill's instructions, rendered from its body by the template engine when invoked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillBody {
    /// The markdown after the frontmatter (tidied, truncated to the body limit).
    pub text: String,
    /// Diagnostics that only the body can raise (truncation, control characters).
    pub diagnostics: Vec<Diagnostic>,
}

/// Rough token counts per disclosure level (about one token per four characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TokenEstimate {
    /// Level 1: name and description.
    pub metadata: usize,
    /// Level 2: the body, once loaded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instructions: Option<usize>,
}

/// Tokens for `chars` characters of English-like text.
pub fn estimate_tokens(chars: usize) -> usize {
    chars.div_ceil(4)
}

/// One skill of a snapshot.
#[derive(Debug, Clone)]
pub struct SkillEntry {
    /// Level-1 data.
    pub skill: Skill,
    /// Where it came from.
    pub origin: SkillOrigin,
    /// What it needs that this machine lacks (OpenClaw gating).
    pub readiness: Readiness,
    /// Lower-precedence copies with the same name.
    pub shadows: Vec<ShadowedSkill>,
    /// Warnings found while loading it.
    pub diagnostics: Vec<Diagnostic>,
    /// Its `allowed-tools` / `forbidden-tools`, compiled when it was found...
    policy: Policy,
    /// ... with these values (the registry's [`patterns`](crate::RegistryConfig::patterns)).
    compiled_with: Arc<PatternContext>,
    options: ParseOptions,
    body: OnceLock<Arc<SkillBody>>,
    paths: OnceLock<crate::conditional::PathMatcher>,
}

impl SkillEntry {
    pub(crate) fn new(
        skill: Skill,
        origin: SkillOrigin,
        options: ParseOptions,
        diagnostics: Vec<Diagnostic>,
        (policy, compiled_with): (Policy, Arc<PatternContext>),
    ) -> Self {
        Self {
            skill,
            origin,
            readiness: Readiness::default(),
            shadows: Vec::new(),
            diagnostics,
            policy,
            compiled_with,
            options,
            body: OnceLock::new(),
            paths: OnceLock::new(),
        }
    }

    /// An entry whose body is already known (built-in and registered skills).
    pub(crate) fn with_body(
        skill: Skill,
        origin: SkillOrigin,
        body: String,
        compiled: (Policy, Arc<PatternContext>),
    ) -> Self {
        let entry = Self::new(skill, origin, ParseOptions::default(), Vec::new(), compiled);
        let _ = entry.body.set(Arc::new(SkillBody {
            text: body,
            diagnostics: Vec::new(),
        }));
        entry
    }

    /// A copy with `shadows` as its shadowed copies (entries are shared between snapshots, so
    /// they are never changed in place).
    pub(crate) fn with_shadows(&self, shadows: Vec<ShadowedSkill>) -> Self {
        Self {
            shadows,
            ..self.clone()
        }
    }

    /// The skill's name.
    pub fn name(&self) -> &str {
        &self.skill.name
    }

    /// The skill's tool policy, compiled when the skill was found (the one compilation every
    /// check and every activation uses).
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The skill's tool policy for a session whose patterns resolve with `ctx`: the one
    /// compiled when the skill was found when `ctx` is the registry's (as in every session
    /// the runtime builds), else compiled for `ctx` (a registry an embedder configured
    /// without its session's project).
    pub fn policy_for(
        &self,
        ctx: &PatternContext,
    ) -> Result<std::borrow::Cow<'_, Policy>, PolicyError> {
        if *self.compiled_with == *ctx {
            return Ok(std::borrow::Cow::Borrowed(&self.policy));
        }
        Policy::from_skill(&self.skill, ctx).map(std::borrow::Cow::Owned)
    }

    /// The tools the skill's `allowed-tools` names one by one that `has_tool` (canonical
    /// names: `read_file`, `exec_shell`, `github__create_issue`) says this session lacks.
    pub fn missing_tools(&self, has_tool: &dyn Fn(&str) -> bool) -> Vec<String> {
        crate::tool_policy::missing_tools(&self.policy, has_tool)
    }

    /// [`readiness`](Self::readiness) in a session whose tools `has_tool` tells: not ready
    /// either when `allowed-tools` names a tool the session does not have. Such a skill is
    /// not offered to the model.
    pub fn readiness_with(&self, has_tool: &dyn Fn(&str) -> bool) -> Readiness {
        Readiness {
            missing_tools: self.missing_tools(has_tool),
            ..self.readiness.clone()
        }
    }

    /// The skill's directory, for file-based skills.
    pub fn dir(&self) -> Option<&Path> {
        match &self.origin {
            SkillOrigin::File(file) => file.path().parent(),
            _ => None,
        }
    }

    /// The file the skill was read from.
    pub fn file(&self) -> Option<&Path> {
        match &self.origin {
            SkillOrigin::File(file) => Some(file.path()),
            _ => None,
        }
    }

    /// True when this conditional skill (`paths:`) applies to `relative`, a path relative to
    /// the project root; always false for a skill without `paths`.
    pub fn matches_path(&self, relative: &Path) -> bool {
        self.skill.is_conditional()
            && self
                .paths
                .get_or_init(|| {
                    crate::conditional::PathMatcher::new(&self.skill.name, &self.skill.paths)
                })
                .matches(relative)
    }

    /// True once the body has been loaded (or was known from the start).
    pub fn body_loaded(&self) -> bool {
        self.body.get().is_some()
    }

    /// Level 2: the body, read from disk the first time and cached for the life of this
    /// snapshot.
    pub fn body(&self) -> Result<Arc<SkillBody>, SkillError> {
        if let Some(body) = self.body.get() {
            return Ok(Arc::clone(body));
        }
        let loaded = Arc::new(self.load_body()?);
        // Another thread may have won the race; either copy is the same file's content.
        Ok(Arc::clone(self.body.get_or_init(|| loaded)))
    }

    fn load_body(&self) -> Result<SkillBody, SkillError> {
        let SkillOrigin::File(file) = &self.origin else {
            return Ok(SkillBody {
                text: String::new(),
                diagnostics: Vec::new(),
            });
        };
        let dir = file.path().parent().unwrap_or(Path::new("."));
        let bytes = read_files(file, dir, skill_file_cap(&self.options)).map_err(|e| {
            SkillError::Unreadable {
                name: self.skill.name.clone(),
                diagnostics: vec![read_error_diagnostic(&e)],
            }
        })?;
        let parsed = parse_read(file, &bytes, &self.options);
        if has_errors(&parsed.diagnostics) {
            return Err(SkillError::Unreadable {
                name: self.skill.name.clone(),
                diagnostics: parsed.diagnostics,
            });
        }
        let level1: Vec<&Diagnostic> = self.diagnostics.iter().collect();
        Ok(SkillBody {
            text: parsed.body.unwrap_or_default(),
            // Only what the header parse did not already report.
            diagnostics: parsed
                .diagnostics
                .into_iter()
                .filter(|d| !level1.contains(&d))
                .collect(),
        })
    }

    /// Token estimates for levels 1 and (when loaded) 2.
    pub fn tokens(&self) -> TokenEstimate {
        TokenEstimate {
            metadata: estimate_tokens(
                self.skill.name.chars().count() + self.skill.description.chars().count(),
            ),
            instructions: self
                .body
                .get()
                .map(|b| estimate_tokens(b.text.chars().count())),
        }
    }
}
