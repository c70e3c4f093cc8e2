//! Hashes of an installed tree: one per file and one for the whole tree.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use weft_scan::{FileContent, Package};

use crate::fetch::{hex, sha256_hex};

/// What the lockfile records about one entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum FileEntry {
    /// A regular file.
    File {
        /// SHA-256 of the bytes, lower-case hex.
        sha256: String,
        /// Size in bytes.
        size: u64,
        /// The owner-executable bit.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        executable: bool,
    },
    /// A symbolic link (inside the skill).
    Link {
        /// The target as written.
        symlink: String,
    },
    /// Something the lockfile never records for an install (a FIFO, a device); seen only
    /// when verifying a tampered tree.
    Other {
        /// What it is.
        special: String,
    },
}

/// The entry of every file of `package`, by path.
pub fn file_entries(package: &Package) -> BTreeMap<String, FileEntry> {
    package
        .files()
        .iter()
        .map(|f| {
            let entry = match &f.content {
                FileContent::Regular { bytes, executable } => FileEntry::File {
                    sha256: sha256_hex(bytes),
                    size: bytes.len() as u64,
                    executable: *executable,
                },
                FileContent::Symlink { target, .. } => FileEntry::Link {
                    symlink: target.clone(),
                },
                FileContent::Special { kind } => FileEntry::Other {
                    special: kind.clone(),
                },
                FileContent::Unsafe { reason } => FileEntry::Other {
                    special: reason.clone(),
                },
            };
            (f.path.clone(), entry)
        })
        .collect()
}

/// The tree hash: SHA-256 over one line per entry in path order,
/// `<path> NUL file NUL <x|-> NUL <sha256> LF` for files and `<path> NUL link NUL <target> LF`
/// for links. Equal trees have equal hashes whatever order they were read in.
pub fn tree_hash(entries: &BTreeMap<String, FileEntry>) -> String {
    let mut hasher = Sha256::new();
    for (path, entry) in entries {
        hasher.update(path.as_bytes());
        match entry {
            FileEntry::File {
                sha256, executable, ..
            } => {
                hasher.update(b"\0file\0");
                hasher.update(if *executable { b"x" } else { b"-" });
                hasher.update(b"\0");
                hasher.update(sha256.as_bytes());
            }
            FileEntry::Link { symlink } => {
                hasher.update(b"\0link\0");
                hasher.update(symlink.as_bytes());
            }
            FileEntry::Other { special } => {
                hasher.update(b"\0other\0");
                hasher.update(special.as_bytes());
            }
        }
        hasher.update(b"\n");
    }
    hex(&hasher.finalize())
}
