import { describe, expect, it } from 'vitest';
import { ILLUSTRATOR_SVG, LICENSED_SVG } from '../testing/media-server.ts';
import { imageDimensions, sniff } from './sniff.ts';

/** An `ftyp` box with its major brand and compatible brands, then some of the file. */
function isoMedia(major: string, compatible: string[]): Buffer {
  const box = Buffer.from(`....ftyp${major}\0\0\0\0${compatible.join('')}`, 'latin1');
  box.writeUInt32BE(box.length, 0);
  return Buffer.concat([box, Buffer.alloc(64, 0)]);
}

describe('sniff', () => {
  it('tells the members of the MP4 family apart by their brands', () => {
    expect(sniff(isoMedia('isom', ['isom', 'iso2', 'avc1', 'mp41']))).toBe('mp4');
    expect(sniff(isoMedia('qt  ', ['qt  ']))).toBe('quicktime');
    expect(sniff(isoMedia('avif', ['avif', 'mif1', 'miaf']))).toBe('avif');
    // An AVIF whose major brand is the generic image one.
    expect(sniff(isoMedia('mif1', ['mif1', 'avif']))).toBe('avif');
    expect(sniff(isoMedia('heic', ['mif1', 'heic']))).toBe('heic');
  });

  it('finds an SVG past its prolog: a declaration, comments, a DOCTYPE, processing instructions', () => {
    const svg = (text: string) => sniff(Buffer.from(text));
    expect(svg(ILLUSTRATOR_SVG)).toBe('svg');
    expect(svg(LICENSED_SVG)).toBe('svg');
    expect(svg('\uFEFF<?xml version="1.0"?>\n<?xml-stylesheet href="logo.css"?>\n<!DOCTYPE svg [\n  <!ENTITY accent "#ff5a36">\n]>\n<svg xmlns="http://www.w3.org/2000/svg"/>')).toBe('svg');
    // Not an SVG: a web page, a drawing whose root is something else, `<svg` beyond the first 16 KiB.
    expect(svg('<!doctype html><svg xmlns="http://www.w3.org/2000/svg"></svg>')).toBeNull();
    expect(svg('<?xml version="1.0"?><html><svg></svg></html>')).toBeNull();
    expect(svg('<svgfoo/>')).toBeNull();
    expect(svg(`<!--${' '.repeat(16 * 1024)}--><svg>`)).toBeNull();
    expect(svg(`<!--${' '.repeat(15 * 1024)}--><svg>`)).toBe('svg');
    // An unclosed comment ends the prolog: it is read once, not tried every way.
    expect(svg(`<!--${'<!-- '.repeat(4000)}`)).toBeNull();
  });

  it('reads an AVIF picture\'s size from the largest ispe property of its meta box, not from one elsewhere', () => {
    const ispe = (width: number, height: number) => {
      const extents = Buffer.alloc(12);
      extents.writeUInt32BE(width, 4);
      extents.writeUInt32BE(height, 8);
      return box('ispe', extents);
    };
    const fullBox = (type: string, ...children: Buffer[]) => box(type, Buffer.alloc(4), ...children);
    // A thumbnail's extents first, then the picture's; a decoy in a free box ahead of them all.
    const meta = fullBox('meta', fullBox('hdlr', Buffer.from('\0\0\0\0pict', 'latin1')), box('iprp', box('ipco', ispe(320, 240), ispe(9000, 9000))));
    const ftyp = box('ftyp', Buffer.from('avif\0\0\0\0avifmif1', 'latin1'));
    const file = Buffer.concat([ftyp, box('free', ispe(64, 64)), meta, box('mdat', Buffer.alloc(32))]);
    expect(imageDimensions(file, 'avif')).toEqual({ width: 9000, height: 9000 });
    expect(imageDimensions(Buffer.concat([ftyp, box('free', ispe(64, 64))]), 'avif')).toBeNull();
  });

  it('reads a JPEG\'s frame header as its decoder does: past fill bytes, never one inside a skipped segment', () => {
    const segment = (marker: number, contents: Buffer) => {
      const head = Buffer.from([0xff, marker, 0, 0]);
      head.writeUInt16BE(contents.length + 2, 2);
      return Buffer.concat([head, contents]);
    };
    const frameHeader = (width: number, height: number) => {
      const contents = Buffer.from([8, 0, 0, 0, 0, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
      contents.writeUInt16BE(height, 1);
      contents.writeUInt16BE(width, 3);
      return segment(0xc0, contents);
    };
    const soi = Buffer.from([0xff, 0xd8]);
    // A camera's EXIF segment holds its thumbnail, a whole JPEG with its own frame header.
    const exif = segment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), soi, frameHeader(160, 120)]));
    const jpeg = (...parts: Buffer[]) => imageDimensions(Buffer.concat([soi, ...parts, Buffer.from([0xff, 0xda])]), 'jpeg');
    expect(jpeg(exif, frameHeader(30_000, 20_000))).toEqual({ width: 30_000, height: 20_000 });
    // 0xFF fill bytes may come before any marker.
    expect(jpeg(Buffer.from([0xff, 0xff]), exif, Buffer.from([0xff]), frameHeader(30_000, 20_000))).toEqual({ width: 30_000, height: 20_000 });
    expect(jpeg(exif)).toBeNull();
  });
});

/** An ISO media box: its size, its type, then its contents. */
function box(type: string, ...contents: Buffer[]): Buffer {
  const head = Buffer.alloc(8);
  head.write(type, 4, 'latin1');
  const whole = Buffer.concat([head, ...contents]);
  whole.writeUInt32BE(whole.length, 0);
  return whole;
}
