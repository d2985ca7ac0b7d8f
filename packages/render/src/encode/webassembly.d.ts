/**
 * The part of the WebAssembly JavaScript API the conversion uses. Node has all of it, but its
 * types ship only with the DOM's library, which this package does not load.
 */
declare global {
  namespace WebAssembly {
    class Module {
      constructor(bytes: Uint8Array);
    }
    class Memory {
      constructor(descriptor: { initial: number; maximum?: number });
      readonly buffer: ArrayBuffer;
    }
    class Instance {
      constructor(module: Module, imports?: Record<string, Record<string, unknown>>);
      readonly exports: Record<string, unknown>;
    }
  }
}

export {};
