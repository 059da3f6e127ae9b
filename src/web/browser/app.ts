/**
 * @module web/browser/app
 * The page's behaviour, typed against the DOM: key storage, file drop, upload with XHR progress,
 * status long-polls, results wiring (seek and playhead). `npm run build:web` bundles it
 * (esbuild, one IIFE) into `web/app-script.generated.ts`, which the page embeds with its nonce;
 * `npm test` fails when that bundle is stale. It draws analyses with the results view
 * (`web/results/`), bundled in with it.
 */
import {
  processingReportItems,
  type ShownProcessingReport as ProcessingReport,
} from '../results/processing-report.js';
import { renderResults } from '../results/view.js';
import { analyzeForm, processForm } from './form-fields.js';

/** What the page shows of any failure: an API error body, a failed job, a network error. */
interface ShownError {
  code?: string;
  status?: number;
  message: string;
  field?: string | null;
  requestId?: string | null;
}

interface JobStatus {
  status: string;
  progress?: number;
  error_message?: string | null;
  download_url?: string | null;
  result?: unknown;
  processing_report?: ProcessingReport;
}

const KEY_STORAGE = 'video-api-key';
/** Each status request may be held this long by the service until the job moves (a long-poll). */
const LONG_POLL_SEC = 25;
/** After a failed status request: the first pause, doubled per failure up to MAX_RETRY_MS. */
const FIRST_RETRY_MS = 700;
const MAX_RETRY_MS = 8000;

/** The element with `id`, typed by the caller (the page's HTML is in `web/page.ts`). */
function $<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page lacks #${id}`);
  return el as T;
}
const input = (id: string) => $<HTMLInputElement>(id);

const state: {
  file: File | null;
  objectUrl: string | null;
  /** Stops the current job's status requests when another job starts. */
  polling: AbortController | undefined;
} = {
  file: null,
  objectUrl: null,
  polling: undefined,
};

// ---- API key -----------------------------------------------------------------------------------
const keyInput = input('api-key');
function savedKey(): string {
  try {
    return localStorage.getItem(KEY_STORAGE) || '';
  } catch {
    return '';
  }
}
keyInput.value = savedKey();
function showKeyStatus() {
  $('key-status').textContent = savedKey() ? 'A key is saved in this browser.' : 'No key saved yet.';
}
showKeyStatus();
$('key-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const v = keyInput.value.trim();
  if (!v) return keyInput.focus();
  try {
    localStorage.setItem(KEY_STORAGE, v);
  } catch {
    /* private mode: keep it in the field */
  }
  $('key-status').textContent = 'Key saved.';
  void loadHistory(true);
});
$('forget-key').addEventListener('click', () => {
  try {
    localStorage.removeItem(KEY_STORAGE);
  } catch {
    /* storage unavailable: nothing to forget */
  }
  keyInput.value = '';
  showKeyStatus();
  keyInput.focus();
});
const apiKey = () => keyInput.value.trim() || savedKey();

// ---- file choice and drop ------------------------------------------------------------------------
const drop = $('drop');
const fileInput = input('file');
function setFile(f: File | undefined) {
  state.file = f ?? null;
  $('file-name').textContent = f ? `Selected: ${f.name} (${formatBytes(f.size)})` : '';
}
fileInput.addEventListener('change', () => setFile(fileInput.files?.[0]));
for (const t of ['dragenter', 'dragover']) {
  drop.addEventListener(t, (e) => {
    e.preventDefault();
    drop.classList.add('over');
  });
}
for (const t of ['dragleave', 'drop']) drop.addEventListener(t, () => drop.classList.remove('over'));
drop.addEventListener('drop', (e) => {
  e.preventDefault();
  const files = (e as DragEvent).dataTransfer?.files;
  if (files?.length) setFile(files[0]);
});

// ---- options -----------------------------------------------------------------------------------
const mode = () =>
  document.querySelector<HTMLInputElement>('input[name=mode]:checked')?.value === 'process'
    ? 'process'
    : 'analyze';
const voiceGenerator = () => $<HTMLSelectElement>('voice-generator').value;
function syncOptions() {
  const isProcess = mode() === 'process';
  $('process-options').classList.toggle('hidden', !isProcess);
  $('analyze-options').classList.toggle('hidden', isProcess);
  const vg = voiceGenerator();
  input('voice-id').disabled = vg !== '1';
  input('audio').disabled = vg !== '2';
  $<HTMLTextAreaElement>('description').disabled = vg === '2';
}
document.querySelectorAll('input[name=mode]').forEach((r) => r.addEventListener('change', syncOptions));
$('voice-generator').addEventListener('change', syncOptions);
syncOptions();

const checked = (id: string) => input(id).checked;

function buildForm(): { path: string; body: FormData } {
  if (mode() === 'analyze') {
    const body = analyzeForm({
      file: state.file,
      visualAnalytics: checked('visual'),
      language: input('language').value,
    });
    return { path: '/api/analyze-video', body };
  }
  const body = processForm({
    file: state.file,
    avatarId: input('avatar-id').value,
    voiceGenerator: voiceGenerator(),
    description: $<HTMLTextAreaElement>('description').value,
    voiceId: input('voice-id').value,
    audio: input('audio').files?.[0] ?? null,
    blurBackground: checked('blur'),
    lipSyncCorrection: checked('lip-sync'),
    eyeContactCorrection: checked('eye-contact'),
  });
  return { path: '/api/process-video', body };
}

// ---- progress and errors -----------------------------------------------------------------------
function setBar(name: 'upload' | 'job', pct: number) {
  const p = Math.max(0, Math.min(100, pct));
  $<HTMLProgressElement>(`${name}-progress`).value = p;
  $(`${name}-pct`).textContent = `${Math.round(p)}%`;
}
const say = (text: string) => ($('status-text').textContent = text);

function showError(err: ShownError) {
  const box = $('error');
  box.hidden = false;
  box.textContent = '';
  const strong = document.createElement('strong');
  strong.textContent = err.code ? `${err.code}${err.status ? ` (HTTP ${err.status})` : ''}: ` : 'Error: ';
  box.appendChild(strong);
  box.appendChild(document.createTextNode(err.message || String(err)));
  if (err.field) box.appendChild(document.createTextNode(` — field "${err.field}"`));
  if (err.requestId) {
    const rid = document.createElement('div');
    rid.className = 'hint';
    rid.textContent = `request_id ${err.requestId}`;
    box.appendChild(rid);
  }
}

function apiError(status: number, text: string, requestId: string | null): ShownError {
  let body: { error?: { code?: string; message?: string; field?: string }; request_id?: string } | null =
    null;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: show the text */
  }
  const e = body?.error ?? {};
  return {
    code: e.code || `http_${status}`,
    status,
    message: e.message || text || 'request failed',
    field: e.field ?? null,
    requestId: body?.request_id || requestId,
  };
}

const formatBytes = (n: number) =>
  n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : n >= 1e3 ? `${Math.round(n / 1e3)} kB` : `${n} B`;

// ---- upload (XHR: fetch has no upload progress) ------------------------------------------------
function upload(path: string, body: FormData): Promise<{ video_id: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('X-API-Key', apiKey());
    xhr.responseType = 'text';
    xhr.upload.onprogress = (e) => {
      if (!e.lengthComputable) return;
      setBar('upload', (e.loaded / e.total) * 100);
      say(`Uploading… ${formatBytes(e.loaded)} of ${formatBytes(e.total)}`);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        setBar('upload', 100);
        resolve(JSON.parse(xhr.responseText));
      } else reject(apiError(xhr.status, xhr.responseText, xhr.getResponseHeader('X-Request-Id')));
    };
    xhr.onerror = () =>
      reject({
        code: 'network_error',
        message: 'The upload could not reach the service.',
      } satisfies ShownError);
    xhr.send(body);
  });
}

// ---- polling -----------------------------------------------------------------------------------
async function getStatus(id: string, signal: AbortSignal): Promise<JobStatus> {
  const res = await fetch(`/api/status/${encodeURIComponent(id)}?wait=${LONG_POLL_SEC}`, {
    headers: { 'X-API-Key': apiKey(), Accept: 'application/json' },
    cache: 'no-store',
    signal,
  });
  const text = await res.text();
  if (!res.ok) throw apiError(res.status, text, res.headers.get('X-Request-Id'));
  return JSON.parse(text);
}

/**
 * Follows the job to its end with long-polls: the service holds each request until the job's
 * status moves (or its progress, after a second), so the next one goes out at once; after a
 * failed request it backs off.
 */
function poll(id: string, signal: AbortSignal): Promise<JobStatus> {
  let retry = FIRST_RETRY_MS;
  let failures = 0;
  return new Promise((resolve, reject) => {
    const tick = () =>
      getStatus(id, signal).then(
        (s) => {
          failures = 0;
          retry = FIRST_RETRY_MS;
          const progress = s.progress || 0;
          setBar('job', progress);
          say(`Job ${id}: ${s.status} — ${progress.toFixed(0)}%`);
          if (s.status === 'completed') return resolve(s);
          if (s.status === 'failed')
            return reject({ code: 'job_failed', message: s.error_message || 'The job failed.' });
          if (s.status === 'not_found')
            return reject({ code: 'not_found', message: 'The service does not know this job.' });
          tick();
        },
        (err: ShownError) => {
          if (signal.aborted) return;
          if (++failures > 4 || (err.status && err.status < 500 && err.status !== 429)) return reject(err);
          setTimeout(tick, retry);
          retry = Math.min(retry * 2, MAX_RETRY_MS);
        },
      );
    tick();
  });
}

// ---- results -----------------------------------------------------------------------------------
const player = $<HTMLVideoElement>('player');

/** `localVideo`: play the file just uploaded beside an analysis (false for a job opened from the history). */
function showResults(kind: 'analyze' | 'process', s: JobStatus, localVideo = true) {
  $('results-panel').hidden = false;
  const results = $('results');
  const dl = $('download');
  if (kind === 'analyze') {
    if (state.objectUrl) URL.revokeObjectURL(state.objectUrl);
    state.objectUrl = localVideo && state.file ? URL.createObjectURL(state.file) : null;
    if (state.objectUrl) player.src = state.objectUrl;
    else player.removeAttribute('src');
    results.innerHTML = renderResults(s.result, {
      durationSec: player.duration || undefined,
    });
    dl.classList.add('hidden');
    wireTimeline();
  } else {
    player.src = s.download_url ?? '';
    results.innerHTML = '';
    dl.classList.remove('hidden');
    dl.textContent = '';
    const a = document.createElement('a');
    a.href = s.download_url ?? '';
    a.textContent = 'Download the processed video';
    a.setAttribute('download', '');
    dl.appendChild(a);
    const note = document.createElement('span');
    note.className = 'hint';
    note.textContent = ' (link valid for 24 hours)';
    dl.appendChild(note);
    showProcessingReport(results, s.processing_report);
  }
  $('h-results').focus();
}

/** What the render really did: applied options, the voice that spoke, and notes on anything not applied. */
function showProcessingReport(into: HTMLElement, report: ProcessingReport | undefined) {
  if (!report) return;
  const list = document.createElement('ul');
  list.id = 'processing-report';
  for (const text of processingReportItems(report)) {
    const li = document.createElement('li');
    li.textContent = text;
    list.appendChild(li);
  }
  into.appendChild(list);
}

const numberAttr = (el: Element, name: string) => parseFloat(el.getAttribute(name) ?? '');

function wireTimeline() {
  const svg = document.querySelector<SVGSVGElement>('#timeline');
  const words = [...document.querySelectorAll<HTMLElement>('#transcript .w')];
  let current: HTMLElement | null = null;
  const seek = (t: number) => {
    if (!isFinite(t)) return;
    try {
      player.currentTime = t;
    } catch {
      /* no media loaded yet */
    }
    movePlayhead(t);
  };
  $('results').addEventListener('click', (e) => {
    const target = e.target as Element;
    const el = target.closest?.('.seek');
    if (el && el.closest('#transcript')) return seek(numberAttr(el, 'data-t'));
    if (svg && target.closest?.('#timeline')) {
      const rect = svg.getBoundingClientRect();
      const x = ((e.clientX - rect.left) / rect.width) * svg.viewBox.baseVal.width;
      const [x0, x1, d] = [
        numberAttr(svg, 'data-x0'),
        numberAttr(svg, 'data-x1'),
        numberAttr(svg, 'data-duration'),
      ];
      seek(Math.max(0, Math.min(d, ((x - x0) / (x1 - x0)) * d)));
    }
  });
  function movePlayhead(t: number) {
    if (svg) {
      const [x0, x1] = [numberAttr(svg, 'data-x0'), numberAttr(svg, 'data-x1')];
      const d = numberAttr(svg, 'data-duration') || 1;
      const x = String(x0 + (Math.max(0, Math.min(d, t)) / d) * (x1 - x0));
      const ph = document.getElementById('playhead');
      ph?.setAttribute('x1', x);
      ph?.setAttribute('x2', x);
    }
    let next: HTMLElement | null = null;
    for (const w of words) {
      if (numberAttr(w, 'data-t') <= t) next = w;
      else break;
    }
    if (next !== current) {
      current?.classList.remove('current');
      next?.classList.add('current');
      current = next;
    }
  }
  player.ontimeupdate = () => movePlayhead(player.currentTime);
}

// ---- history -----------------------------------------------------------------------------------
interface ListedJob {
  video_id: string;
  kind: 'analysis' | 'processing';
  status: string;
  progress: number;
  created_at: string;
}
let historyCursor: string | null = null;

/** The key's jobs (GET /api/jobs), newest first, ten at a time; a completed one opens its result. */
async function loadHistory(reset: boolean): Promise<void> {
  if (!apiKey()) return;
  const q = new URLSearchParams({ limit: '10' });
  if (!reset && historyCursor) q.set('cursor', historyCursor);
  const res = await fetch(`/api/jobs?${q}`, {
    headers: { 'X-API-Key': apiKey(), Accept: 'application/json' },
    cache: 'no-store',
  });
  if (!res.ok) return;
  const page = (await res.json()) as { data: ListedJob[]; next_cursor: string | null };
  const list = $('history');
  if (reset) list.textContent = '';
  for (const job of page.data) list.appendChild(historyItem(job));
  historyCursor = page.next_cursor;
  $('history-more').hidden = !historyCursor;
  $('history-panel').hidden = false;
}

function historyItem(job: ListedJob): HTMLLIElement {
  const li = document.createElement('li');
  const id = document.createElement('code');
  id.textContent = job.video_id;
  const text = document.createElement('span');
  const when = new Date(job.created_at).toLocaleString();
  text.textContent = `${job.kind} · ${job.status}${job.status === 'completed' ? '' : ` ${job.progress.toFixed(0)}%`} · ${when}`;
  li.append(id, text);
  if (job.status === 'completed') {
    const open = document.createElement('button');
    open.type = 'button';
    open.textContent = 'Open';
    open.setAttribute('aria-label', `Open the result of ${job.video_id}`);
    open.addEventListener('click', () => openFromHistory(job));
    li.appendChild(open);
  }
  return li;
}

function openFromHistory(job: ListedJob): void {
  state.polling?.abort();
  const polling = (state.polling = new AbortController());
  // The page has no local copy of an earlier upload: the analysis is shown without the video.
  getStatus(job.video_id, polling.signal)
    .then((s) => showResults(job.kind === 'analysis' ? 'analyze' : 'process', s, false))
    .catch((err: ShownError) => {
      $('progress-panel').hidden = false;
      showError(err);
    });
}

$('history-refresh').addEventListener('click', () => void loadHistory(true));
$('history-more').addEventListener('click', () => void loadHistory(false));
void loadHistory(true);

// ---- start -------------------------------------------------------------------------------------
$('job-form').addEventListener('submit', (e) => {
  e.preventDefault();
  $('error').hidden = true;
  if (!apiKey()) {
    showError({ code: 'unauthorized', message: 'Enter your API key first.' });
    $('progress-panel').hidden = false;
    return keyInput.focus();
  }
  let req: { path: string; body: FormData };
  try {
    req = buildForm();
  } catch (err) {
    $('progress-panel').hidden = false;
    return showError({ message: (err as Error).message });
  }
  const kind = mode();
  state.polling?.abort();
  const polling = (state.polling = new AbortController());
  $('progress-panel').hidden = false;
  $('results-panel').hidden = true;
  setBar('upload', 0);
  setBar('job', 0);
  const start = $<HTMLButtonElement>('start');
  start.disabled = true;
  say('Uploading…');
  upload(req.path, req.body)
    .then((created) => {
      say(`Uploaded. Job ${created.video_id} is queued.`);
      return poll(created.video_id, polling.signal);
    })
    .then((s) => {
      say('Done: the job is completed.');
      showResults(kind, s);
      void loadHistory(true);
    })
    .catch((err: ShownError) => {
      say('Stopped.');
      showError(err);
    })
    .then(() => (start.disabled = false));
});
