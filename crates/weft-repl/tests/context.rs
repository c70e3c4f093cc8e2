//! `/context`, `/cost` and `/compact` as a person sees them: the reports whole (snapshots),
//! priced and unpriced, and a compaction run from the REPL like a turn.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::fixture;
use weft_agents::{ContextBreakdown, ContextUse, TokenLedger};
use weft_llm::{ModelCatalog, ModelPrice, Role, Usage};
use weft_repl::{context_report, cost_report};

#[tokio::test]
async fn context_and_cost_of_a_session() {
    let mut f = fixture();
    f.line("hello there").await;
    f.line("/research quantum deep").await;
    let mut out = String::new();
    for command in ["/context", "/cost", "/session"] {
        let (_, text) = f.dispatch(command).await;
        out.push_str(&format!("> {command}\n{text}"));
    }
    insta::assert_snapshot!("session_reports", out.replace(f.repl.session.id(), "[ID]"));
}

#[test]
fn the_context_report_against_the_window() {
    let parts = ContextBreakdown {
        window: 200_000,
        compact_at: Some(160_000),
        system_prompt: 1_234,
        tools: 3_456,
        catalog: 812,
        skills: 2_100,
        messages: 12_345,
        tool_results: 25_432,
        measured: Some((44_900, "anthropic/claude-sonnet-4-5".to_owned())),
        compactions: 2,
    };
    let used = ContextUse {
        tokens: 45_210,
        window: 200_000,
        compact_at: Some(160_000),
    };
    let mut out = context_report(&parts, &used, None);
    let unmeasured = ContextBreakdown {
        measured: None,
        compactions: 0,
        compact_at: None,
        ..parts
    };
    out.push_str(&context_report(
        &unmeasured,
        &ContextUse {
            compact_at: None,
            ..used
        },
        Some(40),
    ));
    insta::assert_snapshot!("context_report", out);
}

#[test]
fn the_cost_report_priced_and_not() {
    let mut catalog = ModelCatalog::default();
    catalog.set_price(
        "anthropic/claude-sonnet-4-5",
        ModelPrice {
            input: 3.0,
            output: 15.0,
            cache_read: Some(0.3),
            cache_write: Some(3.75),
        },
    );
    let mut ledger = TokenLedger::default();
    for _ in 0..12 {
        ledger.add_call(
            "anthropic/claude-sonnet-4-5",
            Usage::new(20_000, 400).with_cache(18_000, 1_000),
        );
    }
    ledger.add_subagent("local/qwen3:8b", Usage::new(8_000, 900));
    let mut out = cost_report(&ledger, &catalog, None);
    out.push_str(&cost_report(&TokenLedger::default(), &catalog, None));
    let mut local = TokenLedger::default();
    local.add_call("local/qwen3:8b", Usage::new(1_500, 80));
    out.push_str(&cost_report(&local, &catalog, None));
    insta::assert_snapshot!("cost_report", out);
}

#[tokio::test]
async fn compact_runs_like_a_turn_and_the_conversation_goes_on_from_the_summary() {
    let mut f = fixture();
    for line in ["first question", "second question", "third question"] {
        f.line(line).await;
    }
    let (go_on, out) = f.line("/compact keep the question numbers").await;
    assert!(go_on);
    assert!(
        out.starts_with("weft: conversation compacted (manual): "),
        "{out}"
    );
    let requests = f.requests();
    let ask = requests.last().unwrap();
    let instruction = &ask.messages.last().unwrap().content;
    assert!(
        instruction.ends_with("keep in particular: keep the question numbers"),
        "{instruction}"
    );
    // The same tools and system prompt as the conversation's requests.
    assert_eq!(ask.tools, requests[0].tools);
    assert_eq!(ask.system, requests[0].system);
    let messages = f.repl.session.messages();
    assert!(messages[0].content.starts_with(weft_agents::SUMMARY_MARK));
    assert_eq!(messages.last().unwrap().role, Role::Assistant);
    let (_, out) = f.line("fourth question").await;
    assert_eq!(out, "echo: fourth question\n");
    let (_, context) = f.dispatch("/context").await;
    assert!(context.contains("Compacted 1 time(s) so far"), "{context}");
    // A fresh session has nothing to compact.
    let mut f = fixture();
    let (_, out) = f.line("/compact").await;
    assert_eq!(
        out,
        "Nothing to compact yet: the conversation has no earlier answer to summarise.\n"
    );
    assert!(f.requests().is_empty());
}
