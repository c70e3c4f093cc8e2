//! The process groups `exec_shell` starts, tracked so that none outlives weft: a cancelled or
//! timed-out call kills its group at once, and groups still alive (background jobs of a
//! command that exited) are killed by [`ProcessGroups::shutdown`] or when the last handle is
//! dropped.

use std::collections::BTreeSet;
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use rustix::io::Errno;
use rustix::process::{Pid, Signal, kill_process_group, test_kill_process_group};

/// A shared registry of live process groups. Clones share it; the CLI keeps one to kill the
/// groups on Ctrl-C, SIGTERM and exit.
///
/// ```
/// use weft_tools::ProcessGroups;
///
/// let groups = ProcessGroups::new();
/// assert!(groups.live().is_empty());
/// assert_eq!(groups.shutdown(), 0);
/// ```
#[derive(Clone, Default)]
pub struct ProcessGroups {
    registry: Arc<Registry>,
}

#[derive(Default)]
struct Registry {
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    live: BTreeSet<u32>,
    closed: bool,
}

/// [`ProcessGroups::shutdown`] was called: no new group may start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShuttingDown;

impl ProcessGroups {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// The ids of the groups registered and not known to be gone, in ascending order.
    pub fn live(&self) -> Vec<u32> {
        self.registry.lock().live.iter().copied().collect()
    }

    /// Kills every registered group with SIGKILL and refuses groups registered afterwards
    /// (they are killed as they start). Returns how many groups were signalled.
    pub fn shutdown(&self) -> usize {
        let live = {
            let mut state = self.registry.lock();
            state.closed = true;
            std::mem::take(&mut state.live)
        };
        live.into_iter().filter(|&pgid| kill_group(pgid)).count()
    }

    /// Registers a group that has just started (a child spawned with `process_group(0)`:
    /// its pid is the group id); the guard kills it unless told otherwise. `exec_shell` and
    /// hook commands register here, so weft's exit ends both.
    pub fn register(&self, pgid: u32) -> Result<GroupGuard, ShuttingDown> {
        let mut state = self.registry.lock();
        if state.closed {
            drop(state);
            kill_group(pgid);
            return Err(ShuttingDown);
        }
        // Forget groups whose every process has exited, so a long session's registry does
        // not grow and an id is not kept after it could be reused.
        state.live.retain(|&id| group_exists(id));
        state.live.insert(pgid);
        Ok(GroupGuard {
            groups: self.clone(),
            pgid: Some(pgid),
        })
    }

    fn forget(&self, pgid: u32) {
        self.registry.lock().live.remove(&pgid);
    }
}

impl Registry {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Drop for Registry {
    /// The last handle is gone: nothing can kill these groups later.
    fn drop(&mut self) {
        let state = self.state.get_mut().unwrap_or_else(PoisonError::into_inner);
        for pgid in std::mem::take(&mut state.live) {
            kill_group(pgid);
        }
    }
}

impl PartialEq for ProcessGroups {
    /// The same registry.
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.registry, &other.registry)
    }
}

impl Eq for ProcessGroups {}

impl fmt::Debug for ProcessGroups {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProcessGroups")
            .field("live", &self.live())
            .finish()
    }
}

/// One call's group: killed when the guard drops while armed (a cancelled call).
#[derive(Debug)]
pub struct GroupGuard {
    groups: ProcessGroups,
    pgid: Option<u32>,
}

impl GroupGuard {
    /// Kills the group now (a timeout).
    pub fn kill(&mut self) {
        if let Some(pgid) = self.pgid.take() {
            kill_group(pgid);
            self.groups.forget(pgid);
        }
    }

    /// The command exited normally. Background jobs it left keep running, as they would
    /// after a shell, and the group stays registered while any is alive, so that weft's own
    /// exit still ends them.
    pub fn release(&mut self) {
        if let Some(pgid) = self.pgid.take()
            && !group_exists(pgid)
        {
            self.groups.forget(pgid);
        }
    }
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Sends SIGKILL to process group `pgid`; true when the group existed.
fn kill_group(pgid: u32) -> bool {
    let Some(pid) = group_pid(pgid) else {
        return false;
    };
    match kill_process_group(pid, Signal::KILL) {
        Ok(()) => true,
        Err(Errno::SRCH) => false,
        Err(err) => {
            tracing::warn!(pgid, %err, "cannot kill a command's process group");
            false
        }
    }
}

/// Whether any process is still in group `pgid`.
fn group_exists(pgid: u32) -> bool {
    group_pid(pgid).is_some_and(|pid| !matches!(test_kill_process_group(pid), Err(Errno::SRCH)))
}

/// The id as a `Pid`, refusing 0 and 1: `kill(-1)` would signal every process and a group id
/// of 0 would mean our own group.
fn group_pid(pgid: u32) -> Option<Pid> {
    let raw = i32::try_from(pgid).ok().filter(|&id| id > 1)?;
    Pid::from_raw(raw)
}
