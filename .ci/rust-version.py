#!/usr/bin/env python3
"""The workspace's `rust-version` is what its locked dependencies need.

A crate that declares an older toolchain than one of its locked dependencies fails to build
there with `--locked` (issue 31: 1.85 was declared while uuid 1.29 needs 1.89). The need is
the highest `rust-version` any resolved package declares, dev-dependencies included (the
tests build them). Reads the lock file, fetching what a build here did not (other platforms').
"""
import json
import subprocess
import sys
import tomllib


def version(text):
    parts = [int(p) for p in text.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


meta = json.loads(
    subprocess.check_output(
        # Not --offline: the metadata covers every platform's dependencies, and a machine
        # that built for this one alone has not fetched the others (anstyle-wincon).
        ["cargo", "metadata", "--format-version", "1", "--locked"]
    )
)
resolved = {node["id"] for node in meta["resolve"]["nodes"]}
needs = sorted(
    (version(p["rust_version"]), f'{p["name"]} {p["version"]}')
    for p in meta["packages"]
    if p["id"] in resolved and p.get("rust_version")
)
need, who = needs[-1]
with open("Cargo.toml", "rb") as f:
    declared = version(tomllib.load(f)["workspace"]["package"]["rust-version"])
if declared < need:
    print(
        f"rust-version {'.'.join(map(str, declared))} is older than "
        f"{'.'.join(map(str, need))}, which {who} needs: raise it in Cargo.toml",
        file=sys.stderr,
    )
    sys.exit(1)
print(f"rust-version {'.'.join(map(str, declared))}: every locked dependency builds there (the newest need: {who})")
