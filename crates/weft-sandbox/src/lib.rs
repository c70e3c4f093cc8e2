//! An OS sandbox for the commands weft runs (`exec_shell`), on Linux.
//!
//! - [`SandboxPolicy`] says what a command may do: write only beneath its writable roots,
//!   read anything except the denied paths, and use the network or not.
//!   [`SandboxPolicy::apply_to_current_process`] enforces it on the calling process with
//!   Landlock (file system; TCP as a second network layer) and a seccomp filter (no socket
//!   but `AF_UNIX` when the network is off). The restrictions are inherited by everything the
//!   process executes, so the intended use is a small helper that applies the policy and then
//!   `exec`s the command. The policy travels to that helper as JSON
//!   ([`SandboxPolicy::to_json`]).
//! - [`run_helper`] is that helper: it ties the command and everything it starts to the
//!   starting program's life, applies the policy in a second stage and exits as the command
//!   did. The executable that starts commands serves it: when its command line (without the
//!   program's name) starts with [`HELPER_COMMAND`] (`sandbox exec`, see [`is_helper_call`]),
//!   `main` hands it to [`run_helper`] first thing; [`HelperArgs`] writes that command line.
//!   weft's binary does this; so can any program embedding weft (docs/SANDBOX.md, "In another
//!   program").
//! - [`probe`] reports what the kernel offers ([`SandboxStatus`]) and whether a policy can be
//!   enforced here.
//! - [`EnvScrub`] builds a child's environment without secrets (`*_API_KEY`, `*_TOKEN`, ...).
//! - [`SandboxSettings`] is the `sandbox` section of the configuration, resolved into a
//!   policy against the locations the caller passes ([`PolicyBase`]).
//!
//! The library never reads the environment or the home directory on its own and never
//! prints (the helper writes its reports to the writer its caller passes). Landlock only grants, so "read anything except" is built by granting every
//! sibling along the way to each denied path (see `docs/SANDBOX.md`).
//!
//! # Code map
//!
//! The OS sandbox for commands (docs/SANDBOX.md). `policy.rs`: `SandboxPolicy` (writable roots,
//! denied paths, network on/off; JSON for the helper's command line) and
//! `apply_to_current_process`, which restricts the calling process irreversibly: `capabilities.rs`
//! empties every capability set, `landlock_fs.rs` builds the Landlock ruleset (all file-system
//! rights of ABI 7 handled; TCP and abstract-socket rules and the signal scope on kernels that have
//! them), `network.rs` the seccomp filter (`socket`/`socketpair` other than `AF_UNIX` and io_uring
//! fail with `EACCES`). `carve.rs` turns "read everything except" into grants (every sibling along
//! the way to a denied path). `probe.rs`: `probe()` → `SandboxStatus` (Landlock ABI, seccomp, user
//! namespaces) and `missing_for(network)`. `env.rs`: `EnvScrub`, the secret-free child environment
//! (pure). `settings.rs`: `SandboxSettings`, the `sandbox` config section, resolved into a policy
//! against the locations the caller passes (`PolicyBase`). `helper/`: `run_helper`, the helper's
//! two stages (`mod.rs`: parent-death signal, subreaper, supervision on a current-thread tokio
//! runtime, the second stage's policy and `exec`) and its command line (`args.rs`: `HelperArgs`
//! written by weft-runtime's launchers, `Invocation` read back, `is_helper_call`).
//! `reaper.rs`: the subreaper, descriptor closing and `end_descendants`; `watch.rs`:
//! `ReadOnlyWatch`. Depends on `landlock`, `seccompiler`, `rustix` (capabilities, signals),
//! `close_fds`, `libc` (constants only), serde, serde_json, thiserror, tokio (the helper's
//! wait), tracing; no workspace crate. Never reads the environment or `~`, never prints; the only files it
//! reads are the directories it carves and `/proc/sys` for the probe. The tests run a probe binary
//! (`tests/support/sandbox_probe.rs`) that applies a policy and tries one operation, and
//! serves the helper as an embedding program would.

mod backups;
mod capabilities;
mod carve;
mod env;
mod error;
mod helper;
mod landlock_fs;
mod mount_ns;
mod network;
mod policy;
mod probe;
mod reaper;
mod settings;
mod watch;

pub use env::{EnvScrub, SECRET_SUFFIXES, is_secret_name};
pub use error::SandboxError;
pub use helper::{HELPER_COMMAND, HELPER_FAILED, HelperArgs, is_helper_call, run_helper};
pub use policy::{Enforcement, ReadOnlyBy, SandboxPolicy};
pub use probe::{LandlockSupport, SandboxStatus, probe};
pub use reaper::{become_subreaper, close_inherited_descriptors, end_descendants};
pub use settings::{DEFAULT_DENY_READ, PolicyBase, SandboxSettings};
pub use watch::{QUARANTINE_SUFFIX, ReadOnlyWatch, Restored};
