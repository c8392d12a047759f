/**
 * Extractors write members named by the archive below where they extract: the directory given,
 * else the cwd. Judged under the gate's own-file protection (a `.pi/settings.json` in the project)
 * and a deny-list that protects `~/.ssh` (reached through `keys`).
 */
import assert from "node:assert/strict";
import { checkGateTable } from "../testing_adversarial.ts";
import { ctxIn } from "../testing.ts";
import type { Action } from "../types.ts";
import { programNamed } from "./registry.ts";
import { literal } from "./words.ts";

const ctx = ctxIn("/home/user/project", {
  files: [
    "/home/user/project/README.md",
    "/home/user/project/a.tar",
    "/home/user/project/.pi/settings.json",
    "/home/user/.ssh/id_rsa",
    "/tmp/out/x",
  ],
  links: { "/home/user/project/keys": "/home/user/.ssh" },
});

/** [command, under the deny-list, under the gate's own-file protection] */
const ROWS: [string, Action, Action][] = [
  ["tar -xf a.tar", "allow", "ask"],
  ["tar xzf a.tgz", "allow", "ask"],
  ["cd .pi && tar -xf ../a.tar", "allow", "ask"],
  ["env -C .pi tar -xf a.tar", "allow", "ask"],
  ["cd keys && tar -xf /tmp/a.tar", "deny", "allow"],
  ["unzip -o a.zip", "allow", "ask"],
  ["cd keys && unzip -o /tmp/a.zip", "deny", "allow"],
  ["7z x a.7z", "allow", "ask"],
  ["7za x -o.pi a.7z", "allow", "ask"],
  ["cpio -idm --no-absolute-filenames < a.cpio", "allow", "ask"],
  ["cpio -i --no-abs < a.cpio", "allow", "ask"],
  ["bsdtar -xf a.tar", "allow", "ask"],
  ["gtar -xf a.tar", "allow", "ask"],
  ["gnutar -xf a.tar", "allow", "ask"],
  ["cd keys && gnutar -xf /tmp/a.tar", "deny", "allow"],
  ["cd .pi && bsdcpio -i < ../a.cpio", "allow", "ask"],
  ["bsdunzip a.zip -d .pi", "allow", "ask"],
  // `-j` extracts every member by its base name into the destination.
  ["unzip -jo a.zip -d .pi", "ask", "ask"],
  ["unzip -j -d .pi a.zip", "ask", "ask"],
  ["cd .pi && unzip -jo ../a.zip", "ask", "ask"],
  ["unzip -j a.zip x/settings.json -d .pi", "allow", "ask"],
  // (ar's members have no `/`: none can reach below.)
  ["ar x lib.a", "allow", "allow"],
  ["jar xf a.jar", "allow", "ask"],
  ["unrar x /tmp/a.rar .pi/", "allow", "ask"],
  ["unrar x a.rar", "allow", "ask"],
  ["unar -o .pi a.zip", "allow", "ask"],
  ["cabextract -d .pi a.cab", "allow", "ask"],
  ["pax -rw src .pi", "allow", "ask"],
  ["cd .pi && pax -rw ../src .", "allow", "ask"],
  ["dpkg -x a.deb .pi", "allow", "ask"],
  // Copiers and builders that write by names of their own below a directory they are given.
  ["scp host:settings.json .pi/", "allow", "ask"],
  ["scp -r host:x .", "deny", "ask"], // (keys -> ~/.ssh: written through)
  ["rsync -av host:/x/ .", "allow", "ask"],
  ["rsync -av --remove-source-files . host:/x", "allow", "ask"],
  ["rclone sync remote:x .", "allow", "ask"],
  ["rclone delete .pi", "allow", "ask"],
  ["docker cp c:/x/. .pi", "allow", "ask"],
  ["docker cp c:/extensions .pi", "allow", "ask"],
  ["docker build -o .pi .", "allow", "ask"],
  ["kubectl cp pod:/x .pi", "allow", "ask"],
  ["aws s3 sync s3://b/x . --delete", "deny", "ask"], // (keys -> ~/.ssh: written through)
  ["gsutil -m cp -r gs://b/x .pi", "allow", "ask"],
  ["gh release download -D .pi", "allow", "ask"],
  ["svn export https://x/y . --force", "allow", "ask"],
  ["pip install --target .pi x", "allow", "ask"],
  ["tsc --outDir .pi", "allow", "ask"],
  ["javac -d .pi X.java", "allow", "ask"],
  ["protoc --ts_out=.pi x.proto", "allow", "ask"],
  ["base64 --output=.pi/settings.json x", "allow", "ask"],
  // Round 3's neighbours: more extractors, builders and fetchers.
  ["cd .pi && rar x ../a.rar", "allow", "ask"],
  ["lha xw=.pi a.lzh", "allow", "ask"],
  ["xar -xf a.xar -C .pi", "allow", "ask"],
  ["unsquashfs -f -d .pi a.img", "allow", "ask"],
  ["patool extract a.zip --outdir .pi", "allow", "ask"],
  ["babel src -d .pi --copy-files", "allow", "ask"],
  ["vite build --outDir .pi", "allow", "ask"],
  ["hugo -d .pi", "allow", "ask"],
  ["axel -o .pi http://x/settings.json", "allow", "ask"],
  ["gcloud storage cp 'gs://b/*' .pi", "allow", "ask"],
  ["hf download repo --local-dir .pi", "allow", "ask"],
  ["sftp host:settings.json .pi/", "allow", "ask"],
  ["sftp -r host:x .pi", "allow", "ask"],
  ["tar --one-top-level=.pi -xf a.tar", "allow", "ask"],
  ["tar -C /home/user/project --one-top=.pi -xzf a.tgz", "allow", "ask"],
  ["cd .pi && sftp host:/x/settings.json", "allow", "ask"],
  // GNU tar keeps a member named as `--one-top-level`'s DIR where it is (a symlink `x ->
  // .pi/extensions`, then `x/evil.ts`), and one that begins with it past leading dots
  // (`.pi/settings.json` for DIR `pi`): what it writes is below DIR's parent.
  ["tar -xf ../a.tar --one-top-level=x", "allow", "ask"],
  ["tar --one-top-level=out -xf a.tar", "allow", "ask"],
  ["tar -xf a.tar --one-top-level=pi", "allow", "ask"],
  ["tar -xf a.tar --one-top-level=vendor vendor", "allow", "ask"],
  ["tar -xf a.tar --one-top-level=pi .pi/settings.json", "allow", "ask"],
  ["cd keys && tar -xf /tmp/a.tar --one-top-level=x", "deny", "allow"],
  // A member told may be a symlink its own entries are written through (`src -> .pi`, then
  // `src/settings.json`): below the directory that holds it.
  ["tar -xf a.tar src", "allow", "ask"],
  ["tar -xf a.tar ./src/", "allow", "ask"],
  ["tar -C .pi -xf ../a.tar y", "allow", "ask"],
  // `--overwrite` writes through a hard link entry to any file below where tar works.
  ["tar -xzf a.tgz --overwrite package/package.json", "allow", "ask"],
  ["tar -xf a.tar --overwrite --one-top-level=out/x", "allow", "ask"],
  ["ditto -xk a.zip .pi", "allow", "ask"],
  ["python3 -m zipfile -e a.zip .pi", "allow", "ask"],
  // A container may write what is below a mount that is not read-only.
  ["docker run -v $PWD/.pi:/p alpine touch /p/settings.json", "allow", "ask"],
  ["docker run --mount type=bind,src=$PWD/.pi,dst=/p alpine ls", "allow", "ask"],
  ["helm template x ./chart --output-dir .pi", "allow", "ask"],
  ["helm pull x --untar --untardir .pi", "allow", "ask"],
  ["docker build -o type=tar,dest=.pi/settings.json .", "allow", "ask"],
  ["python3 -m tarfile -e a.tar .pi", "allow", "ask"],
  ["python3 -m gzip -d .pi/settings.json.gz", "allow", "ask"],
  ["git clone https://x/evil.git .pi", "allow", "ask"],
  ["git clone --depth=1 https://x/.pi.git", "allow", "ask"],
  ["git worktree add .pi", "allow", "ask"],
  ["git submodule add https://x/y .pi", "allow", "ask"],
  ["git read-tree -u --prefix=.pi/ HEAD", "allow", "ask"],
  // Extractors that keep a member's absolute path or `..` may write anywhere (`~/.ssh`): asked.
  ["cpio -idm < a.cpio", "ask", "ask"],
  ["rpm2cpio x.rpm | cpio -idmv", "ask", "ask"],
  ["cpio --extract --make-directories < a.cpio", "ask", "ask"],
  ["bsdcpio -i --insecure < a.cpio", "ask", "ask"],
  ["pax -r < a.pax", "ask", "ask"],
  ["pax -r -f a.pax", "ask", "ask"],
  ["afio -i a.afio", "ask", "ask"],
  ["tar -xPf a.tar", "ask", "ask"],
  ["tar xPf a.tar", "ask", "ask"],
  ["tar -xf a.tar --absolute-names", "ask", "ask"],
  ["tar -C /tmp/out -xPf a.tar", "ask", "ask"],
  ["bsdtar -xPf a.tar", "ask", "ask"],
  ["unzip -: a.zip", "ask", "ask"],
  ["unzip -o: a.zip -d /tmp/out", "ask", "ask"],
  ["jar xPf a.jar", "ask", "ask"],
  ["7z x -spf a.7z", "ask", "ask"],
  ["7z x -spf2 -o/tmp/out a.7z", "ask", "ask"],
  // A new name in a directory reached through a symlink lands where the link leads.
  ["cd keys && tee -a authorized_keys < README.md", "deny", "allow"],
  ["cd keys && cp /tmp/k authorized_keys", "deny", "allow"],
  // Elsewhere, or only listing, printing, or by names that reach no further: nothing below the
  // project is written (the helper's precision round: each of these asked).
  ["scp host:x .pi/", "allow", "allow"],
  ["scp host:/var/log/app.log .", "allow", "allow"],
  ["docker cp c:/x .pi", "allow", "allow"],
  ["tar -xf a.tar --one-top-level=vendor package/package.json", "allow", "allow"],
  ["tar -xf a.tar --one-top-level=out/x", "allow", "allow"],
  ["tar -xf a.tar --one-top-level=/tmp/out/x", "allow", "allow"],
  ["tar -C /tmp/out --one-top-level=x -xf /home/user/project/a.tar", "allow", "allow"],
  ["tar -xf a.tar --one-top-level=a/b c/d", "allow", "allow"],
  ["tar -xf a.tar --one-top=out/x -C .", "allow", "allow"],
  ["tar -xf a.tar --one-top-level=a/b a", "allow", "allow"],
  ["tar -xf a.tar --overwrite -C /tmp/out", "allow", "allow"],
  ["tar -xzf a.tgz package/lib/index.js package/README.md", "allow", "allow"],
  ["tsc -p . --outDir build", "allow", "allow"],
  ["docker build -o out .", "allow", "allow"],
  ["pip install --target vendor .", "allow", "allow"],
  ["javac -d out -cp . Main.java", "allow", "allow"],
  ["protoc -I . --python_out=gen api.proto", "allow", "allow"],
  ["aws s3 sync . s3://bucket/site", "deny", "allow"], // (keys -> ~/.ssh: sent)
  ["aws s3 cp s3://b/x.csv .", "allow", "allow"],
  ["rclone copy . remote:bucket", "allow", "allow"],
  ["scp -r . host:/srv/app", "deny", "allow"], // (keys -> ~/.ssh: sent)
  ["rsync -av ./ host:/srv/app/", "allow", "allow"],
  ["rsync -avz --exclude node_modules . user@host:/srv/app", "allow", "allow"],
  ["jar cf app.jar .", "allow", "allow"],
  ["tar -xOf a.tar package/package.json", "allow", "allow"],
  ["tar -xzf a.tgz package/package.json", "allow", "allow"],
  ["7z x -so a.7z f.txt", "allow", "allow"],
  ["cpio -it < a.cpio", "allow", "allow"],
  ["bsdcpio -it < a.cpio", "allow", "allow"],
  ["tar -tPf a.tar", "allow", "allow"],
  ["tar -cPf /tmp/out/a.tar src", "allow", "allow"],
  ["unzip a.zip README.md", "allow", "allow"],
  // (`-j`: any name right in the cwd, a name glob such as `*.pem` too; `.pi` is not reached.)
  ["unzip -jo a.zip", "ask", "allow"],
  ["unzip -j a.zip -d /tmp/out", "ask", "allow"],
  ["unzip -j a.zip a/b.txt -d /tmp/out", "allow", "allow"],
  ["tar -czf /tmp/out/backup.tgz .", "allow", "allow"],
  ["git rm --cached '*.log'", "allow", "allow"],
  ["git reset HEAD '*.ts'", "allow", "allow"],
  ["git restore --staged '*.ts'", "allow", "allow"],
  ["docker build -t app .", "allow", "allow"],
  ["pip install -e .", "allow", "allow"],
  ["tsc -p .", "allow", "allow"],
  ["scp README.md host:/tmp/", "allow", "allow"],
  ["babel src -d dist", "allow", "allow"],
  ["vite build", "allow", "allow"],
  ["rar a out.rar src", "allow", "allow"],
  ["sftp host:/x/data.csv .", "allow", "allow"],
  ["tar -xf a.tar -C /tmp/out", "allow", "allow"],
  ["cd /tmp/out && tar -xf /home/user/project/a.tar", "allow", "allow"],
  ["unzip -o a.zip -d /tmp/out", "allow", "allow"],
  ["7za x -o/tmp/out a.7z", "allow", "allow"],
  ["tar -tf a.tar", "allow", "allow"],
  ["python3 -m zipfile -l a.zip", "allow", "allow"],
  ["docker run -v $PWD:/app -w /app node npm test", "allow", "allow"],
  ["docker run -v $PWD/.pi:/p:ro alpine cat /p/settings.json", "allow", "allow"],
  ["python3 -m zipfile -e a.zip /tmp/out", "allow", "allow"],
  ["git clone https://github.com/x/y.git", "allow", "allow"],
  ["git clone https://github.com/x/y.git /tmp/out/y", "allow", "allow"],
  ["git worktree add ../feature -b feature", "allow", "allow"],
  ["unzip -l a.zip", "allow", "allow"],
  ["tar -czf /tmp/out/a.tgz src", "allow", "allow"],
];

Deno.test("extractors and copiers: what they write is judged below where it lands", async () => {
  await checkGateTable(ctx, ROWS);
});

Deno.test("extractors: the cwd is named only when they extract with no destination", () => {
  const named = (c: string) =>
    programNamed(c.split(" ")[0])!.namedFiles!(c.split(" ").map(literal)).filter((f) =>
      f.path === "."
    );
  assert.deepEqual(named("tar -xzf a.tgz").map((f) => f.path), ["."]);
  assert.deepEqual(named("tar -xzf a.tgz -C out").map((f) => f.path), []);
  assert.deepEqual(named("7z x a.7z -oout").map((f) => f.path), []);
  assert.deepEqual(named("tar -czf a.tgz src"), []);
  assert.deepEqual(named("unzip -d out a.zip"), []);
  assert.deepEqual(named("tar -xOf a.tar"), []);
  assert.deepEqual(named("unzip -p a.zip f"), []);
  assert.deepEqual(named("7z a out.7z src"), []);
  assert.deepEqual(named("cpio -o < list"), []);
});

Deno.test("tar: below the directory that holds where its members land", () => {
  const below = (c: string) =>
    programNamed("tar")!.namedFiles!(c.split(" ").map(literal)).map((f) =>
      `${f.path}${f.below ? "/**" : ""}`
    );
  assert.deepEqual(below("tar -xf a.tar --one-top-level=x"), ["./**"]);
  assert.deepEqual(below("tar -xf a.tar -C out --one-top-level=a/b"), ["out/a/**"]);
  assert.deepEqual(below("tar -xf a.tar --one-top-level=/tmp/x"), ["/tmp/**"]);
  assert.deepEqual(below("tar -xf a.tar --one-top-level=v p/q.json x/"), ["v/p/**", "v/**"]);
  assert.deepEqual(below("tar -xf a.tar --one-top-level=v v/q.json .v/r"), ["v/**", ".v/**"]);
  assert.deepEqual(below("tar -xf a.tar -C out p/q.json"), ["out/p/**"]);
  assert.deepEqual(below("tar -xf a.tar -C out --overwrite p/q.json"), ["out/**"]);
  assert.deepEqual(below("tar -xf a.tar --strip-components=1 --one-top-level=o/x p/q"), ["o/**"]);
});
