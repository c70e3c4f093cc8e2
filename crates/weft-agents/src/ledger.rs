//! What a session spent, model by model: the tokens of its own model calls and of its
//! subagents', as the providers reported them. A session keeps one (`Session::ledger`), a
//! resumed session reads it back from the transcript (the `usage` and `child_result`
//! records), `/cost` shows it.

use std::collections::BTreeMap;

use weft_llm::Usage;

/// The tokens of one model (`provider/model`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ModelTokens {
    /// Tokens, summed over the calls.
    pub usage: Usage,
    /// Model calls (for subagents: subagents).
    pub calls: u32,
}

/// Tokens by model.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TokenLedger {
    /// The session's own model calls, by `provider/model`.
    pub calls: BTreeMap<String, ModelTokens>,
    /// Its subagents' tokens, by the `provider/model` they ran on.
    pub subagents: BTreeMap<String, ModelTokens>,
}

impl TokenLedger {
    /// Counts one model call of `model`.
    pub fn add_call(&mut self, model: &str, usage: Usage) {
        add(&mut self.calls, model, usage);
    }

    /// Counts a subagent that ran on `model` and used `usage`.
    pub fn add_subagent(&mut self, model: &str, usage: Usage) {
        add(&mut self.subagents, model, usage);
    }

    /// Everything: the session's calls and its subagents'.
    pub fn total(&self) -> Usage {
        let mut total = Usage::default();
        for tokens in self.calls.values().chain(self.subagents.values()) {
            total += tokens.usage;
        }
        total
    }

    /// The session's own calls, summed.
    pub fn own(&self) -> Usage {
        let mut total = Usage::default();
        for tokens in self.calls.values() {
            total += tokens.usage;
        }
        total
    }
}

fn add(map: &mut BTreeMap<String, ModelTokens>, model: &str, usage: Usage) {
    let entry = map.entry(model.to_owned()).or_default();
    entry.usage += usage;
    entry.calls += 1;
}
