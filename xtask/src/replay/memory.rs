//! How much memory a `weft` process holds while it runs: its resident set sampled from
//! `/proc/PID/status` every few milliseconds (Linux), for the bounded-memory figures of
//! `bench-session`.
//!
//! The kernel's own peak (`VmHWM`) is read at each sample, so a short spike between two
//! samples still counts; only what the process allocates in its last few milliseconds,
//! after the final sample, can be missed.

use std::io::Read as _;
use std::process::{Command, Output, Stdio};
use std::thread;
use std::time::Duration;

use anyhow::{Context as _, Result};

/// How often the process is looked at.
const INTERVAL: Duration = Duration::from_millis(5);

/// One look at the process.
#[derive(Debug, Clone, Copy, Default)]
pub struct Sample {
    /// Resident set now, in KiB (`VmRSS`).
    pub rss_kib: u64,
    /// The highest resident set so far, in KiB (`VmHWM`).
    pub peak_kib: u64,
}

/// Runs `cmd` to its end like [`Command::output`], calling `each` with every sample, and
/// returns its output and the last sample (the process's peak so far in `peak_kib`).
pub fn run_sampled(mut cmd: Command, mut each: impl FnMut(Sample)) -> Result<(Output, Sample)> {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().context("starting weft")?;
    let status_file = format!("/proc/{}/status", child.id());
    // Both pipes are drained meanwhile, or a chatty child would block on a full one.
    let drain = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as _));
    let mut last = Sample::default();
    let status = loop {
        if let Some(status) = child.try_wait().context("waiting for weft")? {
            break status;
        }
        // A process that has just exited has no memory lines left: keep the last sample.
        if let Some(sample) = std::fs::read_to_string(&status_file)
            .ok()
            .and_then(|text| parse_status(&text))
        {
            last = sample;
            each(sample);
        }
        thread::sleep(INTERVAL);
    };
    let join = |h: thread::JoinHandle<Vec<u8>>| {
        h.join()
            .map_err(|_| anyhow::anyhow!("reading weft's output panicked"))
    };
    let output = Output {
        status,
        stdout: join(stdout)?,
        stderr: join(stderr)?,
    };
    Ok((output, last))
}

/// `VmRSS` and `VmHWM` from the text of `/proc/PID/status`.
fn parse_status(text: &str) -> Option<Sample> {
    let field = |name: &str| {
        text.lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| rest.trim().strip_suffix("kB"))
            .and_then(|kib| kib.trim().parse().ok())
    };
    Some(Sample {
        rss_kib: field("VmRSS:")?,
        peak_kib: field("VmHWM:")?,
    })
}

/// `kib` as mebibytes with one decimal.
pub fn mib(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_resident_set_and_its_peak() {
        let text = "Name:\tweft\nVmPeak:\t  900 kB\nVmHWM:\t   2048 kB\nVmRSS:\t   1024 kB\n";
        let sample = parse_status(text).map(|s| (s.rss_kib, s.peak_kib));
        assert_eq!(sample, Some((1024, 2048)));
    }

    #[test]
    fn a_status_without_memory_lines_is_no_sample() {
        // What a zombie (exited, not yet waited for) shows.
        assert!(parse_status("Name:\tweft\nState:\tZ (zombie)\n").is_none());
    }

    #[test]
    fn samples_a_real_process() -> Result<()> {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "sleep 0.1; echo done"]);
        let mut samples = 0;
        let (output, last) = run_sampled(cmd, |_| samples += 1)?;
        assert!(output.status.success());
        assert_eq!(output.stdout, b"done\n");
        assert!(samples > 0, "a 100 ms process is sampled at least once");
        assert!(last.peak_kib >= last.rss_kib && last.rss_kib > 0);
        Ok(())
    }
}
