/**
 * @module api/openapi/render
 * A small, self-contained HTML renderer for the OpenAPI document (the `/docs` page): one
 * section per operation with parameter and field tables, the error table, and the schemas.
 * Rendered on the server; the page loads nothing else.
 */

type Obj = Record<string, any>;

const esc = (s: unknown) =>
  String(s ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** The few Markdown marks the document uses: paragraphs, `code`, **bold**. */
export function markdown(text: unknown): string {
  return String(text ?? '')
    .split(/\n{2,}/)
    .map(
      (p) =>
        `<p>${esc(p)
          .replace(/`([^`]+)`/g, '<code>$1</code>')
          .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
          .replace(/\n/g, '<br>')}</p>`,
    )
    .join('');
}

const refName = (ref: string) => ref.split('/').pop()!;
const anchor = (name: string) => `schema-${name}`;

function resolve(doc: Obj, node: Obj | undefined): Obj {
  let n = node ?? {};
  for (let i = 0; n.$ref && i < 10; i++)
    n =
      n.$ref
        .split('/')
        .slice(1)
        .reduce((o: Obj, k: string) => o?.[k], doc) ?? {};
  return n;
}

/** A one-line type: `string`, `integer`, `array of PosEntry`, `"true" | "false"`, `AnalysisResult | null`. */
function typeOf(schema: Obj | undefined): string {
  if (!schema) return 'any';
  if (schema.$ref) return `<a href="#${anchor(refName(schema.$ref))}">${esc(refName(schema.$ref))}</a>`;
  if (schema.const !== undefined) return `<code>${esc(JSON.stringify(schema.const))}</code>`;
  if (schema.enum)
    return schema.enum.map((v: unknown) => `<code>${esc(JSON.stringify(v))}</code>`).join(' | ');
  const alts = schema.oneOf ?? schema.anyOf;
  if (alts) return alts.map(typeOf).join(' | ');
  if (schema.allOf) return schema.allOf.map(typeOf).join(' & ');
  if (schema.contentMediaType && schema.type === 'string') return 'binary';
  const t = Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'any');
  if (t === 'array') return `array of ${typeOf(schema.items)}`;
  return esc(t);
}

function rules(schema: Obj): string {
  const r: string[] = [];
  if (schema.minimum !== undefined) r.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) r.push(`≤ ${schema.maximum}`);
  if (schema.maxLength !== undefined) r.push(`≤ ${schema.maxLength} chars`);
  if (schema.pattern) r.push(`pattern <code>${esc(schema.pattern)}</code>`);
  return r.join(', ');
}

/** Field table of an object schema, nested objects flattened with dotted names. */
function fieldRows(doc: Obj, schema: Obj, prefix = '', depth = 0): string {
  const s = resolve(doc, schema);
  const required = new Set<string>(s.required ?? []);
  return Object.entries((s.properties ?? {}) as Obj)
    .map(([name, child]: [string, Obj]) => {
      const full = `${prefix}${name}`;
      const nested =
        !child.$ref && depth < 3
          ? child.type === 'object'
            ? child
            : child.type === 'array' && child.items?.type === 'object'
              ? child.items
              : null
          : null;
      const row = `<tr><td><code>${esc(full)}</code>${required.has(name) ? ' <span class="req">required</span>' : ''}</td><td>${typeOf(child)}</td><td>${child.default !== undefined ? `<code>${esc(child.default)}</code>` : ''}</td><td>${markdown(child.description)}${rules(child) ? `<p class="rules">${rules(child)}</p>` : ''}</td></tr>`;
      return (
        row +
        (nested ? fieldRows(doc, nested, child.type === 'array' ? `${full}[].` : `${full}.`, depth + 1) : '')
      );
    })
    .join('');
}

const fieldTable = (doc: Obj, schema: Obj) => {
  const rows = fieldRows(doc, schema);
  return rows
    ? `<table><thead><tr><th>Field</th><th>Type</th><th>Default</th><th>Meaning and rules</th></tr></thead><tbody>${rows}</tbody></table>`
    : '';
};

function operation(doc: Obj, path: string, method: string, op: Obj): string {
  const params = (op.parameters ?? []) as Obj[];
  const security = (op.security ?? doc.security) as Obj[];
  const auth =
    security.length === 0
      ? 'none'
      : security
          .map((s) =>
            Object.keys(s)
              .map((k) => esc(k))
              .join(' + '),
          )
          .join(' or ');
  const body = (op.requestBody?.content ?? {}) as Record<string, Obj>;
  const responses = Object.entries((op.responses ?? {}) as Record<string, Obj>).map(([code, r]) => {
    const res = resolve(doc, r);
    const schema = Object.values((res.content ?? {}) as Obj)[0]?.schema;
    return `<tr><td><code>${esc(code)}</code></td><td>${schema ? typeOf(schema) : ''}</td><td>${markdown(res.description)}</td></tr>`;
  });
  return `<section class="op" id="op-${esc(op.operationId)}" aria-labelledby="h-${esc(op.operationId)}">
<h3 id="h-${esc(op.operationId)}"><span class="method m-${method}">${method.toUpperCase()}</span> <code>${esc(path)}</code> <small>${esc(op.summary ?? '')}</small></h3>
${markdown(op.description)}
<p class="auth">Credential: ${auth} · operationId <code>${esc(op.operationId)}</code></p>
${params.length ? `<h4>Parameters</h4><table><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Meaning</th></tr></thead><tbody>${params.map((p) => `<tr><td><code>${esc(p.name)}</code>${p.required ? ' <span class="req">required</span>' : ''}</td><td>${esc(p.in)}</td><td>${typeOf(p.schema)}</td><td>${markdown(p.description)}</td></tr>`).join('')}</tbody></table>` : ''}
${Object.entries(body)
  .map(
    ([type, media]) =>
      `<h4>Request body <code>${esc(type)}</code></h4>${markdown(resolve(doc, media.schema).description)}${fieldTable(doc, media.schema)}`,
  )
  .join('')}
<h4>Responses</h4><table><thead><tr><th>Status</th><th>Body</th><th>Meaning</th></tr></thead><tbody>${responses.join('')}</tbody></table>
</section>`;
}

const STYLE = `
:root{color-scheme:light dark;--fg:#1b1f24;--bg:#fff;--mute:#57606a;--line:#d0d7de;--code:#f3f4f6;--acc:#0b57d0}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--bg:#0d1117;--mute:#8b949e;--line:#30363d;--code:#161b22;--acc:#58a6ff}}
body{font:15px/1.55 system-ui,sans-serif;color:var(--fg);background:var(--bg);margin:0;display:grid;grid-template-columns:minmax(200px,260px) 1fr}
nav{position:sticky;top:0;height:100vh;overflow:auto;padding:1rem;border-right:1px solid var(--line);font-size:14px}
nav a{display:block;overflow-wrap:anywhere;color:var(--fg);text-decoration:none;padding:.15rem 0}nav a:hover,nav a:focus{color:var(--acc);text-decoration:underline}
main{padding:1rem 2rem;max-width:1100px;min-width:0}
code{background:var(--code);padding:0 .25em;border-radius:4px;font-size:.92em}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem;font-size:14px}th,td{border:1px solid var(--line);padding:.35rem .5rem;text-align:left;vertical-align:top}td p{margin:0 0 .3rem}
.op{border-top:1px solid var(--line);padding-top:.5rem;margin-top:1.5rem}
.method{display:inline-block;min-width:4.2em;text-align:center;border-radius:4px;color:#fff;font-size:13px;padding:.1em .4em;background:#57606a}
.m-get{background:#1a7f37}.m-post{background:#0b57d0}.m-delete{background:#cf222e}.m-head{background:#8250df}
.req{color:#cf222e;font-size:12px}.rules,.auth{color:var(--mute);font-size:13px}
a:focus-visible{outline:2px solid var(--acc);outline-offset:2px}
@media (max-width:800px){body{display:block}nav{position:static;height:auto;border:0}}`;

/**
 * Renders the document as one HTML page (no scripts, no external resources).
 * @example
 * const html = renderDocs(openApiDocument());
 */
export function renderDocs(doc: Obj): string {
  const ops = Object.entries(doc.paths as Obj).flatMap(([path, item]: [string, Obj]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op: op as Obj })),
  );
  const tags = (doc.tags ?? []) as Obj[];
  const schemas = Object.entries((doc.components?.schemas ?? {}) as Obj);
  const errors = (doc['x-error-codes'] ?? []) as Obj[];
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(doc.info.title)} — reference</title><style>${STYLE}</style></head><body>
<nav aria-label="Contents"><strong>${esc(doc.info.title)}</strong><a href="#overview">Overview</a><a href="#errors">Errors</a>
${tags
  .map(
    (t) =>
      `<p><strong>${esc(t.name)}</strong></p>${ops
        .filter((o) => (o.op.tags ?? []).includes(t.name))
        .map(
          (o) => `<a href="#op-${esc(o.op.operationId)}">${esc(o.method.toUpperCase())} ${esc(o.path)}</a>`,
        )
        .join('')}`,
  )
  .join('')}
<p><strong>schemas</strong></p>${schemas.map(([n]) => `<a href="#${anchor(n)}">${esc(n)}</a>`).join('')}<p><a href="/openapi.json">openapi.json</a></p></nav>
<main><h1>${esc(doc.info.title)} <small>v${esc(doc.info.version)}</small></h1>
<section id="overview">${markdown(doc.info.description)}</section>
<section id="errors"><h2>Error codes</h2><table><thead><tr><th>Code</th><th>HTTP</th><th>When</th></tr></thead><tbody>${errors.map((e) => `<tr><td><code>${esc(e.code)}</code></td><td>${esc(e.status)}</td><td>${markdown(e.when)}</td></tr>`).join('')}</tbody></table></section>
${tags
  .map(
    (t) =>
      `<h2>${esc(t.name)}</h2>${markdown(t.description)}${ops
        .filter((o) => (o.op.tags ?? []).includes(t.name))
        .map((o) => operation(doc, o.path, o.method, o.op))
        .join('')}`,
  )
  .join('')}
<h2>Schemas</h2>${schemas.map(([name, s]: [string, Obj]) => `<section class="op" id="${anchor(name)}"><h3>${esc(name)}</h3>${markdown(s.description)}${s.allOf ? `<p>${typeOf(s)}</p>` : ''}${fieldTable(doc, s)}</section>`).join('')}
</main></body></html>`;
}
