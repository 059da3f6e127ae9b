import { describe, expect, it } from 'vitest';
import { processOptions } from '../../../../src/api/process.js';
import { parseRange } from '../../../../src/api/files.js';
import { statusWaitMs } from '../../../../src/api/status.js';
import { ApiError } from '../../../../src/contract/errors.js';
import { decideRetry } from '../../../../src/pipeline/retry.js';
import { UnrecoverableError } from '../../../../src/media/errors.js';
import { signDownloadUrl, verifyDownload } from '../../../../src/storage/signed-url.js';
import { looksLikeText } from '../../../../src/storage/sniff.js';
import { isWellFormedId, newVideoId } from '../../../../src/shared/ids.js';

describe('process-video options', () => {
  it('should apply the defaults of the spec', () => {
    expect(processOptions({}, false)).toEqual({
      description: null,
      blur_background: true,
      voice_generator: '0',
      voice_id: null,
      credential_voice_generator: null,
      lip_sync_correction: false,
      lip_sync_correction_model: 'lipsync2',
      eye_contact_correction: false,
      speech: 'original',
    });
  });
  it('should synthesize with 0 or 1 when there is a description', () => {
    expect(
      processOptions(
        { description: 'Hi', voice_generator: '1', voice_id: 'v', credential_voice_generator: 'c' },
        false,
      ),
    ).toMatchObject({ speech: 'synthesized', voice_id: 'v', credential_voice_generator: 'c' });
  });
  it('should name the field at fault', () => {
    const fieldOf = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return (e as ApiError).details.field;
      }
    };
    expect(fieldOf(() => processOptions({ blur_background: 'yes' }, false))).toBe('blur_background');
    expect(fieldOf(() => processOptions({}, true))).toBe('audio');
    expect(fieldOf(() => processOptions({ voice_generator: '2' }, false))).toBe('audio');
    expect(fieldOf(() => processOptions({ description: 'x'.repeat(5001) }, false))).toBe('description');
  });
});

describe('ranges', () => {
  it('should parse single byte ranges', () => {
    expect(parseRange('bytes=0-9', 100)).toEqual({ offset: 0, length: 10 });
    expect(parseRange('bytes=90-', 100)).toEqual({ offset: 90, length: 10 });
    expect(parseRange('bytes=-5', 100)).toEqual({ offset: 95, length: 5 });
    expect(parseRange('bytes=50-500', 100)).toEqual({ offset: 50, length: 50 });
    expect(parseRange('bytes=100-', 100)).toBe('invalid');
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseRange(undefined, 100)).toBeNull();
  });
});

describe('retry decision', () => {
  it('should fail unrecoverable errors at once and back off the rest', () => {
    expect(decideRetry(new UnrecoverableError('corrupt'), 1)).toEqual({ action: 'fail', message: 'corrupt' });
    const d1 = decideRetry(new Error('x'), 1, () => 0);
    const d4 = decideRetry(new Error('x'), 4, () => 1);
    expect(d1).toEqual({ action: 'retry', delaySeconds: 3 });
    expect(d4).toEqual({ action: 'retry', delaySeconds: 40 });
    expect((decideRetry(new Error('x'), 20, () => 1) as { delaySeconds: number }).delaySeconds).toBe(120);
  });
});

describe('signed URLs', () => {
  it('should verify its own links and refuse tampering and expiry', async () => {
    const url = new URL(
      await signDownloadUrl('https://s.example/', 'k', 'outputs/v/video.mp4', 60, 1_000_000),
    );
    const exp = url.searchParams.get('expires')!;
    const tok = url.searchParams.get('token')!;
    expect(url.pathname).toBe('/files/outputs/v/video.mp4');
    expect(await verifyDownload('k', 'outputs/v/video.mp4', exp, tok, 1_000_000)).toBe('ok');
    expect(await verifyDownload('k', 'outputs/v/video.mp4', exp, tok, 1_000_000 + 61_000)).toBe('expired');
    expect(await verifyDownload('k', 'outputs/w/video.mp4', exp, tok, 1_000_000)).toBe('invalid');
    expect(await verifyDownload('other', 'outputs/v/video.mp4', exp, tok, 1_000_000)).toBe('invalid');
    expect(await verifyDownload('k', 'outputs/v/video.mp4', exp, '!!', 1_000_000)).toBe('invalid');
    expect(await verifyDownload('k', 'outputs/v/video.mp4', undefined, tok, 1_000_000)).toBe('invalid');
  });
});

describe('ids and sniffing', () => {
  it('should make 128-bit URL-safe ids', () => {
    const ids = new Set(Array.from({ length: 1000 }, newVideoId));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(isWellFormedId(id)).toBe(true);
  });
  it('should tell text from media headers', () => {
    const enc = new TextEncoder();
    expect(looksLikeText(enc.encode('hello, this is text and not a video at all'))).toBe(true);
    expect(
      looksLikeText(
        new Uint8Array([0, 0, 0, 32, 102, 116, 121, 112, 105, 115, 111, 109, 0, 0, 2, 0, 105, 115]),
      ),
    ).toBe(false);
    expect(looksLikeText(enc.encode('RIFF\u0024\u0000\u0000\u0000WAVEfmt '))).toBe(false);
    // Issue #12: short JSON and UTF-16 text are text too.
    expect(looksLikeText(enc.encode('{"a":1}'))).toBe(true);
    const utf16 = (text: string, bom: boolean) =>
      new Uint8Array([...(bom ? [0xff, 0xfe] : []), ...[...text].flatMap((c) => [c.charCodeAt(0), 0])]);
    expect(looksLikeText(utf16('hello, this is UTF-16 text and not a video', true))).toBe(true);
    expect(looksLikeText(utf16('hello, this is UTF-16 text and not a video', false))).toBe(true);
    expect(
      looksLikeText(
        new Uint8Array([
          0xff, 0xfe, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00,
        ]),
      ),
    ).toBe(false);
  });
});

describe('status long-poll parameter', () => {
  it('should take whole seconds 0–60 and refuse anything else with a 400 naming wait', () => {
    expect(statusWaitMs(undefined)).toBe(0);
    expect(statusWaitMs('0')).toBe(0);
    expect(statusWaitMs('25')).toBe(25_000);
    expect(statusWaitMs('60')).toBe(60_000);
    for (const bad of ['61', '99', '-1', '1.5', '', ' 5', '5s', '1e1', '007'])
      expect(() => statusWaitMs(bad), bad).toThrow(
        expect.objectContaining({ code: 'invalid_request', status: 400, details: { field: 'wait' } }),
      );
  });
});
