//! What a project's configuration file never sets, trusted or not: the choices that lift the
//! boundary weft keeps around what the model runs.
//!
//! * `permissions.mode: bypass` turns prompts and the sandbox off.
//! * `sandbox.writable_roots`, `sandbox.network: true`, `sandbox.env_passthrough`,
//!   `sandbox.required: false` and `sandbox.enabled: false` widen the sandbox or remove it.
//!
//! Trusting a project lets its file choose models, limits, tools and `auto` mode; it does not
//! let a checkout decide that commands may write anywhere, reach the network or see your keys.
//! These come only from the user's own `~/.clawft/config.json` or the command line (`--config
//! FILE`, `--permission-mode`); in a project file they are dropped with a warning naming the
//! key. `sandbox.deny_read` can only grow: every file adds to the list (`config::merge`).

use std::path::Path;

use serde_json::Value;
use weft_types::PermissionMode;

use crate::trust::IgnoredKey;

/// Why a sandbox key of a project file is dropped.
const WIDENS: &str =
    "it widens the sandbox, which only ~/.clawft/config.json or the command line may do";

/// The `sandbox` keys a project may not set, each with the one value it may (the narrowing
/// one; `None`: no value at all but an empty list).
const SANDBOX_KEYS: [(&str, Option<bool>); 5] = [
    ("enabled", Some(true)),
    ("required", Some(true)),
    ("network", Some(false)),
    ("writable_roots", None),
    ("env_passthrough", None),
];

/// Drops from a project's file (`value`, read from `path`) every key only the user may set,
/// warning about each; returns the sandbox keys dropped.
pub(crate) fn drop_user_only_keys(value: &mut Value, path: &Path) -> Vec<IgnoredKey> {
    drop_project_bypass(value, path);
    let ignored = drop_sandbox_widening(value);
    for key in &ignored {
        tracing::warn!(
            file = %path.display(),
            "project config key `{}` ignored: {}",
            key.key,
            key.reason
        );
    }
    ignored
}

/// Drops `permissions.mode: bypass`: bypass is the user's choice alone.
fn drop_project_bypass(value: &mut Value, path: &Path) {
    let Some(permissions) = value.get_mut("permissions").and_then(Value::as_object_mut) else {
        return;
    };
    let bypass = permissions
        .get("mode")
        .and_then(Value::as_str)
        .and_then(|m| m.parse::<PermissionMode>().ok())
        == Some(PermissionMode::Bypass);
    if bypass {
        permissions.remove("mode");
        tracing::warn!(
            file = %path.display(),
            "project config `permissions.mode: bypass` ignored: bypass is accepted only from the command line or ~/.clawft/config.json"
        );
    }
}

/// Drops the `sandbox` keys that would widen it (in [`SANDBOX_KEYS`] order).
fn drop_sandbox_widening(value: &mut Value) -> Vec<IgnoredKey> {
    let Some(sandbox) = value.get_mut("sandbox").and_then(Value::as_object_mut) else {
        return Vec::new();
    };
    let mut ignored = Vec::new();
    for (key, allowed) in SANDBOX_KEYS {
        let Some(given) = sandbox.get(key) else {
            continue;
        };
        let harmless = match allowed {
            Some(flag) => given == &Value::Bool(flag),
            None => given.as_array().is_some_and(Vec::is_empty),
        };
        if !harmless {
            sandbox.remove(key);
            ignored.push(IgnoredKey {
                key: format!("sandbox.{key}"),
                reason: WIDENS.to_owned(),
            });
        }
    }
    ignored
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn only_narrowing_sandbox_keys_survive() {
        let mut value = json!({
            "permissions": {"mode": "bypassPermissions", "allow": ["Bash"]},
            "sandbox": {
                "enabled": false, "required": false, "network": true,
                "writable_roots": ["/"], "env_passthrough": ["OPENAI_API_KEY"],
                "deny_read": [".env"],
            },
        });
        let ignored = drop_user_only_keys(&mut value, Path::new("p.json"));
        assert_eq!(
            value,
            json!({"permissions": {"allow": ["Bash"]}, "sandbox": {"deny_read": [".env"]}})
        );
        let keys: Vec<&str> = ignored.iter().map(|k| k.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "sandbox.enabled",
                "sandbox.required",
                "sandbox.network",
                "sandbox.writable_roots",
                "sandbox.env_passthrough"
            ]
        );
        let mut narrowing = json!({"sandbox": {
            "enabled": true, "required": true, "network": false,
            "writable_roots": [], "env_passthrough": [],
        }});
        let before = narrowing.clone();
        assert!(drop_user_only_keys(&mut narrowing, Path::new("p.json")).is_empty());
        assert_eq!(narrowing, before);
    }
}
