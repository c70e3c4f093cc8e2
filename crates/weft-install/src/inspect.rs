//! Scanning any tree, installed or not (`weft skills scan PATH`): each skill in it is scanned
//! as its own package; a tree without a skill is scanned as one package.

use std::path::Path;

use rayon::prelude::*;
use weft_scan::{KnownSkill, Package, PackageFile, ScanOptions, ScanReport, SkillFacts, scan};

use crate::archive::{ArchiveFormat, read_archive_for_scan};
use crate::candidate::{Candidate, find_skills};
use crate::error::InstallError;
use crate::install::taken;
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
/// skill in it, in path order, against the skills the user has (`known`): a name one edit
/// from one of them is a typosquat, exactly the name of one elsewhere would shadow it (a
/// skill is not compared with its own directory, so scanning an installed skill is quiet).
///
/// An archive is read as a scan reads it, not as an install does: an entry an install
/// refuses (`../../x`, an absolute path, a hard link) is reported as a high finding where
/// it is, under its name as the archive gives it, instead of stopping the scan.
pub fn scan_path(path: &Path, known: &[KnownSkill]) -> Result<Vec<ScannedSkill>, InstallError> {
    let meta = std::fs::metadata(path).map_err(|e| InstallError::io(path, e))?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let tree = if meta.is_dir() {
        read_dir_tree_for_scan(path, SCAN_LIMITS)?
    } else {
        let file_name = name.clone().unwrap_or_default();
        let (bytes, executable) = read_regular(path, &file_name, SCAN_LIMITS.max_file_bytes)?;
        match ArchiveFormat::of_name(&file_name) {
            Some(format) => {
                read_archive_for_scan(&bytes, format, &path.display().to_string(), SCAN_LIMITS)?
            }
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
    let mut names: Vec<String> = known.iter().map(|k| k.name.clone()).collect();
    names.sort();
    names.dedup();
    let options = |taken: Vec<KnownSkill>| ScanOptions {
        known_names: names.clone(),
        taken,
        ..ScanOptions::default()
    };
    if candidates.is_empty() {
        return Ok(vec![ScannedSkill {
            dir: String::new(),
            name: None,
            report: scan(&tree, None, &options(Vec::new())),
        }]);
    }
    // The skill's own directory on disk, when the tree is a directory.
    let on_disk = |dir: &str| meta.is_dir().then(|| path.join(dir));
    let mut scanned: Vec<ScannedSkill> = candidates
        .par_iter()
        .map(|c| {
            let name = c.name();
            let taken = match on_disk(&c.dir) {
                Some(own) => taken(known, &name, &own),
                None => known.iter().filter(|k| k.name == name).cloned().collect(),
            };
            ScannedSkill {
                dir: c.dir.clone(),
                report: scan(&c.package, Some(&facts_of(c)), &options(taken)),
                name: Some(name),
            }
        })
        .collect();
    // Refused entries outside every skill's directory are reported for the archive itself.
    let stray: Vec<PackageFile> = tree
        .files()
        .iter()
        .filter(|f| matches!(f.content, weft_scan::FileContent::Unsafe { .. }))
        .filter(|f| {
            !candidates
                .iter()
                .any(|c| c.dir.is_empty() || f.path.starts_with(&format!("{}/", c.dir)))
        })
        .cloned()
        .collect();
    if !stray.is_empty() {
        scanned.insert(
            0,
            ScannedSkill {
                dir: String::new(),
                name: None,
                report: scan(&Package::new(stray), None, &options(Vec::new())),
            },
        );
    }
    Ok(scanned)
}
