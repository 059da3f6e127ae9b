/**
 * @module web/page
 * The page's HTML: key, upload, options, progress, results. Script and style carry the
 * per-response CSP nonce; nothing is loaded from elsewhere.
 */
import { AnalysisOptions, MAX_DESCRIPTION_CHARS, ProcessFormOptions } from '../contract/options.js';
import { APP_SCRIPT } from './app-script.generated.js';
import { STYLES } from './styles.js';

/**
 * The page for one response.
 * @example
 * c.html(pageHtml(nonce));
 */
/** The contract's defaults: the page's checkboxes start as the API would default them. */
const ANALYSIS = AnalysisOptions.parse({});
const PROCESS = ProcessFormOptions.parse({});
const checked = (on: boolean) => (on ? ' checked' : '');

export function pageHtml(nonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Video analysis</title><meta name="referrer" content="no-referrer">
<style nonce="${nonce}">${STYLES}</style></head>
<body>
<header><h1>Video analysis &amp; processing</h1><nav aria-label="Reference"><a href="/docs">API reference</a><a href="/openapi.json">OpenAPI</a></nav></header>
<main>
<section class="panel" aria-labelledby="h-key"><h2 id="h-key">1. API key</h2>
<form id="key-form" class="row" autocomplete="off">
<label for="api-key">API key</label><input id="api-key" name="api-key" type="password" autocomplete="off" spellcheck="false" aria-describedby="key-hint" required>
<button type="submit">Save key</button><button type="button" id="forget-key">Forget</button>
<span id="key-hint" class="hint">Kept in this browser's localStorage only; sent as X-API-Key.</span></form>
<p id="key-status" class="hint" role="status"></p></section>

<section class="panel" id="history-panel" aria-labelledby="h-history" hidden><h2 id="h-history">Your jobs</h2>
<p class="row"><button type="button" id="history-refresh">Refresh</button><span class="hint">Newest first; open a completed job to see its result.</span></p>
<ul id="history" class="history" aria-live="polite"></ul>
<p><button type="button" id="history-more" hidden>Show more</button></p></section>

<section class="panel" aria-labelledby="h-job"><h2 id="h-job">2. Video and job</h2>
<form id="job-form" novalidate>
<label class="drop" id="drop" for="file"><strong>Drop a video here</strong><span class="muted">or choose a file (any common format)</span><br>
<input id="file" name="file" type="file" accept="video/*,audio/*,.mkv,.mov,.webm,.mp4"></label>
<p id="file-name" class="hint" aria-live="polite"></p>
<fieldset><legend>What to do</legend><div class="row">
<label><input type="radio" name="mode" value="analyze" checked> Analyze (speech and delivery)</label>
<label><input type="radio" name="mode" value="process"> Process (new video)</label></div></fieldset>
<fieldset id="analyze-options"><legend>Analysis options</legend>
<label><input type="checkbox" id="visual" name="visual_analytics"${checked(ANALYSIS.visual_analytics)}> Visual analytics (gestures, posture, gaze, face)</label>
<div class="row"><label for="language">Spoken language</label><input id="language" name="language" type="text" maxlength="3" size="4" placeholder="auto" pattern="[a-z]{2,3}" spellcheck="false"><span class="hint">a language code such as de or es; empty: detected</span></div></fieldset>
<fieldset id="process-options" class="hidden"><legend>Processing options</legend>
<div class="row"><label for="avatar-id">Registered avatar id</label><input id="avatar-id" type="text" placeholder="avt_… (instead of a file)" spellcheck="false"></div>
<p><label for="description">Description (spoken with voice generator 0 or 1)</label><textarea id="description" maxlength="${MAX_DESCRIPTION_CHARS}"></textarea></p>
<div class="row"><label for="voice-generator">Voice generator</label><select id="voice-generator"><option value="0">0 — built-in voice</option><option value="1">1 — provider voice</option><option value="2">2 — my audio file</option></select>
<label for="voice-id">Voice id</label><input id="voice-id" type="text" placeholder="default" disabled></div>
<p class="row"><label for="audio">Audio file (voice generator 2)</label><input id="audio" type="file" accept="audio/*" disabled></p>
<div class="row"><label><input type="checkbox" id="blur"${checked(PROCESS.blur_background)}> Blur background</label>
<label><input type="checkbox" id="lip-sync"${checked(PROCESS.lip_sync_correction)}> Lip-sync correction</label>
<label><input type="checkbox" id="eye-contact"${checked(PROCESS.eye_contact_correction)}> Eye-contact correction</label></div></fieldset>
<p><button type="submit" class="primary" id="start">Start</button></p>
</form></section>

<section class="panel" id="progress-panel" aria-labelledby="h-progress" hidden><h2 id="h-progress">3. Progress</h2>
<div class="progress-row"><label for="upload-progress">Upload</label><progress id="upload-progress" max="100" value="0"></progress><span id="upload-pct">0%</span></div>
<div class="progress-row"><label for="job-progress">Job</label><progress id="job-progress" max="100" value="0"></progress><span id="job-pct">0%</span></div>
<p id="status-text" role="status" aria-live="polite"></p>
<div id="error" class="error" role="alert" hidden></div></section>

<section class="panel" id="results-panel" aria-labelledby="h-results" hidden><h2 id="h-results" tabindex="-1">4. Results</h2>
<div class="player-wrap"><video id="player" controls preload="metadata" aria-label="Your video"></video><p id="download" class="hidden"></p></div>
<div id="results"></div></section>
</main>
<script nonce="${nonce}">${APP_SCRIPT}</script>
</body></html>`;
}
