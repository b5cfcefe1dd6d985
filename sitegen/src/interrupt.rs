//! Ctrl-C and SIGTERM during a build: the child processes and the work folders registered here
//! are killed and removed before sitegen exits (with 130 and 143, as a shell reports a process
//! stopped by them), so an interrupted build leaves no render worker running and no staging
//! folder beside the output. Without a registration the signals keep their default action.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Mutex, OnceLock};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

#[derive(Default)]
struct Registered {
    children: BTreeSet<u32>,
    dirs: BTreeSet<PathBuf>,
}

static REGISTERED: Mutex<Registered> = Mutex::new(Registered {
    children: BTreeSet::new(),
    dirs: BTreeSet::new(),
});

/// The exit code of the signal that interrupted sitegen, once one has.
static INTERRUPTED: AtomicU8 = AtomicU8::new(0);

/// The exit code sitegen owes an interruption (130 for Ctrl-C, 143 for SIGTERM), if it was
/// interrupted: a build that fails because its workers were stopped reports this instead.
pub fn interrupted() -> Option<u8> {
    match INTERRUPTED.load(Ordering::SeqCst) {
        0 => None,
        code => Some(code),
    }
}

/// Kills the child `pid` if sitegen is interrupted before [`forget_child`].
pub fn track_child(pid: u32) {
    watch();
    if let Ok(mut registered) = REGISTERED.lock() {
        registered.children.insert(pid);
    }
}

/// The child `pid` has been waited for.
pub fn forget_child(pid: u32) {
    if let Ok(mut registered) = REGISTERED.lock() {
        registered.children.remove(&pid);
    }
}

/// Removes `dir` if sitegen is interrupted while the returned guard lives.
pub fn track_dir(dir: PathBuf) -> DirGuard {
    watch();
    if let Ok(mut registered) = REGISTERED.lock() {
        registered.dirs.insert(dir.clone());
    }
    DirGuard(dir)
}

/// Keeps a folder registered for removal on interrupt until dropped.
#[derive(Debug)]
pub struct DirGuard(PathBuf);

impl Drop for DirGuard {
    fn drop(&mut self) {
        if let Ok(mut registered) = REGISTERED.lock() {
            registered.dirs.remove(&self.0);
        }
    }
}

/// Installs the handler once, on a thread of its own.
fn watch() {
    static WATCHING: OnceLock<()> = OnceLock::new();
    WATCHING.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .build();
        let Ok(runtime) = runtime else { return };
        // Registered here, before anything is tracked, so no signal finds it unwatched.
        let signals = runtime.block_on(async {
            use tokio::signal::unix::{SignalKind, signal};
            Ok::<_, std::io::Error>((
                signal(SignalKind::interrupt())?,
                signal(SignalKind::terminate())?,
            ))
        });
        let Ok((mut interrupt, mut terminate)) = signals else {
            return;
        };
        std::thread::spawn(move || {
            let code = runtime.block_on(async {
                tokio::select! {
                    _ = interrupt.recv() => 130u8,
                    _ = terminate.recv() => 143u8,
                }
            });
            INTERRUPTED.store(code, Ordering::SeqCst);
            eprintln!("sitegen: interrupted; stopping the render workers, nothing is published");
            let dirs = match REGISTERED.lock() {
                Ok(registered) => {
                    for &pid in &registered.children {
                        if let Ok(pid) = i32::try_from(pid) {
                            let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
                        }
                    }
                    registered.dirs.clone()
                }
                Err(_) => BTreeSet::new(),
            };
            // The build's threads notice their workers gone and stop; until they have, they may
            // still write into the folders: remove them until they stay gone (at most 2 s).
            let mut gone_since = 0;
            for _ in 0..100 {
                for dir in &dirs {
                    let _ = std::fs::remove_dir_all(dir);
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
                if dirs.iter().any(|dir| dir.exists()) {
                    gone_since = 0;
                } else {
                    gone_since += 1;
                    if gone_since == 3 {
                        break;
                    }
                }
            }
            std::process::exit(code.into());
        });
    });
}
