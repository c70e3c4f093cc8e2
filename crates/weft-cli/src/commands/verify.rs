//! `weft skills verify`, and the install record `skills list` and `skills show` add to an
//! installed skill (its provenance and whether its files still match the lock).

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use serde_json::{Value, json};
use weft_install::{InstallTarget, LockEntry, Lockfile, VerifyStatus, verify_skill};

use crate::cli::{InstallScope, ReportFormat, VerifyArgs};
use crate::commands::install::target;
use weft_runtime::Workspace;
use weft_term::fit_table;

/// An installed skill's lock entry and how its files compare with it.
pub struct Installed {
    /// The lock entry.
    pub entry: LockEntry,
    /// The comparison.
    pub status: VerifyStatus,
}

impl Installed {
    /// The JSON that `list` and `show` add as `installed`.
    pub fn to_json(&self) -> Value {
        json!({
            "tampered": !self.status.is_intact(),
            "status": self.status,
            "source": self.entry.source,
            "commit": self.entry.commit,
            "archive_sha256": self.entry.archive_sha256,
            "tree_sha256": self.entry.tree_sha256,
            "installed_at": self.entry.installed_at,
            "scan": self.entry.scan,
        })
    }

    /// `skills show` lines: label and value.
    pub fn describe(&self) -> Vec<(&'static str, String)> {
        let e = &self.entry;
        let mut source = e.source.location.clone();
        if let Some(r) = &e.source.reference {
            source.push_str(&format!(" (ref {r})"));
        }
        if !e.source.subpath.is_empty() {
            source.push_str(&format!(", {}", e.source.subpath));
        }
        let mut lines = vec![("Installed From", source)];
        if let Some(c) = &e.commit {
            lines.push(("Commit", c.clone()));
        }
        if let Some(h) = &e.archive_sha256 {
            lines.push(("Archive SHA-256", h.clone()));
        }
        lines.push(("Tree SHA-256", e.tree_sha256.clone()));
        lines.push(("Installed At", e.installed_at.clone()));
        lines.push(("Scan", e.scan.summary()));
        lines.push(("Integrity", status_text(&self.status)));
        lines
    }
}

/// `intact`, or what differs.
pub fn status_text(status: &VerifyStatus) -> String {
    match status {
        VerifyStatus::Intact => "intact".to_owned(),
        VerifyStatus::Missing => "MISSING: the skill's directory is gone".to_owned(),
        VerifyStatus::Unreadable { reason } => format!("TAMPERED: {reason}"),
        VerifyStatus::Tampered {
            modified,
            missing,
            extra,
        } => tampered_text(modified, missing, extra),
    }
}

/// `TAMPERED: modified a, b; extra c`: the files that differ from the recorded ones.
pub(crate) fn tampered_text(modified: &[String], missing: &[String], extra: &[String]) -> String {
    let parts: Vec<String> = [
        ("modified", modified),
        ("missing", missing),
        ("extra", extra),
    ]
    .into_iter()
    .filter(|(_, files)| !files.is_empty())
    .map(|(label, files)| format!("{label} {}", files.join(", ")))
    .collect();
    format!("TAMPERED: {}", parts.join("; "))
}

/// The install targets whose lockfiles `list`, `show` and `verify` read.
fn targets(
    workspace: &Workspace,
    only: Option<InstallScope>,
) -> Vec<(InstallScope, InstallTarget)> {
    let scopes = match only {
        Some(s) => vec![s],
        None => vec![InstallScope::Project, InstallScope::User],
    };
    scopes
        .into_iter()
        .filter(|s| *s == InstallScope::User || workspace.project.is_some() || only.is_some())
        .filter_map(|s| target(workspace, s).ok().map(|t| (s, t)))
        .collect()
}

/// The lockfiles of the project and the user, read once for a listing.
pub struct InstallIndex {
    targets: Vec<(InstallTarget, Lockfile)>,
}

impl InstallIndex {
    /// Reads the lockfiles there are. One weft refuses to read (a FIFO, a link to a device
    /// or out of `.clawft`, too large, not JSON) is a warning: the listing goes on, its
    /// skills unmarked.
    pub fn load(workspace: &Workspace) -> Self {
        let targets = targets(workspace, None)
            .into_iter()
            .filter_map(|(_, t)| match t.load_lock() {
                Ok(lock) if !lock.skills.is_empty() => Some((t, lock)),
                Ok(_) => None,
                Err(e) => {
                    crate::output::errln!(
                        "warning: {e}; installed skills are not marked (weft skills verify says more)"
                    );
                    None
                }
            })
            .collect();
        InstallIndex { targets }
    }

    /// True when no lockfile lists a skill: nothing to mark.
    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    /// The install record of the skill found at `dir`, when `dir` is an install target's
    /// `skills/<name>` and its lockfile has `<name>`; its files are verified against the
    /// lock. By directory, not by the name the skill declares: an installed skill whose
    /// `name:` was edited is still found, and marked tampered.
    pub fn get(&self, dir: Option<&Path>) -> Option<Installed> {
        let dir = dir?;
        let name = dir.file_name()?.to_str()?;
        self.targets.iter().find_map(|(t, lock)| {
            if t.skill_dir(name) != dir {
                return None;
            }
            let entry = lock.skills.get(name)?.clone();
            let status = verify_skill(t, name, &entry);
            Some(Installed { entry, status })
        })
    }
}

fn scope_name(scope: InstallScope) -> &'static str {
    match scope {
        InstallScope::Project => "project",
        InstallScope::User => "user",
    }
}

/// `weft skills verify`.
pub fn verify(workspace: &Workspace, args: &VerifyArgs) -> anyhow::Result<ExitCode> {
    let mut rows = Vec::new();
    let mut items = Vec::new();
    let mut differs = false;
    for (scope, t) in targets(workspace, args.scope) {
        for v in weft_install::verify(&t)? {
            differs |= !v.status.is_intact();
            rows.push(vec![
                scope_name(scope).to_owned(),
                v.name.clone(),
                status_text(&v.status),
            ]);
            let mut item = serde_json::to_value(&v)?;
            item["scope"] = json!(scope_name(scope));
            item["lock"] = json!(t.lock_path());
            items.push(item);
        }
    }
    let mut out = crate::output::stdout();
    match args.format {
        ReportFormat::Json => {
            writeln!(out, "{}", crate::output::json_pretty(&items)?)?;
        }
        ReportFormat::Text if rows.is_empty() => {
            writeln!(out, "No installed skills (no skills.lock).")?;
        }
        ReportFormat::Text => {
            out.write_all(
                fit_table(
                    &["SCOPE", "NAME", "STATUS"],
                    &rows,
                    crate::environment::stdout_terminal().width,
                )
                .as_bytes(),
            )?;
        }
    }
    Ok(if differs {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
