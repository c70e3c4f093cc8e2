//! An installed plugin named by a person (`name@marketplace`, or a name only one installed
//! plugin has) and switching it on or off: what `weft plugin enable|disable|update|remove`
//! and the REPL's `/plugin` share, so the two resolve names and scopes alike.

use std::fmt;

use weft_plugin::{PluginScope, PluginSet, split_id};

use crate::error::MarketplaceError;
use crate::manage::{set_claude_code_enabled, set_enabled};
use crate::target::{PluginTarget, Scope};

/// The plugin a name stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedPlugin {
    /// `name@marketplace`.
    pub id: String,
    /// Who installed it, when it is in the set; `None` for a full id the set does not list
    /// (the store then says whether it is installed).
    pub scope: Option<PluginScope>,
}

impl NamedPlugin {
    /// True when the project's store holds it (or, for an id the set does not list, when
    /// the project's store was asked for).
    pub fn in_project(&self, project_only: bool) -> bool {
        match self.scope {
            Some(scope) => scope == PluginScope::Project,
            None => project_only,
        }
    }
}

/// The installed plugin `id` stands for: the plugin of that exact id, else the only plugin
/// named `id`; with `project_only`, among the project's plugins only. A full id that no
/// installed plugin has is returned as it is, for the store to refuse.
pub fn find_installed(
    set: &PluginSet,
    id: &str,
    project_only: bool,
) -> Result<NamedPlugin, MarketplaceError> {
    let candidates = || {
        set.plugins
            .iter()
            .filter(move |p| !project_only || p.scope == PluginScope::Project)
    };
    let found = candidates().find(|p| p.id == id).or_else(|| {
        let mut named = candidates().filter(|p| p.name == id);
        match (named.next(), named.next()) {
            (Some(p), None) => Some(p),
            _ => None,
        }
    });
    match found {
        Some(p) => Ok(NamedPlugin {
            id: p.id.clone(),
            scope: Some(p.scope),
        }),
        None if split_id(id).is_some() => Ok(NamedPlugin {
            id: id.to_owned(),
            scope: None,
        }),
        None => Err(MarketplaceError::NoSuchPlugin {
            name: id.to_owned(),
            candidates: candidates()
                .filter(|p| p.name == id)
                .map(|p| p.id.clone())
                .collect(),
        }),
    }
}

/// A plugin switched on or off.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Switched {
    /// `name@marketplace`.
    pub id: String,
    /// On or off.
    pub on: bool,
    /// The store that records it.
    pub scope: Scope,
    /// Claude Code installed it: switched for weft only.
    pub claude_code: bool,
    /// Enabled in a project that is not trusted: not used until it is.
    pub waits_for_trust: bool,
}

impl fmt::Display for Switched {
    /// `Enabled fmt@acme for the project; it is not used until the project is trusted`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verb = if self.on { "Enabled" } else { "Disabled" };
        let phrase = if self.claude_code {
            " for weft (Claude Code's own settings are unchanged)"
        } else {
            self.scope.phrase()
        };
        write!(f, "{verb} {}{phrase}", self.id)?;
        if self.waits_for_trust {
            write!(f, "; it is not used until the project is trusted")?;
        }
        Ok(())
    }
}

/// The user's and the project's stores, when there are: where a named plugin is switched.
#[derive(Debug, Clone, Default)]
pub struct PluginTargets {
    /// `~/.clawft` (none without a home directory).
    pub user: Option<PluginTarget>,
    /// `<project>/.clawft` (none without a project).
    pub project: Option<PluginTarget>,
    /// Whether the project is trusted.
    pub project_trusted: bool,
}

impl PluginTargets {
    /// The store of `scope`, or why there is none.
    pub fn of(&self, scope: Scope) -> Result<&PluginTarget, MarketplaceError> {
        match scope {
            Scope::User => self.user.as_ref(),
            Scope::Project => self.project.as_ref(),
        }
        .ok_or(MarketplaceError::NoStore(scope))
    }

    /// Switches the installed plugin `id` stands for on or off (see [`find_installed`]): a
    /// plugin weft installed in its store (and, for the project, in `.claude/settings.json`),
    /// one Claude Code installed for weft only. Takes effect when plugins are next read (the
    /// next session).
    pub fn switch(
        &self,
        set: &PluginSet,
        id: &str,
        project_only: bool,
        on: bool,
    ) -> Result<Switched, MarketplaceError> {
        let named = find_installed(set, id, project_only)?;
        if matches!(named.scope, Some(PluginScope::ClaudeCode(_))) {
            set_claude_code_enabled(self.of(Scope::User)?, &named.id, on)?;
            return Ok(Switched {
                id: named.id,
                on,
                scope: Scope::User,
                claude_code: true,
                waits_for_trust: false,
            });
        }
        let scope = if named.in_project(project_only) {
            Scope::Project
        } else {
            Scope::User
        };
        set_enabled(self.of(scope)?, &named.id, on)?;
        Ok(Switched {
            id: named.id,
            on,
            scope,
            claude_code: false,
            waits_for_trust: on && scope == Scope::Project && !self.project_trusted,
        })
    }
}
