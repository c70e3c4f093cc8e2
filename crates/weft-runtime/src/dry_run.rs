//! The session of a dry run (`--dry-run`): what would be sent, with nothing sent.
//!
//! A dry run works offline: without a configured provider or default model it still builds
//! the session, on a placeholder model that refuses every call, so the request it shows is
//! the one a configured run would send (the placeholder's name appears as the model).

use std::sync::Arc;

use async_trait::async_trait;
use weft_agents::{ModelPool, Session, SessionError};
use weft_llm::{ChatModel, ChatRequest, ChatResponse, LlmError, ModelError, TextSink};

use crate::error::RuntimeError;
use crate::runtime::{Runtime, SessionSettings};

/// The provider of the placeholder model.
const PLACEHOLDER_PROVIDER: &str = "offline";

/// The placeholder model, `provider/model`.
const PLACEHOLDER_MODEL: &str = "offline/dry-run";

/// The model a dry run uses when none is configured: every call fails, none is made.
struct Placeholder;

#[async_trait]
impl ChatModel for Placeholder {
    fn provider(&self) -> &str {
        PLACEHOLDER_PROVIDER
    }

    async fn chat(
        &self,
        _request: &ChatRequest,
        _stream: bool,
        _sink: &mut dyn TextSink,
    ) -> Result<ChatResponse, LlmError> {
        Err(LlmError::Config("dry run: nothing is sent".to_owned()))
    }
}

impl Runtime {
    /// The session a dry run previews: [`session`](Self::session)'s, without its provider
    /// check (no key is needed to show a request), and on a placeholder model that is never
    /// called when no default model is configured. `settings.transcripts` is the caller's
    /// (a dry run usually writes none).
    pub fn dry_run_session(&self, settings: &SessionSettings) -> Result<Session, RuntimeError> {
        match self.session_with(Arc::clone(&self.models), settings) {
            Err(RuntimeError::Session(SessionError::Model(ModelError::NoDefault))) => {
                let models = Arc::new(
                    ModelPool::new(self.models.catalog().clone())
                        .with_client(PLACEHOLDER_PROVIDER, Arc::new(Placeholder)),
                );
                let settings = SessionSettings {
                    model: Some(PLACEHOLDER_MODEL.to_owned()),
                    ..settings.clone()
                };
                self.session_with(models, &settings)
            }
            other => other,
        }
    }
}
