//! Scanning any tree, installed or not (`weft skills scan PATH`): each skill in it is scanned
//! as its own package; a tree without a skill is scanned as one package.

use std::path::Path;

use rayon::prelude::*;
use weft_scan::{Package, PackageFile, ScanOptions, ScanReport, SkillFacts, scan};

use crate::archive::{ArchiveFormat, read_archive};
use crate::candidate::{Candidate, find_skills};
use crate::error::InstallError;
use crate::local::{read_dir_tree_for_scan, read_regular};
use crate::tree::Limits;

/// Limits for scanning a tree: far larger than an install's, since nothing is written.
pub const SCAN_LIMITS: Limits = Limits {
    max_total_bytes: 2 * 1024 * 1024 * 1024,
    max_files: 200_000,
    max_file_bytes: 256 * 1024 * 1024,
    max_depth: 64,
};

/// The scan of one skill (or of a tree without one).
#[derive(Debug, Clone)]
pub struct ScannedSkill {
    /// The skill's directory, relative to the scanned path (`""` for the path itself).
    pub dir: String,
    /// The skill's name, when it has a skill file.
    pub name: Option<String>,
    /// What the scan found (paths relative to `dir`).
    pub report: ScanReport,
}

fn facts_of(candidate: &Candidate) -> SkillFacts {
    match &candidate.parsed.skill {
        Some(skill) => SkillFacts::of(skill),
        None => SkillFacts {
            name: candidate.name(),
            ..SkillFacts::default()
        },
    }
}

/// Reads `path` (a directory, a skill file, or a `.tar.gz`/`.zip` archive) and scans every
/// skill in it, in path order, against `known_names` for typosquats.
pub fn scan_path(path: &Path, known_names: &[String]) -> Result<Vec<ScannedSkill>, InstallError> {
    let meta = std::fs::metadata(path).map_err(|e| InstallError::io(path, e))?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let tree = if meta.is_dir() {
        read_dir_tree_for_scan(path, SCAN_LIMITS)?
    } else {
        let file_name = name.clone().unwrap_or_default();
        let (bytes, executable) = read_regular(path, &file_name, SCAN_LIMITS.max_file_bytes)?;
        match ArchiveFormat::of_name(&file_name) {
            Some(format) => read_archive(&bytes, format, &path.display().to_string(), SCAN_LIMITS)?,
            None => Package::new(vec![PackageFile {
                path: file_name,
                content: weft_scan::FileContent::Regular { bytes, executable },
            }]),
        }
    };
    let root_name = if meta.is_dir() {
        name.unwrap_or_default()
    } else {
        path.parent()
            .and_then(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let candidates = find_skills(&tree, None, &root_name, false)?;
    let options = ScanOptions {
        known_names: known_names.to_vec(),
        ..ScanOptions::default()
    };
    if candidates.is_empty() {
        return Ok(vec![ScannedSkill {
            dir: String::new(),
            name: None,
            report: scan(&tree, None, &options),
        }]);
    }
    Ok(candidates
        .par_iter()
        .map(|c| ScannedSkill {
            dir: c.dir.clone(),
            name: Some(c.name()),
            report: scan(&c.package, Some(&facts_of(c)), &options),
        })
        .collect())
}
