/**
 * Every render path keeps the source's colour description: a full-range BT.709 clip and an HDR
 * HLG one (BT.2020, 10-bit, as phones record) come out tagged as they went in, through the file
 * path (blur: the encoder decodes the source) and the frames path (eye contact: raw pictures from
 * Node, which carry no tags of their own), and the frames path leaves the pictures' levels alone.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FFMPEG_BIN, probeFile } from '../../containers/media/core/ffmpeg.js';
import {
  defaultRenderEngines,
  parseRenderOptions,
  renderVideo,
} from '../../containers/media/engines/render/index.js';
import { SHARED_MEDIA } from '../support/services.js';

const CLIP = join(SHARED_MEDIA, 'talking_head/retalking_face2.mp4');
const tmp = mkdtempSync(join(tmpdir(), 'render-color-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const SOURCES = {
  'full-range BT.709': {
    params: 'range=pc:color_primaries=bt709:color_trc=bt709:colorspace=bt709',
    pixFmt: 'yuv420p',
    color: { range: 'pc', space: 'bt709', transfer: 'bt709', primaries: 'bt709' },
  },
  'HLG BT.2020 10-bit': {
    params: 'range=tv:color_primaries=bt2020:color_trc=arib-std-b67:colorspace=bt2020nc',
    pixFmt: 'yuv420p10le',
    color: { range: 'tv', space: 'bt2020nc', transfer: 'arib-std-b67', primaries: 'bt2020' },
  },
};

/** The first video stream's colour tags, as ffprobe names them. */
function tags(path: string) {
  const [range, space, transfer, primaries] = execFileSync('ffprobe', [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=color_range,color_space,color_transfer,color_primaries',
    '-of',
    'csv=p=0',
    path,
  ])
    .toString()
    .trim()
    .split(',');
  return { range, space, transfer, primaries };
}

/** Standard deviation of the luma of frame 25, read as stored (no range conversion). */
function lumaSpread(path: string): number {
  const y = execFileSync(FFMPEG_BIN, [
    '-v',
    'error',
    '-i',
    path,
    '-vf',
    'select=eq(n\\,25),extractplanes=y',
    '-frames:v',
    '1',
    '-f',
    'rawvideo',
    '-pix_fmt',
    'gray',
    '-',
  ]);
  const mean = y.reduce((s, v) => s + v, 0) / y.length;
  return Math.sqrt(y.reduce((s, v) => s + (v - mean) ** 2, 0) / y.length);
}

describe.each(Object.entries(SOURCES))('colour of a %s source', (name, s) => {
  const source = join(tmp, `${name.replace(/\W+/g, '-')}.mp4`);
  execFileSync(FFMPEG_BIN, [
    '-v',
    'error',
    '-y',
    '-i',
    CLIP,
    '-t',
    '2',
    '-vf',
    `setparams=${s.params},format=${s.pixFmt}`,
    '-c:v',
    'libx264',
    '-c:a',
    'aac',
    source,
  ]);

  it('should be read by the probe', async () => {
    expect((await probeFile(source)).video?.color).toEqual(s.color);
  });

  it.each([
    ['file path (blur)', { blur_background: true }],
    ['frames path (eye contact)', { blur_background: false, eye_contact_correction: true }],
  ])('should come out of the %s tagged as it went in', { timeout: 300_000 }, async (_, options) => {
    const workDir = mkdtempSync(join(tmp, 'work-'));
    const { outputPath, report } = await renderVideo(
      { sourcePath: source, options: parseRenderOptions(JSON.stringify(options)), workDir },
      defaultRenderEngines(),
    );
    expect(report.options_applied).toEqual(
      Object.keys(options).filter((k) => options[k as keyof typeof options]),
    );
    expect(tags(outputPath)).toEqual(tags(source));
    // Unblurred, the same levels: a full-range picture squeezed into limited range would lose ≈ 14 %
    // of its spread.
    if (!options.blur_background) {
      expect(lumaSpread(outputPath) / lumaSpread(source)).toBeGreaterThan(0.97);
      expect(lumaSpread(outputPath) / lumaSpread(source)).toBeLessThan(1.03);
    }
  });
});
