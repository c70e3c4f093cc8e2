//! `/config [--origin] [key]`: the configuration in effect (as `weft config show`), or one
//! value by dot path; with `--origin`, where each value came from.

use async_trait::async_trait;
use serde_json::Value;

use weft_term::fit_table;
use weft_types::suggest::{closest_names, did_you_mean};

use crate::command::{CommandContext, CommandError, CompletionContext, Dispatch, SlashCommand};

/// What a secret is shown as.
const REDACTED: &str = "<redacted>";

/// `value` with every `api_key` replaced by a placeholder (keys never appear in output). A
/// key already masked (`sk-…wxyz`, as the effective configuration shows keys) is kept.
pub fn redact(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let masked = v.as_str().is_some_and(|s| s.contains('…'));
                    let v = if k == "api_key" && !v.is_null() && !masked {
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

/// The error for a configuration key that is not in effect: `no configuration key `modle``,
/// with the closest of `known` (dot paths; their parents are candidates too, so `agnt`
/// finds `agent`). `weft config show` and `/config` say the same.
///
/// ```
/// use weft_repl::unknown_key;
///
/// let known = ["model", "agent.temperature"];
/// assert_eq!(
///     unknown_key("modle", known),
///     "no configuration key `modle`; did you mean `model`?"
/// );
/// assert_eq!(unknown_key("agnt", known), "no configuration key `agnt`; did you mean `agent`?");
/// ```
pub fn unknown_key<'a>(key: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    let mut candidates: Vec<&str> = Vec::new();
    for dotted in known {
        // `a.b.c` offers `a`, `a.b` and `a.b.c`.
        for (i, _) in dotted.match_indices('.') {
            candidates.push(&dotted[..i]);
        }
        candidates.push(dotted);
    }
    candidates.sort_unstable();
    candidates.dedup();
    format!(
        "no configuration key `{key}`{}",
        did_you_mean(&closest_names(key, candidates))
    )
}

/// `/config [key]`.
pub(crate) struct ConfigCommand;

#[async_trait]
impl SlashCommand for ConfigCommand {
    fn name(&self) -> &str {
        "config"
    }

    fn description(&self) -> &str {
        "Show the configuration in effect, or one key (dot path)"
    }

    fn usage(&self) -> &str {
        "[--origin] [key]"
    }

    fn help(&self) -> &str {
        "Prints the configuration in effect as JSON, as `weft config show` does: the files, the \
         environment (OPENAI_API_KEY, WEFT_MODEL, ...) and the defaults merged, API keys masked; \
         or the value at a dot path such as `agent.temperature` or `providers.local.base_url`. \
         With --origin, a table of each value and the file, environment variable or default it \
         came from. The model of this session is shown by /session."
    }

    async fn execute(
        &self,
        args: &str,
        ctx: &mut CommandContext<'_>,
    ) -> Result<Dispatch, CommandError> {
        if let Some(key) = args.strip_prefix("--origin") {
            return origins(key.trim(), ctx);
        }
        let shown = redact(&ctx.env.config);
        let value = if args.is_empty() {
            &shown
        } else {
            lookup(&shown, args).ok_or_else(|| {
                let keys = config_keys(&shown);
                CommandError::Usage(unknown_key(args, keys.iter().map(String::as_str)))
            })?
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
        if let Some(rest) = partial.strip_prefix("--origin ") {
            return crate::command::starting_with(
                rest,
                names.config_keys.iter().map(String::as_str),
            )
            .into_iter()
            .map(|k| format!("--origin {k}"))
            .collect();
        }
        crate::command::starting_with(partial, names.config_keys.iter().map(String::as_str))
    }
}

/// `/config --origin [key]`: the rows the CLI prepared (`weft config show --origin`'s).
fn origins(key: &str, ctx: &mut CommandContext<'_>) -> Result<Dispatch, CommandError> {
    let rows: Vec<Vec<String>> = ctx
        .env
        .config_origins
        .iter()
        .filter(|row| {
            let k = row.first().map(String::as_str).unwrap_or_default();
            key.is_empty() || k == key || k.starts_with(&format!("{key}."))
        })
        .cloned()
        .collect();
    if rows.is_empty() {
        let keys = ctx.env.config_origins.iter().filter_map(|row| row.first());
        return Err(CommandError::Usage(unknown_key(
            key,
            keys.map(String::as_str),
        )));
    }
    write!(ctx.out, "{}", fit_table(&ORIGIN_HEADER, &rows, ctx.width))?;
    Ok(Dispatch::Handled)
}

/// The columns of `/config --origin`.
const ORIGIN_HEADER: [&str; 3] = ["KEY", "VALUE", "ORIGIN"];

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
