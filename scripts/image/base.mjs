// A local stand-in for the Dockerfile's base, node:22-bookworm-slim, where no registry serves it:
// Debian bookworm (debootstrap --variant=minbase, Debian's own packages) with the official Node
// binary at the version package-lock.json pins (the npm registry's `node-linux-<arch>` package, the
// same binary `npm start` runs) and npm, under the base's name so the Dockerfile's FROM resolves
// to it without a pull. Like the official image: Node and npm in /usr/local, a `node` user (1000).
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, appendFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASE_IMAGE, BASE_NPM_RANGE, DEBIAN_MIRROR, DEBIAN_SUITE, pinnedNodeVersion } from './config.mjs';
import { capture, run, say, storageArgs } from './tools.mjs';

const NODE_ARCH = { x64: 'x64', arm64: 'arm64' }[process.arch];

// The apt sources of the official Debian images (bookworm, its updates and security).
const DEBIAN_SOURCES = `Types: deb
URIs: ${DEBIAN_MIRROR}
Suites: ${DEBIAN_SUITE} ${DEBIAN_SUITE}-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${DEBIAN_MIRROR}-security
Suites: ${DEBIAN_SUITE}-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
`;

/** Downloads an npm package's tarball with npm itself (registry and integrity as npm checks them). */
function npmPack(spec, dir) {
  const out = JSON.parse(capture('npm', ['pack', spec, '--json', '--pack-destination', dir]));
  return { file: join(dir, out[0].filename), version: out[0].version };
}

/** Builds the stand-in base and tags it BASE_IMAGE. */
export function makeLocalBase() {
  if (!NODE_ARCH) throw new Error(`no Node platform package for ${process.arch}`);
  const nodeVersion = pinnedNodeVersion();
  const tmp = mkdtempSync(join(tmpdir(), 'image-base-'));
  const bah = (...args) => capture('buildah', [...storageArgs(), ...args]);
  const ctr = bah('from', 'scratch');
  try {
    const root = bah('mount', ctr);
    say(`debootstrap --variant=minbase ${DEBIAN_SUITE} (Debian's packages)`);
    run('debootstrap', ['--variant=minbase', DEBIAN_SUITE, root, DEBIAN_MIRROR], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    writeFileSync(join(root, 'etc/apt/sources.list.d/debian.sources'), DEBIAN_SOURCES);
    rmSync(join(root, 'etc/apt/sources.list'), { force: true });

    say(`Node ${nodeVersion} (npm registry: node-linux-${NODE_ARCH}) and npm ${BASE_NPM_RANGE}`);
    const node = npmPack(`node-linux-${NODE_ARCH}@${nodeVersion}`, tmp);
    const npm = npmPack(`npm@${BASE_NPM_RANGE}`, tmp);
    const local = join(root, 'usr/local');
    run('tar', ['-xzf', node.file, '-C', join(local, 'bin'), '--strip-components=2', 'package/bin/node']);
    const npmDir = join(local, 'lib/node_modules/npm');
    mkdirSync(npmDir, { recursive: true });
    run('tar', ['-xzf', npm.file, '-C', npmDir, '--strip-components=1']);
    symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(local, 'bin/npm'));
    symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', join(local, 'bin/npx'));

    // The official image's `node` user and group (uid and gid 1000); minbase has no useradd.
    appendFileSync(join(root, 'etc/passwd'), 'node:x:1000:1000::/home/node:/bin/bash\n');
    appendFileSync(join(root, 'etc/group'), 'node:x:1000:\n');
    appendFileSync(join(root, 'etc/shadow'), 'node:!:19000:0:99999:7:::\n');
    mkdirSync(join(root, 'home/node'), { recursive: true });
    run('chown', ['1000:1000', join(root, 'home/node')]);
    run('chroot', [root, 'node', '--version']);

    for (const dir of ['var/cache/apt/archives', 'var/lib/apt/lists', 'var/log']) {
      run('find', [join(root, dir), '-mindepth', '1', '-type', 'f', '-delete']);
    }
    rmSync(join(root, 'debootstrap'), { recursive: true, force: true });

    bah(
      'config',
      '--env',
      'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      '--env',
      `NODE_VERSION=${nodeVersion}`,
      '--cmd',
      'node',
      '--label',
      `org.opencontainers.image.description=local stand-in for node:22-bookworm-slim (scripts/image/base.mjs): debootstrap ${DEBIAN_SUITE} minbase, node-linux-${NODE_ARCH}@${nodeVersion}, npm@${npm.version}`,
      ctr,
    );
    bah('commit', '--quiet', '--format', 'docker', ctr, BASE_IMAGE);
    say(`tagged ${BASE_IMAGE} (local: Node ${nodeVersion}, npm ${npm.version})`);
  } finally {
    spawnQuiet('buildah', [...storageArgs(), 'rm', ctr]);
    rmSync(tmp, { recursive: true, force: true });
  }
}

function spawnQuiet(cmd, args) {
  try {
    capture(cmd, args, { stdio: 'ignore' });
  } catch {
    // already gone
  }
}
