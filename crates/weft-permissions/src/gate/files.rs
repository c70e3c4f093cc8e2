//! The path rules a search applies to each file it visits.
//!
//! The gate judges a `grep`, `glob` or `list_directory` call on the directory it searches. What
//! the search then reads or names is files inside it, some of them reached through links, some
//! of them ones `read_file` would refuse (`Read(.env)` denied, or outside `Read(src/**)`).
//! [`FileRules`] gathers, once per call, the rules each such file is judged by: the `Read(...)`
//! path rules and the search tool's own (`Grep(...)`...), from every layer of the gate.

use std::sync::Arc;

use weft_shell::UnreadablePaths;
use weft_types::tool_names;

use super::ToolGate;
use crate::name::ToolName;
use crate::{Effect, PatternSet, Policy, ToolPattern};

/// The path rules of a gate that every file a search visits must pass, on its path as reached
/// and on its real path (see [`ToolGate::file_rules`]).
///
/// ```
/// use weft_permissions::{Origin, PatternContext, Policy, ToolGate};
///
/// let ctx = PatternContext::new().with_working_dir("/p");
/// let config = Policy::from_lists::<&str>(None, &["Read(.env)"], Origin::Session, &ctx)?;
/// let skill = Policy::from_lists(Some(&["Read(src/**)", "Grep(src/**)"][..]), &[], Origin::Skill("s".into()), &ctx)?;
/// let rules = ToolGate::new([config, skill]).file_rules("grep");
/// assert!(rules.admits("/p/src/a.rs", "/p/src/a.rs"));
/// // A link in `src` to the denied `.env`, outside `src/**` too.
/// assert!(!rules.admits("/p/src/notes.txt", "/p/.env"));
/// assert!(!rules.admits("/p/docs/a.md", "/p/docs/a.md"));
/// # Ok::<(), weft_permissions::PolicyError>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct FileRules {
    layers: Vec<FileLayer>,
}

/// One layer's rules.
#[derive(Debug, Clone, Default)]
struct FileLayer {
    /// Scoped denies: a file any of them covers is refused.
    deny: Vec<ToolPattern>,
    /// For each tool the layer restricts by scoped patterns only (no unscoped allow), those
    /// patterns: a file must lie within one of each group.
    allow: Vec<Vec<ToolPattern>>,
}

impl FileLayer {
    fn is_empty(&self) -> bool {
        self.deny.is_empty() && self.allow.is_empty()
    }

    fn admits(&self, path: &str) -> bool {
        let covered = |p: &ToolPattern, effect| p.covers_file(path, effect).unwrap_or(false);
        !self.deny.iter().any(|p| covered(p, Effect::Deny))
            && self
                .allow
                .iter()
                .all(|group| group.iter().any(|p| covered(p, Effect::Allow)))
    }
}

impl ToolGate {
    /// The rules every file a search by `tool` (`grep`, `glob`, `list_directory`) visits must
    /// pass: in each layer, the scoped denies of `read_file` and of `tool`, and, where the
    /// layer allows either only through scoped patterns (`Read(src/**)`), those patterns. A
    /// layer that does not allow `read_file` at all adds no allow rule for it: the search
    /// tool's own allow decides. Gathered once; [`FileRules::admits`] judges each file.
    pub fn file_rules(&self, tool: &str) -> FileRules {
        let read = ToolName::new(tool_names::READ_FILE);
        let search = ToolName::new(tool);
        let names: &[&ToolName<'_>] = if search.canonical == read.canonical {
            &[&read]
        } else {
            &[&read, &search]
        };
        let layers = self
            .layers
            .iter()
            .map(|layer| {
                let mut rules = FileLayer::default();
                for name in names {
                    rules.deny.extend(scoped(layer.deny(), name));
                    if let Some(allow) = layer.allow()
                        && allow.name_hit(name, Effect::Allow).is_none()
                    {
                        let group = scoped(allow, name);
                        if !group.is_empty() {
                            rules.allow.push(group);
                        }
                    }
                }
                rules
            })
            .filter(|rules| !rules.is_empty())
            .collect();
        FileRules { layers }
    }
}

/// The files the `Read(...)` denies of `layers` cover, for the shell analysis
/// ([`weft_shell::UnreadablePaths`]); `None` when no layer denies reading any path. A path a
/// deny cannot be compared with counts as covered (the safe mistake: the command asks).
pub(super) fn unreadable_paths(layers: &[Arc<Policy>]) -> Option<UnreadablePaths> {
    let read = ToolName::new(tool_names::READ_FILE);
    let denies: Vec<ToolPattern> = layers
        .iter()
        .flat_map(|layer| scoped(layer.deny(), &read))
        .collect();
    (!denies.is_empty()).then(|| {
        UnreadablePaths::new(move |path| {
            denies
                .iter()
                .any(|p| p.covers_file(path, Effect::Deny).unwrap_or(true))
        })
    })
}

/// The scoped path patterns of `name` in `set`.
fn scoped(set: &PatternSet, name: &ToolName<'_>) -> Vec<ToolPattern> {
    set.scoped_for(name)
        .into_iter()
        .map(|i| set.entry(i).0.clone())
        .filter(ToolPattern::is_path_pattern)
        .collect()
}

impl FileRules {
    /// True when no rule applies: every file passes.
    pub fn is_empty(&self) -> bool {
        self.layers.is_empty()
    }

    /// True when the file reached at `spelled` (absolute, links on the way not resolved) and
    /// really at `real` passes every layer on both paths.
    pub fn admits(&self, spelled: &str, real: &str) -> bool {
        self.layers
            .iter()
            .all(|layer| layer.admits(spelled) && (spelled == real || layer.admits(real)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Origin, PatternContext, Policy};

    fn gate(allow: Option<&[&str]>, deny: &[&str]) -> ToolGate {
        let ctx = PatternContext::new().with_working_dir("/p");
        ToolGate::new([Policy::from_lists(allow, deny, Origin::Session, &ctx).unwrap()])
    }

    #[test]
    fn denies_apply_to_both_paths_and_unscoped_rules_add_nothing() {
        let rules = gate(None, &["Read(.env)", "Read(secrets/**)"]).file_rules("grep");
        assert!(rules.admits("/p/src/a.txt", "/p/src/a.txt"));
        assert!(!rules.admits("/p/.env", "/p/.env"));
        assert!(!rules.admits("/p/src/link", "/p/secrets/key"));
        assert!(!rules.admits("/p/secrets/key", "/p/other"));
        assert!(
            gate(None, &["Read", "exec_shell"])
                .file_rules("grep")
                .is_empty()
        );
        assert!(
            gate(Some(&["Read", "Grep"]), &[])
                .file_rules("grep")
                .is_empty()
        );
        assert!(gate(None, &[]).file_rules("glob").is_empty());
    }

    #[test]
    fn scoped_allows_restrict_and_a_read_not_allowed_at_all_does_not() {
        // Grep allowed everywhere, Read only in src: files outside src are withheld.
        let read_scoped = gate(Some(&["Read(src/**)", "Grep"]), &[]).file_rules("grep");
        assert!(read_scoped.admits("/p/src/a", "/p/src/a"));
        assert!(!read_scoped.admits("/p/docs/a", "/p/docs/a"));
        // No Read at all: the search's own scope decides.
        let grep_only = gate(Some(&["Grep(src)"]), &[]).file_rules("grep");
        assert!(grep_only.admits("/p/src/deep/a", "/p/src/deep/a"));
        assert!(!grep_only.admits("/p/src/link", "/p/.env"));
        // Another tool's rules do not count.
        let other = gate(Some(&["Grep(src/**)", "Glob"]), &[]).file_rules("glob");
        assert!(other.is_empty());
    }

    #[test]
    fn read_denies_make_files_unreadable_to_read_only_commands() {
        use crate::{CallKind, ShellContext};
        let kind = |gate: &ToolGate, command: &str| {
            CallKind::Mutating.with_command(
                "Bash",
                &serde_json::json!({"command": command}),
                gate.shell_context(),
            )
        };
        let shell = ShellContext::new().with_project_root("/p");
        let open = gate(None, &[]).with_shell_context(shell.clone());
        assert_eq!(kind(&open, "cat .env"), CallKind::ReadOnlyCommand);
        let denied = gate(None, &["Read(.env)", "Read(keys/**)"]).with_shell_context(shell);
        assert_eq!(kind(&denied, "cat README.md"), CallKind::ReadOnlyCommand);
        for command in [
            "cat .env",
            "wc -l < .env",
            "head keys/a.pem",
            "cat src/../.env",
        ] {
            assert_eq!(kind(&denied, command), CallKind::Mutating, "{command}");
        }
        // A layer added later (a skill's) brings its own denies into the analysis.
        let ctx = PatternContext::new().with_working_dir("/p");
        let narrowed = open.with_layer(
            Policy::from_lists::<&str>(None, &["Read(notes.txt)"], Origin::Session, &ctx).unwrap(),
        );
        assert_eq!(kind(&narrowed, "cat notes.txt"), CallKind::Mutating);
        assert_eq!(kind(&narrowed, "cat .env"), CallKind::ReadOnlyCommand);
    }

    #[test]
    fn a_path_that_cannot_be_judged_is_refused() {
        // A relative deny without a working directory cannot be compared with an absolute
        // path: the file is refused (which is why the runtime compiles rules with one).
        let policy = Policy::from_lists::<&str>(
            None,
            &["Read(.env)"],
            Origin::Session,
            &PatternContext::new(),
        );
        let rules = ToolGate::new([policy.unwrap()]).file_rules("list_directory");
        assert!(!rules.admits("/p/a", "/p/a"));
    }
}
