// `npm run keys -- create --name NAME | list | revoke KEY_ID [--url URL]`
// Manages production API keys through the admin API. The admin token comes from ADMIN_TOKEN
// or, for the local stack, from .dev.vars.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './setup.mjs';

const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? undefined : args[i + 1];
};
const [command, positional] = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
const url = (
  flag('url') ??
  process.env.VIDEO_API_URL ??
  `http://127.0.0.1:${process.env.PORT ?? 8787}`
).replace(/\/+$/, '');
const devVars = join(ROOT, '.dev.vars');
const token =
  process.env.ADMIN_TOKEN ??
  (existsSync(devVars) ? /ADMIN_TOKEN="([^"]+)"/.exec(readFileSync(devVars, 'utf8'))?.[1] : undefined);

function usage(code = 2) {
  console.error(
    'usage: npm run keys -- create --name NAME | list | revoke KEY_ID   [--url URL]   (ADMIN_TOKEN from env or .dev.vars)',
  );
  process.exit(code);
}
if (!token) {
  console.error('no admin token: set ADMIN_TOKEN (or run npm start once to create .dev.vars)');
  process.exit(2);
}

async function call(method, path, body) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) {
    console.error(
      `error ${res.status}: ${json.error?.message ?? res.statusText} (request ${json.request_id ?? '?'})`,
    );
    process.exit(1);
  }
  return json;
}

switch (command) {
  case 'create': {
    const name = flag('name');
    if (!name) usage();
    const created = await call('POST', '/admin/keys', { name });
    console.log(
      `created key ${created.key_id} (${created.name})\n\n  ${created.key}\n\nStore it now: only its hash is kept.`,
    );
    break;
  }
  case 'list': {
    const { keys } = await call('GET', '/admin/keys');
    console.table(
      keys.map((k) => ({
        key_id: k.key_id,
        name: k.name,
        created_at: k.created_at,
        revoked_at: k.revoked_at ?? '',
      })),
    );
    break;
  }
  case 'revoke': {
    if (!positional) usage();
    const revoked = await call('DELETE', `/admin/keys/${positional}`);
    console.log(`revoked ${revoked.key_id} (${revoked.name}) at ${revoked.revoked_at}`);
    break;
  }
  default:
    usage();
}
