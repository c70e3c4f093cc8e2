//! The model catalog from the configuration and the environment: configured providers,
//! providers the environment implies, which key goes to which endpoint, aliases and the
//! default model. Separate because it is where keys are handed out, a rule of its own.

use std::time::Duration;

use weft_llm::{ApiKey, ModelCatalog, ProviderConfig, ProviderKind, RetryPolicy};

use super::{Config, ConfigError, ProviderFile};

/// Aliases offered when an `anthropic` provider exists and the config does not define them.
const ANTHROPIC_ALIASES: [(&str, &str); 3] = [
    ("haiku", "anthropic/claude-haiku-4-5"),
    ("sonnet", "anthropic/claude-sonnet-4-5"),
    ("opus", "anthropic/claude-opus-4-1"),
];

/// The environment variable a provider of `kind` takes its key from by default:
/// `ANTHROPIC_API_KEY` for Anthropic, `OPENAI_API_KEY` for OpenAI-compatible servers (and
/// the replay provider, which needs none).
pub fn key_variable(kind: ProviderKind) -> &'static str {
    match kind {
        ProviderKind::Anthropic => "ANTHROPIC_API_KEY",
        _ => "OPENAI_API_KEY",
    }
}

/// The environment variable that moves the official endpoint of `kind`:
/// `ANTHROPIC_BASE_URL` or `OPENAI_BASE_URL`.
pub fn base_url_variable(kind: ProviderKind) -> &'static str {
    match kind {
        ProviderKind::Anthropic => "ANTHROPIC_BASE_URL",
        _ => "OPENAI_BASE_URL",
    }
}

impl Config {
    /// The model catalog: configured providers, then providers implied by the environment
    /// (`OPENAI_API_KEY`/`OPENAI_BASE_URL`, `ANTHROPIC_API_KEY`/`ANTHROPIC_BASE_URL`), the
    /// aliases, and the default model (`WEFT_MODEL` beats the file).
    pub fn models(
        &self,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<ModelCatalog, ConfigError> {
        let mut catalog = ModelCatalog::default();
        for (name, p) in &self.file.providers {
            catalog.add_provider(self.provider(name, p, env)?);
        }
        for (name, kind, key_var, url_var) in [
            (
                "openai",
                ProviderKind::OpenAi,
                "OPENAI_API_KEY",
                "OPENAI_BASE_URL",
            ),
            (
                "anthropic",
                ProviderKind::Anthropic,
                "ANTHROPIC_API_KEY",
                "ANTHROPIC_BASE_URL",
            ),
        ] {
            if self.file.providers.contains_key(name) {
                continue;
            }
            let key = env(key_var);
            let url = env(url_var);
            if key.is_none() && url.is_none() {
                continue;
            }
            let mut p = ProviderConfig::new(
                name,
                kind,
                url.unwrap_or_else(|| ProviderConfig::default_base_url(kind).to_owned()),
            );
            p.api_key = key.map(ApiKey::new);
            p.limits = self.file.limits.response_limits();
            catalog.add_provider(p);
        }
        if catalog.provider("anthropic").is_some() {
            for (alias, target) in ANTHROPIC_ALIASES {
                if !self.file.aliases.contains_key(alias) {
                    catalog.add_alias(alias, target);
                }
            }
        }
        for (alias, target) in &self.file.aliases {
            catalog.add_alias(alias, target);
        }
        for (model, price) in &self.file.pricing {
            catalog.set_price(model, *price);
        }
        if let Some(model) = env("WEFT_MODEL").or_else(|| self.file.model.clone()) {
            catalog.set_default(model);
        } else if let Some(only) = single_provider_default(&catalog) {
            catalog.set_default(only);
        }
        Ok(catalog)
    }

    fn provider(
        &self,
        name: &str,
        p: &ProviderFile,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<ProviderConfig, ConfigError> {
        let kind = p.kind.unwrap_or(match name {
            "anthropic" => ProviderKind::Anthropic,
            "replay" => ProviderKind::Replay,
            _ => ProviderKind::OpenAi,
        });
        let (key_var, url_var) = (key_variable(kind), base_url_variable(kind));
        // `OPENAI_BASE_URL` belongs to the provider called `openai` of kind `openai` (and
        // the same for Anthropic), never to a provider that only borrows one of the names.
        let env_url = match (name, kind) {
            ("openai", ProviderKind::OpenAi) | ("anthropic", ProviderKind::Anthropic) => {
                env(url_var)
            }
            _ => None,
        };
        let url_from_env = p.base_url.is_none() && env_url.is_some();
        let base_url = p
            .base_url
            .clone()
            .or(env_url)
            .unwrap_or_else(|| ProviderConfig::default_base_url(kind).to_owned());
        // The environment's key goes where the environment says (its own base URL variable)
        // or to the official endpoint of the key's own service; a provider pointing anywhere
        // else gets a key only by naming it (`api_key` / `api_key_env`).
        let official = kind != ProviderKind::Replay
            && base_url.trim_end_matches('/') == ProviderConfig::default_base_url(kind);
        let mut config = ProviderConfig::new(name, kind, base_url);
        config.limits = self.file.limits.response_limits();
        config.api_key = match (&p.api_key, &p.api_key_env) {
            (Some(key), _) => Some(ApiKey::new(key.clone())),
            // An unset variable makes this provider unusable, not the configuration: a run
            // that uses another provider goes on, one that uses this one says why it cannot.
            (None, Some(var)) => match env(var) {
                Some(key) => Some(ApiKey::new(key)),
                None => {
                    config.unusable = Some(format!("the environment variable {var} is not set"));
                    None
                }
            },
            (None, None) if official || url_from_env => env(key_var).map(ApiKey::new),
            (None, None) => None,
        };
        if let Some(secs) = p.timeout_secs {
            config.timeout = Duration::from_secs(secs.max(1));
        }
        if let Some(retries) = p.max_retries {
            config.retry = RetryPolicy {
                max_retries: retries,
                ..RetryPolicy::default()
            };
        }
        if kind == ProviderKind::Replay {
            let file = p
                .file
                .as_ref()
                .ok_or_else(|| ConfigError::ReplayWithoutFile {
                    provider: name.to_owned(),
                })?;
            let base = self.provider_dirs.get(name).cloned().unwrap_or_default();
            config.replay_file = Some(base.join(file));
        }
        Ok(config)
    }
}

/// The model used with only OpenAI's own API configured and no model named anywhere: a
/// current general model that takes tools, streaming and `temperature` on every account.
pub const OPENAI_DEFAULT_MODEL: &str = "gpt-4.1";

/// The model used with only Anthropic's own API configured and no model named anywhere (the
/// `sonnet` alias).
pub const ANTHROPIC_DEFAULT_MODEL: &str = "claude-sonnet-4-5";

/// With exactly one provider and no default: a replay provider needs no model choice, and
/// OpenAI's or Anthropic's own endpoint gets its documented default. A provider at another
/// address (Ollama, a proxy) serves models weft cannot guess, so it gets none.
fn single_provider_default(catalog: &ModelCatalog) -> Option<String> {
    let mut providers = catalog.providers();
    let only = providers.next()?;
    if providers.next().is_some() {
        return None;
    }
    let official =
        only.base_url.trim_end_matches('/') == ProviderConfig::default_base_url(only.kind);
    let model = match only.kind {
        ProviderKind::Replay => "replay",
        ProviderKind::OpenAi if official => OPENAI_DEFAULT_MODEL,
        ProviderKind::Anthropic if official => ANTHROPIC_DEFAULT_MODEL,
        _ => return None,
    };
    Some(format!("{}/{model}", only.name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ConfigSources;
    use crate::config::tests::{env_of, write};

    #[test]
    fn environment_implies_providers_and_keys_and_weft_model_wins() {
        let config = Config::default();
        let models = config
            .models(&env_of(&[
                ("ANTHROPIC_API_KEY", "sk-ant"),
                ("OPENAI_BASE_URL", "http://localhost:8000/v1"),
                ("WEFT_MODEL", "sonnet"),
            ]))
            .unwrap();
        let anthropic = models.provider("anthropic").unwrap();
        assert_eq!(anthropic.api_key.as_ref().unwrap().expose(), "sk-ant");
        assert_eq!(
            models.provider("openai").unwrap().base_url,
            "http://localhost:8000/v1"
        );
        assert_eq!(
            models.resolve_default().unwrap().to_string(),
            "anthropic/claude-sonnet-4-5"
        );
    }

    #[test]
    fn a_single_well_known_provider_has_a_default_model() {
        let default_of = |env: &'static [(&'static str, &'static str)]| {
            Config::default()
                .models(&env_of(env))
                .unwrap()
                .resolve_default()
                .map(|m| m.to_string())
                .map_err(|e| e.to_string())
        };
        assert_eq!(
            default_of(&[("OPENAI_API_KEY", "sk")]).unwrap(),
            "openai/gpt-4.1"
        );
        assert_eq!(
            default_of(&[("ANTHROPIC_API_KEY", "sk")]).unwrap(),
            "anthropic/claude-sonnet-4-5"
        );
        // Two providers, or a server weft cannot know the models of: the user chooses.
        assert!(default_of(&[("OPENAI_API_KEY", "a"), ("ANTHROPIC_API_KEY", "b")]).is_err());
        assert!(default_of(&[("OPENAI_BASE_URL", "http://localhost:11434/v1")]).is_err());
        assert_eq!(
            default_of(&[("OPENAI_API_KEY", "sk"), ("WEFT_MODEL", "openai/o3")]).unwrap(),
            "openai/o3"
        );
    }

    #[test]
    fn a_custom_provider_never_receives_a_well_known_key() {
        let tmp = tempfile::tempdir().unwrap();
        let user = write(
            tmp.path(),
            "c.json",
            r#"{"providers":{"proxy":{"base_url":"http://evil.example/v1"}}}"#,
        );
        let config = Config::load(&ConfigSources {
            user: Some(user),
            ..Default::default()
        })
        .unwrap();
        let models = config
            .models(&env_of(&[("OPENAI_API_KEY", "sk-secret")]))
            .unwrap();
        assert!(models.provider("proxy").unwrap().api_key.is_none());
    }

    #[test]
    fn an_environment_key_goes_only_to_its_official_endpoint_or_where_named() {
        let tmp = tempfile::tempdir().unwrap();
        let user = write(
            tmp.path(),
            "c.json",
            r#"{"providers":{
                "anthropic":{"kind":"openai","base_url":"http://evil.example/v1"},
                "openai":{"base_url":"http://localhost:11434/v1/"},
                "work":{"kind":"openai","base_url":"https://api.openai.com/v1/"},
                "claude":{"kind":"anthropic"},
                "named":{"base_url":"http://proxy.example","api_key_env":"OPENAI_API_KEY"}
            }}"#,
        );
        let config = Config::load(&ConfigSources {
            user: Some(user),
            ..Default::default()
        })
        .unwrap();
        let models = config
            .models(&env_of(&[
                ("OPENAI_API_KEY", "sk-openai"),
                ("ANTHROPIC_API_KEY", "sk-ant"),
                (
                    "ANTHROPIC_BASE_URL",
                    "http://also-not-for-a-misnamed-provider",
                ),
            ]))
            .unwrap();
        let key = |name: &str| {
            models
                .provider(name)
                .unwrap()
                .api_key
                .as_ref()
                .map(|k| k.expose().to_owned())
        };
        // Named `anthropic`, speaking OpenAI to another host: neither key, nor the URL.
        assert_eq!(key("anthropic"), None);
        assert_eq!(
            models.provider("anthropic").unwrap().base_url,
            "http://evil.example/v1"
        );
        // `openai` pointed elsewhere in a file: the key stays home.
        assert_eq!(key("openai"), None);
        // Any name at the official endpoint of its kind gets that kind's key.
        assert_eq!(key("work").as_deref(), Some("sk-openai"));
        assert_eq!(key("claude").as_deref(), Some("sk-ant"));
        // Naming the variable sends it wherever the provider points.
        assert_eq!(key("named").as_deref(), Some("sk-openai"));
        // The environment's own URL variable carries the environment's key with it.
        let config = Config::load(&ConfigSources {
            explicit: Some(write(
                tmp.path(),
                "o.json",
                r#"{"providers":{"openai":{"timeout_secs":5}}}"#,
            )),
            ..Default::default()
        })
        .unwrap();
        let models = config
            .models(&env_of(&[
                ("OPENAI_API_KEY", "sk-openai"),
                ("OPENAI_BASE_URL", "http://localhost:8000/v1"),
            ]))
            .unwrap();
        let openai = models.provider("openai").unwrap();
        assert_eq!(openai.base_url, "http://localhost:8000/v1");
        assert_eq!(openai.api_key.as_ref().unwrap().expose(), "sk-openai");
    }

    #[test]
    fn limits_reach_every_provider_configured_or_implied() {
        let tmp = tempfile::tempdir().unwrap();
        let config = Config::load(&ConfigSources {
            explicit: Some(write(
                tmp.path(),
                "l.json",
                r#"{"limits":{"text_bytes":1000,"event_bytes":0},"providers":{"local":{"base_url":"http://127.0.0.1:1/v1"}}}"#,
            )),
            ..Default::default()
        })
        .unwrap();
        let models = config
            .models(&env_of(&[("ANTHROPIC_API_KEY", "sk-ant")]))
            .unwrap();
        let expected = weft_llm::ResponseLimits {
            text_bytes: 1000,
            event_bytes: 1,
            ..weft_llm::ResponseLimits::default()
        };
        assert_eq!(models.provider("local").unwrap().limits, expected);
        assert_eq!(models.provider("anthropic").unwrap().limits, expected);
        let unknown = Config::load(&ConfigSources {
            explicit: Some(write(tmp.path(), "u.json", r#"{"limits":{"text":1}}"#)),
            ..Default::default()
        });
        assert!(unknown.is_err());
    }

    #[test]
    fn replay_file_is_relative_to_its_config() {
        let tmp = tempfile::tempdir().unwrap();
        let c = write(
            tmp.path(),
            "c.json",
            r#"{"providers":{"demo":{"kind":"replay","file":"rec.jsonl"}}}"#,
        );
        let config = Config::load(&ConfigSources {
            explicit: Some(c),
            ..Default::default()
        })
        .unwrap();
        let models = config.models(&env_of(&[])).unwrap();
        assert_eq!(
            models.provider("demo").unwrap().replay_file.as_deref(),
            Some(tmp.path().join("rec.jsonl").as_path())
        );
        assert_eq!(models.resolve_default().unwrap().to_string(), "demo/replay");
    }
}
