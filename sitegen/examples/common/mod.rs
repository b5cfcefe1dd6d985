//! What the benchmark examples share: the generated articles and a copy of `content/`.
//! (Each example includes this folder with `mod common;`.)

use std::path::Path;

use anyhow::Result;

pub mod articles;
pub mod languages;

/// Copies the directory tree `from` to `to`.
pub fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    copy_dir_except(from, to, &[])
}

/// Copies the directory tree `from` to `to`, less the entries of `from` named in `left_out`.
pub fn copy_dir_except(from: &Path, to: &Path, left_out: &[&str]) -> Result<()> {
    let entries = walkdir::WalkDir::new(from)
        .into_iter()
        .filter_entry(|e| e.depth() != 1 || !left_out.iter().any(|name| e.file_name() == *name));
    for entry in entries {
        let entry = entry?;
        let target = to.join(entry.path().strip_prefix(from)?);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// The resident memory (kB) of `root` and every process under it, now, from /proc; `None`
/// where /proc cannot be read.
#[allow(dead_code)] // the examples that measure memory use it
pub fn tree_rss_kb(root: u32) -> Option<u64> {
    let mut parent_of = std::collections::HashMap::new();
    let mut rss = std::collections::HashMap::new();
    for entry in std::fs::read_dir("/proc").ok()?.filter_map(Result::ok) {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(status) = std::fs::read_to_string(entry.path().join("status")) else {
            continue;
        };
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
        };
        if let Some(ppid) = field("PPid:") {
            parent_of.insert(pid, ppid as u32);
        }
        rss.insert(pid, field("VmRSS:").unwrap_or(0));
    }
    let in_tree = |mut pid: u32| {
        while pid > 1 {
            if pid == root {
                return true;
            }
            pid = parent_of.get(&pid).copied().unwrap_or(0);
        }
        false
    };
    Some(
        rss.iter()
            .filter(|(pid, _)| in_tree(**pid))
            .map(|(_, kb)| kb)
            .sum(),
    )
}

/// The load average over the last 1, 5 and 15 minutes (`1.02 0.87 0.66`).
#[allow(dead_code)] // the examples that print it use it
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split(' ').take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_owned())
}
