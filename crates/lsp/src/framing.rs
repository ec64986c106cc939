//! A guard in front of the protocol reader: malformed messages are reported instead of ending
//! the connection.
//!
//! The framework stops reading at the first frame it cannot decode, which would kill the server
//! over one bad message. [`sanitize`] copies Content-Length frames from the client through to
//! the framework, replacing a frame whose body is not JSON (or whose header is unreadable) with
//! a [`MALFORMED`] notification that the server logs; the connection stays up. Not for:
//! checking messages against the protocol (the framework answers those with errors itself).

use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// The notification a malformed frame is replaced with; its params are `{"error": "…"}`.
pub const MALFORMED: &str = "botlens/malformedMessage";

/// Frames larger than this are refused as malformed (and skipped).
const MAX_FRAME: usize = 64 << 20;

/// Copies frames from `input` to `output` until `input` ends, replacing malformed ones.
pub async fn sanitize<I, O>(mut input: I, mut output: O) -> std::io::Result<()>
where
    I: AsyncBufRead + Unpin,
    O: AsyncWrite + Unpin,
{
    loop {
        let mut length = None;
        let mut header_lines = 0;
        loop {
            let mut line = String::new();
            if input.read_line(&mut line).await? == 0 {
                return output.shutdown().await;
            }
            let line = line.trim_end();
            if line.is_empty() {
                if header_lines == 0 {
                    continue;
                }
                break;
            }
            header_lines += 1;
            if let Some((name, value)) = line.split_once(':')
                && name.trim().eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse::<usize>().ok();
            }
        }
        let frame = match length {
            Some(length) if length <= MAX_FRAME => {
                let mut body = vec![0; length];
                input.read_exact(&mut body).await?;
                match serde_json::from_slice::<serde_json::Value>(&body) {
                    Ok(_) => body,
                    Err(error) => malformed(&format!("the message is not JSON: {error}")),
                }
            }
            Some(length) => malformed(&format!("a message of {length} bytes is too large")),
            None => malformed("a message header without a readable Content-Length"),
        };
        output.write_all(format!("Content-Length: {}\r\n\r\n", frame.len()).as_bytes()).await?;
        output.write_all(&frame).await?;
        output.flush().await?;
    }
}

fn malformed(error: &str) -> Vec<u8> {
    serde_json::json!({"jsonrpc": "2.0", "method": MALFORMED, "params": {"error": error}})
        .to_string()
        .into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn through(input: &str) -> String {
        let mut output = Vec::new();
        sanitize(input.as_bytes(), &mut output).await.unwrap();
        String::from_utf8(output).unwrap()
    }

    #[tokio::test]
    async fn good_frames_pass_unchanged() {
        let frame = "Content-Length: 13\r\n\r\n{\"id\": true }";
        assert_eq!(through(&format!("{frame}{frame}")).await, format!("{frame}{frame}"));
    }

    #[tokio::test]
    async fn a_body_that_is_not_json_becomes_a_malformed_notification_and_reading_goes_on() {
        let out = through("Content-Length: 5\r\n\r\n{\"id\"Content-Length: 2\r\n\r\n{}").await;
        let expected_body = r#"{"jsonrpc":"2.0","method":"botlens/malformedMessage","params":{"error":"the message is not JSON: EOF while parsing an object at line 1 column 5"}}"#;
        assert_eq!(
            out,
            format!(
                "Content-Length: {}\r\n\r\n{expected_body}Content-Length: 2\r\n\r\n{{}}",
                expected_body.len()
            )
        );
    }

    #[tokio::test]
    async fn a_header_without_length_is_reported() {
        let out = through("Content-Type: x\r\n\r\nContent-Length: 2\r\n\r\n{}").await;
        assert!(out.contains("without a readable Content-Length"), "{out}");
        assert!(out.ends_with("Content-Length: 2\r\n\r\n{}"), "{out}");
    }
}
