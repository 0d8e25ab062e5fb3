#!/usr/bin/env node
// The npm launcher (the esbuild/biome pattern): the binary comes in the one per-platform
// package npm installed from optionalDependencies (its `os` and `cpu` match this machine),
// so nothing is downloaded at install time. This file finds it and runs it with the same
// arguments, standard streams and exit status; a signal that ends the binary ends this
// process the same way.
"use strict";

const { spawnSync } = require("node:child_process");

const platform = `${process.platform}-${process.arch}`;
const pkg = `mcp-conformance-${platform}`;
let binary;
try {
  binary = require.resolve(`${pkg}/bin/mcp-conformance`);
} catch {
  console.error(
    `mcp-conformance: no binary for ${platform}: the package ${pkg} is not installed ` +
      "(npm leaves out optional dependencies with --no-optional or --omit=optional; " +
      "the supported platforms are linux-x64, linux-arm64, darwin-x64 and darwin-arm64)",
  );
  process.exit(2);
}

const result = spawnSync(binary, process.argv.slice(2), { stdio: "inherit" });
if (result.error) {
  console.error(`mcp-conformance: cannot run ${binary}: ${result.error.message}`);
  process.exit(2);
}
if (result.signal) {
  process.kill(process.pid, result.signal);
}
process.exit(result.status ?? 2);
