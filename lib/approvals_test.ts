import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { approvalRulesFor, saveApprovalRules } from "./approvals.ts";
import { loadConfigTexts } from "./config.ts";
import { bash, configFrom, ctxIn, decideIn } from "./testing.ts";

const cfg = configFrom({
  policies: { p: { defaultAction: "ask", rules: [] }, q: { defaultAction: "ask", rules: [] } },
  locations: { "/w": "p", "/q": "q" },
});

Deno.test("the saved rule is the narrowest useful one: program, subcommand, then *", async () => {
  const v = await bash(cfg, ctxIn("/w"), "git commit -m 'fix it'");
  assert.deepEqual(approvalRulesFor(v, "p"), [{
    action: "allow",
    tool: "bash",
    pattern: "git commit *",
    policy: "p",
  }]);
  const bare = await bash(cfg, ctxIn("/w"), "npm test");
  assert.deepEqual(approvalRulesFor(bare, "p")?.map((r) => r.pattern), ["npm test", "npm test *"]);
  const two = await bash(cfg, ctxIn("/w"), "npm run build && git push origin main");
  assert.deepEqual(approvalRulesFor(two, "p")?.map((r) => r.pattern), ["npm run *", "git push *"]);
  const read = await decideIn(cfg, ctxIn("/w"), "read", { path: "a" });
  assert.deepEqual(approvalRulesFor(read, "p"), [{ action: "allow", tool: "read", policy: "p" }]);
});

Deno.test("no persistent rule where it would be over-broad", async () => {
  for (
    const cmd of [
      "bash -c 'rm -rf /'",
      "python3 -c 'print(1)'",
      "sudo apt install x",
      "env FOO=1 make",
      "xargs rm",
      "rm -rf build",
      "curl https://x",
      "$(echo rm) x",
    ]
  ) {
    assert.equal(approvalRulesFor(await bash(cfg, ctxIn("/w"), cmd), "p"), null, cmd);
  }
});

Deno.test("saving keeps the file's comments and layout, appends, and creates missing files", () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-controls-approvals-"));
  const file = join(dir, "pi-controls.jsonc");
  const text = `{
  // my policies
  "policies": { "p": { "defaultAction": "ask", "rules": [] } }, /* keep me */
  "locations": { "/w": "p" }
}
`;
  writeFileSync(file, text);
  saveApprovalRules(file, [{
    action: "allow",
    tool: "bash",
    pattern: "git commit *",
    policy: "p",
  }]);
  saveApprovalRules(file, [{ action: "allow", tool: "read", policy: "p" }]);
  const after = readFileSync(file, "utf8");
  assert.match(after, /\/\/ my policies/);
  assert.match(after, /\/\* keep me \*\//);
  const loaded = loadConfigTexts([{ file, text: after, role: "project", root: dir }], {
    home: "/h",
  });
  assert.equal(loaded.status, "ok");
  if (loaded.status === "ok") {
    assert.deepEqual(loaded.config.approvalRules.map((r) => r.pattern ?? r.tool), [
      "git commit *",
      "read",
    ]);
  }
  const fresh = join(dir, "sub", ".pi", "extensions", "pi-controls.jsonc");
  saveApprovalRules(fresh, [{ action: "allow", tool: "write", policy: "p" }]);
  assert.deepEqual(JSON.parse(readFileSync(fresh, "utf8")).approvalRules, [{
    action: "allow",
    tool: "write",
    policy: "p",
  }]);
});

Deno.test("a file that does not parse is never overwritten", () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-controls-approvals-"));
  const file = join(dir, "broken.jsonc");
  writeFileSync(file, '{ "policies": ');
  assert.throws(
    () => saveApprovalRules(file, [{ action: "allow", tool: "read" }]),
    /does not parse/,
  );
  assert.equal(readFileSync(file, "utf8"), '{ "policies": ');
});

Deno.test("saving only adds lines: comments stay beside what they describe", () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-controls-approvals-"));
  const file = join(dir, "pi-controls.jsonc");
  const text = `// header
{
  "policies": { "p": { "defaultAction": "ask", "rules": [] } },
  "locations": { ".": "p" }, // relative: the project root
}
`;
  writeFileSync(file, text);
  saveApprovalRules(file, [{ action: "allow", tool: "bash", pattern: "git init *", policy: "p" }]);
  const once = readFileSync(file, "utf8");
  assert.equal(
    once,
    `// header
{
  "policies": { "p": { "defaultAction": "ask", "rules": [] } },
  "locations": { ".": "p" }, // relative: the project root
  "approvalRules": [
    { "action": "allow", "tool": "bash", "pattern": "git init *", "policy": "p" }
  ],
}
`,
  );
  // A second approval goes after the first one and its comment; a missing comma is added.
  writeFileSync(file, once.replace('"policy": "p" }\n', '"policy": "p" } // first\n'));
  saveApprovalRules(file, [{ action: "allow", tool: "read", policy: "p" }]);
  assert.equal(
    readFileSync(file, "utf8"),
    `// header
{
  "policies": { "p": { "defaultAction": "ask", "rules": [] } },
  "locations": { ".": "p" }, // relative: the project root
  "approvalRules": [
    { "action": "allow", "tool": "bash", "pattern": "git init *", "policy": "p" }, // first
    { "action": "allow", "tool": "read", "policy": "p" }
  ],
}
`,
  );
  // One-line files stay on one line; CRLF files keep CRLF.
  writeFileSync(file, `{ "approvalRules": [{ "action": "allow", "tool": "ls" }] }`);
  saveApprovalRules(file, [{ action: "allow", tool: "read" }]);
  assert.equal(
    readFileSync(file, "utf8"),
    `{ "approvalRules": [{ "action": "allow", "tool": "ls" }, { "action": "allow", "tool": "read" }] }`,
  );
  writeFileSync(file, `{\r\n  "locations": {}\r\n}\r\n`);
  saveApprovalRules(file, [{ action: "allow", tool: "read" }, { action: "allow", tool: "ls" }]);
  assert.equal(
    readFileSync(file, "utf8"),
    `{\r\n  "locations": {},\r\n  "approvalRules": [\r\n    { "action": "allow", "tool": "read" },\r\n` +
      `    { "action": "allow", "tool": "ls" }\r\n  ]\r\n}\r\n`,
  );
});
