// The Action's install step, run here as a runner would run it (issue 31): its script is
// taken from action.yml and run with a runner's environment, `curl` standing in for the
// GitHub release (files served from a scratch folder), and `cargo` recording that a source
// build was asked for. Checks: the release binary of the action's own version is
// downloaded and its SHA-256 checked; a wrong checksum fails the step; no release falls back
// to a source build; `version: source` builds; a named version with no release fails.
// Usage: node .ci/action-install.mjs TOOLS_DIR (where `npm install yaml` put it).
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const tools = resolve(process.argv[2] ?? "target/ci-tools");
const YAML = createRequire(join(tools, "package.json"))("yaml");
const action = YAML.parse(readFileSync("action.yml", "utf8"));
const step = action.runs.steps.find((s) => s.name === "Install mcp-conformance");
const version = readFileSync("Cargo.toml", "utf8").match(/^version = "(.*)"/m)[1];
const target = "x86_64-unknown-linux-musl";

function scenario(name, { input, release, corrupt }) {
  const root = mkdtempSync(join(tmpdir(), "action-install-"));
  const actionPath = join(root, "_actions/acme/mcp-conformance/v1");
  mkdirSync(actionPath, { recursive: true });
  writeFileSync(join(actionPath, "Cargo.toml"), readFileSync("Cargo.toml"));
  // The release: an archive holding a stand-in binary, and its checksum.
  const served = join(root, "served");
  mkdirSync(join(served, `mcp-conformance-${target}`), { recursive: true });
  const fake = join(served, `mcp-conformance-${target}`, "mcp-conformance");
  writeFileSync(fake, "#!/bin/sh\necho stand-in\n");
  chmodSync(fake, 0o755);
  const archive = `mcp-conformance-${target}.tar.gz`;
  execFileSync("tar", ["-czf", archive, `mcp-conformance-${target}`], { cwd: served });
  execFileSync("sh", ["-c", `sha256sum ${archive} > ${archive}.sha256`], { cwd: served });
  if (corrupt) writeFileSync(join(served, archive), "not the archive");
  // Stand-ins on PATH: curl serves `served` for the release's URL, cargo records its call.
  const fakes = join(root, "fakes");
  mkdirSync(fakes);
  const url = `https://github.com/acme/mcp-conformance/releases/download/v${release}/`;
  writeFileSync(
    join(fakes, "curl"),
    `#!/bin/sh\nout=""; src=""\nwhile [ $# -gt 0 ]; do case "$1" in -o) out="$2"; shift;; https://*) src="$1";; esac; shift; done\n` +
      `case "$src" in ${url}*) cp "${served}/\${src#${url}}" "$out";; *) exit 22;; esac\n`,
  );
  writeFileSync(join(fakes, "shasum"), `#!/bin/sh\nshift 2; exec sha256sum "$@"\n`);
  writeFileSync(join(fakes, "cargo"), `#!/bin/sh\necho "$@" > "${root}/cargo-called"\n`);
  for (const f of ["curl", "shasum", "cargo"]) chmodSync(join(fakes, f), 0o755);
  const env = {
    PATH: `${fakes}:${process.env.PATH}`,
    RUNNER_TEMP: join(root, "temp"),
    RUNNER_OS: "Linux",
    RUNNER_ARCH: "X64",
    GITHUB_PATH: join(root, "github_path"),
    GITHUB_ACTION_PATH: actionPath,
    VERSION: input,
    ACTION_REPOSITORY: "",
  };
  mkdirSync(env.RUNNER_TEMP);
  let code = 0;
  let output = "";
  try {
    // As a runner runs a `shell: bash` step: `bash --noprofile --norc -eo pipefail {0}`.
    const argv = ["--noprofile", "--norc", "-eo", "pipefail", "-c", step.run];
    output = execFileSync("bash", argv, { env, encoding: "utf8", stdio: "pipe" });
  } catch (e) {
    code = e.status;
    output = `${e.stdout}${e.stderr}`;
  }
  const installed = join(env.RUNNER_TEMP, "mcp-conformance/bin/mcp-conformance");
  return {
    name,
    code,
    output,
    downloaded: existsSync(installed),
    built: existsSync(join(root, "cargo-called")),
  };
}

const expect = [
  [scenario("release of the action's version", { input: "release", release: version }), 0, true, false],
  [scenario("a corrupt archive fails its checksum", { input: "release", release: version, corrupt: true }), 1, false, false],
  [scenario("no release: built from source", { input: "release", release: "9.9.9" }), 0, false, true],
  [scenario("version: source builds", { input: "source", release: version }), 0, false, true],
  [scenario("a named version with no release fails", { input: "9.9.9", release: version }), 2, false, false],
];
let bad = 0;
for (const [r, code, downloaded, built] of expect) {
  const ok = r.code === code && r.downloaded === downloaded && r.built === built;
  if (!ok) {
    bad += 1;
    console.error(`action install: ${r.name}: exit ${r.code}, downloaded ${r.downloaded}, built ${r.built}\n${r.output}`);
  }
}
if (bad > 0) process.exit(1);
console.log(`action install: ${expect.length} scenarios as expected`);
