//! Reading and writing a scope's `plugins.lock`, and recording sources the way
//! weft-install records them.

use weft_install::{Source, SourceKind, write_atomically};
use weft_plugin::{PluginLock, RecordedSource};

use crate::error::MarketplaceError;
use crate::target::PluginTarget;

/// The scope's record (empty when there is none).
pub(crate) fn load(target: &PluginTarget) -> Result<PluginLock, MarketplaceError> {
    Ok(target.store.load_lock()?)
}

/// Writes the record atomically.
pub(crate) fn save(target: &PluginTarget, lock: &PluginLock) -> Result<(), MarketplaceError> {
    write_atomically(&target.store.lock_path(), lock.to_json().as_bytes())?;
    Ok(())
}

/// `git`, `local` or `archive`, as weft-install's lockfile spells it.
pub(crate) fn kind_name(kind: SourceKind) -> &'static str {
    match kind {
        SourceKind::Git => "git",
        SourceKind::Local => "local",
        SourceKind::Archive => "archive",
    }
}

/// The record of `source` fetched at `reference`, `subpath` inside it.
pub(crate) fn recorded(source: &Source, reference: Option<&str>, subpath: &str) -> RecordedSource {
    RecordedSource {
        kind: kind_name(source.kind()).to_owned(),
        location: source.location(),
        reference: reference.map(str::to_owned),
        subpath: subpath.to_owned(),
    }
}

/// The source a record names, checked as a typed one would be (a lockfile may come from
/// someone else's commit).
pub(crate) fn source_of(record: &RecordedSource) -> Result<Source, MarketplaceError> {
    let kind = match record.kind.as_str() {
        "git" => SourceKind::Git,
        "local" => SourceKind::Local,
        other => {
            return Err(weft_install::InstallError::BadSource(format!(
                "{}: a recorded source of type `{other}` is not one weft fetches for plugins",
                record.location
            ))
            .into());
        }
    };
    Ok(Source::from_locked(kind, &record.location)?)
}
