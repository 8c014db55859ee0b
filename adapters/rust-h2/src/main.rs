//! hpack-stdio adapter for the HPACK encoder of Rust's h2 crate (Debian
//! librust-h2-dev, with its "unstable" feature).
//!
//! h2 keeps its `hpack::Encoder` inside the frame codec; the "unstable"
//! feature makes that codec public (`h2::Codec`, `h2::frame`). Each `new`
//! makes a fresh `Codec` (and so a fresh encoder, table size 4096) over an
//! in-memory sink; each acknowledged table size goes, in order, to
//! `Codec::set_send_header_table_size`, which is the encoder's
//! `update_max_size`; a sensitive field is a `HeaderValue` marked with
//! `set_sensitive(true)`, which h2's encoder sends never-indexed. A block is
//! one `frame::Headers` (a `frame::Pseudo` and an `http::HeaderMap`) given
//! to `Codec::buffer` and `Codec::flush`; the header block is the payload of
//! the HEADERS frame and its CONTINUATION frames, read back from the sink.
//!
//! What h2's API cannot express, declared in `hello`: the pseudo-header
//! fields come first (`pseudo-first`), only h2's six (:method, :scheme,
//! :authority, :path, :protocol, :status), each once, in that order, none
//! sensitive, with values h2 parses (`pseudo-order`); names are
//! `HeaderName`s, lowercased (`uppercase-names`), tokens (`token-names`) and
//! never empty (`empty-name`); a `HeaderMap` keeps a name's values together
//! (`grouped-names`); a `HeaderValue` refuses the controls but HTAB, and DEL
//! (`refuses`). A block h2 cannot take at all even so (a certifier that does
//! not know these lacks, a name over 65,535 octets) is answered
//! `unsupported`, before the library is called.
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

use bytes::Bytes;
use h2::ext::Protocol;
use h2::frame::{BytesStr, Frame, Headers, Pseudo, StreamId};
use h2::Codec;
use http::header::{HeaderMap, HeaderName, HeaderValue};
use http::{Method, StatusCode};
use serde_json::{json, Value};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The codec's transport: what h2 writes is kept, nothing is ever read.
struct Sink(Vec<u8>);

impl AsyncWrite for Sink {
    fn poll_write(mut self: Pin<&mut Self>, _: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        self.0.extend_from_slice(buf);
        Poll::Ready(Ok(buf.len()))
    }
    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

impl AsyncRead for Sink {
    fn poll_read(self: Pin<&mut Self>, _: &mut Context<'_>, _: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(())) // end of input
    }
}

/// The sink is always ready, so nothing ever needs waking.
struct NoWake;

impl Wake for NoWake {
    fn wake(self: Arc<Self>) {}
}

type H2Codec = Codec<Sink, Bytes>;

/// Why a block cannot be given to h2 (answered as unsupported), or why the
/// library failed (answered as an error).
enum Refusal {
    Unsupported(String),
    Error(String),
}

const FRAME_HEADERS: u8 = 0x1;
const FRAME_CONTINUATION: u8 = 0x9;
const FLAG_END_HEADERS: u8 = 0x4;
const FLAG_PADDED: u8 = 0x8;
const FLAG_PRIORITY: u8 = 0x20;

/// The rank of a pseudo-header field in the order h2 writes them.
fn pseudo_rank(name: &[u8]) -> Option<usize> {
    [&b":method"[..], b":scheme", b":authority", b":path", b":protocol", b":status"]
        .iter()
        .position(|p| *p == name)
}

fn utf8(name: &str, v: &[u8]) -> Result<String, Refusal> {
    String::from_utf8(v.to_vec())
        .map_err(|_| Refusal::Unsupported(format!("h2 takes the value of {} as a UTF-8 string", name)))
}

/// Builds h2's frame for the fields, or says why h2 cannot take them.
/// The order is h2's (declared in hello): its `Pseudo` writes the
/// pseudo-header fields first, in its order (`pseudo-first`,
/// `pseudo-order`), and its `HeaderMap` keeps the values of a name
/// together, at the name's first place (`grouped-names`). What h2 cannot
/// take at all is answered unsupported: no certifier that knows the
/// lacks declared asks for it.
fn headers_frame(fields: &[(Vec<u8>, Vec<u8>, bool)]) -> Result<Headers, Refusal> {
    let unsupported = |s: String| Refusal::Unsupported(s);
    let mut pseudo = Pseudo::default();
    let mut seen = [false; 6];
    let mut map = HeaderMap::new();
    for (i, (name, value, sensitive)) in fields.iter().enumerate() {
        let shown = String::from_utf8_lossy(name);
        if name.first() == Some(&b':') {
            let rank = pseudo_rank(name).ok_or_else(|| {
                unsupported(format!(
                    "field {}: h2 has no pseudo-header field {} (only :method, :scheme, :authority, :path, :protocol, :status)",
                    i, shown
                ))
            })?;
            if seen[rank] {
                return Err(unsupported(format!("field {}: h2's frame::Pseudo holds one {}", i, shown)));
            }
            seen[rank] = true;
            if *sensitive {
                return Err(unsupported(format!(
                    "field {}: h2 has no never-index API for a pseudo-header field ({})",
                    i, shown
                )));
            }
            match rank {
                0 => {
                    let m = Method::from_bytes(value).map_err(|e| unsupported(format!("field {}: :method: {}", i, e)))?;
                    pseudo.method = Some(m);
                }
                1 | 2 | 3 => {
                    let s = BytesStr::try_from(Bytes::copy_from_slice(value))
                        .map_err(|_| unsupported(format!("field {}: h2 takes the value of {} as a UTF-8 string", i, shown)))?;
                    match rank {
                        1 => pseudo.scheme = Some(s),
                        2 => pseudo.authority = Some(s),
                        _ => pseudo.path = Some(s),
                    }
                }
                4 => pseudo.protocol = Some(Protocol::from(utf8(":protocol", value)?.as_str())),
                _ => {
                    let s = StatusCode::from_bytes(value)
                        .map_err(|e| unsupported(format!("field {}: :status: {} (h2 takes a StatusCode)", i, e)))?;
                    pseudo.status = Some(s);
                }
            }
            continue;
        }
        // HeaderName lowercases (uppercase-names) and takes tokens only
        // (token-names), of at most 65,535 octets.
        let n = HeaderName::from_bytes(name)
            .map_err(|e| unsupported(format!("field {}: h2 takes an http::HeaderName, which refuses {:?}: {}", i, shown, e)))?;
        let mut v = HeaderValue::from_bytes(value)
            .map_err(|e| unsupported(format!("field {}: h2 takes an http::HeaderValue: {}", i, e)))?;
        v.set_sensitive(*sensitive);
        map.append(n, v);
    }
    Ok(Headers::new(StreamId::from(1), pseudo, map))
}

/// Encodes one block: the sizes through the codec's API, then the frame;
/// returns the header block read back from the frames h2 wrote.
fn encode(codec: &mut H2Codec, sizes: &[usize], fields: &[(Vec<u8>, Vec<u8>, bool)]) -> Result<Vec<u8>, Refusal> {
    let frame = caught(|| headers_frame(fields))?;
    let waker = Waker::from(Arc::new(NoWake));
    let mut cx = Context::from_waker(&waker);
    caught(|| {
        for &n in sizes {
            codec.set_send_header_table_size(n);
        }
        match codec.poll_ready(&mut cx) {
            Poll::Ready(Ok(())) => {}
            Poll::Ready(Err(e)) => return Err(Refusal::Error(format!("Codec::poll_ready: {}", e))),
            Poll::Pending => return Err(Refusal::Error("Codec::poll_ready is pending".into())),
        }
        codec
            .buffer(Frame::Headers(frame))
            .map_err(|e| Refusal::Error(format!("Codec::buffer: {:?}", e)))?;
        match codec.flush(&mut cx) {
            Poll::Ready(Ok(())) => Ok(()),
            Poll::Ready(Err(e)) => Err(Refusal::Error(format!("Codec::flush: {}", e))),
            Poll::Pending => Err(Refusal::Error("Codec::flush is pending".into())),
        }
    })?;
    let written = std::mem::take(&mut codec.get_mut().0);
    header_block(&written).map_err(Refusal::Error)
}

/// Runs f, turning a panic of the library into an error answer.
fn caught<T>(f: impl FnOnce() -> Result<T, Refusal>) -> Result<T, Refusal> {
    panic::catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|p| {
        let msg = p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "a panic".into());
        Err(Refusal::Error(format!("h2 panicked: {}", msg)))
    })
}

/// The header block carried by a HEADERS frame and its CONTINUATION frames.
fn header_block(mut frames: &[u8]) -> Result<Vec<u8>, String> {
    let mut block = Vec::new();
    let mut first = true;
    loop {
        if frames.len() < 9 {
            return Err(format!("h2 wrote {} octets, not a whole frame header", frames.len()));
        }
        let len = (frames[0] as usize) << 16 | (frames[1] as usize) << 8 | frames[2] as usize;
        let (kind, flags) = (frames[3], frames[4]);
        let want = if first { FRAME_HEADERS } else { FRAME_CONTINUATION };
        if kind != want {
            return Err(format!("h2 wrote a frame of type {:#x}, not {:#x}", kind, want));
        }
        if first && flags & (FLAG_PADDED | FLAG_PRIORITY) != 0 {
            return Err(format!("h2 wrote a HEADERS frame with flags {:#x} (padded or priority)", flags));
        }
        if frames.len() < 9 + len {
            return Err(format!("h2 wrote a frame of {} octets with {} after its header", len, frames.len() - 9));
        }
        block.extend_from_slice(&frames[9..9 + len]);
        frames = &frames[9 + len..];
        first = false;
        if flags & FLAG_END_HEADERS != 0 {
            break;
        }
    }
    if !frames.is_empty() {
        return Err(format!("h2 wrote {} octets after the header block's last frame", frames.len()));
    }
    Ok(block)
}

fn unhex(s: &str) -> Result<Vec<u8>, String> {
    let b = s.as_bytes();
    if b.len() % 2 != 0 {
        return Err(format!("odd-length hex {:?}", s));
    }
    let digit = |c: u8| -> Result<u8, String> {
        (c as char)
            .to_digit(16)
            .map(|d| d as u8)
            .ok_or_else(|| format!("not hex: {:?}", s))
    };
    b.chunks(2).map(|p| Ok(digit(p[0])? << 4 | digit(p[1])?)).collect()
}

fn hex(b: &[u8]) -> String {
    const D: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(b.len() * 2);
    for &x in b {
        s.push(D[(x >> 4) as usize] as char);
        s.push(D[(x & 15) as usize] as char);
    }
    s
}

/// Reads an encode request's members.
fn request(req: &Value) -> Result<(Vec<usize>, Vec<(Vec<u8>, Vec<u8>, bool)>), String> {
    let binary = req.get("binary").and_then(Value::as_bool).unwrap_or(false);
    let list = |m: &str| req.get(m).and_then(Value::as_array).ok_or_else(|| format!("encode without a {:?} list", m));
    let mut sizes = Vec::new();
    for s in list("table_sizes")? {
        let n = s.as_u64().ok_or_else(|| format!("table size {} is not a non-negative integer", s))?;
        sizes.push(n as usize);
    }
    let headers = list("headers")?;
    let sensitive = list("sensitive")?;
    if headers.len() != sensitive.len() {
        return Err(format!("{} headers but {} sensitive flags", headers.len(), sensitive.len()));
    }
    let octets = |v: &Value| -> Result<Vec<u8>, String> {
        let s = v.as_str().ok_or_else(|| format!("{} is not a string", v))?;
        if binary {
            unhex(s)
        } else {
            Ok(s.as_bytes().to_vec())
        }
    };
    let mut fields = Vec::with_capacity(headers.len());
    for (h, s) in headers.iter().zip(sensitive) {
        let pair = h.as_array().filter(|p| p.len() == 2).ok_or_else(|| format!("header {} is not a [name, value] pair", h))?;
        let s = s.as_bool().ok_or_else(|| format!("sensitive flag {} is not a boolean", s))?;
        fields.push((octets(&pair[0])?, octets(&pair[1])?, s));
    }
    Ok((sizes, fields))
}

fn main() {
    let name = format!("h2 {} (Rust)", env!("H2_VERSION"));
    let stdin = io::stdin();
    let mut stdout = io::stdout();
    let mut codec: Option<H2Codec> = None;
    let mut line = String::new();
    loop {
        line.clear();
        match stdin.lock().read_line(&mut line) {
            Ok(0) => return,
            Ok(_) => {}
            Err(e) => {
                eprintln!("rust-h2 adapter: reading standard input: {}", e);
                std::process::exit(1);
            }
        }
        let answer = match serde_json::from_str::<Value>(&line) {
            Err(e) => json!({ "error": format!("request is not JSON: {}", e) }),
            Ok(req) => match req.get("op").and_then(Value::as_str) {
                Some("hello") => json!({
                    "name": name,
                    "binary": true,
                    "lacks": ["pseudo-first", "uppercase-names", "empty-name", "grouped-names", "pseudo-order", "token-names"],
                    "refuses": [[0, 8], [10, 31], [127, 127]],
                }),
                Some("new") => {
                    codec = Some(Codec::new(Sink(Vec::new())));
                    json!({})
                }
                Some("encode") => match (codec.as_mut(), request(&req)) {
                    (None, _) => json!({ "error": "encode before new" }),
                    (_, Err(e)) => json!({ "error": e }),
                    (Some(c), Ok((sizes, fields))) => match encode(c, &sizes, &fields) {
                        Ok(block) => json!({ "wire": hex(&block) }),
                        Err(Refusal::Unsupported(why)) => json!({ "unsupported": why }),
                        Err(Refusal::Error(why)) => {
                            // The codec's state is unknown after a failure.
                            codec = None;
                            json!({ "error": why })
                        }
                    },
                },
                op => json!({ "error": format!("unknown op {:?}", op) }),
            },
        };
        let out = serde_json::to_string(&answer).expect("JSON of an answer");
        if writeln!(stdout, "{}", out).and_then(|_| stdout.flush()).is_err() {
            return;
        }
    }
}
