//! A TCP proxy in front of the store that dies, as a store or its network does, once the
//! client has sent it a given number of bytes: open connections are cut and new ones refused.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// The running proxy.
#[derive(Debug)]
pub struct DyingProxy {
    /// `http://127.0.0.1:PORT`.
    pub endpoint: String,
    dead: Arc<AtomicBool>,
}

impl DyingProxy {
    /// Forwards to `upstream` (`127.0.0.1:PORT`) until `budget` request bytes have passed.
    pub fn start(upstream: &str, budget: u64) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.set_nonblocking(true).expect("nonblocking");
        let endpoint = format!("http://{}", listener.local_addr().expect("address"));
        let dead = Arc::new(AtomicBool::new(false));
        let sent = Arc::new(AtomicU64::new(0));
        let upstream = upstream.to_owned();
        let flag = Arc::clone(&dead);
        std::thread::spawn(move || {
            while !flag.load(Ordering::SeqCst) {
                match listener.accept() {
                    Ok((client, _)) => {
                        let _ = client.set_nonblocking(false);
                        let Ok(server) = TcpStream::connect(&upstream) else {
                            continue;
                        };
                        pipe(&client, &server, Some((Arc::clone(&sent), budget)), &flag);
                        pipe(&server, &client, None, &flag);
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(2)),
                }
            }
            // The listener is dropped here: new connections are refused.
        });
        Self { endpoint, dead }
    }

    /// Whether the budget ran out.
    pub fn is_dead(&self) -> bool {
        self.dead.load(Ordering::SeqCst)
    }
}

fn pipe(
    from: &TcpStream,
    to: &TcpStream,
    budget: Option<(Arc<AtomicU64>, u64)>,
    dead: &Arc<AtomicBool>,
) {
    let (Ok(mut from), Ok(mut to)) = (from.try_clone(), to.try_clone()) else {
        return;
    };
    let dead = Arc::clone(dead);
    std::thread::spawn(move || {
        let _ = from.set_read_timeout(Some(Duration::from_millis(20)));
        let mut buf = [0u8; 16 * 1024];
        loop {
            if dead.load(Ordering::SeqCst) {
                break;
            }
            let n = match from.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    continue;
                }
                Err(_) => break,
            };
            if let Some((sent, limit)) = &budget
                && sent.fetch_add(n as u64, Ordering::SeqCst) + n as u64 > *limit
            {
                dead.store(true, Ordering::SeqCst);
                break;
            }
            if to.write_all(&buf[..n]).is_err() {
                break;
            }
        }
        let _ = from.shutdown(Shutdown::Both);
        let _ = to.shutdown(Shutdown::Both);
    });
}
