//! One module per command.

pub mod compose;
pub mod skills;
pub mod validate;
