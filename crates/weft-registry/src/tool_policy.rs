//! A skill's tool policy (`allowed-tools`, `forbidden-tools`), compiled once, when the skill
//! is found: the one validator of tool patterns. Discovery, `weft skills validate` and
//! registration all compile through [`compile`], so a pattern that does not compile
//! (`WebFetch(example.com)`, `Bash()`) is the same `E132` everywhere (listed, shown, composed,
//! run), and a session activating the skill reuses the compiled policy instead of compiling
//! again.

use std::path::Path;

use weft_parse::{ParseOptions, Profile, Rule};
use weft_permissions::{PatternContext, Policy, PolicyError};
use weft_types::{Diagnostic, Skill};

/// Compiles `skill`'s tool lists with `ctx` (the project directory; the skill's own
/// directory is added for `${CLAUDE_SKILL_DIR}`). A pattern that does not compile is an
/// `E132` on `file` (at the line of the list that holds it, when the file can be read again)
/// under `profile`; `None` under a profile that does not report the rule.
pub(crate) fn compile(
    skill: &Skill,
    file: Option<&Path>,
    ctx: &PatternContext,
    profile: Profile,
) -> Result<Policy, Option<Diagnostic>> {
    // Most skills name no tools: nothing to compile and nothing to allocate, which keeps a
    // listing of thousands of skills as fast as before.
    if skill.tools.allow.is_none() && skill.tools.deny.is_empty() {
        return Ok(Policy::unrestricted());
    }
    Policy::from_skill(skill, ctx).map_err(|e| diagnostic(skill, file, &e, profile))
}

/// The `E132` for `error`: which list holds the pattern, what is wrong with it.
fn diagnostic(
    skill: &Skill,
    file: Option<&Path>,
    error: &PolicyError,
    profile: Profile,
) -> Option<Diagnostic> {
    let pattern = &error.error.pattern;
    let in_allow = skill
        .tools
        .allow
        .iter()
        .flatten()
        .any(|p| p.trim() == pattern);
    let (key, spellings): (&str, &[&str]) = if in_allow {
        ("allowed-tools", &["allowed-tools", "allowed_tools"])
    } else {
        (
            "forbidden-tools",
            &[
                "forbidden-tools",
                "forbidden_tools",
                "disallowed-tools",
                "disallowed_tools",
            ],
        )
    };
    let d = Rule::MalformedToolPattern.diagnostic(
        profile,
        format!(
            "`{key}` pattern `{pattern}` does not compile: {}; the skill's tools cannot be determined",
            error.error.kind
        ),
    )?;
    let Some(file) = file else {
        return Some(d);
    };
    let position = list_position(file, spellings);
    Some(d.with_path(file).at_opt(position))
}

/// Where the list spelled one of `spellings` starts in the SKILL.md at `file` (read again,
/// as the skill was: a regular file under the cap; only when a pattern failed).
fn list_position(file: &Path, spellings: &[&str]) -> Option<weft_types::Position> {
    let dir = file.parent()?;
    let cap = crate::read::skill_file_cap(&ParseOptions::new(Profile::Load));
    let bytes = weft_fs::read_within(file, dir, cap).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    spellings
        .iter()
        .find_map(|key| weft_parse::skill_md::key_position(&text, key))
}

/// The tools `policy`'s allow list names one by one (canonical: `Read` is `read_file`) that
/// `has_tool` says are missing. Globs and MCP server patterns name no one tool and are never
/// missing; nor is a tool of Claude Code, OpenClaw or Codex that weft does not have at all
/// (`TodoWrite`, `WebSearch`, `AskUserQuestion`: `W136` says it grants nothing here). No
/// session could ever have one, and in Claude Code `allowed-tools` only pre-approves, so a
/// command naming one (as many of Anthropic's own plugins' do) still works there, and here
/// with the tools it names that weft has.
pub(crate) fn missing_tools(policy: &Policy, has_tool: &dyn Fn(&str) -> bool) -> Vec<String> {
    use weft_types::tool_names::{CLAUDE_CODE_ONLY_TOOLS, OTHER_RUNTIME_TOOLS};
    let mut missing: Vec<String> = Vec::new();
    for (pattern, _) in policy.allow().into_iter().flat_map(|set| set.iter()) {
        if let Some(tool) = pattern.tool()
            && !has_tool(tool)
            && !CLAUDE_CODE_ONLY_TOOLS.contains(&tool)
            && !OTHER_RUNTIME_TOOLS.contains(&tool)
            && !missing.iter().any(|m| m == tool)
        {
            missing.push(tool.to_owned());
        }
    }
    missing
}

#[cfg(test)]
mod tests {
    use super::*;
    use weft_types::{Scope, ToolPolicy};

    #[test]
    fn a_pattern_that_does_not_compile_names_its_list_and_reason() {
        let mut skill = Skill::in_memory("fetchy", "Fetches", Scope::User);
        skill.tools = ToolPolicy::allow_only(["Read", "WebFetch(example.com)"]);
        let d = compile(&skill, None, &PatternContext::new(), Profile::Load)
            .unwrap_err()
            .unwrap();
        assert_eq!(d.code, "E132");
        assert!(
            d.message.starts_with(
                "`allowed-tools` pattern `WebFetch(example.com)` does not compile: a WebFetch specifier is `domain:<host>`"
            ),
            "{}",
            d.message
        );
    }

    #[test]
    fn missing_tools_are_the_named_ones_the_session_lacks() {
        let mut skill = Skill::in_memory("s", "S", Scope::User);
        skill.tools = ToolPolicy::allow_only([
            "Read",
            "specKit",
            "github__*",
            "WebSearch",
            "TodoWrite",
            "mcp__gh__comment",
        ]);
        let policy = compile(&skill, None, &PatternContext::new(), Profile::Load).unwrap();
        let has = |t: &str| t == "read_file";
        // Claude Code's `WebSearch` and `TodoWrite` no session of weft has: never missing.
        assert_eq!(missing_tools(&policy, &has), ["specKit", "gh__comment"]);
    }
}
