//! Seed 002 section 5.5 dispatch tests: built-in commands, skills as commands, unknown
//! commands, paths as messages, agent and model switches, duplicates refused, completion and
//! hints, and the other commands of DESIGN 9.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::sync::Arc;

use async_trait::async_trait;
use common::fixture;
use weft_repl::{
    CommandContext, CommandError, CommandRegistry, CompletionContext, Dispatch, DuplicateCommand,
    SlashCommand,
};

// --- seed 002 5.5 -------------------------------------------------------------------------

#[tokio::test]
async fn slash_dispatch_builtin_help() {
    let mut f = fixture();
    let (result, out) = f.dispatch("/help").await;
    assert_eq!(result, Dispatch::Handled);
    for command in [
        "/help [topic]",
        "/skills",
        "/skill <name> [args]",
        "/agent <name>",
        "/exit",
    ] {
        assert!(out.contains(command), "{command} missing from:\n{out}");
    }
    let (_, out) = f.dispatch("/help skills").await;
    assert!(out.starts_with("Skills are reusable prompts"), "{out}");
    assert!(out.contains("/<skill-name> [args]"), "{out}");
    let (_, out) = f.dispatch("/help skill").await;
    assert!(
        out.starts_with("/skill <name> [args]\nInvoke a skill"),
        "{out}"
    );
    let (_, out) = f.dispatch("/help nonsense").await;
    assert!(
        out.starts_with("error: no help topic or command `nonsense`"),
        "{out}"
    );
}

#[tokio::test]
async fn slash_dispatch_skills_list() {
    let mut f = fixture();
    let (result, out) = f.dispatch("/skills").await;
    assert_eq!(result, Dispatch::Handled);
    assert!(out.contains("research"), "{out}");
    assert!(out.contains("deploy (fork)"), "{out}");
    assert!(out.contains("3 skill(s)"), "{out}");
    let (_, out) = f.dispatch("/skills research").await;
    assert!(out.contains("Skill: research\n"), "{out}");
    assert!(out.contains("Argument Hint: [topic] [depth]"), "{out}");
    assert!(out.contains("Allowed Tools: read_file"), "{out}");
    let (_, out) = f.dispatch("/skills nope").await;
    assert_eq!(
        out,
        "error: Skill 'nope' not found. Run /skills to see available skills.\n"
    );
}

#[tokio::test]
async fn slash_dispatch_unknown_command() {
    let mut f = fixture();
    let (result, out) = f.dispatch("/nonexistent").await;
    assert_eq!(result, Dispatch::Handled);
    assert_eq!(
        out,
        "Unknown command: /nonexistent. Type /help for available commands.\n"
    );
    let (go_on, _) = f.line("/nonexistent with words").await;
    assert!(go_on);
    assert!(
        f.requests().is_empty(),
        "an unknown command reached the model"
    );
}

#[tokio::test]
async fn slash_dispatch_not_a_command() {
    let mut f = fixture();
    assert_eq!(f.dispatch("just a message").await.0, Dispatch::NotACommand);
    // A path is a message (DESIGN 14), not an unknown command.
    assert_eq!(
        f.dispatch("/etc/hosts is missing").await,
        (Dispatch::NotACommand, String::new())
    );
}

#[tokio::test]
async fn slash_dispatch_skill_as_command() {
    let mut f = fixture();
    let (result, out) = f.dispatch("/research quantum computing").await;
    assert_eq!(
        result,
        Dispatch::SkillInvocation {
            name: "research".to_owned(),
            args: vec!["quantum".to_owned(), "computing".to_owned()]
        }
    );
    assert_eq!(out, "");
    let (result, _) = f
        .dispatch(r#"/skill research "quantum computing" deep"#)
        .await;
    assert_eq!(
        result,
        Dispatch::SkillInvocation {
            name: "research".to_owned(),
            args: vec!["quantum computing".to_owned(), "deep".to_owned()]
        }
    );
    let (result, _) = f.dispatch("/deploy staging").await;
    assert_eq!(
        result,
        Dispatch::Fork {
            name: "deploy".to_owned(),
            args: vec!["staging".to_owned()]
        }
    );
    let (result, out) = f.dispatch("/background-only").await;
    assert_eq!(result, Dispatch::Handled);
    assert!(out.contains("not user-invocable"), "{out}");
    let (result, out) = f.dispatch("/skill research \"unclosed").await;
    assert_eq!(result, Dispatch::Handled);
    assert!(out.contains("cannot split the arguments"), "{out}");
    let (_, out) = f.dispatch("/skill nope").await;
    assert!(out.contains("Skill 'nope' not found"), "{out}");
}

#[tokio::test]
async fn slash_dispatch_agent_switch() {
    let mut f = fixture();
    let (result, out) = f.dispatch("/agent explore").await;
    assert_eq!(result, Dispatch::Handled);
    assert_eq!(out, "Switched to agent: explore (fake/m)\n");
    assert_eq!(f.repl.session.agent().name, "explore");
    assert_eq!(f.repl.prompt(), "explore (fake/m)> ");
    let (_, tools) = f.dispatch("/tools").await;
    assert!(tools.contains("read_file"), "{tools}");
    assert!(
        tools.contains("- exec_shell") && tools.contains("hidden by agent 'explore'"),
        "{tools}"
    );
    let (_, out) = f.dispatch("/agent nobody").await;
    assert_eq!(
        out,
        "error: Agent 'nobody' not found. Run /agents to see available agents.\n"
    );
    let (_, out) = f.dispatch("/agents").await;
    assert!(out.contains("* explore"), "{out}");
    f.dispatch("/agent default").await;
    let (_, tools) = f.dispatch("/tools").await;
    assert!(!tools.contains("Hidden"), "{tools}");
    assert!(tools.contains("exec_shell"), "{tools}");
}

// --- registry -----------------------------------------------------------------------------

struct Dummy(&'static str);

#[async_trait]
impl SlashCommand for Dummy {
    fn name(&self) -> &str {
        self.0
    }
    fn description(&self) -> &str {
        "dummy"
    }
    fn help(&self) -> &str {
        "dummy"
    }
    async fn execute(
        &self,
        _args: &str,
        _ctx: &mut CommandContext<'_>,
    ) -> Result<Dispatch, CommandError> {
        Ok(Dispatch::Handled)
    }
}

#[test]
fn duplicate_registration_is_refused() {
    let mut registry = CommandRegistry::builtin();
    let before = registry.len();
    assert_eq!(
        registry.register(Arc::new(Dummy("help"))),
        Err(DuplicateCommand("help".to_owned()))
    );
    assert_eq!(registry.len(), before);
    registry.register(Arc::new(Dummy("extra"))).unwrap();
    assert_eq!(
        registry
            .register(Arc::new(Dummy("extra")))
            .unwrap_err()
            .to_string(),
        "a slash command named `/extra` is already registered"
    );
    // Every command of DESIGN 9 (and /permissions, /expand, /context, /cost, /compact,
    // /plugin) is there, once.
    let builtin = CommandRegistry::builtin();
    let names: Vec<&str> = builtin.list().iter().map(|(n, _)| *n).collect();
    assert_eq!(
        names,
        [
            "agent",
            "agents",
            "clear",
            "compact",
            "config",
            "context",
            "cost",
            "exit",
            "expand",
            "help",
            "hooks",
            "memory",
            "model",
            "permissions",
            "plugin",
            "quit",
            "reload",
            "session",
            "skill",
            "skills",
            "tools",
            "workspace",
        ]
    );
}

#[test]
fn completion_candidates() {
    let f = fixture();
    let names: CompletionContext = f.repl.completion_context();
    let registry = &f.repl.commands;
    let complete = |line: &str| registry.complete(line, line.len(), &names);
    assert_eq!(
        complete("/sk"),
        (0, vec!["/skill".to_owned(), "/skills".to_owned()])
    );
    assert_eq!(complete("/res"), (0, vec!["/research".to_owned()]));
    assert_eq!(complete("/de"), (0, vec!["/deploy".to_owned()]));
    // Not user-invocable: not offered.
    assert_eq!(complete("/back"), (0, vec![]));
    assert_eq!(complete("/agent ex"), (7, vec!["explore".to_owned()]));
    assert_eq!(complete("/skill re"), (7, vec!["research".to_owned()]));
    assert_eq!(complete("/help wo"), (6, vec!["workspace".to_owned()]));
    assert_eq!(
        complete("/config agent.t"),
        (8, vec!["agent.temperature".to_owned()])
    );
    assert_eq!(complete("/memory s"), (8, vec!["search".to_owned()]));
    assert_eq!(complete("hello"), (5, vec![]));
    // A plugin's skills complete from `/plugin:`, and from their bare name when no other
    // name starts so.
    let mut names = names.clone();
    for name in ["fmt:lint", "tools:lint", "fmt:run", "fmt:reload"] {
        names.skills.push(weft_repl::SkillName {
            name: name.to_owned(),
            argument_hint: None,
        });
    }
    let complete = |line: &str| registry.complete(line, line.len(), &names);
    assert_eq!(
        complete("/fmt:"),
        (
            0,
            ["/fmt:lint", "/fmt:reload", "/fmt:run"]
                .map(str::to_owned)
                .to_vec()
        )
    );
    assert_eq!(complete("/ru"), (0, vec!["/fmt:run".to_owned()]));
    assert_eq!(
        complete("/lin"),
        (0, vec!["/fmt:lint".to_owned(), "/tools:lint".to_owned()])
    );
    // `/rel` is the command `/reload`, not the plugin's `fmt:reload` too.
    assert_eq!(complete("/rel"), (0, vec!["/reload".to_owned()]));
    let names = f.repl.completion_context();
    // Hints: argument-hint after the skill name, usage after a command, the rest of a name.
    let hint = |line: &str| registry.hint(line, line.len(), &names);
    assert_eq!(hint("/research ").as_deref(), Some("[topic] [depth]"));
    assert_eq!(hint("/skill research ").as_deref(), Some("[topic] [depth]"));
    assert_eq!(hint("/agent ").as_deref(), Some("<name>"));
    assert_eq!(hint("/wor").as_deref(), Some("kspace"));
    assert_eq!(hint("/s"), None);
}

// --- the other commands -------------------------------------------------------------------

#[tokio::test]
async fn model_config_session_memory_workspace_reload_clear() {
    let mut f = fixture();
    let (_, out) = f.dispatch("/model nowhere/x").await;
    assert!(out.starts_with("error: model `nowhere/x`:"), "{out}");
    assert_eq!(f.repl.session.model().to_string(), "fake/m");
    let (_, out) = f.dispatch("/model fake/bigger").await;
    assert_eq!(out, "Switched to model: fake/bigger\n");
    assert_eq!(f.repl.session.model().to_string(), "fake/bigger");

    let (_, out) = f.dispatch("/config agent.temperature").await;
    assert_eq!(out, "0.2\n");
    let (_, out) = f.dispatch("/config").await;
    assert!(
        out.contains("<redacted>") && !out.contains("sk-secret"),
        "{out}"
    );
    let (_, out) = f.dispatch("/config nonexistent.path").await;
    assert_eq!(out, "error: no configuration key `nonexistent.path`\n");
    let (_, out) = f.dispatch("/config --origin").await;
    assert_eq!(
        out,
        "KEY                VALUE   ORIGIN\n\
         agent.temperature  0.2     ~/.clawft/config.json\n\
         model              fake/m  env WEFT_MODEL\n"
    );
    let (_, out) = f.dispatch("/config --origin agent").await;
    assert!(
        out.contains("agent.temperature") && !out.contains("model"),
        "{out}"
    );

    let (_, out) = f.dispatch("/memory").await;
    assert!(
        out.contains("(3 lines") && out.contains("  # Notes"),
        "{out}"
    );
    let (_, out) = f.dispatch("/memory search DEPLOY").await;
    assert_eq!(out, "    2: The deploy key rotates monthly.\n");

    let (_, out) = f.dispatch("/workspace").await;
    assert!(
        out.contains("Skills: 3 (2 user-invocable); agents: "),
        "{out}"
    );
    assert!(out.contains("Shadowed skills: none"), "{out}");
    let (_, out) = f.dispatch("/reload").await;
    assert!(out.starts_with("Reloaded skills: 3 (was 3)"), "{out}");

    f.line("hello").await;
    let (_, out) = f.dispatch("/session").await;
    assert!(
        out.contains("Messages: 2\n")
            && out.contains("Tokens: 10 input (0 from the cache) + 2 output (/cost for more)"),
        "{out}"
    );
    let (_, out) = f.dispatch("/clear").await;
    assert_eq!(out, "Cleared 2 message(s).\n");
    assert!(f.repl.session.messages().is_empty());
    assert_eq!(f.dispatch("/quit").await.0, Dispatch::Exit);
    assert_eq!(f.dispatch("/exit").await.0, Dispatch::Exit);
}

#[tokio::test]
async fn switching_to_an_untrusted_projects_agent_repeats_its_warnings() {
    let mut f = fixture();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(".clawft/agents");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("explore.md"),
        "---\nname: explore\ndescription: The project's explorer\nmaxTurns: 500\n---\n\nExplore.\n",
    )
    .unwrap();
    let mut agents = weft_agents::AgentRegistry::discover(
        &[weft_agents::AgentRoot::new(
            &dir,
            weft_types::Scope::Project,
        )],
        &weft_parse::ParseOptions::new(weft_parse::Profile::Load),
    );
    agents.restrain_project_agents(&weft_agents::AgentLimits {
        max_tool_iterations: 20,
    });
    f.repl.env.agents = agents;
    let (_, out) = f.dispatch("/agent explore").await;
    assert_eq!(
        out,
        "Switched to agent: explore (fake/m)\n\
         warning[W178]: project agent `explore` overrides the builtin agent (--trust-project silences this)\n\
         warning[W179]: project agent `explore` asks for max_tool_iterations 500; lowered to your limit of 20 (--trust-project lifts it)\n"
    );
    assert_eq!(f.repl.session.view().max_tool_iterations, 20);
}
