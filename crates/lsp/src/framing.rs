//! The wire between the client and the framework: what the client sends is checked before the
//! framework reads it, and what the client receives is written one whole frame at a time.
//!
//! The framework stops reading at the first frame it cannot decode, and buffers a header line
//! for as long as it lasts, so one bad message would silence the server. [`guard`] reads the
//! client's Content-Length frames itself, within [`Limits`] (a header of at most 8 KiB, a body
//! of at most 64 MiB), and passes on only frames the framework decodes: exactly one
//! `Content-Length` (header names in any case, CRLF or LF line ends, other headers such as
//! `Content-Type` allowed and dropped) and a body that is a JSON-RPC 2.0 request, notification
//! or response of at most [`MAX_VALUES`] values (decoding multiplies them). Anything else is
//! answered with a JSON-RPC error response with `id: null` (-32700 for bytes that are not JSON,
//! -32600 for JSON that is not a message) and logged through a [`MALFORMED`] notification to
//! the framework; reading resumes after the body when the header was readable, else at the next
//! `Content-Length` in the stream. Whitespace between frames is skipped. [`tap`] and [`write`]
//! put the framework's frames and those answers on the client's output without interleaving
//! them.
//!
//! Not for: the protocol's rules beyond the shape of a message (the framework answers unknown
//! methods, bad params and requests before `initialize` itself).

use std::io;

use serde::de::IgnoredAny;
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;
use tower_lsp_server::jsonrpc::{ErrorCode, Request, Response};

/// The notification a malformed message becomes for the framework; its params are
/// `{"error": "…"}`.
pub const MALFORMED: &str = "botlens/malformedMessage";

/// How large one frame may be.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Bytes of header, its blank line included; more than the length of `Content-Length`.
    pub header: usize,
    /// Bytes of body.
    pub body: usize,
}

/// What the client may send: a header of 8 KiB, a body of 64 MiB.
pub const CLIENT: Limits = Limits { header: 8 << 10, body: 64 << 20 };

/// The framework's own frames: their bodies are as long as the server made them.
const SERVER: Limits = Limits { header: 8 << 10, body: usize::MAX };

/// The header that starts a frame, in lower case; the resumption point after a bad header.
const LENGTH: &[u8] = b"content-length";

/// The most a body grows by per read (so a length announced but not sent costs nothing).
const CHUNK: usize = 64 << 10;

/// The most JSON values one message may hold. Decoded, each costs the framework far more than
/// its bytes (a 64 MiB array of zeros would take gigabytes); no client needs this many.
const MAX_VALUES: usize = 1 << 20;

/// What [`Frames::next`] found.
#[derive(Debug)]
enum Item {
    /// The body of a frame whose header was readable: exactly its `Content-Length` bytes.
    Frame(Vec<u8>),
    /// Bytes that are not a frame, and what is wrong with them.
    Garbage(String),
    /// The input ended.
    End,
}

/// Content-Length frames read from a byte stream within [`Limits`].
struct Frames<R> {
    input: R,
    limits: Limits,
    /// Read and not yet taken; never longer than `limits.header`.
    window: Vec<u8>,
    /// After a bad header: where in `window` to start looking for the next frame.
    resume: Option<usize>,
}

impl<R: AsyncRead + Unpin> Frames<R> {
    /// Frames from `input`.
    fn new(input: R, limits: Limits) -> Frames<R> {
        Frames { input, limits, window: Vec::with_capacity(limits.header), resume: None }
    }

    /// The next frame, or the garbage before it. After garbage, the next call first skips to
    /// the next `Content-Length` (so the garbage is reported before more input arrives).
    async fn next(&mut self) -> io::Result<Item> {
        let found = match self.resume.take() {
            Some(from) => self.seek_frame(from).await?,
            None => self.skip_whitespace().await?,
        };
        if !found {
            return Ok(Item::End);
        }
        let mut scanned = 0;
        let end = loop {
            if let Some(end) = header_end(&self.window, scanned) {
                break end;
            }
            // A blank line needs up to three bytes: look again from just before the end.
            scanned = self.window.len().saturating_sub(2);
            if self.window.len() == self.limits.header {
                let complete = self.window.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
                let resume = match check_lines(&self.window[..complete]) {
                    Err(problem) => problem.resume,
                    Ok(_) if complete < self.window.len() => complete + 1,
                    Ok(_) => complete,
                };
                self.resume = Some(resume);
                let why = format!("a message header longer than {} bytes", self.limits.header);
                return Ok(Item::Garbage(why));
            }
            if self.fill().await? == 0 {
                let why =
                    format!("the input ended inside a message header: {}", preview(&self.window));
                self.window.clear();
                return Ok(Item::Garbage(why));
            }
        };
        match parse_header(&self.window[..end], self.limits.body) {
            Ok(length) => {
                self.window.drain(..end);
                self.body(length).await
            }
            Err(problem) => {
                self.resume = Some(problem.resume.min(end));
                Ok(Item::Garbage(problem.why))
            }
        }
    }

    /// Reads more input into the window (which must have room); 0 at the end of input.
    async fn fill(&mut self) -> io::Result<usize> {
        let room = self.limits.header - self.window.len();
        (&mut self.input).take(room as u64).read_buf(&mut self.window).await
    }

    /// Drops whitespace up to the next byte that is not; false at the end of input.
    async fn skip_whitespace(&mut self) -> io::Result<bool> {
        loop {
            let blank = self.window.iter().take_while(|b| b.is_ascii_whitespace()).count();
            self.window.drain(..blank);
            if !self.window.is_empty() {
                return Ok(true);
            }
            if self.fill().await? == 0 {
                return Ok(false);
            }
        }
    }

    /// Drops everything before the next `Content-Length` at or after `from` in the window;
    /// false at the end of input.
    async fn seek_frame(&mut self, mut from: usize) -> io::Result<bool> {
        loop {
            from = from.min(self.window.len());
            if let Some(at) = find_length(&self.window[from..]) {
                self.window.drain(..from + at);
                return Ok(true);
            }
            // Keep the tail that may be the start of the name.
            let keep = (self.window.len() - from).min(LENGTH.len() - 1);
            self.window.drain(..self.window.len() - keep);
            from = 0;
            if self.fill().await? == 0 {
                self.window.clear();
                return Ok(false);
            }
        }
    }

    /// A body of `length` bytes: what the window holds, then the input, growing as it comes.
    async fn body(&mut self, length: usize) -> io::Result<Item> {
        let buffered = self.window.len().min(length);
        let mut body = Vec::with_capacity(length.min(CHUNK.max(buffered)));
        body.extend(self.window.drain(..buffered));
        while body.len() < length {
            if body.len() == body.capacity() {
                body.reserve_exact(body.capacity().max(CHUNK).min(length - body.len()));
            }
            let room = (body.capacity() - body.len()).min(length - body.len());
            let read = (&mut self.input).take(room as u64).read_buf(&mut body).await?;
            if read == 0 {
                let why = format!(
                    "the input ended {} bytes into a message of {length} bytes",
                    body.len()
                );
                return Ok(Item::Garbage(why));
            }
        }
        Ok(Item::Frame(body))
    }
}

/// Where the header at the start of `window` ends, just past its blank line, looking at line
/// ends from `from` on.
fn header_end(window: &[u8], from: usize) -> Option<usize> {
    (from..window.len()).find_map(|i| {
        let rest = &window[i + 1..];
        if window[i] != b'\n' {
            None
        } else if rest.starts_with(b"\n") {
            Some(i + 2)
        } else if rest.starts_with(b"\r\n") {
            Some(i + 3)
        } else {
            None
        }
    })
}

/// Where `Content-Length` (in any case) first occurs in `bytes`.
fn find_length(bytes: &[u8]) -> Option<usize> {
    bytes
        .windows(LENGTH.len())
        .position(|w| w[0] | 0x20 == LENGTH[0] && w.eq_ignore_ascii_case(LENGTH))
}

/// What is wrong with a header, and where in it to look for the next frame.
#[derive(Debug)]
struct Problem {
    why: String,
    resume: usize,
}

/// The body length a complete header (blank line included) announces.
fn parse_header(header: &[u8], limit: usize) -> Result<usize, Problem> {
    let lengths = check_lines(header)?;
    let problem = |why: String| Problem { why, resume: header.len() };
    let value = match lengths[..] {
        [value] => value,
        [] => return Err(problem("a message header without a Content-Length".into())),
        _ => {
            let why = format!("{} Content-Length headers in one message header", lengths.len());
            return Err(problem(why));
        }
    };
    if value.is_empty() || !value.iter().all(u8::is_ascii_digit) {
        let why = format!("a Content-Length that is not a number of bytes: {}", preview(value));
        return Err(problem(why));
    }
    // Digits only, so this fails only when the number does not fit.
    match std::str::from_utf8(value).ok().and_then(|v| v.parse::<usize>().ok()) {
        Some(length) if length <= limit => Ok(length),
        _ => Err(problem(format!(
            "a message of {} bytes, over the limit of {limit}",
            preview(value)
        ))),
    }
}

/// The `Content-Length` values of the complete lines in `lines` (each ends with LF; a blank
/// one ends the header), or the first line that is not `Name: value`.
fn check_lines(lines: &[u8]) -> Result<Vec<&[u8]>, Problem> {
    let mut lengths = Vec::new();
    let mut start = 0;
    for raw in lines.split_inclusive(|&b| b == b'\n') {
        let line = raw.strip_suffix(b"\n").unwrap_or(raw);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            break;
        }
        let (name, value) = check_line(line).map_err(|why| Problem { why, resume: start + 1 })?;
        if name.eq_ignore_ascii_case(LENGTH) {
            lengths.push(value);
        }
        start += raw.len();
    }
    Ok(lengths)
}

/// The name and the value of a header line, or why it is not one.
fn check_line(line: &[u8]) -> Result<(&[u8], &[u8]), String> {
    if !line.iter().all(|&b| b == b'\t' || (b' '..=b'~').contains(&b)) {
        return Err(format!(
            "a message header line with a byte that is not printable ASCII: {}",
            preview(line)
        ));
    }
    let token = |b: &u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(b);
    match line.iter().position(|&b| b == b':') {
        Some(colon) if colon > 0 && line[..colon].iter().all(token) => {
            Ok((&line[..colon], line[colon + 1..].trim_ascii()))
        }
        _ => Err(format!("a message header line that is not `Name: value`: {}", preview(line))),
    }
}

/// The start of `bytes` as readable text in backquotes, for messages.
fn preview(bytes: &[u8]) -> String {
    const SHOWN: usize = 60;
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(SHOWN)]);
    let more = if bytes.len() > SHOWN { "…" } else { "" };
    format!("`{}`{more}", text.escape_debug())
}

/// Why a body is not a message the framework can take.
#[derive(Debug)]
struct Rejected {
    /// -32700 (not JSON, or no readable frame at all) or -32600 (JSON, not a message).
    code: ErrorCode,
    /// What is wrong, for the client.
    why: String,
}

impl Rejected {
    fn parse(why: String) -> Rejected {
        Rejected { code: ErrorCode::ParseError, why }
    }

    fn invalid(why: &str) -> Rejected {
        Rejected {
            code: ErrorCode::InvalidRequest,
            why: format!("the message is not a JSON-RPC 2.0 message: {why}"),
        }
    }
}

/// The members of a message that decide its kind; `Some(Null)` is a member that is `null`.
#[derive(Deserialize)]
struct Shape {
    #[serde(default, deserialize_with = "some")]
    jsonrpc: Option<Value>,
    #[serde(default, deserialize_with = "some")]
    id: Option<Value>,
    #[serde(default, deserialize_with = "some")]
    method: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    result: bool,
    #[serde(default, deserialize_with = "present")]
    error: bool,
}

fn some<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}

fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
    IgnoredAny::deserialize(deserializer).map(|_| true)
}

/// Whether `body` is a message the framework decodes (`Ok(true)` for `exit`, after which it
/// reads no more), else why not. A message is a JSON object with `"jsonrpc": "2.0"`, an `id`
/// that is an integer (64-bit), a string or null, and a string `method` with no `result` or
/// `error` (a request or notification), or no `method`, an `id` and one of `result` and
/// `error` (a response). Batches are refused: LSP has none; so are messages of more than
/// [`MAX_VALUES`] values.
fn check(body: &[u8]) -> Result<bool, Rejected> {
    let text = std::str::from_utf8(body)
        .map_err(|e| Rejected::parse(format!("the message is not UTF-8: {e}")))?;
    serde_json::from_str::<IgnoredAny>(text)
        .map_err(|e| Rejected::parse(format!("the message is not JSON: {e}")))?;
    if values(body) > MAX_VALUES {
        return Err(Rejected::invalid(&format!("more than {MAX_VALUES} values in one message")));
    }
    if !text.trim_start().starts_with('{') {
        return Err(Rejected::invalid(&if text.trim_start().starts_with('[') {
            "a batch (an array); LSP has no batches".to_owned()
        } else {
            format!("{} is not an object", preview(text.trim().as_bytes()))
        }));
    }
    let shape =
        serde_json::from_str::<Shape>(text).map_err(|e| Rejected::invalid(&e.to_string()))?;
    if shape.jsonrpc.as_ref().and_then(Value::as_str) != Some("2.0") {
        return Err(Rejected::invalid("`jsonrpc` is not \"2.0\""));
    }
    if let Some(id) = &shape.id
        && !(id.is_null() || id.is_string() || id.is_i64())
    {
        let id = preview(id.to_string().as_bytes());
        return Err(Rejected::invalid(&format!(
            "the id {id} is not an integer (64-bit), a string or null"
        )));
    }
    let method = match &shape.method {
        Some(Value::String(method)) if !(shape.result || shape.error) => Some(method.as_str()),
        Some(Value::String(_)) => return Err(Rejected::invalid("a method with a result or error")),
        Some(_) => return Err(Rejected::invalid("the method is not a string")),
        None if shape.id.is_none() => return Err(Rejected::invalid("neither a method nor an id")),
        None if shape.result == shape.error => {
            return Err(Rejected::invalid("a response needs exactly one of result and error"));
        }
        None => None,
    };
    // The framework's own types have the last word (duplicate members, the error object).
    let decoded = match method {
        Some(_) => serde_json::from_str::<Request>(text).map(drop),
        None => serde_json::from_str::<Response>(text).map(drop),
    };
    decoded.map_err(|e| Rejected::invalid(&e.to_string()))?;
    Ok(method == Some("exit"))
}

/// How many values the JSON `text` holds at most, counted without decoding it: every value but
/// the first follows a `[`, a `:` or a `,` outside strings. Stops counting past [`MAX_VALUES`].
fn values(text: &[u8]) -> usize {
    let (mut count, mut string, mut escaped) = (1, false, false);
    for &byte in text {
        if string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => string = false,
                _ => {}
            }
        } else {
            match byte {
                b'"' => string = true,
                b'[' | b':' | b',' => count += 1,
                _ => {}
            }
            if count > MAX_VALUES {
                break;
            }
        }
    }
    count
}

/// Writes one frame: its header, then `body`.
async fn write_frame<W: AsyncWrite + Unpin>(output: &mut W, body: &[u8]) -> io::Result<()> {
    output.write_all(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes()).await?;
    output.write_all(body).await?;
    output.flush().await
}

/// The error response to the client for a rejected message, with `id: null`.
fn reply(rejected: &Rejected) -> Vec<u8> {
    let message = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {"code": rejected.code.code(), "message": rejected.why},
    });
    message.to_string().into_bytes()
}

/// The notification the framework gets in place of a rejected message.
fn malformed(rejected: &Rejected) -> Vec<u8> {
    let message = serde_json::json!({
        "jsonrpc": "2.0",
        "method": MALFORMED,
        "params": {"error": rejected.why},
    });
    message.to_string().into_bytes()
}

/// Reads the client's frames from `input` within `limits` and writes those the framework can
/// decode to `server`; a rejected one is answered on `replies` (bodies for [`write`]) and
/// becomes a [`MALFORMED`] notification. Returns at the end of input (shutting `server` down)
/// or after passing on `exit`.
pub async fn guard<I, S>(
    input: I,
    mut server: S,
    replies: mpsc::Sender<Vec<u8>>,
    limits: Limits,
) -> io::Result<()>
where
    I: AsyncRead + Unpin,
    S: AsyncWrite + Unpin,
{
    let mut frames = Frames::new(input, limits);
    loop {
        let rejected = match frames.next().await? {
            Item::End => return server.shutdown().await,
            Item::Frame(body) => match check(&body) {
                Ok(exit) => {
                    write_frame(&mut server, &body).await?;
                    if exit {
                        return Ok(());
                    }
                    continue;
                }
                Err(rejected) => rejected,
            },
            Item::Garbage(why) => Rejected::parse(why),
        };
        // A closed channel means the client's output is gone; its input may still matter.
        let _ = replies.send(reply(&rejected)).await;
        write_frame(&mut server, &malformed(&rejected)).await?;
    }
}

/// Reads the framework's frames from `server` and sends their bodies to `outgoing`, until the
/// framework stops writing or nobody writes to the client any more.
pub async fn tap<S: AsyncRead + Unpin>(
    server: S,
    outgoing: mpsc::Sender<Vec<u8>>,
) -> io::Result<()> {
    let mut frames = Frames::new(server, SERVER);
    loop {
        match frames.next().await? {
            Item::Frame(body) => {
                if outgoing.send(body).await.is_err() {
                    return Ok(());
                }
            }
            // The framework writes nothing else; skipping keeps its output flowing regardless.
            Item::Garbage(_) => {}
            Item::End => return Ok(()),
        }
    }
}

/// Writes the bodies from `outgoing` to `output` as frames, until every sender is gone.
pub async fn write<O: AsyncWrite + Unpin>(
    mut outgoing: mpsc::Receiver<Vec<u8>>,
    mut output: O,
) -> io::Result<()> {
    while let Some(body) = outgoing.recv().await {
        write_frame(&mut output, &body).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;
    use tokio::io::AsyncWriteExt;

    use super::*;

    /// Counts the bytes each thread has allocated, to show the guard's memory stays bounded.
    mod counting {
        use std::alloc::{GlobalAlloc, Layout, System};
        use std::cell::Cell;

        thread_local! {
            static LIVE: Cell<isize> = const { Cell::new(0) };
            static PEAK: Cell<isize> = const { Cell::new(0) };
        }

        /// The system allocator, counting per thread.
        pub struct Counting;

        fn grow(by: isize) {
            let _ = LIVE.try_with(|live| {
                live.set(live.get() + by);
                let _ = PEAK.try_with(|peak| peak.set(peak.get().max(live.get())));
            });
        }

        // SAFETY: every call goes to the system allocator unchanged; only sizes are counted.
        unsafe impl GlobalAlloc for Counting {
            unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
                // SAFETY: the caller's contract is the system allocator's.
                let block = unsafe { System.alloc(layout) };
                if !block.is_null() {
                    grow(layout.size() as isize);
                }
                block
            }

            unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
                // SAFETY: as for `alloc`.
                unsafe { System.dealloc(block, layout) };
                grow(-(layout.size() as isize));
            }

            unsafe fn realloc(&self, block: *mut u8, layout: Layout, size: usize) -> *mut u8 {
                // SAFETY: as for `alloc`.
                let moved = unsafe { System.realloc(block, layout, size) };
                if !moved.is_null() {
                    grow(size as isize - layout.size() as isize);
                }
                moved
            }
        }

        /// What `work` returned, and the most this thread held at once while it ran beyond what
        /// it held before.
        pub fn peak<T>(work: impl FnOnce() -> T) -> (T, usize) {
            let before = LIVE.with(Cell::get);
            PEAK.with(|peak| peak.set(before));
            let out = work();
            (out, (PEAK.with(Cell::get) - before).max(0) as usize)
        }
    }

    #[global_allocator]
    static ALLOCATOR: counting::Counting = counting::Counting;

    /// Small limits for the property tests: streams are far larger than a frame may be.
    const SMALL: Limits = Limits { header: 128, body: 256 };

    fn frame(body: &str) -> Vec<u8> {
        format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
    }

    fn request(id: i64, method: &str) -> String {
        json!({"jsonrpc": "2.0", "id": id, "method": method}).to_string()
    }

    /// What the guard made of an input.
    #[derive(Debug, Default)]
    struct Outcome {
        /// The bodies passed to the framework, in order, but for [`MALFORMED`] notifications.
        passed: Vec<Vec<u8>>,
        /// The errors of the [`MALFORMED`] notifications.
        malformed: Vec<String>,
        /// The replies to the client.
        replies: Vec<Value>,
        /// Everything written to the framework.
        raw: String,
    }

    impl Outcome {
        /// The `(code, message)` of every reply.
        fn errors(&self) -> Vec<(i64, String)> {
            self.replies
                .iter()
                .map(|reply| {
                    assert_eq!(reply["id"], Value::Null, "{reply}");
                    assert_eq!(reply["jsonrpc"], "2.0", "{reply}");
                    let error = &reply["error"];
                    (error["code"].as_i64().unwrap(), error["message"].as_str().unwrap().to_owned())
                })
                .collect()
        }
    }

    async fn guarded(input: impl AsyncRead + Unpin, limits: Limits) -> Outcome {
        let (replies, mut answered) = mpsc::channel::<Vec<u8>>(2);
        let mut raw = Vec::new();
        let collect = async {
            let mut all = Vec::new();
            while let Some(reply) = answered.recv().await {
                all.push(serde_json::from_slice::<Value>(&reply).unwrap());
            }
            all
        };
        let (ended, replies) = tokio::join!(guard(input, &mut raw, replies, limits), collect);
        ended.unwrap();
        let mut outcome = Outcome { replies, ..Outcome::default() };
        let mut frames = Frames::new(&raw[..], SERVER);
        loop {
            match frames.next().await.unwrap() {
                Item::Frame(body) => {
                    // Whatever passes, the framework decodes.
                    let text = std::str::from_utf8(&body).unwrap();
                    let value: Value = serde_json::from_str(text).unwrap();
                    if value["method"] == MALFORMED {
                        outcome.malformed.push(value["params"]["error"].as_str().unwrap().into());
                    } else {
                        assert!(
                            serde_json::from_str::<Request>(text).is_ok()
                                || serde_json::from_str::<Response>(text).is_ok(),
                            "{text}"
                        );
                        outcome.passed.push(body);
                    }
                }
                Item::Garbage(why) => panic!("the guard wrote garbage: {why}"),
                Item::End => break,
            }
        }
        outcome.raw = String::from_utf8_lossy(&raw).into_owned();
        outcome
    }

    fn guarded_now(input: &[u8], limits: Limits) -> Outcome {
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        runtime.block_on(guarded(input, limits))
    }

    /// The most the guard holds at once reading `input` (its output thrown away as it comes).
    fn peak_memory(input: impl AsyncRead + Unpin, limits: Limits) -> usize {
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let ((), peak) = counting::peak(|| {
            runtime.block_on(async {
                let (replies, mut answered) = mpsc::channel::<Vec<u8>>(2);
                let drain = async { while answered.recv().await.is_some() {} };
                let (ended, ()) =
                    tokio::join!(guard(input, tokio::io::sink(), replies, limits), drain);
                ended.unwrap();
            })
        });
        peak
    }

    #[tokio::test]
    async fn good_frames_pass_as_the_framework_reads_them() {
        let first = request(1, "initialize");
        let second = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
        let third = r#"{"jsonrpc":"2.0","id":"x","result":null}"#;
        let input = format!(
            "\r\n \t\nCONTENT-LENGTH:{}\nContent-Type: application/vscode-jsonrpc; charset=utf-8\n\n{first}\
             \r\n\r\n   \r\nX-Other: 1\r\ncontent-length: \t{} \r\n\r\n{second}Content-Length: {}\r\n\r\n{third}\n",
            first.len(),
            second.len(),
            third.len()
        );
        let out = guarded(input.as_bytes(), CLIENT).await;
        assert_eq!(out.replies, Vec::<Value>::new());
        let expected: Vec<u8> = [frame(&first), frame(second), frame(third)].concat();
        assert_eq!(out.raw, String::from_utf8(expected).unwrap());
    }

    #[tokio::test]
    async fn frames_arriving_a_byte_at_a_time_come_through_whole() {
        let body = request(7, "textDocument/hover");
        let input = [frame("{\"id\""), frame(&body)].concat();
        let (mut client, server) = tokio::io::duplex(1);
        let send = async move {
            for byte in input {
                client.write_all(&[byte]).await.unwrap();
            }
        };
        let (out, ()) = tokio::join!(guarded(server, CLIENT), send);
        assert_eq!(out.passed, [body.into_bytes()]);
        assert_eq!(out.errors().len(), 1, "{out:?}");
    }

    /// Each bad input, then a good request: the bad one is answered once with `code` and a
    /// message containing `says`, logged the same, and the good one passes.
    #[tokio::test]
    async fn every_bad_message_is_answered_and_the_next_one_is_read() {
        let id_too_large = format!(r#"{{"jsonrpc":"2.0","id":{},"method":"m"}}"#, 1u128 << 70);
        let framed = |body: &str| frame(body);
        let mut long_line = b"X-Padding: ".to_vec();
        long_line.resize(10_000, b'a');
        let cases: Vec<(&str, Vec<u8>, i64, &str)> = vec![
            (
                "non-UTF-8 header",
                b"Content-Length: 2\r\nX-Name: caf\xe9\r\n\r\n{}".to_vec(),
                -32700,
                "not printable ASCII",
            ),
            (
                "non-UTF-8 length",
                b"Content-Length: 2\xff\r\n\r\n{}".to_vec(),
                -32700,
                "not printable ASCII",
            ),
            ("empty object", framed("{}"), -32600, "`jsonrpc` is not \"2.0\""),
            ("empty array", framed("[]"), -32600, "a batch"),
            ("number", framed("5"), -32600, "`5` is not an object"),
            ("string", framed("\"x\""), -32600, "is not an object"),
            ("null", framed("null"), -32600, "`null` is not an object"),
            (
                "id true",
                framed(r#"{"jsonrpc":"2.0","id":true,"method":"m"}"#),
                -32600,
                "the id `true`",
            ),
            (
                "id 1.5",
                framed(r#"{"jsonrpc":"2.0","id":1.5,"method":"m"}"#),
                -32600,
                "the id `1.5`",
            ),
            ("id 2^70", framed(&id_too_large), -32600, "is not an integer (64-bit)"),
            (
                "id 2^63",
                framed(r#"{"jsonrpc":"2.0","id":9223372036854775808,"method":"m"}"#),
                -32600,
                "the id",
            ),
            (
                "batch",
                framed(&format!("[{}]", request(1, "shutdown"))),
                -32600,
                "LSP has no batches",
            ),
            (
                "method 5",
                framed(r#"{"jsonrpc":"2.0","id":1,"method":5}"#),
                -32600,
                "the method is not a string",
            ),
            (
                "jsonrpc 1.0",
                framed(r#"{"jsonrpc":"1.0","id":1,"method":"m"}"#),
                -32600,
                "`jsonrpc` is not",
            ),
            (
                "no method",
                framed(r#"{"jsonrpc":"2.0","params":{}}"#),
                -32600,
                "neither a method nor an id",
            ),
            (
                "bare id",
                framed(r#"{"jsonrpc":"2.0","id":4}"#),
                -32600,
                "exactly one of result and error",
            ),
            (
                "both",
                framed(r#"{"jsonrpc":"2.0","id":4,"result":1,"error":{"code":1,"message":"m"}}"#),
                -32600,
                "exactly one",
            ),
            (
                "method and result",
                framed(r#"{"jsonrpc":"2.0","id":4,"method":"m","result":1}"#),
                -32600,
                "a method with a result",
            ),
            (
                "bad error",
                framed(r#"{"jsonrpc":"2.0","id":4,"error":{"code":"x"}}"#),
                -32600,
                "untagged enum",
            ),
            (
                "duplicate id",
                framed(r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"m"}"#),
                -32600,
                "duplicate field `id`",
            ),
            ("not JSON", framed(r#"{"jsonrpc":"2.0","id""#), -32700, "not JSON"),
            (
                "trailing bytes",
                framed(r#"{"jsonrpc":"2.0","method":"m"} x"#),
                -32700,
                "trailing characters",
            ),
            ("empty body", b"Content-Length: 0\r\n\r\n".to_vec(), -32700, "not JSON"),
            (
                "body not UTF-8",
                b"Content-Length: 9\r\n\r\n{\"a\":\"\xff\"}".to_vec(),
                -32700,
                "not UTF-8",
            ),
            (
                "over 64 MiB",
                b"Content-Length: 67108865\r\n\r\n".to_vec(),
                -32700,
                "over the limit of 67108864",
            ),
            (
                "huge length",
                b"Content-Length: 99999999999999999999999\r\n\r\n{}".to_vec(),
                -32700,
                "over the limit",
            ),
            (
                "two equal lengths",
                b"Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}".to_vec(),
                -32700,
                "2 Content-Length headers",
            ),
            (
                "two lengths",
                b"Content-Length: 2\r\ncontent-length: 40\r\n\r\n{}".to_vec(),
                -32700,
                "2 Content-Length headers",
            ),
            (
                "negative length",
                b"Content-Length: -2\r\n\r\n{}".to_vec(),
                -32700,
                "not a number of bytes: `-2`",
            ),
            (
                "word length",
                b"Content-Length: two\r\n\r\n{}".to_vec(),
                -32700,
                "not a number of bytes: `two`",
            ),
            (
                "empty length",
                b"Content-Length:\r\n\r\n{}".to_vec(),
                -32700,
                "not a number of bytes",
            ),
            (
                "no length",
                b"Content-Type: application/vscode-jsonrpc\r\n\r\n{}".to_vec(),
                -32700,
                "without a Content-Length",
            ),
            (
                "no blank line",
                b"Content-Length: 2\r\n{}".to_vec(),
                -32700,
                "not `Name: value`: `{}Content-Length",
            ),
            ("no colon", b"Content-Length 2\r\n\r\n{}".to_vec(), -32700, "not `Name: value`"),
            ("bad name", b"Content Length: 2\r\n\r\n{}".to_vec(), -32700, "not `Name: value`"),
            ("long header line", long_line, -32700, "a message header longer than 8192 bytes"),
        ];
        let good = request(9, "shutdown");
        for (name, bad, code, says) in cases {
            let input = [bad, frame(&good)].concat();
            let out = guarded(&input[..], CLIENT).await;
            assert_eq!(out.passed, [good.as_bytes()], "{name}: {out:?}");
            let errors = out.errors();
            let [(got, message)] = &errors[..] else {
                panic!("{name}: one reply expected: {errors:?}")
            };
            assert_eq!(*got, code, "{name}: {message}");
            assert!(message.contains(says), "{name}: {message}");
            assert_eq!(out.malformed, std::slice::from_ref(message), "{name}");
        }
    }

    #[test]
    fn messages_of_too_many_values_are_refused_before_they_are_decoded() {
        let numbers = |n: usize| {
            let zeros = vec!["0"; n].join(",");
            frame(&format!(r#"{{"jsonrpc":"2.0","method":"m","params":[{zeros}]}}"#))
        };
        // The count is an upper bound: the zeros and six more (the object, and its members
        // once by their `:` and again by the `,` before them).
        let most = numbers(MAX_VALUES - 6);
        let out = guarded_now(&most, CLIENT);
        assert_eq!((out.passed.len(), out.replies.len()), (1, 0), "{:?}", out.errors());
        let too_many = numbers(MAX_VALUES - 5);
        let out = guarded_now(&too_many, CLIENT);
        assert_eq!(
            out.errors(),
            [(
                -32600,
                format!(
                    "the message is not a JSON-RPC 2.0 message: more than {MAX_VALUES} values in one message"
                )
            )]
        );
        let peak = peak_memory(&too_many[..], CLIENT);
        assert!(peak < 2 * too_many.len(), "{peak} bytes at once for {}", too_many.len());
        // Punctuation in strings is no value.
        let text = format!(
            r#"{{"jsonrpc":"2.0","method":"m","params":{{"text":"{}\\\",[:"}}}}"#,
            ",".repeat(MAX_VALUES)
        );
        let out = guarded_now(&frame(&text), CLIENT);
        assert_eq!((out.passed.len(), out.replies.len()), (1, 0), "{:?}", out.errors());
    }

    #[tokio::test]
    async fn a_message_cut_off_by_the_end_of_input_is_reported() {
        let out = guarded(&b"Content-Length: 50\r\n\r\n{\"jsonrpc\""[..], CLIENT).await;
        assert_eq!(
            out.errors(),
            [(-32700, "the input ended 10 bytes into a message of 50 bytes".into())]
        );
        let out = guarded(&b"\r\nContent-Length: 5\r"[..], CLIENT).await;
        assert_eq!(
            out.errors(),
            [(-32700, "the input ended inside a message header: `Content-Length: 5\\r`".into())]
        );
        assert!(out.passed.is_empty());
        let out = guarded(&b" \r\n\t \n"[..], CLIENT).await;
        assert!(out.replies.is_empty() && out.raw.is_empty(), "{out:?}");
    }

    #[tokio::test]
    async fn nothing_is_read_after_exit() {
        let exit = r#"{"jsonrpc":"2.0","method":"exit"}"#;
        let input = [frame(exit), frame(&request(2, "shutdown")), b"garbage".to_vec()].concat();
        let out = guarded(&input[..], CLIENT).await;
        assert_eq!(out.passed, [exit.as_bytes()]);
        assert!(out.replies.is_empty());
    }

    #[tokio::test]
    async fn a_bad_line_before_the_length_costs_only_itself() {
        let good = request(3, "shutdown");
        let input = format!("X-Junk\r\nContent-Length: {}\r\n\r\n{good}", good.len());
        let out = guarded(input.as_bytes(), CLIENT).await;
        assert_eq!(out.passed, [good.as_bytes()]);
        assert_eq!(out.errors().len(), 1);
    }

    #[test]
    fn endless_lines_whitespace_and_announced_bodies_take_bounded_memory() {
        let good = frame(&request(1, "shutdown"));
        let streams: [(&str, Box<dyn AsyncRead + Unpin>); 4] = [
            (
                "a line without end",
                Box::new(tokio::io::repeat(b'x').take(8 << 20).chain(&good[..])),
            ),
            ("whitespace", Box::new(tokio::io::repeat(b' ').take(8 << 20).chain(&good[..]))),
            ("newlines", Box::new(tokio::io::repeat(b'\n').take(8 << 20).chain(&good[..]))),
            (
                "a 64 MiB body announced, 4 bytes sent",
                Box::new(&b"Content-Length: 67108864\r\n\r\n{\"a\""[..]),
            ),
        ];
        for (name, stream) in streams {
            let peak = peak_memory(stream, CLIENT);
            assert!(peak < 128 << 10, "{name}: {peak} bytes at once");
        }
    }

    /// Arbitrary bytes, with long runs of one byte and pieces of headers mixed in.
    fn noise() -> impl Strategy<Value = Vec<u8>> {
        let piece = prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..64),
            (any::<u8>(), 1..20_000usize).prop_map(|(byte, n)| vec![byte; n]),
            (1..20_000usize).prop_map(|n| vec![b' '; n]),
            prop::sample::select(vec![
                &b"Content-Length: "[..],
                b"content-length:",
                b"Content-Lengt",
                b"Content-Type: x",
                b"\r\n",
                b"\n",
                b"\r",
                b"\r\n\r\n",
                b"{",
                b"}",
                b"\"jsonrpc\":\"2.0\"",
                b"12",
                b"999999999",
                b"-1",
                b"\xff",
            ])
            .prop_map(<[u8]>::to_vec),
        ];
        proptest::collection::vec(piece, 0..40).prop_map(|pieces| pieces.concat())
    }

    /// A message within [`SMALL`] that says nothing about headers.
    fn message() -> impl Strategy<Value = String> {
        (any::<i32>(), "[a-z/]{1,12}", "[ -~é€😀]{0,40}")
            .prop_filter("no header names in bodies", |(_, _, text)| {
                !text.to_ascii_lowercase().contains("content-length")
            })
            .prop_map(|(id, method, text)| {
                json!({"jsonrpc": "2.0", "id": id, "method": method, "params": {"text": text}})
                    .to_string()
            })
    }

    /// A frame of `body` with a header written any way the protocol allows.
    fn framed(body: String) -> impl Strategy<Value = (String, Vec<u8>)> {
        (any::<u32>(), prop::sample::select(vec![":", ": ", ":\t "]), any::<bool>(), any::<bool>())
            .prop_map(move |(case, colon, lf, content_type)| {
                let name: String = "Content-Length"
                    .chars()
                    .enumerate()
                    .map(|(i, c)| {
                        if case >> (i % 32) & 1 == 1 {
                            c.to_ascii_uppercase()
                        } else {
                            c.to_ascii_lowercase()
                        }
                    })
                    .collect();
                let end = if lf { "\n" } else { "\r\n" };
                let kind = if content_type {
                    format!("Content-Type: application/vscode-jsonrpc{end}")
                } else {
                    String::new()
                };
                let bytes =
                    format!("{kind}{name}{colon}{}{end}{end}{body}", body.len()).into_bytes();
                (body.clone(), bytes)
            })
    }

    /// Garbage that does not name the length header, so cannot start a frame.
    fn garbage() -> impl Strategy<Value = Vec<u8>> {
        noise()
            .prop_filter("garbage must not announce a frame", |bytes| find_length(bytes).is_none())
    }

    /// How a frame may be broken.
    #[derive(Debug, Clone)]
    enum Broken {
        Valid,
        CutJson,
        NotJsonRpc,
        BodyNotUtf8,
        HeaderNotUtf8,
        TwoLengths(bool),
        Negative,
        Word,
        TooLarge,
        NoBlankLine,
        NoLength,
        LongLine,
    }

    fn broken() -> impl Strategy<Value = Broken> {
        prop_oneof![
            4 => Just(Broken::Valid),
            1 => prop_oneof![
                Just(Broken::CutJson),
                Just(Broken::NotJsonRpc),
                Just(Broken::BodyNotUtf8),
                Just(Broken::HeaderNotUtf8),
                any::<bool>().prop_map(Broken::TwoLengths),
                Just(Broken::Negative),
                Just(Broken::Word),
                Just(Broken::TooLarge),
                Just(Broken::NoBlankLine),
                Just(Broken::NoLength),
                Just(Broken::LongLine),
            ],
        ]
    }

    /// The bytes of a frame of `body` broken as `how`.
    fn breaking(how: &Broken, body: &str) -> Vec<u8> {
        let length = body.len();
        let with = |header: &str, body: &[u8]| [header.as_bytes(), body].concat();
        match how {
            Broken::Valid => frame(body),
            Broken::CutJson => frame(&body[..body.rfind('}').unwrap()]),
            Broken::NotJsonRpc => frame(&body.replace("\"2.0\"", "\"1.0\"")),
            Broken::BodyNotUtf8 => {
                let mut bytes = frame(body);
                let last = bytes.len() - 3;
                bytes[last] = 0xff;
                bytes
            }
            Broken::HeaderNotUtf8 => [
                format!("Content-Length: {length}\r\nX-Name: ").into_bytes(),
                b"\xe9\r\n\r\n".to_vec(),
                body.as_bytes().to_vec(),
            ]
            .concat(),
            Broken::TwoLengths(same) => {
                let other = if *same { length } else { length + 3 };
                with(
                    &format!("Content-Length: {length}\r\nContent-Length: {other}\r\n\r\n"),
                    body.as_bytes(),
                )
            }
            Broken::Negative => {
                with(&format!("Content-Length: -{length}\r\n\r\n"), body.as_bytes())
            }
            Broken::Word => with("Content-Length: ten\r\n\r\n", body.as_bytes()),
            Broken::TooLarge => {
                with(&format!("Content-Length: {}\r\n\r\n", SMALL.body + 1), body.as_bytes())
            }
            Broken::NoBlankLine => with(&format!("Content-Length: {length}\r\n"), body.as_bytes()),
            Broken::NoLength => {
                with("Content-Type: application/vscode-jsonrpc\r\n\r\n", body.as_bytes())
            }
            Broken::LongLine => with(
                &format!(
                    "Content-Length: {length}\r\nX-Padding: {}\r\n\r\n",
                    "a".repeat(SMALL.header)
                ),
                body.as_bytes(),
            ),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

        #[test]
        fn arbitrary_bytes_never_panic_pass_only_messages_and_take_bounded_memory(input in noise()) {
            // `guarded` checks that whatever passes, the framework decodes.
            let out = guarded_now(&input, SMALL);
            prop_assert_eq!(out.replies.len(), out.malformed.len());
            let peak = peak_memory(&input[..], SMALL);
            prop_assert!(peak < 16 << 10, "{} bytes at once for {} of input", peak, input.len());
        }

        #[test]
        fn every_frame_after_garbage_and_a_blank_line_is_delivered(
            pieces in proptest::collection::vec((garbage(), message().prop_flat_map(framed)), 0..8),
        ) {
            let mut input = Vec::new();
            for (garbage, (_, frame)) in &pieces {
                input.extend_from_slice(garbage);
                input.extend_from_slice(b"\r\n\r\n");
                input.extend_from_slice(frame);
            }
            let out = guarded_now(&input, SMALL);
            let expected: Vec<Vec<u8>> = pieces.iter().map(|(_, (body, _))| body.clone().into_bytes()).collect();
            prop_assert_eq!(out.passed, expected);
        }

        #[test]
        fn broken_frames_are_reported_and_the_good_ones_still_delivered(
            frames in proptest::collection::vec((broken(), message()), 0..12),
        ) {
            let input: Vec<u8> = frames.iter().flat_map(|(how, body)| breaking(how, body)).collect();
            let out = guarded_now(&input, SMALL);
            let expected: Vec<Vec<u8>> = frames
                .iter()
                .filter(|(how, _)| matches!(how, Broken::Valid))
                .map(|(_, body)| body.clone().into_bytes())
                .collect();
            prop_assert_eq!(&out.passed, &expected);
            let broken = frames.len() - expected.len();
            let reported = out.errors().len();
            prop_assert!(reported <= broken && (reported > 0) == (broken > 0), "{} reports for {} broken frames", reported, broken);
            let peak = peak_memory(&input[..], SMALL);
            prop_assert!(peak < 16 << 10, "{} bytes at once", peak);
        }
    }
}
