//! The helper as a child subreaper: every process a command starts stays its descendant, even
//! one that leaves the command's process group or session (`setsid`) or whose parent exits (a
//! double fork): the kernel hands orphans to the nearest subreaper instead of to `init`. So
//! when the command ends, the helper can end everything it started, which a process-group kill
//! cannot.

use std::collections::BTreeSet;

use rustix::io::Errno;
use rustix::process::{Pid, Signal, WaitOptions, getpid, kill_process, waitpid};

/// How many rounds of "kill every child, reap them" before giving up (each round ends at
/// least the children listed; their orphans become children for the next).
const MAX_ROUNDS: usize = 10_000;

/// Marks every descriptor above 2 that the process inherited close-on-exec, so that nothing it
/// executes sees them (a socket or file its parent left open without the flag). Descriptors it
/// opens later are close-on-exec already (Rust and tokio open everything so).
pub fn close_inherited_descriptors() {
    close_fds::set_fds_cloexec(3, &[]);
}

/// Makes the calling process a child subreaper (`PR_SET_CHILD_SUBREAPER`).
pub fn become_subreaper() -> Result<(), crate::SandboxError> {
    rustix::process::set_child_subreaper(Some(getpid())).map_err(|source| {
        crate::SandboxError::System {
            what: "becoming a child subreaper",
            source,
        }
    })
}

/// Ends every descendant of the calling process (a subreaper) with SIGKILL and reaps it:
/// kills its children, reaps them, and repeats while orphans keep arriving. Returns how many
/// processes were ended.
pub fn end_descendants() -> usize {
    let mut ended = 0;
    for _ in 0..MAX_ROUNDS {
        let children = children_of_self();
        if children.is_empty() {
            break;
        }
        for &pid in &children {
            if let Some(pid) = Pid::from_raw(pid) {
                let _ = kill_process(pid, Signal::KILL);
            }
        }
        for &pid in &children {
            if let Some(pid) = Pid::from_raw(pid) {
                // Blocks until that child is gone; SIGKILL cannot be caught.
                match waitpid(Some(pid), WaitOptions::empty()) {
                    Ok(_) => ended += 1,
                    Err(Errno::CHILD) => {}
                    Err(err) => tracing::debug!(?pid, %err, "cannot reap"),
                }
            }
        }
    }
    ended
}

/// The calling process's live children: from `/proc/self/task/*/children`, else (a kernel
/// without `CONFIG_PROC_CHILDREN`) from every process's parent in `/proc/*/stat`.
fn children_of_self() -> Vec<i32> {
    let mut found = BTreeSet::new();
    let mut listed = false;
    if let Ok(tasks) = std::fs::read_dir("/proc/self/task") {
        for task in tasks.flatten() {
            if let Ok(text) = std::fs::read_to_string(task.path().join("children")) {
                listed = true;
                found.extend(
                    text.split_whitespace()
                        .filter_map(|p| p.parse::<i32>().ok()),
                );
            }
        }
    }
    if !listed {
        let me = getpid().as_raw_nonzero().get();
        found.extend(children_from_stat(me));
    }
    found.into_iter().collect()
}

/// Processes whose parent is `parent`, from `/proc/<pid>/stat`.
fn children_from_stat(parent: i32) -> Vec<i32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| {
            let pid: i32 = entry.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            // After the parenthesised name: state, ppid, ...
            let (_, rest) = stat.rsplit_once(") ")?;
            let ppid: i32 = rest.split_whitespace().nth(1)?.parse().ok()?;
            (ppid == parent).then_some(pid)
        })
        .collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn both_ways_of_listing_children_find_a_child() {
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let pid = i32::try_from(child.id()).unwrap();
        let me = getpid().as_raw_nonzero().get();
        assert!(children_from_stat(me).contains(&pid));
        assert!(children_of_self().contains(&pid));
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(!children_of_self().contains(&pid));
    }
}
