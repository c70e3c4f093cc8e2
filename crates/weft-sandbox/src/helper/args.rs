//! The helper's command line, written by the program that starts commands
//! ([`HelperArgs::to_args`]) and read by the helper (`Invocation::parse`): one format, kept
//! in one place.

use std::ffi::{OsStr, OsString};

use crate::SandboxError;

/// The arguments that select the helper: a program that serves it checks whether its
/// command line (without the program's name) starts with these ([`is_helper_call`]).
///
/// [`is_helper_call`]: crate::is_helper_call
pub const HELPER_COMMAND: [&str; 2] = ["sandbox", "exec"];

/// The option that marks the helper's second stage (see [`run_helper`](crate::run_helper)).
const APPLY: &str = "--apply";

/// How the helper is started for one kind of command: the part of its command line before
/// the command (`sandbox exec [--parent PID] [--policy JSON] --`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HelperArgs {
    /// The starting program's process id: the helper starts nothing when that process is no
    /// longer its parent (it died before the helper could follow its life).
    pub parent: Option<u32>,
    /// The policy ([`SandboxPolicy::to_json`](crate::SandboxPolicy::to_json)); without one
    /// the command runs unsandboxed, still tied to the starting program's life.
    pub policy: Option<String>,
}

impl HelperArgs {
    /// The helper's arguments up to and including `--`: the command and its arguments follow.
    ///
    /// ```
    /// let args = weft_sandbox::HelperArgs { parent: Some(42), policy: None }.to_args();
    /// assert_eq!(args, ["sandbox", "exec", "--parent", "42", "--"]);
    /// ```
    pub fn to_args(&self) -> Vec<OsString> {
        let mut args: Vec<OsString> = HELPER_COMMAND.iter().map(OsString::from).collect();
        if let Some(pid) = self.parent {
            args.push("--parent".into());
            args.push(pid.to_string().into());
        }
        if let Some(policy) = &self.policy {
            args.push("--policy".into());
            args.push(policy.into());
        }
        args.push("--".into());
        args
    }

    /// The second stage's arguments for `command`: apply `policy` and execute the command.
    pub(crate) fn second_stage(policy: &str, command: &[OsString]) -> Vec<OsString> {
        let mut args: Vec<OsString> = HELPER_COMMAND.iter().map(OsString::from).collect();
        args.extend([APPLY, "--policy", policy, "--"].map(OsString::from));
        args.extend(command.iter().cloned());
        args
    }
}

/// Whether `args`, a command line without the program's name, calls the helper.
pub fn is_helper_call(args: &[OsString]) -> bool {
    args.len() >= HELPER_COMMAND.len()
        && args
            .iter()
            .zip(HELPER_COMMAND)
            .all(|(arg, word)| arg == word)
}

/// One call of the helper, read from its command line.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Invocation {
    /// How it was started.
    pub(crate) args: HelperArgs,
    /// The second stage: apply the policy, then execute the command in place.
    pub(crate) apply: bool,
    /// The program and its arguments (never empty).
    pub(crate) command: Vec<OsString>,
}

impl Invocation {
    /// Reads a command line without the program's name ([`HELPER_COMMAND`], the options, `--`,
    /// the command).
    pub(crate) fn parse(args: &[OsString]) -> Result<Self, SandboxError> {
        if !is_helper_call(args) {
            return Err(helper_error(format!(
                "the helper's command line starts with `{}`",
                HELPER_COMMAND.join(" ")
            )));
        }
        let mut rest = args[HELPER_COMMAND.len()..].iter();
        let mut invocation = Self {
            args: HelperArgs::default(),
            apply: false,
            command: Vec::new(),
        };
        while let Some(arg) = rest.next() {
            match arg.to_str() {
                Some("--") => {
                    invocation.command = rest.cloned().collect();
                    break;
                }
                Some(APPLY) => invocation.apply = true,
                Some("--policy") => {
                    invocation.args.policy = Some(text(value(&mut rest, "--policy")?, "--policy")?)
                }
                Some("--parent") => {
                    let pid = text(value(&mut rest, "--parent")?, "--parent")?;
                    let pid = pid.parse().map_err(|_| {
                        helper_error(format!("--parent: `{pid}` is not a process id"))
                    })?;
                    invocation.args.parent = Some(pid);
                }
                _ => {
                    return Err(helper_error(format!(
                        "unexpected argument `{}` (expected --parent, --policy, --apply or `--` and the command)",
                        arg.to_string_lossy()
                    )));
                }
            }
        }
        if invocation.command.is_empty() {
            return Err(helper_error("no command after `--`".to_owned()));
        }
        if invocation.apply && invocation.args.policy.is_none() {
            return Err(helper_error("--apply needs --policy".to_owned()));
        }
        Ok(invocation)
    }
}

/// The value after `option`.
fn value<'a>(
    rest: &mut impl Iterator<Item = &'a OsString>,
    option: &str,
) -> Result<&'a OsStr, SandboxError> {
    rest.next()
        .map(OsString::as_os_str)
        .ok_or_else(|| helper_error(format!("{option} needs a value")))
}

/// `value` as text.
fn text(value: &OsStr, option: &str) -> Result<String, SandboxError> {
    value
        .to_str()
        .map(str::to_owned)
        .ok_or_else(|| helper_error(format!("{option}: the value is not UTF-8")))
}

fn helper_error(reason: String) -> SandboxError {
    SandboxError::HelperArgs(reason)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    fn parse(args: &[&str]) -> Result<Invocation, String> {
        Invocation::parse(&os(args)).map_err(|e| e.to_string())
    }

    #[test]
    fn what_the_starting_program_writes_the_helper_reads() {
        for args in [
            HelperArgs::default(),
            HelperArgs {
                parent: Some(42),
                policy: Some(r#"{"network":false}"#.to_owned()),
            },
        ] {
            let mut line = args.to_args();
            line.extend(os(&["/bin/sh", "-c", "echo --policy"]));
            assert!(is_helper_call(&line));
            assert_eq!(
                Invocation::parse(&line).unwrap(),
                Invocation {
                    args,
                    apply: false,
                    command: os(&["/bin/sh", "-c", "echo --policy"]),
                }
            );
        }
        let second = HelperArgs::second_stage("{}", &os(&["true"]));
        let invocation = Invocation::parse(&second).unwrap();
        assert!(invocation.apply);
        assert_eq!(invocation.args.policy.as_deref(), Some("{}"));
    }

    #[test]
    fn a_bad_command_line_says_what_is_wrong() {
        assert!(!is_helper_call(&os(&["sandbox"])));
        assert!(!is_helper_call(&os(&["agent", "exec"])));
        for (args, error) in [
            (&["sandbox", "exec", "--", "true"][..], None),
            (
                &["sandbox", "exec", "--"],
                Some("sandbox helper: no command after `--`"),
            ),
            (
                &["sandbox", "exec", "true"],
                Some(
                    "sandbox helper: unexpected argument `true` (expected --parent, --policy, --apply or `--` and the command)",
                ),
            ),
            (
                &["sandbox", "exec", "--policy"],
                Some("sandbox helper: --policy needs a value"),
            ),
            (
                &["sandbox", "exec", "--parent", "me", "--", "true"],
                Some("sandbox helper: --parent: `me` is not a process id"),
            ),
            (
                &["sandbox", "exec", "--apply", "--", "true"],
                Some("sandbox helper: --apply needs --policy"),
            ),
            (
                &["run", "exec", "--", "true"],
                Some("sandbox helper: the helper's command line starts with `sandbox exec`"),
            ),
        ] {
            assert_eq!(parse(args).err().as_deref(), error, "{args:?}");
        }
    }
}
