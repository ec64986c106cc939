//! A run's standard output and error, read as it writes them and kept up to a bound: the rest
//! is read (so the program never blocks on a full pipe) and dropped.
//!
//! Not for: interpreting what a program wrote (its caller does).

use std::io::Read;
use std::process::Child;
use std::thread::JoinHandle;

/// The two streams of a started run, each read on a thread of its own.
pub(crate) struct Streams {
    stdout: Option<JoinHandle<(Vec<u8>, bool)>>,
    stderr: Option<JoinHandle<(Vec<u8>, bool)>>,
}

impl Streams {
    /// Starts reading `child`'s piped streams, keeping `limit` bytes of each.
    pub(crate) fn read(child: &mut Child, limit: usize) -> Streams {
        let stdout = child.stdout.take().map(|s| std::thread::spawn(move || bounded(s, limit)));
        let stderr = child.stderr.take().map(|s| std::thread::spawn(move || bounded(s, limit)));
        Streams { stdout, stderr }
    }

    /// What was read (stdout, stderr, whether either was cut), once the run has ended.
    pub(crate) fn finish(self) -> (Vec<u8>, Vec<u8>, bool) {
        let join = |handle: Option<JoinHandle<(Vec<u8>, bool)>>| {
            handle.and_then(|h| h.join().ok()).unwrap_or_default()
        };
        let (stdout, cut_out) = join(self.stdout);
        let (stderr, cut_err) = join(self.stderr);
        (stdout, stderr, cut_out || cut_err)
    }
}

/// Everything `stream` gives until its end, the first `limit` bytes kept; whether more came.
pub(crate) fn bounded(mut stream: impl Read, limit: usize) -> (Vec<u8>, bool) {
    let mut kept = Vec::new();
    let mut buffer = [0u8; 16 * 1024];
    let mut cut = false;
    loop {
        match stream.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => {
                let room = limit.saturating_sub(kept.len());
                kept.extend_from_slice(&buffer[..n.min(room)]);
                cut |= n > room;
            }
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    (kept, cut)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_is_kept_up_to_its_bound_and_read_to_its_end() {
        let long = vec![b'x'; 100_000];
        let (kept, cut) = bounded(long.as_slice(), 10);
        assert_eq!((kept.as_slice(), cut), (&b"xxxxxxxxxx"[..], true));
        let (kept, cut) = bounded(&b"short"[..], 10);
        assert_eq!((kept.as_slice(), cut), (&b"short"[..], false));
    }
}
