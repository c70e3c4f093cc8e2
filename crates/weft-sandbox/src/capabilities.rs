//! Capabilities dropped before the command runs. An unprivileged user has none; a root user's
//! would override the sandbox (`CAP_SYS_PTRACE` reads any process's memory and environment,
//! `CAP_SYS_MODULE` loads kernel code, ...), so the sandboxed command runs with none at all,
//! and cannot regain them when it executes something.

use rustix::io::Errno;
use rustix::thread::{
    CapabilitySet, CapabilitySets, capability_is_in_bounding_set, clear_ambient_capability_set,
    remove_capability_from_bounding_set, set_capabilities,
};

use crate::SandboxError;

/// Empties the bounding, ambient, effective, permitted and inheritable sets of the calling
/// thread.
pub(crate) fn drop_all() -> Result<(), SandboxError> {
    for capability in CapabilitySet::all().iter() {
        match capability_is_in_bounding_set(capability) {
            Ok(true) => {}
            // Not in the set, or unknown to this kernel.
            Ok(false) | Err(Errno::INVAL) => continue,
            Err(e) => return Err(error("reading the bounding set", e)),
        }
        match remove_capability_from_bounding_set(capability) {
            Ok(()) => {}
            // Without CAP_SETPCAP (an unprivileged user) the bounding set cannot shrink, but
            // such a user holds no capability to regain either.
            Err(Errno::PERM) => break,
            Err(e) => return Err(error("shrinking the bounding set", e)),
        }
    }
    clear_ambient_capability_set().map_err(|e| error("clearing the ambient set", e))?;
    let none = CapabilitySets {
        effective: CapabilitySet::empty(),
        permitted: CapabilitySet::empty(),
        inheritable: CapabilitySet::empty(),
    };
    set_capabilities(None, none).map_err(|e| error("dropping capabilities", e))
}

fn error(what: &'static str, source: Errno) -> SandboxError {
    SandboxError::System { what, source }
}
