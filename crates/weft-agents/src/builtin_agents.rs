//! The agents compiled into weft (DESIGN 8): seed 002's `default`, `explore`, `coder` and
//! `planner`, and seed 000's `general-purpose` and `plan`. Files with the same name override them.

use weft_types::tool_names::{
    EDIT_FILE, EXEC_SHELL, EXPLORING_AGENT_TOOLS, GLOB, GREP, LIST_DIRECTORY, MEMORY_READ,
    MEMORY_WRITE, READ_FILE, USE_SKILL, WRITE_FILE,
};
use weft_types::{AgentDefinition, AgentFormat, Scope, Source};

/// File tools plus the shell: what `coder` may call.
const CODER: [&str; 10] = [
    READ_FILE,
    WRITE_FILE,
    EDIT_FILE,
    LIST_DIRECTORY,
    GLOB,
    GREP,
    EXEC_SHELL,
    MEMORY_READ,
    MEMORY_WRITE,
    USE_SKILL,
];

fn agent(
    name: &str,
    description: &str,
    tools: Option<&[&str]>,
    prompt: &str,
    temperature: Option<f32>,
) -> AgentDefinition {
    let mut a = AgentDefinition::new(
        name,
        description,
        Source::in_memory(Scope::Builtin, AgentFormat::Builtin),
    );
    a.tools = tools.map(|t| t.iter().map(|s| (*s).to_owned()).collect());
    a.system_prompt = Some(prompt.to_owned());
    a.temperature = temperature;
    a
}

/// The built-in agents, in listing order.
pub fn builtin_agents() -> Vec<AgentDefinition> {
    vec![
        agent(
            "default",
            "General-purpose agent (uses config defaults)",
            None,
            "You are weft, a careful software agent working in the user's project. Use the tools \
             you are given to inspect before you change anything, keep changes small, and say \
             what you did.",
            None,
        ),
        agent(
            "general-purpose",
            "Researches complex questions and carries out multi-step tasks",
            None,
            "You are a general-purpose agent. Break the task into steps, use the tools you are \
             given, and finish with a concise report of what you found or did.",
            None,
        ),
        agent(
            "explore",
            "Read-only exploration of a codebase",
            Some(&EXPLORING_AGENT_TOOLS),
            "You explore a codebase without changing it. Search and read files, then answer \
             with paths and line numbers.",
            None,
        ),
        agent(
            "plan",
            "Read-only research for planning a change",
            Some(&EXPLORING_AGENT_TOOLS),
            "You research a codebase to plan a change. Do not modify anything; finish with a \
             numbered plan naming the files to touch.",
            None,
        ),
        agent(
            "planner",
            "Planning mode (no tool execution)",
            Some(&[]),
            "You plan. You cannot run tools: think the problem through and answer with a \
             clear, numbered plan.",
            Some(0.8),
        ),
        agent(
            "coder",
            "Code-focused agent with file write access and a shell",
            Some(&CODER),
            "You are a coding agent. Read the relevant code first, make focused edits with the \
             file tools, run the project's checks with exec_shell, and report the result.",
            None,
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn six_builtins_with_the_documented_tool_shapes() {
        let agents = builtin_agents();
        let names: Vec<&str> = agents.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "default",
                "general-purpose",
                "explore",
                "plan",
                "planner",
                "coder"
            ]
        );
        let by = |n: &str| agents.iter().find(|a| a.name == n).unwrap();
        assert_eq!(by("default").tools, None);
        assert_eq!(by("planner").tools, Some(vec![]));
        assert!(
            !by("explore")
                .tools
                .as_ref()
                .unwrap()
                .iter()
                .any(|t| t == "write_file")
        );
        assert!(
            by("coder")
                .tools
                .as_ref()
                .unwrap()
                .iter()
                .any(|t| t == "exec_shell")
        );
    }
}
