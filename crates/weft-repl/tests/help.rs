//! Help topics: every topic renders, `/help` and `weft help commands` list every registered
//! command (they are built from the registry), commands have their own help.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use weft_agents::AgentRoot;
use weft_registry::SkillRoot;
use weft_repl::CommandRegistry;
use weft_repl::help::{HelpData, TOPICS, commands_overview, general, topic};
use weft_types::Scope;

fn data() -> HelpData {
    HelpData {
        skill_roots: vec![
            SkillRoot::new("/p/.clawft/skills", Scope::Project),
            SkillRoot::new("/h/.clawft/skills", Scope::User),
        ],
        agent_roots: vec![AgentRoot::new("/p/.clawft/agents", Scope::Project)],
        agents: vec![("explore".to_owned(), "Read-only exploration".to_owned())],
        tools: vec![("read_file".to_owned(), "Reads a file.\nMore.".to_owned())],
        config_files: vec![PathBuf::from("/h/.clawft/config.json")],
        memory_file: Some(PathBuf::from("/h/.clawft/workspace/MEMORY.md")),
        history_file: Some(PathBuf::from("/h/.clawft/workspace/history")),
        transcripts_dir: None,
        project: Some(PathBuf::from("/p")),
        home: Some(PathBuf::from("/h")),
        width: None,
    }
}

#[test]
fn every_topic_renders_and_unknown_ones_do_not() {
    let registry = CommandRegistry::builtin();
    for (name, _) in TOPICS {
        let text = topic(name, &registry, &data()).unwrap();
        assert!(!text.trim().is_empty(), "{name}");
    }
    assert!(topic("nonsense", &registry, &data()).is_none());
    let skills = topic("skills", &registry, &data()).unwrap();
    assert!(
        skills.contains("  1. /p/.clawft/skills/  (project)"),
        "{skills}"
    );
    assert!(
        skills.contains("  2. ~/.clawft/skills/  (personal)"),
        "{skills}"
    );
    assert!(
        skills.contains("  3. compiled into weft  (built-in)"),
        "{skills}"
    );
    let agents = topic("agents", &registry, &data()).unwrap();
    assert!(
        agents.contains("explore  Read-only exploration"),
        "{agents}"
    );
    let tools = topic("tools", &registry, &data()).unwrap();
    assert!(
        tools.contains("read_file  Reads a file. More.\n"),
        "{tools}"
    );
    let memory = topic("memory", &registry, &data()).unwrap();
    assert!(memory.contains("~/.clawft/workspace/MEMORY.md"), "{memory}");
    assert!(memory.contains("/memory search <q>") || memory.contains("/memory [search <q>]"));
}

#[test]
fn the_command_lists_come_from_the_registry() {
    let registry = CommandRegistry::builtin();
    let overview = commands_overview(&registry, None);
    let commands = topic("commands", &registry, &data()).unwrap();
    let everything = general(&registry, &[("agent".to_owned(), "Talk".to_owned())], None);
    for (name, description) in registry.list() {
        for text in [&overview, &commands, &everything] {
            assert!(
                text.contains(&format!("/{name}")),
                "/{name} missing:\n{text}"
            );
            assert!(text.contains(description), "{description} missing:\n{text}");
        }
        // Each command also has its own page.
        let page = topic(name, &registry, &data()).unwrap();
        assert!(page.contains(description), "{page}");
    }
    assert!(everything.contains("  agent  Talk\n"), "{everything}");
    let page = topic("/skill", &registry, &data()).unwrap();
    assert!(page.starts_with("/skill <name> [args]\n"), "{page}");
}
