//! Version negotiation probes (`LC-VERSION-ECHO`, `LC-VERSION-FALLBACK`).
//!
//! Whether an answered version is one the server "supports" can only be learned by
//! asking for it: a server supports version V when `initialize(V)` is answered with V
//! (REQUIREMENTS.md section 10 A1: probe each version to learn the server's set). The
//! revision runs already asked for every known revision; this adds one request for a
//! version nobody supports, and one for each answered version not yet asked for.

use super::initialize_params;
use crate::protocol::{Session, SessionConfig};
use crate::records::RevisionRecord;
use crate::records::{NegotiationRecord, ServerEra, VersionProbe, UNSUPPORTED_VERSION};
use crate::transport::ServerCommand;

/// At most this many extra echo probes (a server answering a new version each time
/// must not keep us spawning processes).
const MAX_ECHO_PROBES: usize = 4;

async fn probe(
    command: &ServerCommand,
    version: &str,
    config: &SessionConfig,
) -> crate::Result<VersionProbe> {
    let mut session = Session::start(command, config.clone())?;
    let exchange = session
        .request("initialize", Some(initialize_params(version)))
        .await;
    session.kill().await;
    Ok(VersionProbe {
        requested: version.to_string(),
        exchange,
        transcript: session.into_transcript(),
    })
}

/// The server's era from the revision runs: a modern run tells whether the server is
/// modern, and its closing `initialize` (or any legacy run's) whether it is legacy too.
pub fn era(records: &[&RevisionRecord]) -> Option<ServerEra> {
    let modern = records.iter().find_map(|r| r.modern.as_ref())?;
    if !modern.era.speaks() {
        return matches!(modern.era, crate::records::EraFinding::Legacy(_))
            .then_some(ServerEra::LegacyOnly);
    }
    let legacy_init = modern
        .initialize
        .as_ref()
        .is_some_and(|(x, _)| x.result().is_some())
        || records
            .iter()
            .any(|r| !r.requested.modern() && r.initialize.result().is_some());
    Some(if legacy_init {
        ServerEra::DualEra
    } else {
        ServerEra::ModernOnly
    })
}

/// Asks for [`UNSUPPORTED_VERSION`]. It needs nothing the revision runs learn, so it can
/// run beside them.
pub async fn probe_unsupported(
    command: &ServerCommand,
    config: &SessionConfig,
) -> crate::Result<VersionProbe> {
    probe(command, UNSUPPORTED_VERSION, config).await
}

/// With the unsupported-version probe done (`None`: it could not run), probes every
/// answered version not yet known.
pub async fn negotiate(
    command: &ServerCommand,
    records: &[&RevisionRecord],
    unsupported: Option<VersionProbe>,
    config: &SessionConfig,
) -> crate::Result<NegotiationRecord> {
    let mut out = NegotiationRecord {
        era: era(records),
        ..NegotiationRecord::default()
    };
    for record in records.iter().filter(|r| !r.requested.modern()) {
        out.echoes.insert(
            record.requested.id.to_string(),
            crate::records::answered(&record.initialize).map(str::to_string),
        );
    }
    if let Some(unsupported) = unsupported {
        out.echoes.insert(
            UNSUPPORTED_VERSION.to_string(),
            unsupported.answered().map(str::to_string),
        );
        out.unsupported = Some(unsupported);
    }
    for _ in 0..MAX_ECHO_PROBES {
        let unknown = out
            .echoes
            .values()
            .flatten()
            .find(|v| !out.echoes.contains_key(v.as_str()))
            .cloned();
        let Some(version) = unknown else { break };
        let p = probe(command, &version, config).await?;
        out.echoes.insert(version, p.answered().map(str::to_string));
        out.probes.push(p);
    }
    Ok(out)
}
