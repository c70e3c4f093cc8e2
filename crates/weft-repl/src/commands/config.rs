//! `/config [key]`: the merged configuration, or one value by dot path; keys redacted.

use async_trait::async_trait;
use serde_json::Value;

use crate::command::{CommandContext, CommandError, CompletionContext, Dispatch, SlashCommand};

/// What a secret is shown as.
const REDACTED: &str = "<redacted>";

/// `value` with every `api_key` replaced by a placeholder (keys never appear in output).
pub fn redact(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let v = if k == "api_key" && !v.is_null() {
                        Value::String(REDACTED.to_owned())
                    } else {
                        redact(v)
                    };
                    (k.clone(), v)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(redact).collect()),
        other => other.clone(),
    }
}

/// The value at dot path `path` (`agent.temperature`, `providers.local.base_url`; array
/// items by index, `tools.deny.0`).
pub fn lookup<'v>(value: &'v Value, path: &str) -> Option<&'v Value> {
    path.split('.').try_fold(value, |v, key| match v {
        Value::Object(map) => map.get(key),
        Value::Array(items) => key.parse::<usize>().ok().and_then(|i| items.get(i)),
        _ => None,
    })
}

/// Every dot path to an object member of `value`, sorted.
pub fn config_keys(value: &Value) -> Vec<String> {
    fn walk(value: &Value, prefix: &str, out: &mut Vec<String>) {
        if let Value::Object(map) = value {
            for (k, v) in map {
                let path = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                walk(v, &path, out);
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(value, "", &mut out);
    out.sort();
    out
}

/// `/config [key]`.
pub(crate) struct ConfigCommand;

#[async_trait]
impl SlashCommand for ConfigCommand {
    fn name(&self) -> &str {
        "config"
    }

    fn description(&self) -> &str {
        "Show the configuration, or one key (dot path)"
    }

    fn usage(&self) -> &str {
        "[key]"
    }

    fn help(&self) -> &str {
        "Prints the merged configuration files as JSON (API keys redacted), or the value at a \
         dot path such as `agent.temperature` or `providers.local.base_url`. The model in \
         effect is shown by /session."
    }

    async fn execute(
        &self,
        args: &str,
        ctx: &mut CommandContext<'_>,
    ) -> Result<Dispatch, CommandError> {
        let shown = redact(&ctx.env.config);
        let value = if args.is_empty() {
            &shown
        } else {
            lookup(&shown, args)
                .ok_or_else(|| CommandError::Usage(format!("no configuration key `{args}`")))?
        };
        let text = match value {
            Value::String(s) => s.clone(),
            other => serde_json::to_string_pretty(other)
                .map_err(|e| CommandError::Usage(e.to_string()))?,
        };
        writeln!(ctx.out, "{text}")?;
        Ok(Dispatch::Handled)
    }

    fn completions(&self, partial: &str, names: &CompletionContext) -> Vec<String> {
        crate::command::starting_with(partial, names.config_keys.iter().map(String::as_str))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn dot_paths_find_values_and_keys_are_redacted() {
        let config = json!({
            "model": "local/m",
            "providers": {"local": {"base_url": "http://x", "api_key": "sk-secret"}},
            "tools": {"deny": ["Bash"]}
        });
        let shown = redact(&config);
        assert_eq!(
            lookup(&shown, "providers.local.api_key"),
            Some(&json!(REDACTED))
        );
        assert_eq!(
            lookup(&shown, "providers.local.base_url"),
            Some(&json!("http://x"))
        );
        assert_eq!(lookup(&shown, "tools.deny.0"), Some(&json!("Bash")));
        assert_eq!(lookup(&shown, "nonexistent.path"), None);
        assert!(!shown.to_string().contains("sk-secret"));
        assert_eq!(
            config_keys(&config),
            [
                "model",
                "providers",
                "providers.local",
                "providers.local.api_key",
                "providers.local.base_url",
                "tools",
                "tools.deny"
            ]
        );
    }
}
