//! `weft skills list|show`: what the registry sees.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use serde_json::json;
use weft_registry::catalog::{CatalogFormat, budget_for};
use weft_registry::matcher::{MatchOutcome, TriggerMatcher};
use weft_registry::resource::list_resources;
use weft_registry::{SkillEntry, SkillOrigin, SkillRegistry, discover_one};
use weft_types::Scope;

use crate::cli::{
    CatalogArgs, CatalogFormatArg, ListArgs, ListFormat, MatchArgs, ScopeFilter, ShowArgs,
};
use crate::commands::verify::{InstallIndex, Installed};
use crate::environment::stdout_terminal;
use crate::output::{eprint_diagnostics, eprint_discovery_diagnostics};
use weft_runtime::Workspace;
use weft_term::{fit_table, one_line};

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

/// `weft skills list`.
pub fn list(workspace: &Workspace, args: &ListArgs, verbose: bool) -> anyhow::Result<ExitCode> {
    // Never freed: the process ends right after the listing, and freeing some forty
    // allocations per skill one by one would be about a tenth of its work.
    let registry = std::mem::ManuallyDrop::new(SkillRegistry::new(workspace.registry_config()));
    let snapshot = registry.snapshot();
    eprint_discovery_diagnostics(snapshot.diagnostics(), verbose);
    let entries: Vec<_> = snapshot
        .entries()
        .iter()
        .filter(|e| scope_matches(args.scope, e.skill.source.scope))
        .collect();
    let index = InstallIndex::load(workspace);
    let installed: Vec<Option<Installed>> = entries
        .iter()
        .map(|e| index.get(&e.skill.name, e.dir()))
        .collect();
    let mut out = io::stdout().lock();
    match args.format {
        ListFormat::Json => {
            let items: Vec<_> = entries
                .iter()
                .zip(&installed)
                .map(|(e, i)| {
                    let mut item = json!({
                        "name": e.skill.name,
                        "description": e.skill.description,
                        "scope": e.skill.source.scope,
                        "format": e.skill.source.format,
                        "path": e.file(),
                        "user_invocable": e.skill.user_invocable,
                        "model_invocable": e.skill.model_invocable(),
                        "context": e.skill.context,
                        "ready": e.readiness.is_ready(),
                    });
                    if args.all {
                        item["shadows"] = json!(e.shadows);
                    }
                    if let Some(i) = i {
                        item["installed"] = i.to_json();
                    }
                    item
                })
                .collect();
            serde_json::to_writer_pretty(&mut out, &items)?;
            writeln!(out)?;
        }
        ListFormat::Table => {
            // The INSTALLED column appears only when a listed skill was installed by weft.
            let any_installed = installed.iter().any(Option::is_some);
            let mut rows = Vec::new();
            for (e, i) in entries.iter().zip(&installed) {
                let mut row = vec![
                    e.skill.name.clone(),
                    one_line(&e.skill.description),
                    e.skill.source.scope.to_string(),
                    e.skill.source.format.to_string(),
                ];
                if any_installed {
                    row.push(match i {
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
    let config = workspace.registry_config();
    // Only the directories named like the skill are read, unless none is.
    let mut why_not = Vec::new();
    let found = discover_one(&config, &args.name).or_else(|| {
        let registry = SkillRegistry::new(config);
        let snapshot = registry.snapshot();
        let Some(entry) = snapshot.get(&args.name).cloned() else {
            // A file in a directory of that name that does not load says why.
            why_not = snapshot
                .diagnostics()
                .iter()
                .filter(|d| d.is_error() && in_dir_named(d.path.as_deref(), &args.name))
                .cloned()
                .collect();
            return None;
        };
        let diagnostics = snapshot
            .diagnostics()
            .iter()
            .filter(|d| d.path.as_deref() == entry.file())
            .cloned()
            .collect();
        Some((entry, diagnostics))
    });
    let Some((entry, diagnostics)) = found else {
        eprint_diagnostics(&why_not);
        eprintln!(
            "error: Skill '{}' not found. Run `weft skills list` to see available skills.",
            args.name
        );
        return Ok(ExitCode::FAILURE);
    };
    eprint_diagnostics(&diagnostics);
    let installed = InstallIndex::load(workspace).get(&entry.skill.name, entry.dir());
    let body = entry.body();
    let mut out = io::stdout().lock();
    match args.format {
        ListFormat::Json => {
            let mut item = serde_json::to_value(&entry.skill)?;
            item["path"] = json!(entry.file());
            item["readiness"] = json!(entry.readiness);
            item["shadows"] = json!(entry.shadows);
            item["tokens"] = json!(entry.tokens());
            item["resources"] = json!(resources(&entry));
            if let Ok(body) = &body {
                item["body"] = json!(body.text);
            }
            if let Some(i) = &installed {
                item["installed"] = i.to_json();
            }
            serde_json::to_writer_pretty(&mut out, &item)?;
            writeln!(out)?;
        }
        ListFormat::Table => {
            out.write_all(describe(&entry).as_bytes())?;
            for (label, value) in installed.iter().flat_map(Installed::describe) {
                writeln!(out, "{label}: {value}")?;
            }
        }
    }
    if let Err(e) = body {
        eprintln!("error: {e}");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// True when `path` is a file directly inside a directory called `name`.
fn in_dir_named(path: Option<&Path>, name: &str) -> bool {
    path.and_then(Path::parent)
        .and_then(Path::file_name)
        .is_some_and(|dir| dir == name)
}

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// The `skills show` text, in seed 002's layout plus weft's extra fields.
fn describe(entry: &SkillEntry) -> String {
    let s = &entry.skill;
    let mut out = String::new();
    let mut field = |label: &str, value: &str| {
        let _ = writeln!(out, "{label}: {value}");
    };
    field("Skill", &s.name);
    field("Description", &s.description);
    if let Some(v) = &s.version {
        field("Version", v);
    }
    field("Format", s.source.format.as_str());
    let location = match (&entry.origin, entry.dir()) {
        (SkillOrigin::File(_), Some(dir)) => format!("{} ({})", s.source.scope, dir.display()),
        (SkillOrigin::Builtin, _) => "builtin (compiled into weft)".to_owned(),
        _ => format!("{} (registered at run time)", s.source.scope),
    };
    field("Scope", &location);
    if let Some(path) = entry.file() {
        field("Path", &path.display().to_string());
    }
    if !s.variables.is_empty() {
        field("Variables", &s.variables.join(", "));
    }
    if let Some(h) = &s.argument_hint {
        field("Argument Hint", h);
    }
    field("User Invocable", yes_no(s.user_invocable));
    field("Model Invocable", yes_no(s.model_invocable()));
    field("Context", s.context.as_str());
    if let Some(a) = &s.agent {
        field("Agent", a);
    }
    if let Some(m) = &s.model {
        field("Model", m);
    }
    let allowed = match &s.tools.allow {
        None => "(no restriction)".to_owned(),
        Some(list) if list.is_empty() => "(none: the skill grants no tools)".to_owned(),
        Some(list) => list.join(", "),
    };
    field("Allowed Tools", &allowed);
    if !s.tools.deny.is_empty() {
        field("Forbidden Tools", &s.tools.deny.join(", "));
    }
    if !s.keywords.is_empty() {
        field("Keywords", &s.keywords.join(", "));
    }
    if let Some(w) = &s.when_to_use {
        field("When To Use", w);
    }
    if let Some(l) = &s.license {
        field("License", l);
    }
    if let Some(c) = &s.compatibility {
        field("Compatibility", c);
    }
    if let Some(m) = &s.metadata {
        field(
            "Metadata",
            &serde_json::to_string(m).unwrap_or_else(|_| "(unprintable)".to_owned()),
        );
    }
    let c = &s.contract;
    if !c.execution_protocol.is_empty() {
        field("Execution Protocol", &c.execution_protocol.join(" → "));
    }
    for r in &c.composability_rules {
        field(
            "Composability",
            &format!("{:?} {}", r.kind, r.skill).to_lowercase(),
        );
    }
    for r in &c.compatibility_rules {
        field(
            "Compatibility Rule",
            &format!("{:?} {}", r.kind, r.skill).to_lowercase(),
        );
    }
    let ready = if entry.readiness.is_ready() {
        "ready".to_owned()
    } else {
        format!("not ready: {}", entry.readiness.problems().join("; "))
    };
    field("Readiness", &ready);
    let tokens = entry.tokens();
    field(
        "Tokens",
        &format!(
            "~{} (catalog), ~{} (instructions)",
            tokens.metadata,
            tokens
                .instructions
                .map_or_else(|| "?".to_owned(), |t| t.to_string())
        ),
    );
    let res = resources(entry);
    if !res.is_empty() {
        field("Resources", &res.join(", "));
    }
    for (key, value) in &s.extra {
        field(
            &format!("Extra `{key}`"),
            &serde_json::to_string(value).unwrap_or_default(),
        );
    }
    for shadow in &entry.shadows {
        let path = shadow
            .path
            .as_deref()
            .map_or_else(|| "built in".to_owned(), |p| p.display().to_string());
        field("Shadows", &format!("{} ({path})", shadow.scope));
    }
    out
}

/// Files bundled with the skill (level 3), relative to its directory; at most 50.
fn resources(entry: &SkillEntry) -> Vec<String> {
    entry
        .dir()
        .map(|dir| list_resources(dir, 50))
        .unwrap_or_default()
}

/// `weft skills match "<text>"`.
pub fn match_text(workspace: &Workspace, args: &MatchArgs) -> anyhow::Result<ExitCode> {
    let registry = SkillRegistry::new(workspace.registry_config());
    let snapshot = registry.snapshot();
    let matcher = TriggerMatcher::new(snapshot.entries().iter().map(|e| &e.skill))
        .with_min_confidence(args.min_confidence);
    let ranked: Vec<_> = matcher
        .rank(&args.text)
        .into_iter()
        .take(args.limit)
        .collect();
    let outcome = matcher.best(&args.text);
    let mut out = io::stdout().lock();
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
            serde_json::to_writer_pretty(&mut out, &json!({"best": best, "matches": items}))?;
            writeln!(out)?;
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
    let registry = SkillRegistry::new(workspace.registry_config());
    let budget = args
        .budget
        .unwrap_or_else(|| budget_for(args.context_window));
    let format = match args.format {
        CatalogFormatArg::Weft => CatalogFormat::Weft,
        CatalogFormatArg::Xml => CatalogFormat::Xml,
    };
    let catalog = registry.snapshot().catalog(format, budget);
    let mut out = io::stdout().lock();
    out.write_all(catalog.text.as_bytes())?;
    // The XML block has no final newline of its own (like skills-ref's to_prompt); the
    // command adds one, as its CLI does.
    if format == CatalogFormat::Xml {
        writeln!(out)?;
    }
    for line in catalog.report.summary() {
        eprintln!("weft: {line}");
    }
    Ok(ExitCode::SUCCESS)
}
