//! One module per command.

pub mod agents;
pub mod compose;
pub mod run;
pub mod skills;
pub mod validate;
