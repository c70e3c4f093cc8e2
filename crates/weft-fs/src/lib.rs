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
