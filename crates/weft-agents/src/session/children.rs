//! The subagents a session started: their state, results, and background tasks.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use weft_llm::Usage;

/// Where a child is.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum ChildStatus {
    /// Still working.
    Running,
    /// Finished with a final message.
    Completed {
        /// The child's final message.
        result: String,
    },
    /// Failed (model error, transcript error...).
    Failed {
        /// What went wrong.
        error: String,
    },
    /// Stopped by its timeout (seed 000 ExecutionTimeout).
    TimedOut {
        /// The error text.
        error: String,
    },
    /// Cancelled by the parent.
    Cancelled,
}

impl ChildStatus {
    /// `running`, `completed`, `failed`, `timed_out` or `cancelled`.
    pub fn label(&self) -> &'static str {
        match self {
            ChildStatus::Running => "running",
            ChildStatus::Completed { .. } => "completed",
            ChildStatus::Failed { .. } => "failed",
            ChildStatus::TimedOut { .. } => "timed_out",
            ChildStatus::Cancelled => "cancelled",
        }
    }

    /// The final message or the error.
    pub fn text(&self) -> &str {
        match self {
            ChildStatus::Running => "",
            ChildStatus::Completed { result } => result,
            ChildStatus::Failed { error } | ChildStatus::TimedOut { error } => error,
            ChildStatus::Cancelled => "cancelled by the parent",
        }
    }
}

/// What the parent (and `sessions_list`) sees of a child.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChildSummary {
    /// Session id (its transcript is `<id>.jsonl`).
    pub id: String,
    /// The label given at spawn time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Its agent.
    pub agent: String,
    /// `provider/model`.
    pub model: String,
    /// Tools it was offered.
    pub tools: Vec<String>,
    /// Skills injected into it.
    pub skills: Vec<String>,
    /// Background or foreground.
    pub background: bool,
    /// State and result.
    #[serde(flatten)]
    pub status: ChildStatus,
    /// Wall time so far, or in total.
    pub duration_ms: u64,
    /// Tokens used (when finished).
    pub usage: Usage,
}

struct ChildRecord {
    summary: ChildSummary,
    started: Instant,
    handle: Option<JoinHandle<()>>,
    /// The parent has been told the result (as a message on a later turn or by
    /// `sessions_result`).
    delivered: bool,
}

/// Why a child cannot be cancelled.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChildError {
    /// No child has this id.
    #[error("no subagent `{0}`")]
    NotFound(String),
    /// The child has already ended.
    #[error("subagent `{id}` already ended ({status})")]
    AlreadyEnded {
        /// The child's id.
        id: String,
        /// How it ended (`completed`, `failed`, ...).
        status: &'static str,
    },
}

/// The children of one session.
pub(crate) struct Children {
    inner: Mutex<ChildrenInner>,
    /// Bumped whenever a child starts or ends, so waiters wake up instead of polling.
    changed: watch::Sender<u64>,
}

impl Default for Children {
    fn default() -> Self {
        Self {
            inner: Mutex::default(),
            changed: watch::Sender::new(0),
        }
    }
}

#[derive(Default)]
struct ChildrenInner {
    next: u32,
    records: BTreeMap<String, ChildRecord>,
}

impl std::fmt::Debug for Children {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Children").finish_non_exhaustive()
    }
}

impl Children {
    fn lock(&self) -> std::sync::MutexGuard<'_, ChildrenInner> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Tells waiters that a child started or ended.
    fn notify(&self) {
        self.changed.send_modify(|n| *n = n.wrapping_add(1));
    }

    /// Waits until `done` holds, re-checking whenever a child starts or ends.
    pub(crate) async fn wait_until(&self, done: impl Fn(&Self) -> bool) {
        // Subscribing before the first check: a change between the check and the wait is
        // still seen by `changed`.
        let mut changes = self.changed.subscribe();
        while !done(self) {
            if changes.changed().await.is_err() {
                return;
            }
        }
    }

    /// Continues the numbering after `n` children (a resumed session's earlier ones).
    pub(crate) fn skip_numbers(&self, n: u32) {
        let mut inner = self.lock();
        inner.next = inner.next.max(n);
    }

    /// The next child number (1, 2, ...).
    pub(crate) fn next_number(&self) -> u32 {
        let mut inner = self.lock();
        inner.next += 1;
        inner.next
    }

    /// Children still running in the background.
    pub(crate) fn running(&self) -> usize {
        self.lock()
            .records
            .values()
            .filter(|r| r.summary.status == ChildStatus::Running)
            .count()
    }

    /// Ended background children whose results the parent has not seen.
    pub(crate) fn undelivered(&self) -> usize {
        self.lock()
            .records
            .values()
            .filter(|r| !r.delivered && r.summary.status != ChildStatus::Running)
            .count()
    }

    /// Records a child that has just started.
    pub(crate) fn start(&self, summary: ChildSummary) {
        let id = summary.id.clone();
        self.lock().records.insert(
            id,
            ChildRecord {
                summary,
                started: Instant::now(),
                handle: None,
                delivered: false,
            },
        );
        self.notify();
    }

    /// Remembers the task of a background child (for cancellation).
    pub(crate) fn set_handle(&self, id: &str, handle: JoinHandle<()>) {
        if let Some(r) = self.lock().records.get_mut(id)
            && r.summary.status == ChildStatus::Running
        {
            r.handle = Some(handle);
        }
    }

    /// Records how a child ended; a cancelled child stays cancelled.
    pub(crate) fn finish(
        &self,
        id: &str,
        status: ChildStatus,
        usage: Usage,
        delivered: bool,
    ) -> Option<ChildSummary> {
        let done = {
            let mut inner = self.lock();
            let r = inner.records.get_mut(id)?;
            if r.summary.status != ChildStatus::Running {
                return None;
            }
            r.summary.status = status;
            r.summary.usage = usage;
            r.summary.duration_ms = millis(r.started.elapsed());
            r.handle = None;
            r.delivered = delivered;
            r.summary.clone()
        };
        self.notify();
        Some(done)
    }

    /// Cancels a running background child.
    pub(crate) fn cancel(&self, id: &str) -> Result<ChildSummary, ChildError> {
        let cancelled = {
            let mut inner = self.lock();
            let Some(r) = inner.records.get_mut(id) else {
                return Err(ChildError::NotFound(id.to_owned()));
            };
            if r.summary.status != ChildStatus::Running {
                return Err(ChildError::AlreadyEnded {
                    id: id.to_owned(),
                    status: r.summary.status.label(),
                });
            }
            if let Some(handle) = r.handle.take() {
                handle.abort();
            }
            r.summary.status = ChildStatus::Cancelled;
            r.summary.duration_ms = millis(r.started.elapsed());
            r.delivered = true;
            r.summary.clone()
        };
        self.notify();
        Ok(cancelled)
    }

    /// True while the child `id` exists and runs.
    pub(crate) fn is_running(&self, id: &str) -> bool {
        self.lock()
            .records
            .get(id)
            .is_some_and(|r| r.summary.status == ChildStatus::Running)
    }

    /// One child, marking its result delivered when it has ended.
    pub(crate) fn get(&self, id: &str) -> Option<ChildSummary> {
        let mut inner = self.lock();
        let r = inner.records.get_mut(id)?;
        let mut summary = r.summary.clone();
        if summary.status == ChildStatus::Running {
            summary.duration_ms = millis(r.started.elapsed());
        } else {
            r.delivered = true;
        }
        Some(summary)
    }

    /// Every child, oldest first.
    pub(crate) fn list(&self) -> Vec<ChildSummary> {
        let inner = self.lock();
        let mut all: Vec<(Instant, ChildSummary)> = inner
            .records
            .values()
            .map(|r| {
                let mut s = r.summary.clone();
                if s.status == ChildStatus::Running {
                    s.duration_ms = millis(r.started.elapsed());
                }
                (r.started, s)
            })
            .collect();
        all.sort_by_key(|(t, _)| *t);
        all.into_iter().map(|(_, s)| s).collect()
    }

    /// Ended background children whose results the parent has not seen yet (marked
    /// delivered now).
    pub(crate) fn take_undelivered(&self) -> Vec<ChildSummary> {
        let mut inner = self.lock();
        let mut out = Vec::new();
        for r in inner.records.values_mut() {
            if !r.delivered && r.summary.status != ChildStatus::Running {
                r.delivered = true;
                out.push(r.summary.clone());
            }
        }
        out
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}
