//! The checks of `weft doctor`, one function per area. Each returns what it found with the fix
//! in the detail; none prints.

use std::path::Path;
use std::time::Instant;

use weft_agents::{AgentRegistry, ModelPool};
use weft_fs::human_size;
use weft_llm::{ChatRequest, Message, NoStream, ProviderConfig, ProviderKind};
use weft_registry::{CacheHealth, Snapshot};
use weft_runtime::sandbox::{ShellMode, mode_for_permissions};
use weft_runtime::{EffectiveConfig, Runtime, Workspace};
use weft_term::{StatusLine, first_line, plural, tilde};
use weft_types::PermissionMode;
use weft_types::net::is_local_url;

use super::{Check, Status};
use crate::commands::config::origin_label;

/// One line per configuration file.
pub fn config_files(config: &EffectiveConfig, home: Option<&Path>) -> Vec<Check> {
    config
        .files
        .iter()
        .map(|f| {
            let path = tilde(&f.path, home);
            let subject = format!("config ({})", f.role.label());
            match (f.found, f.trusted, f.ignored.is_empty()) {
                (false, _, _) => Check::new(subject, Status::Skip, format!("{path}: not found")),
                (true, true, _) => Check::new(subject, Status::Ok, format!("{path}: read")),
                (true, false, true) => Check::new(
                    subject,
                    Status::Ok,
                    format!("{path}: read (untrusted project; sets nothing that needs trust)"),
                ),
                (true, false, false) => Check::new(
                    subject,
                    Status::Warn,
                    format!(
                        "{path}: untrusted project, ignored: {} (--trust-project accepts them)",
                        f.ignored.join(", ")
                    ),
                ),
            }
        })
        .collect()
}

/// One line per provider: where it is and whether its key is there (masked).
pub fn providers(runtime: &Runtime, config: &EffectiveConfig) -> Vec<Check> {
    let catalog = runtime.models.catalog();
    if catalog.is_empty() {
        return vec![Check::new(
            "provider",
            Status::Fail,
            "none configured: set OPENAI_API_KEY or ANTHROPIC_API_KEY, or add `providers` to \
             ~/.clawft/config.json (docs/CONFIG.md)",
        )];
    }
    let home = runtime.workspace.home.as_deref();
    catalog
        .providers()
        .map(|p| provider(p, config, home))
        .collect()
}

fn provider(p: &ProviderConfig, config: &EffectiveConfig, home: Option<&Path>) -> Check {
    let subject = format!("provider {}", p.name);
    if p.kind == ProviderKind::Replay {
        return match &p.replay_file {
            Some(file) if file.is_file() => Check::new(
                subject,
                Status::Ok,
                format!("replay of {}", tilde(file, home)),
            ),
            Some(file) => Check::new(
                subject,
                Status::Fail,
                format!("replay file {} is missing", tilde(file, home)),
            ),
            None => Check::new(subject, Status::Fail, "replay provider without a file"),
        };
    }
    if let Some(why) = &p.unusable {
        // Only the runs that use this provider fail; the others go on.
        return Check::new(
            subject,
            Status::Fail,
            format!(
                "{}: {why}; runs that use it fail, the others work",
                p.base_url
            ),
        );
    }
    let key = config.get(&format!("providers.{}.api_key", p.name));
    match (key, &p.api_key) {
        (Some(key), Some(_)) => Check::new(
            subject,
            Status::Ok,
            format!(
                "{}, key {} ({})",
                p.base_url,
                key.value.as_str().unwrap_or("set"),
                origin_label(&key.origin, home)
            ),
        ),
        _ if is_local_url(&p.base_url) => Check::new(
            subject,
            Status::Ok,
            format!("{}, no key (a local server)", p.base_url),
        ),
        _ => Check::new(
            subject,
            Status::Fail,
            format!(
                "{}: no API key (set {} or providers.{}.api_key_env)",
                p.base_url,
                weft_runtime::key_variable(p.kind),
                p.name
            ),
        ),
    }
}

/// The model a session uses when none is chosen.
pub fn model(runtime: &Runtime) -> Check {
    let catalog = runtime.models.catalog();
    if catalog.is_empty() {
        return Check::new("model", Status::Skip, "needs a provider");
    }
    match catalog.resolve_default() {
        Ok(model) => Check::new("model", Status::Ok, model.to_string()),
        Err(e @ weft_llm::ModelError::NoDefault) => Check::new(
            "model",
            Status::Fail,
            format!("{e} (set `model` in ~/.clawft/config.json or WEFT_MODEL)"),
        ),
        Err(e) => Check::new("model", Status::Fail, e.to_string()),
    }
}

/// With `--online`, one short request to the default model.
pub fn online(runtime: &Runtime, enabled: bool, status: Option<&StatusLine>) -> Check {
    let subject = "online";
    if !enabled {
        return Check::new(
            subject,
            Status::Skip,
            "not checked (--online sends the model one short request)",
        );
    }
    let Ok(model) = runtime.models.catalog().resolve_default() else {
        return Check::new(subject, Status::Skip, "no default model to ask");
    };
    let client = match runtime.models.client(&model) {
        Ok(client) => client,
        Err(e) => return Check::new(subject, Status::Fail, e.to_string()),
    };
    let request = ChatRequest {
        model: model.model.clone(),
        system: None,
        messages: vec![Message::user("Reply with the single word OK.")],
        tools: Vec::new(),
        temperature: None,
        max_tokens: Some(16),
        reasoning_effort: None,
    };
    if let Some(status) = status {
        status.show(&format!("asking {model}"));
    }
    let started = Instant::now();
    let answer = crate::commands::run::tokio_runtime()
        .map_err(|e| e.to_string())
        .and_then(|rt| {
            rt.block_on(client.chat(&request, false, &mut NoStream))
                .map_err(|e| e.to_string())
        });
    if let Some(status) = status {
        status.clear();
    }
    match answer {
        Ok(response) => Check::new(
            subject,
            Status::Ok,
            format!(
                "{model} answered in {:.1} s: {}",
                started.elapsed().as_secs_f64(),
                first_line(&response.message.content, 40)
            ),
        ),
        Err(e) => Check::new(subject, Status::Fail, e),
    }
}

/// One line per MCP server: running with its tools, or why not.
pub fn mcp(runtime: &Runtime) -> Vec<Check> {
    let servers = runtime.mcp();
    let mut checks: Vec<Check> = servers
        .manager()
        .status()
        .into_iter()
        .map(|s| {
            let subject = format!("mcp {}", s.name);
            match s.state.reason() {
                None => Check::new(
                    subject,
                    Status::Ok,
                    format!("running, {} tools", s.tools.len()),
                ),
                Some(reason) => Check::new(
                    subject,
                    Status::Fail,
                    format!("{}: {reason}", s.state.label()),
                ),
            }
        })
        .collect();
    checks.extend(servers.idle().iter().map(|server| {
        let detail = match &server.reason {
            Some(reason) => format!("{} ({}): {reason}", server.status, server.source.label()),
            None => server.status.to_owned(),
        };
        Check::new(format!("mcp {}", server.name), Status::Skip, detail)
    }));
    if checks.is_empty() {
        checks.push(Check::new(
            "mcp",
            Status::Skip,
            "no servers configured (`mcp_servers` in ~/.clawft/config.json)",
        ));
    }
    checks
}

/// The hooks: how many run, from where; those of an untrusted project (which do not run);
/// matchers that do not compile (a failure: the hook never runs); hooks switched off.
pub fn hooks(runtime: &Runtime) -> Vec<Check> {
    let entries = runtime.all_hooks();
    if entries.is_empty() {
        return vec![Check::new("hooks", Status::Skip, "none configured")];
    }
    let mut checks = Vec::new();
    if let Some(reason) = runtime.hooks_disabled() {
        checks.push(Check::new(
            "hooks",
            Status::Warn,
            format!("{} configured, none runs: {reason}", entries.len()),
        ));
        return checks;
    }
    let trusted = entries.iter().filter(|e| e.trusted).count();
    let mut kinds: Vec<String> = Vec::new();
    for entry in entries.iter().filter(|e| e.trusted) {
        let kind = entry.source.kind().to_owned();
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    checks.push(Check::new(
        "hooks",
        Status::Ok,
        format!("{trusted} hook(s) run ({})", kinds.join(", ")),
    ));
    let untrusted = entries.len() - trusted;
    if untrusted > 0 {
        checks.push(Check::new(
            "hooks",
            Status::Warn,
            format!("{untrusted} hook(s) of this project do not run: it is not trusted (--trust-project)"),
        ));
    }
    for entry in &entries {
        if let Some(problem) = entry.problem() {
            checks.push(Check::new(
                format!("hook {}", entry.event),
                Status::Fail,
                format!("{} `{}`: {problem}", entry.source, entry.command_line()),
            ));
        }
    }
    checks
}

/// The kernel's Landlock support, as `weft sandbox status` words it.
fn landlock() -> String {
    crate::commands::sandbox::landlock_text(weft_sandbox::probe().landlock)
}

/// Without a configuration: what the kernel offers (what `exec_shell` does depends on the
/// `sandbox` settings and the permission mode).
pub fn sandbox_support() -> Check {
    Check::new(
        "sandbox",
        Status::Skip,
        format!(
            "Landlock {}; what exec_shell does depends on the configuration",
            landlock()
        ),
    )
}

/// What `exec_shell` does on this machine with this configuration.
pub fn sandbox(workspace: &Workspace, runtime: &Runtime) -> Check {
    let landlock = landlock();
    // As the sessions run: `auto` switches the sandbox on, `bypass` off.
    let permissions = runtime.permission_mode();
    let mode = workspace
        .base_dir()
        .map_err(|e| e.to_string())
        .and_then(|base| {
            mode_for_permissions(permissions, workspace, &runtime.config, &base)
                .map_err(|e| e.to_string())
        });
    match mode {
        Ok(ShellMode::Sandboxed { .. }) => Check::new(
            "sandbox",
            Status::Ok,
            format!(
                "exec_shell runs sandboxed (Landlock {landlock}), unless a person approving a command chooses to run it outside"
            ),
        ),
        Ok(ShellMode::Unsandboxed(why)) => Check::new(
            "sandbox",
            Status::Warn,
            format!(
                "exec_shell runs unsandboxed: {why} (Landlock {landlock}; weft sandbox status)"
            ),
        ),
        Ok(ShellMode::PersonOnly(why)) => Check::new(
            "sandbox",
            Status::Warn,
            format!(
                "exec_shell runs a command only once a person approves it (refused where no one can be asked): {why}"
            ),
        ),
        Err(e) => Check::new("sandbox", Status::Fail, e),
    }
}

/// The permission mode sessions start in, where it comes from, and what is pre-approved;
/// `bypass` is a warning (nothing asks, nothing is sandboxed).
pub fn permissions(
    runtime: &Runtime,
    config: Option<&EffectiveConfig>,
    home: Option<&Path>,
) -> Check {
    let mode = runtime.permission_mode();
    let origin = config
        .and_then(|c| c.get("permissions.mode"))
        .map_or_else(|| "default".to_owned(), |s| origin_label(&s.origin, home));
    let allow = runtime.config.file.permissions.allow.len();
    let mut detail = format!(
        "mode {mode} ({origin}); {} pre-approved (permissions.allow)",
        plural(allow, "pattern")
    );
    let mut status = match mode {
        PermissionMode::Bypass => {
            detail.push_str("; bypass: no call asks and exec_shell runs without the sandbox");
            Status::Warn
        }
        _ => Status::Ok,
    };
    // A Claude Code rule weft applies otherwise than written (a deny it cannot read now
    // covers its whole tool; a rule that can never match): said here, not only in the log.
    let notes = &runtime.claude_rules().notes;
    if let Some(first) = notes.first() {
        detail.push_str(&format!(
            "; {} of Claude Code's settings used otherwise than written: `{}` in `permissions.{}` of {}: {}",
            plural(notes.len(), "rule"),
            first.rule,
            first.list,
            first.file.display(),
            first.what
        ));
        status = Status::Warn;
    }
    Check::new("permissions", status, detail)
}

/// Skills: how many, files with errors, names shadowed.
pub fn skills(
    snapshot: &Snapshot,
    tools: Option<&weft_runtime::ToolAvailability>,
    home: Option<&Path>,
) -> Check {
    let diagnostics = snapshot.diagnostics();
    // Skills whose allowed tools a session would not have: never offered to the model.
    let not_ready: Vec<String> = tools
        .map(|tools| {
            snapshot
                .entries()
                .iter()
                .filter_map(|e| {
                    let missing = e.missing_tools(&|t| tools.has(t));
                    (!missing.is_empty())
                        .then(|| format!("{} (needs {})", e.skill.name, missing.join(", ")))
                })
                .collect()
        })
        .unwrap_or_default();
    let errors: Vec<_> = diagnostics.iter().filter(|d| d.is_error()).collect();
    let warnings = diagnostics.len() - errors.len();
    let shadowed: Vec<&str> = snapshot
        .entries()
        .iter()
        .filter(|e| !e.shadows.is_empty())
        .map(|e| e.skill.name.as_str())
        .collect();
    let mut detail = format!(
        "{}; {}, {}",
        plural(snapshot.len(), "skill"),
        plural(errors.len(), "error"),
        plural(warnings, "warning")
    );
    if !shadowed.is_empty() {
        detail.push_str(&format!("; shadowed: {}", shadowed.join(", ")));
    }
    if !not_ready.is_empty() {
        detail.push_str(&format!(
            "; not ready, not offered to the model: {}",
            not_ready.join(", ")
        ));
    }
    match errors.first() {
        None if not_ready.is_empty() => Check::new("skills", Status::Ok, detail),
        None => Check::new("skills", Status::Warn, detail),
        Some(first) => {
            let place = first
                .path
                .as_deref()
                .map(|p| format!("{}: ", tilde(p, home)))
                .unwrap_or_default();
            detail.push_str(&format!(
                "; first: {place}{} (weft skills list -v)",
                first_line(&first.message, 80)
            ));
            Check::new("skills", Status::Warn, detail)
        }
    }
}

/// Agents: how many, broken files, shadowed names; with the models (`None` without a
/// configuration), a line for models no provider serves (a warning) and one for aliases that
/// run on the session's model instead (a note).
pub fn agents(registry: &AgentRegistry, models: Option<&ModelPool>) -> Vec<Check> {
    let shadowed: Vec<&str> = registry
        .list()
        .filter(|e| !e.shadows.is_empty())
        .map(|e| e.agent.name.as_str())
        .collect();
    let broken = registry
        .diagnostics()
        .iter()
        .filter(|d| d.is_error())
        .count();
    let mut detail = format!(
        "{}; {}",
        plural(registry.list().count(), "agent"),
        plural(broken, "broken file")
    );
    if !shadowed.is_empty() {
        detail.push_str(&format!("; shadowed: {}", shadowed.join(", ")));
    }
    let status = if broken > 0 { Status::Warn } else { Status::Ok };
    let mut checks = vec![Check::new("agents", status, detail)];
    let Some(models) = models.filter(|m| !m.catalog().is_empty()) else {
        return checks;
    };
    let (mut unavailable, mut fallbacks) = (Vec::new(), Vec::new());
    for entry in registry.list() {
        let name = &entry.agent.name;
        let Some(model) = entry.agent.model.as_deref().filter(|m| *m != "inherit") else {
            continue;
        };
        // As a session resolves it: an alias no provider serves runs on the session's model.
        match models.resolve_or_fallback(model, None, &format!("agent `{name}`")) {
            Ok((_, None)) => {}
            Ok((fallback, Some(_))) => {
                fallbacks.push(format!("{name}: {model} -> runs on {fallback}"))
            }
            Err(err) => unavailable.push(format!("{name} (`{model}`: {err})")),
        }
    }
    if !unavailable.is_empty() {
        checks.push(Check::new(
            "agent models",
            Status::Warn,
            format!("not available: {}", unavailable.join("; ")),
        ));
    }
    if !fallbacks.is_empty() {
        checks.push(Check::new(
            "agent models",
            Status::Ok,
            format!(
                "{} (no configured provider serves the alias)",
                fallbacks.join("; ")
            ),
        ));
    }
    checks
}

/// The skill header cache.
pub fn cache(workspace: &Workspace) -> Check {
    let registry = workspace.registry_config();
    let Some(cache) = &registry.cache else {
        return Check::new(
            "cache",
            Status::Skip,
            "off (--no-cache, or no home directory)",
        );
    };
    let path = tilde(&cache.path, workspace.home.as_deref());
    match cache.health(&registry.parse.limits) {
        CacheHealth::Missing => Check::new("cache", Status::Ok, format!("{path}: not written yet")),
        CacheHealth::Valid { entries, bytes } => Check::new(
            "cache",
            Status::Ok,
            format!(
                "{path}: {}, {}",
                plural(entries, "skill"),
                human_size(bytes)
            ),
        ),
        CacheHealth::Rebuilt { bytes } => Check::new(
            "cache",
            Status::Ok,
            format!(
                "{path}: {} from another build, rewritten by the next listing",
                human_size(bytes)
            ),
        ),
        CacheHealth::Unreadable(why) => Check::new(
            "cache",
            Status::Warn,
            format!("{why} (listings work, without the cache; remove the file)"),
        ),
    }
}

/// Plugins: how many are installed and in use; a warning for those that do not load, for
/// plugins the project declares that are not installed, and for records that could not be
/// read.
pub fn plugins(set: &weft_plugin::PluginSet) -> Check {
    if set.plugins.is_empty() && set.declared.is_empty() && set.warnings.is_empty() {
        return Check::new(
            "plugins",
            Status::Skip,
            "none installed (`weft plugin marketplace add`, `weft plugin install`)",
        );
    }
    let active = set.active().count();
    let mut detail = format!("{}, {active} in use", plural(set.plugins.len(), "plugin"));
    let broken: Vec<&str> = set
        .plugins
        .iter()
        .filter(|p| matches!(p.inactive, Some(weft_plugin::Inactive::Broken(_))))
        .map(|p| p.id.as_str())
        .collect();
    let mut warn = false;
    if !broken.is_empty() {
        warn = true;
        detail.push_str(&format!(
            "; broken: {} (weft plugin list)",
            broken.join(", ")
        ));
    }
    if !set.declared.is_empty() {
        warn = true;
        let ids: Vec<&str> = set.declared.iter().map(|d| d.id.as_str()).collect();
        detail.push_str(&format!(
            "; declared by the project, not installed: {} (weft plugin install --scope project)",
            ids.join(", ")
        ));
    }
    if let Some(first) = set.warnings.first() {
        warn = true;
        detail.push_str(&format!("; {}", first_line(&first.to_string(), 100)));
    }
    Check::new(
        "plugins",
        if warn { Status::Warn } else { Status::Ok },
        detail,
    )
}
