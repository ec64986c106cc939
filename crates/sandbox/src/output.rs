//! What a bot writes during a turn (stdout, stderr, `botlens.log`), cut into lines and capped.
//!
//! Bytes past the per-turn cap are counted, not kept; the turn's log then ends with a line saying
//! how many were dropped. Writes never fail for the bot, so a chatty bot is not broken by the cap.

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
    kept: usize,
    dropped: u64,
    lines: Vec<String>,
    partial: [Vec<u8>; 2],
}

impl Output {
    pub fn new(cap: u64) -> Self {
        Output {
            cap: usize::try_from(cap).unwrap_or(usize::MAX),
            kept: 0,
            dropped: 0,
            lines: Vec::new(),
            partial: [Vec::new(), Vec::new()],
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
            let partial = &mut self.partial[stream as usize];
            partial.extend_from_slice(&rest[..newline]);
            self.lines.push(String::from_utf8_lossy(partial).into_owned());
            partial.clear();
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
        let kept = &bytes[..take.min(bytes.len())];
        self.lines
            .extend(kept.split(|&b| b == b'\n').map(|l| String::from_utf8_lossy(l).into_owned()));
    }

    /// Hands the turn's lines to `sink` (unfinished lines included, then a note of what was
    /// dropped) and starts afresh.
    pub fn flush(&mut self, mut sink: impl FnMut(String)) {
        for partial in &mut self.partial {
            if !partial.is_empty() {
                self.lines.push(String::from_utf8_lossy(partial).into_owned());
                partial.clear();
            }
        }
        self.lines.drain(..).for_each(&mut sink);
        if self.dropped > 0 {
            sink(format!(
                "[botlens: {} more bytes of output dropped; the limit is {} bytes per turn]",
                self.dropped, self.cap
            ));
        }
        self.kept = 0;
        self.dropped = 0;
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
        let mut output = Output::new(1000);
        output.write(Stream::Stdout, b"hel");
        output.write(Stream::Stderr, b"oops\n");
        output.write(Stream::Stdout, b"lo\nworld");
        output.log(b"noted");
        assert_eq!(lines(&mut output), ["oops", "hello", "noted", "world"]);
        assert!(lines(&mut output).is_empty());
    }

    #[test]
    fn output_past_the_cap_is_counted_and_reported() {
        let mut output = Output::new(10);
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
}
