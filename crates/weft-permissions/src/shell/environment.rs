//! Environment variables that change what a program runs or loads (`LD_PRELOAD=`,
//! `GIT_SSH_COMMAND=`, `PATH=`...): setting one is risky.

/// Environment variables that change what a program runs or loads.
const RISKY_ENV: &[&str] = &[
    "PATH",
    "BASH_ENV",
    "ENV",
    "SHELLOPTS",
    "BASHOPTS",
    "PS4",
    "PROMPT_COMMAND",
    "IFS",
    "SHELL",
    "PAGER",
    "GIT_PAGER",
    "MANPAGER",
    "EDITOR",
    "VISUAL",
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "GIT_SSH",
    "GIT_SSH_COMMAND",
    "GIT_EXTERNAL_DIFF",
    "GIT_EXEC_PATH",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
    "GIT_CONFIG",
    "GIT_CONFIG_COUNT",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
    "GIT_TEMPLATE_DIR",
    "GIT_PROXY_COMMAND",
    "LESSOPEN",
    "LESSCLOSE",
    "PYTHONPATH",
    "PYTHONSTARTUP",
    "PYTHONHOME",
    "NODE_OPTIONS",
    "NODE_PATH",
    "PERL5OPT",
    "PERL5LIB",
    "PERLLIB",
    "RUBYOPT",
    "RUBYLIB",
    "RUSTC",
    "RUSTDOC",
    "CC",
    "CXX",
    "MAKEFLAGS",
];
const RISKY_ENV_PREFIXES: &[&str] = &[
    "LD_",
    "DYLD_",
    "GIT_CONFIG_KEY_",
    "GIT_CONFIG_VALUE_",
    "BASH_FUNC_",
    "npm_config_",
    "NPM_CONFIG_",
];

/// Why setting `name` is risky, if it is.
pub(super) fn env_risk(name: &str) -> Option<String> {
    let risky = RISKY_ENV.contains(&name)
        || RISKY_ENV_PREFIXES.iter().any(|p| name.starts_with(p))
        || name.ends_with("_RUNNER")
        || name.ends_with("_WRAPPER");
    risky.then(|| format!("`{name}=` changes what programs run or load"))
}
