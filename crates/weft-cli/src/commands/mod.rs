//! One module per command.

pub mod agents;
pub mod compose;
pub mod config;
pub mod doctor;
pub mod front;
pub mod help;
pub mod hooks;
pub mod install;
pub mod marketplace;
pub mod mcp;
pub mod picker;
pub mod plugin;
pub mod repl;
pub mod run;
pub mod sandbox;
pub mod scaffold;
pub mod scan;
pub mod sessions;
pub mod skill_json;
pub mod skills;
pub mod turn_output;
pub mod validate;
pub mod verify;
