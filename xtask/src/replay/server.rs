//! A loopback HTTP/1.1 server that answers one JSON POST per connection (weft's client sends
//! one request at a time and reads to the end): enough of the providers' wire protocol for
//! the replay benchmark, with std only.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use anyhow::{Context as _, Result, bail};
use serde_json::Value;

/// The largest request body read (a 16k-token window is about 64 KB).
const MAX_BODY: usize = 16 << 20;
/// The longest header line read.
const MAX_LINE: usize = 16 << 10;

/// Answers a request body with a status and a JSON body.
pub trait Responder: Send + 'static {
    /// The answer to a POST of `body` to `path`.
    fn respond(&mut self, path: &str, body: &Value) -> (u16, Value);
}

/// The running server; dropping it does not stop it, [`Server::stop`] does.
pub struct Server<R> {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    addr: SocketAddr,
    responder: Arc<Mutex<R>>,
    stop: Arc<Mutex<bool>>,
    thread: Option<JoinHandle<()>>,
}

impl<R: Responder> Server<R> {
    /// Listens on a free loopback port and answers with `responder`.
    pub fn start(responder: R) -> Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0").context("binding a loopback port")?;
        let addr = listener.local_addr()?;
        let responder = Arc::new(Mutex::new(responder));
        let stop = Arc::new(Mutex::new(false));
        let thread = {
            let responder = Arc::clone(&responder);
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                for stream in listener.incoming() {
                    if stop.lock().map_or(true, |s| *s) {
                        break;
                    }
                    let Ok(stream) = stream else { continue };
                    if let Err(e) = serve(stream, &responder) {
                        eprintln!("replay server: {e:#}");
                    }
                }
            })
        };
        Ok(Self {
            url: format!("http://{addr}"),
            addr,
            responder,
            stop,
            thread: Some(thread),
        })
    }

    /// Runs `f` on the responder (to read what it counted).
    pub fn with<T>(&self, f: impl FnOnce(&mut R) -> T) -> Result<T> {
        let mut responder = self
            .responder
            .lock()
            .map_err(|_| anyhow::anyhow!("the replay server's responder panicked"))?;
        Ok(f(&mut responder))
    }

    /// Stops the accept loop and waits for it.
    pub fn stop(mut self) {
        if let Ok(mut stop) = self.stop.lock() {
            *stop = true;
        }
        // Wake the accept loop up.
        let _ = TcpStream::connect(self.addr);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Reads one request from `stream` and writes the answer.
fn serve<R: Responder>(stream: TcpStream, responder: &Mutex<R>) -> Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut line = String::new();
    read_line(&mut reader, &mut line)?;
    if line.is_empty() {
        return Ok(());
    }
    let mut parts = line.split_whitespace();
    let post = parts.next() == Some("POST");
    let path = parts.next().unwrap_or_default().to_owned();
    let mut length = 0usize;
    loop {
        line.clear();
        read_line(&mut reader, &mut line)?;
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().context("a bad Content-Length")?;
        }
    }
    if !post {
        return answer(stream, 405, &serde_json::json!({"error": "POST only"}));
    }
    if length > MAX_BODY {
        bail!("a request body of {length} bytes");
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    let body: Value = serde_json::from_slice(&body).context("a request body that is not JSON")?;
    let (status, reply) = responder
        .lock()
        .map_err(|_| anyhow::anyhow!("the responder panicked"))?
        .respond(&path, &body);
    answer(stream, status, &reply)
}

fn read_line(reader: &mut BufReader<TcpStream>, line: &mut String) -> Result<()> {
    let n = reader.by_ref().take(MAX_LINE as u64).read_line(line)?;
    if n == MAX_LINE {
        bail!("a header line longer than {MAX_LINE} bytes");
    }
    Ok(())
}

fn answer(mut stream: TcpStream, status: u16, body: &Value) -> Result<()> {
    let body = body.to_string();
    let reason = if status == 200 { "OK" } else { "Error" };
    write!(
        stream,
        "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )?;
    stream.flush()?;
    Ok(())
}
