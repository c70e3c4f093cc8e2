//! `weft skills scan PATH`, and how findings are printed (shared with install and update).

use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use serde_json::json;
use weft_install::scan_path;
use weft_registry::SkillRegistry;
use weft_scan::{Finding, KnownSkill, Severity};
use weft_term::{plural, scope_label};
use weft_types::Scope;

use crate::cli::{ReportFormat, ScanArgs};
use weft_runtime::Workspace;

/// `high[S101 pipe-to-shell]: message`, then ` --> base/path:line:col` and the excerpt, as
/// rustc prints a diagnostic.
pub fn format_finding(f: &Finding, base: &str) -> String {
    let mut out = format!(
        "{}[{} {}]: {}\n",
        f.severity,
        f.rule.code(),
        f.rule.name(),
        f.message
    );
    let place = if base.is_empty() {
        f.location()
    } else if f.path.is_empty() {
        base.to_owned()
    } else {
        format!("{base}/{}", f.location())
    };
    let _ = writeln!(out, " --> {place}");
    if let Some(excerpt) = &f.excerpt {
        let _ = writeln!(out, "  | {excerpt}");
    }
    out
}

/// Every skill the user has, where it is (all scopes and roots, shadowed copies and
/// built-ins included): a new skill one edit from one of these names is a typosquat, and
/// one with exactly such a name (elsewhere) would shadow it.
pub fn known_skills(workspace: &Workspace) -> Vec<KnownSkill> {
    let registry = SkillRegistry::new(weft_registry::RegistryConfig {
        track_changes: false,
        ..workspace.registry_config()
    });
    let snapshot = registry.snapshot();
    let place = |scope: Scope, file: Option<&Path>| match file {
        Some(f) => format!("the {} skill at {}", scope_label(scope), f.display()),
        None => format!("the {} skill", scope_label(scope)),
    };
    let mut known = Vec::new();
    for entry in snapshot.entries().iter().chain(snapshot.disabled()) {
        let name = &entry.skill.name;
        known.push(KnownSkill {
            name: name.clone(),
            place: place(entry.skill.source.scope, entry.file()),
            dir: entry.dir().map(Path::to_path_buf),
        });
        for shadow in &entry.shadows {
            known.push(KnownSkill {
                name: name.clone(),
                place: place(shadow.scope, shadow.path.as_deref()),
                dir: shadow
                    .path
                    .as_deref()
                    .and_then(Path::parent)
                    .map(Path::to_path_buf),
            });
        }
    }
    known
}

/// `weft skills scan PATH`.
pub fn scan(workspace: &Workspace, args: &ScanArgs) -> anyhow::Result<ExitCode> {
    let known = known_skills(workspace);
    let scanned = scan_path(&args.path, &known)?;
    let base = args.path.display().to_string();
    let join = |dir: &str| {
        if dir.is_empty() {
            base.clone()
        } else {
            Path::new(&base).join(dir).display().to_string()
        }
    };
    let high = scanned.iter().filter(|s| s.report.blocks_install()).count();
    let mut out = crate::output::stdout();
    match args.format {
        ReportFormat::Json => {
            let items: Vec<_> = scanned
                .iter()
                .map(|s| {
                    json!({
                        "path": join(&s.dir),
                        "name": s.name,
                        "max_severity": s.report.max_severity(),
                        "counts": s.report.counts(),
                        "findings": s.report.findings,
                    })
                })
                .collect();
            writeln!(out, "{}", crate::output::json_pretty(&items)?)?;
        }
        ReportFormat::Text => {
            for s in &scanned {
                let dir = join(&s.dir);
                for f in &s.report.findings {
                    writeln!(out, "{}", format_finding(f, &dir))?;
                }
            }
            let at = |sev| {
                scanned
                    .iter()
                    .filter(|s| s.report.max_severity() == Some(sev))
                    .count()
            };
            let clean = scanned
                .iter()
                .filter(|s| s.report.findings.is_empty())
                .count();
            // Skills by their worst finding, then the findings listed above, by severity: the
            // two counts are of different things, and each says which.
            let (mut findings_high, mut findings_medium, mut findings_low) = (0, 0, 0);
            for s in &scanned {
                let c = s.report.counts();
                findings_high += c.high;
                findings_medium += c.medium;
                findings_low += c.low;
            }
            writeln!(
                out,
                "{} scanned: {high} with a high finding, {} medium at worst, {} low at worst, {clean} clean; {} listed ({findings_high} high, {findings_medium} medium, {findings_low} low)",
                plural(scanned.len(), "skill"),
                at(Severity::Medium),
                at(Severity::Low),
                plural(findings_high + findings_medium + findings_low, "finding"),
            )?;
        }
    }
    Ok(if high > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
