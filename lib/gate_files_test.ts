/**
 * The gate's own files under a config that allows everything else: every write-like spelling
 * asks, reads follow the policy, the user can make them stricter, never weaker.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { loadBashParser } from "./shell/parser.ts";
import { formatConfigError, loadConfig, loadConfigTexts } from "./config.ts";
import { decide } from "./policy/engine.ts";
import { realFs } from "./policy/fs_facts.ts";
import { gateFileEntries } from "./gate_files.ts";
import { RESTRICTIVENESS } from "./policy/action.ts";
import type { Action, Config, Context } from "./types.ts";
import { bash, configFrom, ctxIn } from "./testing.ts";

const ALLOW_ALL = `{
  // Everything is allowed: only the built-in protection can ask.
  "policies": { "open": { "defaultAction": "allow", "rules": [] } },
  "locations": { "/": "open" },
  "approvalRules": [{ "action": "allow", "tool": "*" }]
}`;

interface Tree {
  root: string;
  home: string;
  agentDir: string;
  project: string;
  ctx: Context;
  load(extra?: string): Config;
}

function tree(): Tree {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "pi-controls-gate-")));
  const home = join(root, "home");
  const agentDir = join(home, ".pi", "agent");
  const project = join(home, "project");
  const files: Record<string, string> = {
    [join(agentDir, "extensions", "pi-controls.jsonc")]: ALLOW_ALL,
    [join(agentDir, "extensions", "pi-controls.js")]: "export default () => {};\n",
    [join(agentDir, "extensions", "pi-controls.log")]: "",
    [join(agentDir, "settings.json")]: "{}\n",
    [join(agentDir, "models.json")]: "{}\n",
    [join(project, ".pi", "extensions", "pi-controls.jsonc")]: "{}\n",
    [join(project, ".pi", "settings.json")]: "{}\n",
    [join(project, "sub", ".pi", "extensions", "pi-controls.json")]: "{}\n",
    [join(project, "src", "main.ts")]: "export {};\n",
    [join(project, "notes.txt")]: "notes\n",
    [join(project, "evil.jsonc")]: "{}\n",
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  symlinkSync(join(project, ".pi", "extensions", "pi-controls.jsonc"), join(project, "cfg"));
  symlinkSync(join(agentDir, "extensions"), join(project, "ext"));
  const ctx: Context = { cwd: project, home, env: { HOME: home }, fs: realFs() };
  return {
    root,
    home,
    agentDir,
    project,
    ctx,
    load(extra?: string) {
      if (extra !== undefined) {
        writeFileSync(join(project, ".pi", "extensions", "pi-controls.jsonc"), extra);
      }
      const l = loadConfig({ cwd: project, home, agentDir });
      if (l.status !== "ok") {
        throw new Error(l.status === "error" ? l.errors.map(formatConfigError).join("\n") : "");
      }
      return l.config;
    },
  };
}

const G = "~/.pi/agent/extensions/pi-controls.jsonc";
const P = ".pi/extensions/pi-controls.jsonc";
/** Each protected file as a command may name it (relative to the project, `~`, or absolute). */
const FILES = [
  G,
  P,
  "~/project/.pi/extensions/pi-controls.jsonc",
  "sub/.pi/extensions/pi-controls.json",
  "deep/er/.pi/extensions/pi-controls.jsonc", // not there yet: created
  "~/.pi/agent/extensions/pi-controls.js",
  "~/.pi/agent/extensions/pi-controls.log",
  "~/.pi/agent/extensions/pi-controls-trust.json",
  "~/.pi/agent/extensions/other-extension.ts",
  "~/.pi/agent/settings.json",
  "~/.pi/agent/models.json",
  "~/.pi/agent/trust.json",
  "~/.pi/agent/mcp.json",
  ".pi/settings.json",
  ".pi/mcp.json",
  "~/.pi/agent/npm/node_modules/pi-controls/dist/pi-controls.js",
  "cfg", // a symlink to the project config
  "ext/pi-controls.jsonc", // through a symlink to the agent's extensions directory
];

/** Write-like spellings; `F` is the file as named. */
const WRITES = [
  "echo '{}' > F",
  "echo '{}' >> F",
  "printf x 1> F",
  "cat evil.jsonc &> F",
  ": > F",
  "tee F < evil.jsonc",
  "cat evil.jsonc | tee -a F",
  "sed -i 's/deny/allow/' F",
  "sed -i.bak -e 's/deny/allow/' F",
  "perl -pi -e 's/deny/allow/' F",
  "cp evil.jsonc F",
  "cp -f -- evil.jsonc F",
  "mv evil.jsonc F",
  "mv F /tmp/away",
  "rm F",
  "rm -f F",
  "unlink F",
  "truncate -s 0 F",
  "chmod 000 F",
  "chmod u+w F",
  "ln -sf /dev/null F",
  "ln -f evil.jsonc F",
  "install -m 644 evil.jsonc F",
  "rsync evil.jsonc F",
  "dd if=evil.jsonc of=F",
  "sudo tee F < evil.jsonc",
  "env tee F < evil.jsonc",
  "bash -c 'echo x > F'",
  'sh -c "cp evil.jsonc F"',
  "git checkout -- F",
  "touch F",
  "true && echo x > F",
  "(echo x > F)",
  "echo $(echo x > F)",
  "find F -delete",
  "xargs rm <<< F",
  "python3 script.py > F",
];

function spell(template: string, file: string): string {
  return template.replaceAll("F", file);
}

Deno.test("gate files: every write-like spelling of every protected file asks", async () => {
  const t = tree();
  try {
    const config = t.load();
    const parser = await loadBashParser();
    const missed: string[] = [];
    for (const file of FILES) {
      for (const w of WRITES) {
        const command = spell(w, file);
        const v = decide(config, { tool: "bash", input: { command } }, t.ctx, { parser });
        if (RESTRICTIVENESS[v.action] < RESTRICTIVENESS.ask) missed.push(`${v.action}: ${command}`);
      }
      for (const tool of ["write", "edit", "mcp_fs_write"]) {
        const input = tool === "mcp_fs_write"
          ? { path: file.replace(/^~/, t.home) }
          : { path: file, content: "{}", oldText: "a", newText: "b" };
        const v = decide(config, { tool, input }, t.ctx, { parser });
        if (RESTRICTIVENESS[v.action] < RESTRICTIVENESS.ask) {
          missed.push(`${v.action}: ${tool} ${file}`);
        }
      }
    }
    assert.deepEqual(missed, []);
  } finally {
    rmSync(t.root, { recursive: true, force: true });
  }
});

Deno.test("gate files: where the filesystem does not tell case apart, another case asks", async () => {
  const t = tree();
  try {
    const config = t.load();
    const parser = await loadBashParser();
    // (macOS and Windows by default: `.PI/MCP.json` is `.pi/mcp.json`.)
    const folded: Config = { ...config, caseInsensitive: true };
    const named = [
      ".PI/settings.json",
      ".Pi/MCP.json",
      "NEW/.PI/Extensions/x.ts",
      "~/.PI/Agent/Settings.json",
      "~/.pi/AGENT/extensions/evil.ts",
    ];
    const missed: string[] = [];
    for (const file of named) {
      for (const command of [`echo x > ${file}`, `cp evil.jsonc ${file}`, `rm -f ${file}`]) {
        const v = decide(folded, { tool: "bash", input: { command } }, t.ctx, { parser });
        if (RESTRICTIVENESS[v.action] < RESTRICTIVENESS.ask) missed.push(`${v.action}: ${command}`);
        // Where case is told apart, another case is another file.
        const plain = decide(config, { tool: "bash", input: { command } }, t.ctx, { parser });
        if (plain.action !== "allow") missed.push(`case-sensitive ${plain.action}: ${command}`);
      }
      const v = decide(folded, { tool: "write", input: { path: file, content: "" } }, t.ctx, {
        parser,
      });
      if (RESTRICTIVENESS[v.action] < RESTRICTIVENESS.ask) {
        missed.push(`${v.action}: write ${file}`);
      }
    }
    assert.deepEqual(missed, []);
  } finally {
    rmSync(t.root, { recursive: true, force: true });
  }
});

Deno.test("gate files: directories, cd chains and globs that reach them ask", async () => {
  const t = tree();
  try {
    const config = t.load();
    const parser = await loadBashParser();
    const commands = [
      "rm -rf .pi",
      "rm -rf .pi/extensions",
      "mv .pi .pi-off",
      "rm -r sub",
      "find . -name '*.jsonc' -delete",
      "find . -delete",
      "find -L . -depth -delete",
      "find . -exec rm -rf {} +",
      "find . -type f -execdir rm {} ';'",
      "find . -ok rm {} ';'",
      "find . -type f -exec sh -c 'rm \"$0\"' {} ';'",
      "rm -rf ~/.pi",
      "mv ~/.pi/agent ~/agent-off",
      "rm -rf ~/.pi/agent/extensions",
      "cd .pi/extensions && echo '{}' > pi-controls.jsonc",
      "cd .pi && cd extensions && rm pi-controls.jsonc",
      "cd ~/.pi/agent && tee settings.json < ~/project/evil.jsonc",
      "pushd .pi/extensions; cp ../../evil.jsonc pi-controls.jsonc",
      "rm .pi/extensions/*",
      "cp evil.jsonc .pi/extensions/pi-c*",
      "rm -rf .p*",
      "rm ~/.pi/agent/extensions/*.jsonc",
      "chmod -R 777 .pi",
      "git checkout .",
      "git clean -fdx .pi",
      // A pathspec wildcard reaches names below, `--` or not (git's `*` crosses `/`).
      "git checkout HEAD -- '*settings.json'",
      "git restore --source=HEAD '*settings.json'",
      "git rm '*settings.json'",
      "git clean -f '*settings.json'",
      "git stash push '*.jsonc'",
      // The index written below a prefix, or the paths the input names.
      "git checkout-index --stdin -f <<<'.pi/settings.json'",
      "git checkout-index -a --prefix .pi/",
      // A backup named by its suffix (a `*` in it is the file's name).
      "cp -b -S .json evil.jsonc .pi/settings",
      "mv -b --suffix=.json evil.jsonc .pi/settings",
      "sed -i.json s/x/x/ .pi/settings",
      "sed -i'.pi/*' s/x/x/ settings.json",
      "perl -i'.pi/*' -pe 1 settings.json",
      // Only exclusions are everything else; pathspecs from a file are any.
      "git restore --source=HEAD ':!src'",
      "git checkout HEAD ':!src'",
      "git rm -rf ':!src'",
      "git restore --pathspec-from-file=- --source=HEAD <<<'.pi/settings.json'",
      "git --icase-pathspecs restore --source=HEAD .PI/settings.json",
      "git restore --source=HEAD '\\.pi/settings.json'",
      "tar -xf backup.tar -C .pi",
      "ln -sfn /tmp/evil .pi/extensions",
      "ln -s ~/.pi/agent/extensions e && cp evil.jsonc e/pi-controls.jsonc",
      "D=.pi/extensions; echo x > $D/pi-controls.jsonc",
      "for f in .pi/extensions/pi-controls.jsonc; do echo x > $f; done",
      "cp -t.pi/extensions evil.jsonc",
      "install -Dt.pi/extensions evil.jsonc",
      "gunzip -f .pi/settings.json.gz",
      "gzip -r .pi",
      "zstd -d /tmp/settings.json.zst --output-dir-flat .pi",
      "ln -sf /tmp/settings.json .pi",
      "ln -f -t .pi /tmp/settings.json",
      "rename .pi x .pi",
      "mmv .pi x",
      "setfacl -R -m u:x:rwx .pi",
      "chattr -R +i .",
      "dpkg-deb -x x.deb .pi",
      "ar x --output .pi /tmp/a.a",
      "wget -P .pi http://x/settings.json",
      "cp /tmp/evil ~/.pi/agent/bin/rg",
      "git checkout-index -f --prefix=.pi/ settings.json",
      "cd .pi && wget http://x/settings.json",
      "curl --output-dir .pi -O http://x/settings.json",
      "aria2c -d .pi http://x/settings.json",
      "sqlite3 x.db \"select writefile('.pi/settings.json', 'x')\"",
      "sqlite3 x.db '.backup main .pi/settings.json'",
      "psql -c '\\o .pi/settings.json'",
      "mysql -e '\\T .pi/settings.json'",
      "ed -s README.md <<< 'w .pi/settings.json'",
      "ed -s notes.txt <<< $'f .pi/settings.json\\nw'",
      "sort -o.pi/extensions/pi-controls.jsonc evil.jsonc",
      "patch -d.pi -p1 -i fix.diff",
      "f(){ echo; } > .pi/settings.json; f",
      "[[ x ]] > .pi/settings.json",
      // Paths a program lists, each an operand of the stage it feeds.
      "find .pi -type f | xargs truncate -s0",
      'find .pi | while read -r f; do : > "$f"; done',
      "find . -name settings.json | xargs truncate -s0",
      "find . -name '*.json' | xargs sed -i s/a/b/",
      "git ls-files | xargs sed -i s/a/b/",
    ];
    const missed: string[] = [];
    for (const command of commands) {
      const v = decide(config, { tool: "bash", input: { command } }, t.ctx, { parser });
      if (command === "find . -de*") console.log(JSON.stringify(v.stages, null, 1));
      if (RESTRICTIVENESS[v.action] < RESTRICTIVENESS.ask) missed.push(`${v.action}: ${command}`);
    }
    assert.deepEqual(missed, []);
  } finally {
    rmSync(t.root, { recursive: true, force: true });
  }
});

Deno.test("gate files: reading them and everyday work stay as the policy says", async () => {
  const t = tree();
  try {
    const config = t.load();
    const parser = await loadBashParser();
    const commands = [
      `cat ${P}`,
      `cat ${G}`,
      `head -n 5 ${P} > /tmp/copy.txt`,
      `grep -n deny ${P}`,
      "cat cfg",
      "ls -la .pi/extensions ~/.pi/agent/extensions",
      "wc -l ~/.pi/agent/settings.json",
      "jq . .pi/settings.json",
      "cd .pi/extensions && ls",
      "git diff .pi/extensions/pi-controls.jsonc",
      "git status",
      "git add .",
      "git add -A && git commit -m 'work'",
      "rm -rf build dist",
      "mkdir -p src/lib && echo x > src/lib/a.ts",
      // (`prettier --write .` rewrites `.pi/extensions/pi-controls.jsonc`: asked, rewritten_trees.)
      "prettier --write src",
      "npm install",
      "sed -i 's/a/b/' src/main.ts",
      "rm -rf node_modules",
      "cp -r src /tmp/src-copy",
      "mv notes.txt docs.txt",
      "find . -name '*.ts' | xargs grep -n TODO",
      "find . -type f -newer package.json",
      "find . -name '*.log' -fprint /tmp/logs.txt",
      "rm src/*.ts",
    ];
    const asked: string[] = [];
    for (const command of commands) {
      const v = decide(config, { tool: "bash", input: { command } }, t.ctx, { parser });
      // (Globs and xargs input ask by the rulings, whatever they touch: not the gate's doing.)
      const gate = v.stages.some((s) => s.targets.some((x) => x.protection?.builtin));
      if (gate || (v.action !== "allow" && !/[*]|xargs/.test(command))) {
        asked.push(`${v.action}: ${command}`);
      }
    }
    for (const path of [P, G, "cfg", "~/.pi/agent/settings.json"]) {
      for (const tool of ["read", "grep", "ls", "find"]) {
        const v = decide(config, { tool, input: { path } }, t.ctx, { parser });
        if (v.action !== "allow") asked.push(`${v.action}: ${tool} ${path}`);
      }
    }
    assert.deepEqual(asked, []);
  } finally {
    rmSync(t.root, { recursive: true, force: true });
  }
});

Deno.test("gate files: pathProtection deny wins, a weaker entry does not loosen them", async () => {
  const t = tree();
  try {
    const parser = await loadBashParser();
    const decideWith = (config: Config, tool: string, input: Record<string, unknown>): Action =>
      decide(config, { tool, input }, t.ctx, { parser }).action;
    const strict = t.load(`{
      "pathProtection": { ".pi/extensions/**": "deny", "~/.pi/agent/settings.json": "deny" }
    }`);
    assert.equal(decideWith(strict, "write", { path: P, content: "{}" }), "deny");
    assert.equal(decideWith(strict, "bash", { command: `echo x > ${P}` }), "deny");
    assert.equal(decideWith(strict, "edit", { path: "~/.pi/agent/settings.json" }), "deny");
    // A user's deny covers reads too: that is what pathProtection means.
    assert.equal(decideWith(strict, "read", { path: P }), "deny");
    const weak = t.load(`{
      "pathProtection": { ".pi/extensions/pi-controls.jsonc": "log", "~/.pi/agent/**": "log" },
      "approvalRules": [{ "action": "allow", "tool": "bash", "pattern": "tee *" }]
    }`);
    assert.equal(decideWith(weak, "write", { path: P, content: "{}" }), "ask");
    assert.equal(decideWith(weak, "bash", { command: `tee ${G} < evil.jsonc` }), "ask");
    // Reading stays as the user's own entry says.
    assert.equal(decideWith(weak, "read", { path: P }), "log");
  } finally {
    rmSync(t.root, { recursive: true, force: true });
  }
});

Deno.test("gate files: the entries name the agent dir, projects at any depth and the code", () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "pi-controls-code-")));
  try {
    const pkg = join(root, "lib", "node_modules", "pi-controls");
    mkdirSync(join(pkg, "dist"), { recursive: true });
    writeFileSync(join(pkg, "package.json"), '{ "name": "pi-controls" }');
    writeFileSync(join(pkg, "dist", "pi-controls.js"), "");
    const checkout = join(root, "src", "pi-controls");
    mkdirSync(join(checkout, "dist"), { recursive: true });
    writeFileSync(join(checkout, "package.json"), '{ "name": "pi-controls" }');
    writeFileSync(join(checkout, "dist", "pi-controls.js"), "");
    const globs = (codeFile?: string) =>
      gateFileEntries({ agentDir: "/a/agent", codeFile }).map((e) => e.glob);
    const base = globs();
    for (const g of ["/a/agent/extensions", "/a/agent/settings.json", ".pi/extensions"]) {
      assert.ok(base.includes(g), g);
    }
    assert.ok(gateFileEntries({ agentDir: "/a" }).every((e) => e.writes && e.action === "ask"));
    // Installed by npm: the whole package directory.
    assert.ok(globs(join(pkg, "dist", "pi-controls.js")).includes(pkg));
    // A checkout the user works in: the loaded file and its manifest only.
    const mine = globs(join(checkout, "dist", "pi-controls.js"));
    assert.ok(mine.includes(join(checkout, "dist", "pi-controls.js")));
    assert.ok(mine.includes(join(checkout, "package.json")));
    // The bytecode V8 runs in its place at the next start (lib/code_cache.ts).
    assert.ok(mine.includes(join(checkout, "dist", "pi-controls.js.v8-cache")));
    assert.ok(!mine.includes(checkout));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

Deno.test("gate files: the code cache beside a bundle loaded from a checkout is the bundle's", async () => {
  const code = "/home/user/src/pi-controls/dist/pi-controls.js";
  const loaded = loadConfigTexts(
    [{ file: "test.jsonc", text: ALLOW_ALL, role: "project", root: null }],
    {
      home: "/home/user",
      builtins: gateFileEntries({ agentDir: "/home/user/.pi/agent", codeFile: code }),
    },
  );
  assert.equal(loaded.status, "ok");
  const config = (loaded as { config: Config }).config;
  const ctx = ctxIn("/home/user/src/pi-controls", {
    files: [code, `${code}.v8-cache`, "/home/user/src/pi-controls/lib/a.ts"],
  });
  const rows: [string, Action][] = [
    ["cp /tmp/x dist/pi-controls.js.v8-cache", "ask"],
    ["printf x > dist/pi-controls.js.v8-cache", "ask"],
    ["ln -sf /tmp/x dist/pi-controls.js.v8-cache", "ask"],
    ["rm dist/*.v8-cache", "ask"],
    ["mv /tmp/x dist/pi-controls.js.v8-cache", "ask"],
    ["ls -la dist && wc -c dist/pi-controls.js.v8-cache", "allow"],
    ["printf x > lib/a.ts", "allow"],
  ];
  for (const [command, want] of rows) {
    assert.equal((await bash(config, ctx, command)).action, want, command);
  }
});

Deno.test("gate files: a change limited to names asks only where those may be the gate's", async () => {
  const config = configFrom(
    { policies: { open: { defaultAction: "allow", rules: [] } }, locations: { "/": "open" } },
    { agentDir: "/home/user/.pi/agent", home: "/home/user" },
  );
  const P = "/home/user/project";
  // A project whose .pi/ holds settings only, and one with extensions too (any name may be there).
  const settingsOnly = ctxIn(P, { files: [`${P}/src/a.ts`, `${P}/.pi/settings.json`] });
  const withExtensions = ctxIn(P, {
    files: [`${P}/src/a.ts`, `${P}/.pi/settings.json`, `${P}/.pi/extensions/x.ts`],
  });
  const rows: [string, Action, Action][] = [
    // [command, in the first project, in the second]
    ["git rm '*.orig'", "allow", "ask"],
    ["git rm -r --ignore-unmatch '*.orig' src", "allow", "ask"],
    ["git clean -xdf '*.pyc'", "allow", "ask"],
    ["git checkout -- '*.ts'", "allow", "ask"],
    ["find . -name '*.pyc' -delete", "allow", "ask"],
    ["find -name '*.orig' -delete", "allow", "ask"],
    ["find .pi -name '*.orig' -delete", "allow", "ask"],
    ["find src . -type f -name '*.orig' -delete", "allow", "ask"],
    // A name the gate's files may have, in any case.
    ["git rm '*settings.json'", "ask", "ask"],
    ["git checkout -- '*.json'", "ask", "ask"],
    ["find . -name 'settings.*' -delete", "ask", "ask"],
    ["find . -iname 'SETTINGS.JSON' -delete", "ask", "ask"],
    ["find .pi -name '*' -delete", "ask", "ask"],
    // Not limited to those names: a whole tree beside them, tests joined otherwise than by "and",
    // exclusions only, a name not known.
    ["git rm -r '*.orig' .pi", "ask", "ask"],
    ["git clean -fdx", "ask", "ask"],
    ["find . -name '*.orig' -o -delete", "ask", "ask"],
    ["find . ! -name '*.orig' -delete", "ask", "ask"],
    ["find . \\( -name '*.orig' \\) -o -delete", "ask", "ask"],
    ["find . -name '*.orig' , -delete", "ask", "ask"],
    ["git rm -r ':!src'", "ask", "ask"],
    ['git rm "$X"', "ask", "ask"],
    ['find . -name "$X" -delete', "ask", "ask"],
    // Paths a lister prints below a directory that holds no `.pi`: nothing of the gate's.
    ["grep -rl foo src | xargs sed -i s/foo/bar/", "allow", "allow"],
    ["rg -l foo src | xargs sed -i s/foo/bar/", "allow", "allow"],
    ["rg --files src | xargs wc -l", "allow", "allow"],
    // A command find runs on what it finds is judged by what it does with them.
    ["find . -name '*.py' -exec grep -l foo {} \\;", "allow", "allow"],
    ["find . -type f -exec wc -l {} +", "allow", "allow"],
    ["find . -type f -exec rm {} +", "ask", "ask"],
    ["find . -exec sed -i s/a/b/ {} +", "ask", "ask"],
    // (rg lists no hidden name unless told: `.pi` is never among what it prints.)
    ["rg -l foo | xargs sed -i s/foo/bar/", "allow", "allow"],
    ["rg --hidden -l foo | xargs sed -i s/foo/bar/", "ask", "ask"],
    ["rg -uu -l foo | xargs sed -i s/foo/bar/", "ask", "ask"],
    ["rg -. --files | xargs truncate -s0", "ask", "ask"],
    ["grep -rl foo . | xargs sed -i s/foo/bar/", "ask", "ask"],
  ];
  const wrong: string[] = [];
  for (const [command, a, b] of rows) {
    const x = (await bash(config, settingsOnly, command)).action;
    const y = (await bash(config, withExtensions, command)).action;
    if (x !== a) wrong.push(`settings only: ${command} got ${x}, want ${a}`);
    if (y !== b) wrong.push(`with extensions: ${command} got ${y}, want ${b}`);
  }
  assert.deepEqual(wrong, []);
});
