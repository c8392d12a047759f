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
/** A project with none of what the globs name. */
const clean = ctxIn(P, { files: [`${P}/src/main.ts`, `${P}/src/util/x.ts`, `${P}/README.md`] });

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
    // A program that may write below what it names by names of its own reaches one name deep,
    // as far as is seen: where the glob's last name lies right in what it names, it is asked.
    ["python3 gen.py config", "ask"],
    ["esbuild --outdir=config x.ts", "ask"],
    ["tar -xf x.tar -C config", "ask"],
    ["somebuilder ./config", "ask"],
    // Elsewhere it would have to name `secrets` or `config` itself, which is seen.
    ["python3 gen.py src", "allow"],
    ["esbuild --outdir=src x.ts", "allow"],
    ["somebuilder src", "allow"],
    ["pytest src/", "allow"],
    // (It may read the tree too: `.` holds secrets/ now.)
    ["somebuilder .", "ask"],
    ["python3 gen.py secrets/new", "deny"],
  ]);
});

Deno.test("path globs of any depth: a tree read counts them where a name they end in is there", async () => {
  const reads = [
    "grep -rn TODO .",
    "grep -r TODO src",
    "grep -R --include='*.ts' TODO .",
    "find . -name '*.ts' | xargs grep -l TODO",
  ];
  // Nothing they name below: allowed; in the project that holds secrets/ and config/: asked.
  await checkActions(config, clean, reads.map((c) => [c, "allow"] as const));
  await checkActions(config, ctx, reads.filter((c) => !c.includes(" src")).map((c) => [c, "ask"]));
  await checkActions(config, ctx, [["grep -r TODO src", "allow"]]);
  await checkActions(config, clean, [
    // A stage before it may make what the glob names: not seen as it is now.
    ["mkdir -p secrets && grep -r TODO .", "ask"],
    ["git pull && grep -r TODO .", "ask"],
    // (A checkout where no repository is seen fails: git_writes_test.ts for one that writes.)
    ["git checkout other && grep -r TODO .", "allow"],
    // What writes the files it lists may make them: asked as before.
    ["find . -name '*.ts' | xargs sed -i s/a/b/", "ask"],
    ["find . -type d | xargs -I{} touch {}/secrets/x", "deny"],
    // A remover or a copier makes no name but those below its operands, seen as they are now
    // (landing_names_test.ts); a program its wrapper runs finds what is there.
    ["rm -r src", "allow"],
    ["cp -r src /tmp/out", "allow"],
    ["mv src s2", "allow"],
    ["npx vitest run src", "allow"],
    ["mkdir -p src/secrets && cp -r src /tmp/out", "ask"],
    ["cp -r src secrets", "deny"],
  ]);
});

Deno.test("path globs with a base: a tree read above the base counts them where it is there", async () => {
  const based = configFrom({
    policies: { open: { defaultAction: "allow", rules: [] } },
    locations: { "/": "open" },
    pathProtection: { "config/prod/**": "deny", "**/credentials*": "deny" },
  }, { root: P });
  await checkActions(based, clean, [["grep -rn TODO .", "allow"], ["grep -r x src", "allow"]]);
  const prod = ctxIn(P, { files: [`${P}/src/main.ts`, `${P}/config/prod/db.yml`] });
  await checkActions(based, prod, [["grep -rn TODO .", "ask"], ["grep -r x src", "allow"]]);
  const creds = ctxIn(P, { files: [`${P}/src/main.ts`, `${P}/src/aws/credentials.json`] });
  await checkActions(based, creds, [["grep -rn TODO .", "ask"], ["grep -r x src/aws", "ask"]]);
});

Deno.test("path globs whose wildcards come before a directory inside their base reach below it", async () => {
  // `config/*/keys` protects `config/a/keys`: removing or reading `config/a` reaches it, as
  // `**/credentials*` reaches `src/aws/credentials.json` below `src`.
  const based = configFrom({
    policies: { open: { defaultAction: "allow", rules: [] } },
    locations: { "/": "open" },
    pathProtection: { "config/*/keys": "deny", "**/credentials*": "deny", "config/*.key": "deny" },
  }, { root: P });
  const tree = ctxIn(P, {
    files: [`${P}/config/a/keys/k`, `${P}/config/b/app.yml`, `${P}/src/aws/credentials.json`],
  });
  await checkActions(based, tree, [
    ["rm -r config/a", "ask"],
    // (Nothing below `config/b` is named `keys`: a remover makes no name there.)
    ["rm -rf config/b", "allow"],
    ["cp -r config/a config/b", "ask"],
    ["grep -r x config/a", "ask"],
    ["rm -rf src", "ask"],
    ["grep -rn x src", "ask"],
    ["grep -r x src/aws", "ask"],
    ["tar czf /tmp/x.tgz src/aws", "ask"],
    ["cat config/a/keys/k", "deny"],
    // Nothing the globs name can lie below these, or a read finds none there.
    ["grep -r x config/b", "allow"],
    ["cat config/b/app.yml", "allow"],
  ]);
});

Deno.test("path globs: a read of the cwd's tree with no place named, a listing that follows links, a glob's literal directory", async () => {
  // `grep -r KEY` and `rg KEY` read below the cwd.
  await checkActions(config, ctx, [
    ["grep -r KEY", "ask"],
    // (grep's other spellings of -r: `-d recurse`, its abbreviations, getopt's long prefixes.)
    ["grep -d recurse KEY", "ask"],
    ["grep -drecurse KEY", "ask"],
    ["grep -d rec KEY", "ask"],
    ["grep --directories=recurse KEY", "ask"],
    ["grep --dir=recurse KEY", "ask"],
    ["grep --recu KEY", "ask"],
    ["grep --dereference-r KEY", "ask"],
    ["grep -d $MODE KEY", "ask"],
    ["egrep -d recurse -l KEY | xargs cat", "ask"],
    ["grep -d recurse KEY .", "ask"],
    ["grep -d skip KEY", "allow"],
    ["grep -d read KEY README.md", "allow"],
    ["grep -d recurse KEY src", "allow"],
    ["rg -n KEY", "ask"],
    ["rg -l KEY | head", "ask"],
    ["grep KEY < README.md", "allow"],
    ["rg --files", "allow"],
    ["rg KEY src", "allow"],
  ]);
  await checkActions(config, clean, [["grep -r KEY", "allow"], ["rg KEY", "allow"]]);
  // A listing that follows links reaches what they lead to; `link/..` is where the link leads.
  const linked = ctxIn(P, {
    files: [`${P}/src/main.ts`, "/elsewhere/secrets/key", "/elsewhere/x.ts"],
    links: { [`${P}/link`]: "/elsewhere" },
  });
  await checkActions(config, linked, [
    ["find -L . -type f | xargs cat", "ask"],
    ["find link/.. -type f | xargs cat", "ask"],
    ["find src -type f | xargs cat", "allow"],
  ]);
  // `/srv/a*/keys` lies in /srv: below /srv/abc it is reached.
  const wild = configFrom({
    policies: { open: { defaultAction: "allow", rules: [] } },
    locations: { "/": "open" },
    pathProtection: { "/srv/a*/keys": "deny" },
  });
  const srv = ctxIn("/srv", { files: ["/srv/abc/keys/k", "/srv/xyz/f"] });
  await checkActions(wild, srv, [
    ["rm -r /srv/abc", "ask"],
    ["grep -r x abc", "ask"],
    ["tar -czf /tmp/a.tgz abc", "ask"],
    ["cat abc/keys/k", "deny"],
    ["rm -r xyz", "allow"],
  ]);
});
