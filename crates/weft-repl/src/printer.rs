//! How a turn is shown as it happens, the same in the interactive session and in a one-shot
//! `weft agent -m`: the answer (streamed, rendered as Markdown on a terminal with colour,
//! otherwise written as content for the writer to neutralise), one line per tool call, a
//! status line while the model or a tool works, a line for each retry, and notices.
//!
//! Two kinds of text reach the writer ([`StyledWrite`]): the model's answer as content
//! (through `Write`, so the writer's neutraliser sees it whole, a carriage return and its
//! line feed split across two deltas included), and what this printer styled itself
//! (Markdown, activity lines), built from neutralised text, through
//! [`write_styled`](StyledWrite::write_styled).

use std::io::Write;

use weft_agents::{CompactTrigger, CompactionReport, ContextUse, SessionEvents};
use weft_llm::{Message, ModelRef, RetryNotice, ToolCall};
use weft_term::{
    MarkdownStream, StatusLine, Style, StyledWrite, Terminal, cut, neutralise, render_markdown,
    tokens,
};

/// Where tool activity goes.
pub enum Activity<'a> {
    /// Between the answer's lines, on the same writer (the interactive session).
    WithAnswer,
    /// A writer of its own (stderr, for `weft agent -m`, so stdout holds only the answer).
    Separate(&'a mut dyn StyledWrite, Terminal),
}

/// Shows a turn: implements [`SessionEvents`].
pub struct TurnPrinter<'a> {
    out: &'a mut dyn StyledWrite,
    answer: Terminal,
    activity: Activity<'a>,
    /// Tool calls and failed results are shown (retries and notices always are).
    show_tools: bool,
    stream: bool,
    markdown: Option<MarkdownStream>,
    status: Option<StatusLine>,
    /// What was written last ended a line (or nothing was written).
    at_line_start: bool,
    /// Some of the answer was written while streaming.
    streamed: bool,
    /// The number `/expand` knows the next tool result by, in the interactive session.
    expand_next: Option<usize>,
    /// How full the context window was at the last report: shown in the status line.
    context: Option<ContextUse>,
}

impl<'a> TurnPrinter<'a> {
    /// Shows the answer on `out`, a stream with the capabilities `answer`; streamed as it
    /// arrives when `stream`. Markdown is rendered on a terminal with colour; anywhere else
    /// the answer is written as it came, for `out` to neutralise.
    pub fn new(
        out: &'a mut dyn StyledWrite,
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
            // Rendered for a person only: through a pipe the answer stays as written, even
            // when colour is forced.
            markdown: (answer.color && answer.tty).then(MarkdownStream::new),
            status: None,
            at_line_start: true,
            streamed: false,
            expand_next: None,
            context: None,
        }
    }

    /// Starts from `context` (the session's before the turn), so the status line shows it
    /// from the first request.
    #[must_use]
    pub fn with_context(mut self, context: ContextUse) -> Self {
        self.context = Some(context);
        self
    }

    /// `label` followed by how full the context window is, when known.
    fn status_label(&self, label: &str) -> String {
        match &self.context {
            Some(c) => format!(
                "{label} · context {}/{} ({}%)",
                tokens(c.tokens),
                tokens(c.window),
                c.percent()
            ),
            None => label.to_owned(),
        }
    }

    /// Labels each tool result's preview with the number `/expand` shows it by, the first
    /// one `next` (the interactive session: results are numbered across the session).
    #[must_use]
    pub fn with_expand_from(mut self, next: usize) -> Self {
        self.expand_next = Some(next);
        self
    }

    /// Shows `status` while waiting for the model or a tool (the caller creates it only for
    /// a live terminal).
    #[must_use]
    pub fn with_status(mut self, status: Option<StatusLine>) -> Self {
        self.status = status;
        self
    }

    /// Shows tool calls and failed results, or not (retries and notices are shown either
    /// way).
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
            let text = text.trim_end();
            if self.markdown.is_some() {
                self.write_answer(Shown::Styled(&render_markdown(text)));
            } else {
                self.write_answer(Shown::Content(text));
            }
        }
        self.end_line();
        self.streamed = false;
    }

    /// Writes a line of the caller's own (`[cancelled]`, an error that may quote a server)
    /// after what was shown, neutralised.
    pub fn note(&mut self, line: &str) {
        self.stop_status();
        self.flush_markdown();
        self.end_line();
        self.write_answer(Shown::Content(&format!("{line}\n")));
    }

    /// Ends the answer's line, if one is open.
    fn end_line(&mut self) {
        if !self.at_line_start {
            self.write_answer(Shown::Content("\n"));
        }
    }

    fn write_answer(&mut self, text: Shown<'_>) {
        let (Shown::Content(raw) | Shown::Styled(raw)) = text;
        if raw.is_empty() {
            return;
        }
        self.stop_status();
        let _ = match text {
            Shown::Content(raw) => self.out.write_all(raw.as_bytes()),
            Shown::Styled(styled) => self.out.write_styled(styled),
        };
        let _ = self.out.flush();
        self.at_line_start = raw.ends_with('\n');
    }

    fn flush_markdown(&mut self) {
        if let Some(rest) = self.markdown.as_mut().map(MarkdownStream::finish) {
            self.write_answer(Shown::Styled(&rest));
        }
    }

    fn stop_status(&self) {
        if let Some(status) = &self.status {
            status.clear();
        }
    }

    /// Writes one activity line (it quotes the model: neutralised, then styled), ending a
    /// partial answer line first when both share a writer.
    fn activity_line(&mut self, line: &str, style: Style) {
        match &mut self.activity {
            Activity::WithAnswer => {
                let line = paint_for(self.answer, line, style);
                self.flush_markdown();
                self.end_line();
                self.write_answer(Shown::Styled(&format!("{line}\n")));
            }
            Activity::Separate(err, terminal) => {
                let line = paint_for(*terminal, line, style);
                match &self.status {
                    Some(status) => status.println(&line),
                    None => {
                        let _ = err.write_styled(&format!("{line}\n"));
                        let _ = err.flush();
                    }
                }
            }
        }
    }
}

/// Text for the answer's writer.
#[derive(Clone, Copy)]
enum Shown<'t> {
    /// Content: the writer neutralises it.
    Content(&'t str),
    /// Styled by this printer from neutralised content.
    Styled(&'t str),
}

/// `line` neutralised (it quotes the model) and styled for `terminal`.
fn paint_for(terminal: Terminal, line: &str, style: Style) -> String {
    terminal.paint(&neutralise(line), style)
}

impl SessionEvents for TurnPrinter<'_> {
    fn text(&mut self, delta: &str) {
        if !self.stream || delta.is_empty() {
            return;
        }
        self.streamed = true;
        match self.markdown.as_mut().map(|md| md.push(delta)) {
            Some(rendered) => self.write_answer(Shown::Styled(&rendered)),
            None => self.write_answer(Shown::Content(delta)),
        }
    }

    fn tool_call(&mut self, call: &ToolCall) {
        self.stop_status();
        if self.show_tools {
            if self.streamed {
                // The answer so far ends its line before the tool's line.
                self.flush_markdown();
                self.end_line();
            }
            let line = format!("  {}", crate::preview::call_line(call));
            self.activity_line(&line, Style::Dim);
        }
        if let Some(status) = &self.status {
            status.show(&self.status_label(&format!("running {}", call.name)));
        }
    }

    /// A failed result in one line; any other as a short preview, with the number `/expand`
    /// shows it whole by in the interactive session.
    fn tool_result(&mut self, call: &ToolCall, result: &Message) {
        self.stop_status();
        let number = self.expand_next;
        if let Some(n) = &mut self.expand_next {
            *n += 1;
        }
        if !self.show_tools {
            return;
        }
        if result.is_error {
            let line = format!("  ✗ {}", cut(&result.content, 160));
            self.activity_line(&line, Style::Error);
            return;
        }
        let mut preview = crate::preview::tool_result_preview(&call.name, &result.content);
        if let Some(n) = number {
            preview.push_str(&format!("  [/expand {n}]"));
        }
        for line in preview.lines() {
            self.activity_line(&format!("  {line}"), Style::Dim);
        }
    }

    fn model_call_started(&mut self, model: &ModelRef) {
        if let Some(status) = &self.status {
            status.show(&self.status_label(&format!("waiting for {model}")));
        }
    }

    fn compacting(&mut self, trigger: CompactTrigger) {
        if let Some(status) = &self.status {
            let why = match trigger {
                CompactTrigger::Manual => "compacting the conversation",
                CompactTrigger::Auto => "compacting the conversation (the context is nearly full)",
                CompactTrigger::Overflow => {
                    "compacting the conversation (the provider found it too long)"
                }
            };
            status.show(&self.status_label(why));
        }
    }

    /// A compaction is always shown: what the model sees changed.
    fn compacted(&mut self, report: &CompactionReport) {
        self.stop_status();
        let line = format!(
            "weft: conversation compacted ({}): {} message(s) summarised, {} kept; ~{} -> ~{} tokens",
            report.trigger,
            report.summarised,
            report.kept,
            tokens(report.tokens_before),
            tokens(report.tokens_after)
        );
        self.activity_line(&line, Style::Dim);
    }

    fn context(&mut self, context: &ContextUse) {
        self.context = Some(*context);
    }

    fn model_call_finished(&mut self) {
        self.stop_status();
    }

    fn retrying(&mut self, notice: &RetryNotice) {
        // Shown even when tool activity is not: a wait needs explaining.
        self.activity_line(&format!("weft: {notice}"), Style::Warning);
    }

    /// A hook ran: one line with the tool activity.
    fn hook(&mut self, run: &weft_agents::HookRun) {
        if !self.show_tools {
            return;
        }
        self.stop_status();
        let style = if run.summary.starts_with("blocked") || run.summary.starts_with("deny") {
            Style::Warning
        } else {
            Style::Dim
        };
        let line = format!(
            "  ⚑ {} hook `{}`: {}",
            run.event,
            cut(&run.command, 80),
            cut(&run.summary, 120)
        );
        self.activity_line(&line, style);
    }

    /// A notice (a model alias replaced by the session's model) changes how the turn runs:
    /// shown whatever `show_tools` says, with the activity.
    fn notice(&mut self, text: &str) {
        self.stop_status();
        self.activity_line(&format!("weft: {text}"), Style::Warning);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;
    use weft_term::neutralise_styled;

    /// What weft-cli's output module does on a terminal: content neutralised, styled text
    /// kept with weft's own sequences.
    #[derive(Default)]
    struct Screen(Vec<u8>);

    impl Write for Screen {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            let text = String::from_utf8_lossy(buf);
            self.0.extend_from_slice(neutralise(&text).as_bytes());
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl StyledWrite for Screen {
        fn write_styled(&mut self, styled: &str) -> std::io::Result<()> {
            self.0
                .extend_from_slice(neutralise_styled(styled).as_bytes());
            Ok(())
        }
    }

    impl Screen {
        fn text(self) -> String {
            String::from_utf8(self.0).unwrap()
        }
    }

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
    fn answers_are_rendered_only_with_colour_and_neutralised_everywhere() {
        let mut piped = Screen::default();
        let mut p = TurnPrinter::new(&mut piped, Terminal::plain(), Activity::WithAnswer, true);
        p.text("# Hi\n**x**\u{1b}[2J");
        p.finish(None);
        assert_eq!(piped.text(), "# Hi\n**x**\\x1b[2J\n");

        let mut tty = Screen::default();
        let mut p = TurnPrinter::new(&mut tty, terminal(true), Activity::WithAnswer, true);
        p.text("# Hi\n**x**\u{1b}[2J");
        p.finish(None);
        assert_eq!(
            tty.text(),
            "\u{1b}[1;4mHi\u{1b}[22;24m\n\u{1b}[1mx\u{1b}[22m\\x1b[2J\n"
        );

        let mut no_color = Screen::default();
        let mut p = TurnPrinter::new(&mut no_color, terminal(false), Activity::WithAnswer, false);
        p.finish(Some("**x**\u{1b}[2J\n"));
        assert_eq!(no_color.text(), "**x**\\x1b[2J\n");
    }

    #[test]
    fn tool_lines_and_notices_sit_between_answer_lines() {
        let mut out = Screen::default();
        let mut p = TurnPrinter::new(&mut out, Terminal::plain(), Activity::WithAnswer, true);
        p.text("Let me look");
        p.tool_call(&call());
        p.tool_result(&call(), &Message::tool_result("c1", "no such file", true));
        p.text("Done.");
        p.notice("`haiku` is not served; using local/m");
        p.finish(Some("ignored: streamed"));
        assert_eq!(
            out.text(),
            "Let me look\n  → read_file\\x1b[2J {\"path\":\"a\"}\n  ✗ no such file\nDone.\n\
             weft: `haiku` is not served; using local/m\n"
        );
    }

    /// What a printer with tool activity on a writer of its own writes to the answer and to
    /// the activity writer while `play` drives it.
    fn separate(
        stream: bool,
        tools: bool,
        play: impl FnOnce(&mut TurnPrinter<'_>),
    ) -> (String, String) {
        let mut out = Screen::default();
        let mut err = Screen::default();
        {
            let activity = Activity::Separate(&mut err, Terminal::plain());
            let mut p =
                TurnPrinter::new(&mut out, Terminal::plain(), activity, stream).with_tools(tools);
            play(&mut p);
        }
        (out.text(), err.text())
    }

    #[test]
    fn retries_and_notices_are_announced_even_without_tool_lines() {
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
            p.notice("a notice");
            p.finish(None);
        });
        assert!(out.is_empty());
        assert_eq!(
            err,
            "weft: rate limited, retrying in 3 s (2/3)\nweft: a notice\n"
        );
    }

    #[test]
    fn separate_activity_keeps_the_answer_clean() {
        let (out, err) = separate(false, true, |p| {
            p.tool_call(&call());
            p.finish(Some("The answer."));
        });
        assert_eq!(out, "The answer.\n");
        assert_eq!(err, "  → read_file\\x1b[2J {\"path\":\"a\"}\n");
    }

    #[test]
    fn coloured_activity_is_styled_around_neutralised_text() {
        let mut out = Screen::default();
        let mut err = Screen::default();
        {
            let activity = Activity::Separate(&mut err, terminal(true));
            let mut p = TurnPrinter::new(&mut out, terminal(true), activity, true);
            p.tool_call(&call());
        }
        assert_eq!(
            err.text(),
            "\u{1b}[2m  → read_file\\x1b[2J {\"path\":\"a\"}\u{1b}[22m\n"
        );
    }
}
