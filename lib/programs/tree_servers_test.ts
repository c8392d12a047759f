/**
 * Servers and uploaders that read a tree with the symlinks inside it followed are judged where
 * those links lead (the project holds `keys -> ~/.ssh`): kubectl proxy --www, miniserve,
 * http-server (also through npx), aws s3 sync, gsutil rsync, gcloud storage cp, rclone -L.
 */
import { checkGateTable, checkTable } from "../testing_adversarial.ts";
import { checkActions, configFrom, ctxIn, rmDenied } from "../testing.ts";
import { STARTER_CONFIG } from "../starter.ts";
import type { Action } from "../types.ts";

Deno.test("tree servers and uploaders read a tree with its symlinks followed", async () => {
  // [command, read-only, deny-list]
  await checkTable([
    ["kubectl proxy --www=.", "deny", "deny"],
    ["kubectl proxy --www .", "deny", "deny"],
    ["kubectl proxy -w . --port=8001", "deny", "deny"],
    ["kubectl proxy -w keys", "deny", "deny"],
    ["miniserve .", "deny", "deny"],
    ["miniserve", "deny", "deny"],
    ["miniserve -p 8080 -i 127.0.0.1", "deny", "deny"],
    ["miniserve --port 8080 --title x keys", "deny", "deny"],
    ["miniserve -u .", "deny", "deny"], // (the cwd: `.` is -u's value)
    ["npx http-server", "deny", "deny"],
    ["npx http-server -p 8080", "deny", "deny"],
    ["npx --yes http-server . -c-1", "deny", "deny"],
    ["http-server -s -p 9000", "deny", "deny"],
    ["aws s3 sync . s3://x/", "deny", "deny"],
    ["aws s3 cp --recursive . s3://x/", "deny", "deny"],
    ["aws s3 mv . s3://x/ --recursive", "deny", "deny"],
    ["aws --profile p --region eu-west-1 s3 sync ./ s3://x/ --delete", "deny", "deny"],
    ["aws s3 sync s3://x/ .", "deny", "deny"], // (written through keys)
    ["gsutil -m rsync -r . gs://x/", "deny", "deny"],
    ["gsutil rsync -d -r . gs://x/", "deny", "deny"],
    ["gsutil rsync . gs://x/", "deny", "deny"],
    ["gsutil cp -r . gs://x/", "deny", "deny"],
    ["gsutil -o GSUtil:parallel_composite_upload_threshold=150M -m cp -R . gs://x", "deny", "deny"],
    ["gcloud storage cp -r . gs://x", "deny", "deny"],
    ["gcloud storage rsync -r --no-ignore-symlinks . gs://x", "deny", "deny"],
    ["rclone copy -L . remote:x", "deny", "deny"],
    ["rclone sync --copy-links . remote:x", "deny", "deny"],
    ["rclone copy -PL . remote:x", "deny", "deny"],
    ["rclone serve http -L .", "deny", "deny"],
    ["RCLONE_COPY_LINKS=true rclone copy . remote:x", "deny", "deny"],
    ["live-server .", "deny", "deny"],
    ["live-server --port=8080", "deny", "deny"],
    ["npx live-server --open=index.html", "deny", "deny"],
    ["busybox httpd -f -h . -p 8000", "deny", "deny"],
    ["busybox httpd -f -p 8000", "deny", "deny"],
    ["busybox httpd -c /tmp/httpd.conf -h src", "deny", "deny"],
    ["ruby -run -ehttpd . -p8000", "deny", "deny"],
    ["ruby -run -e httpd", "deny", "deny"],
    ["python -m SimpleHTTPServer", "deny", "deny"],
    ["python3 -m RangeHTTPServer 8080", "deny", "deny"],
    ["python2 -m CGIHTTPServer 8000", "deny", "deny"],
    ["dufs -A", "deny", "deny"],
    ["dufs --allow-symlink .", "deny", "deny"],
    ["dufs -p 5000 --allow-all", "deny", "deny"],
    ["webfsd -F -p 8000", "deny", "deny"],
    ["webfsd -F -r .", "deny", "deny"],
    // (what they serve holds no link: src)
    ["live-server src", "deny", "allow"],
    ["busybox httpd -f -h src -p 8000", "deny", "allow"],
    // Everyday: another directory, no recursion, links not followed.
    ["kubectl proxy", "deny", "allow"],
    ["kubectl proxy --port=8001 --www-prefix=/s/", "deny", "allow"],
    ["kubectl proxy --www=src", "deny", "allow"],
    ["miniserve src", "deny", "allow"],
    ["miniserve -p 8080 src", "deny", "allow"],
    ["miniserve -P .", "deny", "allow"],
    ["miniserve --no-symlinks", "deny", "allow"],
    // (dufs refuses a link out of what it serves unless told; webfsd serves -r's tree.)
    ["dufs -p 5000 .", "deny", "allow"],
    ["dufs src", "deny", "allow"],
    ["webfsd -F -r src", "deny", "allow"],
    ["npx http-server src -p 8080", "deny", "allow"],
    ["http-server --help", "deny", "allow"],
    ["aws s3 sync --no-follow-symlinks . s3://x/", "deny", "allow"],
    ["aws s3 sync src s3://x/", "deny", "allow"],
    ["aws s3 cp README.md s3://x/", "deny", "allow"],
    ["aws s3 ls s3://x/", "deny", "allow"],
    ["gsutil -m rsync -r -e . gs://x/", "deny", "allow"],
    ["gsutil cp README.md gs://x/", "deny", "allow"],
    ["gsutil -m cp -r src gs://x/", "deny", "allow"],
    ["gcloud storage cp -r --ignore-symlinks . gs://x", "deny", "allow"],
    ["gcloud storage rsync -r . gs://x", "deny", "allow"],
    ["rclone copy . remote:x", "deny", "allow"],
    ["rclone copy -L src remote:x", "deny", "allow"],
    ["rclone sync --copy-links=false . remote:x", "deny", "allow"],
  ]);
});

Deno.test("miniserve's clients write below what it serves when it takes uploads", async () => {
  const ctx = ctxIn("/home/user/project", {
    files: ["/home/user/project/.pi/settings.json", "/home/user/project/src/main.ts"],
  });
  // [command, deny-list, gate]
  await checkGateTable(ctx, [
    ["miniserve -u -- .pi", "allow", "ask"],
    ["miniserve --upload-files --mkdir -- .pi", "allow", "ask"],
    ["cd .pi && miniserve -u", "allow", "ask"],
    ["miniserve .pi", "allow", "allow"],
    ["miniserve -u -- src", "allow", "allow"],
    ["dufs -A .pi", "allow", "ask"],
    ["dufs --allow-upload -p 5000 .pi", "allow", "ask"],
    ["cd .pi && dufs --allow-delete", "allow", "ask"],
    ["dufs -c dufs.yaml", "ask", "ask"],
    ["dufs .pi", "allow", "allow"],
    ["dufs -A src", "allow", "allow"],
  ]);
});

Deno.test("an sftp server serves the whole filesystem to whoever talks to it", async () => {
  const ctx = ctxIn("/home/user/project", {
    files: ["/home/user/project/.pi/settings.json", "/home/user/project/src/main.ts"],
  });
  // [command, deny-list, gate]
  await checkGateTable(ctx, [
    ["/usr/lib/openssh/sftp-server", "ask", "ask"],
    ["/usr/lib/openssh/sftp-server -d /tmp -l INFO", "ask", "ask"],
    ["sftp -D /usr/lib/openssh/sftp-server", "ask", "ask"],
    ["socat TCP-LISTEN:9000,fork EXEC:/usr/lib/openssh/sftp-server", "ask", "ask"],
    ["gesftpserver", "ask", "ask"],
    ["/usr/lib/openssh/sftp-server -h", "allow", "allow"],
  ]);
});

Deno.test("webfsd runs the programs below its cgi directory", async () => {
  await checkActions(
    configFrom({
      policies: { open: { defaultAction: "allow", rules: [] } },
      locations: { "/": "open" },
    }),
    ctxIn("/p", { files: ["/p/README.md"] }),
    [
      ["webfsd -F -x /cgi-bin/", "ask"],
      ["webfsd -F -r /p", "allow"],
    ],
  );
});

Deno.test("servers named no directory serve the cwd: what is protected below it is read", async () => {
  const H = "/home/user";
  const P = `${H}/project`;
  const opts = { agentDir: `${H}/.pi/agent`, home: H };
  const denyList = rmDenied(H);
  const secrets = ctxIn(P, { files: [`${P}/README.md`, `${P}/.env`, `${P}/secrets/key`] });
  const plain = ctxIn(P, { files: [`${P}/README.md`, `${P}/src/main.ts`] });
  const cwdServers = [
    "python3 -m http.server",
    "python3 -m http.server 8000",
    "python3 -m http.server -b 127.0.0.1 8000",
    "python -m SimpleHTTPServer 8000",
    "php -S 0:8000",
    "php -S localhost:8000 router.php",
    "httpd -f -p 8000",
    "http-server -p 8080",
    "live-server --port=8080",
    "miniserve -p 8080",
    "ruby -run -e httpd -- --port=8000",
    "ruby -run -e httpd --bind-address 127.0.0.1",
    "ruby -run -e httpd -p 8000 -b 127.0.0.1",
    "python3 -X dev -m http.server",
    "python3 -W ignore -m http.server",
    "python3 -Im http.server",
    "python3 -Em http.server 8000",
    "python3 -bm http.server",
    "python3 -Imhttp.server",
    "serve -l 3000",
    "caddy file-server",
    "caddy file-server --listen :8080 --browse",
    "deno run -A jsr:@std/http/file-server",
    "deno run --allow-net --allow-read jsr:@std/http/file-server -p 8080",
    "deno serve jsr:@std/http/file-server",
    "deno run -A jsr:@std/http@1/file-server --cors",
    "deno run -A https://deno.land/std@0.200.0/http/file_server.ts",
    "file_server --port 8080",
    "python3 -m pyftpdlib",
  ];
  // (python's servers that take uploads too: what they write below the cwd may be the gate's
  // project config.)
  const uploadServers = [
    "python3 -m uploadserver",
    "python3 -m uploadserver 8001 --basic-auth u:p",
    "python3 -m updog -p 9090",
    "python3 -m pyftpdlib -w -p 2121",
  ];
  await checkActions(denyList, plain, uploadServers.map((c): [string, Action] => [c, "ask"]));
  await checkActions(denyList, secrets, [
    ...[...cwdServers, ...uploadServers].map((c): [string, Action] => [c, "ask"]),
    // (Through a package runner too.)
    ["npx serve", "ask"],
    ["bunx serve", "ask"],
    ["pnpm dlx serve", "ask"],
    ["npx serve -S -l 3000", "ask"],
    // (Named so: the same.)
    ["python3 -m http.server -d .", "ask"],
    ["python3 -m http.server --directory=.", "ask"],
    ["php -S 0:8000 -t .", "ask"],
    // Another directory, or only printing.
    ["python3 -m http.server -d src 8000", "allow"],
    ["python3 -m http.server --dir src", "allow"],
    ["python3 -m http.server -dsrc", "allow"],
    ["python3 -m http.server --help", "allow"],
    ["python3 -m uploadserver -d /tmp/up", "allow"],
    ["python3 -m pyftpdlib --directory=/tmp/ftp -w", "allow"],
    ["python3 -m pyftpdlib --version", "allow"],
    ["python3 -m updog -d /tmp/x", "allow"],
    // (Uploads into a directory with protected files below: what they write is judged.)
    ["python3 -m uploadserver -d secrets", "deny"],
    ["python3 -m pyftpdlib -w -d secrets", "deny"],
    ["python3 -m updog --directory secrets", "deny"],
    ["php -S 0:8000 -t public", "allow"],
    ["busybox httpd -f -h public -p 8000", "allow"],
    ["busybox httpd -m secret", "allow"],
    ["ruby -run -e httpd public -p 8000", "allow"],
    ["miniserve --version", "allow"],
    ["python3 -X importtime -m json.tool x.json", "allow"],
    ["python3 -c 'print(1)' -m http.server", "allow"],
    ["ruby -run -e httpd /tmp/site -p 8000", "allow"],
    ["ruby -run -e httpd -b 0.0.0.0 public", "allow"],
    ["serve dist", "allow"],
    ["npx serve -s build -l 3000", "allow"],
    ["serve --help", "allow"],
    ["caddy file-server --root public", "allow"],
    ["caddy run", "allow"],
    ["deno run -A jsr:@std/http/file-server public", "allow"],
    ["deno run -A main.ts", "allow"],
    ["deno test -A", "allow"],
  ]);
  // (Where nothing protected lies below, the same servers stay allowed.)
  await checkActions(denyList, plain, cwdServers.map((c): [string, Action] => [c, "allow"]));
  const starter = configFrom(STARTER_CONFIG, opts);
  await checkActions(starter, plain, [
    ["python3 -m http.server 8000", "allow"],
    ["php -S 0:8000", "allow"],
  ]);
  // `--cgi`: the scripts below cgi-bin/ run for whoever asks.
  for (const config of [denyList, starter]) {
    await checkActions(config, plain, [
      ["python3 -m http.server --cgi 8000", "deny"],
      ["python3 -m http.server --cg", "deny"],
      ["python2 -m CGIHTTPServer", "deny"],
    ]);
  }
});
