//! A skill: what it says about itself, its tools, and how it may be invoked.

use std::fmt;

use crate::{Scope, SkillFormat, Source, ToolPolicy, Value};

/// How an invoked skill runs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum SkillContext {
    /// The rendered body joins the current conversation.
    #[default]
    Inline,
    /// The rendered body becomes the task of a fresh subagent.
    Fork,
}

impl SkillContext {
    /// `inline` or `fork`.
    pub const fn as_str(self) -> &'static str {
        match self {
            SkillContext::Inline => "inline",
            SkillContext::Fork => "fork",
        }
    }
}

impl fmt::Display for SkillContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The output a skill promises (seed 003 `OutputContract`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct OutputContract {
    /// Output type identifier.
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub kind: String,
    /// JSON schema of the output, when given.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub schema: Option<Value>,
}

/// The kind of a [`CompatibilityRule`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum CompatibilityKind {
    /// The other skill must be present too.
    Requires,
    /// The other skill must not be present.
    Incompatible,
}

/// Which other skills this one can or cannot work with (seed 003 `CompatibilityRule`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CompatibilityRule {
    /// Rule type.
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub kind: CompatibilityKind,
    /// The other skill.
    pub skill: String,
    /// Why, for humans.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub reason: Option<String>,
}

/// The kind of a [`ComposabilityRule`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum ComposabilityKind {
    /// The other skill must be composed with this one.
    Requires,
    /// The other skill must not be composed with this one.
    Forbids,
}

/// How this skill combines with others (seed 003 `ComposabilityRule`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ComposabilityRule {
    /// Rule type.
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub kind: ComposabilityKind,
    /// The other skill.
    pub skill: String,
    /// Why, for humans.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub reason: Option<String>,
}

/// The skill-injection fields of seeds 001 and 003 (all optional in files).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SkillContract {
    /// Ordered execution steps (advisory).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub execution_protocol: Vec<String>,
    /// Conditions that must hold before the skill runs.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub preconditions: Vec<String>,
    /// Conditions guaranteed after the skill completes.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub postconditions: Vec<String>,
    /// The promised output.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub output_contract: Option<OutputContract>,
    /// Which skills this one needs or excludes.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub compatibility_rules: Vec<CompatibilityRule>,
    /// How this skill composes with others.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub composability_rules: Vec<ComposabilityRule>,
}

impl SkillContract {
    /// True when no injection field is set.
    pub fn is_empty(&self) -> bool {
        self == &SkillContract::default()
    }
}

/// Where the description came from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum DescriptionSource {
    /// The `description` key.
    #[default]
    Frontmatter,
    /// The first paragraph of the body (no `description` key).
    FirstParagraph,
}

/// One skill's level-1 data: everything except the body.
///
/// The body is loaded separately (progressive disclosure); see `weft-parse` and
/// `weft-registry`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Skill {
    /// The identifier used for lookup and `/name` (the `name` key, or the directory name).
    pub name: String,
    /// What the skill does and when to use it.
    pub description: String,
    /// Where `description` came from.
    #[cfg_attr(feature = "serde", serde(default))]
    pub description_source: DescriptionSource,
    /// The `name` key as written, when it is not the identifier (invalid or absent name).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub declared_name: Option<String>,
    /// Version string as written (`1.10` stays `1.10`).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub version: Option<String>,
    /// Licence name or file.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub license: Option<String>,
    /// Environment requirements.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub compatibility: Option<String>,
    /// Free-form metadata (OpenClaw gating lives under `openclaw` / `clawdbot`).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub metadata: Option<Value>,
    /// Allowed and forbidden tools.
    #[cfg_attr(feature = "serde", serde(default))]
    pub tools: ToolPolicy,
    /// Template variable names.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub variables: Vec<String>,
    /// Autocomplete hint for arguments, e.g. `[file] [format]`.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub argument_hint: Option<String>,
    /// False hides the skill from `/` commands.
    pub user_invocable: bool,
    /// True hides the skill from the model (catalog and `use_skill`).
    pub disable_model_invocation: bool,
    /// Inline or fork.
    #[cfg_attr(feature = "serde", serde(default))]
    pub context: SkillContext,
    /// Agent type for `context: fork`.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub agent: Option<String>,
    /// Model alias or `provider/model`.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub model: Option<String>,
    /// Reasoning effort for the turns that run the skill (`low`, `medium`, `high`, `max`).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub effort: Option<String>,
    /// Names of positional arguments (`arguments:`): `$name` is argument N of the list.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub arguments: Vec<String>,
    /// Globs (relative to the project) that make the skill conditional: it joins the catalog
    /// once the session reads or edits a matching file.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub paths: Vec<String>,
    /// Extra guidance appended to the description in listings.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub when_to_use: Option<String>,
    /// Trigger keywords (`keywords:` or a `Keywords:` tail in the description).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub keywords: Vec<String>,
    /// The skill-injection fields.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "SkillContract::is_empty")
    )]
    pub contract: SkillContract,
    /// Hooks (`hooks:`, Claude Code's shape): active while the skill or agent is.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub hooks: Vec<crate::HookGroup>,
    /// Keys weft does not interpret, kept for `skills show`, in source order.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub extra: Vec<(String, Value)>,
    /// Scope, format and file.
    pub source: Source<SkillFormat>,
}

impl Skill {
    /// A skill with `name` and `description` and every other field at its default.
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        source: Source<SkillFormat>,
    ) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
            description_source: DescriptionSource::Frontmatter,
            declared_name: None,
            version: None,
            license: None,
            compatibility: None,
            metadata: None,
            tools: ToolPolicy::default(),
            variables: Vec::new(),
            argument_hint: None,
            user_invocable: true,
            disable_model_invocation: false,
            context: SkillContext::Inline,
            agent: None,
            model: None,
            effort: None,
            arguments: Vec::new(),
            paths: Vec::new(),
            when_to_use: None,
            keywords: Vec::new(),
            contract: SkillContract::default(),
            hooks: Vec::new(),
            extra: Vec::new(),
            source,
        }
    }

    /// A skill defined in memory (the API or a built-in) rather than read from a file.
    pub fn in_memory(
        name: impl Into<String>,
        description: impl Into<String>,
        scope: Scope,
    ) -> Self {
        Self::new(
            name,
            description,
            Source::in_memory(scope, SkillFormat::Definition),
        )
    }

    /// True when the skill is conditional (`paths:`): out of the catalog until a matching
    /// file is touched.
    pub fn is_conditional(&self) -> bool {
        !self.paths.is_empty()
    }

    /// The description the catalog shows: the description, then `when_to_use` when set.
    pub fn catalog_description(&self) -> std::borrow::Cow<'_, str> {
        match self.when_to_use.as_deref().map(str::trim) {
            Some(w) if !w.is_empty() => {
                std::borrow::Cow::Owned(format!("{} {w}", self.description.trim_end()))
            }
            _ => std::borrow::Cow::Borrowed(&self.description),
        }
    }

    /// True when the model may see and invoke this skill.
    pub fn model_invocable(&self) -> bool {
        !self.disable_model_invocation
    }
}
