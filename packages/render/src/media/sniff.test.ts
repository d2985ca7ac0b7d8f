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

  it('reads an AVIF picture\'s size from its ispe property', () => {
    const ispe = Buffer.alloc(20);
    ispe.writeUInt32BE(20, 0);
    ispe.write('ispe', 4, 'latin1');
    ispe.writeUInt32BE(4032, 12);
    ispe.writeUInt32BE(3024, 16);
    expect(imageDimensions(Buffer.concat([isoMedia('avif', ['avif']), ispe]), 'avif')).toEqual({ width: 4032, height: 3024 });
  });
});
