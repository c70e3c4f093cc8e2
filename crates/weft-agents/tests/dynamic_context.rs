//! Dynamic context (issue 15 item 4) through a session on the replay provider: a skill's
//! `` !`cmd` `` and ```` ```! ```` blocks run when it loads, as `exec_shell` calls judged by
//! the gate, the permission mode and approval; what does not run leaves a note; the feature
//! can be switched off; a dry run runs nothing and reports each verdict.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use weft_agents::transcript::{Transcript, TranscriptRecord};
use weft_agents::{
    AgentRegistry, ApprovalAnswer, ApprovalRequest, Approver, DynamicVerdict, Invoker, ModelPool,
    Permissions, Quiet, Session, SessionOptions, SessionParts,
};
use weft_llm::{ModelCatalog, ReplayModel, ReplayToolCall, ReplayTurn, Role};
use weft_permissions::{Origin, PatternContext, PreApproval};
use weft_registry::{RegistryConfig, SkillRegistry, SkillRoot};
use weft_tools::{BuiltinConfig, ExecConfig, FsScope};
use weft_types::{PermissionMode, Scope};

/// A skill whose body has an inline and a fenced block, both writing a file so a test can
/// tell whether they ran.
const STATUS: &str = "---\nname: status\ndescription: Report the status\n---\n\nBranch: !`touch inline-ran && echo main`\n\n```!\ntouch fenced-ran\necho one\necho two\n```\n\nReport it.\n";

struct Env {
    tmp: tempfile::TempDir,
    project: PathBuf,
}

impl Env {
    fn new(skills: &[(&str, &str)]) -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let project = tmp.path().join("project");
        std::fs::create_dir_all(&project).unwrap();
        let project = project.canonicalize().unwrap();
        for (name, text) in skills {
            let file = project.join(format!(".clawft/skills/{name}/SKILL.md"));
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(file, text).unwrap();
        }
        Self { tmp, project }
    }

    fn options(&self, mode: PermissionMode, approver: Option<Arc<Script>>) -> SessionOptions {
        let mut permissions = Permissions::new(mode);
        permissions.approver = approver.map(|a| a as Arc<dyn Approver>);
        SessionOptions {
            project_dir: Some(self.project.clone()),
            transcript_dir: Some(self.tmp.path().join("sessions")),
            permissions,
            ..SessionOptions::default()
        }
    }

    /// A session on a replay recording of `turns`.
    fn session(&self, options: SessionOptions, turns: Vec<ReplayTurn>) -> Session {
        let mut config = RegistryConfig::with_roots(vec![SkillRoot::new(
            self.project.join(".clawft/skills"),
            Scope::Project,
        )]);
        config.builtins = false;
        let tools = weft_tools::builtin_registry(&BuiltinConfig {
            scope: FsScope::new(self.project.clone(), vec![]).unwrap(),
            memory_file: self.tmp.path().join("memory.md"),
            exec: ExecConfig::default(),
            web_fetch: None,
        });
        let models = ModelPool::new(ModelCatalog::default())
            .with_client("rec", Arc::new(ReplayModel::from_turns("test", turns)));
        Session::new(SessionParts {
            models: Arc::new(models),
            skills: Arc::new(SkillRegistry::new(config)),
            tools,
            agent: AgentRegistry::builtins()
                .get("default")
                .unwrap()
                .agent
                .clone(),
            model: Some("rec/test".to_owned()),
            options,
        })
        .unwrap()
    }

    fn ran(&self, file: &str) -> bool {
        self.project.join(file).exists()
    }
}

fn answer(text: &str) -> ReplayTurn {
    ReplayTurn {
        content: text.to_owned(),
        ..ReplayTurn::default()
    }
}

/// The user message the skill run sent (the rendered skill).
fn skill_message(session: &Session) -> String {
    session
        .messages()
        .iter()
        .find(|m| m.role == Role::User)
        .unwrap()
        .content
        .clone()
}

/// `(outcome, command)` of each dynamic-context record of the session's transcript.
fn recorded(session: &Session) -> Vec<(String, String)> {
    Transcript::read(session.transcript_path().unwrap())
        .unwrap()
        .into_iter()
        .filter_map(|r| match r {
            TranscriptRecord::DynamicContext {
                outcome, command, ..
            } => Some((outcome, command)),
            _ => None,
        })
        .collect()
}

/// Answers from a script and remembers every question.
#[derive(Default)]
struct Script {
    answers: Mutex<VecDeque<ApprovalAnswer>>,
    asked: Mutex<Vec<ApprovalRequest>>,
}

#[async_trait]
impl Approver for Script {
    async fn ask(&self, request: &ApprovalRequest) -> ApprovalAnswer {
        self.asked.lock().unwrap().push(request.clone());
        self.answers.lock().unwrap().pop_front().unwrap()
    }
}

#[tokio::test]
async fn in_auto_each_block_is_replaced_by_its_output() {
    let env = Env::new(&[("status", STATUS)]);
    let mut session = env.session(env.options(PermissionMode::Auto, None), vec![answer("ok")]);
    session
        .run_skill("status", vec![], &mut Quiet)
        .await
        .unwrap();
    assert_eq!(
        skill_message(&session),
        "[Skill: status]\n\nBranch: main\n\none\ntwo\n\nReport it."
    );
    assert!(env.ran("inline-ran") && env.ran("fenced-ran"));
    assert_eq!(
        recorded(&session),
        [
            ("ran".to_owned(), "touch inline-ran && echo main".to_owned()),
            (
                "ran".to_owned(),
                "touch fenced-ran\necho one\necho two".to_owned()
            ),
        ]
    );
    let verdicts: Vec<&DynamicVerdict> = session
        .dynamic_context()
        .iter()
        .map(|d| &d.verdict)
        .collect();
    assert!(
        verdicts.iter().all(|v| **v
            == DynamicVerdict::Ran {
                status: "exit code: 0".to_owned()
            }),
        "{verdicts:?}"
    );
}

#[tokio::test]
async fn a_failing_command_shows_its_whole_report() {
    let skill = "---\nname: failing\ndescription: d\n---\n\nResult: !`echo oops >&2; exit 3`\n";
    let env = Env::new(&[("failing", skill)]);
    let mut session = env.session(env.options(PermissionMode::Auto, None), vec![answer("ok")]);
    session
        .run_skill("failing", vec![], &mut Quiet)
        .await
        .unwrap();
    assert_eq!(
        skill_message(&session),
        "[Skill: failing]\n\nResult: [dynamic context `echo oops >&2; exit 3`: exit code: 3\n--- stderr ---\noops]"
    );
    assert_eq!(
        session.dynamic_context()[0].verdict,
        DynamicVerdict::Ran {
            status: "exit code: 3".to_owned()
        }
    );
}

#[tokio::test]
async fn where_no_one_can_approve_the_block_says_it_was_not_run() {
    let env = Env::new(&[("status", STATUS)]);
    let mut session = env.session(env.options(PermissionMode::Ask, None), vec![answer("ok")]);
    session
        .run_skill("status", vec![], &mut Quiet)
        .await
        .unwrap();
    let text = skill_message(&session);
    assert!(!env.ran("inline-ran") && !env.ran("fenced-ran"));
    assert!(
        text.starts_with("[Skill: status]\n\nBranch: [dynamic context `touch inline-ran && echo main` was not run: approval needed: `exec_shell` may change something"),
        "{text}"
    );
    assert!(
        text.contains("no one can approve calls in this session (it is not interactive)"),
        "{text}"
    );
    // Refused calls are listed for the CLI's summary, as any other.
    let refused: Vec<String> = session
        .refused_calls()
        .into_iter()
        .map(|r| r.summary)
        .collect();
    assert_eq!(
        refused,
        [
            "exec_shell: touch inline-ran && echo main",
            "exec_shell: touch fenced-ran\necho one\necho two"
        ]
    );
    let outcomes: Vec<String> = recorded(&session).into_iter().map(|r| r.0).collect();
    assert_eq!(outcomes, ["refused", "refused"]);
}

#[tokio::test]
async fn permissions_allow_pre_approves_a_command_in_ask() {
    let env = Env::new(&[("status", STATUS)]);
    let mut options = env.options(PermissionMode::Ask, None);
    options.permissions.pre_approval = PreApproval::compile(
        ["Bash(touch inline-ran:*)", "Bash(echo:*)"],
        &Origin::Session,
        &PatternContext::new(),
    )
    .unwrap();
    let mut session = env.session(options, vec![answer("ok")]);
    session
        .run_skill("status", vec![], &mut Quiet)
        .await
        .unwrap();
    // The inline command is pre-approved; the fenced one (`touch fenced-ran`) is not.
    assert!(env.ran("inline-ran"));
    assert!(!env.ran("fenced-ran"));
    let outcomes: Vec<String> = recorded(&session).into_iter().map(|r| r.0).collect();
    assert_eq!(outcomes, ["ran", "refused"]);
}

#[tokio::test]
async fn a_person_is_asked_for_each_command() {
    let env = Env::new(&[("status", STATUS)]);
    let script = Arc::new(Script {
        answers: Mutex::new(
            [
                ApprovalAnswer::AllowOnce,
                ApprovalAnswer::Deny { message: None },
            ]
            .into(),
        ),
        ..Script::default()
    });
    let mut session = env.session(
        env.options(PermissionMode::Ask, Some(Arc::clone(&script))),
        vec![answer("ok")],
    );
    session
        .run_skill("status", vec![], &mut Quiet)
        .await
        .unwrap();
    let asked: Vec<String> = script
        .asked
        .lock()
        .unwrap()
        .iter()
        .map(|r| format!("{}: {}", r.tool, r.summary))
        .collect();
    assert_eq!(
        asked,
        [
            "exec_shell: exec_shell: touch inline-ran && echo main",
            "exec_shell: exec_shell: touch fenced-ran\necho one\necho two"
        ]
    );
    assert!(env.ran("inline-ran") && !env.ran("fenced-ran"));
    let text = skill_message(&session);
    assert!(
        text.contains("Branch: main\n\n[dynamic context `touch fenced-ran echo one echo two` was not run: the user denied this call."),
        "{text}"
    );
}

#[tokio::test]
async fn the_skills_own_allowed_tools_can_deny_a_command() {
    let skill = "---\nname: gitonly\ndescription: d\nallowed-tools: Bash(echo:*)\n---\n\nLog: !`echo fine`\nGone: !`touch denied-ran`\n";
    let env = Env::new(&[("gitonly", skill)]);
    let mut session = env.session(env.options(PermissionMode::Auto, None), vec![answer("ok")]);
    session
        .run_skill("gitonly", vec![], &mut Quiet)
        .await
        .unwrap();
    assert!(!env.ran("denied-ran"));
    let text = skill_message(&session);
    assert_eq!(
        text,
        "[Skill: gitonly]\n\n[skill `gitonly` is active: tools are limited to exec_shell until this request is answered]\n\nLog: fine\nGone: [dynamic context `touch denied-ran` was not run: permission denied: `touch denied-ran` matches none of the allowed `Bash(echo:*)` from skill 'gitonly']"
    );
    let outcomes: Vec<String> = recorded(&session).into_iter().map(|r| r.0).collect();
    assert_eq!(outcomes, ["ran", "denied"]);
}

#[tokio::test]
async fn plan_mode_refuses_every_command() {
    let env = Env::new(&[("status", STATUS)]);
    let mut session = env.session(env.options(PermissionMode::Plan, None), vec![answer("ok")]);
    session
        .run_skill("status", vec![], &mut Quiet)
        .await
        .unwrap();
    assert!(!env.ran("inline-ran"));
    assert!(matches!(
        session.dynamic_context()[0].verdict,
        DynamicVerdict::Denied { .. }
    ));
}

#[tokio::test]
async fn switched_off_the_blocks_become_notes() {
    let env = Env::new(&[("status", STATUS)]);
    let mut options = env.options(PermissionMode::Auto, None);
    options.dynamic_context = false;
    let mut session = env.session(options, vec![answer("ok")]);
    session
        .run_skill("status", vec![], &mut Quiet)
        .await
        .unwrap();
    assert!(!env.ran("inline-ran") && !env.ran("fenced-ran"));
    assert_eq!(
        skill_message(&session),
        "[Skill: status]\n\nBranch: [dynamic context `touch inline-ran && echo main` was not run: dynamic context is turned off (skills.dynamic_context: false)]\n\n[dynamic context `touch fenced-ran echo one echo two` was not run: dynamic context is turned off (skills.dynamic_context: false)]\n\nReport it."
    );
    let outcomes: Vec<String> = recorded(&session).into_iter().map(|r| r.0).collect();
    assert_eq!(outcomes, ["disabled", "disabled"]);
}

#[tokio::test]
async fn a_dry_run_runs_nothing_and_gives_each_verdict() {
    let skill = "---\nname: mixed\ndescription: d\nallowed-tools: Bash(echo:*) Bash(touch:*)\n---\n\n!`echo hi`\n!`touch dry-ran`\n!`rm -rf x`\n";
    let env = Env::new(&[("mixed", skill)]);
    let mut options = env.options(PermissionMode::Ask, None);
    options.permissions.pre_approval =
        PreApproval::compile(["Bash(echo:*)"], &Origin::Session, &PatternContext::new()).unwrap();
    let mut session = env.session(options, vec![]);
    session.set_dry_run(true);
    let text = session.prepare_user_skill("mixed", vec![]).await.unwrap();
    assert!(!env.ran("dry-ran"));
    assert_eq!(
        text,
        "[Skill: mixed]\n\n[skill `mixed` is active: tools are limited to exec_shell until this request is answered]\n\n[dynamic context `echo hi` was not run: this is a dry run]\n[dynamic context `touch dry-ran` was not run: this is a dry run]\n[dynamic context `rm -rf x` was not run: permission denied: `rm -rf x` matches none of the allowed `Bash(echo:*)` from skill 'mixed', `Bash(touch:*)` from skill 'mixed']"
    );
    let verdicts: Vec<serde_json::Value> = session
        .dynamic_context()
        .iter()
        .map(|d| serde_json::to_value(d).unwrap())
        .collect();
    assert_eq!(verdicts[0]["verdict"], "allowed");
    assert_eq!(verdicts[1]["verdict"], "ask");
    assert_eq!(verdicts[2]["verdict"], "denied");
    assert_eq!(verdicts[0]["kind"], "inline");
    // Nothing is recorded for a dry run, and no call is counted as refused.
    assert!(session.refused_calls().is_empty());
}

#[tokio::test]
async fn a_model_loaded_skill_and_a_fork_skill_run_their_context_too() {
    let fork = "---\nname: forked\ndescription: d\ncontext: fork\n---\n\nBranch: !`echo main`\n";
    let env = Env::new(&[("status", STATUS), ("forked", fork)]);
    let use_skill = ReplayTurn {
        tool_calls: vec![ReplayToolCall {
            id: Some("u1".to_owned()),
            name: "use_skill".to_owned(),
            arguments: serde_json::json!({"skill": "status"}),
        }],
        ..ReplayTurn::default()
    };
    let mut session = env.session(
        env.options(PermissionMode::Auto, None),
        vec![use_skill, answer("done")],
    );
    session.send("status please", &mut Quiet).await.unwrap();
    let result = session
        .messages()
        .iter()
        .find(|m| m.tool_call_id.as_deref() == Some("u1"))
        .unwrap();
    assert_eq!(result.content, "Branch: main\n\none\ntwo\n\nReport it.");
    // A fork skill's context runs in the parent, before the child gets its task.
    let (mut plan, _) = session
        .prepare_fork_skill("forked", vec![], Invoker::User)
        .await
        .unwrap();
    let request = plan.preview();
    let task = &request.messages.last().unwrap().content;
    assert!(task.ends_with("Branch: main"), "{task}");
}
