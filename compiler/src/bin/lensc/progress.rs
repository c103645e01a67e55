//! Progress of long jobs (several input files) on standard error.
//!
//! A bar over the job's steps is drawn only on a terminal, only once the job has run for
//! [`DELAY`] (short jobs print nothing, so nothing flickers), and is cleared when the job ends,
//! so that diagnostics and reports stay readable. `LENSC_NO_PROGRESS` (any value) turns it off.
//! Pipes, files and the test suite never see it.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a job runs before its bar appears.
pub const DELAY: Duration = Duration::from_millis(300);

pub struct Progress {
    bar: ProgressBar,
    start: Instant,
    delay: Duration,
    /// Where the bar goes once `delay` has passed (`None`: nowhere).
    target: Option<fn() -> ProgressDrawTarget>,
}

impl Progress {
    /// A job of `steps` steps (`what` names them, e.g. "files"), drawn on standard error when
    /// it is a terminal and the job has at least 2 steps.
    pub fn new(steps: usize, what: &str) -> Progress {
        let enabled = steps >= 2
            && std::io::stderr().is_terminal()
            && std::env::var_os("LENSC_NO_PROGRESS").is_none();
        Progress::with_target(
            steps,
            what,
            DELAY,
            enabled.then_some(ProgressDrawTarget::stderr as fn() -> ProgressDrawTarget),
        )
    }

    fn with_target(
        steps: usize,
        what: &str,
        delay: Duration,
        target: Option<fn() -> ProgressDrawTarget>,
    ) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(steps as u64), ProgressDrawTarget::hidden());
        let template = format!("{{bar:30}} {{pos}}/{{len}} {what}  {{wide_msg}}");
        if let Ok(style) = ProgressStyle::with_template(&template) {
            bar.set_style(style.progress_chars("=> "));
        }
        Progress {
            bar,
            start: Instant::now(),
            delay,
            target,
        }
    }

    /// Step `label` starts (e.g. the file about to be read).
    pub fn start(&mut self, label: &str) {
        self.bar.set_message(label.to_string());
        self.show_if_due();
    }

    /// The current step is done.
    pub fn done(&mut self) {
        self.bar.inc(1);
        self.show_if_due();
    }

    fn show_if_due(&mut self) {
        if let Some(target) = self.target
            && self.start.elapsed() >= self.delay
        {
            self.bar.set_draw_target(target());
            self.target = None;
        }
    }

    /// Run `f` (which prints on stderr) with the bar lifted, so lines do not mix with it.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// Steps done so far.
    #[cfg(test)]
    fn position(&self) -> u64 {
        self.bar.position()
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use indicatif::InMemoryTerm;
    use std::sync::OnceLock;

    static TERM: OnceLock<InMemoryTerm> = OnceLock::new();

    fn term() -> InMemoryTerm {
        TERM.get_or_init(|| InMemoryTerm::new(4, 80)).clone()
    }

    fn in_memory() -> ProgressDrawTarget {
        ProgressDrawTarget::term_like(Box::new(term()))
    }

    #[test]
    fn a_due_bar_shows_the_step_count_and_a_short_job_shows_nothing() {
        // Not due yet: nothing is drawn while the job runs.
        let mut quiet =
            Progress::with_target(3, "files", Duration::from_secs(3600), Some(in_memory));
        quiet.start("a.db");
        quiet.done();
        assert_eq!(quiet.position(), 1);
        assert_eq!(term().contents().trim(), "");
        drop(quiet);

        // Due at once: the bar counts steps and names the current one.
        let mut p = Progress::with_target(3, "files", Duration::ZERO, Some(in_memory));
        p.start("a.db");
        p.done();
        p.start("b.db");
        p.done();
        p.start("c.db");
        p.bar.tick();
        let shown = term().contents();
        assert!(shown.contains("2/3 files"), "{shown:?}");
        assert!(shown.contains("c.db"), "{shown:?}");
        drop(p);
        // Cleared at the end, so reports printed afterwards stand alone.
        assert_eq!(term().contents().trim(), "");
    }

    #[test]
    fn without_a_terminal_nothing_is_drawn() {
        let mut p = Progress::with_target(2, "files", Duration::ZERO, None);
        p.start("a");
        p.done();
        assert!(p.bar.is_hidden());
    }
}
