import { describe, expect, it } from 'vitest';
import type { VoiceLine } from '../composition/schema.ts';
import { speak, speakable } from './voice.ts';

const line = (text: string): VoiceLine => ({ sceneId: 'shot-0', text, offsetMs: 0, voice: 'en-us', wordsPerMinute: 170 });

describe('speakable', () => {
  it('leaves emoji to the screen: flags, families, skin tones and keycaps too', () => {
    expect(speakable('Ship it 🚀 today ✨')).toBe('Ship it today');
    expect(speakable('Now in 🇫🇷 for 👩‍👩‍👧 and 👍🏽, press 1️⃣')).toBe('Now in for and, press 1');
    expect(speakable('Version 2.4: #1 in speed')).toBe('Version 2.4: #1 in speed');
  });
});

describe('speak', () => {
  it('says a line with emoji exactly as the same line without them', async () => {
    const [withEmoji, without] = await Promise.all([speak(line('Ship it 🚀 today ✨'), 10_000), speak(line('Ship it today'), 10_000)]);
    expect(withEmoji.length).toBeGreaterThan(0);
    expect(withEmoji).toEqual(without);
  });

  it('says nothing for a line of emoji only', async () => {
    expect((await speak(line('🚀✨'), 10_000)).length).toBe(0);
  });
});
