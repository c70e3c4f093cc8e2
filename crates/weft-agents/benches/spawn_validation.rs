//! `sessions_spawn` validation (seed 001 SC-002 asks < 50 ms): agent lookup, skill-set
//! validation, composition within the parent's gate, model resolution and building the
//! child session (no transcript), for the seed's two-skill set and for a default spawn.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use weft_agents::{AgentRegistry, ModelPool, Session, SessionOptions, SessionParts, SpawnRequest};
use weft_llm::{ModelCatalog, ReplayModel};
use weft_registry::{RegistryConfig, SkillRegistry};
use weft_tools::ToolRegistry;

fn parent() -> Session {
    let models = ModelPool::new(ModelCatalog::default())
        .with_client("replay", Arc::new(ReplayModel::from_turns("bench", vec![])));
    Session::new(SessionParts {
        models: Arc::new(models),
        // Only the built-in skills (specification-engine, opencode-implementer).
        skills: Arc::new(SkillRegistry::new(RegistryConfig::with_roots(vec![]))),
        tools: ToolRegistry::new(),
        agent: AgentRegistry::builtins()
            .get("default")
            .unwrap()
            .agent
            .clone(),
        model: Some("replay/bench".into()),
        options: SessionOptions::default(),
    })
    .unwrap()
}

fn spawn_validation(c: &mut Criterion) {
    let session = parent();
    let mut group = c.benchmark_group("spawn_validation");
    group.bench_function("seed_skill_pair", |b| {
        b.iter(|| {
            session
                .prepare_child(SpawnRequest {
                    task: "implement the spec".into(),
                    skills: Some(vec![
                        "specification-engine".into(),
                        "opencode-implementer".into(),
                    ]),
                    ..SpawnRequest::default()
                })
                .unwrap()
        });
    });
    group.bench_function("invalid_set_rejected", |b| {
        b.iter(|| {
            session
                .prepare_child(SpawnRequest {
                    task: "t".into(),
                    skills: Some(vec!["specification-engine".into()]),
                    ..SpawnRequest::default()
                })
                .unwrap_err()
        });
    });
    group.bench_function("default_spawn", |b| {
        b.iter(|| {
            session
                .prepare_child(SpawnRequest {
                    task: "look around".into(),
                    ..SpawnRequest::default()
                })
                .unwrap()
        });
    });
    group.finish();
}

criterion_group!(benches, spawn_validation);
criterion_main!(benches);
