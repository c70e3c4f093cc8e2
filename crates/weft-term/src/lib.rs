//! How weft shows things to a person, shared by the `weft` binary and the interactive session
//! so the two never drift apart: paths under the home directory as `~/...` ([`tilde`]), scope
//! names ([`scope_label`]), aligned columns fitted to a width ([`table`], [`fit_table`],
//! [`columns`], [`fit_columns`]), `Label: value` lines ([`fields`]), counted nouns
//! ([`plural`]), text shortened to a width ([`cut`], [`first_line`]), UTC times
//! ([`utc_datetime`]), token counts and money ([`tokens`], [`dollars`]); text from files, models and servers with its terminal controls made
//! visible ([`neutralise`], the [`Neutralising`] writer, [`escape_json_controls`] for JSON);
//! what a stream can show ([`Terminal`], decided from [`ColorEnv`]), and weft's own styling
//! on top of neutralised text ([`paint`], Markdown for a terminal with [`MarkdownStream`], a
//! status line with a spinner with [`StatusLine`]).
//!
//! Nothing here reads the environment (the caller passes what it found) or picks an output:
//! everything returns strings, except [`StatusLine`], which writes to the writer it is given.
//!
//! ```
//! use weft_term::{table, tilde};
//! use std::path::Path;
//!
//! assert_eq!(tilde(Path::new("/home/u/.clawft"), Some(Path::new("/home/u"))), "~/.clawft");
//! let rows = vec![vec!["a".to_owned(), "first".to_owned()]];
//! assert_eq!(table(&["NAME", "NOTE"], &rows), "NAME  NOTE\na     first\n");
//! ```
//!
//! # Code map
//!
//! How weft shows things to a person, shared by weft-cli and weft-repl so the two never drift:
//! `path.rs` (`tilde`: `~/...` under the home directory), `scope.rs` (`scope_label`, seed 002's
//! `built-in`; `scope_root_label`, the help's words for skill roots), `table.rs` (`table` with a
//! header, `columns` without, `fit_table` and `fit_columns` fitted to a width: the widest columns
//! narrowed first, the naming first column last, full text when there is no width; every cell one
//! line (line ends and tabs become spaces) and neutralised; the CLI's tables, `weft doctor`'s
//! lines, the REPL's listings and the help's lists all use them), `text.rs` (`cut`, `one_line`,
//! `first_line`, `plural`, `fields`: `Label: value` lines), `time.rs` (`utc_datetime`, on
//! weft-types' `UtcTime`). `neutral.rs`: the terminal neutraliser, the only one — `neutralise` (a
//! string), `Neutralising` (a `Write` adapter that also sees through characters and CR-LF pairs
//! split across writes, and shows bytes that are not UTF-8 as `\xHH`) and `escape_json_controls`
//! (the same characters as `\uXXXX` in JSON text): every `weft_types::is_terminal_control`
//! character (C0 but tab and LF, DEL, C1, bidi embeddings, overrides and isolates; the implicit
//! marks LRM, RLM and ALM are kept, right-to-left text needs them) shown as a visible escape
//! (`\x1b`, `\u{202e}`), a CR kept only before LF. For styled text it has two more forms:
//! `neutralise_styled` (a terminal: weft's own SGR and erase-line sequences and CRs kept, any other
//! control neutralised, so a caller that forgot to neutralise content lets at most a colour
//! through) and `unstyle` (a pipe: weft's sequences dropped). `style.rs`: the terminal-capability
//! decision for a stream, `Terminal { tty, color, live, width }` from what the caller found
//! (`is_terminal`, the width) and `ColorEnv` (`NO_COLOR`, `CLICOLOR_FORCE`, `CLICOLOR`,
//! `TERM=dumb`, read by the caller; a pipe never gets colour, `CLICOLOR_FORCE` only overrides
//! `CLICOLOR=0` and `TERM=dumb` on a terminal), `paint` with styles that end only themselves (no
//! `\x1b[0m` cancelling an outer style), and `StyledWrite`, a `Write` whose plain writes are
//! content (neutralised by the writer) with a `write_styled` for text weft styled itself around
//! neutralised content. `markdown.rs`: `MarkdownStream`, a line-by-line renderer (headings,
//! emphasis, inline code, fenced blocks, lists, quotes, rules, links) that follows a streamed
//! answer; it neutralises each line before adding its own escapes. A whole-document renderer
//! (termimad, or pulldown-cmark plus a terminal half) would hold a streamed answer back until its
//! end. `status.rs`: `StatusLine`, a spinner with a label (neutralised) and the elapsed time
//! redrawn in place by a thread of its own (`\r` + erase line, cut to the width so it never wraps),
//! cleared before anything else is written, through `write_styled`; `StatusLine::pause` hides it,
//! label kept, while a question (the approval prompt) waits on the terminal, and it counts again
//! from the answer. Depends on `weft-types` only. Never reads the environment and never picks an
//! output: everything returns strings except `Neutralising` and `StatusLine`, which write to the
//! writer their caller gives them (the CLI gives the status line stderr, only when stderr is a live
//! terminal).

mod amount;
mod markdown;
mod neutral;
mod path;
mod scope;
mod status;
mod style;
mod table;
mod text;
mod time;

pub use amount::{dollars, tokens};
pub use markdown::{MarkdownStream, render_markdown};
pub use neutral::{Neutralising, escape_json_controls, neutralise, neutralise_styled, unstyle};
pub use path::tilde;
pub use scope::{scope_label, scope_root_label};
pub use status::{StatusLine, StatusPause, status_frame};
pub use style::{ColorEnv, Style, StyledWrite, Terminal, paint};
pub use table::{columns, fit_columns, fit_table, table};
pub use text::{cut, fields, first_line, one_line, plural};
pub use time::utc_datetime;
