/**
 * @module shared/ids
 * Unguessable, URL-safe identifiers: a prefix and 128 random bits in base64url (22 chars).
 */
export const ID_RANDOM_BYTES = 16;

export function base64url(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export const newVideoId = () => `vid_${base64url(crypto.getRandomValues(new Uint8Array(ID_RANDOM_BYTES)))}`;
export const newUploadId = () => `upl_${base64url(crypto.getRandomValues(new Uint8Array(ID_RANDOM_BYTES)))}`;
export const newAvatarId = () => `avt_${base64url(crypto.getRandomValues(new Uint8Array(ID_RANDOM_BYTES)))}`;

const ID_PATTERN = /^(vid|avt)_[A-Za-z0-9_-]{22}$/;
/** Cheap shape check before touching storage with a client-supplied id. */
export const isWellFormedId = (id: string) => ID_PATTERN.test(id);
export const isAvatarId = (id: string) => id.startsWith('avt_') && ID_PATTERN.test(id);

const UPLOAD_ID_PATTERN = /^upl_[A-Za-z0-9_-]{22}$/;
export const isUploadId = (id: string) => UPLOAD_ID_PATTERN.test(id);
