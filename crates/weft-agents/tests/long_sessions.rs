//! Long sessions against a loopback server that answers like a provider: compaction (on
//! request, past the threshold, after the provider refuses a conversation as too long, in a
//! subagent), resuming after a compaction, the usage and context accounting, cache
//! breakpoints, a prefix that stays byte for byte the same while skills are used and a new
//! one appears on disk, and large tool results cut with the whole kept in a file the model
//! can read.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{Reply, ScriptServer, openai_messages, openai_tool_names, openai_tool_result};
use serde_json::{Value, json};
use weft_agents::transcript::{SessionHistory, Transcript, TranscriptRecord};
use weft_agents::{
    AgentRegistry, CompactStart, CompactTrigger, CompactionHook, CompactionReport, ContextUse,
    ModelPool, Permissions, Quiet, SUMMARY_MARK, Session, SessionError, SessionEvents,
    SessionOptions, SessionParts,
};
use weft_llm::{LlmError, Message, ModelCatalog, ProviderConfig, ProviderKind, RetryPolicy, Role};
use weft_registry::{RegistryConfig, SkillRegistry, SkillRoot};
use weft_tools::{BuiltinConfig, ExecConfig, FsScope, ReadGrants};
use weft_types::{PermissionMode, Scope};

// --- A provider on loopback ---------------------------------------------------------------------

/// What the summary request asks for (the start of its instruction).
const SUMMARY_ASK: &str = "Your next answer replaces the conversation above";

/// The text of the last user message of an OpenAI request.
fn last_user(body: &Value) -> String {
    openai_messages(body)
        .iter()
        .rev()
        .find(|m| m["role"] == "user")
        .and_then(|m| m["content"].as_str())
        .unwrap_or_default()
        .to_owned()
}

fn is_summary_request(body: &Value) -> bool {
    last_user(body).starts_with(SUMMARY_ASK)
}

/// A chat completion the way OpenAI answers: `prompt_tokens` counted from what was sent and
/// `completion_tokens` from the answer (four bytes a token, as the session estimates; half
/// the prompt read from the cache), with `message`.
fn completion(body: &Value, message: Value) -> Reply {
    let prompt = body.to_string().len() as u64 / 4;
    let completion = message.to_string().len() as u64 / 4;
    let finish = if message.get("tool_calls").is_some() {
        "tool_calls"
    } else {
        "stop"
    };
    Reply::Json(
        200,
        json!({
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                      "prompt_tokens_details": {"cached_tokens": prompt / 2}},
        }),
    )
}

fn text(body: &Value, text: &str) -> Reply {
    completion(body, json!({"role": "assistant", "content": text}))
}

fn tool(body: &Value, id: &str, name: &str, args: Value) -> Reply {
    completion(
        body,
        json!({"role": "assistant", "content": null, "tool_calls": [
            {"id": id, "type": "function", "function": {"name": name, "arguments": args.to_string()}}
        ]}),
    )
}

/// OpenAI's refusal of a prompt over the window.
fn too_long() -> Reply {
    Reply::Json(
        400,
        json!({"error": {"message": "This model's maximum context length is 4096 tokens. However, your messages resulted in 9000 tokens.",
            "type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}}),
    )
}

// --- Fixture ------------------------------------------------------------------------------------

struct Env {
    _tmp: tempfile::TempDir,
    project: PathBuf,
    sessions: PathBuf,
    grants: ReadGrants,
}

impl Env {
    fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let project = tmp.path().join("project");
        std::fs::create_dir_all(project.join(".clawft/skills")).unwrap();
        let project = project.canonicalize().unwrap();
        Self {
            sessions: tmp.path().join("sessions"),
            project,
            _tmp: tmp,
            grants: ReadGrants::new(),
        }
    }

    fn file(&self, rel: &str, text: &str) {
        let path = self.project.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn skill(&self, name: &str, frontmatter: &str, body: &str) {
        self.file(
            &format!(".clawft/skills/{name}/SKILL.md"),
            &format!(
                "---\nname: {name}\ndescription: The {name} skill\n{frontmatter}---\n\n{body}\n"
            ),
        );
    }

    /// A session of an agent with a short prompt and `tools`, on the OpenAI-compatible
    /// provider `local` at `server`, its window `window` tokens.
    fn session(&self, server: &ScriptServer, tools: &[&str], window: Option<u64>) -> Session {
        Session::new(self.parts(server, ProviderKind::OpenAi, tools, window)).unwrap()
    }

    fn parts(
        &self,
        server: &ScriptServer,
        kind: ProviderKind,
        tools: &[&str],
        window: Option<u64>,
    ) -> SessionParts {
        let base = match kind {
            ProviderKind::OpenAi => format!("{}/v1", server.url),
            _ => server.url.clone(),
        };
        let mut provider = ProviderConfig::new("local", kind, base);
        provider.timeout = Duration::from_secs(10);
        provider.retry = RetryPolicy {
            max_retries: 0,
            ..RetryPolicy::default()
        };
        let mut catalog = ModelCatalog::default();
        catalog.add_provider(provider);
        catalog.set_default("local/test-model");
        let mut config = RegistryConfig::with_roots(vec![SkillRoot::new(
            self.project.join(".clawft/skills"),
            Scope::Project,
        )]);
        config.builtins = false;
        let registry = weft_tools::builtin_registry(&BuiltinConfig {
            scope: FsScope::new(self.project.clone(), vec![])
                .unwrap()
                .with_grants(self.grants.clone()),
            memory_file: self.project.join("memory.md"),
            exec: ExecConfig::default(),
            web_fetch: None,
        });
        let mut agent = AgentRegistry::builtins()
            .get("default")
            .unwrap()
            .agent
            .clone();
        agent.system_prompt = Some("You are a test agent.".to_owned());
        agent.tools = Some(tools.iter().map(|t| (*t).to_owned()).collect());
        SessionParts {
            models: Arc::new(ModelPool::new(catalog)),
            skills: Arc::new(SkillRegistry::new(config)),
            tools: registry,
            agent,
            model: None,
            options: SessionOptions {
                transcript_dir: Some(self.sessions.clone()),
                project_dir: Some(self.project.clone()),
                permissions: Permissions::new(PermissionMode::Auto),
                read_grants: self.grants.clone(),
                context_window: window,
                ..SessionOptions::default()
            },
        }
    }
}

/// Records compactions and context reports.
#[derive(Default)]
struct Watch {
    compacting: Vec<CompactTrigger>,
    compacted: Vec<CompactionReport>,
    contexts: Vec<ContextUse>,
    notices: Vec<String>,
}

impl SessionEvents for Watch {
    fn compacting(&mut self, trigger: CompactTrigger) {
        self.compacting.push(trigger);
    }

    fn compacted(&mut self, report: &CompactionReport) {
        self.compacted.push(report.clone());
    }

    fn context(&mut self, context: &ContextUse) {
        self.contexts.push(*context);
    }

    fn notice(&mut self, text: &str) {
        self.notices.push(text.to_owned());
    }
}

fn records(session: &Session) -> Vec<TranscriptRecord> {
    Transcript::read(session.transcript_path().unwrap()).unwrap()
}

fn compactions(session: &Session) -> Vec<(String, usize, usize, Message)> {
    records(session)
        .into_iter()
        .filter_map(|r| match r {
            TranscriptRecord::Compaction {
                trigger,
                summarised,
                kept,
                summary,
                ..
            } => Some((trigger, summarised, kept, summary)),
            _ => None,
        })
        .collect()
}

/// A model that answers every message with `answer <n>` padded to `pad` bytes, and a
/// summary request with `SUMMARY <n>`.
async fn chatty_server(pad: usize) -> ScriptServer {
    ScriptServer::respond(common::OPENAI_PATH, move |n, body| {
        if is_summary_request(body) {
            return text(body, &format!("## Task\nSUMMARY {n}"));
        }
        text(body, &format!("answer {n} {}", "z".repeat(pad)))
    })
    .await
}

// --- Compaction ---------------------------------------------------------------------------------

/// `/compact` with instructions: the summary request is the conversation's own prefix (the
/// same system prompt and tools, the older messages) plus the instruction; the recent turns
/// stay verbatim after the summary, in memory, in the transcript and in the next request.
#[tokio::test]
async fn compact_asks_for_a_summary_of_the_older_turns_and_keeps_the_recent_ones() {
    let env = Env::new();
    // 1,000 tokens a reply; a 10,000-token window keeps the last 2,000 tokens verbatim.
    let server = chatty_server(4000).await;
    let mut session = env.session(&server, &["read_file"], Some(10_000));
    for i in 0..4 {
        session
            .send(format!("question {i}"), &mut Quiet)
            .await
            .unwrap();
    }
    assert_eq!(session.messages().len(), 8);
    let before = server.count();
    let mut watch = Watch::default();
    let report = session
        .compact(Some("the numbers of the questions"), &mut watch)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(watch.compacting, [CompactTrigger::Manual]);
    assert_eq!(watch.compacted, std::slice::from_ref(&report));
    // The last round is kept, and the turn before it fits the budget too.
    assert_eq!((report.summarised, report.kept), (6, 2));
    assert!(report.tokens_after < report.tokens_before, "{report:?}");

    let bodies = server.bodies();
    let ask = &bodies[before];
    let last_turn = &bodies[before - 1];
    // Same tools and system prompt as the conversation's requests.
    assert_eq!(ask["tools"], last_turn["tools"]);
    assert_eq!(openai_messages(ask)[0], openai_messages(last_turn)[0]);
    // The older messages as they were sent, then the instruction.
    let sent = openai_messages(ask);
    assert_eq!(sent.len(), 1 + 6 + 1);
    assert_eq!(&sent[..7], &openai_messages(last_turn)[..7]);
    let instruction = sent[7]["content"].as_str().unwrap();
    for heading in [
        "## Task",
        "## Decisions",
        "## Files",
        "## Progress",
        "## Open items",
    ] {
        assert!(instruction.contains(heading), "{instruction}");
    }
    assert!(
        instruction.ends_with(
            "The user asks the summary to keep in particular: the numbers of the questions"
        ),
        "{instruction}"
    );

    // Memory: the summary and the kept turn, nothing else.
    let messages = session.messages();
    assert_eq!(messages.len(), 3);
    assert!(messages[0].content.starts_with(SUMMARY_MARK));
    assert!(
        messages[0].content.contains("SUMMARY 4"),
        "{}",
        messages[0].content
    );
    assert_eq!(messages[1], Message::user("question 3"));
    // The transcript records it; the summarised messages stay in the file above it.
    let recorded = compactions(&session);
    assert_eq!(recorded.len(), 1);
    assert_eq!(recorded[0].0, "manual");
    assert_eq!((recorded[0].1, recorded[0].2), (6, 2));
    assert_eq!(recorded[0].3, messages[0]);
    let kept_in_file = records(&session)
        .iter()
        .filter(|r| matches!(r, TranscriptRecord::Message { .. }))
        .count();
    assert_eq!(kept_in_file, 8);

    // The next request starts from the summary.
    session.send("question 4", &mut Quiet).await.unwrap();
    let next = server.bodies().pop().unwrap();
    let sent = openai_messages(&next);
    assert_eq!(sent.len(), 1 + 3 + 1);
    assert!(
        sent[1]["content"]
            .as_str()
            .unwrap()
            .starts_with(SUMMARY_MARK)
    );
    assert_eq!(sent[2]["content"], "question 3");
    assert_eq!(session.compactions(), 1);
}

/// A conversation of one round has nothing to summarise.
#[tokio::test]
async fn a_single_round_is_not_compacted() {
    let env = Env::new();
    let server = chatty_server(10).await;
    let mut session = env.session(&server, &["read_file"], Some(10_000));
    assert!(session.compact(None, &mut Quiet).await.unwrap().is_none());
    session.send("hi", &mut Quiet).await.unwrap();
    assert!(session.compact(None, &mut Quiet).await.unwrap().is_none());
    assert_eq!(server.count(), 1);
}

/// Past the threshold the conversation is compacted before the request, again and again
/// over a long session, so memory holds what is sent and never more; resuming continues from
/// the last summary.
#[tokio::test]
async fn long_sessions_compact_automatically_and_resume_from_the_summary() {
    let env = Env::new();
    let server = chatty_server(2000).await;
    let window = 6_000;
    let mut session = env.session(&server, &["read_file"], Some(window));
    let mut watch = Watch::default();
    for i in 0..30 {
        session
            .send(format!("question {i}"), &mut watch)
            .await
            .unwrap();
        // What the session holds stays within the window (and well under it).
        let held: usize = session.messages().iter().map(|m| m.content.len()).sum();
        assert!(held < window as usize * 4, "turn {i}: {held} bytes held");
    }
    assert!(watch.compacted.len() >= 3, "{:?}", watch.compacted.len());
    assert!(
        watch
            .compacted
            .iter()
            .all(|r| r.trigger == CompactTrigger::Auto)
    );
    // No request the session sent (summary requests included) passed the window.
    for body in server.bodies() {
        let tokens = body.to_string().len() / 4;
        assert!(tokens < window as usize, "{tokens} tokens sent");
    }
    // Every reply told how full the window is; after a compaction it is below the threshold.
    assert!(watch.contexts.iter().all(|c| c.window == window));
    assert!(
        watch
            .contexts
            .iter()
            .all(|c| c.tokens < window && c.compact_at == Some(4_800))
    );

    // Resume: the conversation is the last summary and what followed it.
    let path = session.transcript_path().unwrap().to_path_buf();
    let history = SessionHistory::read(&path).unwrap();
    assert_eq!(history.messages, session.messages());
    assert_eq!(history.compactions, session.compactions());
    assert_eq!(history.ledger, *session.ledger());
    let mut resumed = Session::resume(
        env.parts(&server, ProviderKind::OpenAi, &["read_file"], Some(window)),
        history,
    )
    .unwrap();
    resumed.send("one more", &mut Quiet).await.unwrap();
    let last = server.bodies().pop().unwrap();
    let sent = openai_messages(&last);
    assert!(
        sent[1]["content"]
            .as_str()
            .unwrap()
            .starts_with(SUMMARY_MARK)
    );
    assert_eq!(sent.last().unwrap()["content"], "one more");
}

/// A provider that refuses the conversation as too long gets one compaction and the same
/// turn again, not an error; a provider that refuses even that gets the error.
#[tokio::test]
async fn an_overflow_compacts_once_and_retries() {
    let env = Env::new();
    // Refuses any conversation request over 3,000 tokens; the window is unknown (so 128k is
    // assumed and no automatic compaction happens).
    let server = ScriptServer::respond(common::OPENAI_PATH, |n, body| {
        if is_summary_request(body) {
            return text(body, "## Task\nSUMMARY");
        }
        if body.to_string().len() / 4 > 3_000 {
            return too_long();
        }
        text(body, &format!("answer {n} {}", "z".repeat(4000)))
    })
    .await;
    let mut session = env.session(&server, &["read_file"], None);
    let mut watch = Watch::default();
    for i in 0..6 {
        session
            .send(format!("question {i}"), &mut watch)
            .await
            .unwrap();
    }
    // The first compaction answers the refusal; the window is then known to be smaller, so
    // later ones come before the provider has to refuse.
    assert_eq!(watch.compacting[0], CompactTrigger::Overflow);
    assert!(
        watch.compacting[1..]
            .iter()
            .all(|t| *t == CompactTrigger::Auto)
    );
    assert!(
        (3_000..4_000).contains(&session.context_window()),
        "{}",
        session.context_window()
    );
    let statuses: Vec<bool> = server
        .bodies()
        .iter()
        .map(|b| b.to_string().len() / 4 > 3_000)
        .collect();
    // One refused request, then the summary request, then the same turn again.
    let refused = statuses.iter().position(|s| *s).unwrap();
    assert_eq!(statuses.iter().filter(|s| **s).count(), 1);
    let bodies = server.bodies();
    assert!(is_summary_request(&bodies[refused + 1]));
    assert_eq!(last_user(&bodies[refused + 2]), last_user(&bodies[refused]));
    assert_eq!(compactions(&session)[0].0, "overflow");

    // Refused again after compacting: the error, once.
    let stubborn = ScriptServer::respond(common::OPENAI_PATH, |n, body| {
        if is_summary_request(body) {
            return text(body, "## Task\nSUMMARY");
        }
        if n > 0 {
            return too_long();
        }
        text(body, &"long answer ".repeat(700))
    })
    .await;
    let mut session = env.session(&stubborn, &["read_file"], None);
    session.send("a", &mut Quiet).await.unwrap();
    let mut watch = Watch::default();
    let err = session.send("b", &mut watch).await.unwrap_err();
    assert_eq!(watch.compacting, [CompactTrigger::Overflow]);
    assert!(
        matches!(err, SessionError::Llm(LlmError::ContextOverflow { .. })),
        "{err:?}"
    );
    // The refused request, the summary request, the refused retry: no loop.
    assert_eq!(stubborn.count(), 1 + 3);
}

/// The Anthropic shape of the same refusal ("prompt is too long", an invalid request) and
/// the cache breakpoints of a session's requests.
#[tokio::test]
async fn anthropic_prompt_too_long_compacts_and_requests_carry_cache_breakpoints() {
    let env = Env::new();
    let reply = |body: &Value, text: &str| {
        Reply::Json(
            200,
            json!({"type": "message", "role": "assistant", "content": [{"type": "text", "text": text}],
                "stop_reason": "end_turn",
                "usage": {"input_tokens": 10, "cache_read_input_tokens": body.to_string().len() / 4,
                          "cache_creation_input_tokens": 5, "output_tokens": 3}}),
        )
    };
    let server = ScriptServer::respond(common::ANTHROPIC_PATH, move |n, body| {
        let messages = body["messages"].as_array().unwrap();
        let last = messages.last().unwrap()["content"][0]["text"]
            .as_str()
            .unwrap_or_default();
        if last.starts_with(SUMMARY_ASK) {
            return reply(body, "## Task\nSUMMARY");
        }
        if body.to_string().len() / 4 > 1_500 {
            return Reply::Json(
                400,
                json!({"type": "error", "error": {"type": "invalid_request_error",
                    "message": "prompt is too long: 210000 tokens > 200000 maximum"}}),
            );
        }
        reply(body, &format!("answer {n} {}", "z".repeat(2000)))
    })
    .await;
    let mut session =
        Session::new(env.parts(&server, ProviderKind::Anthropic, &["read_file"], None)).unwrap();
    let mut watch = Watch::default();
    for i in 0..4 {
        session.send(format!("q{i}"), &mut watch).await.unwrap();
    }
    assert_eq!(watch.compacting, [CompactTrigger::Overflow]);
    // Every request: breakpoints on the tools, the system prompt and the conversation, never
    // more than four.
    for body in server.bodies() {
        let mut marks = 0;
        if body["system"][0].get("cache_control").is_some() {
            marks += 1;
        }
        assert_eq!(
            body["tools"].as_array().unwrap().last().unwrap()["cache_control"],
            json!({"type": "ephemeral"})
        );
        marks += 1;
        for message in body["messages"].as_array().unwrap() {
            for block in message["content"].as_array().unwrap() {
                marks += usize::from(block.get("cache_control").is_some());
            }
        }
        assert!((3..=4).contains(&marks), "{marks} breakpoints in {body:#}");
    }
    // Usage as the API reports it: the prompt includes the cache reads and writes.
    let usage = session.usage();
    assert!(usage.cache_read_tokens > 0 && usage.cache_write_tokens > 0);
    assert_eq!(
        usage.input_tokens,
        usage.uncached_input_tokens() + usage.cache_read_tokens + usage.cache_write_tokens
    );
    let ledger = session.ledger();
    assert_eq!(ledger.calls["local/test-model"].usage, usage);
}

/// Hooks are told before and after, and what the after-hook returns joins the summary.
#[tokio::test]
async fn compaction_hooks_are_told_and_can_add_context() {
    #[derive(Default)]
    struct Hooks(Mutex<Vec<String>>);

    #[async_trait::async_trait]
    impl CompactionHook for Hooks {
        async fn before_compact(&self, start: &CompactStart<'_>) {
            self.0.lock().unwrap().push(format!(
                "pre {} {:?} {}",
                start.trigger,
                start.instructions,
                start.transcript.is_some()
            ));
        }

        async fn after_compact(&self, report: &CompactionReport) -> Option<String> {
            self.0
                .lock()
                .unwrap()
                .push(format!("start compact {}", report.summarised));
            Some("Remember: the build uses cargo.".to_owned())
        }
    }

    let env = Env::new();
    let server = chatty_server(100).await;
    let hooks = Arc::new(Hooks::default());
    let mut parts = env.parts(&server, ProviderKind::OpenAi, &["read_file"], None);
    parts.options.compaction_hook = Some(hooks.clone());
    let mut session = Session::new(parts).unwrap();
    for i in 0..3 {
        session.send(format!("q{i}"), &mut Quiet).await.unwrap();
    }
    let report = session
        .compact(Some("x"), &mut Quiet)
        .await
        .unwrap()
        .unwrap();
    assert!(report.summarised >= 2, "{report:?}");
    assert_eq!(
        *hooks.0.lock().unwrap(),
        [
            "pre manual Some(\"x\") true".to_owned(),
            format!("start compact {}", report.summarised)
        ]
    );
    assert!(
        session.messages()[0]
            .content
            .ends_with("\n\nRemember: the build uses cargo.")
    );
}

/// A subagent compacts its own conversation: its transcript records it, and the parent
/// gets its result.
#[tokio::test]
async fn subagents_compact_too() {
    let env = Env::new();
    let big: String = (0..3000)
        .map(|i| format!("line {i} of the file\n"))
        .collect();
    env.file("big.txt", &big);
    let server = ScriptServer::respond(common::OPENAI_PATH, |n, body| {
        if is_summary_request(body) {
            return text(
                body,
                "## Task\nRead big.txt.\n## Progress\nRead it several times.",
            );
        }
        let parent = openai_tool_names(body)
            .iter()
            .any(|t| t == "sessions_spawn");
        let messages = openai_messages(body);
        let results = messages.iter().filter(|m| m["role"] == "tool").count();
        if parent {
            return if results == 0 {
                tool(
                    body,
                    "spawn",
                    "sessions_spawn",
                    json!({"task": "Read big.txt eight times."}),
                )
            } else {
                text(body, "The child is done.")
            };
        }
        let summarised = messages[1]["content"]
            .as_str()
            .is_some_and(|c| c.starts_with(SUMMARY_MARK));
        if summarised || results >= 8 {
            return text(body, "Read it enough.");
        }
        tool(
            body,
            &format!("r{n}"),
            "read_file",
            json!({"path": "big.txt"}),
        )
    })
    .await;
    let mut session = env.session(&server, &["read_file", "sessions_spawn"], Some(6_000));
    let outcome = session.send("spawn a reader", &mut Quiet).await.unwrap();
    assert_eq!(outcome.text, "The child is done.");
    let child = &session.children()[0];
    assert_eq!(child.status.text(), "Read it enough.");
    let child_transcript = env.sessions.join(format!("{}.jsonl", child.id));
    let child_records = Transcript::read(&child_transcript).unwrap();
    assert!(
        child_records.iter().any(
            |r| matches!(r, TranscriptRecord::Compaction { trigger, .. } if trigger == "auto")
        ),
        "{child_records:#?}"
    );
    // The parent's ledger counts the child's tokens under its model.
    assert!(
        session.ledger().subagents["local/test-model"]
            .usage
            .input_tokens
            > 0
    );
}

// --- Prompt caching -----------------------------------------------------------------------------

/// Across a session in which a skill narrows the tools for a turn, a user runs a skill and a
/// new skill appears on disk, every request repeats the one before byte for byte and only
/// adds to it: the same tools in the same order, the same system prompt (catalog included),
/// the same earlier messages. The new skill is announced in the next user message.
#[tokio::test]
async fn the_prefix_stays_byte_identical_while_skills_are_used_and_added() {
    let env = Env::new();
    env.file("a.txt", "alpha");
    env.skill("reader", "allowed-tools: read_file\n", "Only read files.");
    env.skill("notes", "", "Take notes in notes.md.");
    let server = ScriptServer::respond(common::OPENAI_PATH, |_, body| {
        let messages = openai_messages(body);
        let last = messages.last().unwrap();
        let user = last_user(body);
        if last["role"] == "user" && user.ends_with("use the reader") {
            return tool(body, "s1", "use_skill", json!({"skill": "reader"}));
        }
        if last["role"] == "tool" && last["tool_call_id"] == "s1" {
            return tool(body, "r1", "read_file", json!({"path": "a.txt"}));
        }
        text(body, "ok")
    })
    .await;
    let mut session = env.session(&server, &["read_file", "write_file", "use_skill"], None);
    session.send("hello", &mut Quiet).await.unwrap();
    session
        .send("now use the reader", &mut Quiet)
        .await
        .unwrap();
    // A skill installed while the session runs.
    env.skill("fresh", "", "Be fresh.");
    session.send("anything new?", &mut Quiet).await.unwrap();
    session
        .run_skill("notes", vec![], &mut Quiet)
        .await
        .unwrap();
    session.send("done", &mut Quiet).await.unwrap();

    let bodies = server.bodies();
    assert_eq!(bodies.len(), 7);
    let tools = bodies[0]["tools"].to_string();
    assert!(tools.contains("\"write_file\""), "{tools}");
    let system = openai_messages(&bodies[0])[0].to_string();
    assert!(
        system.contains("- notes:") && !system.contains("fresh"),
        "{system}"
    );
    for pair in bodies.windows(2) {
        // Tools and system prompt: the same bytes.
        assert_eq!(pair[1]["tools"].to_string(), tools);
        assert_eq!(openai_messages(&pair[1])[0].to_string(), system);
        // The earlier request's messages are a byte prefix of the later one's.
        let earlier = serde_json::to_string(openai_messages(&pair[0])).unwrap();
        let later = serde_json::to_string(openai_messages(&pair[1])).unwrap();
        let open = &earlier[..earlier.len() - 1];
        assert!(later.starts_with(open), "not a prefix:\n{earlier}\n{later}");
        // Nothing that changes per request precedes the messages.
        for key in ["max_tokens", "temperature", "reasoning_effort"] {
            assert_eq!(pair[0].get(key), pair[1].get(key), "{key}");
        }
    }
    // The skill's narrowing was announced in its text, and enforced by the gate.
    let skill = openai_tool_result(&bodies[2], "s1");
    assert!(
        skill.starts_with("[skill `reader` is active: tools are limited to read_file"),
        "{skill}"
    );
    // The new skill, told once in the next user message.
    let announced = last_user(&bodies[4]);
    assert!(
        announced.starts_with("[Skills changed since the skill catalog")
            && announced.contains("- new: `fresh`: The fresh skill")
            && announced.ends_with("anything new?"),
        "{announced}"
    );
    assert_eq!(last_user(&bodies[6]), "done");
    // It can be used at once.
    assert!(session.skills().get("fresh").is_some());
}

// --- Large tool results -------------------------------------------------------------------------

/// A result past the budget is cut in the conversation with a note naming the file that
/// holds all of it, and the model can read that file with `read_file` (the gate and the
/// file tools' scope let it), in parts.
#[tokio::test]
async fn a_large_tool_result_is_cut_and_the_whole_is_readable_with_read_file() {
    let env = Env::new();
    let big: String = (1..=5000)
        .map(|i| format!("row {i}: some data\n"))
        .collect();
    env.file("big.csv", &big);
    let path_in_note = Arc::new(Mutex::new(String::new()));
    let seen = Arc::clone(&path_in_note);
    let server = ScriptServer::respond(common::OPENAI_PATH, move |n, body| match n {
        0 => tool(body, "c1", "read_file", json!({"path": "big.csv"})),
        1 => {
            let result = openai_tool_result(body, "c1");
            let path = result
                .split("The whole result is in ")
                .nth(1)
                .and_then(|rest| rest.split(": read it").next())
                .unwrap()
                .to_owned();
            *seen.lock().unwrap() = path.clone();
            tool(
                body,
                "c2",
                "read_file",
                json!({"path": path, "offset": 4000, "limit": 2}),
            )
        }
        _ => text(body, "Read the rows."),
    })
    .await;
    let mut session = env.session(&server, &["read_file"], None);
    session.send("read big.csv", &mut Quiet).await.unwrap();
    let budget = session.tool_result_budget();
    assert_eq!(budget, 32 * 1024);

    let cut = session
        .messages()
        .iter()
        .find(|m| m.tool_call_id.as_deref() == Some("c1"))
        .unwrap()
        .clone();
    assert!(cut.content.len() < budget + 1024, "{}", cut.content.len());
    assert!(cut.content.starts_with("row 1: some data\n"));
    assert!(cut.content.ends_with("row 5000: some data\n"));
    assert!(
        cut.content.contains(&format!(
            "bytes cut: the result was {} bytes in 5000 lines, more than the 32768 bytes a tool result keeps in the conversation",
            big.len()
        )),
        "{}",
        cut.content
    );
    // The whole result, in a file under the session's directory.
    let path = PathBuf::from(path_in_note.lock().unwrap().clone());
    assert!(
        path.starts_with(env.sessions.canonicalize().unwrap()),
        "{path:?}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), big);
    // Read back through the gate and the file tools.
    let part = session
        .messages()
        .iter()
        .find(|m| m.tool_call_id.as_deref() == Some("c2"))
        .unwrap();
    assert!(!part.is_error, "{}", part.content);
    assert_eq!(part.content, "row 4000: some data\nrow 4001: some data\n");
    // The transcript has the result as the conversation had it.
    let recorded = records(&session).into_iter().any(|r| {
        matches!(r, TranscriptRecord::Message { message, .. } if message.tool_call_id.as_deref() == Some("c1") && message.content == cut.content)
    });
    assert!(recorded);
}

/// Without a transcript directory the result is still cut, and the note says the whole was
/// not kept; a small window lowers the budget.
#[tokio::test]
async fn without_transcripts_the_note_says_the_whole_was_not_kept() {
    let env = Env::new();
    env.file("big.txt", &"x".repeat(50_000));
    let server = ScriptServer::respond(common::OPENAI_PATH, |n, body| match n {
        0 => tool(body, "c1", "read_file", json!({"path": "big.txt"})),
        _ => text(body, "ok"),
    })
    .await;
    let mut parts = env.parts(&server, ProviderKind::OpenAi, &["read_file"], Some(16_384));
    parts.options.transcript_dir = None;
    let mut session = Session::new(parts).unwrap();
    assert_eq!(session.tool_result_budget(), 16_384 * 4 / 8);
    session.send("read it", &mut Quiet).await.unwrap();
    let result = &session.messages()[2];
    assert_eq!(result.role, Role::Tool);
    assert!(
        result
            .content
            .contains("The whole result was not kept (this session keeps no transcript)."),
        "{}",
        result.content
    );
    assert!(result.content.len() < 8192 + 1024);
}
