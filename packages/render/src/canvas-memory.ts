/**
 * How long the canvas library's allocator keeps freed memory before handing it back to the OS.
 *
 * `@napi-rs/canvas` allocates through its own mimalloc, which reads its options from the
 * environment when the library loads, so this module runs before anything imports it. Every
 * read-back of a frame is a fresh 8 MB buffer (the library cannot read into one of ours), freed
 * when V8 collects it. By default mimalloc returns freed pages after 10 ms, and the next frame's
 * buffer faults them back in, each zeroed by the kernel: about a tenth of node's time in a render.
 * Kept for 200 ms, they are reused from frame to frame. An operator's own setting wins.
 */
// eslint-disable-next-line no-restricted-syntax -- written for mimalloc as the library loads; our code never reads it
process.env.MIMALLOC_PURGE_DELAY ??= '200';
