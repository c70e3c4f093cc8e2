//! What may be read, safely: hostile-safe file reads for everything weft takes from disk.
//!
//! People run weft inside repositories they did not write. A committed file can be a FIFO
//! (reading it blocks forever), a link to `/dev/zero` (never ends) or to
//! `/proc/self/environ` (the process's API keys). Every input weft reads goes through this
//! crate:
//!
//! - [`RegularFile`] / [`read_regular`]: opens without blocking, checks the type on the open
//!   handle (regular files only; FIFOs, devices and sockets are refused with a kind-specific
//!   [`ReadError`]), refuses pseudo-filesystems by their magic number (`fstatfs` on the
//!   handle, so a bind mount does not hide `/proc`), and never reads past the [`Cap`] for the
//!   kind of file, even when the file grows while it is read;
//! - [`open_within`] / [`read_within`] / [`canonical_within`]: a symbolic link must stay
//!   inside its root (a skill's directory, the agents directory);
//! - [`Directory`]: a listing through one open handle, with the directory's `(device,
//!   inode)` identity ([`DirId`]) so a walk visits every real directory once;
//! - [`FileStamp`]: size, modification and change times, inode and device, so a cache never
//!   mistakes a rewritten file for the one it saw;
//! - [`open_lock_file`]: a file to take an advisory lock on, opened without following a link
//!   or blocking on a FIFO.
//!
//! The crate takes every path as an argument, never reads the environment, and never prints.
//! It sits at the bottom of the stack (layer 0) beside `weft-types`, so every crate that reads
//! a file can use it.
//!
//! # Code map
//!
//! What may be read, safely. Every file weft takes as input goes through it, because the files come
//! from repositories the user did not write. `RegularFile::open` / `read_regular(path, cap)`:
//! `stat` first (a FIFO or device is refused before it is opened, so opening has no side effect),
//! then open with `O_NONBLOCK | O_NOCTTY`, then `fstat` and `fstatfs` on the handle: it must be the
//! same regular file, not on a pseudo-filesystem (procfs, sysfs, debugfs, cgroup, ... recognised by
//! magic number, so a bind mount of `/proc` is caught too; a path prefix would not be). Never more
//! than the `Cap` for the kind of file, also when the file grows while read. `open_within` /
//! `read_within` / `canonical_within`: a symbolic link must stay inside its root (the skill's
//! directory, the agents directory). `Directory`: a listing through one handle with the directory's
//! `(device, inode)` identity (`DirId`), its time, and a pseudo-filesystem check at every device
//! boundary; `DirHandle`: an open directory to `stat` paths relative to (a cached listing costs two
//! short `fstatat`s per skill instead of two walks of the full path). `open_lock_file`: a file to
//! take an advisory lock on, created if missing, never through a link, never blocking on a FIFO,
//! its type checked on the handle. `FileStamp`: size, modification and change times, inode and
//! device. Errors are `ReadError` (`thiserror`), each naming the path and the reason ("is a FIFO
//! (named pipe), not a regular file", "is larger than the 1 MiB limit for config files");
//! `human_size` is how sizes are written (`1 MiB`, `12.3 KiB`). The caps live with the crate that
//! owns each kind of file (`AGENT_FILE_CAP` in weft-agents, `MEMORY_CAP` in weft-tools, ...).
//! Depends on thiserror and rustix (`fs`; pure Rust, safe wrappers for `open`/`fstatfs`/`getdents`,
//! which std does not offer); no workspace crate. It sits at L0 (not L1) so that the L1 crates that
//! read files (weft-tools, weft-llm) can use it. Never reads the environment, never prints.

mod cap;
mod confine;
mod dir;
mod error;
mod lock;
mod pseudo;
mod regular;
mod stamp;

pub use cap::{Cap, human_size};
pub use confine::{canonical_within, open_within, read_within};
pub use dir::{DirHandle, Directory, Entry, EntryKind, LinkTarget};
pub use error::{FileKind, ReadError};
pub use lock::open_lock_file;
pub use regular::{RegularFile, read_regular};
pub use stamp::{DirId, FileStamp};
