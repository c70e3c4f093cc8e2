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

/// The entry name as text; `None` when it is not UTF-8 (refused, or recorded for the scan
/// under its lossy spelling).
fn utf8_name<'a>(
    builder: &mut TreeBuilder,
    bytes: &'a [u8],
    what: &str,
) -> Result<Option<&'a str>, InstallError> {
    match std::str::from_utf8(bytes) {
        Ok(name) => Ok(Some(name)),
        Err(_) => {
            builder.refuse(
                &String::from_utf8_lossy(bytes),
                format!("{what} is not UTF-8"),
            )?;
            Ok(None)
        }
    }
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

/// Reads an archive of `format` for installing (an unsafe entry refuses it); `what` names
/// it in errors.
pub fn read_archive(
    bytes: &[u8],
    format: ArchiveFormat,
    what: &str,
    limits: Limits,
) -> Result<Package, InstallError> {
    read_with(bytes, format, what, TreeBuilder::new(limits))
}

/// Reads an archive of `format` for scanning: entries an install refuses (zip-slip paths,
/// hard links, devices, names that are not UTF-8 or given twice) are kept, under their
/// names as given, for the scanner to report where they are.
pub fn read_archive_for_scan(
    bytes: &[u8],
    format: ArchiveFormat,
    what: &str,
    limits: Limits,
) -> Result<Package, InstallError> {
    read_with(bytes, format, what, TreeBuilder::for_scan(limits))
}

fn read_with(
    bytes: &[u8],
    format: ArchiveFormat,
    what: &str,
    builder: TreeBuilder,
) -> Result<Package, InstallError> {
    let strict = !builder.is_lenient();
    let package = match format {
        ArchiveFormat::TarGz => read_tar_gz(bytes, what, builder)?,
        ArchiveFormat::Zip => read_zip(bytes, what, builder)?,
    };
    strip_single_root(package, strict)
}

fn read_tar_gz(
    bytes: &[u8],
    what: &str,
    mut builder: TreeBuilder,
) -> Result<Package, InstallError> {
    use tar::EntryType;
    let mut archive = tar::Archive::new(GzDecoder::new(bytes));
    for entry in archive.entries().map_err(|e| bad(what, e))? {
        let entry = entry.map_err(|e| bad(what, e))?;
        let path_bytes = entry.path_bytes().into_owned();
        let Some(name) = utf8_name(&mut builder, &path_bytes, "the entry name")? else {
            continue;
        };
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
                if let Some(target) = utf8_name(&mut builder, &target, "the link target")? {
                    builder.add_symlink(name, target)?;
                }
            }
            EntryType::Link => builder.refuse(name, "hard links are not installed")?,
            other => builder.refuse(
                name,
                format!("{other:?} entries (devices, FIFOs) are not installed"),
            )?,
        }
    }
    builder.finish()
}

fn read_zip(bytes: &[u8], what: &str, mut builder: TreeBuilder) -> Result<Package, InstallError> {
    let limits = builder.limits();
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| bad(what, e))?;
    if archive.len() > limits.max_files.saturating_mul(2) {
        return Err(InstallError::TooLarge(format!(
            "{what} has {} entries",
            archive.len()
        )));
    }
    for i in 0..archive.len() {
        let file = archive.by_index(i).map_err(|e| bad(what, e))?;
        let raw = file.name_raw().to_vec();
        let Some(name) = utf8_name(&mut builder, &raw, "the entry name")?.map(str::to_owned) else {
            continue;
        };
        if file.is_dir() {
            continue;
        }
        let mode = file.unix_mode().unwrap_or(0o644);
        let file_type = mode & 0o170000;
        if file.is_symlink() {
            let target = read_capped(file, 4096, what)?;
            if let Some(target) = utf8_name(&mut builder, &target, "the link target")? {
                builder.add_symlink(&name, target)?;
            }
        } else if file_type == 0 || file_type == 0o100000 {
            let data = read_capped(file, builder.room(), what)?;
            builder.add_file(&name, data, mode & 0o100 != 0)?;
        } else {
            builder.refuse(&name, "devices and FIFOs are not installed")?;
        }
    }
    builder.finish()
}

/// GitHub, GitLab and `git archive --prefix` put everything under one top directory
/// (`repo-1.2/...`): the package starts inside it.
fn strip_single_root(package: Package, strict: bool) -> Result<Package, InstallError> {
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
    crate::tree::check_links(Package::new(files), strict)
}
