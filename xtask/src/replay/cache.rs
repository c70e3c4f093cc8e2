//! How the providers count and cache a request's prompt, as their documentation describes
//! it, so that the replay benchmark's figures are the ones a bill would show.
//!
//! Tokens are counted at four bytes of the request's JSON a token (as weft estimates; real
//! tokenizers differ by model, which moves every figure alike).
//!
//! - **Anthropic** caches prefixes explicitly: the blocks in the order tools, system, messages;
//!   a block carrying `cache_control` ends a prefix that is written to the cache (at least
//!   1,024 tokens); a later request reads the longest cached prefix ending at one of its
//!   breakpoints or at one of the 20 block boundaries before each breakpoint. The marker itself
//!   is not part of the prefix. `input_tokens` is what was neither read nor written.
//! - **OpenAI** caches automatically: the longest prefix (tools, then messages) shared with an
//!   earlier request, once it is 1,024 tokens or more, in steps of 128 tokens;
//!   `prompt_tokens` includes the cached ones.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use serde_json::Value;

/// Bytes of JSON counted as one token.
pub const BYTES_PER_TOKEN: usize = 4;
/// The shortest prefix either provider caches, in tokens.
pub const MIN_CACHED: u64 = 1024;
/// How many block boundaries before a breakpoint Anthropic looks for a cached prefix.
const LOOKBACK_BLOCKS: usize = 20;
/// OpenAI's cache granularity past the minimum, in tokens.
const OPENAI_STEP: u64 = 128;

fn tokens(bytes: usize) -> u64 {
    (bytes / BYTES_PER_TOKEN) as u64
}

/// What one request's prompt cost, in tokens.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PromptTokens {
    /// Every prompt token, cached or not.
    pub total: u64,
    /// Read from the cache.
    pub read: u64,
    /// Written to the cache (Anthropic only).
    pub written: u64,
}

/// Anthropic's cache: prefix fingerprints and their length in tokens.
#[derive(Debug, Default)]
pub struct AnthropicCache {
    prefixes: HashMap<u64, u64>,
}

impl AnthropicCache {
    /// Counts `body` (a Messages API request) against the cache and writes its breakpoints'
    /// prefixes.
    pub fn request(&mut self, body: &Value) -> PromptTokens {
        let blocks = anthropic_blocks(body);
        // The fingerprint and length of the prefix ending after each block.
        let mut hasher = DefaultHasher::new();
        let mut bytes = 0;
        let mut ends = Vec::with_capacity(blocks.len());
        for (text, _) in &blocks {
            text.hash(&mut hasher);
            bytes += text.len();
            ends.push((hasher.finish(), tokens(bytes)));
        }
        let total = tokens(bytes);
        let breakpoints: Vec<usize> = blocks
            .iter()
            .enumerate()
            .filter(|(_, (_, marked))| *marked)
            .map(|(i, _)| i)
            .collect();
        let read = breakpoints
            .iter()
            .flat_map(|&b| b.saturating_sub(LOOKBACK_BLOCKS)..=b)
            .filter_map(|i| {
                let (print, length) = ends[i];
                self.prefixes.get(&print).filter(|&&l| l == length).copied()
            })
            .max()
            .unwrap_or(0);
        let mut written = 0;
        for &b in &breakpoints {
            let (print, length) = ends[b];
            if length >= MIN_CACHED {
                self.prefixes.insert(print, length);
                written = written.max(length.saturating_sub(read));
            }
        }
        PromptTokens {
            total,
            read,
            written,
        }
    }
}

/// The request's blocks in cache order (tools, system, messages), each as the JSON text it
/// contributes without its `cache_control`, and whether it carried one.
fn anthropic_blocks(body: &Value) -> Vec<(String, bool)> {
    let mut blocks = Vec::new();
    let mut push = |block: &Value, prefix: &str| {
        let mut block = block.clone();
        let marked = block
            .as_object_mut()
            .and_then(|o| o.remove("cache_control"))
            .is_some();
        blocks.push((format!("{prefix}{block}"), marked));
    };
    for tool in body["tools"].as_array().into_iter().flatten() {
        push(tool, "");
    }
    match &body["system"] {
        Value::Array(system) => system.iter().for_each(|b| push(b, "system:")),
        Value::Null => {}
        other => push(other, "system:"),
    }
    for message in body["messages"].as_array().into_iter().flatten() {
        let role = message["role"].as_str().unwrap_or_default();
        match &message["content"] {
            Value::Array(content) => {
                for (i, block) in content.iter().enumerate() {
                    // The role opens the message's first block.
                    push(block, if i == 0 { role } else { "" });
                }
            }
            other => push(other, role),
        }
    }
    blocks
}

/// OpenAI's automatic cache: the prompts seen so far.
#[derive(Debug, Default)]
pub struct OpenAiCache {
    seen: Vec<String>,
}

impl OpenAiCache {
    /// Counts `body` (a chat completions request) against the earlier prompts.
    pub fn request(&mut self, body: &Value) -> PromptTokens {
        let prompt = format!("{}{}", body["tools"], body["messages"]);
        let shared = self
            .seen
            .iter()
            .map(|earlier| common_prefix(earlier, &prompt))
            .max()
            .unwrap_or(0);
        let shared = tokens(shared);
        let read = if shared >= MIN_CACHED {
            shared / OPENAI_STEP * OPENAI_STEP
        } else {
            0
        };
        let total = tokens(prompt.len());
        self.seen.push(prompt);
        PromptTokens {
            total,
            read,
            written: 0,
        }
    }
}

fn common_prefix(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use serde_json::json;

    use super::*;

    fn anthropic(messages: &[&str]) -> Value {
        let mut messages: Vec<Value> = messages
            .iter()
            .enumerate()
            .map(|(i, text)| {
                let role = if i % 2 == 0 { "user" } else { "assistant" };
                json!({"role": role, "content": [{"type": "text", "text": text}]})
            })
            .collect();
        if let Some(last) = messages.last_mut() {
            last["content"][0]["cache_control"] = json!({"type": "ephemeral"});
        }
        json!({
            "system": [{"type": "text", "text": "s".repeat(5000), "cache_control": {"type": "ephemeral"}}],
            "tools": [{"name": "t", "cache_control": {"type": "ephemeral"}}],
            "messages": messages,
        })
    }

    #[test]
    fn anthropic_reads_the_conversation_cached_by_the_previous_request() {
        let mut cache = AnthropicCache::default();
        let long = "x".repeat(8000);
        let first = cache.request(&anthropic(&[&long]));
        assert_eq!(first.read, 0);
        assert_eq!(first.written, first.total);
        // The breakpoint moved on: the previous one's prefix is read back, the rest written.
        let second = cache.request(&anthropic(&[&long, "answer", "next"]));
        assert_eq!(second.read, first.total);
        assert_eq!(second.written, second.total - first.total);
        // A changed system prompt reads nothing.
        let mut changed = anthropic(&[&long, "answer", "next"]);
        changed["system"][0]["text"] = json!("t".repeat(5000));
        assert_eq!(cache.request(&changed).read, 0);
    }

    #[test]
    fn anthropic_caches_nothing_shorter_than_the_minimum() {
        let mut cache = AnthropicCache::default();
        let mut body = anthropic(&["hi"]);
        body["system"][0]["text"] = json!("short");
        assert_eq!(cache.request(&body).written, 0);
        assert_eq!(cache.request(&body).read, 0);
    }

    #[test]
    fn openai_reads_the_shared_prefix_in_steps() {
        let mut cache = OpenAiCache::default();
        let body = |extra: &str| json!({"tools": [], "messages": [{"role": "user", "content": "y".repeat(6000)}, {"role": "user", "content": extra}]});
        assert_eq!(cache.request(&body("a")).read, 0);
        let second = cache.request(&body("b"));
        assert_eq!(second.read % OPENAI_STEP, 0);
        assert!(second.read >= MIN_CACHED && second.read <= second.total);
        assert_eq!(second.written, 0);
    }
}
