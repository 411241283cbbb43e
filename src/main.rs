//! The `meeplab` command line: argument parsing and dispatch only; no game logic here.

/// `print!` for the commands: a reader that went away (`meeplab play … | head`) ends the
/// program quietly instead of panicking on the broken pipe.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::write_stdout(format_args!($($arg)*))
    };
}

/// `println!` for the commands, with `out!`'s handling of a closed pipe.
macro_rules! outln {
    () => {
        $crate::write_stdout(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::write_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

mod cli;

/// Write to standard output; exit 0 at once when the reader has closed the pipe.
pub(crate) fn write_stdout(args: std::fmt::Arguments) {
    use std::io::Write;
    if let Err(e) = std::io::stdout().lock().write_fmt(args) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write to standard output: {e}");
        std::process::exit(1);
    }
}

use std::process::ExitCode;

fn main() -> ExitCode {
    let code = cli::run();
    // what is still buffered must get out too, or the command fails
    if let Err(e) = std::io::Write::flush(&mut std::io::stdout()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("error: cannot write to standard output: {e}");
            return ExitCode::from(1);
        }
    }
    code
}
