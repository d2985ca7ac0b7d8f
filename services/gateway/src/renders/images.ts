/** What an upload is, by its first bytes (its name and declared type are the client's word only). */
export type ImageType = { mime: 'image/png' | 'image/jpeg' | 'image/webp'; extension: 'png' | 'jpg' | 'webp' };

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const starts = (bytes: Uint8Array, prefix: number[], at = 0) => prefix.every((b, i) => bytes[at + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

export function sniffImage(bytes: Uint8Array): ImageType | null {
  if (starts(bytes, PNG)) return { mime: 'image/png', extension: 'png' };
  if (starts(bytes, [0xff, 0xd8, 0xff])) return { mime: 'image/jpeg', extension: 'jpg' };
  if (starts(bytes, ascii('RIFF')) && starts(bytes, ascii('WEBP'), 8)) return { mime: 'image/webp', extension: 'webp' };
  return null;
}
