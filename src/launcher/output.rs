//! Where the PEs' stdout and stderr go: the launcher's own (inherited, as is), one file per PE
//! and stream (`--output-filename`), and with `--tag-output` through a pipe that a launcher
//! thread reads line by line and writes out with the PE's tag, one whole line per write.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    Stdout,
    Stderr,
}

impl Stream {
    pub fn name(self) -> &'static str {
        match self {
            Stream::Stdout => "stdout",
            Stream::Stderr => "stderr",
        }
    }
}

/// Open MPI's tag of PE `rank`'s lines on `stream` (job number always 1).
pub fn tag(rank: usize, stream: Stream) -> String {
    format!("[1,{rank}]<{}>:", stream.name())
}

/// The file of PE `rank`'s `stream` under `dir`: DIR/rank.R/stdout, DIR/rank.R/stderr.
pub fn file_path(dir: &Path, rank: usize, stream: Stream) -> PathBuf {
    dir.join(format!("rank.{rank}")).join(stream.name())
}

/// Decrements the count of running forwarders when a forwarder thread ends, however it ends.
struct Running(Arc<AtomicUsize>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

pub struct Output {
    tag: bool,
    dir: Option<PathBuf>,
    forwarders: Arc<AtomicUsize>,
}

impl Output {
    pub fn new(tag: bool, dir: Option<PathBuf>) -> Output {
        Output { tag, dir, forwarders: Arc::new(AtomicUsize::new(0)) }
    }

    fn create_file(dir: &Path, rank: usize, stream: Stream) -> Result<File, String> {
        let path = file_path(dir, rank, stream);
        let parent = path.parent().unwrap_or(dir);
        std::fs::create_dir_all(parent).map_err(|e| format!("--output-filename: cannot create {}: {e}", parent.display()))?;
        File::create(&path).map_err(|e| format!("--output-filename: cannot create {}: {e}", path.display()))
    }

    /// What PE `rank`'s `stream` is connected to when it starts.
    pub fn stdio(&self, rank: usize, stream: Stream) -> Result<Stdio, String> {
        Ok(match (&self.dir, self.tag) {
            (_, true) => Stdio::piped(),
            (Some(dir), false) => Stdio::from(Self::create_file(dir, rank, stream)?),
            (None, false) => Stdio::inherit(),
        })
    }

    /// Starts the threads that tag PE `rank`'s lines (a no-op without --tag-output).
    pub fn forward(&self, rank: usize, child: &mut Child) -> Result<(), String> {
        if !self.tag {
            return Ok(());
        }
        let pipes: [(Stream, Option<Box<dyn Read + Send>>); 2] = [
            (Stream::Stdout, child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>)),
            (Stream::Stderr, child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>)),
        ];
        for (stream, pipe) in pipes {
            let Some(pipe) = pipe else { continue };
            let sink = match &self.dir {
                Some(dir) => Sink::File(Self::create_file(dir, rank, stream)?),
                None => Sink::Terminal(stream),
            };
            let prefix = tag(rank, stream).into_bytes();
            self.forwarders.fetch_add(1, Ordering::SeqCst);
            let running = Running(self.forwarders.clone());
            std::thread::Builder::new()
                .name(format!("rpnrun-out-{rank}"))
                .spawn(move || {
                    let _running = running;
                    forward_lines(pipe, &prefix, sink);
                })
                .map_err(|e| format!("cannot start the output thread of PE {rank}: {e}"))?;
        }
        Ok(())
    }

    /// Waits for the forwarders to write out what the PEs left in their pipes, at most `limit`
    /// (a pipe stays open while a process the PE started in the background holds it).
    pub fn finish(&self, limit: Duration) {
        let deadline = Instant::now() + limit;
        while self.forwarders.load(Ordering::SeqCst) > 0 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

enum Sink {
    Terminal(Stream),
    File(File),
}

impl Sink {
    /// One write per line, under the stream's lock: lines of different PEs never mix.
    fn write_line(&mut self, line: &[u8]) -> std::io::Result<()> {
        match self {
            Sink::Terminal(Stream::Stdout) => {
                let mut out = std::io::stdout().lock();
                out.write_all(line)?;
                out.flush()
            }
            Sink::Terminal(Stream::Stderr) => std::io::stderr().lock().write_all(line),
            Sink::File(f) => f.write_all(line),
        }
    }
}

/// Copies `pipe` to `sink` line by line, each line after `prefix`; a last line without its
/// newline gets one. Reads to the end even when the sink fails, so the PE never blocks on a
/// full pipe.
fn forward_lines(pipe: impl Read, prefix: &[u8], mut sink: Sink) {
    let mut reader = BufReader::new(pipe);
    let mut line = Vec::new();
    let mut sink_ok = true;
    loop {
        line.clear();
        line.extend_from_slice(prefix);
        match reader.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if line.last() != Some(&b'\n') {
            line.push(b'\n');
        }
        if sink_ok {
            sink_ok = sink.write_line(&line).is_ok();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_each_line_and_ends_the_last_one() {
        let dir = std::env::temp_dir().join(format!("rpnrun-output-test-{}", std::process::id()));
        let file = Output::create_file(&dir, 3, Stream::Stderr).unwrap();
        forward_lines(&b"one\ntwo\n\nlast"[..], tag(3, Stream::Stderr).as_bytes(), Sink::File(file));
        let text = std::fs::read_to_string(file_path(&dir, 3, Stream::Stderr)).unwrap();
        assert_eq!(text, "[1,3]<stderr>:one\n[1,3]<stderr>:two\n[1,3]<stderr>:\n[1,3]<stderr>:last\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
