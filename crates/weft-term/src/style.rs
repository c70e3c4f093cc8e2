//! Whether a stream gets colour and live status, decided once from facts the caller gathers
//! (is it a terminal, how wide, what `NO_COLOR`, `CLICOLOR_FORCE`, `CLICOLOR` and `TERM`
//! say), ANSI styling that is a no-op when colour is off, and [`StyledWrite`], the writer
//! that keeps content and weft's own styling apart.
//!
//! The rules, in order: `NO_COLOR` set to anything non-empty turns colour off
//! (<https://no-color.org>); `CLICOLOR_FORCE` set to anything but `0` turns it on, for a
//! terminal that `CLICOLOR=0` or `TERM=dumb` would leave plain and for a pipe or a file
//! (<https://bixense.com/clicolors/>: `weft skills list | less -R`); otherwise colour is on
//! for a terminal whose `TERM` is not `dumb` and `CLICOLOR` is not `0`, and a pipe or a file
//! gets no escape sequence at all. Whatever the variables say, content (text from a hostile
//! checkout, a model, a server) is neutralised: only weft's own style sequences get through. A live status line
//! (it rewrites its own line) needs a real terminal that is not `dumb`, colour or not.

use std::io::{self, Write};

/// What the environment says about colour, as read by the caller.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ColorEnv {
    /// `NO_COLOR` is set and not empty.
    pub no_color: bool,
    /// `CLICOLOR_FORCE` is set and neither empty nor `0`.
    pub force: bool,
    /// `CLICOLOR` is `0`.
    pub clicolor_off: bool,
    /// `TERM` is `dumb` (no cursor movement, no colour).
    pub dumb: bool,
}

impl ColorEnv {
    /// Reads the four variables through `var` (the caller's environment lookup).
    ///
    /// ```
    /// use weft_term::ColorEnv;
    ///
    /// let env = ColorEnv::from_vars(|name| (name == "NO_COLOR").then(|| "1".to_owned()));
    /// assert!(env.no_color && !env.force);
    /// assert!(!ColorEnv::from_vars(|name| (name == "NO_COLOR").then(String::new)).no_color);
    /// ```
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Self {
        let set = |name: &str| var(name).filter(|v| !v.is_empty());
        Self {
            no_color: set("NO_COLOR").is_some(),
            force: set("CLICOLOR_FORCE").is_some_and(|v| v != "0"),
            clicolor_off: set("CLICOLOR").is_some_and(|v| v == "0"),
            dumb: set("TERM").is_some_and(|v| v == "dumb"),
        }
    }

    /// Whether a stream that is (or is not) a terminal gets colour.
    ///
    /// ```
    /// use weft_term::ColorEnv;
    ///
    /// let plain = ColorEnv::default();
    /// assert!(plain.color(true) && !plain.color(false));
    /// let dumb = ColorEnv { dumb: true, ..ColorEnv::default() };
    /// let forced = ColorEnv { force: true, ..dumb };
    /// assert!(!dumb.color(true) && forced.color(true));
    /// // A pipe gets colour only when it is forced (`CLICOLOR_FORCE`, for `| less -R`).
    /// assert!(!plain.color(false) && forced.color(false));
    /// let both = ColorEnv { no_color: true, ..forced };
    /// assert!(!both.color(true));
    /// ```
    pub fn color(&self, is_terminal: bool) -> bool {
        if self.no_color {
            false
        } else {
            self.force || (is_terminal && !self.clicolor_off && !self.dumb)
        }
    }
}

/// How one output stream (stdout or stderr) is shown.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Terminal {
    /// The stream is a terminal: weft's own escape sequences may be written to it. (Content
    /// is neutralised on every stream.)
    pub tty: bool,
    /// ANSI colour and styling (bold, rendered Markdown).
    pub color: bool,
    /// A person is watching: a status line may rewrite itself here.
    pub live: bool,
    /// The width to fit lines to; `None` means "never cut" (a pipe, unless `COLUMNS` asks).
    pub width: Option<usize>,
}

impl Terminal {
    /// The decision for a stream: `is_terminal` as the OS reports it, `width` the terminal's
    /// width (or `COLUMNS`, when the caller honours it), `env` the colour variables.
    ///
    /// ```
    /// use weft_term::{ColorEnv, Terminal};
    ///
    /// let tty = Terminal::decide(true, Some(100), &ColorEnv::default());
    /// assert!(tty.color && tty.live);
    /// let piped = Terminal::decide(false, None, &ColorEnv::default());
    /// assert_eq!(piped, Terminal::plain());
    /// ```
    pub fn decide(is_terminal: bool, width: Option<usize>, env: &ColorEnv) -> Self {
        Self {
            tty: is_terminal,
            color: env.color(is_terminal),
            live: is_terminal && !env.dumb,
            width: width.filter(|w| *w > 0),
        }
    }

    /// A pipe or a file: no colour, nothing live, full text.
    pub const fn plain() -> Self {
        Self {
            tty: false,
            color: false,
            live: false,
            width: None,
        }
    }

    /// `text` in `style` when this stream has colour, else as it is. `text` must already be
    /// neutralised (or be weft's own words).
    pub fn paint(&self, text: &str, style: Style) -> String {
        paint(text, style, self.color)
    }
}

/// A writer of text that mixes content with weft's own styling, kept apart so that only
/// weft's escape sequences can reach a terminal.
///
/// - Through [`Write`]: content (a model's answer, a file's text, anything not built by
///   weft-term's styling). The writer neutralises it before it reaches a terminal.
/// - Through [`write_styled`](Self::write_styled): text weft styled itself, whose content was
///   neutralised first ([`paint`] over [`neutralise`](crate::neutralise)d text,
///   [`MarkdownStream`](crate::MarkdownStream), [`StatusLine`](crate::StatusLine)).
///
/// weft-cli's output module is the implementation that reaches a standard stream: on a
/// terminal styled text is written as it is (any control other than weft's own style and
/// erase-line sequences still neutralised: [`neutralise_styled`](crate::neutralise_styled)),
/// through a pipe or to a file without any escape sequence ([`unstyle`](crate::unstyle)).
/// The implementation for `Vec<u8>` keeps both as they are (a buffer, tests).
pub trait StyledWrite: Write + Send {
    /// Writes `styled`: text weft styled itself, its content neutralised first.
    fn write_styled(&mut self, styled: &str) -> io::Result<()>;
}

impl StyledWrite for Vec<u8> {
    fn write_styled(&mut self, styled: &str) -> io::Result<()> {
        self.extend_from_slice(styled.as_bytes());
        Ok(())
    }
}

/// The styles weft uses, by meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Strong emphasis, table headers.
    Bold,
    /// Secondary information: tool activity, the status line, rules.
    Dim,
    /// Emphasis.
    Italic,
    /// Link text.
    Underline,
    /// Inline code and code blocks.
    Code,
    /// A top-level heading.
    Heading,
    /// `error:`.
    Error,
    /// `warning:`.
    Warning,
    /// A passed check.
    Success,
}

impl Style {
    /// The SGR parameters.
    fn sgr(self) -> &'static str {
        match self {
            Self::Bold => "1",
            Self::Dim => "2",
            Self::Italic => "3",
            Self::Underline => "4",
            Self::Code => "36",
            Self::Heading => "1;4",
            Self::Error => "1;31",
            Self::Warning => "1;33",
            Self::Success => "32",
        }
    }

    /// The SGR parameters that end only this style (not `0`, which would also end the style
    /// of the text around it: bold around italic stays bold).
    fn off(self) -> &'static str {
        match self {
            Self::Bold | Self::Dim => "22",
            Self::Italic => "23",
            Self::Underline => "24",
            Self::Code | Self::Success => "39",
            Self::Heading => "22;24",
            Self::Error | Self::Warning => "22;39",
        }
    }
}

/// `text` wrapped in the style's escape sequences when `color`, else `text` unchanged.
///
/// ```
/// use weft_term::{Style, paint};
///
/// assert_eq!(paint("error:", Style::Error, true), "\x1b[1;31merror:\x1b[22;39m");
/// assert_eq!(paint("error:", Style::Error, false), "error:");
/// ```
pub fn paint(text: &str, style: Style, color: bool) -> String {
    if color && !text.is_empty() {
        format!("\x1b[{}m{text}\x1b[{}m", style.sgr(), style.off())
    } else {
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> ColorEnv {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        ColorEnv::from_vars(|name| {
            pairs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        })
    }

    #[test]
    fn the_variables_decide_in_the_documented_order() {
        /// Variables, colour on a terminal, colour through a pipe.
        type Case<'a> = (&'a [(&'a str, &'a str)], bool, bool);
        // A pipe gets colour only when CLICOLOR_FORCE forces it (and NO_COLOR does not win).
        let cases: [Case<'_>; 10] = [
            (&[], true, false),
            (&[("NO_COLOR", "1")], false, false),
            (&[("NO_COLOR", "")], true, false),
            (&[("CLICOLOR_FORCE", "1")], true, true),
            (&[("CLICOLOR_FORCE", "0")], true, false),
            (
                &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "yes")],
                false,
                false,
            ),
            (&[("CLICOLOR", "0")], false, false),
            (&[("CLICOLOR", "0"), ("CLICOLOR_FORCE", "1")], true, true),
            (&[("TERM", "dumb")], false, false),
            (&[("TERM", "dumb"), ("CLICOLOR_FORCE", "1")], true, true),
        ];
        for (vars, tty, pipe) in cases {
            let e = env(vars);
            assert_eq!((e.color(true), e.color(false)), (tty, pipe), "{vars:?}");
        }
    }

    #[test]
    fn a_status_line_needs_a_real_terminal() {
        let forced = env(&[("CLICOLOR_FORCE", "1")]);
        assert!(!Terminal::decide(false, None, &forced).live);
        assert!(!Terminal::decide(true, Some(80), &env(&[("TERM", "dumb")])).live);
        assert!(Terminal::decide(true, Some(80), &env(&[("NO_COLOR", "1")])).live);
        assert_eq!(Terminal::decide(true, Some(0), &forced).width, None);
    }
}
