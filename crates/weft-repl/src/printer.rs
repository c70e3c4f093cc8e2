//! How a turn is shown as it happens, the same in the interactive session and in a one-shot
//! `weft agent -m`: the answer (streamed, rendered as Markdown on a terminal with colour,
//! neutralised on any terminal, raw through a pipe), one line per tool call, a status line
//! while the model or a tool works, and a line for each retry.

use std::io::Write;

use weft_agents::SessionEvents;
use weft_llm::{Message, ModelRef, RetryNotice, ToolCall};
use weft_term::{MarkdownStream, StatusLine, Style, Terminal, cut, neutralize, render_markdown};

/// Where tool activity goes.
pub enum Activity<'a> {
    /// Between the answer's lines, on the same writer (the interactive session).
    WithAnswer,
    /// A writer of its own (stderr, for `weft agent -m`, so stdout holds only the answer).
    Separate(&'a mut (dyn Write + Send), Terminal),
}

/// Shows a turn: implements [`SessionEvents`].
pub struct TurnPrinter<'a> {
    out: &'a mut (dyn Write + Send),
    answer: Terminal,
    activity: Activity<'a>,
    /// Tool calls and failed results are shown (retries always are).
    show_tools: bool,
    stream: bool,
    markdown: Option<MarkdownStream>,
    status: Option<StatusLine>,
    /// What was written last ended a line (or nothing was written).
    at_line_start: bool,
    /// Some of the answer was written while streaming.
    streamed: bool,
}

impl<'a> TurnPrinter<'a> {
    /// Shows the answer on `out`, a stream with the capabilities `answer`; streamed as it
    /// arrives when `stream`. Markdown is rendered on a terminal with colour; through a pipe
    /// the answer is raw even when colour is forced (it is data for the next program).
    pub fn new(
        out: &'a mut (dyn Write + Send),
        answer: Terminal,
        activity: Activity<'a>,
        stream: bool,
    ) -> Self {
        Self {
            out,
            answer,
            activity,
            show_tools: true,
            stream,
            markdown: (answer.tty && answer.color).then(MarkdownStream::new),
            status: None,
            at_line_start: true,
            streamed: false,
        }
    }

    /// Shows `status` while waiting for the model or a tool (the caller creates it only for
    /// a live terminal).
    #[must_use]
    pub fn with_status(mut self, status: Option<StatusLine>) -> Self {
        self.status = status;
        self
    }

    /// Shows tool calls and failed results, or not (retries are shown either way).
    #[must_use]
    pub fn with_tools(mut self, show: bool) -> Self {
        self.show_tools = show;
        self
    }

    /// Whether any of the answer was streamed.
    pub fn streamed(&self) -> bool {
        self.streamed
    }

    /// Whether the answer is being streamed (else [`finish`](Self::finish) prints it).
    pub fn streaming(&self) -> bool {
        self.stream
    }

    /// Ends the turn's output: the rest of a streamed answer and a final newline, or, when
    /// nothing was streamed, `text` (the whole answer) shown the same way. The printer is
    /// then ready for another turn.
    pub fn finish(&mut self, text: Option<&str>) {
        self.stop_status();
        if self.streamed {
            self.flush_markdown();
        } else if let Some(text) = text.filter(|t| !t.is_empty()) {
            let shown = self.whole(text.trim_end());
            self.write_answer(&shown);
        }
        if !self.at_line_start {
            self.write_answer("\n");
        }
        self.streamed = false;
    }

    /// Writes a line of the REPL's own (a notice, `[cancelled]`) after what was shown.
    pub fn note(&mut self, line: &str) {
        self.stop_status();
        self.flush_markdown();
        if !self.at_line_start {
            self.write_answer("\n");
        }
        self.write_answer(&format!("{line}\n"));
    }

    /// A whole answer as this stream shows it.
    fn whole(&self, text: &str) -> String {
        if self.markdown.is_some() {
            render_markdown(text)
        } else if self.answer.tty {
            neutralize(text).into_owned()
        } else {
            text.to_owned()
        }
    }

    fn write_answer(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        self.stop_status();
        let _ = self.out.write_all(text.as_bytes());
        let _ = self.out.flush();
        self.at_line_start = text.ends_with('\n');
    }

    fn flush_markdown(&mut self) {
        if let Some(rest) = self.markdown.as_mut().map(MarkdownStream::finish) {
            self.write_answer(&rest);
        }
    }

    fn stop_status(&self) {
        if let Some(status) = &self.status {
            status.clear();
        }
    }

    /// Writes one activity line (already styled), ending a partial answer line first when
    /// both share a writer.
    fn activity_line(&mut self, line: &str, style: Style) {
        match &mut self.activity {
            Activity::WithAnswer => {
                let line = paint_for(self.answer, line, style);
                self.flush_markdown();
                if !self.at_line_start {
                    self.write_answer("\n");
                }
                self.write_answer(&format!("{line}\n"));
            }
            Activity::Separate(err, terminal) => {
                let line = paint_for(*terminal, line, style);
                match &self.status {
                    Some(status) => status.println(&line),
                    None => {
                        let _ = writeln!(err, "{line}");
                    }
                }
            }
        }
    }
}

/// `line` neutralised (it quotes the model) and styled for `terminal`.
fn paint_for(terminal: Terminal, line: &str, style: Style) -> String {
    terminal.paint(&neutralize(line), style)
}

impl SessionEvents for TurnPrinter<'_> {
    fn text(&mut self, delta: &str) {
        if !self.stream || delta.is_empty() {
            return;
        }
        self.streamed = true;
        let shown = match &mut self.markdown {
            Some(md) => md.push(delta),
            None if self.answer.tty => neutralize(delta).into_owned(),
            None => delta.to_owned(),
        };
        self.write_answer(&shown);
    }

    fn tool_call(&mut self, call: &ToolCall) {
        self.stop_status();
        if self.show_tools {
            if self.streamed {
                // The answer so far ends its line before the tool's line.
                self.flush_markdown();
                if !self.at_line_start {
                    self.write_answer("\n");
                }
            }
            let line = format!(
                "  → {} {}",
                call.name,
                cut(&call.arguments.to_string(), 100)
            );
            self.activity_line(&line, Style::Dim);
        }
        if let Some(status) = &self.status {
            status.show(&format!("running {}", call.name));
        }
    }

    fn tool_result(&mut self, _call: &ToolCall, result: &Message) {
        self.stop_status();
        if self.show_tools && result.is_error {
            let line = format!("  ✗ {}", cut(&result.content, 160));
            self.activity_line(&line, Style::Error);
        }
    }

    fn model_call_started(&mut self, model: &ModelRef) {
        if let Some(status) = &self.status {
            status.show(&format!("waiting for {model}"));
        }
    }

    fn model_call_finished(&mut self) {
        self.stop_status();
    }

    fn retrying(&mut self, notice: &RetryNotice) {
        // Shown even when tool activity is not: a wait needs explaining.
        self.activity_line(&format!("weft: {notice}"), Style::Warning);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call() -> ToolCall {
        ToolCall {
            id: "c1".to_owned(),
            // A hostile model may put escape sequences anywhere, names included.
            name: "read_file\u{1b}[2J".to_owned(),
            arguments: json!({"path": "a"}),
        }
    }

    fn terminal(color: bool) -> Terminal {
        Terminal {
            tty: true,
            color,
            live: true,
            width: Some(80),
        }
    }

    #[test]
    fn piped_answers_are_raw_and_terminal_answers_are_rendered() {
        let mut piped = Vec::new();
        let mut p = TurnPrinter::new(&mut piped, Terminal::plain(), Activity::WithAnswer, true);
        p.text("# Hi\n**x**\u{1b}[2J");
        p.finish(None);
        assert_eq!(String::from_utf8(piped).unwrap(), "# Hi\n**x**\u{1b}[2J\n");

        let mut tty = Vec::new();
        let mut p = TurnPrinter::new(&mut tty, terminal(true), Activity::WithAnswer, true);
        p.text("# Hi\n**x**\u{1b}[2J");
        p.finish(None);
        assert_eq!(
            String::from_utf8(tty).unwrap(),
            "\u{1b}[1;4mHi\u{1b}[22;24m\n\u{1b}[1mx\u{1b}[22m^[[2J\n"
        );

        let mut no_color = Vec::new();
        let mut p = TurnPrinter::new(&mut no_color, terminal(false), Activity::WithAnswer, false);
        p.finish(Some("**x**\u{1b}[2J\n"));
        assert_eq!(String::from_utf8(no_color).unwrap(), "**x**^[[2J\n");
    }

    #[test]
    fn tool_lines_sit_between_answer_lines() {
        let mut out = Vec::new();
        let mut p = TurnPrinter::new(&mut out, Terminal::plain(), Activity::WithAnswer, true);
        p.text("Let me look");
        p.tool_call(&call());
        p.tool_result(&call(), &Message::tool_result("c1", "no such file", true));
        p.text("Done.");
        p.finish(Some("ignored: streamed"));
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "Let me look\n  → read_file^[[2J {\"path\":\"a\"}\n  ✗ no such file\nDone.\n"
        );
    }

    /// What a printer with tool activity on a writer of its own writes to the answer and to
    /// the activity writer while `play` drives it.
    fn separate(
        stream: bool,
        tools: bool,
        play: impl FnOnce(&mut TurnPrinter<'_>),
    ) -> (String, String) {
        let mut out = Vec::new();
        let mut err = Vec::new();
        {
            let activity = Activity::Separate(&mut err, Terminal::plain());
            let mut p =
                TurnPrinter::new(&mut out, Terminal::plain(), activity, stream).with_tools(tools);
            play(&mut p);
        }
        (
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
        )
    }

    #[test]
    fn retries_are_announced_even_without_tool_lines() {
        let (out, err) = separate(true, false, |p| {
            p.tool_call(&call());
            p.retrying(&RetryNotice {
                provider: "p".to_owned(),
                model: "m".to_owned(),
                reason: weft_llm::RetryReason::RateLimited,
                retry: 2,
                max_retries: 3,
                delay: std::time::Duration::from_secs(3),
            });
            p.finish(None);
        });
        assert!(out.is_empty());
        assert_eq!(err, "weft: rate limited, retrying in 3 s (2/3)\n");
    }

    #[test]
    fn separate_activity_keeps_the_answer_clean() {
        let (out, err) = separate(false, true, |p| {
            p.tool_call(&call());
            p.finish(Some("The answer."));
        });
        assert_eq!(out, "The answer.\n");
        assert_eq!(err, "  → read_file^[[2J {\"path\":\"a\"}\n");
    }
}
