//! `cargo xtask hostile-checkout`: a project tree holding the traps of issue 13, to point weft
//! at and check that every command finishes, refuses what it must, and leaks nothing.
//!
//! Each trap is one entry of [`TRAPS`]: an id, the issue item it belongs to, what it is, and
//! the function that lays it out. A later trap is one more entry. The main project
//! (`DIR/.claude`, `DIR/.clawft`) holds every trap that can share a tree; the configuration
//! traps each need their own `config.json`, so each gets a sub-project (`DIR/config-*/`).
//!
//! The tree is deterministic. It is only for tests and manual runs: it holds FIFOs and links
//! to `/dev/zero`, `/proc/self/environ`, `/` and `/sys`, so never `cp -r` or `cat` it blindly.
//!
//! The CLI tests include this file (`#[path]`), so they exercise exactly the traps documented
//! here.

use std::fs;
use std::path::Path;

use anyhow::{Context as _, Result, bail};

/// Marker written at the root of a generated tree: `--force` only replaces such a tree.
pub const MARKER_FILE: &str = ".weft-hostile-checkout";

/// A skill file exactly as a careful author would write it: the traps only change how it is
/// reached, never its content.
pub const PLAIN_SKILL: &str = "---\nname: plain\ndescription: An ordinary skill next to the traps\n---\n\nDo the plain thing.\n";

/// The skill the "rewrite" trap starts from; [`REWRITTEN_SKILL`] is the same size.
pub const REWRITE_SKILL: &str = "---\nname: rewrite-me\ndescription: Its tools change under a restored mtime\nallowed-tools: Bash\n---\n\nRun it.\n";

/// What the "rewrite" test step writes over [`REWRITE_SKILL`]: same length, tools narrowed.
pub const REWRITTEN_SKILL: &str = "---\nname: rewrite-me\ndescription: Its tools change under a restored mtime\nallowed-tools: Read\n---\n\nRun it.\n";

// The rewrite must keep the size, or the size alone would give it away.
const _: () = assert!(REWRITE_SKILL.len() == REWRITTEN_SKILL.len());

/// Number of directories in the link ladder, and links per rung: `d_i/l1..l12 -> ../d_{i+1}`.
pub const LADDER_RUNGS: usize = 7;
/// Links per rung of the ladder.
pub const LADDER_LINKS: usize = 12;

/// One trap.
pub struct Trap {
    /// Short id, used in `--list` and the README.
    pub id: &'static str,
    /// The item of issue 13 it belongs to.
    pub item: u8,
    /// Where it is and what it does.
    pub what: &'static str,
    /// Lays the trap out under the tree's root.
    pub build: fn(&Path) -> Result<()>,
}

/// Every trap, in the order they are laid out.
pub const TRAPS: &[Trap] = &[
    Trap {
        id: "fifo-skill",
        item: 1,
        what: ".claude/skills/fifo/SKILL.md is a FIFO (reading it blocks forever)",
        build: |root| mkfifo(&root.join(".claude/skills/fifo/SKILL.md")),
    },
    Trap {
        id: "fifo-agent",
        item: 1,
        what: ".clawft/agents/x.md is a FIFO",
        build: |root| mkfifo(&root.join(".clawft/agents/x.md")),
    },
    Trap {
        id: "fifo-config",
        item: 1,
        what: "config-fifo/.clawft/config.json is a FIFO",
        build: |root| mkfifo(&root.join("config-fifo/.clawft/config.json")),
    },
    Trap {
        id: "zero-skill",
        item: 1,
        what: ".claude/skills/zero/SKILL.md -> /dev/zero (never ends)",
        build: |root| link("/dev/zero", &root.join(".claude/skills/zero/SKILL.md")),
    },
    Trap {
        id: "zero-agent",
        item: 1,
        what: ".clawft/agents/zero.md -> /dev/zero",
        build: |root| link("/dev/zero", &root.join(".clawft/agents/zero.md")),
    },
    Trap {
        id: "zero-config",
        item: 1,
        what: "config-zero/.clawft/config.json -> /dev/zero",
        build: |root| link("/dev/zero", &root.join("config-zero/.clawft/config.json")),
    },
    Trap {
        id: "environ-skill",
        item: 2,
        what: ".claude/skills/helper/SKILL.md -> /proc/self/environ (the reader's API keys)",
        build: |root| {
            link(
                "/proc/self/environ",
                &root.join(".claude/skills/helper/SKILL.md"),
            )
        },
    },
    Trap {
        id: "environ-agent",
        item: 2,
        what: ".clawft/agents/default.md -> /proc/self/environ (replaces the default agent)",
        build: |root| {
            link(
                "/proc/self/environ",
                &root.join(".clawft/agents/default.md"),
            )
        },
    },
    Trap {
        id: "environ-config",
        item: 2,
        what: "config-environ/.clawft/config.json -> /proc/self/environ",
        build: |root| {
            link(
                "/proc/self/environ",
                &root.join("config-environ/.clawft/config.json"),
            )
        },
    },
    Trap {
        id: "ladder",
        item: 2,
        what: ".claude/skills/ladder/d_0..d_7: d_i/l1..l12 -> ../d_{i+1}, 84 links, no cycle \
               (12^6 paths to d_7/SKILL.md without a visited set)",
        build: ladder,
    },
    Trap {
        id: "root-link",
        item: 2,
        what: ".claude/skills/root -> / (a walk of the whole machine)",
        build: |root| link("/", &root.join(".claude/skills/root")),
    },
    Trap {
        id: "sys-link",
        item: 2,
        what: ".claude/skills/sys -> /sys (a pseudo-filesystem)",
        build: |root| link("/sys", &root.join(".claude/skills/sys")),
    },
    Trap {
        id: "rewrite",
        item: 7,
        what: ".claude/skills/rewrite-me/SKILL.md allows Bash; the test step rewrites it to the \
               same size allowing only Read and restores its mtime (see REWRITTEN_SKILL)",
        build: |root| {
            write(
                &root.join(".claude/skills/rewrite-me/SKILL.md"),
                REWRITE_SKILL.as_bytes(),
            )
        },
    },
    Trap {
        id: "late-utf8",
        item: 7,
        what: ".claude/skills/late-utf8/SKILL.md: valid frontmatter, invalid UTF-8 after 4 KiB",
        build: late_utf8,
    },
    Trap {
        id: "non-utf8-dir",
        item: 7,
        what: ".claude/skills/bad-\\xff-name/SKILL.md: a directory name that is not UTF-8",
        build: non_utf8_dir,
    },
];

/// The non-UTF-8 directory name of the `non-utf8-dir` trap.
pub const NON_UTF8_NAME: &[u8] = b"bad-\xff-name";

/// Lays out every trap under `out`, plus an ordinary skill and a README. `force` replaces a
/// tree written earlier by this command (recognised by [`MARKER_FILE`]); anything else at
/// `out` is never deleted.
pub fn generate(out: &Path, force: bool) -> Result<usize> {
    prepare(out, force)?;
    write(
        &out.join(MARKER_FILE),
        b"generated by cargo xtask hostile-checkout\n",
    )?;
    write(
        &out.join(".claude/skills/plain/SKILL.md"),
        PLAIN_SKILL.as_bytes(),
    )?;
    fs::create_dir_all(out.join(".clawft"))?;
    for trap in TRAPS {
        (trap.build)(out).with_context(|| format!("laying out trap `{}`", trap.id))?;
    }
    write(&out.join("README.md"), readme().as_bytes())?;
    Ok(TRAPS.len())
}

/// The README of a generated tree: one line per trap.
pub fn readme() -> String {
    let mut text = String::from(
        "# A hostile checkout\n\nGenerated by `cargo xtask hostile-checkout`. Every entry below is a trap weft must \
         survive: finish, refuse with a diagnostic, leak nothing.\n\n",
    );
    for trap in TRAPS {
        text.push_str(&format!(
            "- `{}` (item {}): {}\n",
            trap.id, trap.item, trap.what
        ));
    }
    text
}

/// Creates `out`, or empties it when it is an earlier tree and `force` is given.
fn prepare(out: &Path, force: bool) -> Result<()> {
    match fs::symlink_metadata(out) {
        Err(_) => {}
        Ok(_) if !force => bail!(
            "{} exists (use --force to replace a tree written earlier)",
            out.display()
        ),
        Ok(_) if !out.join(MARKER_FILE).is_file() => bail!(
            "{} exists and is not a tree written by this command; not replacing it",
            out.display()
        ),
        // `remove_dir_all` does not follow links: the links to `/` and `/sys` are removed,
        // not what they point at.
        Ok(_) => fs::remove_dir_all(out).with_context(|| format!("removing {}", out.display()))?,
    }
    fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))
}

fn parent_dirs(path: &Path) -> Result<()> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    Ok(())
}

fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    parent_dirs(path)?;
    fs::write(path, bytes).with_context(|| format!("writing {}", path.display()))
}

#[cfg(unix)]
fn link(target: &str, path: &Path) -> Result<()> {
    parent_dirs(path)?;
    std::os::unix::fs::symlink(target, path)
        .with_context(|| format!("linking {} -> {target}", path.display()))
}

#[cfg(not(unix))]
fn link(_target: &str, path: &Path) -> Result<()> {
    bail!(
        "{}: the hostile checkout needs a Unix system",
        path.display()
    )
}

/// A FIFO, made by `mkfifo(1)` (the standard library has no call for it).
fn mkfifo(path: &Path) -> Result<()> {
    parent_dirs(path)?;
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .context("running mkfifo")?;
    if !status.success() {
        bail!("mkfifo {} failed", path.display());
    }
    Ok(())
}

fn ladder(root: &Path) -> Result<()> {
    let base = root.join(".claude/skills/ladder");
    for rung in 0..=LADDER_RUNGS {
        fs::create_dir_all(base.join(format!("d_{rung}")))?;
    }
    for rung in 0..LADDER_RUNGS {
        for l in 1..=LADDER_LINKS {
            let target = format!("../d_{}", rung + 1);
            link(&target, &base.join(format!("d_{rung}/l{l}")))?;
        }
    }
    write(
        &base.join(format!("d_{LADDER_RUNGS}/SKILL.md")),
        b"---\nname: ladder-top\ndescription: Reached through 12^6 paths of links\n---\n\nTop.\n",
    )
}

fn late_utf8(root: &Path) -> Result<()> {
    let mut text =
        b"---\nname: late-utf8\ndescription: Valid until after the first 4 KiB\n---\n\n".to_vec();
    while text.len() < 5000 {
        text.extend_from_slice(b"Padding line of plain text.\n");
    }
    text.extend_from_slice(b"\xff\xfe broken\n");
    write(&root.join(".claude/skills/late-utf8/SKILL.md"), &text)
}

#[cfg(unix)]
fn non_utf8_dir(root: &Path) -> Result<()> {
    use std::os::unix::ffi::OsStrExt as _;
    let dir: std::path::PathBuf = root
        .join(".claude/skills")
        .join(std::ffi::OsStr::from_bytes(NON_UTF8_NAME));
    write(
        &dir.join("SKILL.md"),
        b"---\nname: bad-name\ndescription: Lives in a directory whose name is not UTF-8\n---\n\nHi.\n",
    )
}

#[cfg(not(unix))]
fn non_utf8_dir(root: &Path) -> Result<()> {
    bail!(
        "{}: the hostile checkout needs a Unix system",
        root.display()
    )
}
