//! Faults while rendering are named and leave nothing behind: a page that throws names its route
//! and content file, a render worker that dies or hangs fails the build naming the route, the
//! previous output stays as it was, and no worker outlives sitegen, Ctrl-C and SIGTERM included.
//!
//! The About page of a copy of the site is made to misbehave when `NORDVALE_FAULT` (read only by
//! this copy) says so; the real `sitegen` binary builds it. Needs Node.js and the site's
//! packages (`make deps`).

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common;

const FAULT_ENV: &str = "NORDVALE_FAULT";

/// A copy of the site (without the photos, whose encoding is tests/images.rs's to check) whose
/// About page throws, kills its worker or never finishes, on demand.
struct Faulty {
    copy: common::Copy,
    cache: PathBuf,
    out: PathBuf,
}

impl Faulty {
    fn new() -> anyhow::Result<Self> {
        let copy = common::Copy::new()?;
        common::without_photos(&copy.content)?;
        common::one_language(&copy.content)?;
        let page = copy.site.join("pages/about/+Page.tsx");
        let text = std::fs::read_to_string(&page)?;
        let hook = format!(
            "  const fault = process.env.{FAULT_ENV}\n\
             \x20 if (fault === 'throw') throw new Error('the about page broke')\n\
             \x20 if (fault === 'kill') process.kill(process.pid, 'SIGKILL')\n\
             \x20 if (fault === 'hang') for (;;) {{}}\n"
        );
        let marker = "  const { page } = useData<Data>()\n";
        anyhow::ensure!(text.contains(marker), "the About page changed shape");
        std::fs::write(&page, text.replacen(marker, &format!("{marker}{hook}"), 1))?;
        let cache = copy.dir.path().join("cache");
        let out = copy.dir.path().join("dist");
        Ok(Self { copy, cache, out })
    }

    /// `sitegen build` with the fault `fault`, giving a page `timeout` seconds.
    fn command(&self, fault: &str, timeout: u32) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_sitegen"));
        command
            .args(["build", "--quiet", "--jobs", "2", "--page-timeout"])
            .arg(timeout.to_string())
            .arg("--content")
            .arg(&self.copy.content)
            .arg("--site")
            .arg(&self.copy.site)
            .arg("--out")
            .arg(&self.out)
            .arg("--cache-dir")
            .arg(&self.cache)
            .env(FAULT_ENV, fault)
            .stdin(Stdio::null());
        command
    }

    fn build(&self, fault: &str) -> anyhow::Result<Output> {
        Ok(self.command(fault, 3).output()?)
    }

    /// A new title for the About page (another at each call), so that it is rendered and its
    /// card drawn again.
    fn retitle_about(&self) -> anyhow::Result<()> {
        let about = self.copy.content.join("pages/about.yaml");
        let text = std::fs::read_to_string(&about)?;
        Ok(std::fs::write(
            &about,
            text.replacen("title: ", "title: New ", 1),
        )?)
    }

    /// That `output` is a failed build saying each of `said`, which left the output as
    /// `before` and no worker running.
    fn assert_failed(
        &self,
        output: &Output,
        said: &[&str],
        before: &std::collections::BTreeMap<String, Vec<u8>>,
    ) -> anyhow::Result<()> {
        let message = stderr(output);
        assert!(!output.status.success(), "{message}");
        for words in said {
            assert!(message.contains(words), "{words:?} in {message}");
        }
        assert_eq!(
            &common::tree(&self.out)?,
            before,
            "the previous output changed"
        );
        assert_eq!(common::workers_of(&self.copy.site), Vec::<u32>::new());
        Ok(())
    }
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Builds once without a fault and returns what the output holds.
fn good_build(faulty: &Faulty) -> anyhow::Result<std::collections::BTreeMap<String, Vec<u8>>> {
    let output = faulty.build("")?;
    anyhow::ensure!(
        output.status.success(),
        "the good build failed:\n{}",
        stderr(&output)
    );
    common::tree(&faulty.out)
}

#[test]
fn a_page_that_throws_names_its_route_and_content_file() -> anyhow::Result<()> {
    let faulty = Faulty::new()?;
    let before = good_build(&faulty)?;
    faulty.retitle_about()?;
    let output = faulty.build("throw")?;
    faulty.assert_failed(
        &output,
        &[
            "rendering /about (content: pages/about.yaml) failed",
            "the about page broke",
        ],
        &before,
    )
}

/// `vite build` runs beside the pictures and the cards: when it fails, the build fails with its
/// words once they are done, and publishes nothing.
#[test]
fn a_bundle_that_does_not_build_fails_the_build_with_vites_words() -> anyhow::Result<()> {
    let faulty = Faulty::new()?;
    let before = good_build(&faulty)?;
    let page = faulty.copy.site.join("pages/about/+Page.tsx");
    let text = std::fs::read_to_string(&page)?;
    std::fs::write(&page, format!("{text}\nexport const broken = (;\n"))?;
    // Changed content too, so a card is drawn beside the bundle.
    faulty.retitle_about()?;
    let output = faulty.build("")?;
    // Vite's own words name the file.
    faulty.assert_failed(
        &output,
        &["the site's bundle (vite build in", "+Page.tsx"],
        &before,
    )
}

#[test]
fn a_worker_that_dies_or_hangs_fails_the_build_naming_the_route() -> anyhow::Result<()> {
    let faulty = Faulty::new()?;
    let before = good_build(&faulty)?;
    for (fault, expected) in [
        ("kill", "the render worker exited (signal: 9"),
        (
            "hang",
            "the render worker answered nothing within 3s and was stopped",
        ),
    ] {
        // A new title each round, so the About page is rendered again.
        faulty.retitle_about()?;
        let output = faulty.build(fault)?;
        faulty.assert_failed(
            &output,
            &[
                expected,
                "while rendering /about (content: pages/about.yaml)",
            ],
            &before,
        )?;
    }
    Ok(())
}

#[test]
fn ctrl_c_and_sigterm_mid_build_leave_no_worker_running() -> anyhow::Result<()> {
    let faulty = Faulty::new()?;
    let before = good_build(&faulty)?;
    let about = faulty.copy.content.join("pages/about.yaml");
    for (n, signal, code) in [
        (1, nix::sys::signal::Signal::SIGINT, 130),
        (2, nix::sys::signal::Signal::SIGTERM, 143),
    ] {
        let text = std::fs::read_to_string(&about)?;
        std::fs::write(
            &about,
            text.replacen("title: ", &format!("title: Stop {n} "), 1),
        )?;
        // The About page hangs, so the build is surely mid-render when the signal comes.
        let mut child = faulty.command("hang", 600).stderr(Stdio::piped()).spawn()?;
        let started = Instant::now();
        while common::workers_of(&faulty.copy.site).is_empty() {
            anyhow::ensure!(
                started.elapsed() < Duration::from_secs(60),
                "no worker started"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        // Let the workers take the page.
        std::thread::sleep(Duration::from_millis(500));
        let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id())?);
        nix::sys::signal::kill(pid, signal)?;
        let status = child.wait()?;
        assert_eq!(status.code(), Some(code), "{signal}");
        assert_eq!(
            common::workers_of(&faulty.copy.site),
            Vec::<u32>::new(),
            "{signal}: workers left"
        );
        assert_eq!(
            common::tree(&faulty.out)?,
            before,
            "{signal}: the previous output changed"
        );
        let left: Vec<_> = std::fs::read_dir(faulty.copy.dir.path())?
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|name| name.contains("staging"))
            .collect();
        assert_eq!(
            left,
            Vec::<String>::new(),
            "{signal}: a staging folder was left"
        );
    }
    Ok(())
}
