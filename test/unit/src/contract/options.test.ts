/**
 * One definition per option: the API's form, the job's render request and the container's
 * render options come from the same schemas (`src/contract/options.ts`, `render.ts`), so they
 * agree on every default and every rule; the form's 400s keep the spec's fields and wording.
 */
import { describe, expect, it } from 'vitest';
import { parseRenderOptions } from '../../../../containers/media/engines/render/options.js';
import { AnalysisOptions, ProcessFormOptions, RenderToggles } from '../../../../src/contract/options.js';
import { ApiError } from '../../../../src/contract/errors.js';
import { parseFormOptions } from '../../../../src/api/form-options.js';
import { processOptions } from '../../../../src/api/process.js';
import { renderRequest } from '../../../../src/pipeline/steps/processing.js';

const TOGGLES = Object.keys(RenderToggles.shape) as Array<keyof typeof RenderToggles.shape>;

function failure(fn: () => unknown): { field?: string; message: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return { field: err.details.field, message: err.message };
    throw err;
  }
  throw new Error('expected an ApiError');
}

describe('the API and the container agree', () => {
  it('should default every render option alike in the form, the contract and the container', () => {
    const api = processOptions({}, false);
    const container = parseRenderOptions(undefined);
    for (const name of TOGGLES) expect(container[name], name).toEqual(api[name]);
    expect(container).toEqual(RenderToggles.parse({}));
    expect(api.blur_background).toBe(true);
    expect(parseRenderOptions('{}')).toEqual(container);
  });

  it('should render what the form asked for: form → job options → render request → container', () => {
    const forms: Array<Record<string, string>> = [
      {},
      { blur_background: 'false' },
      { blur_background: ' true ', eye_contact_correction: 'true', lip_sync_correction: 'true' },
      { lip_sync_correction: 'false', lip_sync_correction_model: 'lipsync2', description: 'Hello there.' },
      { voice_generator: '1', description: 'Hi', voice_id: 'v', credential_voice_generator: 'secret' },
    ];
    for (const [form, hasAudio] of [
      ...forms.map((f) => [f, false] as const),
      [{ voice_generator: '2' }, true] as const,
    ]) {
      const job = processOptions(form, hasAudio);
      const request = renderRequest(job);
      expect(JSON.stringify(request)).not.toContain('secret');
      const rendered = parseRenderOptions(JSON.stringify(request));
      for (const name of TOGGLES)
        expect(rendered[name], `${JSON.stringify(form)} ${name}`).toEqual(job[name]);
      expect(rendered.captions).toBe(job.speech === 'synthesized' ? job.description! : undefined);
      expect(rendered.speech_words).toBe(job.speech !== 'original');
    }
  });

  it('should refuse in the container what the form refuses', () => {
    expect(() => parseRenderOptions(JSON.stringify({ blur_background: 'yes' }))).toThrow(
      /options\.blur_background/,
    );
    expect(() => parseRenderOptions(JSON.stringify({ lip_sync_correction_model: 'other' }))).toThrow(
      /options\.lip_sync_correction_model/,
    );
    expect(() => parseRenderOptions('[1]')).toThrow(/options/);
    expect(() => parseRenderOptions('{')).toThrow(/not valid JSON/);
    expect(failure(() => processOptions({ blur_background: 'yes' }, false)).field).toBe('blur_background');
    expect(failure(() => processOptions({ lip_sync_correction_model: 'other' }, false)).field).toBe(
      'lip_sync_correction_model',
    );
  });
});

describe('form options', () => {
  it('should keep the spec wording and name the first bad field in the form order', () => {
    expect(failure(() => parseFormOptions(AnalysisOptions, { visual_analytics: 'yes' }))).toEqual({
      field: 'visual_analytics',
      message: '"visual_analytics" must be the text true or false, got "yes"',
    });
    expect(
      failure(() => parseFormOptions(ProcessFormOptions, { voice_generator: '3', blur_background: 'x' })),
    ).toEqual({
      field: 'voice_generator',
      message: '"voice_generator" must be one of 0, 1, 2, got "3"',
    });
    expect(
      failure(() =>
        parseFormOptions(ProcessFormOptions, { description: 'x'.repeat(5001), eye_contact_correction: '' }),
      ),
    ).toEqual({
      field: 'eye_contact_correction',
      message: '"eye_contact_correction" must be the text true or false, got ""',
    });
    expect(failure(() => parseFormOptions(ProcessFormOptions, { description: 'x'.repeat(5001) }))).toEqual({
      field: 'description',
      message: '"description" is longer than 5000 characters',
    });
  });

  it('should take a spoken language code and name the field for anything else', () => {
    expect(parseFormOptions(AnalysisOptions, { language: ' de ' })).toEqual({
      visual_analytics: false,
      language: 'de',
    });
    // A language tag as people write it is its language's code: the region changes nothing heard.
    for (const [tag, code] of [
      ['DE', 'de'],
      ['de-DE', 'de'],
      ['pt_BR', 'pt'],
      ['EN-us', 'en'],
      ['deu', 'de'],
      ['iw', 'he'],
      ['jv-ID', 'jw'],
      ['nb', 'no'],
      ['zh-Hant-TW', 'zh'],
      ['haw', 'haw'],
    ]) {
      expect(parseFormOptions(AnalysisOptions, { language: tag }).language, tag).toBe(code);
    }
    for (const bad of [
      'xx',
      'xx-DE',
      'english',
      'yue',
      'yue-HK',
      'x-klingon',
      'de-',
      '-',
      'de'.repeat(300),
    ]) {
      const f = failure(() => parseFormOptions(AnalysisOptions, { language: bad }));
      expect(f.field).toBe('language');
      expect(f.message).toMatch(/^"language" must be one of 99 codes such as af, am/);
    }
  });

  it('should trim text, treat empty text as absent and ignore the provider fields unless voice_generator is 1', () => {
    expect(parseFormOptions(AnalysisOptions, {})).toEqual({ visual_analytics: false });
    expect(parseFormOptions(AnalysisOptions, { visual_analytics: ' true\n' })).toEqual({
      visual_analytics: true,
    });
    const o = processOptions({ voice_generator: ' ', description: '  ', voice_id: 'x'.repeat(500) }, false);
    expect(o).toMatchObject({ voice_generator: '0', description: null, voice_id: null, speech: 'original' });
    expect(
      failure(() => processOptions({ voice_generator: '1', voice_id: 'x'.repeat(201) }, false)).field,
    ).toBe('voice_id');
  });
});
