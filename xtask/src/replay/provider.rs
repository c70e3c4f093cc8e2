//! The scripted model behind the replay server: what it answers at each step of a turn, in
//! the Anthropic or the OpenAI wire shape, and what it counted.

use serde_json::{Value, json};

use super::cache::{AnthropicCache, BYTES_PER_TOKEN, OpenAiCache, PromptTokens};
use super::server::Responder;

/// Source files in the project; turn N works on file N mod FILES.
pub const FILES: usize = 8;
/// Functions in each source file.
const FUNCTIONS: usize = 80;
/// What weft's summary request starts with (weft-agents' compaction instruction).
const SUMMARY_ASK: &str = "Your next answer replaces the conversation above";
/// US dollars per million tokens: input, output, cache read, cache write (Claude Sonnet 4.5).
pub const ANTHROPIC_PRICE: (f64, f64, f64, f64) = (3.0, 15.0, 0.3, 3.75);
/// US dollars per million tokens: input, output, cache read (GPT-4o).
pub const OPENAI_PRICE: (f64, f64, f64) = (2.5, 10.0, 1.25);

/// Which provider the server imitates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// The Messages API, explicit cache breakpoints.
    Anthropic,
    /// Chat completions, automatic prefix caching.
    OpenAi,
}

impl Shape {
    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Self::Anthropic => "anthropic",
            Self::OpenAi => "openai",
        }
    }

    /// What a cache read and a cache write cost against an input token.
    pub fn cache_factors(self) -> (f64, f64) {
        match self {
            Self::Anthropic => (
                ANTHROPIC_PRICE.2 / ANTHROPIC_PRICE.0,
                ANTHROPIC_PRICE.3 / ANTHROPIC_PRICE.0,
            ),
            Self::OpenAi => (OPENAI_PRICE.2 / OPENAI_PRICE.0, 0.0),
        }
    }

    fn path(self) -> &'static str {
        match self {
            Self::Anthropic => "/v1/messages",
            Self::OpenAi => "/v1/chat/completions",
        }
    }
}

/// The user's message of turn `turn`.
pub fn ask(turn: usize) -> String {
    let (file, function) = target(turn);
    format!(
        "Turn {}: in {}, rename f_{file}_{function} to g_{file}_{function} and tell me what else calls it.",
        turn + 1,
        source_path(file)
    )
}

/// The one message of a `--rounds` session.
pub fn ask_all() -> String {
    format!(
        "Rename every function f_N_M to g_N_M, one at a time, going round the {FILES} files in \
         src/, and tell me when you stop."
    )
}

/// The file and function turn `turn` works on.
fn target(turn: usize) -> (usize, usize) {
    (turn % FILES, (turn / FILES) % FUNCTIONS)
}

/// The project-relative path of source file `file`.
pub fn source_path(file: usize) -> String {
    format!("src/mod_{file}.rs")
}

/// The text of source file `file`.
pub fn source(file: usize) -> String {
    (0..FUNCTIONS)
        .map(|f| format!("pub fn f_{file}_{f}(x: u32) -> u32 {{ x.wrapping_mul({f}) + {file} }}\n"))
        .collect()
}

/// What the server counted over the session.
#[derive(Debug, Default, Clone, Copy)]
pub struct Tally {
    /// Answered requests.
    pub requests: u64,
    /// Summary requests answered (compactions).
    pub summaries: u64,
    /// Requests refused as too long.
    pub overflows: u64,
    /// Prompt tokens of the answered requests, cached or not.
    pub input: u64,
    /// Of them, read from the cache.
    pub read: u64,
    /// Of them, written to the cache.
    pub written: u64,
    /// Completion tokens.
    pub output: u64,
    /// Prompt tokens of the answered requests from the second turn on.
    pub later_input: u64,
    /// Of them, read from the cache.
    pub later_read: u64,
    /// The largest answered prompt, in tokens.
    pub peak: u64,
}

impl Tally {
    /// What the tokens cost at the configured prices, in US dollars.
    pub fn cost(&self, shape: Shape) -> f64 {
        let (input, output, read, write) = match shape {
            Shape::Anthropic => ANTHROPIC_PRICE,
            Shape::OpenAi => (OPENAI_PRICE.0, OPENAI_PRICE.1, OPENAI_PRICE.2, 0.0),
        };
        (self.uncached() as f64 * input
            + self.read as f64 * read
            + self.written as f64 * write
            + self.output as f64 * output)
            / 1e6
    }

    /// Prompt tokens neither read from nor written to the cache.
    pub fn uncached(&self) -> u64 {
        self.input - self.read - self.written
    }
}

/// The scripted model and its caches.
pub struct Provider {
    shape: Shape,
    window: u64,
    anthropic: AnthropicCache,
    openai: OpenAiCache,
    turn: usize,
    tally: Tally,
    /// One message worked through in this many tool-call rounds (`--rounds`), instead of the
    /// steps counted from the conversation.
    rounds: Option<usize>,
    /// Rounds answered so far in that mode.
    round: usize,
}

impl Provider {
    /// A provider of `shape` refusing prompts past `window` tokens.
    pub fn new(shape: Shape, window: u64) -> Self {
        Self {
            shape,
            window,
            anthropic: AnthropicCache::default(),
            openai: OpenAiCache::default(),
            turn: 0,
            tally: Tally::default(),
            rounds: None,
            round: 0,
        }
    }

    /// One message that takes `rounds` tool-call rounds: read a file, rename a function in
    /// it, the next file, and so on, then one answer. Compactions summarise the message away,
    /// so the server counts the rounds itself.
    pub fn with_rounds(mut self, rounds: usize) -> Self {
        self.rounds = Some(rounds);
        self
    }

    /// The next requests belong to turn `turn`.
    pub fn start_turn(&mut self, turn: usize) {
        self.turn = turn;
    }

    /// What it counted so far.
    pub fn tally(&self) -> Tally {
        self.tally
    }

    /// The prompt's size without touching the cache.
    fn size(&self, body: &Value) -> u64 {
        let bytes = match self.shape {
            Shape::Anthropic => format!("{}{}{}", body["tools"], body["system"], body["messages"]),
            Shape::OpenAi => format!("{}{}", body["tools"], body["messages"]),
        }
        .len();
        (bytes / BYTES_PER_TOKEN) as u64
    }

    fn refuse(&mut self, tokens: u64) -> (u16, Value) {
        self.tally.overflows += 1;
        let window = self.window;
        let body = match self.shape {
            Shape::Anthropic => json!({"type": "error", "error": {"type": "invalid_request_error",
                "message": format!("prompt is too long: {tokens} tokens > {window} maximum")}}),
            Shape::OpenAi => {
                json!({"error": {"type": "invalid_request_error", "code": "context_length_exceeded",
                "message": format!("This model's maximum context length is {window} tokens. However, your messages resulted in {tokens} tokens.")}})
            }
        };
        (400, body)
    }

    fn count(&mut self, prompt: PromptTokens, output: u64, summary: bool) {
        let t = &mut self.tally;
        t.requests += 1;
        t.summaries += u64::from(summary);
        t.input += prompt.total;
        t.read += prompt.read;
        t.written += prompt.written;
        t.output += output;
        t.peak = t.peak.max(prompt.total);
        if self.turn > 0 {
            t.later_input += prompt.total;
            t.later_read += prompt.read;
        }
    }
}

/// The model's next step.
enum Step {
    Summary,
    Read,
    Edit,
    Answer,
}

impl Step {
    /// From the conversation: a summary request, or how far the current turn has come (tool
    /// results since the user's message).
    fn of(shape: Shape, body: &Value) -> Self {
        let messages = body["messages"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default();
        // The instruction may share a message with tool results (Anthropic's user turns).
        let last = messages.last().map(|m| &m["content"]);
        let asks_summary = match last {
            Some(Value::String(text)) => text.starts_with(SUMMARY_ASK),
            Some(Value::Array(blocks)) => blocks.iter().any(|b| {
                b["text"]
                    .as_str()
                    .is_some_and(|t| t.starts_with(SUMMARY_ASK))
            }),
            _ => false,
        };
        if asks_summary {
            return Self::Summary;
        }
        let mut results = 0;
        for message in messages.iter().rev() {
            let (text, tool_results) = match shape {
                Shape::OpenAi if message["role"] == "tool" => (None, 1),
                Shape::OpenAi if message["role"] == "user" => (message["content"].as_str(), 0),
                Shape::Anthropic if message["role"] == "user" => {
                    let blocks = message["content"]
                        .as_array()
                        .map(Vec::as_slice)
                        .unwrap_or_default();
                    let text = blocks.iter().rev().find_map(|b| b["text"].as_str());
                    let n = blocks.iter().filter(|b| b["type"] == "tool_result").count();
                    (if n == 0 { text } else { None }, n)
                }
                _ => (None, 0),
            };
            results += tool_results;
            if text.is_some() {
                break;
            }
        }
        match results {
            0 => Self::Read,
            1 => Self::Edit,
            _ => Self::Answer,
        }
    }
}

impl Responder for Provider {
    fn respond(&mut self, path: &str, body: &Value) -> (u16, Value) {
        if path != self.shape.path() {
            return (
                404,
                json!({"error": {"message": format!("no such path {path}")}}),
            );
        }
        let size = self.size(body);
        if size > self.window {
            return self.refuse(size);
        }
        let prompt = match self.shape {
            Shape::Anthropic => self.anthropic.request(body),
            Shape::OpenAi => self.openai.request(body),
        };
        let mut step = Step::of(self.shape, body);
        if let (Some(rounds), false) = (self.rounds, matches!(step, Step::Summary)) {
            // Each pair of rounds is one rename, counted as a turn for the target and the
            // cached share.
            self.turn = self.round / 2;
            step = match self.round {
                r if r >= rounds => Step::Answer,
                r if r % 2 == 0 => Step::Read,
                _ => Step::Edit,
            };
            self.round += 1;
        }
        let (file, function) = target(self.turn);
        let path = source_path(file);
        let call = |name: &str, input: Value| Some((name.to_owned(), input));
        let (text, tool) = match step {
            Step::Summary => (summary(self.turn), None),
            Step::Read => (String::new(), call("read_file", json!({"path": path}))),
            Step::Edit => (
                String::new(),
                call(
                    "edit_file",
                    json!({"path": path, "old_string": format!("fn f_{file}_{function}("),
                           "new_string": format!("fn g_{file}_{function}(")}),
                ),
            ),
            Step::Answer => (answer(self.turn, &path, file, function), None),
        };
        let id = format!("call_{}_{}", self.turn, self.tally.requests);
        let reply = match self.shape {
            Shape::Anthropic => {
                let content = match &tool {
                    Some((name, input)) => {
                        json!([{"type": "tool_use", "id": id, "name": name, "input": input}])
                    }
                    None => json!([{"type": "text", "text": text}]),
                };
                let output = (content.to_string().len() / BYTES_PER_TOKEN) as u64;
                self.count(prompt, output, matches!(step, Step::Summary));
                json!({"id": format!("msg_{id}"), "type": "message", "role": "assistant",
                    "model": body["model"], "content": content,
                    "stop_reason": if tool.is_some() { "tool_use" } else { "end_turn" },
                    "usage": {"input_tokens": prompt.total - prompt.read - prompt.written,
                              "cache_read_input_tokens": prompt.read,
                              "cache_creation_input_tokens": prompt.written,
                              "output_tokens": output}})
            }
            Shape::OpenAi => {
                let message = match &tool {
                    Some((name, input)) => {
                        json!({"role": "assistant", "content": null, "tool_calls": [
                        {"id": id, "type": "function", "function": {"name": name, "arguments": input.to_string()}}]})
                    }
                    None => json!({"role": "assistant", "content": text}),
                };
                let output = (message.to_string().len() / BYTES_PER_TOKEN) as u64;
                self.count(prompt, output, matches!(step, Step::Summary));
                json!({"id": format!("chatcmpl-{id}"), "object": "chat.completion", "model": body["model"],
                    "choices": [{"index": 0, "message": message,
                                 "finish_reason": if tool.is_some() { "tool_calls" } else { "stop" }}],
                    "usage": {"prompt_tokens": prompt.total, "completion_tokens": output,
                              "prompt_tokens_details": {"cached_tokens": prompt.read}}})
            }
        };
        (200, reply)
    }
}

/// The answer that ends turn `turn`.
fn answer(turn: usize, path: &str, file: usize, function: usize) -> String {
    format!(
        "Turn {}: renamed `f_{file}_{function}` to `g_{file}_{function}` in {path}. Nothing else in \
         the project calls it: the other functions of {path} compute their own products, and no \
         other module imports this one. The signature is unchanged (`x: u32 -> u32`), so callers \
         outside the crate, if any, only need the new name. I did not run the tests; `cargo test` \
         would confirm that nothing referred to the old name through a macro.",
        turn + 1
    )
}

/// The summary a compaction gets at turn `turn`.
fn summary(turn: usize) -> String {
    let files: Vec<String> = (0..FILES.min(turn + 1)).map(source_path).collect();
    format!(
        "## Task\nRename functions across the project one at a time, as the user asks, and say \
         what else calls each one.\n\n## Decisions\n- Renames change only the name (f_ to g_); \
         signatures stay.\n- Tests are not run unless asked.\n\n## Files touched\n{}\n\n## State \
         at turn {}\nEvery rename asked for so far is done; none had other callers.\n\n## Open \
         items\n- Run `cargo test` once the renames are finished.\n",
        files
            .iter()
            .map(|f| format!("- {f}"))
            .collect::<Vec<_>>()
            .join("\n"),
        turn + 1
    )
}
