//! Which scope an operation changes: the user's store (`~/.clawft`) or the project's
//! (`<project>/.clawft`, with the team's declarations in `.claude/settings.json`).

use std::path::{Path, PathBuf};

use weft_install::InstallTarget;
use weft_plugin::PluginStore;

/// The user's or the project's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// `~/.clawft`: the default.
    User,
    /// `<project>/.clawft`, recorded in `<project>/.claude/settings.json` for the team.
    Project,
}

impl Scope {
    /// ` for the user`, ` for the project`.
    pub fn phrase(self) -> &'static str {
        match self {
            Scope::User => " for the user",
            Scope::Project => " for the project",
        }
    }
}

/// A scope's plugin store, its install target (the lock one operation holds, the staging
/// directory trees are built in) and, for the project, where the team's settings are.
#[derive(Debug, Clone)]
pub struct PluginTarget {
    /// Which scope.
    pub scope: Scope,
    /// The store.
    pub store: PluginStore,
    /// The same `.clawft` directory as weft-install sees it.
    pub install: InstallTarget,
    /// The project directory (project scope).
    pub project: Option<PathBuf>,
}

impl PluginTarget {
    /// The user's store, under `home`.
    pub fn user(home: &Path) -> Self {
        let clawft = home.join(".clawft");
        PluginTarget {
            scope: Scope::User,
            store: PluginStore::new(&clawft),
            install: InstallTarget::new(clawft),
            project: None,
        }
    }

    /// The project's store, under `project`.
    pub fn project(project: &Path) -> Self {
        let clawft = project.join(".clawft");
        PluginTarget {
            scope: Scope::Project,
            store: PluginStore::new(&clawft),
            install: InstallTarget::new(clawft),
            project: Some(project.to_path_buf()),
        }
    }

    /// `<project>/.claude/settings.json`, where a project's plugins are declared.
    pub fn shared_settings(&self) -> Option<PathBuf> {
        self.project
            .as_ref()
            .map(|p| p.join(".claude/settings.json"))
    }

    /// Creates `<clawft>/plugins` with a `.gitignore` that keeps the fetched trees out of
    /// commits (the lock and the settings are what a team shares).
    pub(crate) fn prepare(&self) -> Result<(), weft_install::InstallError> {
        let dir = self.store.dir();
        std::fs::create_dir_all(&dir).map_err(|e| weft_install::InstallError::io(&dir, e))?;
        let ignore = dir.join(".gitignore");
        if std::fs::symlink_metadata(&ignore).is_err()
            && let Err(e) = std::fs::write(
                &ignore,
                "# weft's fetched plugins and marketplaces: `weft plugin install` fetches them again\n*\n",
            )
        {
            tracing::debug!(path = %ignore.display(), error = %e, "could not write .gitignore");
        }
        Ok(())
    }
}
