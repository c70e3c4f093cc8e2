//! `--continue` and `--resume ID`: which transcript a run resumes, read back into a
//! [`SessionHistory`], and the agent and model the resumed session uses.

use std::path::{Path, PathBuf};

use weft_agents::ModelPool;
use weft_agents::transcript::{
    SessionHistory, SessionLookupError, SessionSummary, find_session, latest_session,
    list_sessions, read_sessions,
};
use weft_llm::ModelRef;

use crate::error::{RuntimeError, UsageError};
use crate::runtime::Runtime;

/// Which earlier session a run resumes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resume {
    /// The latest session of this project (else this directory): `--continue`.
    Latest,
    /// The session with this id or unique id prefix: `--resume ID`.
    Id(String),
}

/// The directory a session of this workspace works in, as transcripts record it: the project,
/// else the current directory, resolved (so `--project .` and the detected project agree).
pub(crate) fn session_cwd(runtime: &Runtime) -> Result<PathBuf, RuntimeError> {
    let base = runtime.base_dir()?;
    Ok(std::fs::canonicalize(&base).unwrap_or(base))
}

/// The history `resume` names, read from the transcripts under `dir`.
pub(crate) fn find_history(
    dir: &Path,
    resume: &Resume,
    cwd: &Path,
) -> Result<SessionHistory, RuntimeError> {
    let path = match resume {
        Resume::Latest => {
            let sessions = list_sessions(dir);
            let latest = latest_session(&sessions, cwd).ok_or_else(|| {
                UsageError::new(format!(
                    "no earlier session of {} to continue (`weft sessions list` shows them all; `--resume ID` resumes any)",
                    cwd.display()
                ))
            })?;
            latest.path.clone()
        }
        Resume::Id(id) => lookup_session(dir, id)?.path,
    };
    Ok(SessionHistory::read(&path)?)
}

/// The session in `dir` whose id is `id` or starts with it. No such session, or several,
/// is a usage error; a session whose transcript is damaged is that transcript's error (with
/// its file and line), not "no session".
pub fn lookup_session(dir: &Path, id: &str) -> Result<SessionSummary, RuntimeError> {
    let mut index = read_sessions(dir);
    match find_session(&index.sessions, id) {
        Ok(summary) => Ok(summary.clone()),
        Err(SessionLookupError::NotFound(id)) => match index.take_unreadable(&id) {
            Some(damage) => Err(damage.into()),
            None => Err(UsageError::new(format!(
                "no session `{id}` in {}; `weft sessions list` shows them",
                dir.display()
            ))
            .into()),
        },
        Err(ambiguous) => Err(UsageError::from_error(ambiguous).into()),
    }
}

/// The model a resumed session asks for: the one it ended with, unless the agent would pick
/// it anyway (then the agent's choice stays in charge, so `/agent` switches models as usual).
/// A model that cannot be used any more is a usage error that says how to choose another.
pub(crate) fn resumed_model(
    models: &ModelPool,
    history: &SessionHistory,
    agent_model: Option<&str>,
) -> Result<Option<String>, UsageError> {
    let recorded = models.choose(Some(&history.model), None, None).map_err(|e| {
        UsageError::new(format!(
            "session `{}` used the model `{}`, which cannot be used now ({e}); pass --model to choose one",
            history.session_id, history.model
        ))
    })?;
    let default: Option<ModelRef> = models.choose(None, agent_model, None).ok();
    Ok((default.as_ref() != Some(&recorded)).then(|| history.model.clone()))
}
