//! A skill's details as `(label, value)` rows, the one description of a skill for people:
//! `weft skills show` and the REPL's `/skills <name>` both print these rows (rendered by
//! `weft_term::fields`), so the two cannot drift apart. Scripts get the JSON shape instead.

use std::path::Path;

use weft_types::{Skill, SkillFormat};

use crate::entry::{SkillEntry, SkillOrigin};
use crate::gating::Readiness;
use crate::resource::list_resources;

/// The most bundled files listed.
const MAX_RESOURCES: usize = 50;

/// The rows of `entry`, in seed 002's layout plus weft's fields: identity (name,
/// description, version, format, scope, path), invocation (who may invoke it, context,
/// agent, model, effort, arguments, paths, tools), the descriptive fields and the
/// skill-injection contract, then its state (readiness, tokens, bundled files, unknown keys,
/// the copies it shadows). Optional fields appear only when set. `show_path` writes a path
/// as the caller shows paths (`~/...`).
///
/// `readiness` is the skill's in the session the caller describes (see
/// [`SkillEntry::readiness_with`]): the tools its `allowed-tools` names are judged too.
pub fn skill_details(
    entry: &SkillEntry,
    readiness: &Readiness,
    show_path: &dyn Fn(&Path) -> String,
) -> Vec<(String, String)> {
    let mut rows = Rows::default();
    identity(&mut rows, entry, show_path);
    invocation(&mut rows, &entry.skill);
    metadata(&mut rows, &entry.skill);
    state(&mut rows, entry, readiness, show_path);
    rows.0
}

/// Files bundled with the skill (level 3), relative to its directory; at most 50. A command
/// has none: its folder holds other commands.
pub fn bundled_files(entry: &SkillEntry) -> Vec<String> {
    if entry.skill.source.format == SkillFormat::Command {
        return Vec::new();
    }
    entry
        .dir()
        .map(|dir| list_resources(dir, MAX_RESOURCES))
        .unwrap_or_default()
}

#[derive(Default)]
struct Rows(Vec<(String, String)>);

impl Rows {
    fn add(&mut self, label: &str, value: impl Into<String>) {
        self.0.push((label.to_owned(), value.into()));
    }

    fn add_some(&mut self, label: &str, value: Option<&String>) {
        if let Some(value) = value {
            self.add(label, value.as_str());
        }
    }

    fn add_list(&mut self, label: &str, values: &[String]) {
        if !values.is_empty() {
            self.add(label, values.join(", "));
        }
    }
}

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// Name, description, version, format, where it comes from.
fn identity(rows: &mut Rows, entry: &SkillEntry, show_path: &dyn Fn(&Path) -> String) {
    let s = &entry.skill;
    rows.add("Skill", s.name.as_str());
    rows.add("Description", s.description.as_str());
    rows.add_some("Version", s.version.as_ref());
    rows.add("Format", s.source.format.as_str());
    let location = match (&entry.origin, entry.dir()) {
        (SkillOrigin::File(_), Some(dir)) => format!("{} ({})", s.source.scope, show_path(dir)),
        (SkillOrigin::Builtin, _) => "builtin (compiled into weft)".to_owned(),
        _ => format!("{} (registered at run time)", s.source.scope),
    };
    rows.add("Scope", location);
    if let Some(plugin) = &s.source.plugin {
        rows.add("Plugin", plugin.id.as_str());
    }
    if let Some(path) = entry.file() {
        rows.add("Path", show_path(path));
    }
}

/// How it is invoked and with which tools.
fn invocation(rows: &mut Rows, s: &Skill) {
    rows.add_list("Variables", &s.variables);
    rows.add_some("Argument Hint", s.argument_hint.as_ref());
    rows.add("User Invocable", yes_no(s.user_invocable));
    rows.add("Model Invocable", yes_no(s.model_invocable()));
    rows.add("Context", s.context.as_str());
    rows.add_some("Agent", s.agent.as_ref());
    rows.add_some("Model", s.model.as_ref());
    rows.add_some("Effort", s.effort.as_ref());
    rows.add_list("Arguments", &s.arguments);
    if !s.paths.is_empty() {
        rows.add(
            "Paths",
            format!(
                "{} (listed for the model once a matching file is read or edited)",
                s.paths.join(", ")
            ),
        );
    }
    let allowed = match &s.tools.allow {
        None => "(no restriction)".to_owned(),
        Some(list) if list.is_empty() => "(none: the skill grants no tools)".to_owned(),
        Some(list) => list.join(", "),
    };
    rows.add("Allowed Tools", allowed);
    rows.add_list("Forbidden Tools", &s.tools.deny);
}

/// The optional descriptive fields and the skill-injection contract.
fn metadata(rows: &mut Rows, s: &Skill) {
    rows.add_list("Keywords", &s.keywords);
    rows.add_some("When To Use", s.when_to_use.as_ref());
    rows.add_some("License", s.license.as_ref());
    rows.add_some("Compatibility", s.compatibility.as_ref());
    if let Some(m) = &s.metadata {
        rows.add(
            "Metadata",
            serde_json::to_string(m).unwrap_or_else(|_| "(unprintable)".to_owned()),
        );
    }
    let c = &s.contract;
    if !c.execution_protocol.is_empty() {
        rows.add("Execution Protocol", c.execution_protocol.join(" → "));
    }
    for r in &c.composability_rules {
        rows.add(
            "Composability",
            format!("{:?} {}", r.kind, r.skill).to_lowercase(),
        );
    }
    for r in &c.compatibility_rules {
        rows.add(
            "Compatibility Rule",
            format!("{:?} {}", r.kind, r.skill).to_lowercase(),
        );
    }
}

/// Readiness, size, bundled files, unknown keys and the copies it shadows.
fn state(
    rows: &mut Rows,
    entry: &SkillEntry,
    readiness: &Readiness,
    show_path: &dyn Fn(&Path) -> String,
) {
    let ready = if readiness.is_ready() {
        "ready".to_owned()
    } else {
        format!("not ready: {}", readiness.problems().join("; "))
    };
    rows.add("Readiness", ready);
    let tokens = entry.tokens();
    rows.add(
        "Tokens",
        format!(
            "~{} (catalog), ~{} (instructions)",
            tokens.metadata,
            tokens
                .instructions
                .map_or_else(|| "?".to_owned(), |t| t.to_string())
        ),
    );
    rows.add_list("Resources", &bundled_files(entry));
    for (key, value) in &entry.skill.extra {
        rows.add(
            &format!("Extra `{key}`"),
            serde_json::to_string(value).unwrap_or_default(),
        );
    }
    for shadow in &entry.shadows {
        let path = shadow
            .path
            .as_deref()
            .map_or_else(|| "built in".to_owned(), show_path);
        rows.add("Shadows", format!("{} ({path})", shadow.scope));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use weft_types::Scope;

    #[test]
    fn a_skill_without_tools_says_so_and_optional_fields_stay_out() {
        let mut skill = Skill::in_memory("pdf", "Extract text", Scope::Builtin);
        skill.tools.allow = Some(Vec::new());
        skill.disable_model_invocation = true;
        let entry = SkillEntry::with_body(
            skill,
            SkillOrigin::Builtin,
            "Body".to_owned(),
            (
                weft_permissions::Policy::unrestricted(),
                std::sync::Arc::default(),
            ),
        );
        let rows = skill_details(&entry, &entry.readiness, &|p| p.display().to_string());
        let get = |label: &str| {
            rows.iter()
                .find(|(l, _)| l == label)
                .map(|(_, v)| v.as_str())
        };
        assert_eq!(
            get("Allowed Tools"),
            Some("(none: the skill grants no tools)")
        );
        assert_eq!(get("Model Invocable"), Some("no"));
        assert_eq!(get("Scope"), Some("builtin (compiled into weft)"));
        assert_eq!(get("Version"), None);
        assert_eq!(get("Path"), None);
        assert_eq!(rows.first().map(|(l, _)| l.as_str()), Some("Skill"));
    }
}
