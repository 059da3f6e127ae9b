/**
 * @module storage/avatars
 * Registered avatars: the source video and a small metadata object, under the tenant's prefix,
 * so one key can never reach another's avatar.
 */
import type { SourceRef } from '../contract/jobs.js';
import { r2Keys } from '../shared/r2-keys.js';

export interface AvatarMeta {
  avatar_id: string;
  tenant: string;
  created_at: string;
  source: SourceRef;
}

export async function saveAvatar(
  bucket: R2Bucket,
  tenant: string,
  avatarId: string,
  source: SourceRef,
): Promise<AvatarMeta> {
  const meta: AvatarMeta = { avatar_id: avatarId, tenant, created_at: new Date().toISOString(), source };
  await bucket.put(r2Keys.avatarMeta(tenant, avatarId), JSON.stringify(meta), {
    httpMetadata: { contentType: 'application/json' },
  });
  return meta;
}

export async function findAvatar(
  bucket: R2Bucket,
  tenant: string,
  avatarId: string,
): Promise<AvatarMeta | null> {
  const obj = await bucket.get(r2Keys.avatarMeta(tenant, avatarId));
  return obj ? obj.json<AvatarMeta>() : null;
}
