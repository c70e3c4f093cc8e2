//! The names of weft's built-in tools, defined once for every crate.
//!
//! weft-tools names its tools with these constants, weft-agents adds the session tools
//! (`use_skill`, `sessions_*`, `create_skill`) under them, and weft-permissions canonicalises
//! Claude Code's aliases to them. A test in weft-agents checks that the tools actually
//! registered and this vocabulary agree in both directions.
//!
//! ```
//! use weft_types::tool_names::{self, BUILTIN_TOOLS, READ_ONLY_TOOLS};
//!
//! assert!(BUILTIN_TOOLS.contains(&tool_names::EXEC_SHELL));
//! assert!(READ_ONLY_TOOLS.iter().all(|t| BUILTIN_TOOLS.contains(t)));
//! assert_eq!(tool_names::mcp_tool_name("github", "create_issue"), "github__create_issue");
//! ```

/// Reads a file in the workspace.
pub const READ_FILE: &str = "read_file";
/// Writes a file in the workspace.
pub const WRITE_FILE: &str = "write_file";
/// Replaces text in a file in the workspace.
pub const EDIT_FILE: &str = "edit_file";
/// Lists a directory in the workspace.
pub const LIST_DIRECTORY: &str = "list_directory";
/// Finds files by glob.
pub const GLOB: &str = "glob";
/// Searches file contents.
pub const GREP: &str = "grep";
/// Runs a shell command.
pub const EXEC_SHELL: &str = "exec_shell";
/// Reads the memory file.
pub const MEMORY_READ: &str = "memory_read";
/// Appends to the memory file.
pub const MEMORY_WRITE: &str = "memory_write";
/// Fetches a URL (only when configured).
pub const WEB_FETCH: &str = "web_fetch";
/// Loads a skill's instructions into the conversation.
pub const USE_SKILL: &str = "use_skill";
/// Starts a subagent.
pub const SESSIONS_SPAWN: &str = "sessions_spawn";
/// The state or result of a subagent.
pub const SESSIONS_RESULT: &str = "sessions_result";
/// Every subagent of the session.
pub const SESSIONS_LIST: &str = "sessions_list";
/// Stops a background subagent.
pub const SESSIONS_CANCEL: &str = "sessions_cancel";
/// Writes a validated SKILL.md and reloads the skills.
pub const CREATE_SKILL: &str = "create_skill";

/// The tools weft-tools builds (`builtin_tools`), in its order.
pub const WORKSPACE_TOOLS: [&str; 10] = [
    READ_FILE,
    WRITE_FILE,
    EDIT_FILE,
    LIST_DIRECTORY,
    GLOB,
    GREP,
    EXEC_SHELL,
    MEMORY_READ,
    MEMORY_WRITE,
    WEB_FETCH,
];

/// The tools the agent session provides itself (weft-agents).
pub const SESSION_TOOLS: [&str; 6] = [
    USE_SKILL,
    SESSIONS_SPAWN,
    SESSIONS_RESULT,
    SESSIONS_LIST,
    SESSIONS_CANCEL,
    CREATE_SKILL,
];

/// Every built-in tool in its canonical (snake_case) spelling: [`WORKSPACE_TOOLS`] then
/// [`SESSION_TOOLS`].
pub const BUILTIN_TOOLS: [&str; 16] = [
    READ_FILE,
    WRITE_FILE,
    EDIT_FILE,
    LIST_DIRECTORY,
    GLOB,
    GREP,
    EXEC_SHELL,
    MEMORY_READ,
    MEMORY_WRITE,
    WEB_FETCH,
    USE_SKILL,
    SESSIONS_SPAWN,
    SESSIONS_RESULT,
    SESSIONS_LIST,
    SESSIONS_CANCEL,
    CREATE_SKILL,
];

// Categories of built-in tools. Each names one property the crates act on; a tool's
// category is looked up here, never listed again where it is used.

/// The tools that read the workspace's files and do nothing else. They are also the whole
/// tool set of a background subagent (no MCP, no memory, no writes, no exec, no spawning).
pub const READ_ONLY_TOOLS: [&str; 4] = [READ_FILE, GREP, GLOB, LIST_DIRECTORY];

/// Every built-in whose call only reads (the workspace, the memory file, the state of
/// subagents): [`READ_ONLY_TOOLS`], `memory_read`, `sessions_result`, `sessions_list`. Such a
/// call never needs approval in any permission mode.
pub const READ_ONLY_CALLS: [&str; 7] = [
    READ_FILE,
    GREP,
    GLOB,
    LIST_DIRECTORY,
    MEMORY_READ,
    SESSIONS_RESULT,
    SESSIONS_LIST,
];

/// The built-ins that change nothing themselves and start or stop something whose own calls
/// are checked one by one: `use_skill` (a skill's instructions), `sessions_spawn` (a
/// subagent, in its parent's mode), `sessions_cancel`.
pub const CONTROL_TOOLS: [&str; 3] = [USE_SKILL, SESSIONS_SPAWN, SESSIONS_CANCEL];

/// The built-ins that edit one file named by their `path`: `write_file`, `edit_file`.
pub const EDIT_TOOLS: [&str; 2] = [WRITE_FILE, EDIT_FILE];

/// The built-ins that visit many files under their `path`: `grep`, `glob`,
/// `list_directory`. Each file they reach is judged against the session's path rules.
pub const SEARCH_TOOLS: [&str; 3] = [GREP, GLOB, LIST_DIRECTORY];

/// The built-ins whose `path` (or `file_path`) names the one file they open:
/// `read_file` and the [`EDIT_TOOLS`]. Using one reveals the conditional skills (`paths:`)
/// that match the file.
pub const FILE_TOOLS: [&str; 3] = [READ_FILE, WRITE_FILE, EDIT_FILE];

/// The built-ins whose `path` names what they touch, a file or a directory to list or
/// search: the [`FILE_TOOLS`], `list_directory`, `glob`, `grep`. Path rules (`Read(src/**)`)
/// judge these calls on the real path as well as the spelled one.
pub const PATH_TOOLS: [&str; 6] = [READ_FILE, WRITE_FILE, EDIT_FILE, LIST_DIRECTORY, GLOB, GREP];

/// The subagent tools: `sessions_spawn` and its companions, which a session allows exactly
/// when it allows `sessions_spawn`.
pub const SUBAGENT_TOOLS: [&str; 4] = [
    SESSIONS_SPAWN,
    SESSIONS_RESULT,
    SESSIONS_LIST,
    SESSIONS_CANCEL,
];

/// What the read-only built-in agents (`explore`, `plan`) may call: the
/// [`READ_ONLY_TOOLS`], `memory_read` and `use_skill` (no edits, no shell, no subagents).
pub const EXPLORING_AGENT_TOOLS: [&str; 6] = [
    READ_FILE,
    LIST_DIRECTORY,
    GLOB,
    GREP,
    MEMORY_READ,
    USE_SKILL,
];

/// Each built-in that Claude Code spells differently, with its Claude Code names.
pub const ALIASES_BY_TOOL: [(&str, &[&str]); 10] = [
    (READ_FILE, &["Read"]),
    (WRITE_FILE, &["Write"]),
    (EDIT_FILE, &["Edit", "MultiEdit"]),
    (LIST_DIRECTORY, &["LS"]),
    (GLOB, &["Glob"]),
    (GREP, &["Grep"]),
    (EXEC_SHELL, &["Bash"]),
    (WEB_FETCH, &["WebFetch"]),
    (USE_SKILL, &["Skill"]),
    (SESSIONS_SPAWN, &["Task", "Agent"]),
];

/// Claude Code's tool names and the built-in each one stands for: [`ALIASES_BY_TOOL`], one
/// pair per alias.
pub const ALIASES: [(&str, &str); 12] = flatten_aliases(ALIASES_BY_TOOL);

/// `(alias, tool)` pairs from `(tool, aliases)` groups, computed at compile time (a wrong
/// count fails the build).
const fn flatten_aliases<const N: usize>(
    groups: [(&'static str, &'static [&'static str]); 10],
) -> [(&'static str, &'static str); N] {
    let mut out = [("", ""); N];
    let mut n = 0;
    let mut i = 0;
    while i < groups.len() {
        let (tool, aliases) = groups[i];
        let mut j = 0;
        while j < aliases.len() {
            out[n] = (aliases[j], tool);
            n += 1;
            j += 1;
        }
        i += 1;
    }
    assert!(n == N, "ALIASES has the wrong length");
    out
}

/// The built-in a Claude Code alias stands for.
///
/// ```
/// use weft_types::tool_names::alias_target;
///
/// assert_eq!(alias_target("MultiEdit"), Some("edit_file"));
/// assert_eq!(alias_target("write"), None); // lowercase is not Claude Code's spelling
/// ```
#[inline]
pub fn alias_target(name: &str) -> Option<&'static str> {
    // A match rather than a scan of ALIASES: the gate canonicalises every call's tool name.
    // The test below checks that it and the table agree.
    Some(match name {
        "Read" => READ_FILE,
        "Write" => WRITE_FILE,
        "Edit" | "MultiEdit" => EDIT_FILE,
        "LS" => LIST_DIRECTORY,
        "Glob" => GLOB,
        "Grep" => GREP,
        "Bash" => EXEC_SHELL,
        "WebFetch" => WEB_FETCH,
        "Skill" => USE_SKILL,
        "Task" | "Agent" => SESSIONS_SPAWN,
        _ => return None,
    })
}

/// The Claude Code aliases of a built-in (empty for anything else).
#[inline]
pub fn aliases_of(tool: &str) -> &'static [&'static str] {
    // A match, not a scan: the gate asks this for every glob it tries on a call.
    let index = match tool {
        READ_FILE => 0,
        WRITE_FILE => 1,
        EDIT_FILE => 2,
        LIST_DIRECTORY => 3,
        GLOB => 4,
        GREP => 5,
        EXEC_SHELL => 6,
        WEB_FETCH => 7,
        USE_SKILL => 8,
        SESSIONS_SPAWN => 9,
        _ => return &[],
    };
    ALIASES_BY_TOOL[index].1
}

/// The `'static` spelling of a built-in name or a Claude Code alias.
#[inline]
pub fn static_name(name: &str) -> Option<&'static str> {
    BUILTIN_TOOLS
        .iter()
        .find(|t| **t == name)
        .or_else(|| ALIASES.iter().map(|(a, _)| a).find(|a| **a == name))
        .copied()
}

/// Claude Code's tools that weft does not have. A skill written for Claude Code may name them
/// in `allowed-tools`: they are recognised (never "unknown"), and grant nothing here.
pub const CLAUDE_CODE_ONLY_TOOLS: [&str; 15] = [
    "WebSearch",
    "TodoWrite",
    "TodoRead",
    "NotebookEdit",
    "NotebookRead",
    "BashOutput",
    "KillShell",
    "KillBash",
    "ExitPlanMode",
    "EnterPlanMode",
    "SlashCommand",
    "AskUserQuestion",
    "ListMcpResourcesTool",
    "ReadMcpResourceTool",
    "PowerShell",
];

/// Tools of OpenClaw and Codex that skills written for them name in `allowed-tools`:
/// recognised, granting nothing here unless weft has a tool of that name.
pub const OTHER_RUNTIME_TOOLS: [&str; 22] = [
    "exec",
    "process",
    "read",
    "write",
    "edit",
    "apply_patch",
    "web_search",
    "browser",
    "canvas",
    "nodes",
    "cron",
    "message",
    "gateway",
    "image",
    "sessions_history",
    "sessions_send",
    "session_status",
    "memory_search",
    "memory_get",
    "agents_list",
    "shell",
    "update_plan",
];

/// True when `name` (the part of a tool pattern before any `(`) is a tool some runtime of the
/// family knows: a built-in, a Claude Code alias, a Claude Code tool weft lacks, an OpenClaw
/// or Codex tool ([`OTHER_RUNTIME_TOOLS`]), or an MCP
/// tool (`mcp__server__tool`, `server__tool`); a glob (`*`, `?`, `[`) matches names, so it
/// counts as known too.
///
/// ```
/// use weft_types::tool_names::is_known_tool;
///
/// assert!(is_known_tool("Bash") && is_known_tool("read_file") && is_known_tool("WebSearch"));
/// assert!(is_known_tool("mcp__github__create_issue") && is_known_tool("github__*"));
/// assert!(!is_known_tool("Frobnicate") && !is_known_tool("Bassh"));
/// ```
pub fn is_known_tool(name: &str) -> bool {
    static_name(name).is_some()
        || CLAUDE_CODE_ONLY_TOOLS.contains(&name)
        || OTHER_RUNTIME_TOOLS.contains(&name)
        || name.contains(MCP_SEPARATOR)
        || name.contains(['*', '?', '['])
}

/// Every tool name [`is_known_tool`] accepts by name (MCP tools and globs aside): the
/// candidates for a "did you mean".
pub fn known_tool_names() -> impl Iterator<Item = &'static str> {
    BUILTIN_TOOLS
        .into_iter()
        .chain(ALIASES.into_iter().map(|(alias, _)| alias))
        .chain(CLAUDE_CODE_ONLY_TOOLS)
        .chain(OTHER_RUNTIME_TOOLS)
}

/// The prefix of Claude Code's spelling of MCP tools, `mcp__<server>__<tool>`.
pub const MCP_PREFIX: &str = "mcp__";

/// The separator between an MCP server and its tool, `<server>__<tool>`.
pub const MCP_SEPARATOR: &str = "__";

/// The name weft gives tool `tool` of MCP server `server`: `<server>__<tool>`.
pub fn mcp_tool_name(server: &str, tool: &str) -> String {
    let mut name = String::with_capacity(server.len() + MCP_SEPARATOR.len() + tool.len());
    name.push_str(server);
    name.push_str(MCP_SEPARATOR);
    name.push_str(tool);
    name
}

/// The tool part of an MCP tool name (`create_issue` for `github__create_issue`); the name
/// itself when it has no separator.
pub fn mcp_tool_part(name: &str) -> &str {
    name.split_once(MCP_SEPARATOR)
        .map_or(name, |(_, tool)| tool)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lists_partition_the_built_ins() {
        let joined: Vec<&str> = WORKSPACE_TOOLS
            .iter()
            .chain(SESSION_TOOLS.iter())
            .copied()
            .collect();
        assert_eq!(joined, BUILTIN_TOOLS);
        for (i, a) in BUILTIN_TOOLS.iter().enumerate() {
            assert!(!BUILTIN_TOOLS[i + 1..].contains(a), "{a} listed twice");
        }
    }

    #[test]
    fn aliases_and_read_only_tools_name_built_ins() {
        for (alias, target) in ALIASES {
            assert!(BUILTIN_TOOLS.contains(&target), "{alias} -> {target}");
            assert!(!BUILTIN_TOOLS.contains(&alias));
        }
        for tool in READ_ONLY_TOOLS {
            assert!(WORKSPACE_TOOLS.contains(&tool));
        }
        for tool in BUILTIN_TOOLS {
            assert_eq!(static_name(tool), Some(tool));
            for alias in aliases_of(tool) {
                assert_eq!(alias_target(alias), Some(tool));
                assert_eq!(static_name(alias), Some(*alias));
            }
        }
        assert_eq!(aliases_of(EDIT_FILE), ["Edit", "MultiEdit"]);
        for (tool, aliases) in ALIASES_BY_TOOL {
            assert_eq!(aliases_of(tool), aliases, "{tool}");
            for alias in aliases {
                assert_eq!(alias_target(alias), Some(tool), "{alias}");
            }
        }
        assert_eq!(static_name("specKit"), None);
    }

    #[test]
    fn the_categories_nest_as_their_documents_say() {
        let all = |set: &[&str], within: &[&str]| set.iter().all(|t| within.contains(t));
        for set in [
            &READ_ONLY_CALLS[..],
            &CONTROL_TOOLS,
            &EDIT_TOOLS,
            &FILE_TOOLS,
            &PATH_TOOLS,
            &SUBAGENT_TOOLS,
            &EXPLORING_AGENT_TOOLS,
        ] {
            assert!(all(set, &BUILTIN_TOOLS), "{set:?}");
        }
        assert!(all(&READ_ONLY_TOOLS, &READ_ONLY_CALLS));
        assert!(all(&READ_ONLY_TOOLS, &EXPLORING_AGENT_TOOLS));
        assert!(all(&EDIT_TOOLS, &FILE_TOOLS) && all(&FILE_TOOLS, &PATH_TOOLS));
        // Path tools are the read-only ones and the edits, nothing else.
        let mut paths: Vec<&str> = READ_ONLY_TOOLS.iter().chain(&EDIT_TOOLS).copied().collect();
        paths.sort_unstable();
        let mut expected = PATH_TOOLS.to_vec();
        expected.sort_unstable();
        assert_eq!(paths, expected);
        assert!(all(&SUBAGENT_TOOLS, &SESSION_TOOLS));
        // A call is read-only, control or an edit, never two of them.
        for tool in BUILTIN_TOOLS {
            let kinds = [&READ_ONLY_CALLS[..], &CONTROL_TOOLS, &EDIT_TOOLS]
                .iter()
                .filter(|set| set.contains(&tool))
                .count();
            assert!(kinds <= 1, "{tool} is in {kinds} call kinds");
        }
    }

    #[test]
    fn mcp_names_join_and_split() {
        assert_eq!(mcp_tool_name("a", "b__c"), "a__b__c");
        assert_eq!(mcp_tool_part("a__b__c"), "b__c");
        assert_eq!(mcp_tool_part("plain"), "plain");
        assert!(MCP_PREFIX.ends_with(MCP_SEPARATOR));
    }
}
