//! Running a command under the real shell with `PATH` pointing at logging stubs: every program
//! name of the grammar's vocabulary is a small dash script (run by absolute path) that appends
//! its name and arguments to a log; the stubs of wrappers and shells then run the real program
//! with the same arguments, so that what they start is logged too.

use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal, kill_process_group};
use weft_shell::ShellProgram;

use super::grammar;

/// Ends each record in the log: a field of its own.
const END: u8 = 0x1e;

/// How long one command may run.
const TIMEOUT: Duration = Duration::from_secs(5);

/// A real program found on this machine.
pub fn real(name: &str) -> Option<PathBuf> {
    ["/usr/bin", "/bin", "/usr/sbin", "/sbin"]
        .iter()
        .map(|dir| Path::new(dir).join(name))
        .find(|p| p.is_file())
}

/// A temporary directory for the stubs, on a memory file system when there is one (a disk
/// makes each case several times slower), and `workers` sandboxes in it. A sandbox must work:
/// `rm probe` run by `shell` must be logged (a directory that cannot hold programs, mounted
/// `noexec`, would otherwise make every case pass).
pub fn sandboxes(
    workers: usize,
    dash: &Path,
    shell: &ShellProgram,
) -> (tempfile::TempDir, Vec<Sandbox>) {
    let shm = Path::new("/dev/shm");
    for place in [shm.is_dir().then_some(shm), None] {
        let dir = match place {
            Some(place) => tempfile::tempdir_in(place),
            None => tempfile::tempdir(),
        }
        .unwrap();
        let sandboxes: Vec<Sandbox> = (0..workers)
            .map(|w| Sandbox::new(&dir.path().join(format!("w{w}")), dash))
            .collect();
        if sandboxes[0].run(shell, "rm probe") == [vec!["rm".to_owned(), "probe".to_owned()]] {
            return (dir, sandboxes);
        }
    }
    panic!("the logging stubs do not run here");
}

/// One worker's stubs, log and scratch directory.
pub struct Sandbox {
    pub root: PathBuf,
    pub bin: PathBuf,
    log: PathBuf,
    scratch: PathBuf,
    /// The process group of the command running now (0: none), for the watchdog.
    running: Arc<AtomicI32>,
    /// Commands run so far.
    runs: AtomicU64,
}

impl Sandbox {
    /// Stubs in `root/bin`; the log `root/log`; commands run in `root/scratch`.
    pub fn new(root: &Path, dash: &Path) -> Self {
        let bin = root.join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        let log = root.join("log");
        for name in grammar::vocabulary() {
            let passing = grammar::PASSING.contains(&name);
            let target = if passing {
                // `sh` is whatever `/bin/sh` is; `time` is GNU time.
                let real = if name == "sh" {
                    Some(PathBuf::from("/bin/sh"))
                } else {
                    real(name)
                };
                match real {
                    Some(path) => Some(path),
                    None => continue, // not on this machine: the name is not found
                }
            } else {
                None
            };
            let mut script = format!(
                "#!{}\nprintf '%s\\0' \"$WEFT_DIFF_CASE\" \"${{0##*/}}\" \"$@\" '",
                dash.display()
            )
            .into_bytes();
            script.push(END);
            script.extend_from_slice(format!("' >> '{}'\n", log.display()).as_bytes());
            if let Some(target) = target {
                script
                    .extend_from_slice(format!("exec '{}' \"$@\"\n", target.display()).as_bytes());
            }
            let path = bin.join(name);
            std::fs::write(&path, script).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        Self {
            root: root.to_path_buf(),
            bin,
            log,
            scratch: root.join("scratch"),
            running: Arc::new(AtomicI32::new(0)),
            runs: AtomicU64::new(0),
        }
    }

    /// Every file and directory in the scratch directory, with its contents: what a read-only
    /// command must leave as it was.
    pub fn scratch_state(&self) -> Vec<(PathBuf, Vec<u8>)> {
        let mut out = Vec::new();
        let mut dirs = vec![self.scratch.clone()];
        while let Some(dir) = dirs.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                if entry.file_type().is_ok_and(|t| t.is_dir()) {
                    dirs.push(path.clone());
                    out.push((path, Vec::new()));
                } else {
                    let contents = std::fs::read(&path).unwrap_or_default();
                    out.push((path, contents));
                }
            }
        }
        out.sort();
        out
    }

    /// What the watchdog looks at.
    pub fn running(&self) -> Arc<AtomicI32> {
        Arc::clone(&self.running)
    }

    /// A fresh scratch directory with a few files.
    fn reset_scratch(&self) {
        let _ = std::fs::remove_dir_all(&self.scratch);
        std::fs::create_dir_all(self.scratch.join("dir")).unwrap();
        std::fs::create_dir_all(self.scratch.join("home")).unwrap();
        for file in ["a.txt", "b.txt", "dir/c.txt"] {
            std::fs::write(self.scratch.join(file), "a\n").unwrap();
        }
    }

    /// Runs `command` with `shell` and returns the calls the stubs logged, each as
    /// `[program, args...]`. Each run has a number of its own, which the stubs log: a process
    /// an earlier command left behind outside its process group (`timeout` makes a group of its
    /// own) may still write to the log, and its records are not this command's.
    pub fn run(&self, shell: &ShellProgram, command: &str) -> Vec<Vec<String>> {
        self.run_with(shell, command, || ())
    }

    /// [`run`](Self::run), calling `before` once the scratch directory is ready.
    pub fn run_with(
        &self,
        shell: &ShellProgram,
        command: &str,
        before: impl FnOnce(),
    ) -> Vec<Vec<String>> {
        let case = self.runs.fetch_add(1, Ordering::SeqCst).to_string();
        self.reset_scratch();
        before();
        let _ = std::fs::write(&self.log, b"");
        let mut child = Command::new(shell.program())
            .args(shell.argv(command))
            .current_dir(&self.scratch)
            .env_clear()
            .env("PATH", &self.bin)
            .env("HOME", self.scratch.join("home"))
            .env("LC_ALL", "C")
            .env("WEFT_DIFF_CASE", &case)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .unwrap();
        let pgid = child.id() as i32;
        self.running.store(pgid, Ordering::SeqCst);
        let _ = child.wait();
        self.running.store(0, Ordering::SeqCst);
        // What the command left running (background jobs) ends with it.
        if let Some(pid) = Pid::from_raw(pgid) {
            let _ = kill_process_group(pid, Signal::KILL);
        }
        parse_log(&std::fs::read(&self.log).unwrap_or_default(), &case)
    }
}

/// Kills the group of a command that runs longer than [`TIMEOUT`]; returns when `done`.
pub fn watchdog(workers: Vec<Arc<AtomicI32>>, done: Arc<std::sync::atomic::AtomicBool>) {
    let mut seen: Vec<(i32, Instant)> = vec![(0, Instant::now()); workers.len()];
    while !done.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(200));
        for (slot, running) in seen.iter_mut().zip(&workers) {
            let pgid = running.load(Ordering::SeqCst);
            if pgid != slot.0 {
                *slot = (pgid, Instant::now());
            } else if pgid != 0
                && slot.1.elapsed() > TIMEOUT
                && let Some(pid) = Pid::from_raw(pgid)
            {
                let _ = kill_process_group(pid, Signal::KILL);
            }
        }
    }
}

/// The records of run `case` in a log: NUL-terminated fields (the run's number, the program,
/// its arguments), each record ended by a field `END`.
fn parse_log(bytes: &[u8], case: &str) -> Vec<Vec<String>> {
    let mut fields: Vec<&[u8]> = bytes.split(|b| *b == 0).collect();
    fields.pop(); // after the last NUL: nothing (each record is one write)
    let mut records = Vec::new();
    let mut current: Vec<String> = Vec::new();
    for field in fields {
        if field == [END] {
            let record = std::mem::take(&mut current);
            if let Some((id, call)) = record.split_first()
                && id == case
            {
                records.push(call.to_vec());
            }
        } else {
            current.push(String::from_utf8_lossy(field).into_owned());
        }
    }
    records
}
