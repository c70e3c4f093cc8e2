//! [`RuntimeBuilder`]: a [`Runtime`] with what the caller chooses over the configuration — the
//! permission mode, model clients of its own, tools of its own.

use std::sync::Arc;

use weft_llm::ChatModel;
use weft_tools::Tool;
use weft_types::PermissionMode;

use crate::error::RuntimeError;
use crate::runtime::Runtime;
use crate::workspace::Workspace;

/// Builds a [`Runtime`] ([`Runtime::builder`]); [`Runtime::load`] is a builder with no
/// choices.
///
/// ```
/// use std::sync::Arc;
/// use weft_runtime::llm::ChatModel;
/// use weft_runtime::{PermissionMode, Runtime, RuntimeError, Workspace};
///
/// fn runtime(workspace: &Workspace, mine: Arc<dyn ChatModel>) -> Result<Runtime, RuntimeError> {
///     Runtime::builder(workspace)
///         .permission_mode(PermissionMode::Auto)
///         .model_client(mine) // serves every model of its provider, `mine/...`
///         .default_model("mine/v1")
///         .build()
/// }
/// ```
#[must_use = "a builder does nothing until `build`"]
pub struct RuntimeBuilder<'w> {
    pub(crate) workspace: &'w Workspace,
    pub(crate) mode: Option<PermissionMode>,
    pub(crate) clients: Vec<Arc<dyn ChatModel>>,
    pub(crate) default_model: Option<String>,
    pub(crate) tools: Vec<Arc<dyn Tool>>,
}

impl std::fmt::Debug for RuntimeBuilder<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let providers: Vec<&str> = self.clients.iter().map(|c| c.provider()).collect();
        let tools: Vec<&str> = self.tools.iter().map(|t| t.name()).collect();
        f.debug_struct("RuntimeBuilder")
            .field("mode", &self.mode)
            .field("clients", &providers)
            .field("default_model", &self.default_model)
            .field("tools", &tools)
            .finish_non_exhaustive()
    }
}

impl<'w> RuntimeBuilder<'w> {
    pub(crate) fn new(workspace: &'w Workspace) -> Self {
        Self {
            workspace,
            mode: None,
            clients: Vec::new(),
            default_model: None,
            tools: Vec::new(),
        }
    }

    /// The permission mode of new sessions, beating `permissions.mode` in the configuration
    /// (weft's `--permission-mode`); `None` leaves it to the configuration. An agent's
    /// `permissionMode` can still only narrow it.
    pub fn permission_mode(mut self, mode: impl Into<Option<PermissionMode>>) -> Self {
        self.mode = mode.into();
        self
    }

    /// A model client of the caller's: it serves every model of its provider
    /// ([`ChatModel::provider`]; `provider/model` names them), in place of the configured
    /// provider of that name if there is one. With such a client no configured provider is
    /// needed.
    pub fn model_client(mut self, client: Arc<dyn ChatModel>) -> Self {
        self.clients.push(client);
        self
    }

    /// The model sessions use when neither they nor their agent name one, beating the
    /// configuration's `model` (`provider/model` or an alias).
    pub fn default_model(mut self, model: impl Into<String>) -> Self {
        self.default_model = Some(model.into());
        self
    }

    /// A tool of the caller's, offered to every session beside the built-in ones (a tool
    /// named like a built-in one replaces it). Its calls go through the session's gate and
    /// permission mode like any other: an agent whose tool list does not name it never sees
    /// it, and where the mode asks, a tool that is not [read-only](Tool::read_only_hint)
    /// needs a person's approval.
    pub fn tool(mut self, tool: Arc<dyn Tool>) -> Self {
        self.tools.push(tool);
        self
    }

    /// Loads the configuration, the skills and the agents, with the choices made here.
    pub fn build(self) -> Result<Runtime, RuntimeError> {
        Runtime::from_builder(self)
    }
}
