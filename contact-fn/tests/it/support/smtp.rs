//! A real SMTP server for the tests and the benchmark (`examples/load.rs` includes this file):
//! `mailin`'s state machine on a thread per connection, keeping every message it accepts.
#![allow(dead_code, clippy::unwrap_used)]

use std::io::{BufRead as _, BufReader};
use std::net::{SocketAddr, TcpListener};
use std::sync::{Arc, Mutex};

use mailin::{Action, Handler, Response, SessionBuilder, response};

/// What the test SMTP server does with messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Accept every message.
    Accept,
    /// Refuse every recipient with 550 (a permanent failure).
    RejectRecipients,
}

/// One message as the SMTP server received it.
#[derive(Debug, Clone)]
pub struct Received {
    /// MAIL FROM.
    pub from: String,
    /// RCPT TO, in order.
    pub to: Vec<String>,
    /// The message as sent after DATA.
    pub data: Vec<u8>,
}

impl Received {
    /// The parsed message.
    pub fn parsed(&self) -> mail_parser::Message<'_> {
        mail_parser::MessageParser::default()
            .parse(&self.data)
            .expect("the received message parses")
    }
}

#[derive(Clone)]
struct Sink {
    mode: Mode,
    received: Arc<Mutex<Vec<Received>>>,
    from: String,
    to: Vec<String>,
    data: Vec<u8>,
}

impl Handler for Sink {
    fn mail(&mut self, _ip: std::net::IpAddr, _domain: &str, from: &str) -> Response {
        self.from = from.to_owned();
        self.to.clear();
        response::OK
    }

    fn rcpt(&mut self, to: &str) -> Response {
        match self.mode {
            Mode::Accept => {
                self.to.push(to.to_owned());
                response::OK
            }
            Mode::RejectRecipients => response::NO_MAILBOX,
        }
    }

    fn data_start(
        &mut self,
        _domain: &str,
        _from: &str,
        _is8bit: bool,
        _to: &[String],
    ) -> Response {
        self.data.clear();
        response::START_DATA
    }

    fn data(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.data.extend_from_slice(buf);
        Ok(())
    }

    fn data_end(&mut self) -> Response {
        self.received.lock().unwrap().push(Received {
            from: self.from.clone(),
            to: self.to.clone(),
            data: std::mem::take(&mut self.data),
        });
        response::OK
    }
}

/// A real SMTP server on a loopback port, running on its own threads.
#[derive(Debug, Clone)]
pub struct SmtpServer {
    /// Where it listens.
    pub addr: SocketAddr,
    received: Arc<Mutex<Vec<Received>>>,
}

impl SmtpServer {
    /// Starts a server on a free port.
    pub fn start(mode: Mode) -> Self {
        Self::start_on(TcpListener::bind("127.0.0.1:0").unwrap(), mode)
    }

    /// Starts a server on an already bound listener.
    pub fn start_on(listener: TcpListener, mode: Mode) -> Self {
        let addr = listener.local_addr().unwrap();
        let received = Arc::new(Mutex::new(Vec::new()));
        let handler = Sink {
            mode,
            received: received.clone(),
            from: String::new(),
            to: Vec::new(),
            data: Vec::new(),
        };
        let session = SessionBuilder::new("smtp.test");
        // The server runs for the rest of the test process (each test is its own process):
        // a thread per connection, which lettre's pool keeps open between messages.
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let (session, handler) = (session.clone(), handler.clone());
                std::thread::spawn(move || {
                    if let Err(error) = converse(&session, handler, stream) {
                        eprintln!("the test SMTP server's connection ended: {error}");
                    }
                });
            }
        });
        Self { addr, received }
    }

    /// The URL the service is given to reach it.
    pub fn url(&self) -> String {
        format!("smtp://{}", self.addr)
    }

    /// How many messages arrived so far.
    pub fn count(&self) -> usize {
        self.received.lock().unwrap().len()
    }

    /// Everything received so far.
    pub fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }
}

/// One client's SMTP session on `stream`: each line it sends goes through `mailin`'s state
/// machine, whose answers (and `handler`'s) go back, until it quits or hangs up.
fn converse(
    session: &SessionBuilder,
    handler: Sink,
    stream: std::net::TcpStream,
) -> std::io::Result<()> {
    use std::io::Write as _;
    let peer = stream.peer_addr()?.ip();
    let mut writer = std::io::BufWriter::new(stream.try_clone()?);
    let mut reader = BufReader::new(stream);
    let mut session = session.build(peer, handler);
    session.greeting().write_to(&mut writer)?;
    writer.flush()?;
    let mut line = Vec::with_capacity(80);
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        let response = session.process(&line);
        match response.action {
            Action::NoReply => {}
            Action::Reply | Action::UpgradeTls => {
                response.write_to(&mut writer)?;
                writer.flush()?;
            }
            Action::Close => {
                response.write_to(&mut writer)?;
                return writer.flush();
            }
        }
    }
}
