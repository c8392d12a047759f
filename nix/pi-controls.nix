# pi-controls' Nix builds: the npm dependencies, the extension bundle, the CLI, the test suite.
# Called from flake.nix with callPackage; the arguments after `writeShellScriptBin` come from there.
{
  stdenvNoCC,
  fetchurl,
  deno,
  cacert,
  writeShellScriptBin,
  src,
  lockSrc,
  version,
  lockHash,
  depsHash,
}:
let
  # `deno bundle` (scripts/bundle.ts) runs esbuild, which Deno fetches from npm into
  # DENO_DIR/dl/ on first use: here it is fetched by Nix and put where Deno looks. The version
  # is Deno 2.9.6's ESBUILD_VERSION and the folder is where Deno 2.9.6 caches that esbuild;
  # another Deno may want another esbuild, and then its `deno bundle` fails in the sandbox trying
  # to download @esbuild/<platform>: update these to what that Deno fetches into its own cache.
  esbuildVersion = "0.25.5";
  esbuildCacheDir = "esbuild-0.25.5-1";
  esbuildPlatform =
    {
      x86_64-linux = "linux-x64";
      aarch64-linux = "linux-arm64";
      x86_64-darwin = "darwin-x64";
      aarch64-darwin = "darwin-arm64";
    }.${stdenvNoCC.hostPlatform.system};
  # The npm registry's integrity of each @esbuild/<platform>@0.25.5 tarball.
  esbuildHashes = {
    linux-x64 = "sha512-uhj8N2obKTE6pSZ+aMUbqq+1nXxNjZIIjCjGLfsWvVpy7gKCOL6rsY1MhRh9zLtUtAI7vpgLMK6DxjO8Qm9lJw==";
    linux-arm64 = "sha512-Z9kfb1v6ZlGbWj8EJk9T6czVEjjq2ntSYLY2cw6pAZl4oKtfgQuS4HOq41M/BcoLPzrUbNd+R4BXFyH//nHxVg==";
    darwin-x64 = "sha512-1iT4FVL0dJ76/q1wd7XDsXrSW+oLoquptvh4CLR4kITDtqi2e/xwXwdCVH8hVHU43wgJdsq7Gxuzcs6Iq/7bxQ==";
    darwin-arm64 = "sha512-GtaBgammVvdF7aPIgH2jxMDdivezgFu6iKpmT+48+F8Hhg5J/sfnDieg0aeG/jfSvkYQU2/pceFPDKlqZzwnfQ==";
  };
  esbuild = fetchurl {
    url = "https://registry.npmjs.org/@esbuild/${esbuildPlatform}/-/${esbuildPlatform}-${esbuildVersion}.tgz";
    hash = esbuildHashes.${esbuildPlatform};
  };

  # The npm packages deno.lock pins, as Deno caches them: `deno install --frozen` into an empty
  # DENO_DIR, keeping only its npm/ folder. The registry.json files are npm's package metadata
  # (every version ever published, so they change with each publish); the lock has everything the
  # offline installs below need, so they are deleted to keep the output reproducible.
  #
  # A fixed-output derivation, so Nix lets it reach the network. Its hash is nix/deps.hash; after a
  # change to deno.lock, set nix/deps.hash to the hash the failed build reports.
  deps = stdenvNoCC.mkDerivation {
    name = "pi-controls-npm-deps-${lockHash}";
    src = lockSrc;
    nativeBuildInputs = [ deno ];
    outputHashMode = "recursive";
    outputHashAlgo = "sha256";
    outputHash = depsHash;
    impureEnvVars = [ "http_proxy" "https_proxy" "HTTP_PROXY" "HTTPS_PROXY" "no_proxy" "NO_PROXY" ];
    buildPhase = ''
      runHook preBuild
      export HOME="$TMPDIR" DENO_DIR="$TMPDIR/deno-dir" DENO_NO_UPDATE_CHECK=1
      # Certificates for the npm registry: Deno's bundled Mozilla roots, then the system store,
      # which reads SSL_CERT_FILE (nixpkgs' bundle; a proxy's own CA can be added there).
      export DENO_TLS_CA_STORE=mozilla,system SSL_CERT_FILE="${cacert}/etc/ssl/certs/ca-bundle.crt"
      deno install --frozen
      runHook postBuild
    '';
    installPhase = ''
      runHook preInstall
      mkdir -p "$out"
      cp -r "$DENO_DIR/npm" "$out/npm"
      find "$out" -name registry.json -delete
      runHook postInstall
    '';
  };

  # Every build below starts like this. Deno writes into DENO_DIR (its caches, lock files), so the
  # npm cache is copied out of the read-only store into a writable DENO_DIR. deno.json has
  # `"nodeModulesDir": "auto"`, so `deno install` then lays out node_modules/ in the source tree
  # from that cache, as on a developer's machine: `--cached-only` because there is no network
  # here, `--frozen` so deno.lock has to match. node_modules/ is where lib/shell/parser.ts reads
  # the tree-sitter WASM from, and where `deno bundle` and `deno compile` take the packages from.
  setup = ''
    export HOME="$TMPDIR" DENO_DIR="$TMPDIR/deno-dir" DENO_NO_UPDATE_CHECK=1 NO_COLOR=1
    mkdir -p "$DENO_DIR"
    cp -r "${deps}/npm" "$DENO_DIR/npm"
    chmod -R u+w "$DENO_DIR"
    mkdir -p "$DENO_DIR/dl/${esbuildCacheDir}"
    tar -xzf "${esbuild}" -O package/bin/esbuild > "$DENO_DIR/dl/${esbuildCacheDir}/esbuild-${esbuildPlatform}"
    chmod +x "$DENO_DIR/dl/${esbuildCacheDir}/esbuild-${esbuildPlatform}"
    deno install --cached-only --frozen
  '';

  # The extension bundle (dist/pi-controls.js, tree-sitter WASM embedded) and the Node CLI bundle
  # (dist/pi-controls-cli.js), laid out as the npm package: `pi install ./result` or
  # `pi -e ./result/dist/pi-controls.js`.
  extension = stdenvNoCC.mkDerivation {
    pname = "pi-controls-extension";
    inherit version src;
    nativeBuildInputs = [ deno ];
    # The package as npm would install it: the CLI bundle keeps `#!/usr/bin/env node`.
    dontPatchShebangs = true;
    buildPhase = ''
      runHook preBuild
      ${setup}
      deno task bundle --all
      runHook postBuild
    '';
    installPhase = ''
      runHook preInstall
      mkdir -p "$out/dist"
      cp dist/pi-controls.js dist/pi-controls-cli.js "$out/dist/"
      cp package.json README.md LICENSE "$out/"
      # What package.json ships besides dist/: the skills, the docs the README links, the schema.
      cp -r skills docs schema "$out/"
      runHook postInstall
    '';
  };

  # The CLI: compiled with `deno compile` where nixpkgs' deno has its denort output (the runtime
  # `deno compile` builds from, which it would otherwise download), else a wrapper that runs the
  # Node CLI bundle with this deno.
  pi-controls =
    if deno ? denort then
      stdenvNoCC.mkDerivation {
        pname = "pi-controls";
        inherit version src;
        nativeBuildInputs = [ deno ];
        # `deno compile` appends the program to the denort executable: stripping or patching the
        # ELF would cut it off.
        dontStrip = true;
        dontPatchELF = true;
        buildPhase = ''
          runHook preBuild
          ${setup}
          export DENORT_BIN="${deno.denort}/bin/denort"
          deno task compile --cached-only
          runHook postBuild
        '';
        installPhase = ''
          runHook preInstall
          mkdir -p "$out/bin"
          cp dist/pi-controls "$out/bin/pi-controls"
          runHook postInstall
        '';
        meta.mainProgram = "pi-controls";
      }
    else
      # --no-config: not the deno.json of whatever directory it is run in. The permissions are
      # what the CLI uses, as for `deno task pi-controls` and the compiled binary: read, write,
      # env, net for the Decisions API of a `decisions` block (its url is user config), and the
      # machine's name and addresses (a remote operand on this machine).
      writeShellScriptBin "pi-controls" ''
        exec ${deno}/bin/deno run --no-config --no-lock --no-remote --no-npm \
          --allow-read --allow-write --allow-env --allow-net \
          --allow-sys=hostname,networkInterfaces \
          ${extension}/dist/pi-controls-cli.js "$@"
      '';

  # `deno task test` on the source, with the npm dependencies.
  test = stdenvNoCC.mkDerivation {
    pname = "pi-controls-test";
    inherit version src;
    nativeBuildInputs = [ deno ];
    # Some tests listen on 127.0.0.1 (the task's --allow-net=127.0.0.1); macOS's sandbox asks.
    __darwinAllowLocalNetworking = true;
    buildPhase = ''
      runHook preBuild
      ${setup}
      # The end-to-end suite installs pi with npm and runs it under Node: neither is here.
      export PI_CONTROLS_SKIP_E2E=1
      deno task test
      runHook postBuild
    '';
    installPhase = ''
      runHook preInstall
      touch "$out"
      runHook postInstall
    '';
  };
in
{
  inherit deps extension pi-controls test;
}
