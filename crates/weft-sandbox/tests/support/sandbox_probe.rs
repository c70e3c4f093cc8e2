//! The sandbox tests' child process: `sandbox_probe POLICY ACTION ARG...` applies POLICY (a
//! policy's JSON, or `-` for none) to itself, then performs one action and prints `ok`, or
//! `error <errno>` when the operating system refused it:
//!
//! - `write PATH`, `read PATH`, `list DIR`: file operations;
//! - `tcp ADDR`: a TCP connection; `udp ADDR`: one datagram;
//! - `unix PATH`: a UNIX socket bound at PATH, then connected to;
//! - `exec PROGRAM ARG...`: executes PROGRAM (its output and status are the result).
//!
//! Exit status 0 when the action ran (whatever its outcome), 3 when the policy could not be
//! applied, 2 on bad arguments.
//!
//! It also serves the sandbox helper, as an embedding program does: `sandbox_probe sandbox exec
//! [--parent PID] [--policy JSON] -- COMMAND...` is `weft_sandbox::run_helper`.

#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::io::{Read, Write};
use std::net::{TcpStream, UdpSocket};
use std::os::unix::net::{UnixListener, UnixStream};
use std::os::unix::process::CommandExt;
use std::process::ExitCode;

use weft_sandbox::SandboxPolicy;

#[allow(clippy::disallowed_methods)] // a test program's own command line
fn main() -> ExitCode {
    let args_os: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    if weft_sandbox::is_helper_call(&args_os) {
        return weft_sandbox::run_helper(&args_os, &mut std::io::stderr());
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [policy, action, rest @ ..] = args.as_slice() else {
        eprintln!("usage: sandbox_probe POLICY ACTION ARG...");
        return ExitCode::from(2);
    };
    if policy != "-" {
        let applied = SandboxPolicy::from_json(policy).and_then(|p| p.apply_to_current_process());
        if let Err(err) = applied {
            eprintln!("apply failed: {err}");
            return ExitCode::from(3);
        }
    }
    let outcome = match (action.as_str(), rest) {
        ("write", [path]) => std::fs::write(path, "written"),
        ("read", [path]) => std::fs::read(path).map(drop),
        ("list", [dir]) => std::fs::read_dir(dir).map(|d| d.for_each(drop)),
        ("tcp", [addr]) => TcpStream::connect(addr).map(drop),
        ("udp", [addr]) => {
            UdpSocket::bind("127.0.0.1:0").and_then(|s| s.send_to(b"x", addr).map(drop))
        }
        ("unix", [path]) => unix_round_trip(path),
        ("exec", [program, args @ ..]) => {
            Err(std::process::Command::new(program).args(args).exec())
        }
        _ => {
            eprintln!("unknown action {action} {rest:?}");
            return ExitCode::from(2);
        }
    };
    match outcome {
        Ok(()) => println!("ok"),
        Err(err) => println!("error {}", err.raw_os_error().unwrap_or(-1)),
    }
    ExitCode::SUCCESS
}

/// Binds a UNIX socket at `path`, connects to it and passes one byte.
fn unix_round_trip(path: &str) -> std::io::Result<()> {
    let listener = UnixListener::bind(path)?;
    let mut client = UnixStream::connect(path)?;
    let (mut server, _) = listener.accept()?;
    client.write_all(b"x")?;
    let mut byte = [0u8; 1];
    server.read_exact(&mut byte)?;
    Ok(())
}
