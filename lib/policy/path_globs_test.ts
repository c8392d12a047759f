/**
 * A protection glob with a `/` and no base (a global config's `secrets/**`) matches at any depth:
 * any directory may hold what it names. A program that may write below a directory it names by
 * names of its own reaches it there; one that only reads the files it is given does not.
 */
import { checkActions, configFrom, ctxIn } from "../testing.ts";

const P = "/home/user/project";
const config = configFrom({
  policies: { open: { defaultAction: "allow", rules: [] } },
  locations: { "/": "open" },
  pathProtection: { "secrets/**": "deny", "config/master.key": "deny" },
});
const ctx = ctxIn(P, {
  files: [`${P}/src/main.ts`, `${P}/README.md`, `${P}/secrets/key`, `${P}/config/master.key`],
});

Deno.test("path globs of any depth: a file a read-only program is given reaches nothing below it", async () => {
  await checkActions(config, ctx, [
    ["cat src/main.ts", "allow"],
    ["cat src/main.ts | grep -n TODO", "allow"],
    ["grep -n TODO src/main.ts", "allow"],
    ["wc -l src/main.ts README.md", "allow"],
    ["head -50 src/main.ts", "allow"],
    ["sed -n 1,20p src/main.ts", "allow"],
    ["awk '{print $1}' README.md", "allow"],
    ["diff src/main.ts README.md", "allow"],
    ["sort -u README.md | uniq -c", "allow"],
    // What the globs name, however it is reached.
    ["cat secrets/key", "deny"],
    ["cat ./config/master.key", "deny"],
    ["cd secrets && cat key", "deny"],
    ["grep -r TOKEN secrets", "deny"],
    // A program that may write below what it names, by names of its own: asked.
    ["python3 gen.py src", "ask"],
    ["esbuild --outdir=src x.ts", "ask"],
    ["tar -xf x.tar -C src", "ask"],
    ["somebuilder src", "ask"],
  ]);
});
