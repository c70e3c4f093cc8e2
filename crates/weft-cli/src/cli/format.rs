//! The output formats (`--format`) the commands share: a table or JSON for listings, text or
//! JSON for reports, and the three ways a turn is printed. Separate because nearly every
//! command family uses them.

use clap::ValueEnum;

/// How `weft agent` and `weft skills run` print a turn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub enum RunFormat {
    /// The answer (streamed on a terminal); tool activity on stderr.
    #[default]
    Text,
    /// One JSON object when the turn ends.
    Json,
    /// One JSON event per line as the turn goes.
    StreamJson,
}

/// How results are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// Text for people.
    Text,
    /// JSON for programs (the shape is given in the option's description).
    Json,
}

/// Table or JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    /// Aligned columns.
    // `text` too (hidden), as the commands whose default is text (`sessions show`,
    // `skills validate`) spell it.
    #[value(alias = "text")]
    Table,
    /// JSON.
    Json,
}
