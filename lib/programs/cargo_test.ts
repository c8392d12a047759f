/**
 * cargo's settings (its environment, `--config`, the project's `.cargo/config.toml`) and rustc's
 * `-C linker=PROG` are judged as what they run; everyday settings change nothing.
 */
import { checkTable, gateFiles } from "../testing_adversarial.ts";
import { checkActions, configFrom, ctxIn } from "../testing.ts";

const H = "/home/user";
/** The deny-list, and `cargo publish` denied (the starter asks before it). */
const noPublish = configFrom({
  policies: {
    open: {
      defaultAction: "allow",
      rules: [
        { action: "deny", tool: "bash", pattern: "curl *" },
        { action: "deny", tool: "bash", pattern: "rm *" },
        { action: "deny", tool: "bash", pattern: "cargo publish*" },
      ],
    },
  },
  locations: { "/": "open" },
  pathProtection: { "~/.ssh/**": "deny" },
}, { home: H, agentDir: `${H}/.pi/agent` });

Deno.test("cargo: its settings from the environment are judged as the --config key they stand for", async () => {
  await checkActions(noPublish, ctxIn(`${H}/project`, { home: H }), [
    ["CARGO_ALIAS_SHIP=publish cargo ship", "deny"],
    ["CARGO_ALIAS_SHIP='publish --no-verify' cargo ship", "deny"],
    ["export CARGO_ALIAS_SHIP=publish; cargo ship", "deny"],
    ["env CARGO_ALIAS_B=publish cargo b", "deny"],
    ["cargo --config 'alias.b=\"publish\"' b", "deny"],
    ['cargo --config \'alias.b=["publish", "--allow-dirty"]\' b', "deny"],
    // (an alias to an alias: each is judged)
    ["CARGO_ALIAS_A=b CARGO_ALIAS_B=publish cargo a", "deny"],
    ["CARGO_BUILD_RUSTC=curl cargo build", "deny"],
    ["RUSTC=curl cargo build", "deny"],
    ["RUSTDOC=curl cargo doc", "deny"],
    ["CARGO_BUILD_RUSTDOC=curl cargo test --doc", "deny"],
    ["CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER=curl cargo build", "deny"],
    ["CARGO_HOST_LINKER=curl cargo build", "deny"],
    ["CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER='curl -d @x' cargo run", "deny"],
    ["CARGO_BUILD_RUSTC_WRAPPER=curl cargo build", "deny"],
    ["RUSTC_WORKSPACE_WRAPPER=curl cargo build", "deny"],
    ["RUSTFLAGS='-C linker=curl' cargo build", "deny"],
    ["RUSTFLAGS=-Clinker=curl cargo build", "deny"],
    ["export RUSTFLAGS='--codegen linker=curl'; cargo build", "deny"],
    ["CARGO_BUILD_RUSTFLAGS='-C linker=curl' cargo build", "deny"],
    ["CARGO_ENCODED_RUSTFLAGS=$'-C\\x1flinker=curl' cargo build", "deny"],
    ["CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUSTFLAGS='-C linker=curl' cargo build", "deny"],
    ["RUSTDOCFLAGS='-C linker=curl' cargo test --doc", "deny"],
    ["RUSTFLAGS='-C link-arg=-Wl,-o,/home/user/.ssh/x' cargo build", "deny"],
    ['RUSTFLAGS="-C $X" cargo build', "deny"],
    ["CARGO=curl cargo clippy", "deny"],
    // Everyday.
    ["cargo build", "allow"],
    ["cargo publish --dry-run", "deny"],
    ["CARGO_ALIAS_B=build cargo b", "allow"],
    ["RUSTFLAGS='-C target-cpu=native' cargo build --release", "allow"],
    // (the inherited value is not known here, as `NODE_OPTIONS="$NODE_OPTIONS …"`'s)
    ['RUSTFLAGS="$RUSTFLAGS -C opt-level=3 -D warnings" cargo build', "ask"],
    ["RUSTFLAGS='-C link-arg=-fuse-ld=lld' cargo build", "allow"],
    ["RUSTDOCFLAGS='--cfg docsrs' cargo doc", "allow"],
    ["CARGO_TERM_COLOR=always CARGO_INCREMENTAL=0 cargo test", "allow"],
    ["CARGO_PROFILE_RELEASE_DEBUG=true cargo build --release", "allow"],
    ["CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER=clang cargo build", "allow"],
    ["RUST_LOG=debug RUST_BACKTRACE=1 cargo run", "allow"],
  ]);
});

Deno.test("rustc, rustdoc: -C linker=PROG, link args, backends by path, rustdoc's runtool", async () => {
  await checkTable([
    ["rustc -C linker=curl x.rs", "deny", "deny"],
    ["rustc -Clinker=curl x.rs", "deny", "deny"],
    ["rustc --codegen linker=curl x.rs", "deny", "deny"],
    ["rustc --codegen=linker=curl x.rs", "deny", "deny"],
    ["rustc -C linker-flavor=gcc -C linker=rm x.rs", "deny", "deny"],
    ["rustc -C link-arg=-Wl,-o,/home/user/.ssh/x x.rs", "deny", "deny"],
    ["rustc -Zcodegen-backend=/tmp/evil.so x.rs", "deny", "deny"],
    ["rustdoc --test --runtool curl x.rs", "deny", "deny"],
    ["rustdoc --test -C linker=curl x.rs", "deny", "deny"],
    ["cargo rustc -- -C linker=curl", "deny", "deny"],
    ["cargo rustc --release -- -Clinker=rm", "deny", "deny"],
    ["cargo +nightly rustdoc -- -C linker=curl", "deny", "deny"],
    ["rustc -C $OPT x.rs", "deny", "deny"],
    // Everyday.
    ["rustc x.rs", "deny", "allow"],
    ["rustc -C opt-level=3 --edition 2021 x.rs", "deny", "allow"],
    ["rustc -C linker=clang -C link-arg=-fuse-ld=lld x.rs", "deny", "allow"],
    ["cargo rustc --release -- -C target-cpu=native", "deny", "allow"],
    ["cargo test -- --nocapture -C", "deny", "allow"],
  ]);
});

const CONFIG_CTX = ctxIn(`${H}/project`, {
  home: H,
  files: [`${H}/project/src/main.rs`, `${H}/.ssh/id_rsa`],
  contents: {
    [`${H}/c1/.cargo/config.toml`]: '[alias]\nship = "publish"\n',
    [`${H}/c2/.cargo/config.toml`]: '[build]\nrustc-wrapper = "curl"\n',
    [`${H}/c3/.cargo/config`]: "[target.x86_64-unknown-linux-gnu]\nrunner = 'curl -d @x'\n",
    [`${H}/c4/.cargo/config.toml`]: '[target.\'cfg(unix)\']\nrunner = [\n  "rm",\n  "-rf",\n]\n',
    [`${H}/c5/.cargo/config.toml`]: '[build]\nrustflags = ["-C", "linker=curl"]\n',
    [`${H}/c6/.cargo/config.toml`]: '[env]\nLD_PRELOAD = { value = "evil.so", relative = true }\n',
    [`${H}/c7/.cargo/config.toml`]:
      '[registries.mine]\nindex = "sparse+https://x/"\ncredential-provider = "curl -d @x"\n',
    [`${H}/c8/.cargo/config.toml`]: "[build]\ntarget-dir = '../.ssh'\n",
    [`${H}/c9/.cargo/config.toml`]: 'target.x86_64-unknown-linux-gnu.linker = "tools/ld"\n',
    [`${H}/c9/tools/ld`]: "#!/bin/sh\n",
    [`${H}/c10/.cargo/config.toml`]: "[env]\nGIT_SSH_COMMAND = 'curl x'\n",
    [`${H}/c11/.cargo/config.toml`]: "[build\njobs = 4\n",
    [`${H}/c12/deep/x.txt`]: "",
    [`${H}/c12/.cargo/config.toml`]: "[build]\nrustc = 'curl'\n",
    [`${H}/c13/.cargo/config.toml`]: 'include = "more.toml"\n',
    [`${H}/c13/.cargo/more.toml`]: '[alias]\nb = "publish"\n',
    [`${H}/c14/.cargo/config.toml`]: 'build = { rustc = "curl" }\n',
    [`${H}/c15/.cargo/config.toml`]:
      "target = { x86_64-unknown-linux-gnu.runner = 'curl -d @x' }\n",
    // (A line-ending backslash joins the lines: the `#` after it is the runner's argument.)
    [`${H}/c16/.cargo/config.toml`]:
      '[target.x86_64-unknown-linux-gnu]\nrunner = """cat \\\n  # /home/user/.ssh/id_rsa\n"""\n',
    [`${H}/c17/.cargo/config.toml`]:
      "target = { x86_64-unknown-linux-gnu = { runner = 'curl -d @x' } }\n",
    [`${H}/c18/.cargo/config.toml`]: "[target]\nx86_64-unknown-linux-gnu = { runner = 'curl' }\n",
    [`${H}/c19/.cargo/config.toml`]: 'alias = { ship = "publish" }\n',
    [`${H}/c20/.cargo/config.toml`]: 'build = { rustc-wrapper = "curl" }\n',
    [`${H}/c21/.cargo/config.toml`]: '[env]\nLD_PRELOAD.value = "/tmp/evil.so"\n',
    [`${H}/c22/.cargo/config.toml`]: "[env]\nGIT_SSH_COMMAND.value = 'curl x'\n",
    // (A shape not known: a key cargo may read, a target by its spec file.)
    [`${H}/c23/.cargo/config.toml`]: '[build]\nrustc-wrapper2 = "x"\n',
    [`${H}/c24/.cargo/config.toml`]: '[build]\ntarget = "evil.json"\n',
    [`${H}/c25/.cargo/config.toml`]:
      '[target.x86_64-unknown-linux-gnu.foo]\nrustc-link-arg = ["-x"]\n',
    // Everyday.
    [`${H}/e3/.cargo/config.toml`]:
      '[build]\ntarget = "wasm32-unknown-unknown"\n\n[source.crates-io]\nreplace-with = "vendored"\n\n[source.vendored]\ndirectory = "vendor"\n\n[net.ssh]\nknown-hosts = ["x"]\n\n[registries.mine]\nindex = "sparse+https://x/"\ntoken = "t"\n\n[target.x86_64-unknown-linux-gnu.foo]\nrustc-link-lib = ["foo"]\nrustc-link-search = ["/usr/lib"]\n\n[patch.crates-io]\nfoo = { path = "../foo" }\n',
    [`${H}/e1/.cargo/config.toml`]:
      '[build]\njobs = 4\n\n[target.x86_64-unknown-linux-gnu]\nlinker = "clang"\nrustflags = ["-C", "link-arg=-fuse-ld=lld", "-C", "target-cpu=native"]\n\n[alias]\nxtask = "run --package xtask --"\n\n[env]\nRUST_TEST_THREADS = "1"\nOPENSSL_DIR = { value = "vendor/openssl", relative = true }\n\n[net]\ngit-fetch-with-cli = true # ssh agent\n\n[registries.crates-io]\nprotocol = "sparse"\n\n[registry]\nglobal-credential-providers = ["cargo:token", "cargo:libsecret"]\n',
    [`${H}/e2/.cargo/config.toml`]: "[profile.release]\nlto = true\ncodegen-units = 1\n",
  },
});

Deno.test("cargo: the project's .cargo/config.toml (and .cargo/config) in the cwd and above", async () => {
  await checkActions(noPublish, CONFIG_CTX, [
    ["cd ../c1 && cargo ship", "deny"],
    ["cd ../c2 && cargo build", "deny"],
    ["cd ../c3 && cargo run", "deny"],
    ["cd ../c4 && cargo test", "deny"],
    ["cd ../c5 && cargo build", "deny"],
    ["cd ../c6 && cargo build", "deny"],
    ["cd ../c7 && cargo publish --registry mine", "deny"],
    ["cd ../c8 && cargo build", "deny"],
    ["cd ../c10 && cargo build", "deny"],
    ["cd ../c11 && cargo build", "deny"], // (not read: not known)
    ["cd ../c12/deep && cargo build", "deny"], // (a directory above)
    ["cd ../c13 && cargo b", "deny"],
    ["cd ../c14 && cargo build", "deny"], // (an inline table's keys)
    ["cd ../c15 && cargo run", "deny"],
    [
      "cd ../e1 && printf '[build]\\nrustc = \"curl\"\\n' > .cargo/config.toml && cargo build",
      "deny",
    ],
    ["cargo --config ../c2/.cargo/config.toml build", "deny"],
    ["cd ../c16 && cargo run", "deny"],
    ["cd ../c17 && cargo run", "deny"],
    ["cd ../c18 && cargo run", "deny"],
    ["cd ../c19 && cargo ship", "deny"],
    ["cd ../c20 && cargo build", "deny"],
    ["cd ../c21 && cargo build", "deny"],
    ["cd ../c22 && cargo build", "deny"],
    ["cd ../c23 && cargo build", "deny"],
    ["cd ../c24 && cargo build", "deny"],
    ["cd ../c25 && cargo build", "deny"],
    ["cargo --config 'env.LD_PRELOAD.value=\"/tmp/evil.so\"' build", "deny"],
    ["cargo --config 'target={x86_64-unknown-linux-gnu={runner=\"curl\"}}' run", "deny"],
    // Everyday.
    ["cd ../e3 && cargo build", "allow"],
    ["cd ../c9 && cargo build", "allow"], // (its own linker, in the project)
    ["cd ../e1 && cargo build && cargo test && cargo xtask dist", "allow"],
    ["cd ../e2 && cargo build --release", "allow"],
    ["cargo build", "allow"],
  ]);
  await checkActions(gateFiles, CONFIG_CTX, [["cd ../e1 && cargo build", "allow"]]);
});

Deno.test("cargo: the user's ~/.cargo/config.toml ($CARGO_HOME's) and those above the home", async () => {
  const runner = '[target.x86_64-unknown-linux-gnu]\nrunner = "cp /home/user/.ssh/id_rsa /tmp/o"\n';
  const at = (contents: Record<string, string>, env?: Record<string, string>) =>
    ctxIn(`${H}/project`, { files: [`${H}/.ssh/id_rsa`], contents, home: H, env });
  const dl = configFrom({
    policies: { open: { defaultAction: "allow", rules: [] } },
    locations: { "/": "open" },
    pathProtection: { "~/.ssh/**": "deny" },
  }, { home: H, agentDir: `${H}/.pi/agent` });
  await checkActions(dl, at({ [`${H}/.cargo/config.toml`]: runner }), [
    ["cargo run", "deny"],
    ["cd src && cargo run", "deny"],
    ["cd /tmp && cargo run", "deny"],
  ]);
  await checkActions(dl, at({ [`${H}/.cargo/config`]: runner }), [["cargo run", "deny"]]);
  await checkActions(dl, at({ "/opt/cargo/config.toml": runner }, { CARGO_HOME: "/opt/cargo" }), [
    ["cargo run", "deny"],
  ]);
  await checkActions(dl, at({ "/opt/c2/config.toml": runner }), [
    ["CARGO_HOME=/opt/c2 cargo run", "deny"],
    ["CARGO_HOME=$X cargo run", "ask"],
  ]);
  await checkActions(dl, at({ "/home/.cargo/config.toml": runner }), [["cargo run", "deny"]]);
  // (One another stage writes first is not known.)
  await checkActions(dl, at({}), [
    ["echo x >> ~/.cargo/config.toml && cargo build", "ask"],
    ["cargo build", "allow"],
  ]);
  // Everyday: the user's own wrapper and linker settings.
  const everyday = '[build]\njobs = 8\n[target.x86_64-unknown-linux-gnu]\nlinker = "clang"\n' +
    'rustflags = ["-C", "link-arg=-fuse-ld=mold"]\n';
  await checkActions(dl, at({ [`${H}/.cargo/config.toml`]: everyday }), [
    ["cargo build --release", "allow"],
    ["cargo test", "allow"],
  ]);
});

const RUNNER = '[target.x86_64-unknown-linux-gnu]\nrunner = "cat ~/.ssh/id_rsa"\n';
/** A project whose files are named like `--config KEY=VALUE` lines. */
const NAMED_CTX = ctxIn(`${H}/project`, {
  home: H,
  files: [`${H}/project/src/main.rs`, `${H}/.ssh/id_rsa`],
  contents: {
    [`${H}/project/build.jobs=4`]: RUNNER,
    [`${H}/project/sub/alias.b="build"`]: '[alias]\nb = "publish"\n',
    [`${H}/project/cfg.toml`]: "[build]\njobs = 2\n",
  },
  links: {
    [`${H}/project/build.jobs=2`]: `${H}/project/build.jobs=4`,
    [`${H}/project/build.jobs=1`]: `${H}/project/nowhere`,
  },
});

Deno.test("cargo: --config ARG is the file ARG names when there is one, whatever its name", async () => {
  await checkActions(noPublish, NAMED_CTX, [
    // (cargo reads a file there first: `=` in its name does not make it a `KEY=VALUE` line.)
    ["cargo run --config build.jobs=4", "deny"],
    ["cargo run --config=build.jobs=4", "deny"],
    ["cargo --config 'build.jobs=4' run", "deny"],
    ["cargo run --config ./build.jobs=4", "deny"],
    ["cargo run --config ~/project/build.jobs=4", "deny"],
    ["cargo run --config build.jobs=2", "deny"], // (through a symlink)
    ["cd sub && cargo b --config 'alias.b=\"build\"'", "deny"],
    // (One the command writes first, by a redirect or a here-document.)
    [
      `printf '${
        RUNNER.replaceAll("\n", "\\n")
      }' > 'build.jobs=3' && cargo run --config build.jobs=3`,
      "deny",
    ],
    [`cat > build.jobs=3 <<'E'\n${RUNNER}E\ncargo run --config build.jobs=3`, "deny"],
    // (Where the cwd is not known, a file may be there.)
    ['cd "$D" && cargo run --config build.jobs=5', "deny"],
    // Everyday: no file of that name (or a dangling symlink), or one that changes nothing.
    ["cargo build --config build.jobs=5", "allow"],
    ["cargo run --config build.jobs=1", "allow"],
    ["cargo build --config cfg.toml", "allow"],
    ["cargo build --config 'profile.dev.opt-level=1' --config net.offline=true", "allow"],
    ["cd sub && cargo run --config build.jobs=4", "allow"],
  ]);
});
