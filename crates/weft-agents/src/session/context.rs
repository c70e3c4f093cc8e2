//! How full the context window is: the window itself, an estimate of the next request, and
//! what fills it (for `/context`).
//!
//! The estimate is anchored on what the provider measured: after each model call the session
//! keeps the prompt and completion tokens the provider reported for it, and estimates only
//! what was added since (the assistant's reply is counted by the provider as output; tool
//! results and new messages are estimated), at [`BYTES_PER_TOKEN`] bytes of text a token:
//! the usual rule for English and code with the tokenizers of OpenAI and Anthropic (code and
//! JSON run a little denser, which the threshold's margin absorbs; a provider that refuses a
//! request as too long gets one compaction and a retry anyway). Before the first call, after
//! a compaction or an agent switch, the whole request is estimated the same way.

use weft_llm::{Message, Role, ToolSpec};

use super::Session;
use super::skill::USE_SKILL;

/// Bytes of text counted as one token by the estimate.
pub const BYTES_PER_TOKEN: u64 = 4;

/// The window assumed for a model weft does not know and the configuration does not size
/// (`agent.context_window`).
pub const DEFAULT_CONTEXT_WINDOW: u64 = 128_000;

/// The estimated tokens of `bytes` bytes of text.
pub fn estimate_tokens(bytes: usize) -> u64 {
    u64::try_from(bytes)
        .unwrap_or(u64::MAX)
        .div_ceil(BYTES_PER_TOKEN)
}

/// The bytes a message puts in a request: its text, its tool calls (name and arguments) and
/// its reasoning blocks, plus a little for the wire's own fields.
pub(super) fn message_bytes(message: &Message) -> usize {
    const OVERHEAD: usize = 16;
    let calls: usize = message
        .tool_calls
        .iter()
        .map(|c| c.id.len() + c.name.len() + c.arguments.to_string().len() + OVERHEAD)
        .sum();
    let reasoning: usize = message.reasoning.iter().map(|r| r.to_string().len()).sum();
    message.content.len() + calls + reasoning + OVERHEAD
}

/// The estimated tokens of `messages`.
pub(super) fn messages_tokens(messages: &[Message]) -> u64 {
    messages
        .iter()
        .map(|m| estimate_tokens(message_bytes(m)))
        .sum()
}

/// The estimated tokens of the tool list as sent.
pub(super) fn tools_tokens(tools: &[ToolSpec]) -> u64 {
    tools
        .iter()
        .map(|t| {
            estimate_tokens(t.name.len() + t.description.len() + t.input_schema.to_string().len())
        })
        .sum()
}

/// What the provider measured of the last request: its prompt and completion tokens, and
/// how many messages the conversation had once its answer was added.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Measured {
    pub(super) tokens: u64,
    pub(super) messages: usize,
}

/// How full the window is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContextUse {
    /// Tokens the next request would hold (see the module documentation).
    pub tokens: u64,
    /// The context window.
    pub window: u64,
    /// Where automatic compaction starts; `None` when it is off.
    pub compact_at: Option<u64>,
}

impl ContextUse {
    /// `tokens` as a percentage of the window, rounded down.
    pub fn percent(&self) -> u64 {
        (self.tokens.saturating_mul(100))
            .checked_div(self.window)
            .unwrap_or(0)
    }
}

/// What fills the context window, estimated part by part for `/context`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextBreakdown {
    /// The context window and where compaction starts.
    pub window: u64,
    /// Where automatic compaction starts; `None` when it is off.
    pub compact_at: Option<u64>,
    /// The agent's system prompt (without the catalog and preloaded skills).
    pub system_prompt: u64,
    /// The tools offered, with their schemas.
    pub tools: u64,
    /// The skill catalog in the system prompt.
    pub catalog: u64,
    /// Skill bodies: the agent's preloaded skills and the skills loaded in the
    /// conversation (`use_skill` results, `/name` runs).
    pub skills: u64,
    /// The user's and the model's messages (with the summary of a compaction).
    pub messages: u64,
    /// Tool results other than skill bodies.
    pub tool_results: u64,
    /// The last request as the provider counted it (prompt and completion tokens) and the
    /// model that answered it; `None` before the first answer or after a compaction.
    pub measured: Option<(u64, String)>,
    /// Compactions so far (since the last `/clear`).
    pub compactions: u32,
}

impl ContextBreakdown {
    /// The sum of the estimated parts.
    pub fn estimated(&self) -> u64 {
        self.system_prompt
            + self.tools
            + self.catalog
            + self.skills
            + self.messages
            + self.tool_results
    }
}

impl Session {
    /// The context window of the next request: the agent's or the configuration's
    /// `context_window`, else what the model catalog knows of the model the turn uses, else
    /// [`DEFAULT_CONTEXT_WINDOW`]; never more than a request the provider refused as too long
    /// in this agent view.
    pub fn context_window(&self) -> u64 {
        let window = self
            .view
            .context_window
            .or_else(|| self.models.catalog().context_window(self.turn_model()))
            .filter(|w| *w > 0)
            .unwrap_or(DEFAULT_CONTEXT_WINDOW);
        self.window_cap.map_or(window, |cap| window.min(cap.max(1)))
    }

    /// The token count past which the next request is compacted first; `None` when automatic
    /// compaction is off.
    pub fn compact_threshold(&self) -> Option<u64> {
        self.options.auto_compact.then(|| {
            let fraction = self.options.compact_threshold.clamp(0.05, 1.0);
            // Rounded down: never past the fraction asked for.
            (self.context_window() as f64 * fraction) as u64
        })
    }

    /// How full the window is: the tokens the next request would hold (anchored on the
    /// provider's count of the last request) against the window.
    pub fn context_use(&mut self) -> ContextUse {
        let tokens = self.next_request_tokens();
        ContextUse {
            tokens,
            window: self.context_window(),
            compact_at: self.compact_threshold(),
        }
    }

    /// The estimate of the next request (see the module documentation).
    pub(super) fn next_request_tokens(&mut self) -> u64 {
        match self.measured {
            Some(m) if m.messages <= self.messages.len() => {
                m.tokens + messages_tokens(&self.messages[m.messages..])
            }
            _ => {
                let tools = self.offered_tools();
                let system = self.system_prompt(&tools);
                estimate_tokens(system.len())
                    + tools_tokens(&tools)
                    + messages_tokens(&self.messages)
            }
        }
    }

    /// Remembers the provider's count of the request just answered: `tokens` (prompt plus
    /// completion), the conversation now `messages` long.
    pub(super) fn measure(&mut self, tokens: u64, messages: usize) {
        self.measured = Some(Measured { tokens, messages });
    }

    /// What fills the window, part by part.
    pub fn context_breakdown(&mut self) -> ContextBreakdown {
        let tools = self.offered_tools();
        self.system_prompt(&tools);
        let parts = self.prompt_cache.parts.clone();
        // The calls whose results are skill bodies.
        let skill_calls: Vec<&str> = self
            .messages
            .iter()
            .flat_map(|m| &m.tool_calls)
            .filter(|c| c.name == USE_SKILL)
            .map(|c| c.id.as_str())
            .collect();
        let mut skills = estimate_tokens(parts.preloaded.len());
        let (mut messages, mut tool_results) = (0, 0);
        for message in &self.messages {
            let tokens = estimate_tokens(message_bytes(message));
            let skill_body = match message.role {
                Role::Tool => {
                    !message.is_error
                        && message
                            .tool_call_id
                            .as_deref()
                            .is_some_and(|id| skill_calls.contains(&id))
                }
                Role::User => message.content.starts_with("[Skill: "),
                Role::Assistant => false,
            };
            match (skill_body, message.role) {
                (true, _) => skills += tokens,
                (false, Role::Tool) => tool_results += tokens,
                (false, _) => messages += tokens,
            }
        }
        ContextBreakdown {
            window: self.context_window(),
            compact_at: self.compact_threshold(),
            system_prompt: estimate_tokens(parts.base.len()),
            tools: tools_tokens(&tools),
            catalog: estimate_tokens(parts.catalog.len()),
            skills,
            messages,
            tool_results,
            measured: self
                .measured
                .filter(|m| m.messages <= self.messages.len())
                .map(|m| (m.tokens, self.measured_model.clone())),
            compactions: self.compactions,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_bytes_a_token_rounded_up() {
        assert_eq!(estimate_tokens(0), 0);
        assert_eq!(estimate_tokens(1), 1);
        assert_eq!(estimate_tokens(8), 2);
        assert_eq!(estimate_tokens(9), 3);
        let use_ = ContextUse {
            tokens: 50,
            window: 200,
            compact_at: None,
        };
        assert_eq!(use_.percent(), 25);
    }
}
