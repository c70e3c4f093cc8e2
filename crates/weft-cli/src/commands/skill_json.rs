//! The one JSON shape of a skill: `skills list --format json` prints [`SkillJson`] per skill,
//! `skills show --format json` prints [`SkillDetailJson`], which is the same object with the
//! level-2 details added. A field means the same thing, under the same name, in both.

use std::path::Path;

use serde::Serialize;
use serde_json::Value;
use weft_registry::{Readiness, ShadowedSkill, SkillBody, SkillEntry, TokenEstimate};
use weft_types::{DescriptionSource, Scope, SkillContext, SkillContract, SkillFormat, ToolPolicy};

use crate::commands::verify::Installed;

/// A skill as `skills list` prints it (and the first fields of `skills show`).
#[derive(Debug, Serialize)]
pub struct SkillJson<'a> {
    /// The name.
    pub name: &'a str,
    /// What it does.
    pub description: &'a str,
    /// Where it was found: project, user, workspace, plugin, builtin.
    pub scope: Scope,
    /// skill-md, legacy-json, definition.
    pub format: SkillFormat,
    /// Its file (`null` for a built-in).
    pub path: Option<&'a Path>,
    /// The user may run it (`/name`, `weft skills run`).
    pub user_invocable: bool,
    /// The model may run it (`use_skill`); false for `disable-model-invocation: true`.
    pub model_invocable: bool,
    /// inline or fork.
    pub context: SkillContext,
    /// Nothing it requires is missing on this host (`skills show`: nor a tool its
    /// `allowed-tools` names; such a skill is not offered to the model).
    pub ready: bool,
    /// What is missing (an empty object when ready).
    pub readiness: std::borrow::Cow<'a, Readiness>,
    /// The copies it hides, of lower precedence.
    pub shadows: &'a [ShadowedSkill],
    /// Switched off by the configuration (`skills.disabled`, `skills.entries.<name>.enabled`):
    /// not offered to the model or the user.
    pub disabled: bool,
    /// The plugin that brought it (`name@marketplace`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plugin: Option<&'a str>,
    /// The lock entry and its check, for a skill installed by `weft skills install`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub installed: Option<Value>,
}

impl<'a> SkillJson<'a> {
    /// The summary of `entry`.
    pub fn new(entry: &'a SkillEntry, installed: Option<&Installed>) -> Self {
        let s = &entry.skill;
        Self {
            name: &s.name,
            description: &s.description,
            scope: s.source.scope,
            format: s.source.format,
            path: entry.file(),
            user_invocable: s.user_invocable,
            model_invocable: s.model_invocable(),
            context: s.context,
            ready: entry.readiness.is_ready(),
            readiness: std::borrow::Cow::Borrowed(&entry.readiness),
            shadows: &entry.shadows,
            disabled: false,
            plugin: s.source.plugin.as_ref().map(|p| p.id.as_str()),
            installed: installed.map(Installed::to_json),
        }
    }

    /// Marks it disabled (or not).
    pub fn disabled(mut self, disabled: bool) -> Self {
        self.disabled = disabled;
        self
    }
}

/// A skill as `skills show` prints it: [`SkillJson`] plus everything else known about it.
#[derive(Debug, Serialize)]
pub struct SkillDetailJson<'a> {
    /// The fields `skills list` prints.
    #[serde(flatten)]
    pub summary: SkillJson<'a>,
    /// frontmatter, or first-paragraph when the description was taken from the body.
    pub description_source: DescriptionSource,
    /// The `name` key as written, when it differs from the name in use.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declared_name: Option<&'a str>,
    /// `version`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<&'a str>,
    /// `license`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub license: Option<&'a str>,
    /// `compatibility`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compatibility: Option<&'a str>,
    /// `metadata`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<&'a weft_types::Value>,
    /// `allowed-tools` (allow; absent = no restriction) and forbidden tools (deny).
    pub tools: &'a ToolPolicy,
    /// `$VARIABLES` the body uses.
    pub variables: &'a [String],
    /// `argument-hint`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub argument_hint: Option<&'a str>,
    /// The agent a fork skill runs in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent: Option<&'a str>,
    /// `model`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<&'a str>,
    /// `effort`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effort: Option<&'a str>,
    /// `arguments`: the names of `$name` placeholders.
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    pub arguments: &'a [String],
    /// `paths`: globs of the files that make it listed for the model (conditional skills).
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    pub paths: &'a [String],
    /// `when_to_use`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub when_to_use: Option<&'a str>,
    /// `keywords`.
    pub keywords: &'a [String],
    /// The skill-injection fields (execution protocol, rules).
    pub contract: &'a SkillContract,
    /// Keys weft does not interpret, as written.
    pub extra: &'a [(String, weft_types::Value)],
    /// Estimated tokens of the catalog line and of the instructions.
    pub tokens: TokenEstimate,
    /// Bundled files, relative to the skill's directory (at most 50).
    pub resources: Vec<String>,
    /// The instructions (`null` when they cannot be read).
    pub body: Option<&'a str>,
}

impl<'a> SkillDetailJson<'a> {
    /// Everything about `entry`; `body` is its level 2 when it could be read.
    pub fn new(
        entry: &'a SkillEntry,
        installed: Option<&Installed>,
        body: Option<&'a SkillBody>,
        resources: Vec<String>,
    ) -> Self {
        let s = &entry.skill;
        Self {
            summary: SkillJson::new(entry, installed),
            description_source: s.description_source,
            declared_name: s.declared_name.as_deref(),
            version: s.version.as_deref(),
            license: s.license.as_deref(),
            compatibility: s.compatibility.as_deref(),
            metadata: s.metadata.as_ref(),
            tools: &s.tools,
            variables: &s.variables,
            argument_hint: s.argument_hint.as_deref(),
            agent: s.agent.as_deref(),
            model: s.model.as_deref(),
            effort: s.effort.as_deref(),
            arguments: &s.arguments,
            paths: &s.paths,
            when_to_use: s.when_to_use.as_deref(),
            keywords: &s.keywords,
            contract: &s.contract,
            extra: &s.extra,
            tokens: entry.tokens(),
            resources,
            body: body.map(|b| b.text.as_str()),
        }
    }

    /// Marks it disabled (or not).
    pub fn disabled(mut self, disabled: bool) -> Self {
        self.summary.disabled = disabled;
        self
    }

    /// Its readiness in a session (the tools it names judged too).
    pub fn readiness(mut self, readiness: Readiness) -> Self {
        self.summary.ready = readiness.is_ready();
        self.summary.readiness = std::borrow::Cow::Owned(readiness);
        self
    }
}
