//! Protocol revisions as data.
//!
//! Everything that differs between revisions lives in this one table (the spec's own
//! revision matrix, REQUIREMENTS.md section 1), so checks ask "what does this revision
//! say?" instead of comparing dates. The official `schema.json` of each revision is
//! vendored under `conformance/schemas/` and embedded here.

use crate::transport::HttpKind;

/// How a revision wants invalid tool arguments reported (REQUIREMENTS.md
/// `TC-ERR-INPUT-VALIDATION`, section 10 A6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorClass {
    /// A JSON-RPC error or an `isError` result are both acceptable (2024-11-05 .. 2025-06-18).
    Either,
    /// An `isError: true` tool result is expected; a JSON-RPC error is a warning (2025-11-25).
    ToolError,
}

/// How a revision opens a conversation (REQUIREMENTS.md sections 3 and 4; 2026-07-28
/// versioning.mdx, Terminology).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Era {
    /// An `initialize` handshake fixes the version and capabilities for the process
    /// (2024-11-05 .. 2025-11-25).
    Legacy,
    /// No handshake: every request carries its version and the client's capabilities in
    /// `params._meta` (2026-07-28).
    Modern,
}

/// A transport a conversation goes over (each revision's `basic/transports.mdx`): stdio in
/// every revision; Streamable HTTP from 2025-03-26 on, which replaced 2024-11-05's
/// HTTP+SSE (2025-03-26 changelog, Major changes 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransportKind {
    /// A child process's stdin and stdout.
    Stdio,
    /// Streamable HTTP: POSTs to one MCP endpoint (2026-07-28's is stateless).
    StreamableHttp,
    /// 2024-11-05's HTTP+SSE: an SSE stream and the endpoint it names for POSTs.
    HttpSse,
    /// A server linked into this process, over an in-memory pipe framed as stdio is:
    /// every revision spoken over stdio is spoken here.
    InProcess,
}

impl From<HttpKind> for TransportKind {
    fn from(kind: HttpKind) -> Self {
        match kind {
            HttpKind::StreamableHttp => TransportKind::StreamableHttp,
            HttpKind::Sse => TransportKind::HttpSse,
        }
    }
}

/// A revision by name, for the catalog and other tables: a typo is a compile error, and
/// the order is the spec's (oldest first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rev {
    /// 2024-11-05.
    R2024_11_05,
    /// 2025-03-26.
    R2025_03_26,
    /// 2025-06-18.
    R2025_06_18,
    /// 2025-11-25.
    R2025_11_25,
    /// 2026-07-28 (and `draft`, its alias at the vendored snapshot).
    R2026_07_28,
}

impl Rev {
    /// The revision's row of [`REVISIONS`].
    pub fn revision(self) -> &'static Revision {
        &REVISIONS[self as usize]
    }

    /// The version string ("2025-06-18").
    pub fn id(self) -> &'static str {
        self.revision().id
    }
}

/// One protocol revision and what it contains.
#[derive(Debug)]
pub struct Revision {
    /// The revision as a typed name.
    pub rev: Rev,
    /// The version string (sent in `initialize`, or in every request's `_meta`).
    pub id: &'static str,
    /// The spec's pages this revision has (its `.mdx` files, as `../shared/spec/<revision>/`
    /// holds them): a finding links to the page of the revision it was judged in, or to
    /// the newest revision that has the page (`checks/links.rs`).
    pub spec_pages: &'static [&'static str],
    /// Other names the command line accepts for it (`draft`: REQUIREMENTS.md 10 A16).
    pub aliases: &'static [&'static str],
    /// How a conversation opens.
    pub era: Era,
    /// The official `schema.json`, embedded.
    pub schema: &'static str,
    /// `true` when the schema is JSON Schema 2020-12 (`$defs`), `false` for draft-07.
    pub draft_2020_12: bool,
    /// Content block types a tool result may carry (`TC-CONTENT-TYPES`).
    pub content_types: &'static [&'static str],
    /// Tool members the revision defines (others are reported by policy, `TOOL-EXTRA-FIELDS`).
    pub tool_fields: &'static [&'static str],
    /// Whether JSON-RPC batches must be accepted (`RPC-BATCH-R2`).
    pub batching: bool,
    /// Expected error class for invalid tool arguments.
    pub invalid_arguments: ErrorClass,
    /// Whether tools negotiate task-augmented calls (`Tool.execution.taskSupport` and the
    /// `tasks` capability; 2025-11-25 tasks.mdx, experimental; later revisions move tasks
    /// to an extension).
    pub tasks: bool,
    /// Whether HTTP requests carry `MCP-Protocol-Version` (2025-06-18 transports.mdx,
    /// Protocol Version Header: the negotiated version on every request after
    /// initialization; 2026-07-28 streamable-http.mdx, Request Metadata: every request).
    pub version_header: bool,
    /// The transports the revision is spoken over (the suite runs it over each of them).
    pub transports: &'static [TransportKind],
}

impl Revision {
    /// The key under which the schema keeps its definitions.
    pub fn defs_key(&self) -> &'static str {
        if self.draft_2020_12 {
            "$defs"
        } else {
            "definitions"
        }
    }

    /// Looks a revision up by its version string.
    pub fn find(id: &str) -> Option<&'static Revision> {
        REVISIONS.iter().find(|r| r.id == id)
    }

    /// Whether the HTTP requests of a conversation in `version` (a negotiated version, any
    /// string a server answered) carry `MCP-Protocol-Version`: its row's
    /// [`Revision::version_header`]. A version this suite does not know takes the fact of
    /// the latest revision before it (versions are dates, versioning.mdx), and none before
    /// it means no header.
    pub fn version_header_of(version: &str) -> bool {
        match Revision::find(version) {
            Some(revision) => revision.version_header,
            None => REVISIONS
                .iter()
                .rev()
                .find(|r| r.id < version)
                .is_some_and(|r| r.version_header),
        }
    }

    /// Looks a revision up by a name a user typed: its version string or an alias.
    pub fn named(name: &str) -> Option<&'static Revision> {
        REVISIONS
            .iter()
            .find(|r| r.id == name || r.aliases.contains(&name))
    }

    /// Whether the revision has no handshake (2026-07-28).
    pub fn modern(&self) -> bool {
        self.era == Era::Modern
    }

    /// The request a conversation can always make to learn the server is still there:
    /// `ping`, which 2026-07-28 removed; there `server/discover` takes its place.
    pub fn liveness_method(&self) -> &'static str {
        match self.era {
            Era::Legacy => "ping",
            Era::Modern => "server/discover",
        }
    }

    /// The newest revision with the `initialize` handshake: where links and the fuzz
    /// command go when no revision is named.
    pub fn newest_legacy() -> &'static Revision {
        REVISIONS
            .iter()
            .rev()
            .find(|r| !r.modern())
            .expect("a revision with the handshake")
    }

    /// The revisions of an era, as a listing shows them: `first..last`, or the one.
    pub fn span_of(era: Era) -> String {
        let ids: Vec<&str> = REVISIONS
            .iter()
            .filter(|r| r.era == era)
            .map(|r| r.id)
            .collect();
        match ids.as_slice() {
            [first, .., last] => format!("{first}..{last}"),
            _ => ids.concat(),
        }
    }

    /// Whether this revision is the same as or later than `other`.
    pub fn at_least(&self, other: Rev) -> bool {
        self.rev >= other
    }

    /// Whether the revision is spoken over `transport`.
    pub fn runs_over(&self, transport: TransportKind) -> bool {
        self.transports.contains(&transport)
    }

    /// Why the revision is not run over the HTTP transport `kind`, when it is not.
    pub fn not_spoken_over(&self, kind: HttpKind) -> Option<String> {
        if self.runs_over(kind.into()) {
            return None;
        }
        Some(match kind {
            HttpKind::Sse => format!(
                "{} is not spoken over HTTP+SSE ({}'s transport); reach the server's \
                 Streamable HTTP endpoint with --url and no --transport sse",
                self.id,
                spoken_over(TransportKind::HttpSse)
            ),
            HttpKind::StreamableHttp if self.runs_over(TransportKind::HttpSse) => format!(
                "{} is not spoken over Streamable HTTP: its transport is HTTP+SSE; run with \
                 --transport sse and the server's SSE URL (e.g. --url http://127.0.0.1:PORT/sse)",
                self.id
            ),
            HttpKind::StreamableHttp => format!(
                "{} over Streamable HTTP is not supported yet (Streamable HTTP: {})",
                self.id,
                spoken_over(TransportKind::StreamableHttp)
            ),
        })
    }
}

/// The revisions spoken over `transport`, for a message: "2025-03-26, 2025-06-18".
fn spoken_over(transport: TransportKind) -> String {
    let ids: Vec<&str> = REVISIONS
        .iter()
        .filter(|r| r.runs_over(transport))
        .map(|r| r.id)
        .collect();
    ids.join(", ")
}

/// 2024-11-05: stdio (and in-process) and HTTP+SSE.
const OVER_STDIO_AND_SSE: &[TransportKind] = &[
    TransportKind::Stdio,
    TransportKind::InProcess,
    TransportKind::HttpSse,
];
/// 2025-03-26 on: stdio (and in-process) and Streamable HTTP.
const OVER_STDIO_AND_STREAMABLE_HTTP: &[TransportKind] = &[
    TransportKind::Stdio,
    TransportKind::InProcess,
    TransportKind::StreamableHttp,
];

const TOOL_FIELDS_R1: &[&str] = &["name", "description", "inputSchema"];
const TOOL_FIELDS_R2: &[&str] = &["name", "description", "inputSchema", "annotations"];
const TOOL_FIELDS_R3: &[&str] = &[
    "name",
    "title",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
    "_meta",
];
/// 2026-07-28 moved tasks (`execution`) to an extension (changelog, Major changes 6).
const TOOL_FIELDS_R5: &[&str] = &[
    "name",
    "title",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
    "icons",
    "_meta",
];
const TOOL_FIELDS_R4: &[&str] = &[
    "name",
    "title",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
    "icons",
    "execution",
    "_meta",
];

/// The spec's pages (its `.mdx` files) from 2025-03-26 to 2025-06-18.
const PAGES_R2: &[&str] = &[
    "index.mdx",
    "lifecycle.mdx",
    "transports.mdx",
    "ping.mdx",
    "cancellation.mdx",
    "progress.mdx",
    "tools.mdx",
    "pagination.mdx",
    "changelog.mdx",
];
/// 2025-11-25's: tasks are new.
const PAGES_R4: &[&str] = &[
    "index.mdx",
    "lifecycle.mdx",
    "transports.mdx",
    "ping.mdx",
    "cancellation.mdx",
    "progress.mdx",
    "tasks.mdx",
    "tools.mdx",
    "pagination.mdx",
    "changelog.mdx",
];
/// 2026-07-28's: no handshake (lifecycle, ping), the transports split, tasks moved out.
const PAGES_R5: &[&str] = &[
    "index.mdx",
    "cancellation.mdx",
    "progress.mdx",
    "tools.mdx",
    "pagination.mdx",
    "changelog.mdx",
    "discover.mdx",
    "versioning.mdx",
    "caching.mdx",
    "mrtr.mdx",
    "subscriptions.mdx",
    "stdio.mdx",
    "streamable-http.mdx",
];

/// Every revision the suite knows, oldest first.
pub static REVISIONS: &[Revision] = &[
    Revision {
        rev: Rev::R2024_11_05,
        id: "2024-11-05",
        spec_pages: &[
            "index.mdx",
            "messages.mdx",
            "lifecycle.mdx",
            "transports.mdx",
            "ping.mdx",
            "cancellation.mdx",
            "progress.mdx",
            "tools.mdx",
            "pagination.mdx",
        ],
        aliases: &[],
        era: Era::Legacy,
        schema: include_str!("../../schemas/2024-11-05/schema.json"),
        draft_2020_12: false,
        content_types: &["text", "image", "resource"],
        tool_fields: TOOL_FIELDS_R1,
        batching: false,
        invalid_arguments: ErrorClass::Either,
        tasks: false,
        version_header: false,
        transports: OVER_STDIO_AND_SSE,
    },
    Revision {
        rev: Rev::R2025_03_26,
        id: "2025-03-26",
        spec_pages: PAGES_R2,
        aliases: &[],
        era: Era::Legacy,
        schema: include_str!("../../schemas/2025-03-26/schema.json"),
        draft_2020_12: false,
        content_types: &["text", "image", "audio", "resource"],
        tool_fields: TOOL_FIELDS_R2,
        batching: true,
        invalid_arguments: ErrorClass::Either,
        tasks: false,
        version_header: false,
        transports: OVER_STDIO_AND_STREAMABLE_HTTP,
    },
    Revision {
        rev: Rev::R2025_06_18,
        id: "2025-06-18",
        spec_pages: PAGES_R2,
        aliases: &[],
        era: Era::Legacy,
        schema: include_str!("../../schemas/2025-06-18/schema.json"),
        draft_2020_12: false,
        content_types: &["text", "image", "audio", "resource_link", "resource"],
        tool_fields: TOOL_FIELDS_R3,
        batching: false,
        invalid_arguments: ErrorClass::Either,
        tasks: false,
        version_header: true,
        transports: OVER_STDIO_AND_STREAMABLE_HTTP,
    },
    Revision {
        rev: Rev::R2025_11_25,
        id: "2025-11-25",
        spec_pages: PAGES_R4,
        aliases: &[],
        era: Era::Legacy,
        schema: include_str!("../../schemas/2025-11-25/schema.json"),
        draft_2020_12: true,
        content_types: &["text", "image", "audio", "resource_link", "resource"],
        tool_fields: TOOL_FIELDS_R4,
        batching: false,
        invalid_arguments: ErrorClass::ToolError,
        tasks: true,
        version_header: true,
        transports: OVER_STDIO_AND_STREAMABLE_HTTP,
    },
    Revision {
        rev: Rev::R2026_07_28,
        id: "2026-07-28",
        spec_pages: PAGES_R5,
        aliases: &["draft"],
        era: Era::Modern,
        schema: include_str!("../../schemas/2026-07-28/schema.json"),
        draft_2020_12: true,
        content_types: &["text", "image", "audio", "resource_link", "resource"],
        tool_fields: TOOL_FIELDS_R5,
        batching: false,
        invalid_arguments: ErrorClass::ToolError,
        tasks: false,
        version_header: true,
        transports: OVER_STDIO_AND_STREAMABLE_HTTP,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_schema_matches_its_declared_dialect() {
        for rev in REVISIONS {
            let schema: serde_json::Value = serde_json::from_str(rev.schema).expect("valid JSON");
            let dialect = schema["$schema"].as_str().unwrap_or_default();
            assert_eq!(dialect.contains("2020-12"), rev.draft_2020_12, "{}", rev.id);
            assert!(schema.get(rev.defs_key()).is_some(), "{}", rev.id);
            let opening = match rev.era {
                Era::Legacy => "InitializeResult",
                Era::Modern => "DiscoverResult",
            };
            for def in [opening, "Tool", "CallToolResult", "ListToolsResult"] {
                assert!(
                    schema[rev.defs_key()].get(def).is_some(),
                    "{} lacks {def}",
                    rev.id
                );
            }
        }
    }

    #[test]
    fn revisions_are_ordered() {
        for (i, rev) in REVISIONS.iter().enumerate() {
            assert_eq!(rev.rev as usize, i, "{}", rev.id);
            assert_eq!(rev.rev.id(), rev.id);
        }
        let r3 = Rev::R2025_06_18.revision();
        assert!(r3.at_least(Rev::R2025_03_26));
        assert!(r3.at_least(Rev::R2025_06_18));
        assert!(!r3.at_least(Rev::R2025_11_25));
        assert_eq!(Revision::named("draft").map(|r| r.id), Some("2026-07-28"));
        assert!(Revision::find("draft").is_none());
    }

    /// The version header's fact placed unknown versions as the date comparison it replaced
    /// did (`version >= "2025-06-18"`): a server answering `2025-06-19` still gets it.
    #[test]
    fn unknown_versions_take_the_version_header_of_the_revision_before_them() {
        for version in [
            "1900-01-01",
            "2025-03-27",
            "2025-06-19",
            "2099-01-01",
            "not-a-version",
        ] {
            let before = version >= "2025-06-18";
            assert_eq!(Revision::version_header_of(version), before, "{version}");
        }
        for rev in REVISIONS {
            assert_eq!(Revision::version_header_of(rev.id), rev.version_header);
        }
    }

    /// Every revision runs over stdio and over one HTTP transport; over the other, the
    /// reason names the transport to use instead.
    #[test]
    fn each_revision_runs_over_stdio_and_one_http_transport() {
        for rev in REVISIONS {
            assert!(rev.runs_over(TransportKind::Stdio), "{}", rev.id);
            let http = [HttpKind::StreamableHttp, HttpKind::Sse];
            let spoken = http.iter().filter(|k| rev.runs_over((**k).into()));
            assert_eq!(spoken.count(), 1, "{}", rev.id);
        }
        let sse = Rev::R2024_11_05.revision();
        assert_eq!(sse.not_spoken_over(HttpKind::Sse), None);
        assert_eq!(
            sse.not_spoken_over(HttpKind::StreamableHttp).unwrap(),
            "2024-11-05 is not spoken over Streamable HTTP: its transport is HTTP+SSE; run \
             with --transport sse and the server's SSE URL (e.g. --url \
             http://127.0.0.1:PORT/sse)"
        );
        let streamable = Rev::R2026_07_28.revision();
        assert_eq!(streamable.not_spoken_over(HttpKind::StreamableHttp), None);
        assert_eq!(
            streamable.not_spoken_over(HttpKind::Sse).unwrap(),
            "2026-07-28 is not spoken over HTTP+SSE (2024-11-05's transport); reach the \
             server's Streamable HTTP endpoint with --url and no --transport sse"
        );
    }
}
