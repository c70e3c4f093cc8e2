//! `.tar.gz` and `.zip` archives, read from memory into a package tree; nothing is written to
//! disk, so an entry named `../../x` (zip-slip) is refused before it exists anywhere.
//!
//! Links: symbolic links are kept when they resolve inside the package (checked by the
//! tree); hard links, devices and FIFOs are refused.

use std::io::{Cursor, Read};

use flate2::read::GzDecoder;
use weft_scan::{Package, PackageFile};

use crate::error::InstallError;
use crate::tree::{Limits, TreeBuilder};

/// The archive formats weft reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArchiveFormat {
    /// gzip-compressed tar (`.tar.gz`, `.tgz`).
    TarGz,
    /// zip (`.zip`).
    Zip,
}

impl ArchiveFormat {
    /// The format a file name or URL path ends with.
    pub fn of_name(name: &str) -> Option<ArchiveFormat> {
        let lower = name.to_ascii_lowercase();
        let path = lower.split(['?', '#']).next().unwrap_or("");
        if path.ends_with(".tar.gz") || path.ends_with(".tgz") {
            Some(ArchiveFormat::TarGz)
        } else if path.ends_with(".zip") {
            Some(ArchiveFormat::Zip)
        } else {
            None
        }
    }
}

fn bad(what: &str, reason: impl ToString) -> InstallError {
    InstallError::Archive {
        what: what.to_owned(),
        reason: reason.to_string(),
    }
}

fn utf8_name(bytes: &[u8]) -> Result<&str, InstallError> {
    std::str::from_utf8(bytes).map_err(|_| {
        InstallError::unsafe_entry(String::from_utf8_lossy(bytes), "entry name is not UTF-8")
    })
}

/// Reads at most `room + 1` bytes of an entry (the tree refuses anything over `room`).
fn read_capped(reader: impl Read, room: u64, what: &str) -> Result<Vec<u8>, InstallError> {
    let mut bytes = Vec::new();
    reader
        .take(room.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| bad(what, e))?;
    Ok(bytes)
}

/// Reads an archive of `format`; `what` names it in errors.
pub fn read_archive(
    bytes: &[u8],
    format: ArchiveFormat,
    what: &str,
    limits: Limits,
) -> Result<Package, InstallError> {
    let package = match format {
        ArchiveFormat::TarGz => read_tar_gz(bytes, what, limits)?,
        ArchiveFormat::Zip => read_zip(bytes, what, limits)?,
    };
    strip_single_root(package)
}

fn read_tar_gz(bytes: &[u8], what: &str, limits: Limits) -> Result<Package, InstallError> {
    use tar::EntryType;
    let mut builder = TreeBuilder::new(limits);
    let mut archive = tar::Archive::new(GzDecoder::new(bytes));
    for entry in archive.entries().map_err(|e| bad(what, e))? {
        let entry = entry.map_err(|e| bad(what, e))?;
        let path_bytes = entry.path_bytes().into_owned();
        let name = utf8_name(&path_bytes)?;
        match entry.header().entry_type() {
            EntryType::Directory => {}
            EntryType::XGlobalHeader | EntryType::XHeader => {}
            EntryType::Regular | EntryType::Continuous => {
                let executable = entry.header().mode().is_ok_and(|m| m & 0o100 != 0);
                let data = read_capped(entry, builder.room(), what)?;
                builder.add_file(name, data, executable)?;
            }
            EntryType::Symlink => {
                let target = entry
                    .link_name_bytes()
                    .map(|t| t.into_owned())
                    .unwrap_or_default();
                builder.add_symlink(name, utf8_name(&target)?)?;
            }
            EntryType::Link => {
                return Err(InstallError::unsafe_entry(
                    name,
                    "hard links are not installed",
                ));
            }
            other => {
                return Err(InstallError::unsafe_entry(
                    name,
                    format!("{other:?} entries (devices, FIFOs) are not installed"),
                ));
            }
        }
    }
    builder.finish()
}

fn read_zip(bytes: &[u8], what: &str, limits: Limits) -> Result<Package, InstallError> {
    let mut builder = TreeBuilder::new(limits);
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| bad(what, e))?;
    if archive.len() > limits.max_files.saturating_mul(2) {
        return Err(InstallError::TooLarge(format!(
            "{what} has {} entries",
            archive.len()
        )));
    }
    for i in 0..archive.len() {
        let file = archive.by_index(i).map_err(|e| bad(what, e))?;
        let name = utf8_name(file.name_raw())?.to_owned();
        if file.is_dir() {
            continue;
        }
        let mode = file.unix_mode().unwrap_or(0o644);
        let file_type = mode & 0o170000;
        if file.is_symlink() {
            let target = read_capped(file, 4096, what)?;
            builder.add_symlink(&name, utf8_name(&target)?)?;
        } else if file_type == 0 || file_type == 0o100000 {
            let data = read_capped(file, builder.room(), what)?;
            builder.add_file(&name, data, mode & 0o100 != 0)?;
        } else {
            return Err(InstallError::unsafe_entry(
                name,
                "devices and FIFOs are not installed",
            ));
        }
    }
    builder.finish()
}

/// GitHub, GitLab and `git archive --prefix` put everything under one top directory
/// (`repo-1.2/...`): the package starts inside it.
fn strip_single_root(package: Package) -> Result<Package, InstallError> {
    let mut root: Option<&str> = None;
    for file in package.files() {
        let Some((first, _)) = file.path.split_once('/') else {
            return Ok(package);
        };
        match root {
            None => root = Some(first),
            Some(r) if r == first => {}
            Some(_) => return Ok(package),
        }
    }
    let Some(root) = root.map(str::to_owned) else {
        return Ok(package);
    };
    let lead = format!("{root}/");
    let files = package
        .into_files()
        .into_iter()
        .map(|f| PackageFile {
            path: f.path.strip_prefix(&lead).unwrap_or(&f.path).to_owned(),
            content: f.content,
        })
        .collect::<Vec<_>>();
    // A link that climbed through the top directory would now leave: check again.
    crate::tree::check_links(Package::new(files))
}
