//! `reference-server` (hidden): the bundled conformant server on stdio (or Streamable
//! HTTP with `--http PORT`, or 2024-11-05's HTTP+SSE with `--sse PORT`), the default target
//! of `run`, with `--fault NAME` to break one rule on purpose. It lives in this binary so
//! that an installed `mcp-conformance` can always test itself.

use reference_server::{Era, Fault, HttpFault, HttpOptions, SseFault, SurfaceVariant};

use crate::args::ReferenceArgs;
use crate::exit::Exit;

/// Serves until stdin closes; the exit status is the server's own.
pub(crate) fn reference_server(args: ReferenceArgs) -> Exit {
    if args.list_faults {
        // With --http, the HTTP mode's own faults (the stdio ones apply over HTTP too).
        if args.http.is_some() {
            for f in HttpFault::ALL {
                outln!("{}\t{}", f.name(), f.description());
            }
            return Exit::Pass;
        }
        if args.sse.is_some() {
            for f in SseFault::ALL {
                outln!("{}\t{}", f.name(), f.description());
            }
            return Exit::Pass;
        }
        for f in Fault::ALL {
            outln!("{}\t{}", f.name(), f.description());
        }
        return Exit::Pass;
    }
    let fault = match args.fault.as_deref().map(str::parse::<Fault>) {
        None => None,
        Some(Ok(f)) => Some(f),
        Some(Err(_)) => {
            eprintln!("unknown fault; see --list-faults");
            return Exit::Usage;
        }
    };
    match args.surface.as_deref().map(str::parse::<SurfaceVariant>) {
        None => {}
        Some(Ok(variant)) => reference_server::set_surface_variant(variant),
        Some(Err(e)) => {
            eprintln!("{e}");
            return Exit::Usage;
        }
    }
    let Ok(era) = args.era.parse::<Era>() else {
        eprintln!("unknown era {:?}: dual, modern or legacy", args.era);
        return Exit::Usage;
    };
    if let Some(port) = args.http {
        let http_fault = match args.http_fault.as_deref().map(str::parse::<HttpFault>) {
            None => None,
            Some(Ok(f)) => Some(f),
            Some(Err(e)) => {
                eprintln!("{e}; see --list-faults");
                return Exit::Usage;
            }
        };
        let options = HttpOptions {
            fault,
            http_fault,
            era,
            polling: args.http_poll,
        };
        return Exit::Served(reference_server::run_http(port, options));
    }
    if let Some(port) = args.sse {
        let sse_fault = match args.sse_fault.as_deref().map(str::parse::<SseFault>) {
            None => None,
            Some(Ok(f)) => Some(f),
            Some(Err(e)) => {
                eprintln!("{e}; see --list-faults");
                return Exit::Usage;
            }
        };
        return Exit::Served(reference_server::run_sse(port, fault, sse_fault, era));
    }
    Exit::Served(reference_server::run_stdio_era(fault, era))
}
