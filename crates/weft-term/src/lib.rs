//! How weft shows things to a person, shared by the `weft` binary and the interactive session
//! so the two never drift apart: paths under the home directory as `~/...` ([`tilde`]), scope
//! names ([`scope_label`]), aligned columns fitted to a width ([`table`], [`fit_table`],
//! [`columns`]), text shortened to a width ([`cut`], [`first_line`]), UTC times
//! ([`utc_datetime`]); what a stream can show ([`Terminal`], decided from [`ColorEnv`]),
//! styling ([`paint`]), control characters made visible ([`neutralize`]), Markdown for a
//! terminal ([`MarkdownStream`]) and a status line with a spinner ([`StatusLine`]).
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

mod control;
mod markdown;
mod path;
mod scope;
mod status;
mod style;
mod table;
mod text;
mod time;

pub use control::neutralize;
pub use markdown::{MarkdownStream, render_markdown};
pub use path::tilde;
pub use scope::{scope_label, scope_root_label};
pub use status::{StatusLine, status_frame};
pub use style::{ColorEnv, Style, Terminal, paint};
pub use table::{columns, fit_table, table};
pub use text::{cut, first_line, one_line};
pub use time::utc_datetime;
