/**
 * How the canvas library's allocator hands freed memory back. A module of its own, imported
 * by `canvas.ts` before the library, since a module's imports all run before its own body.
 *
 * `@napi-rs/canvas` allocates through its own mimalloc, which reads its options from the
 * environment as the library loads. Every read-back of a frame or an area is a fresh buffer
 * of up to 8 MB, freed at once (`releaseNow`). With mimalloc's default 10 ms purge delay,
 * the freed buffers of sizes that do not fit the next read-back stayed resident: its arena
 * held 20 to 170 MB at a render's peak, from run to run. Purged at once, it holds about what
 * is live. Measured in bench/render (alternating runs): peak memory 455–485 MB against
 * 489–573 MB, for the same realtime factor (2.56–2.84x against 2.44–3.02x). An operator's
 * own setting wins.
 */
// eslint-disable-next-line no-restricted-syntax -- written for mimalloc, which reads it as the library loads
process.env.MIMALLOC_PURGE_DELAY ??= '0';
