/**
 * The files pytest's options name (pytest-cov's `--cov-report=TYPE:DEST` of any shape, its own
 * `--junitxml`, `--basetemp`, `-o cache_dir=`), run as `pytest` or `python -m pytest`.
 */
import assert from "node:assert/strict";
import { pytestFiles } from "./pytest.ts";
import { checkActions, ctxIn, rmDenied } from "../testing.ts";
import { literal } from "./words.ts";

const files = (cmd: string) =>
  pytestFiles(cmd.split(" ").map(literal), "pytest").map((f) => [f.path, f.below === true]);

Deno.test("pytestFiles: report destinations, by whether a directory is written below", () => {
  assert.deepEqual(files("--cov=src --cov-report=html:cov --cov-report annotate:ann"), [
    ["cov", true],
    ["ann", true],
  ]);
  assert.deepEqual(files("--cov-report=xml:c.xml --cov-report json:c.json --cov-report=lcov:l"), [
    ["c.xml", false],
    ["c.json", false],
    ["l", false],
  ]);
  // (`term` writes to the terminal: `skip-covered` is a modifier, no file.)
  assert.deepEqual(
    files("--cov-report=term:skip-covered --cov-report=term-missing --cov-report=html"),
    [],
  );
  assert.deepEqual(
    files("--junitxml=j.xml --html r.html --basetemp t -o cache_dir=c --rootdir=."),
    [
      ["j.xml", false],
      ["r.html", false],
      ["t", true],
      ["c", true],
      [".", false],
    ],
  );
  // (A settings file it is given is read by the runs facet: `pytestSettings`.)
  assert.deepEqual(files("-c x.ini"), []);
});

Deno.test("pytest: a protected place named as a report destination is reached", async () => {
  const H = "/home/user";
  const P = `${H}/project`;
  const config = rmDenied(H);
  const ctx = ctxIn(P, { files: [`${P}/tests/test_x.py`, `${P}/.env`, `${P}/.pi/settings.json`] });
  await checkActions(config, ctx, [
    ["pytest --cov=src --cov-report=html:secrets", "deny"],
    ["pytest --cov-report annotate:secrets", "deny"],
    ["python -m pytest --cov-report html:.pi", "ask"],
    ["py.test --cov-report=json:.env", "ask"],
    ["pytest --cov-report=xml:.pi/settings.json", "ask"],
    ["pytest -o cache_dir=secrets", "deny"],
    ["pytest --cov=src --cov-report=term-missing --cov-report=html:htmlcov tests/", "allow"],
    ["pytest -q --junitxml=build/junit.xml tests/", "allow"],
  ]);
});
