/**
 * Linters' option values that name where they write in a form of their own: ruff's `--config`
 * (an inline TOML override or a settings file) and pylint's `--output-format FORMAT:FILE,…`.
 */
import assert from "node:assert/strict";
import { checkGateTable } from "../testing_adversarial.ts";
import { ctxIn } from "../testing.ts";
import { pylintOutputs, tomlString } from "./linters.ts";
import { literal } from "./words.ts";

const P = "/home/user/project";
const ctx = ctxIn(P, {
  files: [`${P}/README.md`, `${P}/src/a.py`, "/home/user/.pi/agent/settings.json"],
  contents: {
    [`${P}/pyproject.toml`]: '[project]\nname = "x"\n\n[tool.ruff]\nline-length = 100\n',
    [`${P}/ruff.toml`]: 'line-length = 100\ncache-dir = ".cache/ruff"\n\n[lint]\nselect = ["E"]\n',
    "/tmp/evil.toml": 'cache-dir = "/home/user/.pi/agent/extensions"\n',
    "/tmp/extends.toml": 'extend = "evil.toml"\n',
    "/tmp/pyproject.toml": '[tool.ruff]\ncache-dir = "../home/user/project/.pi/extensions"\n',
    "/tmp/dotted.toml": 'tool.ruff.cache-dir = "/home/user/project/.pi/extensions"\n',
    "/tmp/d2/pyproject.toml": 'tool.ruff.cache-dir = "/home/user/project/.pi/extensions"\n',
    "/tmp/other.toml": '[tool.mypy]\ncache-dir = "/home/user/project/.pi/extensions"\n',
  },
});

Deno.test("ruff: --config's TOML overrides and settings files that place its cache", async () => {
  // [command, deny-list, gate's own files]
  await checkGateTable(ctx, [
    ["ruff check --config 'cache-dir=\".pi/extensions\"' src", "allow", "ask"],
    ["ruff check --config \"cache-dir='.pi/extensions'\" src", "allow", "ask"],
    ["ruff check --config 'cache-dir = \"/home/user/.pi/agent/extensions\"' src", "allow", "ask"],
    ['ruff check --config \'"cache-dir" = ".pi/extensions"\' src', "allow", "ask"],
    ["ruff format --config='cache-dir=\".pi/extensions\"' src", "allow", "ask"],
    ["ruff --config 'cache-dir=\".pi/extensions\"' check src", "allow", "ask"],
    ["ruff check --config 'cache-dir=\"\\u002epi/extensions\"' src", "allow", "ask"],
    // (a value this reader does not take as a path, a value not known)
    ['ruff check --config \'cache-dir="""x"""\' src', "deny", "ask"],
    ['ruff check --config "$CFG" src', "deny", "ask"],
    // settings files, and what they extend
    ["ruff check --config /tmp/evil.toml src", "allow", "ask"],
    ["ruff check --config 'extend=\"/tmp/evil.toml\"' src", "allow", "ask"],
    ["ruff check --config /tmp/extends.toml src", "allow", "ask"],
    ["ruff check --config /tmp/pyproject.toml src", "allow", "ask"],
    // (a pyproject's key at the top; in a ruff.toml `tool.ruff.…` is no setting of ruff's)
    ["ruff check --config /tmp/dotted.toml src", "allow", "allow"],
    ["ruff check --config /tmp/d2/pyproject.toml src", "allow", "ask"],
    ["echo 'cache-dir = \".pi\"' > c.toml; ruff check --config c.toml src", "deny", "ask"],
    // everyday
    ["ruff check --config 'line-length=100' src", "allow", "allow"],
    ['ruff check --config \'lint.select=["E","F"]\' --fix src', "allow", "allow"],
    ["ruff check --config 'cache-dir=\".cache/ruff\"' src", "allow", "allow"],
    ["ruff check --config pyproject.toml src", "allow", "allow"],
    ["ruff check --config ruff.toml src", "allow", "allow"],
    ["ruff format --config /tmp/other.toml src", "allow", "allow"],
    ["ruff check src && ruff format --check src", "allow", "allow"],
  ]);
});

Deno.test("pylint: each reporter's FORMAT:FILE of --output-format is a file it writes", async () => {
  const files = (...argv: string[]) => pylintOutputs(argv.map(literal)).map((f) => f.path);
  assert.deepEqual(files("pylint", "--output-format=text:a.txt,colorized", "src"), ["a.txt"]);
  assert.deepEqual(files("pylint", "-f", "colorized,json:r.json", "src"), ["r.json"]);
  assert.deepEqual(files("pylint", "-fjson:r.json", "src"), ["r.json"]);
  assert.deepEqual(files("pylint", "--output-f", "json:r.json", "src"), ["r.json"]);
  assert.deepEqual(files("pylint", "--output=x.txt", "src"), []);
  assert.deepEqual(files("pylint", "--output-format=colorized", "src"), []);
  assert.deepEqual(files("pylint", "--", "-f", "json:r.json"), []);
  assert.equal(tomlString('"a\\"b"'), 'a"b');
  assert.equal(tomlString("'a\\b'"), "a\\b");
  assert.equal(tomlString("100"), null);
  // [command, deny-list, gate's own files]
  await checkGateTable(ctx, [
    ["pylint --output-format=text:.pi/mcp.json,colorized src", "allow", "ask"],
    [
      "pylint --output-format json:/home/user/.pi/agent/settings.json,colorized src",
      "allow",
      "ask",
    ],
    ["pylint -f colorized,text:.pi/mcp.json src", "allow", "ask"],
    ["pylint -fcolorized,text:.pi/extensions/x.ts src", "allow", "ask"],
    ["pylint --output-f=colorized,json:.pi/mcp.json src", "allow", "ask"],
    ['pylint -f "$FMT" src', "ask", "ask"],
    // everyday
    ["pylint --output-format=colorized src", "allow", "allow"],
    ["pylint --output-format=json:report.json,colorized src", "allow", "allow"],
    ["pylint -f parseable src", "allow", "allow"],
    ["pylint src", "allow", "allow"],
  ]);
});
