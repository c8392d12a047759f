/**
 * pytest's settings files, found as pytest finds them (`-c F`, else `pytest.ini`, `pyproject.toml`,
 * `tox.ini`, `setup.cfg`… in its arguments' directories and above): their `addopts` are its
 * options (`--basetemp=DIR` empties DIR), their `cache_dir` and `log_file` places it writes.
 */
import assert from "node:assert/strict";
import { bash, checkActions, ctxIn, rmDenied, secretsDenied } from "../testing.ts";
import { pythonShlex } from "./pytest.ts";

const H = "/home/user";
const P = `${H}/project`;
const config = rmDenied(H, { ssh: true });
const base = [`${P}/tests/test_x.py`, `${P}/src/app.py`, `${P}/.env`, `${H}/.ssh/id_rsa`];

/** A project holding `contents` (paths from the project). */
function project(contents: Record<string, string>, env?: Record<string, string>) {
  const full = Object.fromEntries(
    Object.entries(contents).map(([k, v]) => [k.startsWith("/") ? k : `${P}/${k}`, v]),
  );
  return ctxIn(P, { files: [...base, ...Object.keys(full)], contents: full, home: H, env });
}

Deno.test("pythonShlex: words as Python's shlex.split makes them (no comments)", () => {
  assert.deepEqual(pythonShlex("-ra  -q\n--basetemp=x"), ["-ra", "-q", "--basetemp=x"]);
  assert.deepEqual(pythonShlex("-q # --basetemp=/x"), ["-q", "#", "--basetemp=/x"]);
  assert.deepEqual(pythonShlex(`"a\\" b" 'c\\' d\\ e ''`), ['a" b', "c\\", "d e", ""]);
  assert.deepEqual(pythonShlex(`"a\\x"`), ["a\\x"]);
  assert.equal(pythonShlex(`"open`), null);
  assert.equal(pythonShlex("x\\"), null);
});

Deno.test("pytest: a project's settings file's addopts are its options", async () => {
  const ssh = "--basetemp=/home/user/.ssh";
  const cases: [Record<string, string>, string, string][] = [
    [{ "pytest.ini": `[pytest]\naddopts = ${ssh}` }, "pytest", "deny"],
    [{ ".pytest.ini": `[pytest]\naddopts = -q ${ssh}` }, "pytest -q tests/", "deny"],
    [{ "pytest.toml": `[pytest]\naddopts = ["${ssh}"]` }, "py.test", "deny"],
    [{ "pyproject.toml": `[tool.pytest.ini_options]\naddopts = "${ssh}"` }, "pytest", "deny"],
    [{ "pyproject.toml": `[tool.pytest]\naddopts = ["--basetemp", ".pi"]` }, "pytest", "ask"],
    [{ "pyproject.toml": `tool.pytest.ini_options.addopts = '${ssh}'` }, "pytest", "deny"],
    [{ "tox.ini": `[pytest]\naddopts =\n    -q\n    ${ssh}` }, "python -m pytest", "deny"],
    [{ "setup.cfg": `[metadata]\nname = x\n[tool:pytest]\naddopts: ${ssh}` }, "pytest", "deny"],
    // (Python's line breaks: U+2028 ends a line)
    [{ "pytest.ini": `[other]\u2028[pytest]\u2028addopts = ${ssh}` }, "pytest", "deny"],
    // (no inline comments: `#` is a word)
    [{ "pytest.ini": `[pytest]\naddopts = -q # ${ssh}` }, "pytest", "deny"],
    // (the settings' own places: cache_dir from the file's directory, log_file)
    [{ "pytest.ini": "[pytest]\ncache_dir = ../.ssh" }, "pytest", "deny"],
    [{ "tests/pytest.ini": "[pytest]\ncache_dir = ../.env" }, "pytest tests", "ask"],
    [{ "pytest.ini": "[pytest]\ncache_dir = /home/user/.ssh" }, "pytest", "deny"],
    [{ "pytest.ini": "[pytest]\ncache_dir = $HOME/.ssh" }, "pytest", "deny"],
    [{ "pytest.ini": "[pytest]\nlog_file = .env" }, "pytest", "ask"],
    // (a file in the directory of its arguments, or above the cwd)
    [{ "tests/pytest.ini": `[pytest]\naddopts = ${ssh}` }, "pytest tests/test_x.py::t", "deny"],
    // (the home directory's too: pytest looks up to the root)
    [{ "/home/user/pytest.ini": `[pytest]\naddopts = ${ssh}` }, "pytest", "deny"],
    // (a file another stage writes first, or the settings not readable: not known, which may
    // reach ~/.ssh)
    [{}, "echo '[pytest]' > pytest.ini; pytest", "deny"],
    [{ "pyproject.toml": '[tool.pytest]\naddopts = "' }, "pytest", "deny"],
    [{ "pytest.ini": "[pytest]\nno value here" }, "pytest", "deny"],
    // everyday
    [
      { "pytest.ini": "[pytest]\naddopts = -ra -q --strict-markers\ntestpaths = tests" },
      "pytest",
      "allow",
    ],
    [
      {
        "pyproject.toml":
          '[project]\nname = "x"\n[tool.pytest.ini_options]\naddopts = "-ra"\nmarkers = [\n  "slow: x",\n]',
      },
      "pytest -q tests/",
      "allow",
    ],
    [
      { "tox.ini": "[tox]\nenvlist = py311\n[testenv]\ncommands = pytest {posargs}" },
      "pytest",
      "allow",
    ],
    [{ "setup.cfg": "[flake8]\nmax-line-length = 100" }, "python -m pytest -x", "allow"],
    [{ "pytest.ini": "[pytest]\ncache_dir = .cache/pytest" }, "pytest", "allow"],
  ];
  const wrong: string[] = [];
  for (const [contents, command, want] of cases) {
    const action = (await bash(config, project(contents), command)).action;
    if (action !== want) {
      wrong.push(`${JSON.stringify(contents)} ${command}: got ${action}, want ${want}`);
    }
  }
  assert.deepEqual(wrong, []);
});

Deno.test("pytest: options that override its settings, and a settings file it is given", async () => {
  const ctx = project({
    "/tmp/evil.ini": "[pytest]\naddopts = --basetemp=/home/user/.ssh",
    "/tmp/evil.toml": '[tool.pytest.ini_options]\naddopts = "--basetemp=.pi"',
    "ok.ini": "[pytest]\naddopts = -q",
  });
  await checkActions(config, ctx, [
    ["pytest --override-ini=addopts=--basetemp=/home/user/.ssh", "deny"],
    ["pytest -o addopts=--basetemp=.pi", "ask"],
    ["pytest -o 'addopts=-q --basetemp /home/user/.ssh'", "deny"],
    ["python3 -m pytest -o addopts='--cov-report=html:.pi'", "ask"],
    ["pytest -c /tmp/evil.ini", "deny"],
    ["pytest --config-file=/tmp/evil.ini", "deny"],
    ["python3 -m pytest -c/tmp/evil.toml", "ask"],
    ["pytest --inifile /tmp/evil.toml tests", "ask"],
    ["pytest -c $F", "deny"],
    // everyday
    ["pytest -c ok.ini -q", "allow"],
    ["pytest -c /dev/null tests/test_x.py", "allow"],
    ["pytest -o addopts='' -q", "allow"],
    ["pytest -o cache_dir=.cache/p -p no:cacheprovider tests", "allow"],
    // (a file that is not there: pytest stops)
    ["pytest -c /tmp/absent.ini", "allow"],
  ]);
});

Deno.test("pytest: PYTEST_ADDOPTS of the tool's environment is options it is given", async () => {
  const evil = project({}, { PYTEST_ADDOPTS: "--basetemp=/home/user/.ssh" });
  await checkActions(config, evil, [["pytest", "deny"], ["python -m pytest -q", "deny"]]);
  const given = project({ "/tmp/e.ini": "[pytest]\naddopts = --basetemp=.pi" }, {
    PYTEST_ADDOPTS: "-c /tmp/e.ini",
  });
  await checkActions(config, given, [["pytest", "ask"]]);
  const everyday = project({}, { PYTEST_ADDOPTS: "-ra --color=yes" });
  await checkActions(config, everyday, [["pytest -q", "allow"]]);
});

Deno.test("pytest: the files its settings name are its own writing, judged as written out", async () => {
  const reports = [
    "--junitxml=build/j.xml",
    "--cov-report=html:cov --cov-report=xml:cov.xml",
    "--basetemp=.tmp/pytest",
    "-o log_file=logs/t.log",
  ];
  for (const opts of reports) {
    const ctx = project({ "pytest.ini": `[pytest]\naddopts = ${opts}` }, {
      PYTEST_ADDOPTS: "--html=build/r.html",
    });
    // (A tree read by pytest is not one another stage may change first: .env protection has no
    // new file below src to ask about.)
    await checkActions(config, ctx, [
      ["pytest -q src/", "allow"],
      [`pytest -q src/ ${opts}`, "allow"],
      ["cat src/*.py; python -m pytest tests", "allow"],
      // (Still a writer for what runs after it, and what is written before it is still read.)
      ["pytest -q; cat src/*.py", "ask"],
      ["touch src/.env; pytest src", "ask"],
    ]);
  }
  const ssh = project({ "pytest.ini": "[pytest]\naddopts = --junitxml=/home/user/.ssh/j.xml" });
  await checkActions(config, ssh, [["pytest -q src/", "deny"], ["cd src && pytest", "deny"]]);
});

Deno.test("pytest: the home directory's settings files are read as pytest reads them, up to /", async () => {
  const evil = project({ [`${H}/pytest.ini`]: "[pytest]\naddopts = --basetemp=/home/user/.ssh" });
  await checkActions(config, evil, [
    ["pytest -q", "deny"],
    ["python3 -m pytest tests", "deny"],
    ["cd tests && pytest", "deny"],
  ]);
  const tox = project({ [`${H}/tox.ini`]: "[pytest]\naddopts = --basetemp=.pi" });
  await checkActions(config, tox, [["pytest -q", "ask"]]);
  // (One another stage writes first is not known, which may reach ~/.ssh.)
  const none = project({});
  await checkActions(config, none, [
    ["printf '[pytest]\\naddopts=-q\\n' > ~/pytest.ini && pytest", "deny"],
    ["pytest -q", "allow"],
  ]);
  // Everyday: the user's own settings that give it harmless options.
  const plain = project({ [`${H}/pytest.ini`]: "[pytest]\naddopts = -ra -q" });
  await checkActions(config, plain, [["pytest -q", "allow"]]);
});

Deno.test("pytest: --debug[=F] and pytest-benchmark's files, from its words, addopts and the environment", async () => {
  const dl = secretsDenied(H, { agentDir: `${H}/.pi/agent` });
  const plain = project({});
  await checkActions(dl, plain, [
    ['pytest -o "addopts=-q --debug=secrets/k"', "deny"],
    ["pytest -o 'addopts=--debug secrets/k'", "deny"],
    ["pytest --debug secrets/k", "deny"], // (its value, the word after it)
    ["pytest --debug=.env", "ask"],
    ["pytest -o addopts=--debug=.env tests", "ask"],
    ['pytest --debug "$F"', "ask"],
    ["pytest -o 'addopts=--benchmark-json secrets/b.json'", "deny"],
    ["pytest -o 'addopts=--benchmark-histogram secrets/h'", "deny"],
    ["pytest -o 'addopts=--benchmark-cprofile-dump=secrets/p'", "deny"],
    ["pytest -o 'addopts=--benchmark-storage=file://secrets/b --benchmark-autosave'", "deny"],
    ["pytest -o 'addopts=--benchmark-netrc ~/.ssh/id_rsa'", "deny"],
    ["pytest -o 'addopts=--junit-xml=secrets/j.xml'", "deny"],
    // Everyday.
    ["pytest --junitxml=out.xml", "allow"],
    ["pytest --debug -q tests", "allow"],
    ["pytest --debug=build/debug.log", "allow"],
    ["pytest --benchmark-autosave --benchmark-histogram tests", "allow"],
    ["pytest --benchmark-json=bench.json --benchmark-save=base tests", "allow"],
    ["pytest --benchmark-storage=elasticsearch+https://h/ --benchmark-save x", "allow"],
  ]);
  for (
    const [file, text] of [["pytest.ini", "[pytest]\naddopts = --debug=.env"], [
      "pyproject.toml",
      '[tool.pytest.ini_options]\naddopts = ["--debug", ".env"]',
    ]]
  ) {
    await checkActions(dl, project({ [file]: text }), [["pytest -q", "ask"]]);
  }
  await checkActions(dl, project({ "setup.cfg": "[tool:pytest]\naddopts = --debug secrets/x" }), [
    ["pytest tests", "deny"],
  ]);
  await checkActions(dl, project({}, { PYTEST_ADDOPTS: "--debug=secrets/x" }), [[
    "pytest",
    "deny",
  ]]);
  await checkActions(dl, project({ "pytest.ini": "[pytest]\naddopts = --debug -ra" }), [
    ["pytest -q", "allow"],
  ]);
});
