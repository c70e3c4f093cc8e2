//! Installing skills from a directory, a git repository or an archive, pinned in a lockfile
//! and scanned before anything is written.
//!
//! The steps are separate so a front end can show and confirm what happens:
//!
//! 1. [`Source::parse`] reads what the user typed; [`fetch`] brings the source into memory
//!    (git with hooks off, `--depth 1`, no submodules; archives read, never extracted;
//!    directories read file by file, links never followed) under [`Limits`].
//! 2. [`plan_install`] finds the skills ([`find_skills`]), validates them with weft-parse,
//!    and scans them with weft-scan; nothing is written.
//! 3. [`apply_install`] writes each tree beside the skills directory and renames it into
//!    place, then writes `skills.lock` atomically.
//!
//! [`plan_update`] / [`apply_update`], [`plan_locked`] / [`apply_locked`] (install exactly
//! what the lockfile pins), [`remove`] and [`verify`] work on what the lockfile records;
//! [`scan_path`] scans any tree. Every location comes from the caller (an
//! [`InstallTarget`] is a scope's `.clawft` directory); nothing here reads the environment,
//! prints, or prompts.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), weft_install::InstallError> {
//! use std::time::SystemTime;
//! use weft_install::{apply_install, fetch, plan_install, FetchOptions, InstallTarget, Selection, Source};
//!
//! let tmp = std::env::temp_dir().join(format!("weft-install-doc-{}", std::process::id()));
//! let package = tmp.join("pdf-tools");
//! std::fs::create_dir_all(&package).unwrap();
//! std::fs::write(package.join("SKILL.md"), "---\nname: pdf-tools\ndescription: Work with PDFs\n---\nUse pdftotext.\n").unwrap();
//!
//! let target = InstallTarget::new(tmp.join("project/.clawft"));
//! let source = Source::parse(package.to_str().unwrap(), &tmp)?;
//! let fetched = fetch(&source, None, &FetchOptions::new(target.staging_dir())).await?;
//! let plan = plan_install(&target, &fetched, None, &Selection::Single, &[])?;
//! assert!(!plan.skills[0].scan.blocks_install());
//! apply_install(&target, &plan, false, SystemTime::now())?;
//!
//! let lock = target.load_lock()?;
//! assert_eq!(lock.skills["pdf-tools"].files.len(), 1);
//! assert!(weft_install::verify(&target)?[0].status.is_intact());
//! # std::fs::remove_dir_all(&tmp).unwrap();
//! # Ok(())
//! # }
//! ```
//!
//! # Code map
//!
//! Installing skills (`docs/SKILLS_INSTALL.md`). `source.rs` reads SOURCE (directory, git URL,
//! `owner/repo`, archive file or URL); `fetch.rs` brings it into memory: `local.rs` reads
//! directories (links recorded, never followed; files through
//! `weft_fs::RegularFile::open_no_follow`, regular files only), `git.rs` runs the `git` command
//! hardened (hooks off, `--depth 1`, no submodules, no prompts, only the environment the caller
//! passes, filtered through `GIT_ENV`, the allow-list of variables git may see; the clone watched
//! against a `CloneBudget` and git killed past it), `archive.rs` reads `.tar.gz`/`.zip` from memory
//! (for a scan, entries an install refuses are kept as `FileContent::Unsafe` for the scanner to
//! report), `download.rs` streams a URL under a cap. `tree.rs` is the in-memory package with every
//! safety rule (entry paths, caps, links resolved inside). `candidate.rs` finds and validates the
//! skills of a tree (weft-parse); `install.rs` plans (choose, validate, scan with weft-scan) and
//! applies; `target.rs` is a scope's `.clawft` (`InstallScope` → `InstallTarget::for_scope`,
//! staging with its `.gitignore` and stale-entry cleanup, real directories only, atomic swap,
//! exclusive lock through `weft_fs::open_lock_file`); `lock.rs` is `skills.lock` (read through
//! weft-fs under `LOCK_CAP`, stable JSON, atomic write); `locked.rs` installs exactly what the
//! lockfile pins (commit or archive hash, tree hash checked); `hash.rs` the file and tree hashes;
//! `update.rs` and `changes.rs` the update plan and its change summary; `verify.rs`, `remove.rs`;
//! `inspect.rs` scans any tree. Depends on `weft-types`, `weft-fs`, `weft-parse`, `weft-scan`,
//! reqwest, rustls (see "TLS" in docs/ARCHITECTURE.md), tokio, flate2, tar, zip, sha2, rayon,
//! futures-util, serde, serde_json, thiserror, tracing. Takes every path, the git program and its
//! environment (a lookup the caller provides), and the skills the user already has
//! (`weft_scan::KnownSkill`: name, place, directory) as arguments; never reads the environment,
//! never prints or prompts.

mod archive;
mod candidate;
mod changes;
mod download;
mod error;
mod fetch;
mod git;
mod hash;
mod inspect;
mod install;
mod local;
mod lock;
mod locked;
mod remove;
mod source;
mod target;
mod timestamp;
mod tree;
mod update;
mod verify;

pub use archive::{ArchiveFormat, read_archive, read_archive_for_scan};
pub use candidate::{Candidate, find_skills};
pub use changes::{Change, ChangeKind, changes, changes_for_missing};
pub use download::download;
pub use error::InstallError;
pub use fetch::{FetchOptions, Fetched, Resolved, fetch, sha256_hex};
pub use git::{CloneBudget, GIT_ENV, GitOptions, fetch_revision};
pub use hash::{FileEntry, file_entries, tree_hash};
pub use inspect::{SCAN_LIMITS, ScannedSkill, scan_path};
pub use install::{
    InstallOutcome, InstallPlan, InvalidSkill, PlannedSkill, Refusal, Selection, apply_install,
    plan_install,
};
pub use local::{read_dir_tree, read_dir_tree_for_scan, read_installed_tree};
pub use lock::{
    LOCK_CAP, LOCK_VERSION, LockEntry, LockedSource, Lockfile, ScanRecord, write_atomically,
};
pub use locked::{LockedAction, LockedPlan, LockedSkill, apply_locked, plan_locked};
pub use remove::remove;
pub use source::{Source, SourceKind};
pub use target::{InstallScope, InstallTarget, STALE_STAGING, SetAside};
pub use timestamp::rfc3339;
pub use tree::{Limits, TreeBuilder, normalize_entry_path, subtree};
pub use update::{SkillUpdate, UpdatePlan, apply_update, plan_update};
pub use verify::{Verification, VerifyStatus, verify, verify_dir, verify_skill};
