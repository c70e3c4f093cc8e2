//! `--json`, the hidden alias of `--format json` that every command accepts (scripts written
//! for `sessions show --json`, or for other tools' spelling, keep working).

use weft_runtime::UsageError;

use crate::cli::{
    AgentsCommand, CatalogFormatArg, Command, ConfigCommand, HooksCommand, ListFormat,
    MarketplaceCommand, McpCommand, PluginCommand, ReportFormat, RunFormat, SandboxCommand,
    SessionsCommand, SkillsCommand,
};

/// Sets the command's output format to JSON. A command that prints no data (help, a
/// completion script) has no JSON output: that is a usage error.
pub fn apply(command: &mut Command) -> Result<(), UsageError> {
    match command {
        Command::Skills { command } => skills(command),
        Command::Agents { command } => match command {
            AgentsCommand::List(a) => a.format = ListFormat::Json,
            AgentsCommand::Show(a) => a.format = ListFormat::Json,
        },
        Command::Agent(a) => a.run.format = RunFormat::Json,
        Command::Sessions { command } => match command {
            SessionsCommand::List(a) => a.format = ListFormat::Json,
            SessionsCommand::Show(a) => a.format = ReportFormat::Json,
        },
        Command::Mcp {
            command: McpCommand::List(a),
        } => a.format = ListFormat::Json,
        Command::Hooks {
            command: HooksCommand::List(a),
        } => a.format = ListFormat::Json,
        Command::Config {
            command: ConfigCommand::Show(a),
        } => a.format = ListFormat::Json,
        Command::Doctor(a) => a.format = ListFormat::Json,
        Command::Plugin { command } => plugin(command)?,
        Command::Sandbox {
            command: SandboxCommand::Status(a),
        } => a.format = ListFormat::Json,
        Command::Mcp {
            command: McpCommand::Approve(_) | McpCommand::Revoke(_),
        }
        | Command::Help { .. }
        | Command::Completions { .. } => {
            return Err(UsageError::new(
                "--json: this command prints no data, so it has no JSON output",
            ));
        }
    }
    Ok(())
}

fn skills(command: &mut SkillsCommand) {
    match command {
        SkillsCommand::List(a) => a.format = ListFormat::Json,
        SkillsCommand::Show(a) => a.format = ListFormat::Json,
        SkillsCommand::Match(a) => a.format = ListFormat::Json,
        SkillsCommand::Catalog(a) => a.format = CatalogFormatArg::Json,
        SkillsCommand::Compose(a) => a.format = ReportFormat::Json,
        SkillsCommand::CheckTool(a) => a.format = ReportFormat::Json,
        SkillsCommand::Select(a) => a.format = ReportFormat::Json,
        SkillsCommand::Run(a) => a.run.format = RunFormat::Json,
        SkillsCommand::Validate(a) => a.format = ReportFormat::Json,
        SkillsCommand::Install(a) => a.format = ReportFormat::Json,
        SkillsCommand::Update(a) => a.format = ReportFormat::Json,
        SkillsCommand::Remove(a) => a.format = ReportFormat::Json,
        SkillsCommand::Verify(a) => a.format = ReportFormat::Json,
        SkillsCommand::Scan(a) => a.format = ReportFormat::Json,
        SkillsCommand::New(a) => a.format = ReportFormat::Json,
    }
}

fn plugin(command: &mut PluginCommand) -> Result<(), UsageError> {
    match command {
        PluginCommand::List(a) => a.format = ListFormat::Json,
        PluginCommand::Verify(a) => a.format = ReportFormat::Json,
        PluginCommand::Marketplace {
            command: MarketplaceCommand::List(a),
        } => a.format = ListFormat::Json,
        _ => {
            return Err(UsageError::new(
                "--json: of the plugin commands, `plugin list`, `plugin verify` and `plugin marketplace list` print data",
            ));
        }
    }
    Ok(())
}
