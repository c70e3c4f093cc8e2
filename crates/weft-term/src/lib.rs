//! How weft shows things to a person, shared by the `weft` binary and the interactive session
//! so the two never drift apart: paths under the home directory as `~/...` ([`tilde`]), scope
//! names ([`scope_label`]), aligned columns ([`table`], [`columns`]), text shortened to a width
//! ([`cut`], [`first_line`]), control characters neutralised ([`printable`]) and UTC times
//! ([`utc_datetime`]).
//!
//! Pure functions from values to strings: nothing here prints or reads the environment.
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
mod path;
mod scope;
mod table;
mod text;
mod time;

pub use control::printable;
pub use path::tilde;
pub use scope::{scope_label, scope_root_label};
pub use table::{columns, table};
pub use text::{cut, first_line};
pub use time::utc_datetime;
