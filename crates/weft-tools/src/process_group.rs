//! The process groups `exec_shell` starts, tracked so that none outlives weft: a cancelled or
//! timed-out call ends its group at once, and groups still alive (background jobs of a
//! command that exited) are ended by [`ProcessGroups::shutdown`] or when the last handle is
//! dropped.
//!
//! A group led by weft's helper (`weft sandbox exec`) is ended by SIGTERM to the helper: it
//! ends every process the command started, those that left the group (`setsid`, double forks)
//! included, which a SIGKILL of the group would miss (and it would kill the helper before it
//! could act). Whatever is still in the group after [`HELPER_GRACE`] gets SIGKILL. A group
//! without a helper gets SIGKILL at once.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use rustix::io::Errno;
use rustix::process::{Pid, Signal, kill_process, kill_process_group, test_kill_process_group};

/// How long a helper has to end what its command started before its group gets SIGKILL.
pub(crate) const HELPER_GRACE: Duration = Duration::from_secs(2);

/// How a group is ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ending {
    /// SIGTERM to the leader, weft's helper, which ends everything; SIGKILL to the group after
    /// [`HELPER_GRACE`].
    Helper,
    /// SIGKILL to the group.
    Kill,
}

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
    live: BTreeMap<u32, Ending>,
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
        self.registry.lock().live.keys().copied().collect()
    }

    /// Ends every registered group (its helper's SIGTERM first, waiting up to
    /// [`HELPER_GRACE`], then SIGKILL) and refuses groups registered afterwards (they are
    /// ended as they start). Returns how many groups were signalled.
    pub fn shutdown(&self) -> usize {
        end_all(self.close(), true)
    }

    /// [`shutdown`](Self::shutdown) without waiting for the helpers, for a process about to
    /// exit on a signal: each helper ends what its command started on its own (and again when
    /// weft's death reaches it), so weft's exit status is not held up or raced.
    pub fn shutdown_now(&self) -> usize {
        end_all(self.close(), false)
    }

    /// Refuses new groups; the registered ones.
    fn close(&self) -> BTreeMap<u32, Ending> {
        let mut state = self.registry.lock();
        state.closed = true;
        std::mem::take(&mut state.live)
    }

    /// Registers a group that has just started (a child spawned with `process_group(0)`:
    /// its pid is the group id) and that SIGKILL ends; the guard kills it unless told
    /// otherwise. Hook commands register here beside `exec_shell`'s, so weft's exit ends both.
    pub fn register(&self, pgid: u32) -> Result<GroupGuard, ShuttingDown> {
        self.register_ending(pgid, Ending::Kill)
    }

    /// Registers a group that has just started, ended as `ending` says; the guard ends it
    /// unless told otherwise.
    pub(crate) fn register_ending(
        &self,
        pgid: u32,
        ending: Ending,
    ) -> Result<GroupGuard, ShuttingDown> {
        let mut state = self.registry.lock();
        if state.closed {
            drop(state);
            end_all(BTreeMap::from([(pgid, ending)]), false);
            return Err(ShuttingDown);
        }
        // Forget groups whose every process has exited, so a long session's registry does
        // not grow and an id is not kept after it could be reused.
        state.live.retain(|&id, _| group_exists(id));
        state.live.insert(pgid, ending);
        Ok(GroupGuard {
            groups: self.clone(),
            pgid: Some((pgid, ending)),
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
        end_all(std::mem::take(&mut state.live), true);
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

/// One call's group: ended when the guard drops while armed (a cancelled call).
#[derive(Debug)]
pub struct GroupGuard {
    groups: ProcessGroups,
    pgid: Option<(u32, Ending)>,
}

impl GroupGuard {
    /// Asks the group to end: SIGTERM to a helper (which ends everything the command started),
    /// SIGKILL to a group without one. The guard stays armed: [`kill`](Self::kill) finishes.
    pub(crate) fn terminate(&self) {
        match self.pgid {
            Some((pgid, Ending::Helper)) => signal_leader(pgid, Signal::TERM),
            Some((pgid, Ending::Kill)) => {
                kill_group(pgid);
            }
            None => {}
        }
    }

    /// SIGKILL to whatever is left of the group now (after [`terminate`](Self::terminate) and
    /// a wait).
    pub fn kill(&mut self) {
        if let Some((pgid, _)) = self.pgid.take() {
            kill_group(pgid);
            self.groups.forget(pgid);
        }
    }

    /// The command exited normally. A helper has ended everything it started; without one,
    /// background jobs it left keep running, as they would after a shell, and the group
    /// stays registered while any is alive, so that weft's own exit still ends them.
    pub fn release(&mut self) {
        if let Some((pgid, _)) = self.pgid.take()
            && !group_exists(pgid)
        {
            self.groups.forget(pgid);
        }
    }
}

impl Drop for GroupGuard {
    /// A cancelled call: ended as [`ProcessGroups::shutdown`] ends groups, without waiting
    /// here (a thread gives a helper its grace).
    fn drop(&mut self) {
        if let Some((pgid, ending)) = self.pgid.take() {
            self.groups.forget(pgid);
            match ending {
                Ending::Kill => {
                    kill_group(pgid);
                }
                Ending::Helper => {
                    signal_leader(pgid, Signal::TERM);
                    std::thread::spawn(move || {
                        wait_for_groups(&[pgid], HELPER_GRACE);
                        kill_group(pgid);
                    });
                }
            }
        }
    }
}

/// Ends `groups`: SIGTERM to the helpers, SIGKILL to the others; then, with `wait`, once the
/// helpers' groups are gone or [`HELPER_GRACE`] has passed, SIGKILL to what is left. Returns
/// how many groups were signalled.
fn end_all(groups: BTreeMap<u32, Ending>, wait: bool) -> usize {
    let mut signalled = 0;
    let mut helpers = Vec::new();
    for (pgid, ending) in groups {
        if !group_exists(pgid) {
            continue;
        }
        signalled += 1;
        match ending {
            Ending::Helper => {
                signal_leader(pgid, Signal::TERM);
                helpers.push(pgid);
            }
            Ending::Kill => {
                kill_group(pgid);
            }
        }
    }
    if wait {
        wait_for_groups(&helpers, HELPER_GRACE);
        for pgid in helpers {
            kill_group(pgid);
        }
    }
    signalled
}

/// Waits until the helper leading each group of `groups` has finished (exited, even if not
/// yet reaped: it ends and reaps everything else first), or `limit` has passed.
fn wait_for_groups(groups: &[u32], limit: Duration) {
    let deadline = Instant::now() + limit;
    while groups.iter().any(|&g| leader_running(g)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Whether the process whose id is `pgid` runs (exists and is not a zombie).
fn leader_running(pgid: u32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pgid}/stat")) else {
        return false;
    };
    // After the parenthesised name: the state.
    stat.rsplit_once(") ")
        .and_then(|(_, rest)| rest.split_whitespace().next())
        .is_some_and(|state| !matches!(state, "Z" | "X"))
}

/// Sends `signal` to the group's leader (the process whose id is the group's).
fn signal_leader(pgid: u32, signal: Signal) {
    if let Some(pid) = group_pid(pgid) {
        match kill_process(pid, signal) {
            Ok(()) | Err(Errno::SRCH) => {}
            Err(err) => tracing::warn!(pgid, %err, "cannot signal a command's helper"),
        }
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
