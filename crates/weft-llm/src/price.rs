//! What a model's tokens cost, as the configuration prices them (`pricing` in config.json):
//! US dollars per million tokens for input, output, and the prompt cache's reads and writes.
//! weft ships no prices of its own: they change, and differ by account.

use serde::{Deserialize, Serialize};

use crate::Usage;

/// A model's prices in US dollars per million tokens.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelPrice {
    /// Prompt tokens neither read from nor written to the cache.
    pub input: f64,
    /// Completion tokens.
    pub output: f64,
    /// Prompt tokens read from the cache (the input price when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_read: Option<f64>,
    /// Prompt tokens written to the cache (the input price when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_write: Option<f64>,
}

impl ModelPrice {
    /// What `usage` costs, in US dollars.
    ///
    /// ```
    /// use weft_llm::{ModelPrice, Usage};
    ///
    /// let sonnet = ModelPrice { input: 3.0, output: 15.0, cache_read: Some(0.3), cache_write: Some(3.75) };
    /// // 1M prompt tokens of which 800k read from the cache, 100k output.
    /// let usage = Usage::new(1_000_000, 100_000).with_cache(800_000, 0);
    /// assert!((sonnet.cost(&usage) - (0.6 + 0.24 + 1.5)).abs() < 1e-9);
    /// ```
    pub fn cost(&self, usage: &Usage) -> f64 {
        let per_token = |tokens: u64, price: f64| tokens as f64 * price / 1_000_000.0;
        per_token(usage.uncached_input_tokens(), self.input)
            + per_token(
                usage.cache_read_tokens,
                self.cache_read.unwrap_or(self.input),
            )
            + per_token(
                usage.cache_write_tokens,
                self.cache_write.unwrap_or(self.input),
            )
            + per_token(usage.output_tokens, self.output)
    }

    /// A price that is not a finite, non-negative number, by its field name.
    pub fn invalid_field(&self) -> Option<&'static str> {
        [
            ("input", Some(self.input)),
            ("output", Some(self.output)),
            ("cache_read", self.cache_read),
            ("cache_write", self.cache_write),
        ]
        .into_iter()
        .find_map(|(name, value)| value.filter(|v| !v.is_finite() || *v < 0.0).map(|_| name))
    }
}
