//! One module per command.

pub mod skills;
pub mod validate;
