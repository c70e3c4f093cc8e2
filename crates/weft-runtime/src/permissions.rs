//! The `permissions` section of the configuration: the permission mode and the pre-approval
//! patterns, and where each may come from (docs/PERMISSIONS.md).
//!
//! `bypass` turns prompts and the sandbox off, so only the person running weft may choose it:
//! on the command line (`--permission-mode`, `--config FILE`) or in their own
//! `~/.clawft/config.json`, never in a project's file, trusted or not (`user_only.rs`). An
//! untrusted project cannot set `permissions` at all: it is not among the keys `trust.rs` lets
//! one set.

use std::path::Path;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use weft_permissions::{Origin, PatternContext, PatternSet, PreApproval};
use weft_types::PermissionMode;

use crate::error::UsageError;

/// `permissions` in `config.json`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PermissionSettings {
    /// `ask` (the default), `accept-edits`, `plan`, `auto`, `bypass` or `dont-ask` (Claude
    /// Code's spellings too); `--permission-mode` beats it.
    #[serde(default, deserialize_with = "named_mode")]
    pub mode: Option<PermissionMode>,
    /// Calls that run without asking: tool patterns (`Bash(cargo test:*)`, `Edit(src/**)`,
    /// `WebFetch(domain:docs.rs)`, `github__get_issue`), judged by the same analyser as
    /// `tools.deny`.
    #[serde(default)]
    pub allow: Vec<String>,
}

impl PermissionSettings {
    /// The mode in effect: `cli` (the command line) beats the configuration, else `ask`.
    pub fn mode(&self, cli: Option<PermissionMode>) -> PermissionMode {
        cli.or(self.mode).unwrap_or_default()
    }

    /// `allow` compiled; relative path patterns start at `base` (the project).
    pub fn pre_approval(&self, base: &Path) -> Result<PreApproval, UsageError> {
        self.pre_approval_with(base, &PatternSet::new())
    }

    /// `allow` compiled with `extra` patterns (Claude Code's `permissions.allow`, already
    /// compiled with their own origins) added.
    pub fn pre_approval_with(
        &self,
        base: &Path,
        extra: &PatternSet,
    ) -> Result<PreApproval, UsageError> {
        let ctx = project_pattern_context(base);
        let origin = Origin::Other("`permissions.allow` in the configuration".to_owned());
        let mut set = PatternSet::compile(&self.allow, &origin, &ctx)
            .map_err(|e| UsageError::caused("config `permissions.allow`", e))?;
        set.extend_from(extra);
        Ok(PreApproval::new(set).with_shell_context(ctx.shell_context()))
    }
}

/// `permissions.mode`, read by [`PermissionMode`]'s own parser; a misspelt mode is an error of
/// the configuration that names the key.
fn named_mode<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<PermissionMode>, D::Error> {
    Option::<PermissionMode>::deserialize(deserializer)
        .map_err(|e| D::Error::custom(format_args!("`permissions.mode`: {e}")))
}

/// What the configuration's patterns (`tools.deny`, `permissions.allow`, a `--deny` list) are
/// compiled with: `base` (the project, else the current directory; absolute) as the project
/// and the working directory, so `Read(.env)` is `<base>/.env` and compares with a relative
/// or an absolute path alike.
pub fn project_pattern_context(base: &Path) -> PatternContext {
    match base.to_str() {
        Some(dir) => PatternContext::new()
            .with_project_dir(dir)
            .with_working_dir(dir),
        None => PatternContext::new(),
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::{Config, ConfigSources};

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    fn load(sources: &ConfigSources) -> PermissionSettings {
        Config::load(sources).unwrap().file.permissions
    }

    #[test]
    fn a_project_file_never_sets_bypass_and_an_untrusted_one_sets_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let user = write(
            tmp.path(),
            "u.json",
            r#"{"permissions":{"mode":"accept-edits","allow":["Bash(git status:*)"]}}"#,
        );
        let project = write(
            tmp.path(),
            "p.json",
            r#"{"permissions":{"mode":"bypassPermissions","allow":["Bash"]}}"#,
        );
        let untrusted = ConfigSources {
            user: Some(user.clone()),
            project: Some(project.clone()),
            ..Default::default()
        };
        let settings = load(&untrusted);
        assert_eq!(settings.mode, Some(PermissionMode::AcceptEdits));
        assert_eq!(settings.allow, ["Bash(git status:*)"]);
        // Trusted: its patterns count, its bypass does not.
        let trusted = load(&ConfigSources {
            trust_project: true,
            ..untrusted.clone()
        });
        assert_eq!(trusted.mode, Some(PermissionMode::AcceptEdits));
        assert_eq!(trusted.allow, ["Bash"]);
        // A trusted project may choose another mode.
        let plan = write(
            tmp.path(),
            "plan.json",
            r#"{"permissions":{"mode":"plan"}}"#,
        );
        let planned = load(&ConfigSources {
            project: Some(plan),
            trust_project: true,
            ..untrusted.clone()
        });
        assert_eq!(planned.mode(None), PermissionMode::Plan);
        // The user's own file and `--config FILE` may choose bypass.
        let explicit = write(tmp.path(), "x.json", r#"{"permissions":{"mode":"bypass"}}"#);
        let chosen = load(&ConfigSources {
            explicit: Some(explicit),
            ..untrusted
        });
        assert_eq!(chosen.mode(None), PermissionMode::Bypass);
        let own = write(
            tmp.path(),
            "own.json",
            r#"{"permissions":{"mode":"bypass"}}"#,
        );
        let mine = load(&ConfigSources {
            user: Some(own),
            ..Default::default()
        });
        assert_eq!(mine.mode(None), PermissionMode::Bypass);
    }

    #[test]
    fn the_command_line_beats_the_configuration_and_bad_values_are_errors() {
        let settings = PermissionSettings {
            mode: Some(PermissionMode::Auto),
            allow: vec!["Bash(git log:*".into()],
        };
        assert_eq!(settings.mode(None), PermissionMode::Auto);
        assert_eq!(
            settings.mode(Some(PermissionMode::Plan)),
            PermissionMode::Plan
        );
        assert_eq!(
            PermissionSettings::default().mode(None),
            PermissionMode::Ask
        );
        // A mode that is none is an error of the file, naming the key.
        let tmp = tempfile::tempdir().unwrap();
        let bad = write(tmp.path(), "bad.json", r#"{"permissions":{"mode":"yolo"}}"#);
        let err = Config::load(&ConfigSources {
            user: Some(bad),
            ..Default::default()
        })
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("`permissions.mode`: unknown permission mode `yolo`"),
            "{err}"
        );
        let err = settings
            .pre_approval(Path::new("/p"))
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("config `permissions.allow`: "), "{err}");
    }
}
