//! Agent-loop overhead per turn with the replay provider: a user message, a tool call, its
//! result and the answer (two model calls), over a registry of 100 generated skills, so the
//! model's latency is zero and what is left is the loop itself: prompt and catalog, tool
//! list, gate checks, dispatch, message bookkeeping, and (second case) the transcript.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::sync::Arc;

use async_trait::async_trait;
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use weft_agents::{
    AgentRegistry, ModelPool, Permissions, Quiet, Session, SessionOptions, SessionParts,
};
use weft_llm::{ModelCatalog, ReplayModel, ReplayToolCall, ReplayTurn};
use weft_registry::{RegistryConfig, SkillRegistry, SkillRoot};
use weft_tools::{Tool, ToolError, ToolOutput, ToolRegistry};
use weft_types::{PermissionMode, Scope};

/// The same generator `cargo xtask fixtures` uses.
#[allow(dead_code, missing_docs, unused_imports)]
#[path = "../../../xtask/src/fixtures.rs"]
mod fixtures;

/// A tool that does nothing, so its own cost does not count as loop overhead.
struct Echo;

#[async_trait]
impl Tool for Echo {
    fn name(&self) -> &str {
        "echo"
    }
    fn description(&self) -> &str {
        "Returns its input."
    }
    fn input_schema(&self) -> serde_json::Value {
        serde_json::json!({"type": "object", "properties": {"text": {"type": "string"}}})
    }
    async fn call(&self, input: serde_json::Value) -> Result<ToolOutput, ToolError> {
        Ok(ToolOutput::text(input.to_string()))
    }
}

fn turns() -> Vec<ReplayTurn> {
    vec![
        ReplayTurn {
            content: "Checking.".into(),
            tool_calls: vec![ReplayToolCall {
                id: None,
                name: "echo".into(),
                arguments: serde_json::json!({"text": "hello"}),
            }],
            stop_reason: None,
            usage: None,
        },
        ReplayTurn {
            content: "Done: the tool said hello.".into(),
            ..ReplayTurn::default()
        },
    ]
}

fn skills() -> Arc<SkillRegistry> {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bench-loop-skills");
    fixtures::run(&fixtures::Options {
        count: 100,
        out: out.clone(),
        seed: 7,
        nested: false,
        force: true,
    })
    .unwrap();
    Arc::new(SkillRegistry::new(RegistryConfig::with_roots(vec![
        SkillRoot::new(out, Scope::User),
    ])))
}

fn session(skills: &Arc<SkillRegistry>, transcript_dir: Option<PathBuf>) -> Session {
    let mut tools = ToolRegistry::new();
    tools.register(Arc::new(Echo));
    let models = ModelPool::new(ModelCatalog::default()).with_client(
        "replay",
        Arc::new(ReplayModel::from_turns("bench", turns())),
    );
    Session::new(SessionParts {
        models: Arc::new(models),
        skills: Arc::clone(skills),
        tools,
        agent: AgentRegistry::builtins()
            .get("default")
            .unwrap()
            .agent
            .clone(),
        model: Some("replay/bench".into()),
        // The tool runs without asking, as it would in `auto` (the default, `ask`, would refuse
        // it: no one can be asked here).
        options: SessionOptions {
            transcript_dir,
            permissions: Permissions::new(PermissionMode::Auto),
            ..SessionOptions::default()
        },
    })
    .unwrap()
}

fn loop_turn(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let skills = skills();
    let transcripts = tempfile::tempdir().unwrap();
    let mut group = c.benchmark_group("loop_turn");
    group.bench_function("tool_call_and_answer", |b| {
        b.iter_batched(
            || session(&skills, None),
            |mut s| {
                rt.block_on(s.send("Say hello through the tool.", &mut Quiet))
                    .unwrap()
            },
            BatchSize::SmallInput,
        );
    });
    group.bench_function("tool_call_and_answer_with_transcript", |b| {
        b.iter_batched(
            || session(&skills, Some(transcripts.path().to_path_buf())),
            |mut s| {
                rt.block_on(s.send("Say hello through the tool.", &mut Quiet))
                    .unwrap()
            },
            BatchSize::SmallInput,
        );
    });
    group.finish();
}

criterion_group!(benches, loop_turn);
criterion_main!(benches);
