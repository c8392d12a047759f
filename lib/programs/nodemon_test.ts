import { denyList } from "../testing_adversarial.ts";
import { checkActions, ctxIn } from "../testing.ts";
import type { Action } from "../types.ts";

const P = "/home/user/project";
const json = (v: unknown) => JSON.stringify(v);

Deno.test("nodemon: the commands of its settings run (exec, events, execMap, env, …)", async () => {
  const with_ = (contents: Record<string, string>) =>
    ctxIn(P, { files: [`${P}/src/index.ts`, `${P}/x.js`], contents });
  const cases: [Record<string, string>, string, Action][] = [
    [{ [`${P}/nodemon.json`]: json({ exec: "cat .env" }) }, "nodemon x.js", "deny"],
    [{ [`${P}/nodemon.json`]: json({ exec: ["cat", ".env"] }) }, "nodemon x.js", "deny"],
    [{ [`${P}/nodemon.json`]: json({ events: { restart: "cat .env" } }) }, "nodemon x.js", "deny"],
    [
      { [`${P}/nodemon.json`]: json({ events: { "config:update": "rm -rf src" } }) },
      "nodemon",
      "deny",
    ],
    [{ [`${P}/nodemon.json`]: json({ execMap: { js: "cat .env #" } }) }, "nodemon x.js", "deny"],
    [{ [`${P}/nodemon.json`]: json({ env: { PAGER: "cat .env" } }) }, "nodemon x.js", "deny"],
    [{ [`${P}/nodemon.json`]: json({ execArgs: ["; cat .env"] }) }, "nodemon x.js", "deny"],
    [{ [`${P}/nodemon.json`]: json({ nodeArgs: ["; cat .env"] }) }, "nodemon x.js", "deny"],
    [{ [`${P}/nodemon.json`]: json({ script: "x.js; cat .env" }) }, "nodemon", "deny"],
    [{ [`${P}/nodemon.json`]: json({ exec: "cat {{filename}}" }) }, "nodemon .env", "deny"],
    // package.json's nodemonConfig where no nodemon.json is; its start script given nothing else.
    [
      { [`${P}/package.json`]: json({ nodemonConfig: { exec: "cat .env" } }) },
      "nodemon x.js",
      "deny",
    ],
    [{ [`${P}/package.json`]: json({ scripts: { start: "cat .env" } }) }, "nodemon", "deny"],
    // `--config F`, `--cwd DIR`, the home's nodemon.json.
    [
      { [`${P}/conf/n.json`]: json({ exec: "cat .env" }) },
      "nodemon --config conf/n.json x.js",
      "deny",
    ],
    [
      { [`${P}/app/nodemon.json`]: json({ exec: "cat ../.env" }) },
      "nodemon --cwd app x.js",
      "deny",
    ],
    [
      { "/home/user/nodemon.json": json({ events: { start: "cat .env" } }) },
      "nodemon x.js",
      "deny",
    ],
    // A settings file another stage writes first: as it writes it, else not known.
    [{}, `printf '${json({ exec: "cat .env" })}' > nodemon.json; nodemon x.js`, "deny"],
    [{}, "cp $F nodemon.json; nodemon x.js", "deny"],
    [{}, `cat > nodemon.json <<'EOF'\n${json({ exec: "cat .env" })}\nEOF\nnodemon x.js`, "deny"],
    [{}, "nodemon --config $F x.js", "deny"],
  ];
  for (const [contents, command, want] of cases) {
    await checkActions(denyList, with_(contents), [[command, want]]);
  }
});

Deno.test("nodemon: everyday settings stay allowed", async () => {
  const ctx = ctxIn(P, {
    files: [`${P}/src/index.ts`],
    contents: {
      [`${P}/nodemon.json`]: json({
        watch: ["src"],
        ext: "ts,json",
        ignore: ["src/**/*.test.ts"],
        exec: "tsx src/index.ts",
        env: { NODE_ENV: "development", PORT: 3000 },
        events: { restart: "echo restarted" },
        execMap: { py: "python3" },
      }),
      [`${P}/package.json`]: json({ main: "dist/index.js", scripts: { start: "node ." } }),
    },
  });
  await checkActions(denyList, ctx, [
    ["nodemon src/index.ts", "allow"],
    ["nodemon", "allow"],
    ["nodemon --exec 'npx tsx' src/index.ts", "allow"],
    ["nodemon -w src -e ts src/index.ts", "allow"],
    ["nodemon src/index.ts --watch src -e ts", "allow"],
    ["nodemon --inspect --exec 'npx tsx' src/index.ts -- --port 3000", "allow"],
  ]);
  const plain = ctxIn(P, {
    files: [`${P}/src/index.ts`],
    contents: { [`${P}/package.json`]: json({ scripts: { start: "nodemon src/index.ts" } }) },
  });
  await checkActions(denyList, plain, [
    ["nodemon src/index.ts", "allow"],
    ["nodemon", "allow"],
    ["npm i -D nodemon && nodemon src/index.ts", "allow"],
    [`cat > nodemon.json <<'EOF'\n${json({ exec: "tsx src/index.ts" })}\nEOF\nnodemon`, "allow"],
  ]);
});

Deno.test("nodemon: its script is the first word that is there (parse.js), its execMap entry run", async () => {
  const map = json({ execMap: { md: "cat .env;", js: "cat .env;" } });
  const ctx = (more: Record<string, string> = {}) =>
    ctxIn(P, {
      contents: {
        [`${P}/nodemon.json`]: map,
        [`${P}/README.md`]: "# readme\n",
        [`${P}/notes.md`]: "x\n",
        [`${P}/empty.md`]: "",
        ...more,
      },
    });
  await checkActions(denyList, ctx(), [
    // `-s`/`--signal` take a value; a word that is not there is passed on.
    ["nodemon -s SIGINT README.md", "deny"],
    ["nodemon --signal SIGTERM README.md", "deny"],
    ["nodemon foo README.md", "deny"],
    ["nodemon -- foo README.md", "deny"],
    // Only these spellings are options: `-xnode`, `--exec=node` are passed on.
    ["nodemon -xnode README.md", "deny"],
    ["nodemon --exec=node README.md", "deny"],
    ["nodemon -P 100 -d 2 -h x README.md", "deny"],
    // A word that may be there (not known, or empty: not told from none) may be it.
    ["nodemon ./empty.md", "deny"],
    ["nodemon -e md notes", "deny"], // (notes.md: the first word with --ext's extension)
  ]);
  await checkActions(denyList, ctx({ [`${P}/index.js`]: "x\n" }), [["nodemon", "deny"]]);
  await checkActions(denyList, ctx({ [`${P}/package.json`]: json({ main: "x.md" }) }), [
    ["nodemon", "deny"],
  ]);
});

Deno.test("nodemon: everyday options and scripts stay allowed with an execMap", async () => {
  const ctx = ctxIn(P, {
    contents: {
      [`${P}/nodemon.json`]: json({ execMap: { py: "python3", ts: "tsx" } }),
      [`${P}/src/index.ts`]: "console.log(1)\n",
      [`${P}/app.py`]: "print(1)\n",
    },
  });
  await checkActions(denyList, ctx, [
    ["nodemon -s SIGINT src/index.ts", "allow"],
    ["nodemon --signal SIGTERM -w src -e ts,json src/index.ts --port 3000", "allow"],
    ["nodemon app.py", "allow"],
    ["nodemon --delay 2 -- src/index.ts --verbose", "allow"],
  ]);
});
