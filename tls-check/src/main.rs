//! Checks a shared library the way Datadog's OTEP 4947 writer checks its own: `otel_thread_ctx_v1`
//! must be a GLOBAL TLS symbol in `.dynsym`, and every dynamic relocation of it a TLSDESC one, so
//! that an outside reader (an eBPF or native profiler) can find each thread's record.
//!
//! Usage: `spanflight-tls-check LIBRARY...`. Prints one line per library, `ok PATH` or
//! `FAIL PATH: reason`, and exits 0 when every library passed, 1 when one failed, 2 on bad usage.
//! The check itself is the crate's (`libdd_otel_thread_ctx::sanity_check::check_tls_slot_in`);
//! this program only runs it on files named from outside.

use std::path::PathBuf;
use std::process::ExitCode;

use libdd_otel_thread_ctx::sanity_check::check_tls_slot_in;

fn main() -> ExitCode {
    let libraries: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    if libraries.is_empty() {
        eprintln!("usage: spanflight-tls-check LIBRARY...");
        return ExitCode::from(2);
    }
    let mut failed = 0;
    for library in &libraries {
        match check_tls_slot_in(library) {
            Ok(()) => println!("ok {}", library.display()),
            Err(error) => {
                failed += 1;
                println!("FAIL {}: {:#}", library.display(), error);
            }
        }
    }
    if failed == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) }
}
