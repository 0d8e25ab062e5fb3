//! TLS for `https://` servers: the rustls configuration every HTTP client of a target is
//! built with, and the handshake checked once before a run so that a certificate we do
//! not trust is a harness error (exit 2, one clear message), not a page of findings about
//! a server we never reached.
//!
//! Trust is the platform's (on Linux the system's CA bundle, read by
//! `rustls-platform-verifier` as reqwest's default TLS does) plus the PEM files the user
//! names (`--ca-cert`, `[server] ca_cert`): a private CA, or a self-signed certificate.
//! Nothing is ever accepted unverified. The crypto provider is `ring`, handed to reqwest in
//! a prebuilt config rather than installed process-wide, so a program embedding the
//! library keeps its own default provider.
//!
//! An `http://` target gets a config that refuses every certificate and reads no trust
//! store: its clients never speak TLS (no redirect is followed), and a run over plain HTTP
//! costs nothing more than before.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{verify_tls12_signature, verify_tls13_signature, CryptoProvider};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{ClientConfig, DigitallySignedStruct, SignatureScheme};

use super::fact::HttpTarget;
use crate::errors::{Error, Result};

/// Verifiers already built, by the CA files they add (reading the system's bundle once
/// per run, not once per HTTP session).
type Cache = Mutex<Vec<(Vec<PathBuf>, Arc<dyn ServerCertVerifier>)>>;
static VERIFIERS: Cache = Mutex::new(Vec::new());

/// The rustls configuration of `target`'s clients (see the module doc).
pub(crate) fn client_config(target: &HttpTarget) -> Result<ClientConfig> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let https = target
        .url
        .trim_start()
        .to_ascii_lowercase()
        .starts_with("https:");
    let verifier: Arc<dyn ServerCertVerifier> = if https {
        verifier(&target.ca_certs, &provider)?
    } else {
        Arc::new(Refuse {
            reason: "not an https target".into(),
            provider: provider.clone(),
        })
    };
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| Error::BadUrl {
            url: target.url.clone(),
            reason: format!("cannot set up TLS: {e}"),
        })?
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth();
    Ok(config)
}

/// The platform's roots plus `ca_certs`, built once per set of files.
fn verifier(
    ca_certs: &[PathBuf],
    provider: &Arc<CryptoProvider>,
) -> Result<Arc<dyn ServerCertVerifier>> {
    let mut cache = VERIFIERS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, verifier)) = cache.iter().find(|(files, _)| files == ca_certs) {
        return Ok(verifier.clone());
    }
    let mut roots = Vec::new();
    for path in ca_certs {
        roots.extend(read_pem(path)?);
    }
    let verifier: Arc<dyn ServerCertVerifier> =
        match rustls_platform_verifier::Verifier::new_with_extra_roots(roots, provider.clone()) {
            Ok(verifier) => Arc::new(verifier),
            // No system roots (a bare container) and no --ca-cert: every handshake fails
            // with the reason.
            Err(e) => Arc::new(Refuse {
                reason: format!("no trusted certificate authority ({e})"),
                provider: provider.clone(),
            }),
        };
    cache.push((ca_certs.to_vec(), verifier.clone()));
    Ok(verifier)
}

/// The certificates of a PEM file; `Err` when it is unreadable or holds none.
fn read_pem(path: &PathBuf) -> Result<Vec<CertificateDer<'static>>> {
    let bad = |message: String| Error::Config {
        path: path.clone(),
        message,
    };
    let certs = CertificateDer::pem_file_iter(path)
        .map_err(|e| bad(e.to_string()))?
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(|e| bad(e.to_string()))?;
    if certs.is_empty() {
        return Err(bad("no PEM certificate in the file".into()));
    }
    Ok(certs)
}

/// Shakes hands with an `https` target once: `Err` ([`Error::Tls`]) when TLS fails, most
/// often a certificate we do not trust. A server that cannot be reached, or does not
/// answer within `timeout`, is left to the run (whose findings say so); an `http` target
/// is not contacted.
pub async fn check_tls(target: &HttpTarget, timeout: Duration) -> Result<()> {
    let url = target.parsed_url()?;
    if url.scheme() != "https" {
        return Ok(());
    }
    let (Some(host), Some(port)) = (url.host_str(), url.port_or_known_default()) else {
        return Ok(());
    };
    let host = host.trim_matches(['[', ']']).to_string();
    let name = match host.parse::<std::net::IpAddr>() {
        Ok(ip) => Ok(ServerName::from(ip)),
        Err(_) => ServerName::try_from(host.clone()),
    };
    let tls_error = |reason: String| Error::Tls {
        url: target.url.clone(),
        reason,
    };
    let name = name.map_err(|e| tls_error(e.to_string()))?;
    let connector = tokio_rustls::TlsConnector::from(Arc::new(client_config(target)?));
    let handshake = async {
        let Ok(tcp) = tokio::net::TcpStream::connect((host.as_str(), port)).await else {
            return Ok(());
        };
        connector.connect(name, tcp).await.map(drop).map_err(|e| {
            let untrusted = e
                .get_ref()
                .and_then(|inner| inner.downcast_ref::<rustls::Error>())
                .is_some_and(|e| matches!(e, rustls::Error::InvalidCertificate(_)));
            let hint = if e.to_string().contains("CaUsedAsEndEntity") {
                // `openssl req -x509` marks its certificate CA:TRUE by default; webpki
                // refuses a CA certificate as a server's own, trusted or not.
                " (the server's certificate is a CA certificate (basicConstraints CA:TRUE),                  which is refused as a server certificate even when trusted: make it with                  `-addext basicConstraints=critical,CA:FALSE`, or issue it from a CA)"
            } else if untrusted {
                " (a server whose certificate comes from a private CA, or is self-signed, \
                 needs that certificate trusted: --ca-cert PATH, or `ca_cert` in [server])"
            } else {
                ""
            };
            tls_error(format!("TLS handshake failed: {e}{hint}"))
        })
    };
    tokio::time::timeout(timeout, handshake)
        .await
        .unwrap_or(Ok(()))
}

/// A verifier that trusts nothing, with the reason.
#[derive(Debug)]
struct Refuse {
    reason: String,
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for Refuse {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> std::result::Result<ServerCertVerified, rustls::Error> {
        Err(rustls::Error::General(self.reason.clone()))
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(url: &str, ca_certs: Vec<PathBuf>) -> HttpTarget {
        HttpTarget {
            url: url.into(),
            headers: Vec::new(),
            ca_certs,
        }
    }

    #[test]
    fn an_http_target_builds_without_reading_a_trust_store() {
        assert!(client_config(&target("http://127.0.0.1:1/mcp", Vec::new())).is_ok());
    }

    #[test]
    fn a_missing_ca_file_is_a_config_error_naming_it() {
        let missing = PathBuf::from("/nonexistent/ca.pem");
        let err = client_config(&target("https://127.0.0.1:1/mcp", vec![missing]))
            .expect_err("a missing file");
        assert!(err.to_string().contains("/nonexistent/ca.pem"), "{err}");
    }

    #[test]
    fn a_file_without_certificates_is_refused() {
        let dir = std::env::temp_dir().join(format!("mcp-tls-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let empty = dir.join("empty.pem");
        std::fs::write(&empty, "not a certificate\n").unwrap();
        let err = client_config(&target("https://127.0.0.1:1/mcp", vec![empty]))
            .expect_err("no certificate");
        assert!(err.to_string().contains("no PEM certificate"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
