//! Everything an agent run needs, wired from the workspace and the configuration: the
//! models, the skill registry, the agents, the tools and the session options.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use weft_agents::{
    AgentLimits, AgentRegistry, CallRules, CreateSkill, ModelPool, Permissions, Session,
    SessionOptions, SessionParts, agent_gate, agent_mode, is_trust_warning,
};
use weft_parse::{ParseOptions, Profile};
use weft_permissions::{Origin, Policy, ShellContext, ToolGate};
use weft_registry::{SkillRegistry, is_trust_warning as is_skill_trust_warning};
use weft_tools::{
    BuiltinConfig, ExecConfig, FsScope, ProcessGroups, ReadGrants, ShellProgram, ToolRegistry,
    WebFetchConfig,
};
use weft_types::suggest::{closest_names, did_you_mean};
use weft_types::{AgentDefinition, PermissionMode};

use crate::builder::RuntimeBuilder;
use crate::config::Config;
use crate::error::{RuntimeError, UsageError};
use crate::mcp::McpServers;
use crate::resume::{Resume, find_history, resumed_model, session_cwd};
use crate::sandbox::Launchers;
use crate::workspace::Workspace;

/// The name of the memory file in the clawft workspace (see [`Runtime::memory_file`]).
pub const MEMORY_FILE_NAME: &str = "MEMORY.md";

/// The error when a run needs a model and no provider is configured.
pub const NO_PROVIDER: &str = "no LLM provider is configured.
Set OPENAI_API_KEY or ANTHROPIC_API_KEY (or OPENAI_BASE_URL for a local server such as
Ollama: OPENAI_BASE_URL=http://localhost:11434/v1), or add `providers` to
~/.clawft/config.json; docs/CONFIG.md has examples. `--dry-run` works offline.";

/// The error for an agent `name` that `agents` does not have: every name, then the closest.
pub fn unknown_agent(agents: &AgentRegistry, name: &str) -> UsageError {
    let known: Vec<&str> = agents.names().collect();
    let suggestions = closest_names(name, known.iter().copied());
    UsageError::new(format!(
        "unknown agent `{name}`; available: {}{}",
        known.join(", "),
        did_you_mean(&suggestions)
    ))
}

/// `exec_shell` as one permission mode starts commands.
type ModeShell = (PermissionMode, Arc<dyn weft_tools::Tool>);

/// How a session is set up (see [`Runtime::session`]).
#[derive(Debug, Clone, Default)]
pub struct SessionSettings {
    /// The agent (default: `default_agent` from the configuration, else `default`).
    pub agent: Option<String>,
    /// The model, `provider/model` or an alias (default: the agent's, else the
    /// configuration's).
    pub model: Option<String>,
    /// Write a transcript (when the configuration does not switch them off).
    pub transcripts: bool,
    /// Stream the answer.
    pub stream: bool,
    /// Resume an earlier session instead of starting one.
    pub resume: Option<Resume>,
}

/// The pieces of an agent run.
pub struct Runtime {
    /// Locations.
    pub workspace: Workspace,
    /// Merged configuration.
    pub config: Config,
    /// Models and clients.
    pub models: Arc<ModelPool>,
    /// Skills.
    pub skills: Arc<SkillRegistry>,
    /// Agents.
    pub agents: AgentRegistry,
    /// MCP servers, started on first use.
    mcp: OnceLock<McpServers>,
    /// What starts of them, planned on first use.
    mcp_plan: OnceLock<crate::mcp::McpPlan>,
    /// Where `exec_shell` registers its process groups.
    groups: ProcessGroups,
    /// Skill directories the file tools may read while a session has the skill loaded.
    read_grants: ReadGrants,
    /// The permission mode the caller chose (weft's `--permission-mode`), beating the
    /// configuration's.
    cli_mode: Option<PermissionMode>,
    /// The providers served by the caller's own model clients ([`RuntimeBuilder::model_client`]).
    own_providers: Vec<String>,
    /// The caller's own tools ([`RuntimeBuilder::tool`]).
    extra_tools: Vec<Arc<dyn weft_tools::Tool>>,
    /// The trust warnings logged so far: each is said once per run, however many sessions
    /// the run builds (a dry run may build two).
    warned: std::sync::Mutex<std::collections::BTreeSet<String>>,
    /// The shell `exec_shell` runs, which the gate and pre-approvals read commands as.
    shell: ShellProgram,
    /// Claude Code's permission rules, compiled.
    claude_rules: crate::claude::ClaudeRules,
    /// `--no-hooks`.
    pub(crate) hooks_off: bool,
}

impl Runtime {
    /// Loads the configuration, the skills and the agents ([`builder`](Self::builder) with
    /// no choices).
    pub fn load(workspace: &Workspace) -> Result<Self, RuntimeError> {
        Self::builder(workspace).build()
    }

    /// A runtime with the permission mode, model clients and tools the caller chooses.
    pub fn builder(workspace: &Workspace) -> RuntimeBuilder<'_> {
        RuntimeBuilder::new(workspace)
    }

    /// What [`RuntimeBuilder::build`] does.
    pub(crate) fn from_builder(builder: RuntimeBuilder<'_>) -> Result<Self, RuntimeError> {
        let workspace = builder.workspace;
        let config = Config::load(&workspace.config_sources())?;
        tracing::info!(files = ?config.files, "configuration loaded");
        let mut catalog = config.models(&|name| workspace.env.var(name))?;
        if let Some(model) = builder.default_model {
            catalog.set_default(model);
        }
        let own_providers: Vec<String> = builder
            .clients
            .iter()
            .map(|c| c.provider().to_owned())
            .collect();
        let models = builder
            .clients
            .into_iter()
            .fold(ModelPool::new(catalog), |pool, client| {
                pool.with_client(client.provider().to_owned(), client)
            });
        let mut registry = workspace.registry_config();
        config.file.skills.apply_to(&mut registry);
        let skills = Arc::new(SkillRegistry::new(registry));
        let mut agents =
            AgentRegistry::discover(&workspace.agent_roots(), &ParseOptions::new(Profile::Load));
        if !workspace.trust.is_trusted() {
            // The limit in effect is the user's: an untrusted project file cannot set it.
            let max_tool_iterations = config
                .file
                .agent
                .max_tool_iterations
                .unwrap_or(SessionOptions::default().max_tool_iterations);
            agents.restrain_project_agents(&AgentLimits {
                max_tool_iterations,
            });
        }
        let claude_rules = crate::claude::ClaudeRules::compile(
            &config.claude,
            &workspace.base_dir().unwrap_or_default(),
        );
        Ok(Self {
            claude_rules,
            hooks_off: workspace.no_hooks,
            workspace: workspace.clone(),
            config,
            models: Arc::new(models),
            own_providers,
            extra_tools: builder.tools,
            skills,
            agents,
            mcp: OnceLock::new(),
            mcp_plan: OnceLock::new(),
            groups: ProcessGroups::new(),
            read_grants: ReadGrants::new(),
            cli_mode: builder.mode,
            warned: std::sync::Mutex::default(),
            shell: crate::shell_program::choose_shell(&workspace.env, workspace.project.as_deref()),
        })
    }

    /// The shell `exec_shell` runs (bash where there is one, else `/bin/sh`): shell commands
    /// are judged as it reads them.
    pub fn shell_program(&self) -> &ShellProgram {
        &self.shell
    }

    /// Where shell commands run, for the gate and the pre-approvals: `base` as the project,
    /// read in the language of [`shell_program`](Self::shell_program).
    fn shell_context(&self, base: &std::path::Path) -> ShellContext {
        crate::permissions::project_pattern_context(base)
            .shell_context()
            .with_dialect(self.shell.dialect())
    }

    /// The permission mode the caller chose ([`RuntimeBuilder::permission_mode`]: weft's
    /// `--permission-mode`), if it chose one.
    pub fn command_line_permission_mode(&self) -> Option<PermissionMode> {
        self.cli_mode
    }

    /// The permission mode of new sessions: the command line's, else the configuration's,
    /// else Claude Code's `defaultMode` (its settings files), else `ask`. An agent's
    /// `permissionMode` can only narrow it.
    pub fn permission_mode(&self) -> PermissionMode {
        if self.cli_mode.is_none()
            && self.config.file.permissions.mode.is_none()
            && let Some((mode, _)) = self.config.claude.default_mode()
        {
            return mode;
        }
        self.config.file.permissions.mode(self.cli_mode)
    }

    /// Claude Code's permission rules in effect (`permissions.deny`, `ask`, `allow` of its
    /// settings files), compiled.
    pub fn claude_rules(&self) -> &crate::claude::ClaudeRules {
        &self.claude_rules
    }

    /// The agent called `name` (else the configured default agent, else `default`).
    pub fn agent(&self, name: Option<&str>) -> Result<AgentDefinition, UsageError> {
        let name = name
            .or(self.config.file.default_agent.as_deref())
            .unwrap_or("default");
        match self.agents.get(name) {
            Some(entry) => {
                // An untrusted project's agent in use: say so every time it runs.
                for d in entry.diagnostics.iter().filter(|d| is_trust_warning(d)) {
                    self.warn_once(d);
                }
                Ok(entry.agent.clone())
            }
            None => Err(unknown_agent(&self.agents, name)),
        }
    }

    /// Logs a trust warning, unless this run said it already.
    fn warn_once(&self, d: &weft_types::Diagnostic) {
        let first = self
            .warned
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(d.to_string());
        if first {
            tracing::warn!(file = %d.location().unwrap_or_default(), "{}", d.message);
        }
    }

    /// The directory file tools work in: the project, else the current directory.
    pub fn base_dir(&self) -> Result<PathBuf, RuntimeError> {
        self.workspace.base_dir()
    }

    /// The process groups of `exec_shell` commands: the CLI kills them on Ctrl-C, SIGTERM and
    /// exit.
    pub fn process_groups(&self) -> &ProcessGroups {
        &self.groups
    }

    /// The file `memory_read` / `memory_write` use: `~/.clawft/workspace/MEMORY.md`, else
    /// under `base` when there is no home directory.
    pub fn memory_file(&self, base: &std::path::Path) -> PathBuf {
        self.workspace
            .clawft_workspace()
            .unwrap_or_else(|| base.join(".clawft/workspace"))
            .join(MEMORY_FILE_NAME)
    }

    /// Every tool of a run: [`local_tools`](Self::local_tools) plus the tools of the
    /// configured MCP servers (started here on first use).
    pub fn tools(&self) -> Result<ToolRegistry, RuntimeError> {
        let mut tools = self.local_tools()?;
        self.mcp().manager().register_into(&mut tools);
        Ok(tools)
    }

    /// Built-in tools plus `create_skill` (when there is a home for user skills) and the
    /// caller's own tools ([`RuntimeBuilder::tool`]); no MCP server is started. `exec_shell`
    /// runs as the permission mode and the sandbox settings say (`auto`: sandboxed; `bypass`:
    /// directly).
    pub fn local_tools(&self) -> Result<ToolRegistry, RuntimeError> {
        let settings = &self.config.file.tools;
        let base = self.base_dir()?;
        let mode = self.permission_mode();
        let launchers =
            crate::sandbox::mode_for_permissions(mode, &self.workspace, &self.config, &base)?
                .launchers(&self.workspace.env)?;
        let web_fetch = settings.web_fetch.as_ref().filter(|w| w.enabled).map(|w| {
            let mut c = WebFetchConfig::default();
            c.allowed_domains.clone_from(&w.allowed_domains);
            if let Some(secs) = w.timeout_secs {
                c.timeout = Duration::from_secs(secs.max(1));
            }
            if let Some(bytes) = w.max_bytes {
                c.max_bytes = bytes;
            }
            c
        });
        let memory_file = self.memory_file(&base);
        let mut tools = weft_tools::builtin_registry(&BuiltinConfig {
            scope: self.scope(&base)?,
            memory_file,
            exec: self.exec_config(launchers),
            web_fetch,
        });
        if let Some(dir) = self.workspace.user_skills_dir() {
            tools.register(Arc::new(CreateSkill::new(Arc::clone(&self.skills), dir)));
        }
        for tool in &self.extra_tools {
            tools.register(Arc::clone(tool));
        }
        Ok(tools)
    }

    /// The directories file tools may touch: `base`, `tools.allow_paths` and Claude Code's
    /// `permissions.additionalDirectories`.
    fn scope(&self, base: &std::path::Path) -> Result<FsScope, RuntimeError> {
        let mut paths = self.config.file.tools.allow_paths.clone();
        // A configured path that cannot be used is the configuration's mistake: named as such,
        // not as the workspace's.
        for path in &paths {
            if let Err(e) = std::fs::canonicalize(path) {
                return Err(UsageError::new(format!(
                    "config `tools.allow_paths`: {}: {e}",
                    path.display()
                ))
                .into());
            }
        }
        for dir in self.config.claude.additional_directories() {
            if !paths.contains(&dir) {
                paths.push(dir);
            }
        }
        Ok(FsScope::new(base.to_path_buf(), paths)
            .map_err(|source| RuntimeError::Scope {
                path: base.to_path_buf(),
                source,
            })?
            .with_grants(self.read_grants.clone()))
    }

    /// `exec_shell`'s settings from the configuration, started by `launchers`.
    fn exec_config(&self, launchers: Launchers) -> ExecConfig {
        let settings = &self.config.file.tools;
        let mut exec = ExecConfig::default();
        if let Some(secs) = settings.exec_timeout_secs {
            exec.timeout = Duration::from_secs(secs.max(1));
        }
        if let Some(cap) = settings.output_cap {
            exec.output_cap = cap;
        }
        exec.env = crate::sandbox::child_env(&self.config, &self.workspace.env);
        exec.shell = self.shell.clone();
        exec.launcher = launchers.default;
        exec.unsandboxed = launchers.unsandboxed;
        exec.reading = launchers.reading;
        exec.groups = self.groups.clone();
        exec
    }

    /// The session's permissions: the mode, `permissions.allow`, and `exec_shell` as each
    /// narrower mode needs it (a subagent whose agent narrows the mode gets the shell of its
    /// own mode: sandboxed in `auto`, as `sandbox.enabled` says in `ask`, never the
    /// unsandboxed one of a `bypass` parent).
    fn permissions(&self, base: &std::path::Path) -> Result<Permissions, RuntimeError> {
        let mode = self.permission_mode();
        let mut permissions = Permissions::new(mode);
        permissions.pre_approval = self
            .config
            .file
            .permissions
            .pre_approval_with(base, &self.claude_rules.allow)?
            .with_shell_context(self.shell_context(base));
        permissions.ask = self.claude_rules.ask.clone();
        permissions.mode_shells = self.mode_shells(mode, base)?;
        permissions.project_skills_pre_approve = self.workspace.trust.is_trusted();
        Ok(permissions)
    }

    /// `exec_shell` for every mode up to `mode` (the session's), one tool per distinct way of
    /// starting commands: `bypass` (directly), `auto` (the sandbox, switched on), the others
    /// (as the configuration says).
    fn mode_shells(
        &self,
        mode: PermissionMode,
        base: &std::path::Path,
    ) -> Result<Vec<ModeShell>, RuntimeError> {
        let mut built: Vec<(Launchers, Arc<dyn weft_tools::Tool>)> = Vec::new();
        let mut shells = Vec::new();
        for narrower in PermissionMode::ALL.into_iter().filter(|m| *m <= mode) {
            let launchers = crate::sandbox::mode_for_permissions(
                narrower,
                &self.workspace,
                &self.config,
                base,
            )?
            .launchers(&self.workspace.env)?;
            let shell = match built.iter().find(|(l, _)| *l == launchers) {
                Some((_, shell)) => Arc::clone(shell),
                None => {
                    let shell = weft_tools::exec_shell_tool(
                        self.scope(base)?,
                        self.exec_config(launchers.clone()),
                    );
                    built.push((launchers, Arc::clone(&shell)));
                    shell
                }
            };
            shells.push((narrower, shell));
        }
        Ok(shells)
    }

    /// The configured MCP servers (`mcp_servers`, and the project's `.mcp.json` where it
    /// may start), started on first use: in parallel, each within its startup timeout, on a
    /// thread of their own. Blocks until they have started or given up; a server that fails
    /// is reported in its status, never as an error.
    pub fn mcp(&self) -> &McpServers {
        self.mcp
            .get_or_init(|| McpServers::start(self.mcp_plan().clone()))
    }

    /// Which servers start and which do not (disabled, not approved, unsupported), before any
    /// starts.
    pub fn mcp_plan(&self) -> &crate::mcp::McpPlan {
        self.mcp_plan.get_or_init(|| {
            let base = self.base_dir().unwrap_or_default();
            let env = |name: &str| self.workspace.env.var(name);
            let json = self.workspace.mcp_json().and_then(|path| {
                crate::claude::McpJson::load(&path, &env).unwrap_or_else(|e| {
                    tracing::warn!("the project's MCP servers are not read: {e}");
                    None
                })
            });
            let claude = &self.config.claude;
            let names = |pointer: &str| -> Vec<String> {
                claude.list(pointer).into_iter().map(|(n, _)| n).collect()
            };
            let mut approved = names("/enabledMcpjsonServers");
            if let (Some(file), Some(project)) =
                (self.workspace.mcp_approvals_file(), &self.workspace.project)
            {
                approved
                    .extend(crate::claude::McpApprovals::load_or_empty(&file).approved(project));
            }
            let disabled = names("/disabledMcpjsonServers");
            let consent = crate::mcp::McpJsonConsent {
                trusted: self.workspace.trust.is_trusted(),
                all: claude.all_project_servers_enabled(),
                approved: &approved,
                disabled: &disabled,
            };
            let mut plan = crate::mcp::plan(
                &self.config.file.mcp_servers,
                json.as_ref(),
                consent,
                &self.config.file.limits,
                &base,
                &env,
            );
            crate::mcp::plan_plugin_servers(
                &mut plan,
                &self.workspace.plugins().mcp_servers(),
                &self.config.file.limits,
                &base,
                &env,
            );
            plan
        })
    }

    /// Session options from the configuration. The project directory of the session is
    /// where file tools work (the project, else the current directory): relative paths in
    /// permission rules start there, and edits there count as inside the project.
    pub fn session_options(
        &self,
        transcripts: bool,
        stream: bool,
    ) -> Result<SessionOptions, RuntimeError> {
        let agent = &self.config.file.agent;
        let base = self.base_dir()?;
        let mut options = SessionOptions {
            stream,
            temperature: agent.temperature,
            max_tokens: agent.max_tokens,
            context_window: agent.context_window,
            permissions: self.permissions(&base)?,
            project_dir: Some(base),
            read_grants: self.read_grants.clone(),
            ..SessionOptions::default()
        };
        if let Some(n) = agent.max_tool_iterations {
            options.max_tool_iterations = n;
        }
        if let Some(on) = agent.auto_compact {
            options.auto_compact = on;
        }
        if let Some(fraction) = agent.compact_threshold {
            options.compact_threshold = fraction;
        }
        if let Some(bytes) = agent.tool_result_max_bytes {
            options.tool_result_max_bytes = bytes;
        }
        if let Some(on) = self.config.file.skills.dynamic_context {
            options.dynamic_context = on;
        }
        if let Some(n) = self.config.file.skills.max_prompt_bytes {
            options.max_skill_prompt_bytes = n;
        }
        options.spawn.agents = Arc::new(self.agents.clone());
        if let Some(depth) = agent.max_spawn_depth {
            options.spawn.max_depth = depth;
        }
        if let Some(n) = agent.max_concurrent_subagents {
            options.spawn.max_concurrent = n.max(1);
        }
        if let Some(secs) = agent.subagent_timeout_secs {
            options.spawn.default_timeout = Duration::from_secs(secs.max(1));
        }
        if transcripts && agent.transcripts.unwrap_or(true) {
            options.transcript_dir = self
                .workspace
                .clawft_workspace()
                .map(|w| w.join("sessions"));
        }
        options.ceiling = self.ceiling()?;
        options.hooks = self.hooks()?;
        Ok(options)
    }

    /// The configuration's `tools.deny` and Claude Code's `permissions.deny`: a ceiling over
    /// every session (unrestricted without them). Relative paths in its rules are the
    /// project's, as in `permissions.allow`: a rule without a directory could not be compared
    /// with the real (absolute) path of any call, and would refuse them all.
    pub fn ceiling(&self) -> Result<ToolGate, RuntimeError> {
        let deny = &self.config.file.tools.deny;
        let base = self.base_dir()?;
        let shell = self.shell_context(&base);
        let mut layers = Vec::new();
        if !deny.is_empty() {
            let patterns = crate::permissions::project_pattern_context(&base);
            let policy = Policy::from_lists::<String>(None, deny, Origin::Session, &patterns)
                .map_err(|e| UsageError::caused("config `tools.deny`", e))?;
            layers.push(policy);
        }
        if !self.claude_rules.deny.is_empty() {
            layers.push(Policy::new(None, self.claude_rules.deny.clone()));
        }
        if layers.is_empty() {
            return Ok(ToolGate::unrestricted().with_shell_context(shell));
        }
        Ok(ToolGate::new(layers).with_shell_context(shell))
    }

    /// What decides whether a call runs in a new session of `agent` (default: the configured
    /// default agent), before anyone is asked: the configuration's `tools.deny` and the
    /// agent's tools (the gate, judging shell commands against the project directory),
    /// `permissions.allow`, and the permission mode (the command line's, else the
    /// configuration's, narrowed by the agent). `weft skills check-tool` answers with it.
    pub fn call_rules(&self, agent: Option<&str>) -> Result<CallRules, RuntimeError> {
        let base = self.base_dir()?;
        let agent = self.agent(agent)?;
        let gate = agent_gate(&agent, &self.ceiling()?, Some(&base))?;
        let mode = agent_mode(&agent, self.permission_mode())?;
        let shell =
            crate::sandbox::mode_for_permissions(mode, &self.workspace, &self.config, &base)?;
        Ok(CallRules {
            gate,
            pre_approval: self
                .config
                .file
                .permissions
                .pre_approval_with(&base, &self.claude_rules.allow)?
                .with_shell_context(self.shell_context(&base)),
            ask: self.claude_rules.ask.clone(),
            mode,
            project_dir: Some(base),
            read_only_sandbox: matches!(shell, crate::sandbox::ShellMode::Sandboxed { .. }),
        })
    }

    /// A session of the configured agent, model, skills and tools (MCP servers included,
    /// started here on first use), or the earlier session `settings.resume` names. Needs a
    /// configured provider or a client of the caller's ([`RuntimeBuilder::model_client`]).
    pub fn session(&self, settings: &SessionSettings) -> Result<Session, RuntimeError> {
        if self.models.catalog().is_empty() && self.own_providers.is_empty() {
            return Err(UsageError::new(NO_PROVIDER).into());
        }
        let session = self.session_with(Arc::clone(&self.models), settings)?;
        // A provider whose key variable is not set stops only the runs that use it (the
        // caller's own client needs no key).
        let provider = &session.model().provider;
        if let Some(why) = self
            .models
            .catalog()
            .provider(provider)
            .filter(|_| !self.own_providers.contains(provider))
            .and_then(|p| p.unusable.as_deref())
        {
            return Err(UsageError::new(format!("provider `{provider}`: {why}")).into());
        }
        Ok(session)
    }

    /// [`session`](Self::session) with these model clients (a dry run's placeholder); no
    /// provider check.
    ///
    /// A resumed session keeps its agent unless `settings.agent` names another, and its
    /// model unless `settings` names a model or another agent.
    pub(crate) fn session_with(
        &self,
        models: Arc<ModelPool>,
        settings: &SessionSettings,
    ) -> Result<Session, RuntimeError> {
        let cwd = session_cwd(self)?;
        // An untrusted project's skills overriding the user's: say so every time they run.
        for d in self
            .skills
            .snapshot()
            .diagnostics()
            .iter()
            .filter(|d| is_skill_trust_warning(d))
        {
            self.warn_once(d);
        }
        self.announce_hooks();
        let mut options = self.session_options(settings.transcripts, settings.stream)?;
        options.cwd = Some(cwd.clone());
        let Some(resume) = &settings.resume else {
            let agent = self.agent(settings.agent.as_deref())?;
            return Ok(Session::new(SessionParts {
                models,
                skills: Arc::clone(&self.skills),
                tools: self.tools()?,
                agent,
                model: settings.model.clone(),
                options,
            })?);
        };
        let dir = self
            .workspace
            .sessions_dir()
            .ok_or_else(|| UsageError::new("no home directory for sessions: pass --home"))?;
        let history = find_history(&dir, resume, &cwd)?;
        let agent = self.agent(Some(settings.agent.as_deref().unwrap_or(&history.agent)))?;
        let model = match (&settings.model, &settings.agent) {
            (Some(model), _) => Some(model.clone()),
            (None, Some(_)) => None,
            (None, None) => resumed_model(&models, &history, agent.model.as_deref())?,
        };
        Ok(Session::resume(
            SessionParts {
                models,
                skills: Arc::clone(&self.skills),
                tools: self.tools()?,
                agent,
                model,
                options,
            },
            history,
        )?)
    }
}
