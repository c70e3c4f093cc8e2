//! How much of an answer weft reads: every byte a provider sends is counted against a cap
//! before it is kept, so a server that never stops (a body of gigabytes, an event without an
//! end, endless text or tool-call arguments) costs at most the caps in memory and ends with
//! an error that names the limit and the configuration key that raises it.
//!
//! * [`read_body`]: a whole answer, at most [`ResponseLimits::body_bytes`] (a `Content-Length`
//!   over the cap fails before the body is read).
//! * [`read_error_body`]: an error answer, of which the first [`ERROR_BODY_BYTES`] are kept
//!   and the rest is not read (the status says what happened).
//! * [`bounded_events`]: the bytes of a server-sent event stream, checked before the SSE
//!   parser buffers them: one event (everything up to its blank line) at most
//!   [`ResponseLimits::event_bytes`], the whole stream at most
//!   [`ResponseLimits::stream_bytes`].
//! * [`Budget`]: what an answer accumulates, text (and thinking) and tool calls, checked
//!   before each piece is kept or shown. Every content block or tool call also costs
//!   [`PART_COST`] bytes of its budget, so an endless run of empty blocks is bounded too.

use futures_util::StreamExt;
use futures_util::stream::BoxStream;
use reqwest::Response;

use crate::http::Failure;

/// The part of an error body that is kept; the rest is never read.
pub const ERROR_BODY_BYTES: usize = 64 * 1024;

/// What each content block or tool call costs its budget besides its text: the bookkeeping
/// of a part, so that many empty parts are as bounded as a few large ones.
pub(crate) const PART_COST: usize = 128;

/// Caps on one answer. The defaults are far above what a model produces (an answer of
/// 128,000 tokens is about 0.5 MiB of text, its stream a few tens of MiB) and far below what
/// would strain weft's memory.
///
/// ```
/// use weft_llm::ResponseLimits;
///
/// let limits = ResponseLimits::default();
/// assert_eq!(limits.body_bytes, 8 << 20);
/// assert!(limits.event_bytes <= limits.stream_bytes);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResponseLimits {
    /// A whole (not streamed) answer body (default 8 MiB; `limits.response_bytes`).
    pub body_bytes: usize,
    /// A streamed answer, every event together (default 256 MiB; `limits.stream_bytes`).
    pub stream_bytes: usize,
    /// One server-sent event (default 4 MiB; `limits.event_bytes`).
    pub event_bytes: usize,
    /// The text and thinking of one answer (default 4 MiB; `limits.text_bytes`).
    pub text_bytes: usize,
    /// The tool calls of one answer: names, ids and arguments together (default 4 MiB;
    /// `limits.tool_arguments_bytes`).
    pub tool_arguments_bytes: usize,
}

impl Default for ResponseLimits {
    fn default() -> Self {
        Self {
            body_bytes: 8 << 20,
            stream_bytes: 256 << 20,
            event_bytes: 4 << 20,
            text_bytes: 4 << 20,
            tool_arguments_bytes: 4 << 20,
        }
    }
}

/// Which cap an answer went over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// [`ResponseLimits::body_bytes`].
    Body,
    /// [`ResponseLimits::stream_bytes`].
    Stream,
    /// [`ResponseLimits::event_bytes`].
    Event,
    /// [`ResponseLimits::text_bytes`].
    Text,
    /// [`ResponseLimits::tool_arguments_bytes`].
    ToolArguments,
}

impl Limit {
    /// What went over it, as a message says it (`the answer's text`).
    pub fn what(self) -> &'static str {
        match self {
            Self::Body => "the answer",
            Self::Stream => "the streamed answer",
            Self::Event => "one event of the stream",
            Self::Text => "the answer's text",
            Self::ToolArguments => "the answer's tool calls",
        }
    }

    /// The configuration key that raises it.
    pub fn key(self) -> &'static str {
        match self {
            Self::Body => "limits.response_bytes",
            Self::Stream => "limits.stream_bytes",
            Self::Event => "limits.event_bytes",
            Self::Text => "limits.text_bytes",
            Self::ToolArguments => "limits.tool_arguments_bytes",
        }
    }

    /// Its value in `limits`.
    pub fn value(self, limits: &ResponseLimits) -> usize {
        match self {
            Self::Body => limits.body_bytes,
            Self::Stream => limits.stream_bytes,
            Self::Event => limits.event_bytes,
            Self::Text => limits.text_bytes,
            Self::ToolArguments => limits.tool_arguments_bytes,
        }
    }
}

/// A cap that was reached, with its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Exceeded {
    pub(crate) limit: Limit,
    pub(crate) bytes: usize,
}

impl Exceeded {
    fn of(limit: Limit, limits: &ResponseLimits) -> Self {
        Self {
            limit,
            bytes: limit.value(limits),
        }
    }
}

/// Reads a whole answer body, failing as soon as it is longer than `limits.body_bytes`.
pub(crate) async fn read_body(
    mut response: Response,
    limits: &ResponseLimits,
) -> Result<Vec<u8>, Failure> {
    let cap = limits.body_bytes;
    let over = || Failure::TooLarge(Exceeded::of(Limit::Body, limits));
    if response
        .content_length()
        .is_some_and(|n| n > u64::try_from(cap).unwrap_or(u64::MAX))
    {
        return Err(over());
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(Failure::from_reqwest)? {
        if body.len() + chunk.len() > cap {
            return Err(over());
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// The first [`ERROR_BODY_BYTES`] of an error answer as text (what could be read: a body
/// that breaks off still leaves the status to go by).
pub(crate) async fn read_error_body(mut response: Response) -> String {
    let mut body = Vec::new();
    while let Ok(Some(chunk)) = response.chunk().await {
        let room = ERROR_BODY_BYTES - body.len();
        if chunk.len() >= room {
            body.extend_from_slice(&chunk[..room]);
            break;
        }
        body.extend_from_slice(&chunk);
    }
    String::from_utf8_lossy(&body).into_owned()
}

/// Why the byte stream of an event stream ended early.
#[derive(Debug)]
pub(crate) enum StreamError {
    /// The connection failed.
    Transport(reqwest::Error),
    /// A cap was reached.
    TooLarge(Exceeded),
}

impl std::fmt::Display for StreamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Transport(e) => e.fmt(f),
            Self::TooLarge(e) => write!(f, "{} is over {} bytes", e.limit.what(), e.bytes),
        }
    }
}

impl StreamError {
    /// The failure of the attempt.
    pub(crate) fn into_failure(self) -> Failure {
        match self {
            Self::Transport(e) => Failure::from_reqwest(e),
            Self::TooLarge(e) => Failure::TooLarge(e),
        }
    }
}

/// The body of `response` in pieces of whole lines, counted by an [`EventBounds`] before the
/// SSE parser sees them; the first piece over a cap ends the stream with
/// [`StreamError::TooLarge`]. The end of a line that has not arrived yet is held back here:
/// the parser re-reads its whole buffer for every piece while a line is incomplete, which
/// would make a long line cost the square of its length.
pub(crate) fn bounded_events(
    response: Response,
    limits: ResponseLimits,
) -> BoxStream<'static, Result<Vec<u8>, StreamError>> {
    let state = (
        response.bytes_stream().boxed(),
        Some(EventBounds::new(limits)),
    );
    futures_util::stream::unfold(state, |(mut body, mut bounds)| async move {
        loop {
            let current = bounds.as_mut()?;
            match body.next().await {
                Some(Ok(chunk)) => match current.feed(&chunk) {
                    Ok(None) => continue,
                    Ok(Some(lines)) => return Some((Ok(lines), (body, bounds))),
                    Err(e) => return Some((Err(StreamError::TooLarge(e)), (body, None))),
                },
                Some(Err(e)) => return Some((Err(StreamError::Transport(e)), (body, None))),
                None => {
                    let rest = std::mem::take(&mut current.held);
                    return (!rest.is_empty()).then(|| (Ok(rest), (body, None)));
                }
            }
        }
    })
    .boxed()
}

/// Counts the bytes of an event stream: all of them, and those since the last event ended
/// (a blank line: `\n\n`, `\r\r` or `\r\n\r\n`, and their mixtures, as the SSE format
/// allows). A line that never ends, or an event whose lines never stop, reaches the event
/// cap; a stream that never stops reaches the stream cap.
pub(crate) struct EventBounds {
    limits: ResponseLimits,
    /// The start of a line whose end has not arrived.
    held: Vec<u8>,
    total: usize,
    since_event: usize,
    /// The last byte ended a line (so a line end now is a blank line).
    at_line_start: bool,
    /// The last byte was `\r` (a `\n` now completes the same line end).
    after_cr: bool,
}

impl EventBounds {
    pub(crate) fn new(limits: ResponseLimits) -> Self {
        Self {
            limits,
            held: Vec::new(),
            total: 0,
            since_event: 0,
            // A blank first line ends no event, which only matters for counting.
            at_line_start: true,
            after_cr: false,
        }
    }

    /// Counts `chunk` and returns the complete lines it ends (with the held start of the
    /// first), keeping the start of an unfinished line; an error once a cap is passed.
    pub(crate) fn feed(&mut self, chunk: &[u8]) -> Result<Option<Vec<u8>>, Exceeded> {
        self.check(chunk)?;
        let Some(last_end) = chunk.iter().rposition(|b| matches!(b, b'\n' | b'\r')) else {
            self.held.extend_from_slice(chunk);
            return Ok(None);
        };
        let mut lines = std::mem::take(&mut self.held);
        lines.extend_from_slice(&chunk[..=last_end]);
        self.held.extend_from_slice(&chunk[last_end + 1..]);
        Ok(Some(lines))
    }

    /// Counts `chunk`; an error once a cap is passed.
    fn check(&mut self, chunk: &[u8]) -> Result<(), Exceeded> {
        self.total = self.total.saturating_add(chunk.len());
        if self.total > self.limits.stream_bytes {
            return Err(Exceeded::of(Limit::Stream, &self.limits));
        }
        for &byte in chunk {
            match byte {
                b'\n' if self.after_cr => self.after_cr = false,
                b'\n' | b'\r' => {
                    self.after_cr = byte == b'\r';
                    if self.at_line_start {
                        self.since_event = 0;
                    } else {
                        self.at_line_start = true;
                        self.since_event += 1;
                    }
                }
                _ => {
                    self.after_cr = false;
                    self.at_line_start = false;
                    self.since_event += 1;
                }
            }
            if self.since_event > self.limits.event_bytes {
                return Err(Exceeded::of(Limit::Event, &self.limits));
            }
        }
        Ok(())
    }
}

/// What one answer has accumulated, against its caps.
pub(crate) struct Budget {
    limits: ResponseLimits,
    text: usize,
    calls: usize,
}

impl Budget {
    pub(crate) fn new(limits: ResponseLimits) -> Self {
        Self {
            limits,
            text: 0,
            calls: 0,
        }
    }

    /// `bytes` more of text or thinking.
    pub(crate) fn text(&mut self, bytes: usize) -> Result<(), Failure> {
        self.text = self.text.saturating_add(bytes);
        if self.text > self.limits.text_bytes {
            return Err(Failure::TooLarge(Exceeded::of(Limit::Text, &self.limits)));
        }
        Ok(())
    }

    /// `bytes` more of a tool call (its id, name or arguments).
    pub(crate) fn call(&mut self, bytes: usize) -> Result<(), Failure> {
        self.calls = self.calls.saturating_add(bytes);
        if self.calls > self.limits.tool_arguments_bytes {
            return Err(Failure::TooLarge(Exceeded::of(
                Limit::ToolArguments,
                &self.limits,
            )));
        }
        Ok(())
    }

    /// Checks a whole answer: its text and its tool calls (arguments as JSON text).
    pub(crate) fn answer(&mut self, answer: &crate::ChatResponse) -> Result<(), Failure> {
        self.text(answer.message.content.len())?;
        for call in &answer.message.tool_calls {
            let arguments = match &call.arguments {
                serde_json::Value::String(text) => text.len(),
                other => other.to_string().len(),
            };
            self.call(PART_COST + call.id.len() + call.name.len() + arguments)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(event: usize, stream: usize) -> ResponseLimits {
        ResponseLimits {
            event_bytes: event,
            stream_bytes: stream,
            ..ResponseLimits::default()
        }
    }

    #[test]
    fn events_are_counted_up_to_their_blank_line_in_every_line_ending() {
        for sep in ["\n\n", "\r\r", "\r\n\r\n", "\n\r\n", "\r\n\n"] {
            let mut bounds = EventBounds::new(limits(12, 1000));
            let event = format!("data: 12345{sep}");
            for _ in 0..50 {
                assert!(bounds.check(event.as_bytes()).is_ok(), "{sep:?}");
            }
        }
        // Split anywhere, even inside `\r\n`, the count is the same.
        let mut bounds = EventBounds::new(limits(12, 1000));
        for piece in ["data: 1", "2345\r", "\n", "\r", "\ndata: 12345", "\r\n\r\n"] {
            assert!(bounds.check(piece.as_bytes()).is_ok(), "{piece:?}");
        }
    }

    #[test]
    fn a_line_without_end_and_lines_without_a_blank_one_reach_the_event_cap() {
        let mut bounds = EventBounds::new(limits(12, 1000));
        assert!(bounds.check(b"data: 1234").is_ok());
        let err = bounds.check(b"567").unwrap_err();
        assert_eq!(err.limit, Limit::Event);
        assert_eq!(err.bytes, 12);
        let mut bounds = EventBounds::new(limits(12, 1000));
        assert!(bounds.check(b"data: a\ndata: b\n").is_err());
        // A line end alone does not end an event; `\r\n` is one line end, not a blank line.
        let mut bounds = EventBounds::new(limits(12, 1000));
        assert!(bounds.check(b"data: a\r\ndata: b\r\n").is_err());
    }

    #[test]
    fn only_whole_lines_are_passed_on() {
        let mut bounds = EventBounds::new(limits(100, 1000));
        assert_eq!(bounds.feed(b"data: 1").unwrap(), None);
        assert_eq!(
            bounds.feed(b"23\n\ndata: 4").unwrap().as_deref(),
            Some(&b"data: 123\n\n"[..])
        );
        assert_eq!(
            bounds.feed(b"5\r").unwrap().as_deref(),
            Some(&b"data: 45\r"[..])
        );
        assert_eq!(bounds.feed(b"\n").unwrap().as_deref(), Some(&b"\n"[..]));
        assert!(bounds.held.is_empty());
    }

    #[test]
    fn the_stream_cap_counts_everything() {
        let mut bounds = EventBounds::new(limits(100, 27));
        assert!(bounds.check(b"data: 1\n\n").is_ok());
        assert!(bounds.check(b"data: 2\n\n").is_ok());
        assert!(bounds.check(b"data: 3\n\n").is_ok());
        assert_eq!(bounds.check(b"x").unwrap_err().limit, Limit::Stream);
    }

    #[test]
    fn budgets_fail_past_their_cap() {
        let mut budget = Budget::new(ResponseLimits {
            text_bytes: 10,
            tool_arguments_bytes: PART_COST + 5,
            ..ResponseLimits::default()
        });
        assert!(budget.text(10).is_ok());
        assert!(matches!(
            budget.text(1),
            Err(Failure::TooLarge(Exceeded {
                limit: Limit::Text,
                bytes: 10
            }))
        ));
        assert!(budget.call(PART_COST + 5).is_ok());
        assert!(matches!(
            budget.call(1),
            Err(Failure::TooLarge(Exceeded {
                limit: Limit::ToolArguments,
                ..
            }))
        ));
    }
}
