/**
 * @module api/process
 * POST /api/process-video — creates a processing job (the specification's rules 1–8).
 */
import { Hono } from 'hono';
import type { JobCreated } from '../contract/responses.js';
import { ApiError, invalidField } from '../contract/errors.js';
import { AvatarChoice, ProcessFormOptions, type ProcessOptions } from '../contract/options.js';
import { isAvatarId, newVideoId } from '../shared/ids.js';
import { submitJob } from '../jobs/submit.js';
import { findAvatar } from '../storage/avatars.js';
import { r2Keys } from '../shared/r2-keys.js';
import { formFields, parseFormOptions } from './form-options.js';
import { intake } from './intake.js';
import { seal } from '../shared/sealed.js';
import { credentialSecret } from './storage-config.js';
import type { AppEnv } from './middleware.js';
import { WEBHOOK_URL_FIELD, webhookOf } from './webhooks.js';

/** The form's text fields (beside the `file` and `audio` uploads); the route table documents the same. */
export const PROCESS_TEXT_FIELDS = formFields(
  ProcessFormOptions.extend(AvatarChoice.shape),
  'file_id',
  WEBHOOK_URL_FIELD,
);
/** Rules 6 and 7: the provider's fields are read (and checked) only with voice_generator 1. */
const ALWAYS_READ = ProcessFormOptions.omit({ voice_id: true, credential_voice_generator: true });
const PROVIDER_ONLY = ProcessFormOptions.pick({ voice_id: true, credential_voice_generator: true });

/** Pure: validates the text fields into options (rules 2–8). `hasAudio` tells whether `audio` was sent. */
export function processOptions(fields: Record<string, string>, hasAudio: boolean): ProcessOptions {
  const { voice_generator, description, ...toggles } = parseFormOptions(ALWAYS_READ, fields);
  // Rule 5: audio only with voice_generator 2.
  if (hasAudio && voice_generator !== '2') {
    throw invalidField('audio', `"audio" is allowed only when voice_generator is 2 (got ${voice_generator})`);
  }
  // Our decision for the case the spec leaves open: 2 means "use the supplied audio", so it needs one.
  if (voice_generator === '2' && !hasAudio) {
    throw invalidField('audio', 'voice_generator 2 uses a supplied audio file: send it in the "audio" field');
  }
  const provider =
    voice_generator === '1'
      ? parseFormOptions(PROVIDER_ONLY, fields)
      : { voice_id: null, credential_voice_generator: null };
  return {
    ...toggles,
    ...provider,
    voice_generator,
    // Rule 4: with audio, description is not used.
    description: voice_generator === '2' ? null : description,
    speech: voice_generator === '2' ? 'supplied' : description ? 'synthesized' : 'original',
  };
}

export const processRoutes = new Hono<AppEnv>().post('/api/process-video', async (c) => {
  const tenant = c.get('tenant').id;
  const videoId = newVideoId();
  const spec = {
    jobId: videoId,
    files: { file: r2Keys.upload(videoId), audio: r2Keys.uploadAudio(videoId) },
    fields: PROCESS_TEXT_FIELDS,
  };
  return intake(c, spec, async ({ form, source, admit }) => {
    const options = processOptions(form.fields, form.files.audio !== undefined);
    const avatarId = parseFormOptions(AvatarChoice, form.fields).video_id;
    const webhook = await webhookOf(c, form.fields);
    let video = await source();
    if (avatarId !== null) {
      const avatar = isAvatarId(avatarId) ? await findAvatar(c.env.MEDIA, tenant, avatarId) : null;
      if (!avatar)
        throw new ApiError('avatar_not_found', `no registered avatar "${avatarId}" for this API key`, {
          field: 'video_id',
        });
      // Rule 1: the registered video wins; an uploaded file is ignored (and not kept).
      if (form.files.file) await c.env.MEDIA.delete(form.files.file.key);
      video = avatar.source;
    }
    if (!video)
      throw new ApiError('missing_file', 'send the video in "file" or a registered avatar id in "video_id"', {
        field: 'file',
      });
    await admit();
    // Issue #34: the job record holds the provider credential sealed, never in plain text.
    if (options.credential_voice_generator)
      options.credential_voice_generator = await seal(
        credentialSecret(c.env),
        options.credential_voice_generator,
        videoId,
      );
    await submitJob(c.env, {
      video_id: videoId,
      kind: 'processing',
      tenant,
      source: video,
      audio: form.files.audio ?? null,
      options,
      webhook,
    });
    // A resumable upload named beside an avatar id stays the client's (rule 1: the avatar was used).
    return {
      body: { video_id: videoId, status: 'pending' } satisfies JobCreated,
      usedResumable: avatarId === null,
    };
  });
});
