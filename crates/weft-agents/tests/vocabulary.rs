//! The tool vocabulary of weft-types against the tools that really exist: every tool a full
//! session offers (weft-tools' built-ins plus the session's own tools) is in
//! `weft_types::tool_names`, and every name there is offered by some tool.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::sync::Arc;

use weft_agents::{AgentRegistry, CreateSkill, ModelPool, Session, SessionOptions, SessionParts};
use weft_llm::{ModelCatalog, ProviderConfig, ProviderKind};
use weft_registry::{RegistryConfig, SkillRegistry};
use weft_tools::{BuiltinConfig, ExecConfig, FsScope, WebFetchConfig};
use weft_types::tool_names::{
    ALIASES, BUILTIN_TOOLS, READ_ONLY_TOOLS, SESSION_TOOLS, WORKSPACE_TOOLS,
};

/// A session with every tool weft can offer: the built-ins (`web_fetch` configured),
/// `create_skill`, and an unrestricted agent that may spawn and use skills.
fn full_session(dir: &std::path::Path) -> Session {
    let skills = Arc::new(SkillRegistry::new(RegistryConfig::with_roots(Vec::new())));
    let mut tools = weft_tools::builtin_registry(&BuiltinConfig {
        scope: FsScope::new(dir.to_path_buf(), vec![]).unwrap(),
        memory_file: dir.join("MEMORY.md"),
        exec: ExecConfig::default(),
        web_fetch: Some(WebFetchConfig::default()),
    });
    tools.register(Arc::new(CreateSkill::new(
        Arc::clone(&skills),
        dir.join("skills"),
    )));
    // Never called: building a session sends nothing.
    let mut catalog = ModelCatalog::default();
    catalog.add_provider(ProviderConfig::new(
        "local",
        ProviderKind::OpenAi,
        "http://127.0.0.1:9/v1",
    ));
    catalog.set_default("local/model");
    Session::new(SessionParts {
        models: Arc::new(ModelPool::new(catalog)),
        skills,
        tools,
        agent: AgentRegistry::builtins()
            .get("default")
            .unwrap()
            .agent
            .clone(),
        model: None,
        options: SessionOptions::default(),
    })
    .unwrap()
}

#[test]
fn every_offered_tool_is_in_the_vocabulary_and_the_reverse() {
    let dir = tempfile::tempdir().unwrap();
    let session = full_session(dir.path());
    let offered: BTreeSet<String> = session
        .offered_tools()
        .into_iter()
        .map(|t| t.name)
        .collect();
    let vocabulary: BTreeSet<String> = BUILTIN_TOOLS.iter().map(|t| (*t).to_owned()).collect();
    let unnamed: Vec<&String> = offered.difference(&vocabulary).collect();
    assert!(
        unnamed.is_empty(),
        "tools offered but missing from weft_types::tool_names: {unnamed:?}"
    );
    let missing: Vec<&String> = vocabulary.difference(&offered).collect();
    assert!(
        missing.is_empty(),
        "names in weft_types::tool_names that no tool provides: {missing:?}"
    );
}

#[test]
fn weft_tools_builds_exactly_the_workspace_tools_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let tools = weft_tools::builtin_tools(&BuiltinConfig {
        scope: FsScope::new(dir.path().to_path_buf(), vec![]).unwrap(),
        memory_file: dir.path().join("MEMORY.md"),
        exec: ExecConfig::default(),
        web_fetch: Some(WebFetchConfig::default()),
    });
    let names: Vec<&str> = tools.iter().map(|t| t.name()).collect();
    assert_eq!(names, WORKSPACE_TOOLS);
    for name in SESSION_TOOLS {
        assert!(!names.contains(&name), "{name} is a session tool");
    }
}

#[test]
fn built_in_agents_and_aliases_only_name_built_in_tools() {
    for entry in AgentRegistry::builtins().list() {
        for tool in entry.agent.tools.iter().flatten() {
            assert!(
                BUILTIN_TOOLS.contains(&tool.as_str()),
                "agent `{}` names `{tool}`",
                entry.agent.name
            );
        }
    }
    for (alias, tool) in ALIASES {
        assert_eq!(weft_permissions::canonical_tool_name(alias), tool);
    }
    assert_eq!(weft_permissions::BACKGROUND_TOOLS, READ_ONLY_TOOLS);
}
