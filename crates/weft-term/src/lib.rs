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
