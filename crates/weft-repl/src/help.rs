//! Help topics (FR-3F-040 to FR-3F-042), built from the command registry and the data the
//! REPL runs with, and shared by `/help <topic>` and `weft help <topic>` so the two cannot
//! drift apart.

use std::fmt::Write as _;
use std::path::PathBuf;

use weft_agents::{AgentRoot, Session};
use weft_registry::SkillRoot;

use crate::command::ReplEnv;
use crate::registry::CommandRegistry;
use weft_term::{fit_columns, scope_root_label, tilde};

/// The help topics and their one-line summaries.
pub const TOPICS: [(&str, &str); 9] = [
    (
        "skills",
        "reusable prompts: where they live, formats, invoking them",
    ),
    (
        "agents",
        "named configurations: model, tools, skills, system prompt",
    ),
    ("commands", "every slash command of the interactive session"),
    ("config", "configuration files and keys"),
    ("memory", "the memory file the agent reads and writes"),
    (
        "tools",
        "the tools an agent may call and the gate that checks them",
    ),
    (
        "hooks",
        "Claude Code hooks: commands run before and after tool calls, prompts, sessions",
    ),
    (
        "workspace",
        "the project, the home directory and what weft keeps there",
    ),
    (
        "exit-codes",
        "what weft's exit status means, and output for scripts",
    ),
];

/// What the topics describe, as the CLI resolved it.
#[derive(Debug, Clone, Default)]
pub struct HelpData {
    /// Skill roots, highest precedence first.
    pub skill_roots: Vec<SkillRoot>,
    /// Agent roots, highest precedence first.
    pub agent_roots: Vec<AgentRoot>,
    /// `(name, description)` of every agent.
    pub agents: Vec<(String, String)>,
    /// `(name, description)` of every tool the runtime has.
    pub tools: Vec<(String, String)>,
    /// Configuration files that are read, in merge order (whether or not they exist).
    pub config_files: Vec<PathBuf>,
    /// The memory file.
    pub memory_file: Option<PathBuf>,
    /// The REPL history file.
    pub history_file: Option<PathBuf>,
    /// Where transcripts are written.
    pub transcripts_dir: Option<PathBuf>,
    /// The project directory.
    pub project: Option<PathBuf>,
    /// The home directory (paths under it are shown with `~`).
    pub home: Option<PathBuf>,
    /// The width lists are fitted to: the terminal's, `None` (full text) when the output is
    /// not a terminal.
    pub width: Option<usize>,
}

impl HelpData {
    /// The data of a running session.
    pub fn for_session(session: &Session, env: &ReplEnv, width: Option<usize>) -> Self {
        let ws = &env.workspace;
        Self {
            skill_roots: session.skills().config().roots.clone(),
            agent_roots: ws.agent_roots.clone(),
            agents: env
                .agents
                .list()
                .map(|e| (e.agent.name.clone(), e.agent.description.clone()))
                .collect(),
            tools: session
                .tools()
                .iter()
                .map(|t| (t.name().to_owned(), t.description().to_owned()))
                .collect(),
            config_files: ws.config_files.clone(),
            memory_file: ws.memory_file.clone(),
            history_file: ws.history_file.clone(),
            transcripts_dir: ws.clawft_workspace.as_ref().map(|w| w.join("sessions")),
            project: ws.project.clone(),
            home: ws.home.clone(),
            width,
        }
    }
}

/// `/help`: every command with its arguments and description, and the topics, fitted to
/// `width` (`None`: full text).
pub fn commands_overview(registry: &CommandRegistry, width: Option<usize>) -> String {
    let mut rows: Vec<Vec<String>> = registry
        .iter()
        .map(|c| {
            let usage = c.usage();
            let call = if usage.is_empty() {
                format!("/{}", c.name())
            } else {
                format!("/{} {usage}", c.name())
            };
            vec![format!("  {call}"), c.description().to_owned()]
        })
        .collect();
    rows.push(vec![
        "  /<skill> [args]".to_owned(),
        "Run a user-invocable skill (same as /skill <name> [args])".to_owned(),
    ]);
    let mut out = String::from("Commands:\n");
    out.push_str(&fit_columns(&rows, width));
    let names: Vec<&str> = TOPICS.iter().map(|(n, _)| *n).collect();
    let _ = write!(
        out,
        "\nTopics: /help <topic> with {}; /help <command> for one command.\n",
        names.join(", ")
    );
    out
}

/// `weft help` without a topic: what weft is, the CLI commands (`(name, about)`, from clap),
/// the topics and the slash commands, fitted to `width` (`None`: full text).
pub fn general(
    registry: &CommandRegistry,
    cli_commands: &[(String, String)],
    width: Option<usize>,
) -> String {
    let mut out = String::from(
        "weft: skills and subagents for LLM agents.\n\n\
         Usage: weft [OPTIONS] [COMMAND]   (weft help <COMMAND> for its options; weft --help\n\
         \x20      for the global options)\n\n\
         Commands:\n",
    );
    let rows: Vec<Vec<String>> = cli_commands
        .iter()
        .map(|(n, a)| vec![format!("  {n}"), a.clone()])
        .collect();
    out.push_str(&fit_columns(&rows, width));
    out.push_str("\nHelp topics (weft help <topic>, or /help <topic> in a session):\n");
    let rows: Vec<Vec<String>> = TOPICS
        .iter()
        .map(|(n, s)| vec![format!("  {n}"), (*s).to_owned()])
        .collect();
    out.push_str(&fit_columns(&rows, width));
    out.push_str(
        "\n`weft` alone (or `weft agent` without -m) on a terminal starts an interactive session;\n\
         its slash commands (weft help /<command> for one):\n\n",
    );
    out.push_str(&commands_overview(registry, width));
    out
}

/// The text of `topic`, or of the command called `topic`; `None` when it is neither.
pub fn topic(name: &str, registry: &CommandRegistry, data: &HelpData) -> Option<String> {
    let mut out = match name {
        "skills" => skills(data),
        "agents" => agents(data),
        "commands" => return Some(commands(registry, data.width)),
        "exit-codes" => return Some(EXIT_CODES.to_owned()),
        "config" => config(data),
        "memory" => memory(data),
        "tools" => tools(data),
        "hooks" => hooks(data),
        "workspace" => workspace(data),
        _ => {
            let name = name.strip_prefix('/').unwrap_or(name);
            return registry.get(name).map(|c| command_help(c.as_ref()));
        }
    };
    let related: &[&str] = match name {
        "skills" => &["skills", "skill", "reload"],
        "agents" => &["agents", "agent", "model"],
        "config" => &["config", "model"],
        "memory" => &["memory"],
        "tools" => &["tools"],
        "hooks" => &["hooks", "permissions"],
        _ => &["workspace", "session", "reload"],
    };
    out.push_str("\nCommands:\n");
    let mut rows: Vec<Vec<String>> = related
        .iter()
        .filter_map(|n| registry.get(n))
        .map(|c| {
            vec![
                format!("  /{} {}", c.name(), c.usage())
                    .trim_end()
                    .to_owned(),
                c.description().to_owned(),
            ]
        })
        .collect();
    if name == "skills" {
        rows.push(vec![
            "  /<skill-name> [args]".to_owned(),
            "Direct invocation (if user-invocable)".to_owned(),
        ]);
    }
    out.push_str(&fit_columns(&rows, data.width));
    Some(out)
}

fn command_help(command: &dyn crate::SlashCommand) -> String {
    let usage = command.usage();
    let head = if usage.is_empty() {
        format!("/{}", command.name())
    } else {
        format!("/{} {usage}", command.name())
    };
    format!(
        "{head}\n{}\n\n{}\n",
        command.description(),
        command.help().trim_end()
    )
}

/// The `exit-codes` topic (README.md says the same).
const EXIT_CODES: &str = "\
Every weft command exits with:

  0    success
  1    failure: a skill or file that does not load or validate, a model call that
       failed, an MCP server that did not start, a task left unfinished at
       max_tool_iterations; `weft skills check-tool`: the call is denied
  2    usage or configuration: an unknown command, option, agent, skill, session or
       model (with the closest names), a configuration file that cannot be read or has
       an unknown key, no provider configured
  3    `weft skills check-tool`: the call needs someone's approval (ask)
  4    a one-shot run (`weft -p`, `agent -m`, `skills run`) in which tool calls were
       refused because no one could approve them (--ignore-refusals exits 0 instead)
  130  interrupted by Ctrl-C (SIGINT); 143 for SIGTERM, 129 for SIGHUP

A tool call the gate denies during a run is not a failure of the run: the model reads the
reason and goes on (exit 0).

Errors go to stderr, one line each; data goes to stdout. Every command that prints data
takes --format json (--json is the same). `weft agent -m` and `weft skills run` also take
--format stream-json: one JSON event per line (session, text, assistant, tool_call,
tool_result, result); --format json prints the result event alone. A run that fails after
it started still prints its result, with \"is_error\": true and the error, and so does one
whose calls were refused for want of approval (listed under \"refusals\"); docs/OUTPUT.md
has the schema.
";

fn commands(registry: &CommandRegistry, width: Option<usize>) -> String {
    let mut out = commands_overview(registry, width);
    out.push_str(
        "\nA line that starts with / is a command and is never sent to the model; an unknown \
         one prints\n\"Unknown command\". A first word with a second / (a path such as \
         /etc/hosts) is an\nordinary message. End a line with \\ (or press Alt-Enter) to \
         continue on the next line.\nTab completes commands, skill and agent names. Ctrl-C \
         cancels the answer being written;\nCtrl-D (or /exit) leaves.\n",
    );
    out
}

fn skills(data: &HelpData) -> String {
    let home = data.home.as_deref();
    let mut out = String::from(
        "Skills are reusable prompts that teach the agent specialized behaviors.\n\n\
         Locations (highest priority first):\n",
    );
    for (i, root) in data.skill_roots.iter().enumerate() {
        let _ = writeln!(
            out,
            "  {}. {}/  ({})",
            i + 1,
            tilde(&root.path, home),
            scope_root_label(root.scope)
        );
    }
    let _ = writeln!(
        out,
        "  {}. compiled into weft  (built-in)",
        data.skill_roots.len() + 1
    );
    out.push_str(
        "\nA name found twice is taken from the higher location; a skill always wins over a\n\
         command (.claude/commands/<folder>/<name>.md is /<folder>:<name>).\n\n\
         Formats:\n\
         \x20 - SKILL.md with YAML frontmatter (recommended)\n\
         \x20 - skill.json + prompt.md (legacy)\n\
         \x20 - Claude Code commands: markdown, frontmatter optional\n\n\
         Frontmatter that decides who may run a skill:\n\
         \x20 (default)                       you (/name) and the model (use_skill)\n\
         \x20 disable-model-invocation: true  only you; not in the model's catalog\n\
         \x20 user-invocable: false           only the model\n\
         \x20 context: fork                   runs in a subagent with its own context\n\
         \x20 allowed-tools                   narrows the tools while the skill is active\n\
         \x20 argument-hint                   shown while you type /name\n\
         \x20 model, effort                   the model and effort of the skill's turns\n\
         \x20 paths                           listed for the model once a matching file is used\n\
         \x20 skills.disabled (config)        switched off: not offered at all\n\n\
         From the shell: weft skills list | show <name> | run <name> [args] | validate <path>\n",
    );
    out
}

fn agents(data: &HelpData) -> String {
    let home = data.home.as_deref();
    let mut out = String::from(
        "An agent is a named configuration: model, tools, preloaded skills, system prompt.\n\n\
         Locations (highest priority first):\n",
    );
    for (i, root) in data.agent_roots.iter().enumerate() {
        let _ = writeln!(
            out,
            "  {}. {}/  ({})",
            i + 1,
            tilde(&root.path, home),
            scope_root_label(root.scope)
        );
    }
    let _ = writeln!(
        out,
        "  {}. compiled into weft  (built-in)",
        data.agent_roots.len() + 1
    );
    out.push_str(
        "\nFiles: <name>.yaml, <name>.json, <name>.md (Claude Code style) or <name>/AGENT.md.\n",
    );
    if !data.agents.is_empty() {
        out.push_str("\nAgents:\n");
        let rows: Vec<Vec<String>> = data
            .agents
            .iter()
            .map(|(n, d)| vec![format!("  {n}"), weft_term::one_line(d)])
            .collect();
        out.push_str(&fit_columns(&rows, data.width));
    }
    out.push_str(
        "\nSwitching agent applies its model, tools and prompt; /agent default goes back.\n\
         From the shell: weft agent --agent <name> [-m MSG]; weft agents list | show <name>\n",
    );
    out
}

fn hooks(data: &HelpData) -> String {
    let home = data.home.as_deref();
    let mut out = String::from(
        "Hooks are commands weft runs at moments of a session, in Claude Code's format, so a\n\
         Claude Code user's hooks work unchanged. They come from (all of them run):\n",
    );
    let mut files = Vec::new();
    if let Some(home) = home {
        files.push(format!(
            "  {}  (yours; always runs)",
            tilde(&home.join(".claude/settings.json"), Some(home))
        ));
    }
    if let Some(project) = &data.project {
        for name in ["settings.json", "settings.local.json"] {
            files.push(format!(
                "  {}  (the project's; runs only when it is trusted)",
                tilde(&project.join(".claude").join(name), home)
            ));
        }
    }
    for line in files {
        let _ = writeln!(out, "{line}");
    }
    out.push_str(
        "  a skill's or an agent's `hooks:`  (while that skill or agent is active)\n\n\
         Events: PreToolUse, PostToolUse (matcher: Claude Code's tool names, Bash, Read, Edit|Write,\n\
         mcp__server__.*), UserPromptSubmit, SessionStart (startup, resume, clear, compact),\n\
         SessionEnd, Stop, SubagentStop, Notification, PreCompact.\n\n\
         A hook gets the event as JSON on stdin and CLAUDE_PROJECT_DIR in its environment (no API\n\
         keys). Exit 0 goes on (stdout is context on UserPromptSubmit and SessionStart); exit 2\n\
         blocks (stderr is the reason); other codes are shown as errors. JSON on stdout can deny,\n\
         ask, allow (a pre-approval, never more), rewrite the input (checked again) or add context.\n\
         A PreToolUse hook that fails, times out or cannot run makes the call ask a person.\n\n\
         --no-hooks or `disableAllHooks: true` switches them off for a run.\n\
         From the shell: weft hooks list [--format json]. docs/HOOKS.md has the details.\n",
    );
    out
}

fn config(data: &HelpData) -> String {
    let home = data.home.as_deref();
    let mut out = String::from("Configuration files, merged in this order (later wins):\n");
    for (i, file) in data.config_files.iter().enumerate() {
        let _ = writeln!(out, "  {}. {}", i + 1, tilde(file, home));
    }
    out.push_str(
        "Objects merge key by key; anything else is replaced. Then the environment:\n\
         OPENAI_API_KEY, OPENAI_BASE_URL, ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, WEFT_MODEL.\n\
         --model beats everything, then the agent's model, then the default.\n\
         `weft config show --origin` (or /config --origin) lists every value in effect and the\n\
         file, variable or default it came from; `weft doctor` checks the whole set-up.\n\n\
         Keys:\n",
    );
    let keys = [
        ("model", "the default model: provider/model or an alias"),
        ("default_agent", "the agent used without --agent"),
        (
            "providers.<name>",
            "kind, base_url, api_key_env, timeout_secs, max_retries, file",
        ),
        ("aliases.<alias>", "a short name for a model string"),
        (
            "agent.*",
            "max_tool_iterations, temperature, max_tokens, context_window, auto_compact, compact_threshold, tool_result_max_bytes, transcripts",
        ),
        (
            "tools.*",
            "allow_paths, deny, exec_timeout_secs, output_cap, web_fetch",
        ),
        (
            "skills.*",
            "max_prompt_bytes (rendered skills are cut beyond it), dynamic_context, disabled, entries, builtins",
        ),
        (
            "sandbox.*",
            "enabled, required, writable_roots, deny_read, network, env_passthrough",
        ),
        (
            "permissions.*",
            "mode (ask, accept-edits, plan, auto, bypass, dont-ask), allow (pre-approved calls)",
        ),
        (
            "pricing.<provider/model>",
            "input, output, cache_read, cache_write: US dollars per million tokens (/cost)",
        ),
    ];
    let rows: Vec<Vec<String>> = keys
        .iter()
        .map(|(k, v)| vec![format!("  {k}"), (*v).to_owned()])
        .collect();
    out.push_str(&fit_columns(&rows, data.width));
    out.push_str("\nAPI keys are never shown. docs/CONFIG.md has every key.\n");
    out
}

fn memory(data: &HelpData) -> String {
    let file = data.memory_file.as_deref().map_or_else(
        || "(no home directory)".to_owned(),
        |f| tilde(f, data.home.as_deref()),
    );
    format!(
        "Memory is a markdown file of notes kept across sessions:\n  {file}\n\n\
         The model reads it with memory_read (optionally only the lines containing a query) and\n\
         adds to or rewrites it with memory_write, when its agent may use those tools.\n"
    )
}

fn tools(data: &HelpData) -> String {
    let mut out = String::from(
        "Tools are what the model can call. An agent's tools and disallowed_tools narrow them,\n\
         an active skill's allowed-tools narrows them further until its request is answered,\n\
         and the configuration's tools.deny is a ceiling over everything. Every call is checked\n\
         by the gate before it runs; a refused call returns the reason to the model.\n\
         Then the permission mode (--permission-mode, permissions.mode) decides whether it runs\n\
         at once or asks you first: in ask, the default, anything that may change something\n\
         asks unless permissions.allow pre-approves it. /permissions shows the mode.\n",
    );
    if !data.tools.is_empty() {
        out.push_str("\nTools of this runtime:\n");
        let rows: Vec<Vec<String>> = data
            .tools
            .iter()
            .map(|(n, d)| vec![format!("  {n}"), weft_term::one_line(d)])
            .collect();
        out.push_str(&fit_columns(&rows, data.width));
    }
    out.push_str("  use_skill             (offered when a skill can be invoked by the model)\n");
    out
}

fn workspace(data: &HelpData) -> String {
    let home = data.home.as_deref();
    let show = |p: &Option<PathBuf>| {
        p.as_deref()
            .map_or_else(|| "(none)".to_owned(), |p| tilde(p, home))
    };
    format!(
        "The project is --project, else $CLAWFT_PROJECT, else the nearest ancestor of the\n\
         current directory with .clawft/ or .claude/ (never the home directory or above).\n\
         File tools are confined to it.\n\n\
         \x20 project      {}\n\
         \x20 home         {}\n\
         \x20 transcripts  {}\n\
         \x20 memory       {}\n\
         \x20 history      {}\n",
        show(&data.project),
        show(&data.home),
        show(&data.transcripts_dir),
        show(&data.memory_file),
        show(&data.history_file),
    )
}
