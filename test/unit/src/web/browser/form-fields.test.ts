/**
 * The form fields the client and the page send, against the ones the API reads (built from the
 * contract's option schemas: `PROCESS_TEXT_FIELDS` and the like, plus the uploads). A field the
 * contract gains fails here until the client and the page send it or list it below as left out,
 * with the reason; a field they send that the API does not read fails too (a 400 at run time).
 */
import { describe, expect, it } from 'vitest';
import { ANALYZE_TEXT_FIELDS } from '../../../../../src/api/analyze.js';
import { AVATAR_TEXT_FIELDS } from '../../../../../src/api/avatars.js';
import { PROCESS_TEXT_FIELDS } from '../../../../../src/api/process.js';
import { VideoApiClient, type ProcessOptions } from '../../../../../src/client/index.js';
import { analyzeForm, processForm, type ProcessValues } from '../../../../../src/web/browser/form-fields.js';

/** What each endpoint reads: its text fields and its uploads. */
const READ = {
  analyze: [...ANALYZE_TEXT_FIELDS, 'file'],
  process: [...PROCESS_TEXT_FIELDS, 'file', 'audio'],
  avatar: [...AVATAR_TEXT_FIELDS, 'file'],
};

/** Fields the client leaves out on purpose. */
const CLIENT_LEAVES_OUT: Record<keyof typeof READ, Record<string, string>> = {
  analyze: { file_id: 'the client uploads in one request (no resumable uploads)' },
  process: { file_id: 'the client uploads in one request (no resumable uploads)' },
  avatar: { file_id: 'the client uploads in one request (no resumable uploads)' },
};

/** Fields the page leaves out on purpose. */
const PAGE_LEAVES_OUT: Record<'analyze' | 'process', Record<string, string>> = {
  analyze: {
    file_id: 'the page uploads in one request',
    webhook_url: 'the page follows its job by long-polls while it is open',
  },
  process: {
    file_id: 'the page uploads in one request',
    webhook_url: 'the page follows its job by long-polls while it is open',
    credential_voice_generator: "a provider secret is not typed into a page: the server's ELEVENLABS_API_KEY",
    lip_sync_correction_model: 'one model exists (the default)',
  },
};

/** Checks that `sent` and `leftOut` together are exactly what the endpoint reads, and do not overlap. */
function expectCovers(sent: Set<string>, leftOut: Record<string, string>, read: string[]) {
  expect(
    [...sent].filter((name) => !read.includes(name)),
    'sent, but not read by the API',
  ).toEqual([]);
  expect(
    read.filter((name) => !sent.has(name) && !(name in leftOut)),
    'read by the API, neither sent nor left out',
  ).toEqual([]);
  expect(
    Object.keys(leftOut).filter((name) => sent.has(name) || !read.includes(name)),
    'listed as left out, but sent or no longer read',
  ).toEqual([]);
}

/** A client whose fetch records the form fields of every request (parsed by the platform's own multipart reader). */
function recordingClient() {
  const sent = new Set<string>();
  const fetch = (async (url: RequestInfo | URL, init: RequestInit = {}) => {
    const form = await new Request(String(url), init).formData();
    for (const name of form.keys()) sent.add(name);
    return Response.json({ video_id: 'vid_x', status: 'pending', registration_status: true });
  }) as typeof globalThis.fetch;
  return { client: new VideoApiClient({ baseUrl: 'http://api.test', apiKey: 'k', fetch }), sent };
}

const bytes = new Uint8Array([1, 2, 3]);

describe('the client sends every field the API reads', () => {
  it('analyze-video', async () => {
    const { client, sent } = recordingClient();
    await client.analyzeVideo(bytes, {
      visualAnalytics: true,
      language: 'de',
      webhookUrl: 'https://hook.test/',
    });
    expectCovers(sent, CLIENT_LEAVES_OUT.analyze, READ.analyze);
  });

  it('process-video', async () => {
    const { client, sent } = recordingClient();
    // Every option of the client, so a new one is in this test (Required: it does not compile without it).
    const every: Required<
      Omit<ProcessOptions, 'onUploadProgress' | 'signal' | 'filename' | 'idempotencyKey'>
    > = {
      file: bytes,
      avatarId: 'avt_x',
      description: 'Hello.',
      blurBackground: false,
      voiceGenerator: 2,
      voiceId: 'v',
      credentialVoiceGenerator: 'c',
      lipSyncCorrection: true,
      lipSyncCorrectionModel: 'lipsync2',
      eyeContactCorrection: true,
      audio: bytes,
      webhookUrl: 'https://hook.test/',
    };
    await client.processVideo(every);
    await client.processVideo({ ...every, avatarId: undefined }); // the file goes only without an avatar
    expectCovers(sent, CLIENT_LEAVES_OUT.process, READ.process);
  });

  it('register-avatar', async () => {
    const { client, sent } = recordingClient();
    await client.registerAvatar(bytes, { webhookUrl: 'https://hook.test/' });
    expectCovers(sent, CLIENT_LEAVES_OUT.avatar, READ.avatar);
  });
});

describe('the page sends every field the API reads', () => {
  const video = new File([bytes], 'talk.mp4', { type: 'video/mp4' });
  const names = (fd: FormData) => [...fd.keys()];

  it('analyze-video', () => {
    const sent = new Set(names(analyzeForm({ file: video, visualAnalytics: true, language: ' DE ' })));
    expectCovers(sent, PAGE_LEAVES_OUT.analyze, READ.analyze);
  });

  it('process-video, over the voice generators and both ways to name the video', () => {
    const base: ProcessValues = {
      file: video,
      avatarId: '',
      voiceGenerator: '0',
      description: 'Hello.',
      voiceId: 'v',
      audio: new File([bytes], 'voice.wav', { type: 'audio/wav' }),
      blurBackground: true,
      lipSyncCorrection: true,
      eyeContactCorrection: true,
    };
    const forms = [
      processForm(base),
      processForm({ ...base, voiceGenerator: '1', avatarId: 'avt_x' }),
      processForm({ ...base, voiceGenerator: '2' }),
    ];
    expectCovers(new Set(forms.flatMap(names)), PAGE_LEAVES_OUT.process, READ.process);
  });

  it('sends only what the chosen voice generator uses, and the values as the API reads them', () => {
    const fd = processForm({
      file: video,
      avatarId: ' avt_x ',
      voiceGenerator: '2',
      description: 'not used with 2',
      voiceId: 'not used with 2',
      audio: new File([bytes], 'voice.wav'),
      blurBackground: false,
      lipSyncCorrection: false,
      eyeContactCorrection: true,
    });
    expect(Object.fromEntries([...fd].map(([k, v]) => [k, typeof v === 'string' ? v : v.name]))).toEqual({
      video_id: 'avt_x',
      voice_generator: '2',
      audio: 'voice.wav',
      blur_background: 'false',
      lip_sync_correction: 'false',
      eye_contact_correction: 'true',
    });
    expect(analyzeForm({ file: video, visualAnalytics: false, language: ' DE ' }).get('language')).toBe('de');
    expect(() => processForm({ ...fdless, voiceGenerator: '2', audio: null })).toThrow(
      /choose an audio file/,
    );
    expect(() => processForm({ ...fdless, file: null })).toThrow(/registered avatar id/);
    expect(() => analyzeForm({ file: null, visualAnalytics: false, language: '' })).toThrow(/Choose or drop/);
  });
});

const fdless: ProcessValues = {
  file: new File([new Uint8Array([1])], 'a.mp4'),
  avatarId: '',
  voiceGenerator: '0',
  description: '',
  voiceId: '',
  audio: null,
  blurBackground: true,
  lipSyncCorrection: false,
  eyeContactCorrection: false,
};
