//! `weft skills list|show`: what the registry sees.

use std::io::Write;
use std::process::ExitCode;

use serde_json::json;
use weft_registry::catalog::{CatalogFormat, budget_for};
use weft_registry::details::{bundled_files, skill_details};
use weft_registry::matcher::{MatchOutcome, TriggerMatcher};
use weft_registry::{
    BrokenSkill, Readiness, RegistryConfig, SkillEntry, SkillRegistry, Snapshot, discover_one,
};
use weft_types::Scope;
use weft_types::suggest::{closest_names, did_you_mean};

use crate::cli::{
    CatalogArgs, CatalogFormatArg, ListArgs, ListFormat, MatchArgs, ScopeFilter, ShowArgs,
};
use crate::commands::skill_json::{SkillDetailJson, SkillJson};
use crate::commands::verify::{InstallIndex, Installed};
use crate::environment::stdout_terminal;
use crate::output::{eprint_diagnostics, eprint_discovery_diagnostics};
use weft_runtime::{Runtime, ToolAvailability, Workspace};
use weft_term::{fields, fit_table, one_line, tilde};

fn scope_matches(filter: ScopeFilter, scope: Scope) -> bool {
    match filter {
        ScopeFilter::All => true,
        ScopeFilter::Project => scope == Scope::Project,
        ScopeFilter::User => scope == Scope::User,
        ScopeFilter::Workspace => scope == Scope::Workspace,
        ScopeFilter::Plugin => scope == Scope::Plugin,
        ScopeFilter::Builtin => scope == Scope::Builtin,
    }
}

/// The registry configuration of this workspace with the configuration's `skills` settings
/// (disabled skills, `builtins`), for a command that reads the skills once: it does not
/// track changes (see [`RegistryConfig::track_changes`]). A broken configuration file is a
/// usage error.
pub(crate) fn registry_config(workspace: &Workspace) -> anyhow::Result<RegistryConfig> {
    let config = workspace
        .configured_registry()
        .map_err(weft_runtime::RuntimeError::from)?;
    Ok(RegistryConfig {
        track_changes: false,
        ..config
    })
}

/// `weft skills list`.
pub fn list(workspace: &Workspace, args: &ListArgs, verbose: bool) -> anyhow::Result<ExitCode> {
    // Never freed: the process ends right after the listing, and freeing some forty
    // allocations per skill one by one would be about a tenth of its work.
    let registry = std::mem::ManuallyDrop::new(SkillRegistry::new(registry_config(workspace)?));
    let snapshot = registry.snapshot();
    eprint_discovery_diagnostics(snapshot.diagnostics(), "skill files", verbose);
    // Disabled skills are listed (marked) only with --all.
    let disabled = if args.all { snapshot.disabled() } else { &[] };
    let mut entries: Vec<_> = snapshot
        .entries()
        .iter()
        .chain(disabled)
        .filter(|e| scope_matches(args.scope, e.skill.source.scope))
        .collect();
    entries.sort_by(|a, b| a.skill.name.cmp(&b.skill.name));
    let is_disabled = |e: &SkillEntry| snapshot.disabled().iter().any(|d| std::ptr::eq(&**d, e));
    let index = InstallIndex::load(workspace);
    // Without lockfiles (the usual case) nothing is looked up or allocated per skill.
    let installed: Vec<Option<Installed>> = if index.is_empty() {
        Vec::new()
    } else {
        entries.iter().map(|e| index.get(e.dir())).collect()
    };
    let install_of = |i: usize| installed.get(i).and_then(Option::as_ref);
    let mut out = crate::output::stdout();
    match args.format {
        ListFormat::Json => {
            let items: Vec<SkillJson<'_>> = entries
                .iter()
                .enumerate()
                .map(|(i, e)| SkillJson::new(e, install_of(i)).disabled(is_disabled(e)))
                .collect();
            writeln!(out, "{}", crate::output::json_pretty(&items)?)?;
        }
        ListFormat::Table => {
            // The INSTALLED column appears only when a listed skill was installed by weft.
            let any_installed = installed.iter().any(Option::is_some);
            // The PLUGIN column appears only when a listed skill came from a plugin.
            let any_plugin = entries.iter().any(|e| e.skill.source.plugin.is_some());
            let mut rows = Vec::new();
            for (i, e) in entries.iter().enumerate() {
                let description = if is_disabled(e) {
                    one_line(&format!("(disabled) {}", e.skill.description))
                } else {
                    one_line(&e.skill.description)
                };
                let mut row = vec![
                    e.skill.name.clone(),
                    description,
                    e.skill.source.scope.as_str().to_owned(),
                    e.skill.source.format.as_str().to_owned(),
                ];
                if any_plugin {
                    row.push(
                        e.skill
                            .source
                            .plugin
                            .as_ref()
                            .map_or_else(String::new, |p| p.id.clone()),
                    );
                }
                if any_installed {
                    row.push(match install_of(i) {
                        Some(i) if i.status.is_intact() => "pinned".to_owned(),
                        Some(_) => "TAMPERED".to_owned(),
                        None => String::new(),
                    });
                }
                rows.push(row);
                if args.all {
                    for s in &e.shadows {
                        let mut row = vec![
                            format!("  {}", e.skill.name),
                            one_line(&format!("(shadowed) {}", s.description)),
                            s.scope.to_string(),
                            s.format.to_string(),
                        ];
                        if any_plugin {
                            row.push(String::new());
                        }
                        if any_installed {
                            row.push(String::new());
                        }
                        rows.push(row);
                    }
                }
            }
            if rows.is_empty() {
                writeln!(out, "No skills found.")?;
            } else {
                let mut header = vec!["NAME", "DESCRIPTION", "SCOPE", "FORMAT"];
                if any_plugin {
                    header.push("PLUGIN");
                }
                if any_installed {
                    header.push("INSTALLED");
                }
                out.write_all(fit_table(&header, &rows, stdout_terminal().width).as_bytes())?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `weft skills show <name>`.
pub fn show(workspace: &Workspace, args: &ShowArgs) -> anyhow::Result<ExitCode> {
    let config = registry_config(workspace)?;
    let disabled_names = config.disabled.clone();
    // Only the directories named like the skill are read, unless none is.
    let found = discover_one(&config, &args.name).ok_or(()).or_else(|()| {
        let registry = SkillRegistry::new(config);
        let snapshot = registry.snapshot();
        let Some(entry) = snapshot.get(&args.name).cloned() else {
            return Err(Missing::of(&snapshot, &args.name));
        };
        let diagnostics = snapshot
            .diagnostics()
            .iter()
            .filter(|d| d.path.as_deref() == entry.file())
            .cloned()
            .collect();
        Ok((entry, diagnostics))
    });
    let (entry, diagnostics) = match found {
        Ok(found) => found,
        Err(missing) => return Ok(missing.report()),
    };
    eprint_diagnostics(&diagnostics);
    let disabled = disabled_names.contains(&entry.skill.name);
    let installed = InstallIndex::load(workspace).get(entry.dir());
    let body = entry.body();
    let readiness = readiness(workspace, &entry);
    let mut out = crate::output::stdout();
    match args.format {
        ListFormat::Json => {
            let detail = SkillDetailJson::new(
                &entry,
                installed.as_ref(),
                body.as_deref().ok(),
                bundled_files(&entry),
            )
            .disabled(disabled)
            .readiness(readiness);
            writeln!(out, "{}", crate::output::json_pretty(&detail)?)?;
        }
        ListFormat::Table => {
            let home = workspace.home.as_deref();
            let rows = skill_details(&entry, &readiness, &|p| tilde(p, home));
            out.write_all(fields(&rows).as_bytes())?;
            if disabled {
                writeln!(
                    out,
                    "Status: disabled (skills.disabled or skills.entries.{}.enabled in the config)",
                    entry.skill.name
                )?;
            }
            for (label, value) in installed.iter().flat_map(Installed::describe) {
                writeln!(out, "{label}: {value}")?;
            }
        }
    }
    if let Err(e) = body {
        crate::output::errln!("error: {e}");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// What a session of this workspace would have: its tools, known without starting one. When
/// the configuration cannot be loaded, none is known and tools are not judged.
pub(crate) fn tool_availability(workspace: &Workspace) -> Option<ToolAvailability> {
    let known = Runtime::load(workspace).and_then(|runtime| ToolAvailability::of(&runtime));
    match known {
        Ok(tools) => Some(tools),
        Err(e) => {
            tracing::warn!(error = %e, "tools not known; skills' tools are not judged");
            None
        }
    }
}

/// `entry`'s readiness in a session of this workspace: what the host lacks, and the tools its
/// `allowed-tools` names that the session would not have.
fn readiness(workspace: &Workspace, entry: &SkillEntry) -> Readiness {
    match tool_availability(workspace) {
        Some(tools) => entry.readiness_with(&|t| tools.has(t)),
        None => entry.readiness.clone(),
    }
}

/// Why `skills show NAME` found no skill: files of that name that do not load, else the
/// names it may have meant.
struct Missing {
    name: String,
    broken: Vec<BrokenSkill>,
    suggestions: Vec<String>,
}

impl Missing {
    fn of(snapshot: &Snapshot, name: &str) -> Self {
        Self {
            name: name.to_owned(),
            broken: snapshot.broken_named(name).into_iter().cloned().collect(),
            suggestions: closest_names(name, snapshot.entries().iter().map(|e| e.name())),
        }
    }

    /// Prints the broken files' errors and what went wrong: exit status 1 for a skill that
    /// does not load, 2 (a usage error, like an unknown agent) for a name that is not there.
    fn report(&self) -> ExitCode {
        if self.broken.is_empty() {
            // "did you mean ...?" ends its own sentence.
            let end = if self.suggestions.is_empty() { "." } else { "" };
            crate::output::errln!(
                "error: Skill '{}' not found{}{end} Run `weft skills list` to see available skills.",
                self.name,
                did_you_mean(&self.suggestions)
            );
            return ExitCode::from(2);
        }
        for broken in &self.broken {
            eprint_diagnostics(&broken.errors);
            crate::output::errln!(
                "error: skill `{}` ({}) does not load: {} error{} above",
                self.name,
                broken.path.display(),
                broken.errors.len(),
                if broken.errors.len() == 1 { "" } else { "s" }
            );
        }
        ExitCode::FAILURE
    }
}

/// `weft skills match "<text>"`.
pub fn match_text(workspace: &Workspace, args: &MatchArgs) -> anyhow::Result<ExitCode> {
    let registry = SkillRegistry::new(registry_config(workspace)?);
    let snapshot = registry.snapshot();
    // A conditional skill takes part only for a file its `paths` match.
    let file = args.file.as_deref().and_then(|f| {
        // Relative to the current directory, as any file argument.
        let f = std::path::absolute(f).unwrap_or_else(|_| f.to_path_buf());
        weft_registry::conditional::project_relative(&f, workspace.project.as_deref())
    });
    let candidates = snapshot.entries().iter().filter(|e| {
        !e.skill.is_conditional() || file.as_deref().is_some_and(|f| e.matches_path(f))
    });
    let matcher =
        TriggerMatcher::new(candidates.map(|e| &e.skill)).with_min_confidence(args.min_confidence);
    let ranked: Vec<_> = matcher
        .rank(&args.text)
        .into_iter()
        .take(args.limit)
        .collect();
    let outcome = matcher.best(&args.text);
    let mut out = crate::output::stdout();
    match args.format {
        ListFormat::Json => {
            let best = match &outcome {
                MatchOutcome::None => json!(null),
                MatchOutcome::Match(m) => json!({"match": m.name, "confidence": m.confidence}),
                MatchOutcome::Conflict(ms) => json!({
                    "conflict": ms.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(),
                    "confidence": ms.first().map(|m| m.confidence),
                }),
            };
            let items: Vec<_> = ranked
                .iter()
                .map(|m| {
                    json!({
                        "name": m.name,
                        "confidence": m.confidence,
                        "score": m.score,
                        "model_invocable": m.model_invocable,
                        "matched_terms": m.matched_terms,
                    })
                })
                .collect();
            writeln!(
                out,
                "{}",
                crate::output::json_pretty(&json!({"best": best, "matches": items}))?
            )?;
        }
        ListFormat::Table => {
            if ranked.is_empty() {
                writeln!(out, "No skill matches.")?;
            } else {
                let rows: Vec<Vec<String>> = ranked
                    .iter()
                    .map(|m| {
                        vec![
                            m.name.clone(),
                            format!("{:.2}", m.confidence),
                            if m.model_invocable { "" } else { "manual only" }.to_owned(),
                            m.matched_terms.join(" "),
                        ]
                    })
                    .collect();
                out.write_all(
                    fit_table(
                        &["NAME", "CONFIDENCE", "NOTE", "MATCHED"],
                        &rows,
                        stdout_terminal().width,
                    )
                    .as_bytes(),
                )?;
            }
            let verdict = match &outcome {
                MatchOutcome::None => format!(
                    "No skill would be loaded automatically (minimum confidence {:.2}).",
                    args.min_confidence
                ),
                MatchOutcome::Match(m) => {
                    format!("Would load: {} (confidence {:.2}).", m.name, m.confidence)
                }
                MatchOutcome::Conflict(ms) => format!(
                    "Conflict: {} tie at confidence {:.2}; the user has to choose.",
                    ms.iter()
                        .map(|m| m.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                    ms.first().map_or(0.0, |m| m.confidence)
                ),
            };
            writeln!(out, "\n{verdict}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `weft skills catalog`.
pub fn catalog(workspace: &Workspace, args: &CatalogArgs) -> anyhow::Result<ExitCode> {
    let mut config = registry_config(workspace)?;
    if args.no_builtins {
        config.builtins = false;
    }
    let builtins = config.builtins;
    let registry = SkillRegistry::new(config);
    let format = match args.format {
        CatalogFormatArg::Weft | CatalogFormatArg::Json => CatalogFormat::Weft,
        CatalogFormatArg::Xml => CatalogFormat::Xml,
    };
    // Without the built-ins, the XML is skills-ref's `to-prompt` listing of the same
    // directories: every skill, no budget unless one is given. Otherwise it is the catalog
    // the model is offered.
    let catalog = if format == CatalogFormat::Xml && !builtins {
        registry
            .snapshot()
            .reference_catalog(args.budget.unwrap_or(usize::MAX))
    } else {
        let budget = args
            .budget
            .unwrap_or_else(|| budget_for(args.context_window));
        // As in a session: a skill whose allowed tools a session would not have is left out.
        let tools = tool_availability(workspace);
        registry.snapshot().catalog_where(format, budget, |e| {
            !e.skill.is_conditional()
                && tools
                    .as_ref()
                    .is_none_or(|t| e.missing_tools(&|name| t.has(name)).is_empty())
        })
    };
    let mut out = crate::output::stdout();
    if args.format == CatalogFormatArg::Json {
        let r = &catalog.report;
        let doc = json!({
            "text": catalog.text,
            "budget": r.budget,
            "used": r.used,
            "listed": r.listed,
            "shortened": r.shortened,
            "description_limit": r.description_limit,
            "names_only": r.names_only,
            "dropped": r.dropped,
        });
        writeln!(out, "{}", crate::output::json_pretty(&doc)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    out.write_all(catalog.text.as_bytes())?;
    // The XML block has no final newline of its own (like skills-ref's to_prompt); the
    // command adds one, as its CLI does.
    if format == CatalogFormat::Xml {
        writeln!(out)?;
    }
    for line in catalog.report.summary() {
        crate::output::errln!("weft: {line}");
    }
    Ok(ExitCode::SUCCESS)
}
