//! Hot reload: watch every root and publish a new snapshot shortly after a skill file is
//! created, changed or deleted.

use std::sync::{Arc, Weak};
use std::time::Duration;

use notify::RecursiveMode;
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};

use crate::error::SkillError;
use crate::registry::{SkillRegistry, Snapshot};

/// How long the watcher waits for a burst of file events to settle before reloading.
pub const DEFAULT_DEBOUNCE: Duration = Duration::from_millis(100);

/// Keeps a registry in sync with its roots while alive; dropping it stops watching.
pub struct RegistryWatcher {
    _debouncer: Debouncer<notify::RecommendedWatcher, RecommendedCache>,
    watched: Vec<std::path::PathBuf>,
}

impl std::fmt::Debug for RegistryWatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RegistryWatcher")
            .field("watched", &self.watched)
            .finish_non_exhaustive()
    }
}

impl RegistryWatcher {
    /// The root directories being watched (roots that did not exist when watching started
    /// are not watched; call [`SkillRegistry::reload`] after creating one).
    pub fn watched(&self) -> &[std::path::PathBuf] {
        &self.watched
    }
}

impl SkillRegistry {
    /// Watches every existing root and reloads after changes settle for `debounce`.
    ///
    /// The watcher holds only a weak reference: it stops reloading once the registry is
    /// dropped. Broken files keep their last good version (see [`SkillRegistry::reload`]).
    pub fn watch(self: &Arc<Self>, debounce: Duration) -> Result<RegistryWatcher, SkillError> {
        self.watch_with(debounce, |_| {})
    }

    /// As [`watch`](Self::watch), calling `on_reload` with every snapshot it publishes.
    pub fn watch_with(
        self: &Arc<Self>,
        debounce: Duration,
        on_reload: impl Fn(&Snapshot) + Send + 'static,
    ) -> Result<RegistryWatcher, SkillError> {
        let registry: Weak<SkillRegistry> = Arc::downgrade(self);
        let handler = move |result: DebounceEventResult| match result {
            Ok(events) if events.is_empty() => {}
            Ok(events) => {
                let Some(registry) = registry.upgrade() else {
                    return;
                };
                tracing::debug!(events = events.len(), "skill files changed; reloading");
                let snapshot = registry.reload();
                on_reload(&snapshot);
            }
            Err(errors) => {
                for e in errors {
                    tracing::warn!(error = %e, "file watcher error");
                }
            }
        };
        let mut debouncer =
            new_debouncer(debounce, None, handler).map_err(|e| SkillError::Watch(e.to_string()))?;
        let mut watched = Vec::new();
        for root in &self.config().roots {
            if !root.path.is_dir() {
                continue;
            }
            debouncer
                .watch(&root.path, RecursiveMode::Recursive)
                .map_err(|e| SkillError::Watch(format!("{}: {e}", root.path.display())))?;
            watched.push(root.path.clone());
        }
        Ok(RegistryWatcher {
            _debouncer: debouncer,
            watched,
        })
    }
}
