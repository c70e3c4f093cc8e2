//! No `exec_shell` process outlives weft. The commands run in process groups of their own, so
//! the terminal's Ctrl-C (SIGINT to weft's group), a SIGTERM or a SIGHUP reaches only weft:
//! a watcher thread catches those signals, kills every registered group and exits with
//! 128 + the signal number; and when weft ends normally, the guard kills what is left
//! (background jobs of commands that exited).

use anyhow::{Context, Result};
use tokio::signal::unix::{SignalKind, signal};
use weft_tools::ProcessGroups;

/// Which signals end weft (and its commands). The REPL keeps Ctrl-C for cancelling a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exits {
    /// SIGINT, SIGTERM, SIGHUP: a one-shot run.
    OnInterrupt,
    /// SIGTERM, SIGHUP: the interactive session.
    OnTerminate,
}

/// Kills the registered groups when dropped (weft's normal end).
#[must_use = "the groups are killed when the guard drops"]
pub struct GroupsGuard {
    groups: ProcessGroups,
}

impl Drop for GroupsGuard {
    fn drop(&mut self) {
        let killed = self.groups.shutdown();
        if killed > 0 {
            tracing::debug!(killed, "killed the process groups left by exec_shell");
        }
    }
}

/// Starts the watcher for `exits`; returns once the handlers are installed.
pub fn kill_groups_on_exit(groups: &ProcessGroups, exits: Exits) -> Result<GroupsGuard> {
    let mut kinds = vec![(SignalKind::terminate(), 143), (SignalKind::hangup(), 129)];
    if exits == Exits::OnInterrupt {
        kinds.push((SignalKind::interrupt(), 130));
    }
    let (ready_tx, ready_rx) = std::sync::mpsc::channel::<std::io::Result<()>>();
    let watched = groups.clone();
    std::thread::Builder::new()
        .name("weft-signals".to_owned())
        .spawn(move || watch(kinds, watched, ready_tx))
        .context("cannot start the signal watcher")?;
    ready_rx
        .recv()
        .context("the signal watcher stopped")?
        .context("cannot install signal handlers")?;
    Ok(GroupsGuard {
        groups: groups.clone(),
    })
}

/// The watcher thread: its own small runtime, one task per signal, the first one wins.
fn watch(
    kinds: Vec<(SignalKind, u8)>,
    groups: ProcessGroups,
    ready: std::sync::mpsc::Sender<std::io::Result<()>>,
) {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            let _ = ready.send(Err(e));
            return;
        }
    };
    runtime.block_on(async move {
        let (hit_tx, mut hit_rx) = tokio::sync::mpsc::unbounded_channel::<u8>();
        for (kind, code) in kinds {
            let mut stream = match signal(kind) {
                Ok(stream) => stream,
                Err(e) => {
                    let _ = ready.send(Err(e));
                    return;
                }
            };
            let hit = hit_tx.clone();
            tokio::spawn(async move {
                if stream.recv().await.is_some() {
                    let _ = hit.send(code);
                }
            });
        }
        let _ = ready.send(Ok(()));
        if let Some(code) = hit_rx.recv().await {
            let killed = groups.shutdown_now();
            tracing::debug!(killed, code, "signal: ended exec_shell process groups");
            std::process::exit(i32::from(code));
        }
    });
}
