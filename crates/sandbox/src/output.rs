//! What a bot writes during a turn (stdout, stderr, `botlens.log`), cut into lines and capped.
//!
//! Bytes past the per-turn cap, and lines past the per-turn line cap, are counted, not kept; the
//! turn's log then ends with a line saying how many were dropped. Nothing is copied before it is
//! admitted, so a bot cannot make the host hold more than the caps. Writes never fail for the
//! bot, so a chatty bot is not broken by the caps.

/// Which stream a write went to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stream {
    Stdout = 0,
    Stderr = 1,
}

/// One turn's output, in the order lines were completed.
#[derive(Debug)]
pub(crate) struct Output {
    cap: usize,
    line_cap: usize,
    kept: usize,
    dropped: u64,
    dropped_lines: u64,
    lines: Vec<String>,
    partial: [Vec<u8>; 2],
}

impl Output {
    /// Output capped at `cap` bytes and `line_cap` lines per turn.
    pub fn new(cap: u64, line_cap: u64) -> Self {
        Output {
            cap: usize::try_from(cap).unwrap_or(usize::MAX),
            line_cap: usize::try_from(line_cap).unwrap_or(usize::MAX),
            kept: 0,
            dropped: 0,
            dropped_lines: 0,
            lines: Vec::new(),
            partial: [Vec::new(), Vec::new()],
        }
    }

    /// Keeps a finished line, or counts it as dropped past the line cap.
    fn push(&mut self, line: &[u8]) {
        if self.lines.len() < self.line_cap {
            self.lines.push(String::from_utf8_lossy(line).into_owned());
        } else {
            self.dropped_lines += 1;
        }
    }

    /// Bytes still allowed this turn, and counts the rest of `len` as dropped.
    fn admit(&mut self, len: usize) -> usize {
        let take = len.min(self.cap - self.kept);
        self.kept += take;
        self.dropped += (len - take) as u64;
        take
    }

    /// Appends bytes written to stdout or stderr; complete lines are kept as they end.
    pub fn write(&mut self, stream: Stream, bytes: &[u8]) {
        let take = self.admit(bytes.len());
        let mut rest = &bytes[..take];
        while let Some(newline) = rest.iter().position(|&b| b == b'\n') {
            let mut partial = std::mem::take(&mut self.partial[stream as usize]);
            partial.extend_from_slice(&rest[..newline]);
            self.push(&partial);
            partial.clear();
            self.partial[stream as usize] = partial;
            rest = &rest[newline + 1..];
        }
        self.partial[stream as usize].extend_from_slice(rest);
    }

    /// Adds one `botlens.log` message (one line per `\n`-separated part).
    pub fn log(&mut self, bytes: &[u8]) {
        let take = self.admit(bytes.len() + 1);
        if take == 0 {
            return;
        }
        for line in bytes[..take.min(bytes.len())].split(|&b| b == b'\n') {
            self.push(line);
        }
    }

    /// Hands the turn's lines to `sink` (unfinished lines included, then notes of what was
    /// dropped) and starts afresh.
    pub fn flush(&mut self, mut sink: impl FnMut(String)) {
        // Every line, unfinished line and note of a drop began with bytes admitted or dropped:
        // a turn that wrote nothing (most turns) has nothing to hand over.
        if self.kept == 0 && self.dropped == 0 {
            return;
        }
        for stream in 0..self.partial.len() {
            let partial = std::mem::take(&mut self.partial[stream]);
            if !partial.is_empty() {
                self.push(&partial);
            }
        }
        self.lines.drain(..).for_each(&mut sink);
        if self.dropped_lines > 0 {
            sink(format!(
                "… {} more lines (dropped; the limit is {} lines per turn)",
                self.dropped_lines, self.line_cap
            ));
        }
        if self.dropped > 0 {
            sink(format!(
                "[botlens: {} more bytes of output dropped; the limit is {} bytes per turn]",
                self.dropped, self.cap
            ));
        }
        self.kept = 0;
        self.dropped = 0;
        self.dropped_lines = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(output: &mut Output) -> Vec<String> {
        let mut lines = Vec::new();
        output.flush(|line| lines.push(line));
        lines
    }

    #[test]
    fn lines_are_cut_at_newlines_per_stream_and_flushed_at_the_end() {
        let mut output = Output::new(1000, 100);
        output.write(Stream::Stdout, b"hel");
        output.write(Stream::Stderr, b"oops\n");
        output.write(Stream::Stdout, b"lo\nworld");
        output.log(b"noted");
        assert_eq!(lines(&mut output), ["oops", "hello", "noted", "world"]);
        assert!(lines(&mut output).is_empty());
    }

    #[test]
    fn an_empty_write_is_nothing_and_an_empty_log_message_an_empty_line() {
        let mut output = Output::new(1000, 100);
        output.write(Stream::Stdout, b"");
        assert!(lines(&mut output).is_empty());
        output.log(b"");
        assert_eq!(lines(&mut output), [""]);
        let mut capped = Output::new(0, 100);
        capped.log(b"");
        assert_eq!(
            lines(&mut capped),
            ["[botlens: 1 more bytes of output dropped; the limit is 0 bytes per turn]"]
        );
    }

    #[test]
    fn output_past_the_cap_is_counted_and_reported() {
        let mut output = Output::new(10, 100);
        output.write(Stream::Stdout, b"0123456\n89abcdef\n");
        output.log(b"dropped entirely");
        assert_eq!(
            lines(&mut output),
            [
                "0123456",
                "89",
                "[botlens: 24 more bytes of output dropped; the limit is 10 bytes per turn]"
            ]
        );
        output.write(Stream::Stdout, b"new turn\n");
        assert_eq!(lines(&mut output), ["new turn"]);
    }

    #[test]
    fn lines_past_the_line_cap_are_counted_and_reported_once() {
        let mut output = Output::new(1 << 20, 3);
        output.log(&[b'\n'; 65_536]);
        output.write(Stream::Stderr, b"a\nb\nunfinished");
        assert_eq!(
            lines(&mut output),
            ["", "", "", "… 65537 more lines (dropped; the limit is 3 lines per turn)"]
        );
        output.log(b"next turn");
        assert_eq!(lines(&mut output), ["next turn"]);
    }
}
