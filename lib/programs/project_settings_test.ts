/**
 * Settings files a program finds in the project that make it run a file or write elsewhere
 * (`.npmrc`, `.yarnrc`, `.yarnrc.yml`, `yt-dlp.conf`) are read as they are when the call is
 * decided, and what they say judged; everyday settings change nothing.
 */
import { checkGateTable, denyList, gateFiles, readOnly } from "../testing_adversarial.ts";
import { checkActions, configFrom, ctxIn } from "../testing.ts";

const H = "/home/user";
const BERRY = `nodeLinker: node-modules
yarnPath: .yarn/releases/yarn-4.1.0.cjs
enableGlobalCache: false
cacheFolder: ./.yarn/cache
npmAuthToken: "\${NPM_TOKEN:-}"
plugins:
  - path: .yarn/plugins/@yarnpkg/plugin-interactive-tools.cjs
    spec: "@yarnpkg/plugin-interactive-tools"
packageExtensions:
  "left-pad@*":
    dependencies:
      lodash: "*"
`;
const ctx = ctxIn(`${H}/project`, {
  files: [`${H}/project/README.md`, `${H}/.ssh/id_rsa`, `${H}/.pi/agent/settings.json`],
  links: { [`${H}/y2/keys`]: `${H}/.ssh` },
  contents: {
    [`${H}/y1/.yarnrc`]: '# yarn lockfile v1\nyarn-path "./evil.js"\n',
    [`${H}/y1/evil.js`]: "require('child_process').execSync('rm -rf src')\n",
    [`${H}/y2/.yarnrc.yml`]: "yarnPath: keys/evil.cjs\n",
    [`${H}/y3/.yarnrc.yml`]: BERRY,
    [`${H}/y3/package.json`]: "{}",
    [`${H}/y4/.yarnrc`]: "--install.modules-folder /home/user/.pi/agent/extensions\n",
    [`${H}/y5/.yarnrc`]: 'registry "https://registry.npmjs.org/"\nlastUpdateCheck 1700000000\n',
    [`${H}/n1/.npmrc`]: "logs-dir=/home/user/.pi/agent/extensions\n",
    [`${H}/n2/.npmrc`]: "script-shell=rm\n",
    [`${H}/n3/.npmrc`]:
      "registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=${NPM_TOKEN}\nsave-exact=true\n",
    [`${H}/n4/.npmrc`]: "cache = /home/user/.pi/agent/npm\n",
    [`${H}/n4/sub/x.txt`]: "",
    [`${H}/n5/.npmrc`]: "node-options=--require /home/user/.ssh/id_rsa\n",
    [`${H}/n6/.npmrc`]: "userconfig=/tmp/other.npmrc\n",
    "/tmp/other.npmrc": "logs-dir=/home/user/.pi/agent/extensions\n",
    "/tmp/plain.npmrc": "fund=false\n",
    [`${H}/v1/yt-dlp.conf`]: "# mine\n-f best\n--exec 'rm -rf src'\n",
    [`${H}/v2/yt-dlp.conf`]: "-o '%(title)s.%(ext)s'\n--no-mtime # keep\n",
    [`${H}/v3/yt-dlp.conf`]: "-o /home/user/.pi/agent/extensions/x.ts\n",
  },
});

Deno.test("yarn: yarn-path, yarnPath, plugins and folders of the project's settings", async () => {
  await checkActions(denyList, ctx, [
    ["cd ../y2 && yarn --version", "deny"], // (node runs keys/evil.cjs: ~/.ssh)
    ["cd ../y1 && cat > .yarnrc <<'EOF'\nyarn-path ../.ssh/x.js\nEOF\nyarn", "deny"],
    ["cd ../y1 && cp /tmp/x .yarnrc && yarn install", "deny"],
    ["cd ../y3 && YARN_RC_FILENAME=x.yml yarn", "deny"],
    ["git clone https://x/evil ../y9 && cd ../y9 && yarn", "deny"],
    // Everyday: a checked-in release and plugins, no settings, package managers before it.
    ["cd ../y3 && yarn install && yarn build", "allow"],
    ["cd ../y5 && yarn add lodash", "allow"],
    ["yarn install", "allow"],
  ]);
  // A rule about what runs (`node *`) sees the file yarn hands to node.
  const nodeAsks = configFrom({
    policies: {
      p: { defaultAction: "allow", rules: [{ action: "ask", tool: "bash", pattern: "node *" }] },
    },
    locations: { "/": "p" },
  });
  await checkActions(nodeAsks, ctx, [
    ["cd ../y1 && yarn --version", "ask"],
    ["cd ../y1 && yarn --cwd . install", "ask"],
    ["cd ../y5 && YARN_YARN_PATH=./evil.js yarn", "ask"],
    ["cd ../y5 && export YARN_YARN_PATH=./evil.js; yarn", "ask"],
    ["cd ../y5 && yarn add lodash", "allow"],
  ]);
  await checkActions(gateFiles, ctx, [
    ["cd ../y4 && yarn install", "ask"],
    ["cd ../y3 && yarn install", "allow"],
    ["cd ../y3 && rm -rf node_modules && yarn && yarn test", "allow"],
  ]);
});

Deno.test("npm: the project's .npmrc and the npmrc files its options name", async () => {
  await checkActions(gateFiles, ctx, [
    ["cd ../n1 && npm ls", "ask"],
    ["cd ../n1 && npm test", "ask"],
    ["cd ../n1 && npx eslint .", "ask"],
    ["cd ../n4/sub && npm ls", "ask"], // (the .npmrc above the cwd)
    ["cd ../n6 && npm ls", "ask"],
    ["npm ls -userconfig=/tmp/other.npmrc", "ask"],
    ["npm ls --userconfig /tmp/other.npmrc", "ask"],
    ["npm view x --globalconfig=/tmp/other.npmrc", "ask"],
    ["export npm_config_logs_dir=/home/user/.pi/agent/extensions; npm ls", "ask"],

    // A file another stage may write first: a download, an archive, a clone.
    ["cd ../n3 && wget -q https://x/.npmrc && npm ls", "ask"],
    ["cd ../n3 && tar xzf ../pkg.tgz && npm ls", "ask"],
    ["git clone https://x/r ../n8 && cd ../n8 && npm ls", "ask"],
    // ... also by a shell a wrapper runs: its stages write as the command's own do.
    ["cd ../n3 && sh -c 'echo logs-dir=/tmp > .npmrc' && npm ls", "ask"],
    ["cd ../n3 && timeout 5 bash -c 'cp /tmp/other.npmrc .npmrc'; npm ls", "ask"],
    ["cd ../n3 && env sh -c 'echo x >> .npmrc'; npm ls", "ask"],
    // Everyday.
    ["cd ../n3 && sh -c 'echo hi > out.txt' && npm ls", "allow"],
    ["cd ../n3 && npm ls; sh -c 'echo x > .npmrc'", "allow"],
    ["cd ../n3 && npm ls", "allow"],
    ["cd ../n3 && npm test | tee out.log", "allow"],
    ["cd ../n3 && make && npm test && git push", "allow"],
    // (What git pull fetches is not seen: it may write anything below the work tree.)
    ["cd ../n3 && git pull && npm ci", "ask"],
    ["npm ls --userconfig /tmp/plain.npmrc", "allow"],
    ["npm_config_registry=http://localhost:4873 npm install", "allow"],
    ["cd ../n3 && rm -rf node_modules package-lock.json && npm ci", "allow"],
  ]);
  await checkActions(readOnly, ctx, [
    ["cd ../n1 && npm ls", "deny"],
    ["npm ls -userconfig=/tmp/other.npmrc", "deny"],
    ["cd ../n3 && npm ls", "allow"],
    ["npm ls", "allow"],
    ["cd ../n3 && npm ls --all --json", "allow"],
  ]);
  await checkActions(denyList, ctx, [
    ["cd ../n2 && npm test", "deny"],
    ["cd ../n5 && npm run build", "deny"],
    ["cd ../n1 && npm ls --userconfig $X", "deny"],
    ["cd ../n3 && npm install && npm test", "allow"],
    ["mkdir ../n7 && cd ../n7 && npm init -y && npm install lodash", "allow"],
  ]);
});

Deno.test("yt-dlp: the options of its yt-dlp.conf and --config-locations files", async () => {
  await checkActions(denyList, ctx, [
    ["cd ../v1 && yt-dlp https://x/v.mp4", "deny"],
    ["yt-dlp -P ../v1 https://x/v.mp4", "deny"],
    ["yt-dlp --paths home:../v1 https://x/v.mp4", "deny"],
    ["yt-dlp --config-locations ../v1/yt-dlp.conf https://x/v.mp4", "deny"],
    ["yt-dlp --ignore-config --config-locations ../v1 https://x/v.mp4", "deny"],
    ["cd ../v1 && yt-dlp --config-locations - https://x/v.mp4 < /dev/null", "deny"],
    // Everyday: options that run nothing, none, or ignored.
    ["cd ../v2 && yt-dlp https://x/v.mp4", "allow"],
    ["yt-dlp -f best https://x/v.mp4", "allow"],
    ["cd ../v1 && yt-dlp --ignore-config https://x/v.mp4", "allow"],
  ]);
  await checkActions(gateFiles, ctx, [
    ["cd ../v3 && yt-dlp https://x/v.mp4", "ask"],
    ["cd ../v2 && yt-dlp https://x/v.mp4", "allow"],
  ]);
});

Deno.test("npm: any long option is a setting, as an npmrc line", async () => {
  const P = "/home/user/project";
  const ctx = ctxIn(P, { files: [`${P}/package.json`, `${P}/.pi/settings.json`] });
  // [command, deny-list, gate's own files]
  await checkGateTable(ctx, [
    ["npm test --node-options='--report-directory=.pi/extensions'", "allow", "ask"],
    ["npm test --node-options='--require ./x.js --cpu-prof-dir=.pi'", "allow", "ask"],
    ["npm ls --logs-dir .pi/extensions", "allow", "ask"],
    ["npm test --script-shell='rm -rf src'", "deny", "allow"],
    // everyday
    ["npm test --silent", "allow", "allow"],
    ["npm install --save-dev typescript", "allow", "allow"],
  ]);
});
