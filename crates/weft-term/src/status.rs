//! A status line for a terminal: a spinner, what weft is waiting for and for how long
//! (`⠹ waiting for openai/gpt-4o-mini 4s`), redrawn in place by a thread of its own until it
//! is cleared. It writes only to the writer its caller gives it (stderr, from the CLI, and
//! only when that is a terminal: see [`Terminal::live`](crate::Terminal)), and only as
//! styled text ([`StyledWrite::write_styled`]): its label is neutralised first.
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::neutral::neutralise;
use crate::style::{Style, StyledWrite, paint};
use crate::text::cut;

/// How often the line is redrawn.
const TICK: Duration = Duration::from_millis(100);

/// The spinner's frames.
const FRAMES: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/// Moves to the start of the line and erases it.
const ERASE: &str = "\r\x1b[2K";

/// The text of one frame: spinner, label, elapsed time.
///
/// ```
/// use std::time::Duration;
/// use weft_term::status_frame;
///
/// assert_eq!(status_frame(0, "waiting for local/m", Duration::from_millis(3400)), "⠋ waiting for local/m 3s");
/// assert_eq!(status_frame(11, "starting MCP servers", Duration::from_secs(65)), "⠙ starting MCP servers 1m 05s");
/// ```
pub fn status_frame(tick: usize, label: &str, elapsed: Duration) -> String {
    let secs = elapsed.as_secs();
    let time = if secs < 60 {
        format!("{secs}s")
    } else {
        format!("{}m {:02}s", secs / 60, secs % 60)
    };
    format!("{} {label} {time}", FRAMES[tick % FRAMES.len()])
}

struct State {
    out: Box<dyn StyledWrite>,
    color: bool,
    width: Option<usize>,
    label: Option<String>,
    since: Instant,
    tick: usize,
    drawn: bool,
    /// Held [`StatusPause`]s: while any is, nothing is drawn.
    paused: u32,
    stop: bool,
}

impl State {
    fn draw(&mut self) {
        let Some(label) = &self.label else {
            return;
        };
        if self.paused > 0 {
            return;
        }
        // Never wider than the terminal: a wrapped line cannot be erased with `\r`.
        let room = self.width.map_or(usize::MAX, |w| w.saturating_sub(12));
        // The label may quote a configuration (a model's name): neutralised like any content.
        let frame = status_frame(
            self.tick,
            &cut(&neutralise(label), room),
            self.since.elapsed(),
        );
        let line = format!("{ERASE}{}", paint(&frame, Style::Dim, self.color));
        let _ = self.out.write_styled(&line);
        let _ = self.out.flush();
        self.tick += 1;
        self.drawn = true;
    }

    fn erase(&mut self) {
        if self.drawn {
            let _ = self.out.write_styled(ERASE);
            let _ = self.out.flush();
            self.drawn = false;
        }
    }
}

struct Shared {
    state: Mutex<State>,
    wake: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while drawing leaves nothing half-done that matters: go on.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A line at the bottom of the terminal saying what weft waits for. Cheap to clone; the
/// redrawing thread stops when the last clone is dropped.
#[derive(Clone)]
pub struct StatusLine {
    shared: Arc<Shared>,
    /// Held only for its `Drop`: the last clone stops the thread.
    _ticker: Arc<Ticker>,
}

/// Stops and joins the redrawing thread, and erases the line, when dropped.
struct Ticker {
    shared: Arc<Shared>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl Drop for Ticker {
    fn drop(&mut self) {
        self.shared.lock().stop = true;
        self.shared.wake.notify_all();
        let thread = self
            .thread
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(thread) = thread {
            let _ = thread.join();
        }
        self.shared.lock().erase();
    }
}

impl std::fmt::Debug for StatusLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = self.shared.lock();
        f.debug_struct("StatusLine")
            .field("label", &state.label)
            .finish_non_exhaustive()
    }
}

impl StatusLine {
    /// A status line drawn on `out` (dim when `color`, cut to `width`), hidden until
    /// [`show`](Self::show).
    pub fn new(out: Box<dyn StyledWrite>, color: bool, width: Option<usize>) -> Self {
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                out,
                color,
                width,
                label: None,
                since: Instant::now(),
                tick: 0,
                drawn: false,
                paused: 0,
                stop: false,
            }),
            wake: Condvar::new(),
        });
        let worker = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("weft-status".to_owned())
            .spawn(move || tick(&worker))
            // Without a thread the line is simply never drawn: waiting works the same.
            .ok();
        Self {
            _ticker: Arc::new(Ticker {
                shared: Arc::clone(&shared),
                thread: Mutex::new(thread),
            }),
            shared,
        }
    }

    /// Shows `label` (neutralised when drawn) and starts counting from now. The first frame appears after one tick, so answers faster
    /// than that never flash a spinner.
    pub fn show(&self, label: &str) {
        let mut state = self.shared.lock();
        if state.label.as_deref() != Some(label) {
            state.label = Some(label.to_owned());
            state.since = Instant::now();
        }
    }

    /// Changes the label but keeps counting (a retry is part of the same wait).
    pub fn relabel(&self, label: &str) {
        let mut state = self.shared.lock();
        if state.label.is_some() {
            state.label = Some(label.to_owned());
        }
    }

    /// Hides the line (erasing it if it was drawn). Call before writing anything else to
    /// the terminal.
    pub fn clear(&self) {
        let mut state = self.shared.lock();
        state.label = None;
        state.erase();
    }

    /// Writes `line` (and a newline) above the status line, which goes on afterwards. `line`
    /// is styled text: its content neutralised first (as [`Terminal::paint`](crate::Terminal)
    /// callers do).
    pub fn println(&self, line: &str) {
        let mut state = self.shared.lock();
        state.erase();
        let _ = state.out.write_styled(&format!("{line}\n"));
        let _ = state.out.flush();
    }

    /// Whether a label is set (drawn or about to be).
    pub fn is_active(&self) -> bool {
        self.shared.lock().label.is_some()
    }

    /// Whether a [`StatusPause`] holds the line hidden.
    pub fn is_paused(&self) -> bool {
        self.shared.lock().paused > 0
    }

    /// Erases the line and draws nothing until the returned guard is dropped, keeping the
    /// label: for a question on the terminal (an approval prompt), which a redrawn line would
    /// overwrite. The line comes back once the guard is gone, counting from then.
    pub fn pause(&self) -> StatusPause {
        let mut state = self.shared.lock();
        state.paused += 1;
        state.erase();
        StatusPause {
            shared: Arc::clone(&self.shared),
        }
    }
}

/// Keeps a [`StatusLine`] hidden while it lives ([`StatusLine::pause`]).
pub struct StatusPause {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for StatusPause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StatusPause").finish_non_exhaustive()
    }
}

impl Drop for StatusPause {
    fn drop(&mut self) {
        let mut state = self.shared.lock();
        state.paused = state.paused.saturating_sub(1);
        if state.paused == 0 {
            // The wait shown from here on starts with the answer, not with the question.
            state.since = Instant::now();
        }
    }
}

/// The redrawing loop: one frame per tick while a label is set, until stopped.
fn tick(shared: &Shared) {
    let mut state = shared.lock();
    loop {
        let (next, _) = shared
            .wake
            .wait_timeout(state, TICK)
            .unwrap_or_else(PoisonError::into_inner);
        state = next;
        if state.stop {
            return;
        }
        state.draw();
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A writer whose bytes the test can read.
    #[derive(Clone, Default)]
    struct Screen(Arc<Mutex<Vec<u8>>>);

    impl Write for Screen {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl StyledWrite for Screen {
        fn write_styled(&mut self, styled: &str) -> std::io::Result<()> {
            self.write_all(styled.as_bytes())
        }
    }

    impl Screen {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    #[test]
    fn drawn_in_place_erased_when_cleared_and_lines_go_above_it() {
        let screen = Screen::default();
        let status = StatusLine::new(Box::new(screen.clone()), false, Some(80));
        status.show("waiting for local/m");
        assert!(status.is_active());
        // Draw a frame by hand rather than waiting for the thread (no timing in tests).
        status.shared.lock().draw();
        status.println("rate limited, retrying in 1 s (1/3)");
        status.clear();
        assert!(!status.is_active());
        let text = screen.text();
        assert!(
            text.starts_with("\r\x1b[2K⠋ waiting for local/m 0s"),
            "{text:?}"
        );
        assert!(
            text.contains("\r\x1b[2Krate limited, retrying in 1 s (1/3)\n"),
            "{text:?}"
        );
        // Nothing was drawn after the line, so clearing writes nothing more.
        assert!(text.ends_with("(1/3)\n"), "{text:?}");
        drop(status);
        assert!(screen.text().ends_with("(1/3)\n"));
    }

    #[test]
    fn a_paused_line_is_erased_never_drawn_and_comes_back_with_its_label() {
        let screen = Screen::default();
        let status = StatusLine::new(Box::new(screen.clone()), false, Some(80));
        status.show("running exec_shell");
        status.shared.lock().draw();
        let pause = status.pause();
        let paused_at = screen.text();
        assert!(
            paused_at.contains("running exec_shell") && paused_at.ends_with("s\r\x1b[2K"),
            "{paused_at:?}"
        );
        // Draw by hand (no timing in tests): nothing appears while a question is asked.
        status.shared.lock().draw();
        let second = status.pause();
        drop(pause);
        status.shared.lock().draw();
        assert_eq!(screen.text(), paused_at);
        assert!(status.is_active());
        drop(second);
        status.shared.lock().draw();
        assert!(
            screen.text()[paused_at.len()..].contains(" running exec_shell "),
            "{:?}",
            screen.text()
        );
    }

    #[test]
    fn a_narrow_terminal_gets_a_cut_label_and_dropping_erases() {
        let screen = Screen::default();
        let status = StatusLine::new(Box::new(screen.clone()), true, Some(20));
        status.show("waiting for a-provider/with-a-very-long-model-name");
        status.shared.lock().draw();
        drop(status);
        let text = screen.text();
        assert!(text.contains("\x1b[2m⠋ waiting…"), "{text:?}");
        assert!(text.ends_with("\r\x1b[2K"), "{text:?}");
    }

    #[test]
    fn a_label_from_a_configuration_is_neutralised() {
        let screen = Screen::default();
        let status = StatusLine::new(Box::new(screen.clone()), false, None);
        status.show("waiting for evil/m\x1b]0;pwned\x07");
        status.shared.lock().draw();
        drop(status);
        let text = screen.text();
        assert!(
            text.contains("waiting for evil/m\\x1b]0;pwned\\x07 0s"),
            "{text:?}"
        );
        assert!(!text.contains('\x07'), "{text:?}");
    }
}
