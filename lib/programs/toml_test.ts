/**
 * The TOML reader, held to TOML 1.1 as cargo 1.95 reads it (`cargo config get`: each document
 * below is cargo's, a null where cargo rejects the text or this reader does not read it).
 */
import assert from "node:assert/strict";
import { tomlDocument, tomlEntries, tomlKeys } from "./toml.ts";

Deno.test("toml: strings as cargo reads them (multi-line, line-ending backslash, escapes, CRLF)", () => {
  const cases: [string, unknown][] = [
    // (A line-ending backslash skips blanks and newlines, never a comment: it is text.)
    ['x = """echo \\\n  # /root/.ssh/id_rsa\n"""\n', { x: "echo # /root/.ssh/id_rsa\n" }],
    ['x = """echo \\   \n\n   \t b"""\n', { x: "echo b" }],
    ['x = """echo \\\r\n  b"""\r\n', { x: "echo b" }],
    ['a = """\\\\\n# not a comment"""\n', { a: "\\\n# not a comment" }],
    ['a = """\\\\\\\n# joined"""\n', { a: "\\# joined" }],
    ['a = """\\\n\n\n  """\n', { a: "" }],
    ['a = """x\\\n\n"""\n', { a: "x" }],
    // (A literal string has no escapes: its backslash stays, its next line too.)
    ["x = '''echo \\\n  # c\n'''\n", { x: "echo \\\n  # c\n" }],
    ['x = """a""""\ny = """a"""""\nz = \'\'\'a\'\'\'\'\n', { x: 'a"', y: 'a""', z: "a'" }],
    ['a = """a\\"""b"""\n', { a: 'a"""b' }],
    ["a = '''\"\"\"'''\nb = \"\"\"'''\"\"\"\n", { a: '"""', b: "'''" }],
    ["x = \"a # b\" # c\ny = 'c:\\x' #\n", { x: "a # b", y: "c:\\x" }],
    ['x = "\\u0041\\U0001F600\\t\\"\\\\"\n', { x: 'A\u{1F600}\t"\\' }],
    ['a = "\\e\\x41"\n', { a: "\x1bA" }],
    ['x = """\r\nab\r\ncd"""\r\n', { x: "ab\r\ncd" }],
    ['a = """\n"""\n', { a: "" }],
    ['a = "tab\there"\n', { a: "tab\there" }],
    ['a = """x""" # """\n', { a: "x" }],
    // (Not TOML: cargo reads nothing.)
    ['x = """a""""""\n', null],
    ['x = "a\\ b"\n', null],
    ['a = "\\x4"\n', null],
    ['a = "x\\\n y"\n', null],
    ['a = """a \\ # x\n b"""\n', null],
    ['a = "x" "y"\n', null],
    ['a = """x"""y\n', null],
    ['a = "x"\rb = 1\n', null],
    ['a = "open', null],
    ['a = "\\u12"', null],
  ];
  for (const [text, doc] of cases) assert.deepEqual(tomlDocument(text), doc, JSON.stringify(text));
});

Deno.test("toml: keys, tables, arrays of tables, inline tables, redefinitions", () => {
  const cases: [string, unknown][] = [
    ['"alias".\'x\' = "a"\nalias . y = "b"\n', { alias: { x: "a", y: "b" } }],
    ['[alias]\nx-y_z = "a"\n1 = "b"\n', { alias: { "x-y_z": "a", 1: "b" } }],
    ["a.'b.c'.\"d\" = 1\n", { a: { "b.c": { d: 1 } } }],
    ['[a."b\\u002ec"]\nd = 1\n', { a: { "b.c": { d: 1 } } }],
    ["[ a . b ]\nc = 1\n[[ d ]]\ne = 1\n", { a: { b: { c: 1 } }, d: [{ e: 1 }] }],
    ['[alias]\r\nx = "a"\r\n', { alias: { x: "a" } }],
    ['a="x"\n[b]#c\nc=1#d\n', { a: "x", b: { c: 1 } }],
    ["[[x]]\na = 1\n[[x]]\na = 2\n[x.b]\nc = 3\n", { x: [{ a: 1 }, { a: 2, b: { c: 3 } }] }],
    [
      '[env]\nLD_PRELOAD.value = "/tmp/evil.so"\nLD_PRELOAD.relative = true\n',
      { env: { LD_PRELOAD: { value: "/tmp/evil.so", relative: true } } },
    ],
    ["x = { a.b = 1, a.c = 2 }\n", { x: { a: { b: 1, c: 2 } } }],
    ["x = { a = 1, }\n", { x: { a: 1 } }],
    ["x = {\n a = 1, # c\n b = 2\n}\n", { x: { a: 1, b: 2 } }],
    ["a = [1, 2,\n # c\n 3,]\n", { a: [1, 2, 3] }],
    ['a = [ "a", { b = 1 }, [1, [2]] ]\n', { a: ["a", { b: 1 }, [1, [2]]] }],
    ["[a.b]\nc = 1\n[a]\nd = 2\n", { a: { b: { c: 1 }, d: 2 } }],
    ["[a]\nb.c = 1\n[a.b.e]\nd = 1\n", { a: { b: { c: 1, e: { d: 1 } } } }],
    ["a.b.c = 1\na.b.d = 2\na.e = 3\n", { a: { b: { c: 1, d: 2 }, e: 3 } }],
    ["true = 1\ninf = 2\n", { true: 1, inf: 2 }],
    ['"" = 1\n', { "": 1 }],
    ['a =\n"x"\n', null],
    // (A key or table defined twice, an inline table added to: cargo reads nothing.)
    ["x = { a = 1 }\nx.b = 2\n", null],
    ["a = { b = 1 }\n[a.c]\n", null],
    ["[a]\nb = 1\n[a]\nc = 2\n", null],
    ["[a]\nb.c = 1\n[a.b]\nd = 1\n", null],
    ["a.b = 1\n[a]\nc = 2\n", null],
    ["[a]\nb = 1\nb = 2\n", null],
    ["[a]\n[[a]]\n", null],
    ["a = [1]\n[[a]]\n", null],
    ["[x]\na.b = 1\n[y]\n[x.a]\n", null],
    ["t = { a = 1, a = 2 }", null],
    ["[a\nb = 1", null],
    ["a = 1 b = 2", null],
  ];
  for (const [text, doc] of cases) assert.deepEqual(tomlDocument(text), doc, JSON.stringify(text));
});

Deno.test("toml: entries in order, keys by their full path (tables' too)", () => {
  assert.deepEqual(
    tomlEntries(
      "# c\n[target.'cfg(unix)']\nrunner = [\n 'a', # x\n \"b\\tc\",\n]\n[env]\nX = { value = \"v\", relative = true }\n" +
        'a.b = """\nq""""\nn = 1_000\n[[x]]\ny = false\n',
    ),
    [
      { path: ["target", "cfg(unix)", "runner"], value: ["a", "b\tc"] },
      { path: ["env", "X"], value: { value: "v", relative: true } },
      { path: ["env", "a", "b"], value: 'q"' },
      { path: ["env", "n"], value: 1000 },
      { path: ["x", "y"], value: false },
    ],
  );
  const keys = (t: string) => tomlKeys(t)?.map((e) => [e.path.join("."), e.value]) ?? null;
  assert.deepEqual(keys('[ tool . "pytest" ]\nini_options.addopts = "-q"'), [
    ["tool", { pytest: { ini_options: { addopts: "-q" } } }],
    ["tool.pytest", { ini_options: { addopts: "-q" } }],
    ["tool.pytest.ini_options", { addopts: "-q" }],
    ["tool.pytest.ini_options.addopts", "-q"],
  ]);
  assert.deepEqual(keys("tool = { pytest.addopts = 'a', __proto__ = 1 }")?.at(-2), [
    "tool.pytest.addopts",
    "a",
  ]);
  assert.deepEqual(
    keys('x = """\n[tool.pytest]\naddopts = "a"\n"""\n[a]\nb = 1979-05-27 07:32:00Z'),
    [
      ["x", '[tool.pytest]\naddopts = "a"\n'],
      ["a", { b: "1979-05-27 07:32:00Z" }],
      ["a.b", "1979-05-27 07:32:00Z"],
    ],
  );
  // (The tables of an array of tables are not walked.)
  assert.deepEqual(keys("[[a]]\nb = 1"), [["a", [{ b: 1 }]]]);
});
