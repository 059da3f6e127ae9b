/**
 * The results view (pure: result → HTML) and the page whose script bundles it.
 */
import { describe, expect, it } from 'vitest';
import { AnalysisResult } from '../contract/result.js';
import { sampleDelivery, sampleResult } from '../../test/e2e/support/sample-result.js';
import { contentSecurityPolicy, processingReportItems, renderResults, webRoutes } from './index.js';

describe('renderResults', () => {
  const full = sampleResult();

  it('should be given a fixture that satisfies the contract', () => {
    expect(AnalysisResult.safeParse(full).success).toBe(true);
  });

  it('should render summary cards against coaching targets', () => {
    const html = renderResults(full);
    expect(html).toMatch(/id="card-pace"/);
    expect(html).toMatch(/>target 130–160/);
    // Another language's target is English's scaled to its words (contract/speech-rate), on the
    // card and the timeline's band; one whose word rate is unknown says the target is English's.
    const de = renderResults({ ...full, language: 'de' });
    expect(de).toMatch(/>target 102–126 \(English&#39;s 130–160 scaled to its words\)/);
    expect(de).toMatch(/<title>target 102–126 WPM<\/title>/);
    expect(renderResults({ ...full, language: 'sv' })).toMatch(/>English&#39;s target 130–160/);
    expect(html).toMatch(/class="card (good|warn)" id="card-fillers"/);
    expect(html).toMatch(/id="card-gaze"[^]*?85<small>%/); // 34 of 40 frames at the camera
    expect(html).toContain('Sample result for rendering tests.');
  });

  it('should show the delivery numbers: pitch, loudness and repetition cards, a line under the timeline, quiet stretches and repeats in it', () => {
    const plain = renderResults(full);
    expect(plain).not.toContain('id="card-pitch"');
    expect(plain).not.toContain('delivery-line');
    const html = renderResults({ ...full, delivery: sampleDelivery(full) });
    expect(AnalysisResult.safeParse({ ...full, delivery: sampleDelivery(full) }).success).toBe(true);
    expect(html).toMatch(
      /class="card warn" id="card-pitch"[^]*?182 <small>Hz[^]*?variation 1\.6 st · range 5\.1 st · monotone/,
    );
    expect(html).toMatch(/class="card warn" id="card-loudness"[^]*?quiet at 0:12–0:14/);
    expect(html).toMatch(/id="card-repetitions"[^]*?“we need to” ×2 at 0:05/);
    expect(html).toMatch(/id="card-gaze"[^]*?85<small>%[^]*?longest look-away 3\.0 s at 0:07/);
    expect(html).toMatch(
      /<p class="delivery-line" id="delivery-line">Pitch: median 182 Hz, variation 1\.6 st, range 5\.1 st \(monotone\) · Loudness: variation 4\.3 dB, 1 quiet stretch · Pace outside 110–170 WPM: fast 0:04–0:19 \(176\)<\/p>/,
    );
    expect(html).toMatch(/<rect class="seek quiet" data-t="12\.4"/);
    expect(html).toMatch(/<rect class="seek repeat" data-t="5\.2"/);
  });

  it('should render the transcript with fillers marked, pauses inserted and every word timed', () => {
    const html = renderResults(full);
    expect(html).toContain('<mark>Um,</mark>');
    expect(html).toContain('<mark>Like,</mark>');
    expect(html).toMatch(/class="seek pause-mark long" data-t="[\d.]+" aria-label="long pause 1\.5 seconds/);
    const words = [...html.matchAll(/class="w seek[^"]*" data-t="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(words).toHaveLength(full.transcript.split(' ').length);
    expect(words.every((t, i) => i === 0 || t >= words[i - 1])).toBe(true);
    expect(html).toMatch(/class="w seek positive"[^>]*>great</);
    expect(html).toMatch(/class="w seek negative"[^>]*>painful</);
  });

  it('should draw a timeline with lanes, clickable marks and a playhead', () => {
    const html = renderResults(full);
    expect(html).toContain('<svg id="timeline"');
    expect(html).toContain('data-duration="20"');
    for (const lane of ['Pace (WPM)', 'Pauses · fillers', 'Sentiment', 'Gaze', 'Gestures'])
      expect(html).toContain(`>${lane}</text>`);
    expect(html).toContain('<polyline class="pace"');
    expect(html).toContain('class="seek gaze-away"');
    expect(html).toContain('id="playhead"');
    expect(html).not.toMatch(/\sstyle="/); // the CSP forbids inline style attributes
  });

  it('should render only what a partial result has', () => {
    const html = renderResults({ summary: { duration_sec: 3.02 } });
    expect(html).toContain('id="card-duration"');
    expect(html).not.toContain('id="card-pace"');
    expect(html).not.toContain('<svg id="timeline"');
    expect(html).toContain('Raw result');
    expect(renderResults(null)).toContain('class="results"');
  });

  it('should not praise fillers or pauses when nothing was said, nor draw an empty timeline', () => {
    const silent = {
      transcript: '',
      summary: {
        duration_sec: 3,
        words_per_minute: 0,
        speaking_style: { style: 'insufficient_speech', readability_grade: 0, lexical_diversity: 0 },
      },
      filler_words: { count: 0, instances: [] },
      pauses: { total: 0, long_pauses: 0, time_series: [] },
      sentiment_words: [],
    };
    const html = renderResults(silent);
    expect(html).toContain('class="card info" id="card-fillers"');
    expect(html).toContain('class="card info" id="card-pauses"');
    expect(html).toContain('insufficient speech');
    expect(html).not.toContain('<svg id="timeline"');
    expect(html).toContain('No speech was recognised.');
  });

  it('should escape text from the result', () => {
    const html = renderResults({
      transcript: '<img src=x onerror=alert(1)>',
      summary: { duration_sec: 1, emotion: '<b>' },
      warnings: ['<script>'],
    });
    expect(html).not.toMatch(/<img|<script>|<b>/);
  });

  it('should list the processing report with the voice that spoke', () => {
    const report = {
      options_applied: [],
      output: { width: 640, height: 360, duration_sec: 3.2, fit: 'trim' },
      lip_sync: null,
      captions: 'alignment',
      voice: { engine: 'espeak-ng', voice_id: 'en-us+m3' },
      notes: ['the neural voice is not installed'],
    };
    expect(processingReportItems(report)).toEqual([
      'Applied: none',
      'Output: 640×360, 3.20 s (trim)',
      'Captions timed by alignment',
      'Voice: en-us+m3 (espeak-ng)',
      'the neural voice is not installed',
    ]);
    expect(processingReportItems({ ...report, voice: undefined }).join(' ')).not.toContain('Voice');
  });
});

describe('web page', () => {
  it('should serve the page with a nonce-based CSP and security headers', async () => {
    const res = await webRoutes.request('/');
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy')!;
    const nonce = /'nonce-([^']+)'/.exec(csp)![1];
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/https?:|unsafe-inline|\*/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await res.text();
    expect(html).toContain(`<script nonce="${nonce}">`);
    expect(html).toContain(`<style nonce="${nonce}">`);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(html).not.toMatch(/<[a-z]+[^>]*\sstyle="/);
    // Each response has its own nonce.
    const again = (await webRoutes.request('/')).headers.get('content-security-policy');
    expect(again).not.toBe(csp);
  });

  it('should label every form control', async () => {
    const html = await (await webRoutes.request('/')).text();
    for (const id of [
      'api-key',
      'file',
      'visual',
      'description',
      'voice-generator',
      'upload-progress',
      'job-progress',
    ]) {
      expect(html, id).toMatch(
        new RegExp(`(for="${id}"|<label[^>]*>\\s*<input[^>]*id="${id}"|<label[^>]*for="${id}")`),
      );
    }
    expect(html).toContain('aria-live="polite"');
    expect(html).toContain('role="alert"');
  });

  it('should allow the storage origin for media when download links live elsewhere', () => {
    expect(contentSecurityPolicy('n', 'https://files.example.com/base')).toContain(
      "media-src 'self' blob: https://files.example.com",
    );
    expect(contentSecurityPolicy('n', 'not a url')).toContain("media-src 'self' blob:;");
  });
});
