//! What a Node child writes, passed on to sitegen's stderr through a pipe of the child's own.
//!
//! Node (libuv) makes the pipes it is given as stdout and stderr non-blocking, and that flag
//! belongs to the open pipe, not to the process: a child handed sitegen's own stderr left
//! sitegen writing to a non-blocking pipe, and once a slow reader (a CI log, `| less`) let the
//! pipe fill, sitegen's next `eprintln!` failed with `EAGAIN` and panicked. A child writing
//! through a relay can only change the relay's pipe; a thread copies from it to sitegen's stderr,
//! which blocks as a writer should.

use std::io::{PipeReader, PipeWriter, Read as _, Write};
use std::thread::JoinHandle;

use anyhow::{Context as _, Result};

/// A pipe for a child's output and the thread that copies it to sitegen's stderr.
#[derive(Debug)]
pub struct Relay {
    copying: JoinHandle<()>,
}

impl Relay {
    /// A relay and the end to hand a child (`Command::stderr`, or a clone of it to `stdout`
    /// too). The thread ends when every holder of that end has closed it: the child exited,
    /// and the command that spawned it is dropped.
    pub fn start() -> Result<(Self, PipeWriter)> {
        Self::to(std::io::stderr())
    }

    /// A relay to `out` instead of stderr.
    fn to(out: impl Write + Send + 'static) -> Result<(Self, PipeWriter)> {
        let (reader, writer) = std::io::pipe().context("opening a pipe for a child's output")?;
        let copying = std::thread::spawn(move || copy(reader, out));
        Ok((Self { copying }, writer))
    }

    /// Waits until everything the child wrote is on sitegen's stderr: before sitegen writes a
    /// message of its own about that child (its output first, then what sitegen makes of it).
    pub fn finish(self) {
        // The thread only copies bytes; a panic in it has nothing to hand on.
        let _ = self.copying.join();
    }
}

/// Copies `reader` to `out` until it ends, a chunk at a time so that lines show as they come.
fn copy(mut reader: PipeReader, mut out: impl Write) {
    let mut chunk = [0u8; 8192];
    loop {
        match reader.read(&mut chunk) {
            Ok(0) => return,
            Ok(n) => {
                // `out` gone: nothing more can be shown, but the child is still read so that
                // it never blocks on a full pipe.
                let _ = out.write_all(&chunk[..n]);
            }
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::{BufRead as _, BufReader};
    use std::os::fd::AsFd as _;

    use std::process::Stdio;

    use nix::fcntl::{FcntlArg, OFlag, fcntl};

    use super::*;

    fn nonblocking(pipe: &std::io::PipeWriter) -> bool {
        let flags = fcntl(pipe.as_fd(), FcntlArg::F_GETFL).expect("the descriptor's flags");
        OFlag::from_bits_truncate(flags).contains(OFlag::O_NONBLOCK)
    }

    /// A Node child that wrote a line and then waits, writing to `stderr`.
    fn node(stderr: impl Into<Stdio>) -> std::process::Child {
        std::process::Command::new("node")
            .args([
                "-e",
                "process.stderr.write('from node\\n'); setTimeout(() => {}, 20000)",
            ])
            .stderr(stderr)
            .spawn()
            .expect("node starts")
    }

    /// A Node child given a relay leaves the pipe sitegen writes to as it found it, and what it
    /// writes arrives. The same child handed that pipe itself makes it non-blocking (the fault
    /// the relay is for), so the test tells the two apart.
    #[test]
    fn a_node_child_cannot_make_the_parents_pipe_non_blocking() {
        // `parents` stands in for sitegen's stderr.
        let (reader, parents) = std::io::pipe().expect("a pipe");
        let mut reader = BufReader::new(reader);
        let (relay, child_end) =
            Relay::to(parents.try_clone().expect("the pipe again")).expect("a relay");
        let mut child = node(child_end);
        let mut line = String::new();
        reader.read_line(&mut line).expect("node's line");
        assert_eq!(line, "from node\n");
        assert!(!nonblocking(&parents));
        child.kill().expect("node stops");
        child.wait().expect("node exits");
        relay.finish();

        let mut child = node(parents.try_clone().expect("the pipe again"));
        line.clear();
        reader.read_line(&mut line).expect("node's line");
        let flagged = nonblocking(&parents);
        child.kill().expect("node stops");
        child.wait().expect("node exits");
        assert!(flagged, "Node no longer makes its stderr pipe non-blocking");
    }
}
