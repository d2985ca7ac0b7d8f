// RGBA → I420 (yuv420p), BT.709 limited range, in AssemblyScript compiled to WebAssembly with
// SIMD: the frame conversion of `src/encode/i420.ts`. Rebuild `src/encode/i420.wasm` with
// `pnpm --filter @vp/render build:wasm`; a test checks that the committed module is this source's.
//
// Fixed point 16.16: Y = 16 + 219/255 (0.2126 R + 0.7152 G + 0.0722 B), U and V = 128 + 224/255
// of the scaled differences B − Y and R − Y. Chroma is taken from the sum of each 2x2 block:
// two more bits to shift. The offsets and the rounding are added before the shift.

const Y_R: i32 = 11966, Y_G: i32 = 40254, Y_B: i32 = 4064;
const U_R: i32 = -6596, U_G: i32 = -22189, U_B: i32 = 28785;
const V_R: i32 = 28785, V_G: i32 = -26145, V_B: i32 = -2639;
const Y_BASE: i32 = (16 << 16) + (1 << 15);
const C_BASE: i32 = (128 << 18) + (1 << 17);

const yR = i32x4.splat(Y_R), yG = i32x4.splat(Y_G), yB = i32x4.splat(Y_B);
const uR = i32x4.splat(U_R), uG = i32x4.splat(U_G), uB = i32x4.splat(U_B);
const vR = i32x4.splat(V_R), vG = i32x4.splat(V_G), vB = i32x4.splat(V_B);
const yBase = i32x4.splat(Y_BASE), cBase = i32x4.splat(C_BASE);
const BYTE = i32x4.splat(255);

/** Red, green and blue of four RGBA pixels, one channel per vector of four 32-bit lanes. */
@inline function red(pixels: v128): v128 { return v128.and(pixels, BYTE); }
@inline function green(pixels: v128): v128 { return v128.and(i32x4.shr_u(pixels, 8), BYTE); }
@inline function blue(pixels: v128): v128 { return v128.and(i32x4.shr_u(pixels, 16), BYTE); }

@inline function weigh(r: v128, g: v128, b: v128, wr: v128, wg: v128, wb: v128, base: v128, shift: i32): v128 {
  return i32x4.shr_s(i32x4.add(i32x4.add(i32x4.mul(r, wr), i32x4.mul(g, wg)), i32x4.add(i32x4.mul(b, wb), base)), shift);
}

/** Eight columns' sums (two vectors) added in neighbouring pairs: four 2-wide sums. */
@inline function pairs(left: v128, right: v128): v128 {
  return i32x4.add(v128.shuffle<i32>(left, right, 0, 2, 4, 6), v128.shuffle<i32>(left, right, 1, 3, 5, 7));
}

@inline function lumaOf(p: u32): u8 {
  return <u8>((Y_R * <i32>(p & 255) + Y_G * <i32>((p >> 8) & 255) + Y_B * <i32>((p >> 16) & 255) + Y_BASE) >> 16);
}

/**
 * Converts the rect (`x`, `y`, `w`, `h`, even-aligned, inside the frame) of opaque RGBA pixels at
 * `src`, rows `stride` pixels apart, into the I420 frame at `dst` (`width` × `height`): its Y plane,
 * then U and V at half width and height. Eight pixels of two rows at a time, then pairs.
 */
export function convert(src: usize, stride: i32, dst: usize, width: i32, height: i32, x: i32, y: i32, w: i32, h: i32): void {
  const half = width >> 1;
  const uPlane = dst + <usize>(width * height);
  const vPlane = uPlane + <usize>(half * (height >> 1));
  for (let row = 0; row < h; row += 2) {
    let top = src + <usize>(row * stride * 4);
    let bottom = top + <usize>(stride * 4);
    let yTop = dst + <usize>((y + row) * width + x);
    let yBottom = yTop + <usize>width;
    const c = <usize>(((y + row) >> 1) * half + (x >> 1));
    let u = uPlane + c;
    let v = vPlane + c;
    let column = 0;
    for (; column + 8 <= w; column += 8) {
      const t0 = v128.load(top), t1 = v128.load(top, 16), b0 = v128.load(bottom), b1 = v128.load(bottom, 16);
      const rt0 = red(t0), gt0 = green(t0), bt0 = blue(t0), rt1 = red(t1), gt1 = green(t1), bt1 = blue(t1);
      const rb0 = red(b0), gb0 = green(b0), bb0 = blue(b0), rb1 = red(b1), gb1 = green(b1), bb1 = blue(b1);
      const lumaTop = i16x8.narrow_i32x4_u(weigh(rt0, gt0, bt0, yR, yG, yB, yBase, 16), weigh(rt1, gt1, bt1, yR, yG, yB, yBase, 16));
      const lumaBottom = i16x8.narrow_i32x4_u(weigh(rb0, gb0, bb0, yR, yG, yB, yBase, 16), weigh(rb1, gb1, bb1, yR, yG, yB, yBase, 16));
      const luma = i8x16.narrow_i16x8_u(lumaTop, lumaBottom);
      v128.store64_lane(yTop, luma, 0);
      v128.store64_lane(yBottom, luma, 1);
      const r = pairs(i32x4.add(rt0, rb0), i32x4.add(rt1, rb1));
      const g = pairs(i32x4.add(gt0, gb0), i32x4.add(gt1, gb1));
      const b = pairs(i32x4.add(bt0, bb0), i32x4.add(bt1, bb1));
      const uv = i8x16.narrow_i16x8_u(i16x8.narrow_i32x4_u(weigh(r, g, b, uR, uG, uB, cBase, 18), weigh(r, g, b, vR, vG, vB, cBase, 18)), v128.splat<i16>(0));
      v128.store32_lane(u, uv, 0);
      v128.store32_lane(v, uv, 1);
      top += 32; bottom += 32; yTop += 8; yBottom += 8; u += 4; v += 4;
    }
    for (; column < w; column += 2) {
      const p0 = load<u32>(top), p1 = load<u32>(top, 4), p2 = load<u32>(bottom), p3 = load<u32>(bottom, 4);
      store<u8>(yTop, lumaOf(p0));
      store<u8>(yTop, lumaOf(p1), 1);
      store<u8>(yBottom, lumaOf(p2));
      store<u8>(yBottom, lumaOf(p3), 1);
      const r = <i32>((p0 & 255) + (p1 & 255) + (p2 & 255) + (p3 & 255));
      const g = <i32>(((p0 >> 8) & 255) + ((p1 >> 8) & 255) + ((p2 >> 8) & 255) + ((p3 >> 8) & 255));
      const b = <i32>(((p0 >> 16) & 255) + ((p1 >> 16) & 255) + ((p2 >> 16) & 255) + ((p3 >> 16) & 255));
      store<u8>(u, <u8>((U_R * r + U_G * g + U_B * b + C_BASE) >> 18));
      store<u8>(v, <u8>((V_R * r + V_G * g + V_B * b + C_BASE) >> 18));
      top += 8; bottom += 8; yTop += 2; yBottom += 2; u += 1; v += 1;
    }
  }
}
