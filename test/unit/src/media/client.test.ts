import { describe, expect, it } from 'vitest';
import { workBudgetMs } from '../../../../src/media/budget.js';
import { MediaClient, multipartStream, tightenableDeadline } from '../../../../src/media/client.js';
import { TransientError } from '../../../../src/media/errors.js';
import type { MediaTransport } from '../../../../src/media/transport.js';

/** A transport that records each request and answers when told to (or when its signal aborts). */
function heldTransport() {
  const calls: { path: string; headers: Headers; signal: AbortSignal; answer(res: Response): void }[] = [];
  const transport: MediaTransport = {
    fetch: (path, init) =>
      new Promise<Response>((resolve, reject) => {
        const signal = init.signal!;
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        calls.push({ path, headers: new Headers(init.headers), signal, answer: resolve });
      }),
  };
  return { transport, calls };
}

const hints = { filename: 'a.mp4', content_type: 'video/mp4' };
const body = () => new ReadableStream({ start: (c) => c.close() });
const render = (client: MediaClient, beside?: Parameters<MediaClient['render']>[3]) =>
  client.render(
    { source: async () => ({ body: body() }), speech: async () => null },
    {} as never,
    hints,
    beside,
  );

describe('tightenableDeadline', () => {
  it('should fire at its first time unless brought forward, and never later', async () => {
    const late = tightenableDeadline(60_000);
    late.tighten(20);
    const never = tightenableDeadline(60_000);
    never.tighten(120_000);
    await new Promise((r) => setTimeout(r, 80));
    expect(late.signal.aborted).toBe(true);
    expect(never.signal.aborted).toBe(false);
  });
});

describe('MediaClient.render beside its probe', () => {
  it('should send the ceiling budget for the longest media accepted and no duration until the probe answers', async () => {
    const { transport, calls } = heldTransport();
    const client = new MediaClient(transport, { jobId: 'vid_a', maxDurationSec: 600 });
    let probed!: (sec: number) => void;
    const duration = new Promise<number>((r) => (probed = r));
    const rendered = render(client, { duration });
    await new Promise((r) => setTimeout(r, 0));
    expect(calls[0].headers.get('x-work-budget-ms')).toBe(String(workBudgetMs({ durationSec: 600 })));
    expect(calls[0].headers.has('x-media-duration-sec')).toBe(false);
    probed(60);
    calls[0].answer(new Response('mp4'));
    await expect((await rendered).text()).resolves.toBe('mp4');
  });

  it('should use the known duration when the probe already answered', async () => {
    const { transport, calls } = heldTransport();
    const client = new MediaClient(transport, { jobId: 'vid_a', maxDurationSec: 600 });
    client.setMedia({ durationSec: 60 });
    const rendered = render(client, { duration: Promise.resolve(60) });
    await new Promise((r) => setTimeout(r, 0));
    expect(calls[0].headers.get('x-work-budget-ms')).toBe(String(workBudgetMs({ durationSec: 60 })));
    expect(calls[0].headers.get('x-media-duration-sec')).toBe('60');
    calls[0].answer(new Response('mp4'));
    await rendered;
  });

  it('should end the call when the probe beside it failed', async () => {
    const { transport, calls } = heldTransport();
    const client = new MediaClient(transport, { jobId: 'vid_a', maxDurationSec: 600 });
    const stop = new AbortController();
    const rendered = render(client, { duration: new Promise(() => {}), stop: stop.signal });
    await new Promise((r) => setTimeout(r, 0));
    stop.abort();
    expect(calls[0].signal.aborted).toBe(true);
    await expect(rendered).rejects.toThrow(/could not be reached for rendering the video/);
  });
});

describe('multipartStream', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  const stream = (text: string) =>
    new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes(text));
        c.close();
      },
    });

  it('should declare exactly the length of the body it writes when every file size is known', async () => {
    const form = multipartStream([
      { name: 'options', value: '{"blur_background":true,"captions":"é ☃"}' },
      {
        name: 'source',
        filename: 'clip "1".mp4',
        contentType: 'video/mp4',
        stream: stream('x'.repeat(1000)),
        size: 1000,
      },
      { name: 'speech', filename: 'speech', contentType: 'audio/wav', stream: stream(''), size: 0 },
    ]);
    const written = new Uint8Array(await new Response(form.body).arrayBuffer());
    expect(form.length).toBe(written.length);
    expect(new TextDecoder().decode(written)).toContain('x'.repeat(1000));
  });

  it('should declare no length when a file size is unknown', async () => {
    const form = multipartStream([
      { name: 'source', filename: 's', contentType: 'video/mp4', stream: stream('abc') },
    ]);
    expect(form.length).toBeNull();
    await new Response(form.body).arrayBuffer();
  });
});

describe('MediaClient.renderSpeech', () => {
  const words = [{ word: 'Hi.', start: 0.1, end: 0.4, confidence: 1 }];
  const answering = (res: () => Response) => {
    const paths: string[] = [];
    const transport: MediaTransport = {
      fetch: async (path) => {
        paths.push(path);
        return res();
      },
    };
    return { client: new MediaClient(transport, { jobId: 'vid_a' }), paths };
  };

  it('should read the words of the job named in the path', async () => {
    const { client, paths } = answering(() => Response.json({ timing: 'alignment', language: 'en', words }));
    await expect(client.renderSpeech('vid_a')).resolves.toEqual({
      timing: 'alignment',
      language: 'en',
      words,
    });
    expect(paths).toEqual(['/render/speech/vid_a']);
  });

  it('should call words the container no longer has, or cannot give, transient (the render runs again)', async () => {
    const gone = answering(() =>
      Response.json({ error: { code: 'no_render', message: 'x' } }, { status: 404 }),
    );
    await expect(gone.client.renderSpeech('vid_a')).rejects.toBeInstanceOf(TransientError);
    const bad = answering(() => Response.json({ timing: 'alignment', words: 'none' }));
    await expect(bad.client.renderSpeech('vid_a')).rejects.toBeInstanceOf(TransientError);
  });
});

describe('MediaClient on the job source', () => {
  const source = {
    hints,
    size: 3,
    open: async () =>
      new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(new Uint8Array(3)), c.close()) }),
  };
  const missing = () =>
    Response.json({ error: { code: 'source_not_stored', message: 'x' } }, { status: 404 });
  /** Answers PUTs 201 and the probe with `probe()` in turn; records `METHOD path stored?`. */
  const client = (probeAnswers: Array<() => Response>) => {
    const calls: string[] = [];
    const transport: MediaTransport = {
      fetch: async (path, init) => {
        const stored = new Headers(init.headers).get('x-stored-source') === '1';
        calls.push(`${init.method} ${path}${stored ? ' stored' : ''}`);
        if (init.method === 'PUT') return Response.json({ bytes: 3 }, { status: 201 });
        return probeAnswers.shift()!();
      },
    };
    return { media: new MediaClient(transport, { jobId: 'vid_a', source }), calls };
  };
  const probe = { duration_sec: 2, size_bytes: 3, format: 'mp4', audio: null, video: null };

  it('should send the source once, then name it', async () => {
    const { media, calls } = client([() => Response.json(probe), () => Response.json(probe)]);
    await media.probe();
    await media.probe();
    expect(calls).toEqual(['PUT /jobs/vid_a/source', 'POST /probe stored', 'POST /probe stored']);
  });

  it('should send it again when the container lost it, once', async () => {
    const again = client([missing, () => Response.json(probe)]);
    await expect(again.media.probe()).resolves.toMatchObject({ duration_sec: 2 });
    expect(again.calls).toEqual([
      'PUT /jobs/vid_a/source',
      'POST /probe stored',
      'PUT /jobs/vid_a/source',
      'POST /probe stored',
    ]);
    const lost = client([missing, missing]);
    await expect(lost.media.probe()).rejects.toThrow(/reading the media failed/);
  });

  it('should render on the source it sent, and carry the source when the container lost it', async () => {
    const { media, calls } = client([() => Response.json(probe), missing, () => new Response('mp4')]);
    await media.probe();
    const files = { source: async () => ({ body: await source.open(), size: 3 }), speech: async () => null };
    await expect((await media.render(files, {} as never, hints)).text()).resolves.toBe('mp4');
    expect(calls).toEqual([
      'PUT /jobs/vid_a/source',
      'POST /probe stored',
      'POST /render stored',
      'POST /render',
    ]);
  });
});
