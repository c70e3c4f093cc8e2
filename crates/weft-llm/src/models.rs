//! Model strings (`provider/model`, aliases, `inherit`) resolved against the configured
//! providers. An unknown provider is an error, never a guess (SEC-SKILL-05).

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use weft_types::suggest::{closest_names, did_you_mean};

use crate::window::{OLLAMA_DEFAULT_CONTEXT, is_ollama, known_context_window};
use crate::{ChatModel, LlmError, ModelPrice, ProviderConfig, connect};

/// A resolved model: a configured provider and the model id it is sent.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ModelRef {
    /// Configured provider name.
    pub provider: String,
    /// Model id as that provider knows it (may itself contain `/`, as on OpenRouter).
    pub model: String,
}

impl fmt::Display for ModelRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.provider, self.model)
    }
}

/// A model string that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    /// `provider/model` whose provider is not configured.
    #[error(
        "model `{model}`: unknown provider `{provider}` (configured: {known}); add it under `providers` in the config{hint}"
    )]
    UnknownProvider {
        /// The string as written.
        model: String,
        /// The provider part.
        provider: String,
        /// Configured provider names, comma separated (or "none").
        known: String,
        /// `; did you mean ...?` with the closest configured providers, or empty.
        hint: String,
    },
    /// A string with no `provider/` prefix that is not an alias.
    #[error("model `{model}`: expected `provider/model`, `inherit` or an alias ({aliases}){hint}")]
    NoProvider {
        /// The string as written.
        model: String,
        /// The configured aliases, comma separated, or "none is configured".
        aliases: String,
        /// Why a well-known alias is missing, when it is one.
        hint: String,
    },
    /// An empty model id, or an alias that points at itself.
    #[error("model `{model}`: {reason}")]
    Invalid {
        /// The string as written.
        model: String,
        /// Why.
        reason: String,
    },
    /// Nothing chose a model and no default is configured.
    #[error(
        "no model configured: set `model` in the config, WEFT_MODEL, or pass --model provider/model"
    )]
    NoDefault,
}

/// The configured providers, model aliases and default model.
///
/// ```
/// use weft_llm::{ModelCatalog, ProviderConfig, ProviderKind};
///
/// let mut models = ModelCatalog::default();
/// models.add_provider(ProviderConfig::new("ollama", ProviderKind::OpenAi, "http://localhost:11434/v1"));
/// models.add_alias("sonnet", "ollama/qwen3:8b");
/// assert_eq!(models.resolve("sonnet", None).unwrap().to_string(), "ollama/qwen3:8b");
/// assert!(models.resolve("evil/gpt-4o", None).is_err());
/// ```
#[derive(Debug, Clone, Default)]
pub struct ModelCatalog {
    providers: BTreeMap<String, ProviderConfig>,
    aliases: BTreeMap<String, String>,
    default_model: Option<String>,
    /// Prices by `provider/model` or bare model id.
    prices: BTreeMap<String, ModelPrice>,
}

impl ModelCatalog {
    /// Adds (or replaces) a provider under its name.
    pub fn add_provider(&mut self, provider: ProviderConfig) {
        self.providers.insert(provider.name.clone(), provider);
    }

    /// Maps `alias` (e.g. `sonnet`) to a model string.
    pub fn add_alias(&mut self, alias: impl Into<String>, target: impl Into<String>) {
        self.aliases.insert(alias.into(), target.into());
    }

    /// Sets the model used when nothing else chooses one.
    pub fn set_default(&mut self, model: impl Into<String>) {
        self.default_model = Some(model.into());
    }

    /// Prices `model` (`provider/model`, or a bare model id for that model under any
    /// provider) at `price`.
    pub fn set_price(&mut self, model: impl Into<String>, price: ModelPrice) {
        self.prices.insert(model.into(), price);
    }

    /// The configured price of `model`: its `provider/model` entry, else its bare id's.
    pub fn price(&self, model: &ModelRef) -> Option<&ModelPrice> {
        self.prices
            .get(&model.to_string())
            .or_else(|| self.prices.get(&model.model))
    }

    /// The context window of `model` when weft knows it: Ollama's default context for a
    /// model an Ollama server serves, else the published window of a well-known model
    /// ([`known_context_window`]). The configuration's `agent.context_window` beats both.
    pub fn context_window(&self, model: &ModelRef) -> Option<u64> {
        match self.providers.get(&model.provider) {
            Some(p) if is_ollama(&p.name, &p.base_url) => Some(OLLAMA_DEFAULT_CONTEXT),
            _ => known_context_window(&model.model),
        }
    }

    /// The configured providers, by name.
    pub fn providers(&self) -> impl Iterator<Item = &ProviderConfig> {
        self.providers.values()
    }

    /// One provider.
    pub fn provider(&self, name: &str) -> Option<&ProviderConfig> {
        self.providers.get(name)
    }

    /// The aliases, by name.
    pub fn aliases(&self) -> impl Iterator<Item = (&str, &str)> {
        self.aliases.iter().map(|(a, t)| (a.as_str(), t.as_str()))
    }

    /// The default model string as configured (unresolved).
    pub fn default_model(&self) -> Option<&str> {
        self.default_model.as_deref()
    }

    /// True when no provider is configured.
    pub fn is_empty(&self) -> bool {
        self.providers.is_empty()
    }

    /// Resolves the default model.
    pub fn resolve_default(&self) -> Result<ModelRef, ModelError> {
        match &self.default_model {
            Some(model) => self.resolve(model, None),
            None => Err(ModelError::NoDefault),
        }
    }

    /// Resolves a model string: `inherit` takes `inherit` (or the default), an alias is
    /// replaced by its target, and `provider/model` must name a configured provider.
    pub fn resolve(&self, spec: &str, inherit: Option<&ModelRef>) -> Result<ModelRef, ModelError> {
        let written = spec.trim();
        // Claude Code's own aliases read as the alias they stand for.
        let spec = claude_code_alias(written).unwrap_or(written);
        if spec == "inherit" {
            return match inherit {
                Some(model) => Ok(model.clone()),
                None => self.resolve_default(),
            };
        }
        let target = match self.aliases.get(spec) {
            Some(target) if self.aliases.contains_key(target.as_str()) || target == "inherit" => {
                return Err(ModelError::Invalid {
                    model: spec.to_owned(),
                    reason: format!("alias points at another alias `{target}`"),
                });
            }
            Some(target) => target.as_str(),
            None => spec,
        };
        let Some((provider, model)) = target.split_once('/') else {
            if spec.starts_with("claude-")
                && let Some(provider) = self.anthropic_provider()
            {
                // A bare Claude model id (`claude-opus-4-1`), as Claude Code's files write it.
                return Ok(ModelRef {
                    provider: provider.to_owned(),
                    model: spec.to_owned(),
                });
            }
            let hint = if matches!(spec, "haiku" | "sonnet" | "opus") {
                format!("; `{spec}` is defined when an `anthropic` provider is configured")
            } else if spec.starts_with("claude-") {
                "; a Claude model id is served by an `anthropic` provider, and none is configured"
                    .to_owned()
            } else {
                did_you_mean(&self.bare_name_suggestions(spec))
            };
            return Err(ModelError::NoProvider {
                model: written.to_owned(),
                aliases: self.alias_list(),
                hint,
            });
        };
        if model.trim().is_empty() || provider.trim().is_empty() {
            return Err(ModelError::Invalid {
                model: spec.to_owned(),
                reason: "provider and model must both be non-empty".to_owned(),
            });
        }
        if !self.providers.contains_key(provider) {
            let near = closest_names(provider, self.providers.keys().map(String::as_str));
            let suggestions: Vec<String> = near.iter().map(|p| format!("{p}/{model}")).collect();
            return Err(ModelError::UnknownProvider {
                model: spec.to_owned(),
                provider: provider.to_owned(),
                known: self.provider_list(),
                hint: did_you_mean(&suggestions),
            });
        }
        Ok(ModelRef {
            provider: provider.to_owned(),
            model: model.to_owned(),
        })
    }

    /// Builds a client for a resolved model's provider.
    pub fn connect(&self, model: &ModelRef) -> Result<Arc<dyn ChatModel>, LlmError> {
        let provider = self.providers.get(&model.provider).ok_or_else(|| {
            LlmError::Config(format!("provider `{}` is not configured", model.provider))
        })?;
        connect(provider)
    }

    /// What a model name without `provider/` may have meant: the closest aliases, else the
    /// name under each configured provider (`gpt-4o` → `openai/gpt-4o`), at most three.
    fn bare_name_suggestions(&self, spec: &str) -> Vec<String> {
        let aliases = closest_names(spec, self.aliases.keys().map(String::as_str));
        if !aliases.is_empty() {
            return aliases;
        }
        self.providers
            .keys()
            .take(3)
            .map(|p| format!("{p}/{spec}"))
            .collect()
    }

    fn provider_list(&self) -> String {
        if self.providers.is_empty() {
            return "none".to_owned();
        }
        self.providers
            .keys()
            .cloned()
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn alias_list(&self) -> String {
        if self.aliases.is_empty() {
            return "none is configured".to_owned();
        }
        let names: Vec<&str> = self.aliases.keys().map(String::as_str).collect();
        names.join(", ")
    }

    /// The provider that serves bare Claude model ids: the one named `anthropic`, else the
    /// first of kind Anthropic.
    fn anthropic_provider(&self) -> Option<&str> {
        fn anthropic<'a>((name, p): (&'a String, &'a ProviderConfig)) -> Option<&'a str> {
            (p.kind == crate::ProviderKind::Anthropic).then_some(name.as_str())
        }
        self.providers
            .get_key_value("anthropic")
            .and_then(anthropic)
            .or_else(|| self.providers.iter().find_map(anthropic))
    }
}

/// What weft reads Claude Code's own model aliases as: `sonnet[1m]` and `opus[1m]` (the
/// 1M-token context variants, a beta of Anthropic's API) as `sonnet` and `opus`; `opusplan`
/// (Opus while planning, Sonnet otherwise; weft has no planning phase within a turn) as
/// `sonnet`; `default` as `inherit`.
fn claude_code_alias(spec: &str) -> Option<&'static str> {
    match spec {
        "sonnet[1m]" | "opusplan" => Some("sonnet"),
        "opus[1m]" => Some("opus"),
        "default" => Some("inherit"),
        _ => None,
    }
}

/// True for a model string Claude Code's files use that only an Anthropic provider serves:
/// `haiku`, `sonnet`, `opus`, Claude Code's own aliases (`opusplan`, `sonnet[1m]`...) and bare
/// Claude model ids (`claude-opus-4-1`). Where no provider serves one, a skill or agent falls
/// back to the session's model.
pub fn is_claude_model(spec: &str) -> bool {
    let spec = spec.trim();
    let spec = claude_code_alias(spec).unwrap_or(spec);
    matches!(spec, "haiku" | "sonnet" | "opus")
        || (spec.starts_with("claude-") && !spec.contains('/'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ProviderKind;

    fn catalog() -> ModelCatalog {
        let mut c = ModelCatalog::default();
        c.add_provider(ProviderConfig::new(
            "openrouter",
            ProviderKind::OpenAi,
            "https://openrouter.ai/api/v1",
        ));
        c.add_provider(ProviderConfig::new(
            "anthropic",
            ProviderKind::Anthropic,
            "https://api.anthropic.com",
        ));
        c.add_alias("sonnet", "anthropic/claude-sonnet-4-5");
        c.add_alias("loop", "sonnet");
        c
    }

    #[test]
    fn provider_prefix_splits_at_the_first_slash() {
        let m = catalog().resolve("openrouter/meta/llama-3", None).unwrap();
        assert_eq!(m.provider, "openrouter");
        assert_eq!(m.model, "meta/llama-3");
    }

    #[test]
    fn mistyped_models_get_suggestions() {
        let c = catalog();
        assert_eq!(
            c.resolve("opnrouter/meta/llama-3", None)
                .unwrap_err()
                .to_string(),
            "model `opnrouter/meta/llama-3`: unknown provider `opnrouter` (configured: anthropic, openrouter); add it under `providers` in the config; did you mean `openrouter/meta/llama-3`?"
        );
        assert_eq!(
            c.resolve("sonet", None).unwrap_err().to_string(),
            "model `sonet`: expected `provider/model`, `inherit` or an alias (loop, sonnet); did you mean `sonnet`?"
        );
        assert_eq!(
            c.resolve("gpt-4o", None).unwrap_err().to_string(),
            "model `gpt-4o`: expected `provider/model`, `inherit` or an alias (loop, sonnet); did you mean `anthropic/gpt-4o` or `openrouter/gpt-4o`?"
        );
        let none = ModelCatalog::default().resolve("gpt-4o", None).unwrap_err();
        assert_eq!(
            none.to_string(),
            "model `gpt-4o`: expected `provider/model`, `inherit` or an alias (none is configured)"
        );
    }

    #[test]
    fn claude_code_model_values() {
        let c = catalog();
        let r = |spec: &str| c.resolve(spec, None).map(|m| m.to_string());
        assert_eq!(r("claude-opus-4-1").unwrap(), "anthropic/claude-opus-4-1");
        assert_eq!(r("sonnet[1m]").unwrap(), r("sonnet").unwrap());
        assert_eq!(r("opusplan").unwrap(), r("sonnet").unwrap());
        let parent = ModelRef {
            provider: "openrouter".into(),
            model: "x".into(),
        };
        assert_eq!(c.resolve("default", Some(&parent)).unwrap(), parent);
        // Without an Anthropic provider a Claude id cannot be served.
        let none = ModelCatalog::default()
            .resolve("claude-opus-4-1", None)
            .unwrap_err();
        assert_eq!(
            none.to_string(),
            "model `claude-opus-4-1`: expected `provider/model`, `inherit` or an alias (none is configured); a Claude model id is served by an `anthropic` provider, and none is configured"
        );
        assert!(is_claude_model("claude-opus-4-1") && is_claude_model("opusplan"));
        assert!(is_claude_model(" sonnet[1m] ") && is_claude_model("haiku"));
        assert!(!is_claude_model("gpt-4o") && !is_claude_model("anthropic/claude-x"));
    }

    #[test]
    fn windows_and_prices() {
        let mut c = catalog();
        c.add_provider(ProviderConfig::new(
            "local",
            ProviderKind::OpenAi,
            "http://127.0.0.1:11434/v1",
        ));
        let sonnet = c.resolve("sonnet", None).unwrap();
        let openrouter = |m: &str| ModelRef {
            provider: "openrouter".into(),
            model: m.into(),
        };
        let r = |spec: &str| c.resolve(spec, None).unwrap();
        assert_eq!(c.context_window(&sonnet), Some(200_000));
        assert_eq!(c.context_window(&r("local/llama3.1:8b")), Some(4096));
        assert_eq!(c.context_window(&r("openrouter/mystery")), None);
        let price = ModelPrice {
            input: 1.0,
            output: 2.0,
            cache_read: None,
            cache_write: None,
        };
        c.set_price("claude-sonnet-4-5", price);
        c.set_price(
            "openrouter/x",
            ModelPrice {
                input: 9.0,
                ..price
            },
        );
        assert_eq!(c.price(&sonnet), Some(&price));
        assert_eq!(c.price(&openrouter("x")).map(|p| p.input), Some(9.0));
        assert_eq!(c.price(&openrouter("y")), None);
    }

    #[test]
    fn unknown_provider_is_rejected_with_the_known_ones() {
        let err = catalog().resolve("evil/gpt-4o", None).unwrap_err();
        assert_eq!(
            err.to_string(),
            "model `evil/gpt-4o`: unknown provider `evil` (configured: anthropic, openrouter); add it under `providers` in the config"
        );
    }

    #[test]
    fn aliases_and_inherit() {
        let c = catalog();
        assert_eq!(
            c.resolve("sonnet", None).unwrap().to_string(),
            "anthropic/claude-sonnet-4-5"
        );
        let parent = c.resolve("openrouter/x", None).unwrap();
        assert_eq!(c.resolve("inherit", Some(&parent)).unwrap(), parent);
        assert_eq!(c.resolve("inherit", None), Err(ModelError::NoDefault));
        assert!(matches!(
            c.resolve("loop", None),
            Err(ModelError::Invalid { .. })
        ));
        assert!(matches!(
            c.resolve("gpt-4o", None),
            Err(ModelError::NoProvider { .. })
        ));
        assert!(matches!(
            c.resolve("anthropic/", None),
            Err(ModelError::Invalid { .. })
        ));
    }
}
