//! What a session spent, model by model: the tokens of its own model calls and of its
//! subagents', as the providers reported them. A session keeps one (`Session::ledger`), a
//! resumed session reads it back from the transcript (the `usage` and `child_result`
//! records), `/cost` shows it.

use std::collections::BTreeMap;

use weft_llm::{ModelCatalog, ModelPrice, ModelRef, Usage};

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

/// What tokens cost at the configured prices.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Cost {
    /// US dollars, over the models that have a price.
    pub dollars: f64,
    /// The models (`provider/model`) with tokens and no price, each once.
    pub unpriced: Vec<String>,
}

impl TokenLedger {
    /// What everything cost at `catalog`'s prices.
    pub fn cost(&self, catalog: &ModelCatalog) -> Cost {
        let mut cost = Cost::default();
        for (model, tokens) in self.calls.iter().chain(&self.subagents) {
            match price_of(catalog, model) {
                Some(price) => cost.dollars += price.cost(&tokens.usage),
                None if !cost.unpriced.contains(model) && !tokens.usage.is_empty() => {
                    cost.unpriced.push(model.clone());
                }
                None => {}
            }
        }
        cost
    }
}

/// The configured price of `model`, written `provider/model`.
pub fn price_of<'c>(catalog: &'c ModelCatalog, model: &str) -> Option<&'c ModelPrice> {
    let (provider, id) = model.split_once('/')?;
    catalog.price(&ModelRef {
        provider: provider.to_owned(),
        model: id.to_owned(),
    })
}

fn add(map: &mut BTreeMap<String, ModelTokens>, model: &str, usage: Usage) {
    let entry = map.entry(model.to_owned()).or_default();
    entry.usage += usage;
    entry.calls += 1;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cost_over_priced_models_and_the_others_named() {
        let mut catalog = ModelCatalog::default();
        catalog.set_price(
            "a/one",
            ModelPrice {
                input: 2.0,
                output: 10.0,
                cache_read: Some(0.2),
                cache_write: None,
            },
        );
        let mut ledger = TokenLedger::default();
        ledger.add_call(
            "a/one",
            Usage::new(1_000_000, 100_000).with_cache(500_000, 0),
        );
        ledger.add_call("a/one", Usage::new(0, 0));
        ledger.add_subagent("b/two", Usage::new(10, 1));
        let cost = ledger.cost(&catalog);
        assert!((cost.dollars - (1.0 + 0.1 + 1.0)).abs() < 1e-9, "{cost:?}");
        assert_eq!(cost.unpriced, ["b/two"]);
        assert_eq!(ledger.calls["a/one"].calls, 2);
        assert_eq!(ledger.total().input_tokens, 1_000_010);
        assert_eq!(ledger.own().output_tokens, 100_000);
    }
}
