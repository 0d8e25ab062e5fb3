//! stdout for a reader that may leave early: `mcp-conformance list | head` closes the pipe
//! after ten lines, and `print!` would then panic (exit 101). Every line the binary prints
//! goes through [`write_stdout`] (the `outln!` and `out!` macros): after a closed pipe
//! nothing more is written and the command ends with its own exit code, as `ls | head`
//! does. Any other write error (a full disk behind `>`) is kept and becomes a setup error
//! (exit 2) at the end, so a truncated report never passes for a whole one.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// Set once stdout cannot be written any more.
static CLOSED: AtomicBool = AtomicBool::new(false);
/// The first write error that was not a closed pipe.
static FAILED: Mutex<Option<std::io::Error>> = Mutex::new(None);

/// Writes `text` to stdout, unless it is closed.
pub(crate) fn write_stdout(text: &str) {
    if CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        CLOSED.store(true, Ordering::Relaxed);
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            FAILED
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .get_or_insert(e);
        }
    }
}

/// The write error that was not a closed pipe, if there was one.
pub(crate) fn take_error() -> Option<std::io::Error> {
    FAILED.lock().unwrap_or_else(|p| p.into_inner()).take()
}

/// `println!` through [`write_stdout`].
macro_rules! outln {
    () => {
        $crate::output::write_stdout("\n")
    };
    ($($arg:tt)*) => {
        $crate::output::write_stdout(&format!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` through [`write_stdout`].
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::output::write_stdout(&format!($($arg)*))
    };
}
