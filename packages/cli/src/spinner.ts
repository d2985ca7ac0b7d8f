import type { Output } from './io.ts';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * One status line, redrawn in place on a terminal; elsewhere (a pipe, CI's log) each new text once
 * on a line of its own, so logs stay readable.
 */
export function statusLine(out: Output) {
  let frame = 0;
  let last = '';
  let timer: ReturnType<typeof setInterval> | null = null;
  const draw = () => out.write(`\r\x1b[2K${FRAMES[frame++ % FRAMES.length]} ${last}`);
  return {
    update(text: string) {
      if (text === last) return;
      last = text;
      if (!out.isTTY) {
        out.write(`${text}\n`);
        return;
      }
      draw();
      timer ??= setInterval(draw, 100);
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
      if (out.isTTY && last) out.write('\r\x1b[2K');
    },
  };
}
