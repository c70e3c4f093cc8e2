//! `/context`, `/cost` and `/compact`: how full the context window is, what the session
//! spent, and making room. The reports are functions of their data ([`context_report`],
//! [`cost_report`]) so they can be tested whole.

use async_trait::async_trait;
use weft_agents::{ContextBreakdown, ContextUse, TokenLedger, price_of};
use weft_llm::{ModelCatalog, Usage};
use weft_term::{dollars, fit_table, tokens};

use crate::command::{CommandContext, CommandError, Dispatch, SlashCommand};

/// `/context`: what fills the context window.
pub(crate) struct Context;

#[async_trait]
impl SlashCommand for Context {
    fn name(&self) -> &str {
        "context"
    }

    fn description(&self) -> &str {
        "Show what fills the context window"
    }

    fn help(&self) -> &str {
        "Shows how full the model's context window is and what fills it: the agent's system \
         prompt, the tools offered, the skill catalog, the skills in use (preloaded and loaded \
         in the conversation), the messages, the tool results, and what is free. The window \
         is agent.context_window when the configuration sets it, else what weft knows of the \
         model (Claude, GPT-4o/4.1/5, the o-series, Llama and Qwen; Ollama's default context \
         for a model Ollama serves), else 128,000 tokens. The total is the provider's count \
         of the last request plus an estimate of what was added since; the parts are \
         estimated at 4 bytes a token. Past agent.compact_threshold of the window (80% by \
         default) the conversation is compacted before the next request; /compact does it \
         now."
    }

    async fn execute(
        &self,
        _args: &str,
        ctx: &mut CommandContext<'_>,
    ) -> Result<Dispatch, CommandError> {
        let breakdown = ctx.session.context_breakdown();
        let used = ctx.session.context_use();
        write!(ctx.out, "{}", context_report(&breakdown, &used, ctx.width))?;
        Ok(Dispatch::Handled)
    }
}

/// The `/context` report.
pub fn context_report(parts: &ContextBreakdown, used: &ContextUse, width: Option<usize>) -> String {
    let window = parts.window.max(1);
    let share = |n: u64| format!("{:.1}%", n as f64 * 100.0 / window as f64);
    let mut out = format!(
        "Context: {} of {} tokens ({}%)",
        tokens(used.tokens),
        tokens(parts.window),
        used.percent()
    );
    match parts.compact_at {
        Some(at) => out.push_str(&format!(
            "; compacted automatically past {} ({}%)\n",
            tokens(at),
            at.saturating_mul(100) / window
        )),
        None => out.push_str("; automatic compaction is off\n"),
    }
    let free = parts.window.saturating_sub(used.tokens);
    let rows: Vec<Vec<String>> = [
        ("system prompt", parts.system_prompt),
        ("tools", parts.tools),
        ("skill catalog", parts.catalog),
        ("skills in use", parts.skills),
        ("messages", parts.messages),
        ("tool results", parts.tool_results),
        ("free", free),
    ]
    .into_iter()
    .map(|(name, n)| vec![format!("  {name}"), tokens(n), share(n)])
    .collect();
    out.push_str(&fit_table(&["  PART", "TOKENS", "SHARE"], &rows, width));
    match &parts.measured {
        Some((n, model)) => out.push_str(&format!(
            "The last request held {} tokens ({model}'s count); the parts are estimated at 4 bytes a token.\n",
            tokens(*n)
        )),
        None => out.push_str(
            "Nothing measured yet since the conversation started or was compacted: every part is estimated at 4 bytes a token.\n",
        ),
    }
    if parts.compactions > 0 {
        out.push_str(&format!(
            "Compacted {} time(s) so far; /compact compacts now.\n",
            parts.compactions
        ));
    } else {
        out.push_str("/compact [instructions] summarises the older messages now.\n");
    }
    out
}

/// `/cost`: tokens and money.
pub(crate) struct Cost;

#[async_trait]
impl SlashCommand for Cost {
    fn name(&self) -> &str {
        "cost"
    }

    fn description(&self) -> &str {
        "Show the tokens used and what they cost"
    }

    fn help(&self) -> &str {
        "Shows the tokens this session used, model by model, as the providers reported \
         them: input (the whole prompt), the part read from the provider's prompt cache, the \
         part written to it, and output; subagents on their own rows. With a price \
         configured for a model (pricing.<provider/model> in config.json: input, output, \
         cache_read, cache_write, in US dollars per million tokens; docs/CONFIG.md) it also \
         says what they cost. A resumed session counts its earlier runs too."
    }

    async fn execute(
        &self,
        _args: &str,
        ctx: &mut CommandContext<'_>,
    ) -> Result<Dispatch, CommandError> {
        let report = cost_report(
            ctx.session.ledger(),
            ctx.session.models().catalog(),
            ctx.width,
        );
        write!(ctx.out, "{report}")?;
        Ok(Dispatch::Handled)
    }
}

/// The `/cost` report.
pub fn cost_report(ledger: &TokenLedger, catalog: &ModelCatalog, width: Option<usize>) -> String {
    if ledger.calls.is_empty() && ledger.subagents.is_empty() {
        return "No model calls yet.\n".to_owned();
    }
    let cost = ledger.cost(catalog);
    let priced = ledger
        .calls
        .keys()
        .chain(ledger.subagents.keys())
        .any(|model| price_of(catalog, model).is_some());
    let money = |model: &str, usage: &Usage| match price_of(catalog, model) {
        Some(price) => dollars(price.cost(usage)),
        None => "-".to_owned(),
    };
    let row = |label: String, calls: u32, usage: &Usage, cost: String| {
        vec![
            label,
            calls.to_string(),
            tokens(usage.input_tokens),
            tokens(usage.cache_read_tokens),
            tokens(usage.cache_write_tokens),
            tokens(usage.output_tokens),
            cost,
        ]
    };
    let mut rows = Vec::new();
    let mut calls = 0;
    for (model, t) in &ledger.calls {
        calls += t.calls;
        rows.push(row(
            format!("  {model}"),
            t.calls,
            &t.usage,
            money(model, &t.usage),
        ));
    }
    for (model, t) in &ledger.subagents {
        rows.push(row(
            format!("  subagents on {model}"),
            t.calls,
            &t.usage,
            money(model, &t.usage),
        ));
    }
    let total = ledger.total();
    let total_cost = if priced {
        dollars(cost.dollars)
    } else {
        "-".to_owned()
    };
    rows.push(row(
        "  total".to_owned(),
        calls + ledger.subagents.values().map(|t| t.calls).sum::<u32>(),
        &total,
        total_cost,
    ));
    let mut out = String::from("Tokens used in this session:\n");
    out.push_str(&fit_table(
        &[
            "  MODEL",
            "CALLS",
            "INPUT",
            "CACHE READ",
            "CACHE WRITE",
            "OUTPUT",
            "COST",
        ],
        &rows,
        width,
    ));
    if total.input_tokens > 0 {
        out.push_str(&format!(
            "{:.1}% of the input tokens were read from the providers' prompt caches.\n",
            total.cache_read_tokens as f64 * 100.0 / total.input_tokens as f64
        ));
    }
    if !cost.unpriced.is_empty() {
        out.push_str(&format!(
            "No price is configured for {} (left out of the cost): set pricing.<provider/model> in config.json (docs/CONFIG.md).\n",
            cost.unpriced.join(", ")
        ));
    }
    out
}

/// `/compact [instructions]`: summarises the older messages now.
pub(crate) struct Compact;

#[async_trait]
impl SlashCommand for Compact {
    fn name(&self) -> &str {
        "compact"
    }

    fn description(&self) -> &str {
        "Summarise the older messages to free context"
    }

    fn usage(&self) -> &str {
        "[instructions]"
    }

    fn help(&self) -> &str {
        "Asks the model to summarise the conversation so far (the task, the decisions, the \
         files touched, what is done and what is left) and goes on from that summary: the \
         recent messages and the instructions of the skills in use stay as they are. Words \
         after /compact tell the summary what to keep above all (/compact keep the failing \
         test names). It also happens on its own before a request would pass \
         agent.compact_threshold of the context window (80% by default; agent.auto_compact \
         false turns that off), and once when the provider answers that the conversation is \
         too long. The transcript keeps every message and records the compaction; \
         --resume continues from the summary. Ctrl-C cancels it, and nothing changes."
    }

    async fn execute(
        &self,
        args: &str,
        _ctx: &mut CommandContext<'_>,
    ) -> Result<Dispatch, CommandError> {
        Ok(Dispatch::Compact {
            instructions: (!args.is_empty()).then(|| args.to_owned()),
        })
    }
}
