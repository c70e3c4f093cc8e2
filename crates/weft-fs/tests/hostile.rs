//! The traps of a hostile checkout, one by one: each read must finish, refuse with the right
//! reason, and never return more than the cap.

#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write as _;
use std::os::unix::fs::symlink;
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use weft_fs::{
    Cap, Directory, EntryKind, FileKind, LinkTarget, ReadError, RegularFile, open_within,
    read_regular, read_within,
};

const CAP: Cap = Cap::new(64 * 1024, "test files");

/// Runs `f` on another thread and fails the test if it does not finish in time (a FIFO that
/// blocks must fail the test, not hang it).
fn finishes<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(10))
        .expect("the read blocked")
}

fn mkfifo(path: &Path) {
    rustix::fs::mkfifoat(
        rustix::fs::CWD,
        path,
        rustix::fs::Mode::from_raw_mode(0o600),
    )
    .unwrap();
}

#[test]
fn a_fifo_is_refused_without_blocking() {
    let tmp = tempfile::tempdir().unwrap();
    let fifo = tmp.path().join("SKILL.md");
    mkfifo(&fifo);
    let err = finishes(move || read_regular(&fifo, CAP)).unwrap_err();
    assert!(
        matches!(
            err,
            ReadError::NotRegular {
                kind: FileKind::Fifo,
                ..
            }
        ),
        "{err}"
    );
    assert!(
        err.to_string()
            .ends_with("SKILL.md: is a FIFO (named pipe), not a regular file")
    );
}

#[test]
fn a_fifo_inside_the_root_is_refused_by_open_within() {
    let tmp = tempfile::tempdir().unwrap();
    let fifo = tmp.path().join("agent.md");
    mkfifo(&fifo);
    let root = tmp.path().to_path_buf();
    let err = finishes(move || open_within(&fifo, &root, CAP).map(|_| ())).unwrap_err();
    assert!(matches!(
        err,
        ReadError::NotRegular {
            kind: FileKind::Fifo,
            ..
        }
    ));
}

#[test]
fn dev_zero_through_a_link_is_refused_as_a_device() {
    let tmp = tempfile::tempdir().unwrap();
    let link = tmp.path().join("config.json");
    symlink("/dev/zero", &link).unwrap();
    let err = finishes(move || read_regular(&link, CAP)).unwrap_err();
    assert!(matches!(
        err,
        ReadError::NotRegular {
            kind: FileKind::CharDevice,
            ..
        }
    ));
}

#[cfg(target_os = "linux")]
#[test]
fn proc_self_environ_is_refused_as_a_pseudo_file() {
    let tmp = tempfile::tempdir().unwrap();
    let link = tmp.path().join("SKILL.md");
    symlink("/proc/self/environ", &link).unwrap();
    // Followed (no root to stay in): the type is "regular", the file system is not.
    let err = read_regular(&link, CAP).unwrap_err();
    assert!(
        matches!(
            err,
            ReadError::PseudoFilesystem {
                filesystem: "proc",
                ..
            }
        ),
        "{err}"
    );
    assert!(err.reason().contains("pseudo-filesystem (proc)"));
    // Inside a root, the link is refused before anything is opened.
    let err = read_within(&link, tmp.path(), CAP).unwrap_err();
    assert!(matches!(err, ReadError::OutsideRoot { .. }), "{err}");
    // And a /sys file directly.
    if Path::new("/sys/kernel/uevent_seqnum").exists() {
        let err = read_regular(Path::new("/sys/kernel/uevent_seqnum"), CAP).unwrap_err();
        assert!(matches!(
            err,
            ReadError::PseudoFilesystem {
                filesystem: "sysfs",
                ..
            }
        ));
    }
}

#[test]
fn a_socket_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("sock");
    let _listener = std::os::unix::net::UnixListener::bind(&path).unwrap();
    let err = finishes(move || read_regular(&path, CAP)).unwrap_err();
    assert!(matches!(
        err,
        ReadError::NotRegular {
            kind: FileKind::Socket,
            ..
        }
    ));
}

#[test]
fn a_directory_is_not_a_file() {
    let tmp = tempfile::tempdir().unwrap();
    let err = read_regular(tmp.path(), CAP).unwrap_err();
    assert!(matches!(
        err,
        ReadError::NotRegular {
            kind: FileKind::Directory,
            ..
        }
    ));
}

#[test]
fn a_file_larger_than_the_cap_is_refused_before_reading() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("big");
    std::fs::write(&path, vec![b'a'; 10_000]).unwrap();
    let small = Cap::new(1_000, "agent files");
    let err = read_regular(&path, small).unwrap_err();
    assert_eq!(
        err.reason(),
        "is larger than the 1000 bytes limit for agent files"
    );
    // Exactly at the cap is fine.
    assert_eq!(
        read_regular(&path, Cap::new(10_000, "x")).unwrap().len(),
        10_000
    );
}

#[test]
fn a_file_that_grows_while_read_stops_at_the_cap() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("growing");
    std::fs::write(&path, vec![b'a'; 100]).unwrap();
    let cap = Cap::new(1_000, "logs");
    let mut file = RegularFile::open(&path, cap).unwrap();
    assert_eq!(file.len(), 100);
    // Another writer appends well past the cap after the open.
    std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap()
        .write_all(&vec![b'b'; 5_000])
        .unwrap();
    let mut buf = Vec::new();
    let err = file.read_rest(&mut buf).unwrap_err();
    assert!(matches!(err, ReadError::TooLarge { .. }), "{err}");
    assert!(buf.len() <= 1_001, "read {} bytes", buf.len());
}

#[test]
fn a_whole_read_takes_the_file_as_it_was_opened() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("growing");
    std::fs::write(&path, vec![b'a'; 100]).unwrap();
    let file = RegularFile::open(&path, Cap::new(1_000, "logs")).unwrap();
    std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap()
        .write_all(&vec![b'b'; 5_000])
        .unwrap();
    assert_eq!(file.read_all().unwrap(), vec![b'a'; 100]);
}

#[test]
fn chunks_add_up_to_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("f");
    std::fs::write(&path, b"0123456789").unwrap();
    let mut file = RegularFile::open(&path, CAP).unwrap();
    let mut buf = Vec::new();
    assert_eq!(file.read_chunk(&mut buf, 4).unwrap(), 4);
    assert_eq!(file.read_chunk(&mut buf, 4).unwrap(), 4);
    file.read_rest(&mut buf).unwrap();
    assert_eq!(buf, b"0123456789");
    assert_eq!(file.read_chunk(&mut buf, 4).unwrap(), 0);
}

#[test]
fn links_inside_the_root_are_followed_and_links_out_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("skill");
    std::fs::create_dir_all(root.join("docs")).unwrap();
    std::fs::write(root.join("docs/main.md"), "inside").unwrap();
    std::fs::write(tmp.path().join("secret"), "outside").unwrap();
    symlink("docs/main.md", root.join("SKILL.md")).unwrap();
    symlink("../secret", root.join("escape.md")).unwrap();
    assert_eq!(
        read_within(&root.join("SKILL.md"), &root, CAP).unwrap(),
        b"inside"
    );
    let err = read_within(&root.join("escape.md"), &root, CAP).unwrap_err();
    let ReadError::OutsideRoot { target, .. } = &err else {
        panic!("{err}");
    };
    assert!(target.ends_with("secret"));
    // A directory reached through a link is still its own root.
    let via = tmp.path().join("via");
    symlink(&root, &via).unwrap();
    assert_eq!(
        read_within(&via.join("SKILL.md"), &via, CAP).unwrap(),
        b"inside"
    );
    let err = read_within(&via.join("escape.md"), &via, CAP).unwrap_err();
    assert!(matches!(err, ReadError::OutsideRoot { .. }));
}

#[test]
fn a_missing_file_is_not_found() {
    let tmp = tempfile::tempdir().unwrap();
    let err = read_regular(&tmp.path().join("nope"), CAP).unwrap_err();
    assert!(err.is_not_found());
    assert!(!err.is_refusal());
}

#[test]
fn directories_list_with_their_identity() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    std::fs::create_dir(root.join("sub")).unwrap();
    std::fs::write(root.join("file"), "").unwrap();
    symlink("sub", root.join("link")).unwrap();
    mkfifo(&root.join("pipe"));
    let dir = Directory::open(root, None).unwrap();
    let id = dir.id();
    assert_eq!(id, weft_fs::DirId::of(root).unwrap());
    let sub_id = weft_fs::DirId::of(&root.join("sub")).unwrap();
    let link_target = dir.follow("link".as_ref()).unwrap();
    assert_eq!(link_target, LinkTarget::Dir(sub_id));
    let mut entries: Vec<_> = dir.map(Result::unwrap).collect();
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    let kinds: Vec<_> = entries
        .iter()
        .map(|e| (e.name.to_str().unwrap(), e.kind))
        .collect();
    assert_eq!(
        kinds,
        [
            ("file", EntryKind::File),
            ("link", EntryKind::Symlink),
            ("pipe", EntryKind::Other),
            ("sub", EntryKind::Dir),
        ]
    );
    let sub = entries.iter().find(|e| e.name == "sub").unwrap();
    assert_eq!(sub.inode, sub_id.inode);
}

#[cfg(target_os = "linux")]
#[test]
fn pseudo_filesystem_directories_are_refused() {
    let err = Directory::open(Path::new("/proc/self"), None).unwrap_err();
    assert!(matches!(
        err,
        ReadError::PseudoFilesystem {
            filesystem: "proc",
            ..
        }
    ));
    let tmp = tempfile::tempdir().unwrap();
    let tmp_dev = weft_fs::DirId::of(tmp.path()).unwrap().device;
    // Reached from an ordinary directory: the device differs, so it is checked.
    assert!(Directory::open(Path::new("/proc"), Some(tmp_dev)).is_err());
    if Path::new("/sys/kernel").is_dir() {
        assert!(matches!(
            Directory::open(Path::new("/sys/kernel"), Some(tmp_dev)),
            Err(ReadError::PseudoFilesystem { .. })
        ));
    }
}

#[test]
fn a_fifo_is_not_a_directory_and_does_not_block() {
    let tmp = tempfile::tempdir().unwrap();
    let fifo = tmp.path().join("d");
    mkfifo(&fifo);
    assert!(finishes(move || Directory::open(&fifo, None).is_err()));
}

#[test]
fn a_directory_handle_stamps_paths_inside_it_like_stat_does() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("s")).unwrap();
    std::fs::write(tmp.path().join("s/SKILL.md"), "x").unwrap();
    let handle = Directory::open(tmp.path(), None).unwrap().handle().unwrap();
    let (file, is_dir) = handle.stamp(Path::new("s/SKILL.md")).unwrap();
    assert!(!is_dir);
    assert_eq!(
        file,
        weft_fs::FileStamp::of(&tmp.path().join("s/SKILL.md")).unwrap()
    );
    let (dir, is_dir) = handle.stamp(Path::new("s")).unwrap();
    assert!(is_dir);
    assert_eq!(dir, weft_fs::FileStamp::of(&tmp.path().join("s")).unwrap());
    assert!(handle.stamp(Path::new("missing")).is_err());
}

#[test]
fn open_no_follow_reads_the_file_itself_and_refuses_links_and_fifos() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("run.sh");
    std::fs::write(&script, "echo hi\n").unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let file = RegularFile::open_no_follow(&script, CAP).unwrap();
    assert!(file.is_executable());
    assert_eq!(file.read_all().unwrap(), b"echo hi\n");

    let link = dir.path().join("link");
    symlink(&script, &link).unwrap();
    let err = RegularFile::open_no_follow(&link, CAP).unwrap_err();
    assert!(
        matches!(
            err,
            ReadError::NotRegular {
                kind: FileKind::Symlink,
                ..
            }
        ),
        "{err:?}"
    );
    // The same path with links followed is the script.
    assert!(RegularFile::open(&link, CAP).is_ok());

    let fifo = dir.path().join("pipe");
    mkfifo(&fifo);
    let err = finishes(move || RegularFile::open_no_follow(&fifo, CAP).unwrap_err());
    assert!(err.reason().contains("FIFO"), "{}", err.reason());
}
