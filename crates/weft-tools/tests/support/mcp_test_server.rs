//! A small MCP server for weft's hermetic MCP tests, built with rmcp's server side.
//!
//! Tools: `echo {text}` answers `echo: <text>` (annotated `readOnlyHint: true`); `fail` returns `isError: true`; `slow {ms}`
//! sleeps, then answers `slept <ms> ms`; `crash` exits the process in the middle of the call.
//!
//! Flags: `--slow-start MS` sleeps before answering the handshake; `--once FILE` refuses to
//! start (exit 1) when FILE exists and creates it otherwise, so a restart fails;
//! `--flood-stderr MIB` writes one stderr line of MIB mebibytes (0: a line that never ends)
//! as fast as it is read, then the line `test server: flood over` (logged as `flooded`);
//! `--flood-tool` adds a tool `flood` whose call writes a message on stdout that never ends
//! (the bytes are generated as they are written, never held). When the
//! environment has `WEFT_TEST_MCP_LOG`, every start and every call appends a line to that file
//! (`start`, `call <tool>`), so tests can count what reached the server.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stderr)]

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
    ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::json;

struct TestServer {
    log: Option<PathBuf>,
    flood_tool: bool,
}

impl TestServer {
    fn log(&self, line: &str) {
        if let Some(path) = &self.log {
            let mut file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .unwrap();
            writeln!(file, "{line}").unwrap();
        }
    }
}

fn schema(value: serde_json::Value) -> Arc<JsonObject> {
    match value {
        serde_json::Value::Object(map) => Arc::new(map),
        _ => unreachable!("schemas are objects"),
    }
}

fn tools(flood_tool: bool) -> Vec<Tool> {
    let flood = flood_tool.then(|| {
        Tool::new(
            "flood",
            "Answers with a message that never ends.",
            schema(json!({"type": "object"})),
        )
    });
    let mut tools = vec![
        Tool::new(
            "echo",
            "Echoes the text back.",
            schema(
                json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}),
            ),
        )
        .annotate(ToolAnnotations::new().read_only(true)),
        Tool::new(
            "fail",
            "Always fails (isError).",
            schema(json!({"type": "object"})),
        ),
        Tool::new(
            "slow",
            "Sleeps for `ms` milliseconds.",
            schema(json!({"type": "object", "properties": {"ms": {"type": "integer"}}})),
        ),
        Tool::new(
            "crash",
            "Exits the server process.",
            schema(json!({"type": "object"})),
        ),
    ];
    tools.extend(flood);
    tools
}

/// Writes `unit` to `out` again and again, `count` times (forever for `None`), until a write
/// fails (the reader went away).
fn flood(mut out: impl Write, unit: &[u8], count: Option<u64>) -> std::io::Result<()> {
    let mut written = 0;
    while count.is_none_or(|c| written < c) {
        out.write_all(unit)?;
        written += 1;
    }
    out.flush()
}

impl ServerHandler for TestServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("weft-mcp-test-server", "1.0.0"))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools(self.flood_tool)))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.log(&format!("call {}", request.name));
        let args = request.arguments.unwrap_or_default();
        let result = match request.name.as_ref() {
            "echo" => {
                let text = args.get("text").and_then(|v| v.as_str()).unwrap_or("");
                CallToolResult::success(vec![ContentBlock::text(format!("echo: {text}"))])
            }
            "fail" => CallToolResult::error(vec![ContentBlock::text("it failed on purpose")]),
            "slow" => {
                let ms = args.get("ms").and_then(|v| v.as_u64()).unwrap_or(1_000);
                tokio::time::sleep(Duration::from_millis(ms)).await;
                CallToolResult::success(vec![ContentBlock::text(format!("slept {ms} ms"))])
            }
            "crash" => {
                eprintln!("test server: crashing on purpose");
                std::process::exit(3);
            }
            "flood" if self.flood_tool => {
                // The start of an answer, then a string that never ends, straight to stdout.
                // The test server's own protocol stream, written around rmcp on purpose.
                #[allow(clippy::disallowed_methods)]
                std::thread::spawn(|| {
                    let stdout = std::io::stdout();
                    let mut out = stdout.lock();
                    let _ = out.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"");
                    let _ = flood(out, &[b'x'; 64 * 1024], None);
                });
                return std::future::pending().await;
            }
            other => {
                CallToolResult::error(vec![ContentBlock::text(format!("unknown tool {other}"))])
            }
        };
        Ok(result.into())
    }
}

#[allow(clippy::disallowed_methods)] // a test server's own command line
#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut args = std::env::args().skip(1);
    let mut slow_start = None;
    let mut once = None;
    let mut flood_stderr = None;
    let mut flood_tool = false;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--slow-start" => slow_start = args.next().and_then(|v| v.parse::<u64>().ok()),
            "--once" => once = args.next().map(PathBuf::from),
            "--flood-stderr" => flood_stderr = args.next().and_then(|v| v.parse::<u64>().ok()),
            "--flood-tool" => flood_tool = true,
            other => {
                eprintln!("unknown argument {other}");
                std::process::exit(2);
            }
        }
    }
    if let Some(marker) = once {
        if marker.exists() {
            eprintln!("test server: refusing to start twice");
            std::process::exit(1);
        }
        std::fs::write(&marker, "started").unwrap();
    }
    // The tests point the server's log at a file of theirs.
    #[allow(clippy::disallowed_methods)]
    let log = std::env::var_os("WEFT_TEST_MCP_LOG").map(PathBuf::from);
    let server = TestServer { log, flood_tool };
    server.log("start");
    eprintln!("test server: started");
    if let Some(mib) = flood_stderr {
        let log = server.log.clone();
        std::thread::spawn(move || {
            let unit = [b'e'; 64 * 1024];
            let count = (mib > 0).then_some(mib * 16);
            if flood(std::io::stderr().lock(), &unit, count).is_ok() {
                eprintln!("\ntest server: flood over");
                TestServer {
                    log,
                    flood_tool: false,
                }
                .log("flooded");
            }
        });
    }
    if let Some(ms) = slow_start {
        tokio::time::sleep(Duration::from_millis(ms)).await;
    }
    let running = server.serve(rmcp::transport::stdio()).await.unwrap();
    let _ = running.waiting().await;
}
