//! Resolved models and one shared client per provider, so a session that switches agents (or
//! spawns subagents) reuses connections and a replay recording keeps its place.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use weft_llm::{ChatModel, LlmError, ModelCatalog, ModelError, ModelRef};

/// Claude Code's model aliases: a definition naming one that no provider serves runs on the
/// session's model instead (with a notice), so a Claude Code agent or skill works anywhere.
pub const WELL_KNOWN_ALIASES: [&str; 3] = ["haiku", "sonnet", "opus"];

/// The configured models plus the clients built so far.
#[derive(Default)]
pub struct ModelPool {
    catalog: ModelCatalog,
    clients: Mutex<HashMap<String, Arc<dyn ChatModel>>>,
}

impl std::fmt::Debug for ModelPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModelPool")
            .field("catalog", &self.catalog)
            .finish_non_exhaustive()
    }
}

impl ModelPool {
    /// A pool over `catalog`.
    pub fn new(catalog: ModelCatalog) -> Self {
        Self {
            catalog,
            clients: Mutex::new(HashMap::new()),
        }
    }

    /// Uses `client` for every model of `provider` (tests, embedders with their own client).
    #[must_use]
    pub fn with_client(self, provider: impl Into<String>, client: Arc<dyn ChatModel>) -> Self {
        self.clients
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(provider.into(), client);
        self
    }

    /// The configuration.
    pub fn catalog(&self) -> &ModelCatalog {
        &self.catalog
    }

    /// Resolves a model string (see [`ModelCatalog::resolve`]); a provider with an injected
    /// client counts as configured.
    pub fn resolve(&self, spec: &str, inherit: Option<&ModelRef>) -> Result<ModelRef, ModelError> {
        match self.catalog.resolve(spec, inherit) {
            Err(ModelError::UnknownProvider { provider, .. }) if self.has_client(&provider) => {
                let model = spec.split_once('/').map_or(spec, |(_, m)| m);
                Ok(ModelRef {
                    provider,
                    model: model.to_owned(),
                })
            }
            other => other,
        }
    }

    /// The default model (see [`ModelCatalog::resolve_default`]); a provider with an injected
    /// client counts as configured, so the default may name it.
    pub fn resolve_default(&self) -> Result<ModelRef, ModelError> {
        match self.catalog.default_model() {
            Some(model) => self.resolve(model, None),
            None => Err(ModelError::NoDefault),
        }
    }

    /// The model chosen by, in order: an explicit choice, the agent's model, the default.
    pub fn choose(
        &self,
        explicit: Option<&str>,
        agent: Option<&str>,
        inherit: Option<&ModelRef>,
    ) -> Result<ModelRef, ModelError> {
        match explicit.or(agent) {
            Some(spec) => self.resolve(spec, inherit),
            None => match inherit {
                Some(parent) => Ok(parent.clone()),
                None => self.resolve_default(),
            },
        }
    }

    /// Resolves a definition's `model:` (an agent's, a skill's, a spawn's) for `owner` (e.g.
    /// "agent `explorer`"): as [`resolve`](Self::resolve), except that a well-known alias
    /// (`haiku`, `sonnet`, `opus`) that no configured provider serves falls back to `inherit`
    /// (the session's model), else the default, with a one-line notice saying so. An unknown
    /// provider stays an error (SEC-SKILL-05: never a guess).
    pub fn resolve_or_fallback(
        &self,
        spec: &str,
        inherit: Option<&ModelRef>,
        owner: &str,
    ) -> Result<(ModelRef, Option<String>), ModelError> {
        match self.resolve(spec, inherit) {
            Err(ModelError::NoProvider { .. }) if weft_llm::is_claude_model(spec) => {
                let fallback = match inherit {
                    Some(model) => model.clone(),
                    None => self.resolve_default()?,
                };
                let notice = format!(
                    "{owner} asks for model `{}`, which no configured provider serves (an `anthropic` provider or an alias in the config would); using {fallback}",
                    spec.trim()
                );
                // Shown to the user as the notice; logged at info so it is not said twice.
                tracing::info!(%owner, model = %spec.trim(), %fallback, "model alias not served; falling back");
                Ok((fallback, Some(notice)))
            }
            other => other.map(|m| (m, None)),
        }
    }

    /// [`choose`](Self::choose) where the agent's model (not an explicit choice) falls back as
    /// [`resolve_or_fallback`](Self::resolve_or_fallback) says; returns the notice too.
    pub fn choose_with_fallback(
        &self,
        explicit: Option<&str>,
        agent: Option<&str>,
        inherit: Option<&ModelRef>,
        owner: &str,
    ) -> Result<(ModelRef, Option<String>), ModelError> {
        match (explicit, agent) {
            (Some(spec), _) => self.resolve(spec, inherit).map(|m| (m, None)),
            (None, Some(spec)) => self.resolve_or_fallback(spec, inherit, owner),
            (None, None) => self.choose(None, None, inherit).map(|m| (m, None)),
        }
    }

    /// The client for `model`'s provider, built on first use.
    pub fn client(&self, model: &ModelRef) -> Result<Arc<dyn ChatModel>, LlmError> {
        let mut clients = self.clients.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(client) = clients.get(&model.provider) {
            return Ok(Arc::clone(client));
        }
        let client = self.catalog.connect(model)?;
        clients.insert(model.provider.clone(), Arc::clone(&client));
        Ok(client)
    }

    fn has_client(&self, provider: &str) -> bool {
        self.clients
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .contains_key(provider)
    }
}
