/**
 * The canvas library, loaded only once its allocator is configured (`canvas-allocator.ts`):
 * every module of the renderer imports the library from here (a lint rule holds to it), so the
 * setting is in the environment whichever of them loads it first.
 */
import './canvas-allocator.ts';

export { createCanvas, GlobalFonts, ImageData, loadImage, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
