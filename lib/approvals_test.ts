import assert from "node:assert/strict";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { approvalRulesFor, saveApprovalRules } from "./approvals.ts";
import { loadConfig, loadConfigTexts } from "./config.ts";
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

Deno.test("a command with no subcommand saves exactly itself", async () => {
  const ctx = ctxIn("/w", { files: ["/w/build/a.o", "/w/FILE"] });
  for (
    const [cmd, patterns] of [
      ["touch FILE", ["touch FILE"]],
      ["rm build.log", ["rm build.log"]],
      ["rm -rf build", ["rm -rf build"]],
      ["curl https://example.com/x", ["curl https://example.com/x"]],
      ["/usr/bin/curl -fsSL https://example.com/x", ["/usr/bin/curl -fsSL https://example.com/x"]],
      // A word the stage reads as a path is no subcommand, however it looks.
      ["rm build", ["rm build"]],
      ["make", ["make"]],
      ["touch a.txt && npm test", ["touch a.txt", "npm test", "npm test *"]],
      ["rm a.log && rm a.log", ["rm a.log"]],
    ] as const
  ) {
    const rules = approvalRulesFor(await bash(cfg, ctx, cmd), "p");
    assert.deepEqual(rules?.map((r) => r.pattern), patterns, cmd);
    assert.ok(rules?.every((r) => r.action === "allow" && r.tool === "bash" && r.policy === "p"));
  }
  // The exact rule allows that command and no other.
  const saved = approvalRulesFor(await bash(cfg, ctx, "rm build.log"), "p")!;
  const withApproval = configFrom({
    policies: { p: { defaultAction: "ask", rules: [] } },
    locations: { "/w": "p" },
    approvalRules: saved,
  });
  assert.equal((await bash(withApproval, ctx, "rm build.log")).action, "allow");
  for (
    const other of ["rm build.log -rf build", "rm -rf build.log", "rm build.log x", "rm build"]
  ) {
    assert.equal((await bash(withApproval, ctx, other)).action, "ask", other);
  }
});

Deno.test("no persistent rule where it would be over-broad", async () => {
  for (
    const cmd of [
      "bash -c 'rm -rf /'",
      "python3 -c 'print(1)'",
      "sudo apt install x",
      "env FOO=1 make",
      "xargs rm",
      "xargs rm -f x.log",
      "cat list | xargs rm -f x.log",
      "rm *.log",
      "sudo touch FILE",
      "$(echo rm) x",
      "rm 'a*b'",
      "touch 'what?'",
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

Deno.test("saving keeps the file's mode and writes through a symlink, which stays", () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-controls-approvals-"));
  const file = join(dir, "private.jsonc");
  writeFileSync(file, "{}\n");
  chmodSync(file, 0o600);
  saveApprovalRules(file, [{ action: "allow", tool: "read" }]);
  assert.equal(statSync(file).mode & 0o777, 0o600);
  chmodSync(file, 0o640);
  saveApprovalRules(file, [{ action: "allow", tool: "ls" }]);
  assert.equal(statSync(file).mode & 0o777, 0o640);

  // A config kept elsewhere (dotfiles) and linked in, relatively, through a chain of two links.
  mkdirSync(join(dir, "dotfiles"));
  mkdirSync(join(dir, "project"));
  const real = join(dir, "dotfiles", "pi-controls.jsonc");
  writeFileSync(real, "{ // mine\n}\n");
  symlinkSync("../dotfiles/pi-controls.jsonc", join(dir, "project", "middle.jsonc"));
  const link = join(dir, "project", "pi-controls.jsonc");
  symlinkSync("middle.jsonc", link);
  saveApprovalRules(link, [{ action: "allow", tool: "grep" }]);
  assert.ok(lstatSync(link).isSymbolicLink());
  assert.equal(readlinkSync(link), "middle.jsonc");
  assert.equal(
    readFileSync(real, "utf8"),
    `{ // mine\n  "approvalRules": [\n    { "action": "allow", "tool": "grep" }\n  ]\n}\n`,
  );
  assert.deepEqual(readdirSync(join(dir, "project")).sort(), ["middle.jsonc", "pi-controls.jsonc"]);
  assert.deepEqual(readdirSync(join(dir, "dotfiles")), ["pi-controls.jsonc"]);
  // A dangling link: the file is created where it points.
  symlinkSync(join(dir, "new", "made.jsonc"), join(dir, "project", "dangling.jsonc"));
  saveApprovalRules(join(dir, "project", "dangling.jsonc"), [{ action: "allow", tool: "ls" }]);
  assert.ok(lstatSync(join(dir, "project", "dangling.jsonc")).isSymbolicLink());
  assert.match(readFileSync(join(dir, "new", "made.jsonc"), "utf8"), /"tool": "ls"/);
});

Deno.test("a save that fails throws a one-line error naming the file and leaves nothing", async () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-controls-approvals-"));
  const file = join(dir, "pi-controls.jsonc");
  const text = '{ "approvalRules": [] }\n';
  writeFileSync(file, text);
  const rule = [{ action: "allow" as const, tool: "read" }];
  const oneLine = (pattern: RegExp) => (e: unknown) => {
    assert.ok(e instanceof Error);
    assert.doesNotMatch(e.message, /\n/);
    assert.match(e.message, pattern);
    return true;
  };
  // The lock held by a live process: a timeout naming the file and the holder.
  const holder = new Deno.Command("sleep", { args: ["30"] }).spawn();
  try {
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: holder.pid, time: Date.now() }));
    const started = Date.now();
    assert.throws(
      () => saveApprovalRules(file, rule, { timeoutMs: 200 }),
      oneLine(
        new RegExp(`^${file}: .*gave up waiting for the lock after 200 ms: .* pid ${holder.pid}`),
      ),
    );
    assert.ok(Date.now() - started >= 200);
  } finally {
    holder.kill();
    await holder.status;
  }
  assert.deepEqual(readdirSync(dir).sort(), ["pi-controls.jsonc", "pi-controls.jsonc.lock"]);
  // Once the holder is gone its lock is stale, and broken.
  saveApprovalRules(file, rule, { timeoutMs: 200 });
  assert.deepEqual(readdirSync(dir), ["pi-controls.jsonc"]);

  writeFileSync(file, '{ "approvalRules": {} }');
  assert.throws(() => saveApprovalRules(file, rule), oneLine(/^.*: "approvalRules" is not an/));
  // A directory that cannot be made (a file is in the way): as root, modes do not stop writes.
  writeFileSync(join(dir, "plain"), "");
  assert.throws(
    () => saveApprovalRules(join(dir, "plain", ".pi", "pi-controls.jsonc"), rule),
    oneLine(/plain\/\.pi\/pi-controls\.jsonc: cannot save the approval: .*(ENOTDIR|EEXIST)/),
  );
  // A directory that cannot be written: the temporary file cannot be made.
  const locked = join(dir, "locked");
  mkdirSync(locked);
  writeFileSync(join(locked, "c.jsonc"), "{}");
  chmodSync(locked, 0o500);
  try {
    let threw = false;
    try {
      saveApprovalRules(join(locked, "c.jsonc"), rule);
    } catch (e) {
      threw = oneLine(/locked\/c\.jsonc: cannot save the approval: .*EACCES/)(e);
    }
    // Root writes anyway; everyone else gets the error.
    assert.equal(threw, readFileSync(join(locked, "c.jsonc"), "utf8") === "{}");
  } finally {
    chmodSync(locked, 0o700);
  }
  assert.deepEqual(readdirSync(dir).sort(), ["locked", "pi-controls.jsonc", "plain"]);
  assert.ok(readdirSync(locked).every((f) => f === "c.jsonc"));
});

/** A project config with comments of both kinds and approvals already saved. */
const CROWDED = `// Project policy for pi-controls.
/* Saved approvals go at the end
   of "approvalRules"; keep this note. */
{
  "policies": {
    "p": { "defaultAction": "ask", "rules": [] }, // the only policy
  },
  "locations": { ".": "p" }, /* the project root */
  "approvalRules": [
    // approved earlier
    { "action": "allow", "tool": "bash", "pattern": "git status *", "policy": "p" }, /* first */
    { "action": "allow", "tool": "read", "policy": "p" }, // second
  ],
  // trailing note
}
`;

Deno.test("processes saving at once lose no rule and no comment", async () => {
  const workers = 8;
  const each = 25;
  const dir = mkdtempSync(join(tmpdir(), "pi-controls-approvals-"));
  const file = join(dir, ".pi", "extensions", "pi-controls.jsonc");
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, CROWDED);
  const barrier = mkdtempSync(join(tmpdir(), "pi-controls-barrier-"));
  const root = new URL("..", import.meta.url).pathname;
  const children = Array.from({ length: workers }, (_, w) =>
    new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-read",
        "--allow-write",
        "--allow-env",
        "--allow-run",
        join(root, "lib", "testing_save_worker.ts"),
        file,
        `w${w}`,
        String(each),
        barrier,
      ],
      cwd: root,
      stdout: "piped",
      stderr: "piped",
    }).spawn());
  // Start them all at once, when every one is ready (process start-up varies more than a save).
  const until = Date.now() + 15_000;
  while (readdirSync(barrier).length < workers && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 10));
  }
  writeFileSync(join(barrier, "go"), "");
  for (const [w, out] of (await Promise.all(children.map((c) => c.output()))).entries()) {
    assert.equal(out.code, 0, `worker ${w}: ${new TextDecoder().decode(out.stderr)}`);
  }

  const after = readFileSync(file, "utf8");
  const patterns = [...after.matchAll(/"pattern": "(w\d+ job\d+ \*)"/g)].map((m) => m[1]);
  const missing: string[] = [];
  for (let w = 0; w < workers; w++) {
    for (let j = 0; j < each; j++) {
      if (!patterns.includes(`w${w} job${j} *`)) missing.push(`w${w} job${j} *`);
    }
  }
  assert.deepEqual(
    {
      lost: missing.length,
      saved: patterns.length,
      duplicates: patterns.length - new Set(patterns).size,
    },
    { lost: 0, saved: workers * each, duplicates: 0 },
    `lost ${missing.length} of ${workers * each} rules, e.g. ${missing.slice(0, 3).join(", ")}`,
  );
  // Saving only inserted lines: without them the file is the original, byte for byte.
  const added =
    /^ {4}\{ "action": "allow", "tool": "bash", "pattern": "w\d+ job\d+ \*", "policy": "p" \},$/;
  assert.equal(after.split("\n").filter((line) => !added.test(line)).join("\n"), CROWDED);
  for (const comment of CROWDED.match(/\/\/[^\n]*|\/\*[^]*?\*\//g)!) {
    assert.equal(after.split(comment).length, 2, comment);
  }
  const loaded = loadConfig({ cwd: dir, agentDir: join(dir, "agent"), home: dir, files: [file] });
  assert.equal(loaded.status, "ok", JSON.stringify(loaded));
  assert.equal(
    loadConfigTexts([{ file, text: after, role: "project", root: dir }], { home: dir }).status,
    "ok",
  );
  if (loaded.status === "ok") {
    const saved = loaded.config.approvalRules.map((r) => r.pattern ?? r.tool);
    assert.equal(saved.length, 2 + workers * each);
    assert.deepEqual(saved.slice(0, 2), ["git status *", "read"]);
  }
  assert.deepEqual(readdirSync(dirname(file)), ["pi-controls.jsonc"]); // no lock or temp left
});
