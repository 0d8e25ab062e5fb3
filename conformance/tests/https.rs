//! `https://` URLs end to end on 127.0.0.1: the reference server's HTTP mode behind a TLS
//! terminator of this test, whose certificate is self-signed and made here (rcgen).
//! With `--ca-cert` naming it the run passes every check; without it the run stops at once
//! with a certificate error (exit 2, a harness error), not with findings.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::Arc;

use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio::sync::oneshot;

const EXE: &str = env!("CARGO_BIN_EXE_mcp-conformance");

/// The reference server over plain HTTP, killed when dropped.
struct Backend {
    child: Child,
    port: u16,
}

impl Backend {
    fn start() -> Self {
        let mut child = Command::new(EXE)
            .args(["reference-server", "--http", "0"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the reference server");
        let stderr = child.stderr.take().expect("its stderr");
        let mut line = String::new();
        BufReader::new(stderr)
            .read_line(&mut line)
            .expect("its first line");
        let port = line
            .trim()
            .strip_prefix("listening on http://127.0.0.1:")
            .and_then(|rest| rest.strip_suffix("/mcp"))
            .and_then(|port| port.parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        Self { child, port }
    }
}

impl Drop for Backend {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Accepts TLS on a port of 127.0.0.1 and relays each connection's bytes to `backend`;
/// stops when dropped.
struct Terminator {
    port: u16,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Terminator {
    fn start(cert: CertificateDer<'static>, key: PrivateKeyDer<'static>, backend: u16) -> Self {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .expect("TLS versions")
            .with_no_client_auth()
            .with_single_cert(vec![cert], key)
            .expect("a server config");
        let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .expect("a port");
        let port = listener.local_addr().expect("its address").port();
        let (stop, stopped) = oneshot::channel();
        let thread = std::thread::spawn(move || {
            runtime.block_on(async move {
                let serve = async {
                    while let Ok((tcp, _)) = listener.accept().await {
                        let acceptor = acceptor.clone();
                        // Each TLS record at once: Nagle's delay against the client's
                        // delayed ACK would add 40 ms to every message.
                        let _ = tcp.set_nodelay(true);
                        tokio::spawn(async move {
                            // A client refusing our certificate ends the handshake: fine.
                            let Ok(tls) = acceptor.accept(tcp).await else {
                                return;
                            };
                            let Ok(plain) =
                                tokio::net::TcpStream::connect(("127.0.0.1", backend)).await
                            else {
                                return;
                            };
                            let _ = plain.set_nodelay(true);
                            relay(tls, plain).await;
                        });
                    }
                };
                tokio::select! {
                    _ = serve => {}
                    _ = stopped => {}
                }
            });
        });
        Self {
            port,
            stop: Some(stop),
            thread: Some(thread),
        }
    }
}

impl Drop for Terminator {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Copies both ways until either side ends, then closes both. Not a half-close, as
/// `copy_bidirectional` would do: the reference server (tiny_http, a thread per connection)
/// would never see a client that went away, and its workers would run out.
async fn relay(
    tls: tokio_rustls::server::TlsStream<tokio::net::TcpStream>,
    plain: tokio::net::TcpStream,
) {
    use tokio::io::AsyncWriteExt;
    let (mut tls_in, mut tls_out) = tokio::io::split(tls);
    let (mut plain_in, mut plain_out) = plain.into_split();
    tokio::select! {
        _ = tokio::io::copy(&mut tls_in, &mut plain_out) => {}
        _ = async {
            let _ = tokio::io::copy(&mut plain_in, &mut tls_out).await;
            let _ = tls_out.shutdown().await;
        } => {}
    }
}

/// A self-signed certificate for 127.0.0.1, its PEM written to `dir/cert.pem`.
fn self_signed(dir: &Path) -> (PathBuf, CertificateDer<'static>, PrivateKeyDer<'static>) {
    let certified =
        rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_string()]).expect("a certificate");
    let pem = dir.join("cert.pem");
    std::fs::write(&pem, certified.cert.pem()).expect("write the PEM");
    let key = PrivatePkcs8KeyDer::from(certified.signing_key.serialize_der());
    (pem, certified.cert.der().clone(), key.into())
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-https-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temp dir");
    dir
}

fn run(args: &[&str]) -> Output {
    let started = std::time::Instant::now();
    let output = Command::new(EXE)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run mcp-conformance");
    eprintln!("{args:?}: {:.2} s", started.elapsed().as_secs_f64());
    output
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn https_with_the_servers_ca_passes_and_without_it_is_a_certificate_error() {
    let dir = temp_dir("run");
    let (pem, cert, key) = self_signed(&dir);
    let backend = Backend::start();
    let terminator = Terminator::start(cert, key, backend.port);
    let url = format!("https://127.0.0.1:{}/mcp", terminator.port);
    let pem = pem.to_str().expect("a UTF-8 path");

    let trusted = run(&["run", "--url", &url, "--ca-cert", pem, "--timeout", "20"]);
    let (stdout, stderr) = (text(&trusted.stdout), text(&trusted.stderr));
    assert_eq!(
        trusted.status.code(),
        Some(0),
        "with --ca-cert every check passes\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(stdout.contains("== 2025-11-25"), "{stdout}");
    assert!(stdout.contains("== 2026-07-28"), "{stdout}");

    let untrusted = run(&["run", "--url", &url, "--timeout", "20"]);
    let (stdout, stderr) = (text(&untrusted.stdout), text(&untrusted.stderr));
    assert_eq!(
        untrusted.status.code(),
        Some(2),
        "without --ca-cert: a harness error\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(
        stderr.contains("failed to establish TLS with")
            && stderr.contains("invalid peer certificate")
            && stderr.contains("--ca-cert"),
        "{stderr}"
    );
    assert!(!stdout.contains("FAIL"), "no findings: {stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_config_files_ca_cert_is_relative_to_the_file() {
    let dir = temp_dir("config");
    let (_, cert, key) = self_signed(&dir);
    let backend = Backend::start();
    let terminator = Terminator::start(cert, key, backend.port);
    let config = dir.join("mcp-conformance.toml");
    std::fs::write(
        &config,
        format!(
            "[server]\nurl = \"https://127.0.0.1:{}/mcp\"\nca_cert = \"cert.pem\"\n\n\
             [run]\nrevisions = [\"2025-11-25\"]\ncases = 2\n",
            terminator.port
        ),
    )
    .expect("write the config");
    let output = run(&["run", "--config", config.to_str().expect("a UTF-8 path")]);
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert_eq!(
        output.status.code(),
        Some(0),
        "stdout:\n{stdout}\nstderr:\n{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
