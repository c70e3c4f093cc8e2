//! The Landlock ruleset: which file-system rights are handled, the grants that make up the
//! policy, and the TCP and scope restrictions that come with a network-off policy.

use std::path::{Path, PathBuf};

use landlock::{
    ABI, Access, AccessFs, AccessNet, BitFlags, LandlockStatus, PathBeneath, PathFd, Ruleset,
    RulesetAttr, RulesetCreated, RulesetCreatedAttr, RulesetStatus, Scope,
};

use crate::SandboxError;

/// The newest Landlock ABI weft asks for: every right up to it is handled (denied unless
/// granted). Rights of newer ABIs stay unhandled until they are tested here.
pub(crate) const TARGET_ABI: ABI = ABI::V7;

/// Device files every command may read and write (`> /dev/null`, `head -c 16 /dev/urandom`).
const DEVICES: [&str; 5] = [
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
];

/// Shared-memory directory (POSIX semaphores and `shm_open`: Python's multiprocessing).
const SHARED_MEMORY: &str = "/dev/shm";

/// The paths granted: `read` with read and execute rights beneath them, `write` with every
/// right.
#[derive(Debug, Default)]
pub(crate) struct FsGrants {
    pub(crate) read: Vec<PathBuf>,
    pub(crate) write: Vec<PathBuf>,
}

/// What Landlock enforced.
pub(crate) struct LandlockOutcome {
    pub(crate) abi: u32,
    pub(crate) complete: bool,
}

impl FsGrants {
    /// Builds the ruleset and restricts the calling thread (setting `no_new_privs`).
    pub(crate) fn restrict_self(&self, network: bool) -> Result<LandlockOutcome, SandboxError> {
        let mut ruleset = Ruleset::default()
            .handle_access(AccessFs::from_all(TARGET_ABI))?
            // Signals only to processes inside the sandbox (ABI 6; dropped on older kernels).
            .scope(Scope::Signal)?;
        if !network {
            // TCP bind/connect (ABI 4) and abstract UNIX sockets made outside (ABI 6): a second
            // layer under the seccomp filter.
            ruleset = ruleset
                .handle_access(AccessNet::from_all(TARGET_ABI))?
                .scope(Scope::AbstractUnixSocket)?;
        }
        let mut created = ruleset.create()?;
        // Directories can be listed everywhere: without it `ls /` would fail whenever a path
        // beneath `/` is denied. Names in a denied directory show; contents do not.
        created = add(created, Path::new("/"), AccessFs::ReadDir.into())?;
        for path in &self.read {
            created = add(created, path, AccessFs::from_read(TARGET_ABI))?;
        }
        for path in &self.write {
            created = add(created, path, AccessFs::from_all(TARGET_ABI))?;
        }
        for device in DEVICES {
            let rights = AccessFs::ReadFile | AccessFs::WriteFile | AccessFs::IoctlDev;
            created = add(created, Path::new(device), rights)?;
        }
        created = add(
            created,
            Path::new(SHARED_MEMORY),
            AccessFs::from_all(TARGET_ABI),
        )?;
        let status = created.restrict_self()?;
        let abi = match status.landlock {
            LandlockStatus::Available { effective_abi, .. } => abi_number(effective_abi),
            LandlockStatus::NotEnabled => return Err(unavailable("Landlock is not enabled")),
            LandlockStatus::NotImplemented => {
                return Err(unavailable("Landlock is not built into this kernel"));
            }
        };
        match status.ruleset {
            RulesetStatus::NotEnforced => Err(unavailable("the Landlock ruleset was not enforced")),
            ruleset if !status.no_new_privs => Err(SandboxError::Unavailable(format!(
                "no_new_privs could not be set (Landlock {ruleset:?})"
            ))),
            RulesetStatus::FullyEnforced => Ok(LandlockOutcome {
                abi,
                complete: true,
            }),
            RulesetStatus::PartiallyEnforced => Ok(LandlockOutcome {
                abi,
                complete: false,
            }),
        }
    }
}

/// Grants `rights` beneath `path` (only the rights that apply to a file when it is one). A
/// path that vanished since it was listed is skipped.
fn add(
    created: RulesetCreated,
    path: &Path,
    rights: BitFlags<AccessFs>,
) -> Result<RulesetCreated, SandboxError> {
    let Ok(meta) = std::fs::metadata(path) else {
        tracing::debug!(path = %path.display(), "gone before it could be granted");
        return Ok(created);
    };
    let rights = if meta.is_dir() {
        rights
    } else {
        rights & AccessFs::from_file(TARGET_ABI)
    };
    if rights.is_empty() {
        return Ok(created);
    }
    let fd = match PathFd::new(path) {
        Ok(fd) => fd,
        Err(err) => {
            tracing::debug!(path = %path.display(), %err, "cannot open; not granted");
            return Ok(created);
        }
    };
    Ok(created.add_rule(PathBeneath::new(fd, rights))?)
}

fn unavailable(reason: &str) -> SandboxError {
    SandboxError::Unavailable(reason.to_owned())
}

/// The ABI as its number (the enum is `non_exhaustive`, so no `as` cast).
pub(crate) fn abi_number(abi: ABI) -> u32 {
    match abi {
        ABI::Unsupported => 0,
        ABI::V1 => 1,
        ABI::V2 => 2,
        ABI::V3 => 3,
        ABI::V4 => 4,
        ABI::V5 => 5,
        ABI::V6 => 6,
        ABI::V7 => 7,
        ABI::V8 => 8,
        ABI::V9 => 9,
        _ => 10,
    }
}
