//! The REPL loop without a terminal: messages and skills reach the model (`[Skill: name]` and
//! the rendered body), fork skills go through `run_skill`, an interrupt cancels a turn and the
//! REPL goes on, provider errors are printed, the loop reads until `/exit`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use common::{fixture, fixture_with};
use tokio::sync::Notify;
use weft_repl::{CompletionContext, Interrupt, LineReader, ReadResult};

// --- turns --------------------------------------------------------------------------------

#[tokio::test]
async fn messages_and_skills_reach_the_model() {
    let mut f = fixture();
    let (go_on, out) = f.line("hello there").await;
    assert!(go_on);
    assert_eq!(out, "echo: hello there\n");
    let (_, out) = f.line("/research quantum deep").await;
    assert!(out.starts_with("[Skill: research]\n"), "{out}");
    let requests = f.requests();
    let last = requests.last().unwrap().messages.last().unwrap();
    assert!(
        last.content.starts_with("[Skill: research]\n\n"),
        "{}",
        last.content
    );
    assert!(
        last.content.contains("Research quantum to depth deep."),
        "{}",
        last.content
    );
    // The skill's allowed-tools narrow the gate and its text says so; the tools offered stay
    // the same (a stable prefix for the prompt cache).
    assert!(
        last.content
            .contains("tools are limited to read_file until this request is answered"),
        "{}",
        last.content
    );
    assert_eq!(requests.last().unwrap().tools, requests[0].tools);
    // A path goes to the model as it is.
    let (_, out) = f.line("/etc/hosts is empty").await;
    assert_eq!(out, "echo: /etc/hosts is empty\n");
}

#[tokio::test]
async fn a_fork_skill_goes_through_run_skill() {
    let mut f = fixture();
    let (go_on, out) = f.line("/deploy staging").await;
    assert!(go_on);
    assert_eq!(
        out,
        "[Skill: deploy, forked into a subagent]\necho: Deploy staging.\n"
    );
    // The subagent got the rendered body as its task; the REPL goes on.
    let first = &f.requests()[0];
    assert_eq!(first.messages.last().unwrap().content, "Deploy staging.");
    let (_, out) = f.line("hello").await;
    assert_eq!(out, "echo: hello\n");
}

#[tokio::test]
async fn an_interrupt_cancels_the_turn_and_the_repl_goes_on() {
    let notify = Arc::new(Notify::new());
    let mut f = fixture_with(Interrupt::Notify(Arc::clone(&notify)));
    let trigger = {
        let notify = Arc::clone(&notify);
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(100)).await;
            notify.notify_one();
        })
    };
    let (go_on, out) = tokio::time::timeout(Duration::from_secs(10), f.line("hang"))
        .await
        .expect("the interrupt did not cancel the turn");
    trigger.await.unwrap();
    assert!(go_on);
    assert_eq!(out, "[cancelled]\n");
    let (_, out) = f.line("fail").await;
    assert_eq!(out, "error: fake: the provider is down\n");
    let (_, out) = f.line("still here").await;
    assert_eq!(out, "echo: still here\n");
}

#[tokio::test]
async fn an_interrupt_during_exec_shell_kills_the_command_and_its_jobs() {
    let notify = Arc::new(Notify::new());
    let mut f = fixture_with(Interrupt::Notify(Arc::clone(&notify)));
    let pidfile = f._tmp.path().join("project/bgpid");
    let trigger = {
        let (notify, pidfile) = (Arc::clone(&notify), pidfile.clone());
        tokio::spawn(async move {
            // Interrupt once the command and its background job run.
            while !std::fs::read_to_string(&pidfile).is_ok_and(|t| t.ends_with('\n')) {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            notify.notify_one();
        })
    };
    let (go_on, out) = tokio::time::timeout(
        Duration::from_secs(10),
        f.line("shell: sleep 30 & echo $! > bgpid; sleep 30"),
    )
    .await
    .expect("the interrupt did not cancel the turn");
    trigger.await.unwrap();
    assert!(go_on);
    assert!(out.ends_with("[cancelled]\n"), "{out}");
    let pid = std::fs::read_to_string(&pidfile).unwrap().trim().to_owned();
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    // Gone, or a zombie nobody has reaped yet.
    while std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        !stat
            .rsplit_once(") ")
            .is_some_and(|(_, r)| r.starts_with('Z'))
    }) {
        assert!(std::time::Instant::now() < deadline, "job {pid} survived");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

struct Script(Vec<ReadResult>, Vec<String>);

impl LineReader for Script {
    fn read_line(
        &mut self,
        prompt: &str,
        _names: &CompletionContext,
    ) -> std::io::Result<ReadResult> {
        self.1.push(prompt.to_owned());
        Ok(if self.0.is_empty() {
            ReadResult::Eof
        } else {
            self.0.remove(0)
        })
    }
}

#[tokio::test]
async fn the_loop_reads_until_exit() {
    let mut f = fixture();
    let mut script = Script(
        vec![
            ReadResult::Line("hi".to_owned()),
            ReadResult::Interrupted,
            ReadResult::Line("/agent explore".to_owned()),
            ReadResult::Line("/exit".to_owned()),
            ReadResult::Line("never read".to_owned()),
        ],
        Vec::new(),
    );
    let mut out = Vec::new();
    f.repl.run(&mut script, &mut out).await.unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("echo: hi\n"), "{out}");
    assert!(out.contains("Switched to agent: explore (fake/m)"), "{out}");
    assert!(!out.contains("never read"), "{out}");
    assert_eq!(
        script.1,
        [
            "default (fake/m)> ",
            "default (fake/m)> ",
            "default (fake/m)> ",
            "explore (fake/m)> "
        ]
    );
    assert_eq!(script.0.len(), 1);
}

/// Each tool call is shown with a short preview of its result, numbered; `/expand N` prints
/// the result whole, and a number out of range is a usage error naming the range.
#[tokio::test]
async fn tool_results_are_previewed_and_expand_shows_them_whole() {
    let mut f = fixture();
    let (_, out) = f
        .line("shell: printf 'alpha\\nbeta\\ngamma\\ndelta\\n'")
        .await;
    assert_eq!(
        out,
        "  → exec_shell {\"command\":\"printf 'alpha\\\\nbeta\\\\ngamma\\\\ndelta\\\\n'\"}\n  ← alpha\n    beta\n    (2 more lines)  [/expand 1]\necho: shell: printf 'alpha\\nbeta\\ngamma\\ndelta\\n'\n",
        "{out}"
    );
    let (_, out) = f.line("/expand 1").await;
    assert!(out.starts_with("[1] → exec_shell "), "{out}");
    assert!(out.contains("alpha\nbeta\ngamma\ndelta"), "{out}");
    let (_, last) = f.line("/expand").await;
    assert_eq!(last, out);
    let (_, out) = f.line("/expand 7").await;
    assert_eq!(
        out,
        "error: /expand takes a result number from 1 to 1 (shown as [/expand N]), or nothing for the last\n"
    );
    // The next turn's results go on from where the session is.
    let (_, out) = f.line("shell: echo one").await;
    assert!(out.contains("← one  [/expand 2]"), "{out}");
}

/// `weft "question"`: the first input is handled after the greeting, as if typed.
#[tokio::test]
async fn a_first_input_is_handled_before_the_prompt() {
    let common::Fixture { _tmp, repl, .. } = fixture();
    let mut repl = repl.with_first_input(Some("hi there".to_owned()));
    let mut script = Script(vec![ReadResult::Line("/exit".to_owned())], Vec::new());
    let mut out = Vec::new();
    repl.run(&mut script, &mut out).await.unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.contains("default (fake/m)> hi there\necho: hi there\n"),
        "{out}"
    );
    assert_eq!(script.1, ["default (fake/m)> "]);
}
